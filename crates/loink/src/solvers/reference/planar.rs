//! The global reference optimum by self-motion sweep (planar3.md), and the sampled self-motion
//! set for the playground's landscape panel.
//!
//! **Three links (global, sampled then refined).** φ = q₁ + q₂ + q₃ parameterises the self-motion set; φ is
//! swept over [Σ lower, Σ upper] at [`SAMPLES`] points, each giving both elbow branches of the
//! wrist two-link problem in closed form; infeasible points are dropped; the
//! [`MAX_REFINED`] cheapest local minima of the sampled feasible set are refined by golden
//! section to 1e-10 rad in φ (a minimum on a joint limit converges onto the limit from inside).
//! The result misses the optimum only if it lies in a feasible piece narrower than the sample
//! spacing (≈2·10⁻⁴ rad for planar3).
//!
//! **Two links.** No redundancy: the cheaper feasible analytic branch.
//!
//! **Four or more links (grid-limited, not exact).** The first n − 3 joints (the prefix) are
//! searched on a grid over their limits ([`prefix_samples`] per joint); every grid point is
//! solved by the three-link sweep above with [`INNER_SAMPLES`] samples plus refinement; the
//! [`MAX_REFINED_PREFIX`] best grid minima are then refined by golden section in each prefix
//! joint in turn. This is global only up to the grid: a basin narrower than the prefix grid
//! spacing can be missed, and the refinement is local.
//!
//! Each φ is "unwrapped": the swept joints take the 2π representative nearest their mid-range,
//! which covers every configuration when each joint range spans at most 2π (all presets).

use super::NAME;
use crate::problem::planar::sweep::{golden, sweep, Chain, Node, Sweep, ANGLE_TOL};
use crate::problem::planar::PlanarArm;
use crate::problem::Problem;
use crate::report::{Solution, Termination, Tolerance};
use crate::solvers::analytic::{self, Branch};
use crate::solvers::refine::restore;
use crate::solvers::{clock, micros_since, wrap_into};

/// φ samples of the three-link sweep (planar3.md: ≈4·10⁴).
pub const SAMPLES: usize = 40_000;

/// φ samples of the inner three-link sweep when the prefix is gridded (four or more links).
pub const INNER_SAMPLES: usize = 2_000;

/// Sampled local minima refined per sweep.
pub const MAX_REFINED: usize = 6;

/// Prefix grid minima refined (four or more links).
pub const MAX_REFINED_PREFIX: usize = 3;

/// Largest `samples` accepted by [`self_motion`].
pub const MAX_PANEL_SAMPLES: usize = 1_000_000;

/// Grid points per prefix joint for an arm with `dof` joints (total work stays ≲ 10⁶ points).
pub fn prefix_samples(dof: usize) -> usize {
    match dof {
        0..=4 => 200,
        5 => 40,
        _ => 12,
    }
}

/// The best point of a sweep: cost, φ, branch.
#[derive(Debug, Clone, Copy)]
struct Best {
    cost: f64,
    phi: f64,
    branch: Branch,
}

fn branch_index(branch: Branch) -> usize {
    match branch {
        Branch::ElbowUp => 0,
        Branch::ElbowDown => 1,
    }
}

/// Refines one sampled local minimum (and the other branch at a junction).
fn refine_node(chain: &mut Chain, sw: &Sweep, node: Node) -> Vec<Best> {
    let (b, k) = node;
    let last = sw.phis.len() - 1;
    let (a, z) = (sw.phis[k.saturating_sub(1)], sw.phis[(k + 1).min(last)]);
    let mut branches = vec![b];
    if sw.at_junction(node) {
        branches.push(1 - b);
    }
    branches
        .into_iter()
        .map(|bi| {
            let branch = Branch::BOTH[bi];
            let start = (sw.phis[k], chain.objective(sw.phis[k], branch));
            let (phi, cost) = golden(|p| chain.objective(p, branch), a, z, start, ANGLE_TOL);
            Best { cost, phi, branch }
        })
        .filter(|best| best.cost.is_finite())
        .collect()
}

/// The refined optimum over one chain (prefix fixed), with the sweep it came from.
fn chain_optimum(chain: &mut Chain, samples: usize) -> (Option<Best>, Sweep) {
    let sw = sweep(chain, samples, false);
    let best = sw
        .local_minima()
        .into_iter()
        .take(MAX_REFINED)
        .flat_map(|node| refine_node(chain, &sw, node))
        .min_by(|x, y| x.cost.total_cmp(&y.cost));
    (best, sw)
}

