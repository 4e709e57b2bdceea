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
/// Golden-section steps of the classical search along one piece: its bracket of two grid steps
/// shrinks by 0.618 a step, to 2·10⁻⁸ of q7's range on a 64-value grid.
pub const GOLDEN_STEPS: usize = 32;

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
    hand: (Vector3, &Matrix3),
    steps: usize,
) -> Vec<Vec<f64>> {
    let branches = pose_branches(ik, problem, hand, steps);
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

/// Every closed-form answer to pose target `(position, rotation)` on a grid of `steps` q7
/// values across its range: per branch (eight), at each value its answer within the limits with
/// the answer's cost, or None.
pub fn pose_branches(
    ik: &PandaIk,
    problem: &Problem,
    (position, rotation): (Vector3, &Matrix3),
    steps: usize,
) -> Vec<Vec<Option<(f64, Joints)>>> {
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
    branches
}

/// The classical answer to pose target `(position, rotation)`: every closed-form answer on a
/// grid of `grid` q7 values, the local minima of the cost along each branch, and a
/// golden-section search of q7 between the grid neighbours of the `keep` cheapest, on their
/// branch. The cheapest answer met wins; each is on the target by construction.
pub fn pose_search(
    ik: &PandaIk,
    problem: &Problem,
    (position, rotation): (Vector3, &Matrix3),
    grid: usize,
    keep: usize,
) -> crate::problem::capability::ClosedFormAnswer {
    let [lo, hi] = ik.q7_range();
    let steps = grid.max(3);
    let at = |k: usize| lo + (hi - lo) * k as f64 / (steps - 1) as f64;
    let mut search = BranchSearch {
        ik,
        problem,
        position,
        rotation,
        answers: Vec::with_capacity(8),
        evaluations: 0,
        best: None,
    };
    let mut costs = vec![[f64::NAN; 8]; steps];
    for (k, row) in costs.iter_mut().enumerate() {
        search.evaluate(at(k));
        for (branch, q) in &search.answers {
            row[*branch] = problem.cost().value(q);
        }
    }
    // A grid value no cheaper than its neighbours on its branch (a neighbour without an answer
    // there counts as dearer: the piece ends).
    let mut minima: Vec<(f64, usize, usize)> = Vec::new();
    for branch in 0..8 {
        for k in 0..steps {
            let cost = costs[k][branch];
            let below = |j: Option<usize>| {
                j.and_then(|j| costs.get(j))
                    .is_none_or(|row| row[branch].is_nan() || cost <= row[branch])
            };
            if !cost.is_nan() && below(k.checked_sub(1)) && below(Some(k + 1)) {
                minima.push((cost, branch, k));
            }
        }
    }
    minima.sort_by(|a, b| a.0.total_cmp(&b.0));
    for &(_, branch, k) in minima.iter().take(keep) {
        search.golden(branch, at(k.saturating_sub(1)), at((k + 1).min(steps - 1)));
    }
    crate::problem::capability::ClosedFormAnswer {
        q: search.best.map(|(_, q)| q.to_vec()),
        evaluations: search.evaluations,
    }
}

/// The closed form evaluated along q7 for one target, keeping the cheapest answer it meets.
struct BranchSearch<'a> {
    ik: &'a PandaIk,
    problem: &'a Problem,
    position: Vector3,
    rotation: &'a Matrix3,
    answers: Vec<super::panda_ik::Answer>,
    evaluations: usize,
    best: Option<(f64, Joints)>,
}

impl BranchSearch<'_> {
    /// Every answer at `q7` (into `answers`); the cheapest so far kept.
    fn evaluate(&mut self, q7: f64) {
        self.ik
            .solve(self.position, self.rotation, q7, &mut self.answers);
        self.evaluations += 1;
        for (_, q) in &self.answers {
            let cost = self.problem.cost().value(q);
            if self.best.is_none_or(|(c, _)| cost < c) {
                self.best = Some((cost, *q));
            }
        }
    }

    /// The cost of `branch`'s answer at `q7` (infinite where it has none).
    fn on_branch(&mut self, branch: usize, q7: f64) -> f64 {
        self.evaluate(q7);
        self.answers
            .iter()
            .find(|(b, _)| *b == branch)
            .map_or(f64::INFINITY, |(_, q)| self.problem.cost().value(q))
    }

    /// Golden-section search of `branch`'s cost over q7 in [a, b].
    fn golden(&mut self, branch: usize, mut a: f64, mut b: f64) {
        let ratio = 0.5 * (5f64.sqrt() - 1.0);
        let mut c = b - ratio * (b - a);
        let mut d = a + ratio * (b - a);
        let mut fc = self.on_branch(branch, c);
        let mut fd = self.on_branch(branch, d);
        for _ in 0..GOLDEN_STEPS {
            if fc <= fd {
                (b, d, fd) = (d, c, fc);
                c = b - ratio * (b - a);
                fc = self.on_branch(branch, c);
            } else {
                (a, c, fc) = (c, d, fd);
                d = a + ratio * (b - a);
                fd = self.on_branch(branch, d);
            }
        }
    }
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
