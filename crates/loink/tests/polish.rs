//! The polish after the learned answer (`solvers::polish`, `--refine K`): it restores the task
//! and descends the cost along the solution set, keeps the limits, never ends worse than where
//! it started, counts its steps, and leaves a sample's place on the solution set alone.

use loink::problem::Problem;
use loink::report::Status;
use loink::solvers::{polish, reference};
use loink::surrogate::charts::ChartSet;
use loink::surrogate::Loink;
use proptest::prelude::*;
#[path = "common/tabletop.rs"]
mod tabletop;
use rand::{Rng, SeedableRng};
use tabletop::tabletop_configurations;

fn shipped() -> Loink {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let json = std::fs::read_to_string(root.join("web/models/planar3-h38w.json")).unwrap();
    Loink::from_json(&json).unwrap()
}

fn within(problem: &Problem, y: &[f64], q: &[f64], share: f64) -> bool {
    let best = reference::solve(problem, y);
    best.status() == Status::Converged && problem.cost().value(q) <= best.cost() * (1.0 + share)
}

#[test]
fn three_steps_from_the_one_shot_answer_reach_the_optimum_within_one_percent() {
    let model = shipped();
    let problem = model.problem().clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let targets = problem.random_targets(300, &mut rng);
    let refined = model.clone().with_feedback(0).with_refinement(3);
    let mut good = 0;
    for y in &targets {
        let s = refined.solve_cold(y);
        assert!(s.iterations() > 0);
        if s.status() == Status::Converged && within(&problem, y, s.q(), 0.01) {
            good += 1;
        }
    }
    // The goal on 1,000 targets is 99.5 % (BENCHMARKS.md); 300 here leaves room for sampling.
    assert!(good >= 297, "{good} of 300 within 1 % of J*");
}

#[test]
fn an_answer_outside_a_limit_is_polished_onto_it_or_inside() {
    let model = shipped();
    let problem = model.problem().clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut seen = 0;
    for y in problem.random_targets(400, &mut rng) {
        let learned = model.clone().with_feedback(0).solve_cold(&y);
        if problem.limits().margin(learned.q()) >= 0.0 {
            continue;
        }
        seen += 1;
        let p = polish::polish(&problem, &y, learned.q(), 3);
        assert!(problem.limits().margin(&p.q) >= -1e-12, "{p:?}");
        assert!(p.residual <= 1e-6, "{y:?}: {p:?}");
    }
    assert!(seen >= 5, "only {seen} learned answers outside a limit");
}

#[test]
fn a_sample_keeps_its_place_on_the_solution_set() {
    // Refinement at z ≠ 0 restores the task only: the sample does not slide to the optimum.
    let model = shipped().with_refinement(3);
    let y = [0.6, 0.3];
    let mut state = model.new_state();
    let sample = model.solve_latent(&mut state, &y, &[0.8]);
    let optimum = model.solve_cold(&y);
    assert_eq!(sample.status(), Status::Converged);
    let apart: f64 = sample
        .q()
        .iter()
        .zip(optimum.q())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(
        apart > 0.1,
        "the sample slid to the optimum ({apart} rad apart)"
    );
    assert!(sample.cost() > optimum.cost());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// From any start inside or outside the box, the polish ends inside the limits and is no
    /// worse than the start: feasible beats infeasible, then the cost, else the residual.
    #[test]
    fn never_worse_than_the_start(
        q0 in proptest::collection::vec(-3.5f64..3.5, 3),
        x in -1.4f64..1.4,
        yy in -1.4f64..1.4,
        steps in 0usize..5,
    ) {
        let problem = Problem::preset("planar3").unwrap();
        let y = [x, yy];
        let p = polish::polish(&problem, &y, &q0, steps);
        prop_assert!(p.steps <= steps + 1000, "steps {}", p.steps);
        let feasible = |q: &[f64]| {
            let r = loink::report::distance(&problem.position(q), &y);
            (r <= 1e-6 && problem.limits().margin(q) >= -1e-6, r, problem.cost().value(q))
        };
        let (start_ok, start_r, start_cost) = feasible(&q0);
        let (end_ok, end_r, end_cost) = feasible(&p.q);
        if p.q != q0 {
            prop_assert!(problem.limits().margin(&p.q) >= -1e-12);
        }
        match (start_ok, end_ok) {
            (true, false) => prop_assert!(false, "a feasible start ended infeasible"),
            (true, true) => prop_assert!(end_cost <= start_cost + 1e-12),
            (false, false) => prop_assert!(end_r <= start_r + 1e-12),
            (false, true) => {}
        }
    }
}

#[test]
fn the_pose_charts_restore_first_and_converge_on_every_tabletop_target() {
    // The shipped pose charts land centimetres off; each chart's polish restores the task
    // first, so the charts' polished answers stay on their pieces and converge (without the
    // restoration, 96.6 % of 1,000 tabletop targets converged: docs/pose.md).
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let json = std::fs::read_to_string(root.join("web/models/panda-pose.json")).unwrap();
    let set = ChartSet::from_json(&json).unwrap().with_refinement(3);
    let problem = set.problem().clone();
    let configurations = tabletop_configurations(&problem, 21, 2_000, 100);
    let (mut converged, mut optimal) = (0, 0);
    for q in &configurations {
        let y = problem.position(q);
        let answer = set.solve_cold(&y);
        assert!(problem.limits().margin(answer.q()) >= -1e-9, "{answer:?}");
        converged += usize::from(answer.status() == Status::Converged);
        optimal += usize::from(
            answer.status() == Status::Converged && within(&problem, &y, answer.q(), 0.01),
        );
    }
    assert_eq!(configurations.len(), 100);
    assert!(converged >= 99, "{converged} of 100 converged");
    // 85.1 % of the benchmark's 1,000 targets; 100 here leave room for sampling.
    assert!(optimal >= 75, "{optimal} of 100 within 1 % of J*");
}

#[test]
fn restoring_first_is_never_worse_and_leaves_a_start_on_the_target_alone() {
    let mut far = 0;
    let problem = Problem::preset("panda-pose").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    let mut polisher = polish::Polisher::new(&problem);
    for q in tabletop_configurations(&problem, 23, 600, 30) {
        let y = problem.position(&q);
        // A start a few centimetres off: restored first (at least one step), then polished.
        let start: Vec<f64> = q.iter().map(|v| v + rng.random_range(-0.1..0.1)).collect();
        let miss = problem.task().error_norm(&y, &problem.position(&start));
        let p = polisher.polish_restoring_first(&problem, &y, &start, 3);
        assert!(problem.limits().margin(&p.q) >= -1e-12, "{p:?}");
        assert!(p.residual <= miss, "{p:?} from {miss}");
        if miss > polish::RESTORE_FIRST_RESIDUAL {
            far += 1;
            // The restoration's steps are counted beside the polish's.
            assert!(p.steps >= 1, "{p:?}");
        }
        // A start on the target is polished exactly as the polish alone does.
        let on = polisher.polish_restoring_first(&problem, &y, &q, 3);
        assert_eq!(on, polisher.polish(&problem, &y, &q, 3));
    }
    assert!(
        far >= 20,
        "only {far} of 30 starts far enough to be restored first"
    );
}
