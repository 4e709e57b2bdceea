//! Connected pieces of a four-link arm's two-dimensional self-motion set inside the limits,
//! counted on a grid (used to choose and document the `planar4` preset).
//!
//! Chart: (q₁, q₂) on a `grid × grid` lattice over their limits. For each node the elbow of
//! joint 3 sits at e = l₁u(q₁) + l₂u(q₁+q₂) and the last two links solve the two-link problem
//! from e to the target in closed form: q₄ = ±acos(c), c = (|y − e|² − l₃² − l₄²)/(2l₃l₄), one sheet
//! per sign. Over this chart the self-motion set is a graph on each sheet, so its pieces are the
//! 8-connected components of the feasible nodes, the two sheets joined at the nodes where they
//! meet (the edge of the region where the two-link problem has a solution, q₄ ∈ {0, ±π}). A
//! joint's angle counts as feasible when any 2π-copy of it lies in its limits.

use std::f64::consts::TAU;

use super::PlanarArm;

/// The copy θ + 2πk closest above `lower`, and whether it is ≤ `upper`.
fn within(theta: f64, lower: f64, upper: f64) -> bool {
    lower + (theta - lower).rem_euclid(TAU) <= upper
}

/// Number of connected feasible pieces on a `grid × grid` (q₁, q₂) lattice (grid ≥ 2).
/// The arm must have four joints.
pub fn grid_pieces(arm: &PlanarArm, target: [f64; 2], grid: usize) -> usize {
    let grid = grid.max(2);
    let (len, lo, hi) = (arm.lengths(), arm.limits().lower(), arm.limits().upper());
    if len.len() != 4 {
        return 0;
    }
    let node = |i: usize, j: usize| i * grid + j;
    let mut exists = vec![false; grid * grid];
    let mut feasible = vec![false; 2 * grid * grid];
    for i in 0..grid {
        let q1 = lo[0] + (hi[0] - lo[0]) * i as f64 / (grid - 1) as f64;
        for j in 0..grid {
            let q2 = lo[1] + (hi[1] - lo[1]) * j as f64 / (grid - 1) as f64;
            let ex = len[0] * q1.cos() + len[1] * (q1 + q2).cos();
            let ey = len[0] * q1.sin() + len[1] * (q1 + q2).sin();
            let (dx, dy) = (target[0] - ex, target[1] - ey);
            let c =
                (dx * dx + dy * dy - len[2] * len[2] - len[3] * len[3]) / (2.0 * len[2] * len[3]);
            if c.is_nan() || c.abs() > 1.0 {
                continue;
            }
            exists[node(i, j)] = true;
            for (sheet, sign) in [1.0, -1.0].into_iter().enumerate() {
                let q4 = sign * c.acos();
                let link3 = dy.atan2(dx) - (len[3] * q4.sin()).atan2(len[2] + len[3] * q4.cos());
                let q3 = link3 - q1 - q2;
                feasible[sheet * grid * grid + node(i, j)] =
                    within(q3, lo[2], hi[2]) && within(q4, lo[3], hi[3]);
            }
        }
    }
    let mut seen = vec![false; 2 * grid * grid];
    let mut stack = Vec::new();
    let mut pieces = 0;
    for start in 0..2 * grid * grid {
        if seen[start] || !feasible[start] {
            continue;
        }
        pieces += 1;
        seen[start] = true;
        stack.push(start);
        while let Some(at) = stack.pop() {
            let (sheet, rest) = (at / (grid * grid), at % (grid * grid));
            let (i, j) = (rest / grid, rest % grid);
            let mut on_edge = false;
            for di in -1i64..=1 {
                for dj in -1i64..=1 {
                    let (ni, nj) = (i as i64 + di, j as i64 + dj);
                    if (di, dj) == (0, 0)
                        || ni < 0
                        || nj < 0
                        || ni >= grid as i64
                        || nj >= grid as i64
                    {
                        continue;
                    }
                    let next = node(ni as usize, nj as usize);
                    on_edge |= !exists[next];
                    let index = sheet * grid * grid + next;
                    if feasible[index] && !seen[index] {
                        seen[index] = true;
                        stack.push(index);
                    }
                }
            }
            let other = (1 - sheet) * grid * grid + rest;
            if on_edge && feasible[other] && !seen[other] {
                seen[other] = true;
                stack.push(other);
            }
        }
    }
    pieces
}