/// A feasible optimum: (cost, full q).
type Found = (f64, Vec<f64>);

/// The optimum of the three-link tail for a fixed prefix: (cost, full q).
fn tail_optimum(
    arm: &PlanarArm,
    problem: &Problem,
    target: [f64; 2],
    prefix: &[f64],
    samples: usize,
) -> Option<(f64, Vec<f64>)> {
    let mut chain = Chain::new(arm, problem, target, prefix);
    let samples = if prefix.is_empty() {
        samples
    } else {
        INNER_SAMPLES
    };
    let (best, _) = chain_optimum(&mut chain, samples);
    best.map(|b| (b.cost, chain.q_at(b.phi, b.branch)))
}

/// Grid search + golden refinement over the prefix joints `fixed.len()..dof − 3`.
fn prefix_optimum(
    arm: &PlanarArm,
    problem: &Problem,
    target: [f64; 2],
    fixed: &mut Vec<f64>,
    samples: usize,
) -> Option<(f64, Vec<f64>)> {
    let n = arm.dof();
    if fixed.len() == n - 3 {
        return tail_optimum(arm, problem, target, fixed, samples);
    }
    let j = fixed.len();
    let (lo, hi) = (arm.limits().lower()[j], arm.limits().upper()[j]);
    let count = prefix_samples(n);
    let step = (hi - lo) / (count - 1) as f64;
    let eval = |v: f64, fixed: &mut Vec<f64>| {
        fixed.push(v);
        let r = prefix_optimum(arm, problem, target, fixed, samples);
        fixed.pop();
        r
    };
    let grid: Vec<(f64, Option<Found>)> = (0..count)
        .map(|i| {
            let v = lo + step * i as f64;
            (v, eval(v, fixed))
        })
        .collect();
    let cost_at = |i: usize| grid[i].1.as_ref().map_or(f64::INFINITY, |r| r.0);
    let mut minima: Vec<usize> = (0..count)
        .filter(|&i| {
            let c = cost_at(i);
            c.is_finite()
                && (i == 0 || c <= cost_at(i - 1))
                && (i + 1 == count || c <= cost_at(i + 1))
        })
        .collect();
    crate::stats::sort_by_cost(&mut minima, |&a| cost_at(a));
    let mut best: Option<(f64, Vec<f64>)> = None;
    for &i in minima.iter().take(MAX_REFINED_PREFIX) {
        let a = lo + step * i.saturating_sub(1) as f64;
        let z = lo + step * (i + 1).min(count - 1) as f64;
        let start = (grid[i].0, cost_at(i));
        let (v, _) = golden(
            |v| eval(v, fixed).map_or(f64::INFINITY, |r| r.0),
            a,
            z,
            start,
            ANGLE_TOL,
        );
        if let Some(found) = eval(v, fixed) {
            if best.as_ref().is_none_or(|b| found.0 < b.0) {
                best = Some(found);
            }
        }
    }
    best
}

/// The global reference optimum (see the module docs for what "global" means per arm).
/// `invalid` for a bad target or a problem that is not a planar arm; `unreachable` when no
/// feasible point exists, with q the closest pose within the limits (`closest`).
pub fn solve(problem: &Problem, target: &[f64]) -> Solution {
    solve_with_samples(problem, target, SAMPLES)
}

/// [`solve`] with `samples` φ samples for the three-link sweep (clamped to
/// 2..=[`MAX_PANEL_SAMPLES`]; used to check the default against much denser sweeps).
pub fn solve_with_samples(problem: &Problem, target: &[f64], samples: usize) -> Solution {
    let samples = samples.clamp(2, MAX_PANEL_SAMPLES);
    let start = clock();
    let Some(arm) = problem.planar() else {
        return Solution::invalid(NAME, target, micros_since(start));
    };
    if problem.check_target(target).is_err() {
        return Solution::invalid(NAME, target, micros_since(start));
    }
    let y = [target[0], target[1]];
    let found = match arm.dof() {
        1 => {
            let q = vec![wrap_into(
                y[1].atan2(y[0]),
                arm.limits().lower()[0],
                arm.limits().upper()[0],
            )];
            Some((problem.cost().value(&q), q))
        }
        2 => analytic::solve_best(problem, target)
            .ok()
            .filter(|s| s.status() == crate::report::Status::Converged)
            .map(|s| (s.cost(), s.q().to_vec())),
        _ => prefix_optimum(arm, problem, y, &mut Vec::new(), samples),
    };
    let (q, termination) = match found {
        Some((_, q)) => (q, Termination::Converged),
        None => {
            // The closest pose within the limits. On the workspace boundary (e.g. planar3 fully
            // stretched at |y| = reach) the feasible set shrinks to a point the sweep can miss;
            // a pose found here that reaches y is then the optimum within tolerance.
            let closest = crate::problem::planar::closest::closest_pose(arm, problem, target)
                .unwrap_or_else(|| {
                    restore(problem, target, &arm.limits().centres(), 100)
                        .q()
                        .to_vec()
                });
            let reached = crate::report::distance(&arm.position(&closest), target);
            let termination = if reached <= Tolerance::CLASSICAL.residual {
                Termination::Converged
            } else {
                Termination::Unreachable
            };
            (closest, termination)
        }
    };
    let mut solution =
        Solution::closed_form(problem, NAME, target, q, micros_since(start), termination);
    if arm.dof() == 1 && solution.residual() > Tolerance::CLASSICAL.residual {
        solution = Solution::assess(
            problem,
            NAME,
            target,
            None,
            solution.q().to_vec(),
            1,
            micros_since(start),
            Termination::Unreachable,
        );
    }
    solution
}

