//! The pose task's reference: the Panda's closed-form IK recovers every configuration it is
//! asked about, and the reference optimum of a pose target is the cheapest answer.

use loink::problem::chain::panda_ik::PandaIk;
use loink::problem::chain::SerialChain;
use loink::problem::Problem;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[path = "common/tabletop.rs"]
mod tabletop;
use tabletop::tabletop_configurations;

fn chain(problem: &Problem) -> &SerialChain {
    problem.kinematics().as_any().downcast_ref().unwrap()
}

#[test]
fn the_closed_form_ik_recovers_every_configuration_at_its_q7() {
    let problem = Problem::preset("panda-pose").unwrap();
    let serial = chain(&problem);
    let ik = PandaIk::of(serial.chain(), problem.limits()).expect("the Panda's geometry");
    let view = problem.capabilities().space().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut answers = Vec::new();
    let mut missed = 0;
    let configurations = problem.random_configurations(2_000, &mut rng);
    for q in &configurations {
        let (p, r) = view.hand_frame(q).unwrap();
        ik.solve(p, &r, q[6], &mut answers);
        assert!(answers.len() <= 8, "{} answers", answers.len());
        for (_, a) in &answers {
            let (pa, ra) = view.hand_frame(a).unwrap();
            let miss = (0..3).map(|k| (pa[k] - p[k]).abs()).fold(0.0, f64::max);
            let turn = (0..9).map(|k| (ra[k] - r[k]).abs()).fold(0.0, f64::max);
            assert!(
                miss < 1e-9 && turn < 1e-9,
                "{q:?} -> {a:?}: {miss} m, {turn}"
            );
        }
        let found = answers
            .iter()
            .any(|(_, a)| a.iter().zip(q).all(|(x, y)| (x - y).abs() < 1e-7));
        if !found {
            if missed < 5 {
                eprintln!("missed {q:?}: {} answers {answers:?}", answers.len());
            }
            missed += 1;
        }
    }
    assert_eq!(
        missed,
        0,
        "{missed} of {} configurations not recovered",
        configurations.len()
    );
    // Another chain is not the Panda.
    let tiago = Problem::preset("tiago-pose").unwrap();
    assert!(PandaIk::of(chain(&tiago).chain(), tiago.limits()).is_none());
}

/// The reference optimum of tabletop pose targets (the hand within 60° of straight down) is
/// within 1 % of the cheapest answer a search four times as fine and 256 spread starts find.
#[test]
fn the_reference_is_the_cheapest_answer_a_finer_search_finds() {
    use loink::problem::chain::sweep;
    use loink::report::Status;
    use loink::solvers::reference::{self, multistart};
    let problem = Problem::preset("panda-pose").unwrap();
    let ik = PandaIk::of(chain(&problem).chain(), problem.limits()).unwrap();
    let view = problem.capabilities().space().unwrap();
    let tabletop = tabletop_configurations(&problem, 17, 400, 40);
    let mut within = 0;
    for q in &tabletop {
        let y = problem.position(q);
        let found = reference::solve(&problem, &y);
        assert_eq!(found.status(), Status::Converged, "{y:?}");
        let (p, r) = view.hand_frame(q).unwrap();
        let fine = sweep::pose_seeds_on(&ik, &problem, (p, &r), 4 * sweep::Q7_STEPS);
        let polished = fine
            .iter()
            .map(|seed| {
                let s = loink::solvers::polish::polish(&problem, &y, seed, 200);
                (s.termination, s.q)
            })
            .filter(|(t, _)| *t == loink::report::Termination::Converged)
            .map(|(_, q): (_, Vec<f64>)| problem.cost().value(&q));
        let spread = multistart::solve_from(&problem, &y, 256);
        let best = polished
            .chain(std::iter::once(spread.cost()).filter(|_| spread.status() == Status::Converged))
            .fold(found.cost(), f64::min);
        if found.cost() <= best * 1.01 + 1e-9 {
            within += 1;
        } else {
            eprintln!("{y:?}: reference {} against {best}", found.cost());
        }
    }
    assert!(tabletop.len() >= 30, "{} tabletop targets", tabletop.len());
    assert!(
        within + 1 >= tabletop.len(),
        "{within} of {} within 1 %",
        tabletop.len()
    );
}

