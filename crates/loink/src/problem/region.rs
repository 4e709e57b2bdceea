//! The reachable region of a problem with a two-dimensional task, as a raster over a rectangle
//! of the task plane: cells hit by the forward map of configurations inside the limits. Each
//! kind fills it its own way (a planar arm walks a lattice of configurations, `planar::region`;
//! any other problem samples its box, [`Region::sample_box`]); the page shades it and the
//! drawing fits its view around it.

use super::Problem;

/// Cells per side of the raster.
pub const CELLS: usize = 256;

/// A `CELLS × CELLS` raster over `[x0, x1] × [y0, y1]`, row 0 at the top (largest y).
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    bounds: [f64; 4],
    reachable: Vec<bool>,
}

impl Region {
    /// An empty raster over `bounds = [x0, x1, y0, y1]`.
    pub fn empty(bounds: [f64; 4]) -> Region {
        Region {
            bounds,
            reachable: vec![false; CELLS * CELLS],
        }
    }

    /// The cell index of (x, y), if inside.
    pub fn index(&self, x: f64, y: f64) -> Option<usize> {
        let [x0, x1, y0, y1] = self.bounds;
        let cx = ((x - x0) / (x1 - x0) * CELLS as f64).floor();
        let cy = ((y1 - y) / (y1 - y0) * CELLS as f64).floor();
        if cx >= 0.0 && cy >= 0.0 && cx < CELLS as f64 && cy < CELLS as f64 {
            Some(cy as usize * CELLS + cx as usize)
        } else {
            None
        }
    }

    /// Marks the cell holding (x, y) (ignored outside the raster).
    pub fn mark(&mut self, x: f64, y: f64) {
        if let Some(k) = self.index(x, y) {
            self.reachable[k] = true;
        }
    }

    /// Closes one-cell holes: a cell between two marked cells (left–right or above–below) is
    /// reachable too, since the region is connected at this resolution.
    pub fn close_holes(&mut self) {
        let hits = self.reachable.clone();
        for r in 1..CELLS - 1 {
            for c in 1..CELLS - 1 {
                let k = r * CELLS + c;
                let pair = (hits[k - 1] && hits[k + 1]) || (hits[k - CELLS] && hits[k + CELLS]);
                self.reachable[k] |= pair;
            }
        }
    }

    /// The region of any problem with a task of two or more coordinates: the images of
    /// `samples` configurations of a seeded low-discrepancy lattice of its box on the task's
    /// first two coordinates, inside `bounds`.
    pub fn sample_box(problem: &Problem, bounds: [f64; 4], samples: usize) -> Region {
        let mut region = Region::empty(bounds);
        let limits = problem.limits();
        let n = limits.len();
        let m = problem.task_dim();
        if m < 2 || !problem.replayable() || n == 0 {
            return region;
        }
        // Additive recurrence with the generalised golden ratio (R_n sequence): evenly spread,
        // deterministic, any n.
        let phi = (0..30).fold(2.0f64, |x, _| (1.0 + x).powf(1.0 / (n as f64 + 1.0)));
        let alpha: Vec<f64> = (1..=n).map(|i| 1.0 / phi.powi(i as i32)).collect();
        // A task of more coordinates is marked where it projects onto its first two (a 3-D
        // arm's workspace seen from above).
        let mut y = vec![0.0; m];
        let mut u = vec![0.5; n];
        for _ in 0..samples {
            for (ui, a) in u.iter_mut().zip(&alpha) {
                *ui = (*ui + a).fract();
            }
            let q = limits.at_unit(&u);
            problem.position_into(&q, &mut y);
            region.mark(y[0], y[1]);
        }
        region.close_holes();
        region
    }

    /// `[x0, x1, y0, y1]` of the raster.
    pub fn bounds(&self) -> [f64; 4] {
        self.bounds
    }

    /// The raster as `CELLS × CELLS` RGBA pixels, row 0 at the top: `inside` where reachable,
    /// transparent elsewhere. Drawn scaled (nearest neighbour) over the bounds, it shows exactly
    /// what a per-pixel [`Self::contains`] lookup would, at any size.
    pub fn rgba(&self, inside: [u8; 4]) -> Vec<u8> {
        let mut out = vec![0u8; CELLS * CELLS * 4];
        for (pixel, &hit) in out.chunks_exact_mut(4).zip(&self.reachable) {
            if hit {
                pixel.copy_from_slice(&inside);
            }
        }
        out
    }

    /// Whether the cell containing (x, y) was reached by a sample.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        self.index(x, y).is_some_and(|k| self.reachable[k])
    }
}