/// One drawn point of the self-motion set.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfMotionSample {
    /// φ, the absolute angle of the last link (rad).
    pub phi: f64,
    /// The configuration (for an unreachable wrist: the closest stretched/folded pose).
    pub q: Vec<f64>,
    /// J(q).
    pub cost: f64,
    /// The wrist two-link problem has a solution here (otherwise q misses the target).
    pub reachable: bool,
    /// Reachable and inside the joint limits.
    pub feasible: bool,
}

/// The samples of one elbow branch, in increasing φ.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfMotionBranch {
    /// Which branch of the wrist two-link problem.
    pub branch: Branch,
    /// One sample per φ of the grid (same grid for both branches).
    pub samples: Vec<SelfMotionSample>,
}

/// A refined local minimum of J over the feasible self-motion set.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalMinimum {
    /// φ at the minimum.
    pub phi: f64,
    /// Its branch.
    pub branch: Branch,
    /// Its configuration.
    pub q: Vec<f64>,
    /// J there.
    pub cost: f64,
    /// Within 1e-9 rad of a joint limit (a constrained minimum).
    pub on_limit: bool,
}

/// The self-motion set of a target, sampled for drawing J over φ.
///
/// - three links: the whole set; `pieces` and `minima` come from the dense [`SAMPLES`] sweep
///   (independent of the drawing resolution `samples`);
/// - two links: one sample per branch (no self-motion), `pieces` = feasible branches;
/// - four or more links: the one-dimensional slice through the reference optimum (prefix
///   joints held at the optimum's values), swept over the last link's φ.
///
/// Bad targets give an empty set (no branches, 0 pieces).
#[derive(Debug, Clone, PartialEq)]
pub struct SelfMotion {
    /// The swept φ range.
    pub phi_range: (f64, f64),
    /// `[ElbowUp, ElbowDown]`.
    pub branches: Vec<SelfMotionBranch>,
    /// Connected pieces of the feasible set.
    pub pieces: usize,
    /// Refined local minima, cheapest first (the first is the reference optimum).
    pub minima: Vec<LocalMinimum>,
}

impl SelfMotion {
    fn empty() -> Self {
        Self {
            phi_range: (0.0, 0.0),
            branches: Vec::new(),
            pieces: 0,
            minima: Vec::new(),
        }
    }
}

/// Samples the self-motion set of `target` at `samples` φ values (clamped to
/// 2..=[`MAX_PANEL_SAMPLES`]) for the landscape panel.
pub fn self_motion(problem: &Problem, target: &[f64], samples: usize) -> SelfMotion {
    self_motion_with(problem, target, samples, SAMPLES)
}

