//! Connected pieces of a four-link arm's two-dimensional self-motion set inside the limits,
//! counted on a grid (used to choose and document the `planar4` preset).
//!
//! Coordinates: q₁ on `grid` points over its limits, and ψ = φ − q₁ (the last link's angle
//! relative to the first) on `2·grid` points over [Σ_{i≥2} lower, Σ_{i≥2} upper]; for each
//! (q₁, ψ) both elbow branches of the wrist problem (joints 2 and 3) are evaluated in closed
//! form. Feasible grid nodes are joined to their neighbours on the same branch when the
//! joint angles are continuous — eight neighbours, so a thin diagonal band is not cut into
//! grid-sized fragments — and to the other branch at the same node where the wrist
//! problem stops existing (the branches meet there). Pieces are the connected components.

use super::sweep::{sweep, Chain, Sample, CONTINUITY};
use crate::problem::Problem;
use crate::robot::Robot;

fn close(a: &Sample, b: &Sample) -> bool {
    (0..3).all(|i| (a.q3[i] - b.q3[i]).abs() < CONTINUITY)
}

/// Number of connected feasible pieces on a `grid × 2·grid` (q₁, ψ) grid (grid ≥ 2).
/// The arm must have four joints.
pub(crate) fn grid_pieces(problem: &Problem, target: [f64; 2], grid: usize) -> usize {
    let grid = grid.max(2);
    let limits = problem.arm.limits();
    let (lo, hi) = (limits.lower()[0], limits.upper()[0]);
    let cols = 2 * grid;
    // rows[i] = the ψ sweep at q₁ = lo + i·step; samples[b][k].
    let rows: Vec<[Vec<Sample>; 2]> = (0..grid)
        .map(|i| {
            let q1 = lo + (hi - lo) * i as f64 / (grid - 1) as f64;
            let mut chain = Chain::new(problem, target, &[q1]);
            sweep(&mut chain, cols, false).samples
        })
        .collect();
    let at = |b: usize, i: usize, k: usize| &rows[i][b][k];
    let index = |b: usize, i: usize, k: usize| (b * grid + i) * cols + k;
    let mut seen = vec![false; 2 * grid * cols];
    let mut stack = Vec::new();
    let mut pieces = 0;
    for b0 in 0..2 {
        for i0 in 0..grid {
            for k0 in 0..cols {
                if seen[index(b0, i0, k0)] || !at(b0, i0, k0).feasible {
                    continue;
                }
                pieces += 1;
                seen[index(b0, i0, k0)] = true;
                stack.push((b0, i0, k0));
                while let Some((b, i, k)) = stack.pop() {
                    let here = at(b, i, k);
                    let mut grid_neighbours = Vec::with_capacity(8);
                    for di in -1i64..=1 {
                        for dk in -1i64..=1 {
                            let (ni, nk) = (i as i64 + di, k as i64 + dk);
                            if (di, dk) != (0, 0)
                                && (0..grid as i64).contains(&ni)
                                && (0..cols as i64).contains(&nk)
                            {
                                grid_neighbours.push((ni as usize, nk as usize));
                            }
                        }
                    }
                    let at_edge = grid_neighbours
                        .iter()
                        .any(|&(ni, nk)| !at(b, ni, nk).exists);
                    let mut next: Vec<(usize, usize, usize)> = grid_neighbours
                        .iter()
                        .map(|&(ni, nk)| (b, ni, nk))
                        .collect();
                    if at_edge {
                        next.push((1 - b, i, k));
                    }
                    for (nb, ni, nk) in next {
                        let there = at(nb, ni, nk);
                        if there.feasible && close(here, there) && !seen[index(nb, ni, nk)] {
                            seen[index(nb, ni, nk)] = true;
                            stack.push((nb, ni, nk));
                        }
                    }
                }
            }
        }
    }
    pieces
}
