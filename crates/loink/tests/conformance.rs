//! What every problem kind must do, checked on every preset the registry has (planar arms, the
//! soft arm, the serial chains): the forward map finite and its Jacobian equal to central
//! differences; the spec a model file stores rebuilds the same problem; every classical solver
//! of the registry answers honestly (a converged answer is within tolerance by replay, the
//! reference never above DLS); the learned solver runs on a random model of it; and a
//! two-dimensional view (the region raster, the page's square) exists exactly for 2-D tasks,
//! an explicit "none" otherwise. "How to add a problem" in docs/architecture.md is this list.

use loink::artifact::{load_model, random_model, save_model};
use loink::problem::registry::preset_names;
use loink::problem::{Problem, ProblemSpec};
use loink::report::{Solution, Status};
use loink::solvers::registry::{self, SolverKind, SolverSettings};
use loink::surrogate::{ChartSet, Loink};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// q uniform in the box.
fn random_q(problem: &Problem, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let limits = problem.limits();
    (0..problem.dof())
        .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
        .collect()
}

/// The contract of a report: invalid has no q; anything else finite, its residual and margin
/// the replayed ones, converged only within tolerance.
fn assert_honest(label: &str, problem: &Problem, target: &[f64], s: &Solution) {
    if s.status() == Status::Invalid {
        assert!(s.q().is_empty(), "{label}");
        return;
    }
    assert_eq!(s.q().len(), problem.dof(), "{label}");
    assert!(s.q().iter().all(|v| v.is_finite()), "{label}: {:?}", s.q());
    let replayed = problem.forward(s.q()).unwrap();
    let miss = problem.task().miss(target, &replayed);
    let residual = miss.distance;
    assert!(
        (residual - s.residual()).abs() <= 1e-12 + 1e-9 * residual,
        "{label}: residual {} vs replay {residual}",
        s.residual()
    );
    match (miss.angle, s.angle()) {
        (None, None) => {}
        (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-12, "{label}: angle {b} vs {a}"),
        other => panic!("{label}: angles {other:?}"),
    }
    assert!(
        (problem.limits().margin(s.q()) - s.margin()).abs() <= 1e-12,
        "{label}: margin"
    );
    if s.status() == Status::Converged {
        assert!(
            s.residual() <= 1e-6 && s.margin() >= -1e-6 && s.angle().is_none_or(|a| a <= 1e-6),
            "{label}: converged at {} / {}",
            s.residual(),
            s.margin()
        );
    }
}

#[test]
fn every_kind_has_a_finite_forward_map_and_a_true_jacobian() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for name in preset_names() {
        let problem = Problem::preset(name).unwrap();
        let (n, m) = (problem.dof(), problem.task_dim());
        assert!(n >= m, "{name}: fewer joints than task coordinates");
        let kinematics = problem.kinematics();
        let scale = problem.workspace_radius();
        for _ in 0..20 {
            let q = random_q(&problem, &mut rng);
            let (mut y, mut jac) = (vec![0.0; m], vec![0.0; m * n]);
            kinematics.jacobian_into(&q, &mut y, &mut jac);
            assert_eq!(y, problem.forward(&q).unwrap(), "{name}: Jacobian's f(q)");
            assert!(y.iter().chain(&jac).all(|v| v.is_finite()), "{name}");
            let h = 1e-6;
            for i in 0..n {
                let (mut up, mut down) = (q.clone(), q.clone());
                up[i] += h;
                down[i] -= h;
                let (a, b) = (problem.position(&up), problem.position(&down));
                // The Jacobian is written in the task space's tangent coordinates: both sides
                // read at the middle, (a ⊖ y) − (b ⊖ y).
                let (mut ahead, mut behind) = (vec![0.0; m], vec![0.0; m]);
                problem.task().difference_into(&a, &y, &mut ahead);
                problem.task().difference_into(&b, &y, &mut behind);
                for r in 0..m {
                    let central = (ahead[r] - behind[r]) / (2.0 * h);
                    // Finite-difference Jacobians (the soft arm) agree to their own step.
                    let tol = if problem.profile().analytic_jacobian {
                        1e-7
                    } else {
                        1e-4
                    } * scale.max(1.0);
                    assert!(
                        (jac[i * m + r] - central).abs() <= tol,
                        "{name}: ∂y{r}/∂q{i} {} vs {central}",
                        jac[i * m + r]
                    );
                }
            }
        }
    }
}

