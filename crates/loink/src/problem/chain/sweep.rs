//! Where the reference search starts on the Panda's pose and axis tasks (docs/pose.md): every
//! closed-form answer ([`PandaIk`]) on a fine grid of q7 — for the axis task also of the turn
//! ψ about the tool axis — the local minima of the cost along each branch, cheapest first. A
//! local solver slides to the bottom of the piece it starts on and misses the others; the grid
//! visits every piece, so the polish of its best few finds J\*.

use super::panda_ik::{Joints, PandaIk};
use crate::problem::Problem;
use crate::so3::{self, Matrix3, Vector3};

/// q7 values on the grid (pose.md: 2,000 over its range).
pub const Q7_STEPS: usize = 2_000;
/// The axis task's grid: turns about the tool axis × q7 values.
pub const AXIS_GRID: (usize, usize) = (72, 240);
/// Seeds handed to the polish.
pub const SEEDS: usize = 8;

/// The reference's seeds for pose target `(position, rotation)`: along each of the eight
/// branches (two elbows × two wrists × two shoulder representations) the grid points whose
/// cost is below both neighbours', cheapest first.
pub fn pose_seeds(
    ik: &PandaIk,
    problem: &Problem,
    position: Vector3,
    rotation: &Matrix3,
) -> Vec<Vec<f64>> {
    pose_seeds_on(ik, problem, (position, rotation), Q7_STEPS)
}

/// [`pose_seeds`] on a grid of `steps` q7 values.
pub fn pose_seeds_on(
    ik: &PandaIk,
    problem: &Problem,
    (position, rotation): (Vector3, &Matrix3),
    steps: usize,
) -> Vec<Vec<f64>> {
    let [lo, hi] = ik.q7_range();
    let steps = steps.max(2);
    let mut branches: Vec<Vec<Option<(f64, Joints)>>> =
        (0..8).map(|_| Vec::with_capacity(steps)).collect();
    let mut answers = Vec::with_capacity(8);
    for k in 0..steps {
        let q7 = lo + (hi - lo) * k as f64 / (steps - 1) as f64;
        ik.solve(position, rotation, q7, &mut answers);
        let mut row = [None; 8];
        for (branch, a) in &answers {
            row[*branch] = Some((problem.cost().value(a), *a));
        }
        for (b, found) in row.into_iter().enumerate() {
            branches[b].push(found);
        }
    }
    let mut minima: Vec<(f64, Joints)> = Vec::new();
    for run in &branches {
        for k in 0..run.len() {
            let Some((cost, q)) = run[k] else { continue };
            let below = |j: Option<usize>| {
                j.and_then(|j| run.get(j).copied().flatten())
                    .is_none_or(|(c, _)| cost <= c)
            };
            if below(k.checked_sub(1)) && below(Some(k + 1)) {
                minima.push((cost, q));
            }
        }
    }
    cheapest(minima)
}

/// The pieces of pose target `(position, rotation)`'s answers along q7 (`steps` values): the
/// cost of each branch's answer at each q7 (NaN where it has none within the limits).
pub fn pose_pieces(
    ik: &PandaIk,
    problem: &Problem,
    (position, rotation): (Vector3, &Matrix3),
    steps: usize,
) -> crate::problem::capability::AnswerSweep {
    let [lo, hi] = ik.q7_range();
    let steps = steps.max(2);
    let values: Vec<f64> = (0..steps)
        .map(|k| lo + (hi - lo) * k as f64 / (steps - 1) as f64)
        .collect();
    let mut costs = vec![vec![f64::NAN; steps]; 8];
    let mut answers = Vec::with_capacity(8);
    for (k, &q7) in values.iter().enumerate() {
        ik.solve(position, rotation, q7, &mut answers);
        for (branch, a) in &answers {
            costs[*branch][k] = problem.cost().value(a);
        }
    }
    crate::problem::capability::AnswerSweep {
        joint: 6,
        values,
        costs,
    }
}

/// The reference's seeds for axis target `(position, axis)`: the pose task's sweep over the
/// turn ψ about the axis too, the cheapest grid answers that lie apart.
pub fn axis_seeds(
    ik: &PandaIk,
    problem: &Problem,
    position: Vector3,
    axis: Vector3,
) -> Vec<Vec<f64>> {
    let [lo, hi] = ik.q7_range();
    let base = frame_with_z(axis);
    let (turns, steps) = AXIS_GRID;
    let mut found: Vec<(f64, Joints)> = Vec::new();
    let mut answers = Vec::with_capacity(8);
    for i in 0..turns {
        let psi = std::f64::consts::TAU * i as f64 / turns as f64;
        let rotation = so3::mul(&base, &so3::rot_z(psi));
        for k in 0..steps {
            let q7 = lo + (hi - lo) * k as f64 / (steps - 1) as f64;
            ik.solve(position, &rotation, q7, &mut answers);
            found.extend(answers.iter().map(|(_, a)| (problem.cost().value(a), *a)));
        }
    }
    cheapest(found)
}

/// The [`SEEDS`] cheapest, each at least 0.3 rad (in the largest joint) from the ones kept.
fn cheapest(mut candidates: Vec<(f64, Joints)>) -> Vec<Vec<f64>> {
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut kept: Vec<Joints> = Vec::new();
    for (_, q) in candidates {
        let apart = |k: &Joints| k.iter().zip(&q).any(|(a, b)| (a - b).abs() > 0.3);
        if kept.iter().all(apart) {
            kept.push(q);
            if kept.len() == SEEDS {
                break;
            }
        }
    }
    kept.into_iter().map(|q| q.to_vec()).collect()
}

/// A rotation whose z column is the unit direction `z`.
fn frame_with_z(z: Vector3) -> Matrix3 {
    // Columns u, v, z: right-handed, as the tangent basis is (v = z × u).
    let (x, y) = crate::problem::task_space::tangent_basis(z);
    [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]]
}
