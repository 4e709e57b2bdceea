//! The optimality-gap map: the workspace on a grid, each reachable cell coloured by how far the
//! learned solver's cost lies above the global optimum, (J − J*)/J*. It costs one learned solve
//! and one reference sweep per cell, so it is computed once per model, a few cells per animation
//! frame within a time budget, and cached.

use loink::problem::Problem;
use loink::report::Status;
use loink::solvers::reference;
use loink::solvers::registry::{SolverKind, SolverSettings};

use crate::clock::now_micros;
use crate::engine::gap_percent;
use crate::learned::LoinkView;
use loink::problem::region::Region;

/// Cells per side.
pub const CELLS: usize = 40;
/// Polish steps after the one-shot learned answer, whatever the page's feedback setting,
/// so the cached map does not depend on it (the one-shot answer alone is mm-accurate, and
/// a cost gap is only meaningful for a configuration that reaches the target).
pub const REFINE_STEPS: usize = 3;

/// What one cell holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GapCell {
    /// Not computed yet.
    Pending,
    /// Outside the reachable region (no feasible configuration).
    Unreachable,
    /// The learned answer is not feasible after its own report (status not `converged`).
    Failed,
    /// Gap in percent.
    Gap(f64),
}

/// The cached map of one model.
#[derive(Debug, Clone, PartialEq)]
pub struct GapMap {
    /// Model name it belongs to.
    pub model: String,
    /// The rectangle covered, `[x0, x1, y0, y1]` (the reachable region's).
    pub bounds: [f64; 4],
    /// `CELLS × CELLS` cells, row 0 at the top.
    pub cells: Vec<GapCell>,
    /// The target's coordinates beyond the plane's two, the same in every cell (the climber's
    /// clearance; empty for a two-dimensional task).
    pub rest: Vec<f64>,
    next: usize,
}

impl GapMap {
    /// An empty map over the region's rectangle, its targets completed by `rest`.
    pub fn new(model: &str, region: &Region, rest: &[f64]) -> GapMap {
        GapMap {
            model: model.to_string(),
            bounds: region.bounds(),
            cells: vec![GapCell::Pending; CELLS * CELLS],
            rest: rest.to_vec(),
            next: 0,
        }
    }

    /// Centre of cell (row, col), row 0 at the top.
    pub fn centre(&self, row: usize, col: usize) -> [f64; 2] {
        let [x0, x1, y0, y1] = self.bounds;
        [
            x0 + (col as f64 + 0.5) * (x1 - x0) / CELLS as f64,
            y1 - (row as f64 + 0.5) * (y1 - y0) / CELLS as f64,
        ]
    }

    /// Fraction of cells done.
    pub fn progress(&self) -> f64 {
        self.next as f64 / self.cells.len() as f64
    }

    /// Whether every cell is done.
    pub fn done(&self) -> bool {
        self.next >= self.cells.len()
    }

    /// Computes cells until `budget_micros` has passed (at least one cell). Returns whether
    /// anything changed.
    pub fn step(
        &mut self,
        problem: &Problem,
        model: &LoinkView,
        region: &Region,
        budget_micros: f64,
    ) -> bool {
        let start = now_micros();
        let mut changed = false;
        // One-shot + refine, cold, whatever the page's settings: the cached map must not depend
        // on a setting changed later. Built by the registry like every other solver.
        let settings = SolverSettings {
            refine: REFINE_STEPS,
            ..SolverSettings::new(SolverKind::LoinkRefine)
        };
        let Ok(mut learned_solver) = model.set().solver(&settings) else {
            self.next = self.cells.len();
            return true;
        };
        while !self.done() {
            let k = self.next;
            let mut y = self.centre(k / CELLS, k % CELLS).to_vec();
            y.extend_from_slice(&self.rest);
            self.cells[k] = if !region.contains(y[0], y[1]) {
                GapCell::Unreachable
            } else {
                let best = reference::solve(problem, &y);
                if best.status() != Status::Converged {
                    GapCell::Unreachable
                } else {
                    let learned = learned_solver.solve(&y);
                    if crate::engine::comparable(&learned) {
                        GapCell::Gap(gap_percent(learned.cost(), best.cost()).max(0.0))
                    } else {
                        GapCell::Failed
                    }
                }
            };
            self.next += 1;
            changed = true;
            if now_micros() - start >= budget_micros {
                break;
            }
        }
        changed
    }

    /// Median gap (percent) over the computed reachable cells, for the caption.
    pub fn median_gap(&self) -> Option<f64> {
        let mut gaps: Vec<f64> = self
            .cells
            .iter()
            .filter_map(|c| match c {
                GapCell::Gap(g) => Some(*g),
                _ => None,
            })
            .collect();
        if gaps.is_empty() {
            return None;
        }
        loink::stats::sort_values(&mut gaps);
        Some(gaps[gaps.len() / 2])
    }
}