/// [`self_motion`] with the dense sweep that finds the pieces and local minima of a three-link
/// arm at `dense` φ samples (clamped to 2..=[`MAX_PANEL_SAMPLES`]) instead of [`SAMPLES`]: the
/// playground's per-frame pass (≈1,000 samples costs a fortieth). Minima are still refined to
/// 1e-10 rad, but a feasible piece or basin narrower than the spacing can be missed. Other
/// arms ignore `dense`.
pub fn self_motion_with(
    problem: &Problem,
    target: &[f64],
    samples: usize,
    dense: usize,
) -> SelfMotion {
    let Some(arm) = problem.planar() else {
        return SelfMotion::empty();
    };
    if problem.check_target(target).is_err() || arm.dof() < 2 {
        return SelfMotion::empty();
    }
    let y = [target[0], target[1]];
    let margin_of = |q: &[f64]| arm.limits().margin(q);
    if arm.dof() == 2 {
        let Ok(both) = analytic::solve_both(problem, target) else {
            return SelfMotion::empty();
        };
        let mut minima = Vec::new();
        let branches = Branch::BOTH
            .into_iter()
            .zip(both.iter())
            .map(|(branch, s)| {
                let feasible = s.status() == crate::report::Status::Converged;
                let phi = s.q().iter().sum();
                if feasible {
                    minima.push(LocalMinimum {
                        phi,
                        branch,
                        q: s.q().to_vec(),
                        cost: s.cost(),
                        on_limit: s.margin() < 1e-9,
                    });
                }
                SelfMotionBranch {
                    branch,
                    samples: vec![SelfMotionSample {
                        phi,
                        q: s.q().to_vec(),
                        cost: s.cost(),
                        reachable: s.residual() <= Tolerance::CLASSICAL.residual,
                        feasible,
                    }],
                }
            })
            .collect();
        crate::stats::sort_by_cost(&mut minima, |m| m.cost);
        return SelfMotion {
            phi_range: (
                arm.limits().lower().iter().sum(),
                arm.limits().upper().iter().sum(),
            ),
            pieces: minima.len(),
            branches,
            minima,
        };
    }
    let n = arm.dof();
    let prefix: Vec<f64> = if n == 3 {
        Vec::new()
    } else {
        let best = solve(problem, target);
        if best.status() == crate::report::Status::Converged {
            best.q()[..n - 3].to_vec()
        } else {
            arm.limits().centres()[..n - 3].to_vec()
        }
    };
    let mut chain = Chain::new(arm, problem, y, &prefix);
    let dense = if n == 3 {
        dense.clamp(2, MAX_PANEL_SAMPLES)
    } else {
        INNER_SAMPLES
    };
    let sw = sweep(&mut chain, dense, false);
    let refined: Vec<Best> = sw
        .local_minima()
        .into_iter()
        .take(MAX_REFINED)
        .flat_map(|node| refine_node(&mut chain, &sw, node))
        .collect();
    let mut minima: Vec<LocalMinimum> = refined
        .into_iter()
        .map(|b| {
            let q = chain.q_at(b.phi, b.branch);
            LocalMinimum {
                phi: b.phi,
                branch: b.branch,
                on_limit: margin_of(&q) < 1e-9,
                q,
                cost: b.cost,
            }
        })
        .collect();
    crate::stats::sort_by_cost(&mut minima, |m| m.cost);
    minima.dedup_by(|a, b| a.branch == b.branch && (a.phi - b.phi).abs() < 1e-6);
    let pieces = sw.pieces();
    let drawn = sweep(&mut chain, samples.clamp(2, MAX_PANEL_SAMPLES), true);
    let branches = Branch::BOTH
        .into_iter()
        .map(|branch| {
            let b = branch_index(branch);
            let samples = drawn
                .phis
                .iter()
                .zip(&drawn.samples[b])
                .map(|(&phi, s)| {
                    let mut q = prefix.clone();
                    q.extend_from_slice(&s.q3);
                    SelfMotionSample {
                        phi,
                        q,
                        cost: s.cost,
                        reachable: s.exists,
                        feasible: s.feasible,
                    }
                })
                .collect();
            SelfMotionBranch { branch, samples }
        })
        .collect();
    SelfMotion {
        phi_range: chain.phi_range(),
        branches,
        pieces,
        minima,
    }
}

/// Connected pieces of the feasible self-motion set of `target` inside the limits, or `None`
/// when the target is invalid, the problem is not a planar arm or it has more than four joints.
///
/// Two links: feasible branches. Three links: the dense φ sweep ([`SAMPLES`]). Four links: a
/// `grid × 2·grid` grid over (q₁, φ − q₁) per branch, 8-neighbour connectivity plus the branch
/// junctions (see `connectivity`), so pieces narrower than a grid cell can be merged or missed.
pub fn connected_pieces(problem: &Problem, target: &[f64], grid: usize) -> Option<usize> {
    let arm = problem.planar()?;
    problem.check_target(target).ok()?;
    match arm.dof() {
        2 => Some(self_motion(problem, target, 2).pieces),
        3 => {
            let mut chain = Chain::new(arm, problem, [target[0], target[1]], &[]);
            Some(sweep(&mut chain, SAMPLES, false).pieces())
        }
        4 => Some(crate::problem::planar::connectivity::grid_pieces(
            arm,
            [target[0], target[1]],
            grid,
        )),
        _ => None,
    }
}
