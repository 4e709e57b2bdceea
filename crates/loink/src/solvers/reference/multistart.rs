//! The reference optimum of any kind with a forward map and no search of its own (the soft arm,
//! the serial chains): the polish (limit-aware task restoration, null-space Newton on the cost,
//! a damped-least-squares rescue) from the kind's number of fixed starts
//! (`Profile::reference_starts`) spread over the box (a scrambled lattice), the cheapest
//! converged answer kept and, when its polish ran out of steps, polished on to the test. On the soft arm docs/soft-arm.md measured the
//! optimum unique (32 more IPOPT starts never found a cheaper one on 50 targets); the tests check
//! these starts against four times as many.
//!
//! A multi-start search decides no reachability: a target no start reaches ends `capped` (not
//! found), never `unreachable`.

use super::NAME;
use crate::problem::Problem;
use crate::report::{Solution, Status, Termination};
use crate::solvers::{clock, micros_since, polish};

/// Polish steps from each start.
pub const STEPS: usize = 40;
/// Polish steps from each start under a stiff cost (one whose terms limit the polish's steps,
/// [`crate::cost::CostModel::max_step`]): short steps need more of them to settle; on 20 targets
/// under the shelf, 40 left 11 more than 1 % above IPOPT's best of 16, 120 left 8 (docs/collision.md).
pub const STIFF_STEPS: usize = 120;
/// Polish steps of the last polish of the best answer, when its own ended short of the
/// convergence test.
pub const FINAL_STEPS: usize = 400;

/// `count` starts in the box: the points (k + ½)/count along each axis, each axis visiting them
/// in a different order (a Latin hypercube from fixed permutations: the same starts every call).
pub fn starts(problem: &Problem, count: usize) -> Vec<Vec<f64>> {
    let limits = problem.limits();
    let n = limits.len();
    (0..count)
        .map(|k| {
            (0..n)
                .map(|i| {
                    // A stride coprime with most counts, different per axis.
                    let stride = [1usize, 5, 7, 11, 13, 17, 19, 23][i % 8];
                    let slot = (k * stride + i * 3) % count;
                    let u = (slot as f64 + 0.5) / count as f64;
                    limits.lower()[i] + u * (limits.upper()[i] - limits.lower()[i])
                })
                .collect()
        })
        .collect()
}

/// The cheapest converged polish from `count` spread starts.
pub fn solve_from(problem: &Problem, target: &[f64], count: usize) -> Solution {
    solve_from_seeds(problem, target, |p| starts(p, count.max(1)))
}

/// The cheapest converged polish from `seeds(problem)` (drawn only for a valid target).
fn solve_from_seeds(
    problem: &Problem,
    target: &[f64],
    seeds: impl FnOnce(&Problem) -> Vec<Vec<f64>>,
) -> Solution {
    let start = clock();
    if problem.check_target(target).is_err() {
        return Solution::invalid(NAME, target, 0.0);
    }
    let mut best: Option<(Solution, Termination)> = None;
    let steps = if problem.cost().max_step().is_some() {
        STIFF_STEPS
    } else {
        STEPS
    };
    for seed in seeds(problem) {
        let polished = polish::polish(problem, target, &seed, steps);
        let (answer, termination) = judged(problem, target, Some(&seed), polished, 0);
        if best.as_ref().is_none_or(|(b, _)| answer.is_better_than(b)) {
            best = Some((answer, termination));
        }
    }
    let best = match best {
        Some((answer, Termination::Converged)) => answer,
        Some((answer, _)) if answer.status() == Status::Converged => {
            let polished = polish::polish(problem, target, answer.q(), FINAL_STEPS);
            let (again, _) = judged(
                problem,
                target,
                answer.seed(),
                polished,
                answer.iterations(),
            );
            if again.is_better_than(&answer) {
                again
            } else {
                answer
            }
        }
        Some((answer, _)) => answer,
        None => Solution::invalid(NAME, target, 0.0),
    };
    let best = if best.status() == Status::Converged {
        best
    } else {
        best.with_note("no start reached the target: reachability is not decided for this problem")
    };
    best.with_micros(micros_since(start))
}

/// A polish's answer judged by replay (its steps after `earlier` iterations), with whether the
/// polish itself converged (anything else counts as the step cap).
fn judged(
    problem: &Problem,
    target: &[f64],
    seed: Option<&[f64]>,
    polished: polish::Polished,
    earlier: usize,
) -> (Solution, Termination) {
    let termination = if polished.termination == Termination::Converged {
        Termination::Converged
    } else {
        Termination::IterationCap
    };
    let answer = Solution::assess(
        problem,
        NAME,
        target,
        seed,
        polished.q,
        earlier + polished.steps,
        0.0,
        termination,
    );
    (answer, termination)
}

/// The reference optimum: from the kind's own seeds where it places them near its optimum,
/// else from the kind's number of spread starts.
pub fn solve(problem: &Problem, target: &[f64]) -> Solution {
    solve_from_seeds(problem, target, |p| {
        let search = p.capabilities().search;
        let seeds = search.and_then(|s| s.reference_seeds(p, target));
        match seeds {
            Some(mut seeds) if !seeds.is_empty() => {
                let spread = search.map_or(0, |s| s.reference_spread_starts());
                if spread > 0 {
                    seeds.extend(starts(p, spread));
                }
                seeds
            }
            _ => starts(p, p.profile().reference_starts),
        }
    })
}