#[test]
fn every_kind_rebuilds_from_the_spec_a_model_file_stores() {
    for name in preset_names() {
        let problem = Problem::preset(name).unwrap();
        let json = serde_json::to_string(&problem.spec()).unwrap();
        let spec: ProblemSpec = serde_json::from_str(&json).unwrap();
        let again = Problem::from_spec(&spec, problem.cost().spec().clone()).unwrap();
        assert_eq!(again, problem, "{name}");
        let q = problem.limits().centres();
        assert_eq!(
            again.forward(&q).unwrap(),
            problem.forward(&q).unwrap(),
            "{name}"
        );
        assert_eq!(problem.default_target().len(), problem.task_dim(), "{name}");
    }
}

#[test]
fn every_classical_solver_answers_every_kind_honestly() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for name in preset_names() {
        let problem = Problem::preset(name).unwrap();
        let mut targets = vec![problem.default_target()];
        targets.extend(problem.random_targets(6, &mut rng));
        let mut costs: Vec<(SolverKind, Vec<Solution>)> = Vec::new();
        for kind in SolverKind::ALL {
            if kind.is_learned() || registry::applies(kind, &problem).is_err() {
                continue;
            }
            let Ok(mut solver) = registry::build(&problem, &SolverSettings::new(kind)) else {
                continue;
            };
            let answers: Vec<Solution> = targets.iter().map(|y| solver.solve(y)).collect();
            for (y, s) in targets.iter().zip(&answers) {
                assert_honest(&format!("{name}/{}", kind.as_str()), &problem, y, s);
            }
            costs.push((kind, answers));
        }
        let find = |k: SolverKind| costs.iter().find(|(kind, _)| *kind == k).map(|(_, a)| a);
        let (reference, dls) = (
            find(SolverKind::Reference).unwrap(),
            find(SolverKind::Dls).unwrap(),
        );
        for (r, d) in reference.iter().zip(dls) {
            assert_eq!(
                r.status(),
                Status::Converged,
                "{name}: the reference reaches a reachable target"
            );
            if d.status() == Status::Converged {
                assert!(
                    r.cost() <= d.cost() * (1.0 + 1e-6) + 1e-9,
                    "{name}: reference {} above DLS {}",
                    r.cost(),
                    d.cost()
                );
            }
        }
    }
}

#[test]
fn the_learned_solver_runs_on_a_random_model_of_every_redundant_kind() {
    for name in preset_names() {
        let problem = Problem::preset(name).unwrap();
        if problem.dof() == problem.task_dim() {
            continue; // no latent: planar2 is one chart per branch
        }
        let file = random_model(name, 2, &[8, 8], 0.1, 4.0, 3).unwrap();
        let model = load_model(&save_model(&file)).unwrap();
        let solver = Loink::new(model);
        let charts = ChartSet::from(solver.clone());
        let mut state = solver.new_state();
        let y = problem.default_target();
        let s = solver.solve(&mut state, &y);
        assert_honest(&format!("{name}/loink"), &problem, &y, &s);
        let mut refined = charts
            .solver(&SolverSettings::new(SolverKind::LoinkRefine))
            .unwrap();
        assert_honest(
            &format!("{name}/loink-refine"),
            &problem,
            &y,
            &refined.solve(&y),
        );
    }
}

/// A reachable region exists exactly for a kind that is drawn (in its task plane, or in space:
/// its workspace seen from above, which the gap map slices).
#[test]
fn a_view_of_the_workspace_exists_exactly_where_the_kind_is_drawn() {
    for name in preset_names() {
        let problem = Problem::preset(name).unwrap();
        let drawn = problem.capabilities().view.is_some();
        assert_eq!(
            problem.task_bounds(500).is_some(),
            problem.task_dim() >= 2 && problem.replayable(),
            "{name}"
        );
        assert_eq!(problem.reachable_region(500).is_some(), drawn, "{name}");
        let bounds = problem.task_box(500);
        assert_eq!(bounds.len(), problem.task_dim(), "{name}");
        let y = problem.default_target();
        for (v, [lo, hi]) in y.iter().zip(&bounds) {
            assert!(lo <= hi && v.is_finite(), "{name}");
        }
    }
}