/// pose.md's three tabletop targets (x, y, z, qw, qx, qy, qz) and their J*.
const TABLETOP: [([f64; 7], f64); 3] = [
    (
        [0.3088, -0.4336, 0.5452, 0.3473, 0.7982, -0.4689, -0.1497],
        0.3116,
    ),
    (
        [-0.1938, -0.4665, -0.1963, 0.2131, 0.1455, -0.9605, 0.1043],
        1.9179,
    ),
    (
        [0.1054, -0.1140, 0.6689, 0.0040, 0.3519, 0.8954, 0.2727],
        1.0010,
    ),
];

#[test]
fn the_sweep_of_the_answers_bottoms_out_at_the_optimum() {
    let problem = Problem::preset("panda-pose").unwrap();
    for (columns, optimum) in TABLETOP {
        let y = problem.task().from_columns(&columns).unwrap();
        let sweep = problem.answer_sweep(&y, 2_000).unwrap();
        assert_eq!(
            (sweep.joint, sweep.values.len(), sweep.costs.len()),
            (6, 2_000, 8)
        );
        let pieces = sweep
            .costs
            .iter()
            .filter(|c| c.iter().any(|v| v.is_finite()))
            .count();
        let lowest = sweep
            .costs
            .iter()
            .flatten()
            .copied()
            .filter(|v| v.is_finite())
            .fold(f64::INFINITY, f64::min);
        // pose.md gives the target and J* to four digits: the grid's lowest point lies at J*.
        assert!(pieces >= 2, "{columns:?}: {pieces} pieces");
        assert!(
            (lowest - optimum).abs() <= 0.005 * optimum,
            "{columns:?}: lowest {lowest}, J* {optimum}"
        );
    }
    // Only a pose target has one (a position target's answers are not a curve).
    let panda = Problem::preset("panda").unwrap();
    assert!(panda.answer_sweep(&[0.4, 0.0, 0.4], 100).is_none());
}

/// The classical search (the closed form on a coarse q7 grid, then a golden-section search
/// along the cheapest pieces) lands on the target, at or below the cheapest answer on its own
/// grid, within 1 % of the reference optimum on nearly every tabletop target, and below it only
/// by the polish's own tolerance (its golden sections end closer to a piece's bottom than the
/// reference's polish stops: up to 0.1 % on 1,000 targets); a problem with no closed form is
/// refused by name.
#[test]
fn the_closed_form_search_lands_on_the_target_between_its_grid_and_the_optimum() {
    use loink::report::Status;
    use loink::solvers::closed_form_search::{self, GRID};
    use loink::solvers::reference;
    let problem = Problem::preset("panda-pose").unwrap();
    let ik = PandaIk::of(chain(&problem).chain(), problem.limits()).unwrap();
    let view = problem.capabilities().space().unwrap();
    let tabletop = tabletop_configurations(&problem, 23, 200, 20);
    let mut within = 0;
    for q in &tabletop {
        let y = problem.position(q);
        let found = closed_form_search::solve(&problem, &y);
        assert_eq!(found.status(), Status::Converged, "{y:?}");
        assert!(found.residual() < 1e-9, "{y:?}: {}", found.residual());
        let optimum = reference::solve(&problem, &y).cost();
        assert!(
            found.cost() >= optimum * (1.0 - 5e-3),
            "{y:?}: {} below J* {optimum}",
            found.cost()
        );
        // The grid's own cheapest answer bounds the search's from above.
        let (p, r) = view.hand_frame(q).unwrap();
        let [lo, hi] = ik.q7_range();
        let mut answers = Vec::new();
        let grid_best = (0..GRID)
            .flat_map(|k| {
                ik.solve(
                    p,
                    &r,
                    lo + (hi - lo) * k as f64 / (GRID - 1) as f64,
                    &mut answers,
                );
                answers
                    .iter()
                    .map(|(_, a)| problem.cost().value(a))
                    .collect::<Vec<_>>()
            })
            .fold(f64::INFINITY, f64::min);
        assert!(
            found.cost() <= grid_best,
            "{y:?}: {} above its grid's {grid_best}",
            found.cost()
        );
        if found.cost() <= optimum * 1.01 + 1e-9 {
            within += 1;
        }
    }
    assert!(tabletop.len() >= 15, "{} tabletop targets", tabletop.len());
    assert!(
        within + 2 >= tabletop.len(),
        "closed-form search within 1 % of J*: {within} of {}",
        tabletop.len()
    );
    let position_only = Problem::preset("panda").unwrap();
    let refused = closed_form_search::applies(&position_only).unwrap_err();
    assert!(refused.to_string().contains("closed form"), "{refused}");
}
