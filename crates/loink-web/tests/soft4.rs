//! The soft arm in the playground's engine, natively (the `model-free` feature): the shipped
//! LOInK model and flow load under their catalog names, each solver reports its simulator
//! calls, the flow draws its family of K samples, J* comes from the idle reference search, and
//! a flow file under a planar model's name is refused without changing anything.
#![cfg(feature = "unswept")]

use loink_web::engine::Engine;
use loink_web::settings::SolverKind;

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("../../web/models/{name}.json")).expect("a shipped model")
}

fn view(e: &mut Engine, solver: SolverKind, sigma: f64, samples: u32) {
    let mut next = e.settings().clone();
    next.model = "soft4".into();
    next.solver = solver;
    next.feedback = 0;
    next.sigma = sigma;
    next.samples = samples;
    next.target = vec![0.01, 0.125];
    e.apply(next);
    while e.idle_pending() {
        e.idle(1e9);
    }
}

#[test]
fn every_solver_counts_its_simulator_calls() {
    let mut e = Engine::new().unwrap();
    e.load_model("soft4", &read("soft4")).expect("LOInK loads");
    // The flow is offered only once its file is loaded.
    view(&mut e, SolverKind::Flow, 0.0, 1);
    assert_ne!(e.settings().solver, SolverKind::Flow);
    assert!(e.solver_available(SolverKind::Flow).is_err());
    e.load_model("soft4-flow", &read("soft4-flow"))
        .expect("the flow loads");
    assert!(e.solver_available(SolverKind::Flow).is_ok());

    view(&mut e, SolverKind::Loink, 0.0, 1);
    assert_eq!(e.sim_calls(), Some(1), "one-shot LOInK: its check only");
    let s = e.state();
    assert!(s.residual < 1e-4, "{}", s.residual);
    assert!(s.gap.is_finite() && s.gap < 1.0, "gap {} %", s.gap);
    assert!(!s.optimum_pending);
    assert!(s.controls.contains(&"sim-calls"));

    view(&mut e, SolverKind::Flow, 0.0, 8);
    assert_eq!(e.sim_calls(), Some(1), "σ = 0: the z = 0 sample alone");
    assert!(e.samples().is_empty());
    view(&mut e, SolverKind::Flow, 0.5, 8);
    assert_eq!(e.sim_calls(), Some(8));
    assert_eq!(e.samples().len(), 8, "the family of the 8 samples");
    assert_eq!(e.family().len(), 8);
    let answer = e.solution().q().to_vec();
    assert!(
        e.family().iter().any(|c| c.q() == answer.as_slice()),
        "the answer is one of the family"
    );
    // Dragging on: every solve draws the seed's samples again, so the family stays the set the
    // answer is picked from, and a target's answer does not depend on the solves before it.
    for target in [[0.0, 0.13], [0.012, 0.12], [0.01, 0.125]] {
        e.set_target(&target).unwrap();
        let answer = e.solution().q().to_vec();
        assert!(e.family().iter().any(|c| c.q() == answer.as_slice()));
    }
    assert_eq!(
        e.solution().q(),
        answer.as_slice(),
        "the same target, the same answer"
    );

    view(&mut e, SolverKind::Dls, 0.0, 1);
    assert!(e.sim_calls().unwrap() > 20, "{:?}", e.sim_calls());
}

#[test]
fn a_flow_under_a_planar_name_is_refused() {
    let mut e = Engine::new().unwrap();
    let before = e.state();
    let err = e
        .load_model("planar3-h28w", &read("soft4-flow"))
        .unwrap_err();
    assert!(err.contains("soft4"), "{err}");
    assert_eq!(e.state().q, before.q);
    assert!(e.load_model("soft4-flow", "{\"format\":").is_err());
}

/// A view opened by `hash` on a fresh engine with both soft-arm files loaded, idle work done.
fn opened(hash: &str) -> (Engine, Vec<String>) {
    let mut e = Engine::new().unwrap();
    e.load_model("soft4", &read("soft4")).unwrap();
    e.load_model("soft4-flow", &read("soft4-flow")).unwrap();
    let warnings = e.apply(loink_web::settings::parse_hash(hash).settings);
    while e.idle_pending() {
        e.idle(1e9);
    }
    (e, warnings)
}

#[test]
fn a_link_without_a_target_opens_the_soft_arm_at_its_own_default_target() {
    let (e, warnings) = opened("#model=soft4");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        e.settings().target,
        loink::problem::soft4::DEFAULT_TARGET.to_vec()
    );
    let s = e.state();
    assert!(
        ["converged", "approximate"].contains(&s.status.as_str()),
        "{}",
        s.status
    );
    assert!(s.margin >= -1e-6, "limit margin {}", s.margin);
    assert!(loink_web::settings::format_hash(e.settings()).contains("target=0.012,0.124"));
}

#[test]
fn every_solver_answers_a_planar_target_on_the_soft_arm_inside_the_limits() {
    // A link's own target is solved as given: out of the soft arm's reach, every answer stays
    // inside the joint box.
    let (mut e, warnings) = opened("#model=soft4&target=0.6,0.3&feedback=0");
    assert!(warnings.is_empty(), "{warnings:?}");
    for solver in [
        SolverKind::Loink,
        SolverKind::LoinkRefine,
        SolverKind::Flow,
        SolverKind::Dls,
        SolverKind::Reference,
    ] {
        for feedback in [0, 2] {
            let mut next = e.settings().clone();
            next.solver = solver;
            next.feedback = feedback;
            assert!(e.apply(next).is_empty(), "{solver:?}");
            let s = e.state();
            assert_eq!(s.target, vec![0.6, 0.3], "{solver:?}");
            assert_eq!(s.status, "unreachable", "{solver:?} feedback {feedback}");
            assert!(
                s.margin >= -1e-6,
                "{solver:?} feedback {feedback}: limit margin {}",
                s.margin
            );
        }
    }
}

#[test]
fn a_planar_target_carried_to_the_soft_arm_is_replaced_by_its_default_and_said() {
    let mut e = Engine::new().unwrap();
    e.load_model("soft4", &read("soft4")).unwrap();
    e.load_model("planar3-h28w", &read("planar3-h28w")).unwrap();
    assert!(e
        .apply(loink_web::settings::parse_hash("#model=planar3-h28w&target=0.6,0.3").settings)
        .is_empty());
    // The model menu: every setting as it is, the model changed, the target carried.
    let mut next = e.settings().clone();
    next.model = "soft4".into();
    e.carry_target(next.target.clone());
    let warnings = e.apply(next);
    assert_eq!(e.settings().model, "soft4");
    assert_eq!(e.settings().target, vec![0.012, 0.124]);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("out of reach") && w.contains("0.012, 0.124")),
        "{warnings:?}"
    );
    assert!(e.state().margin >= -1e-6);
    // A target given anew (a link, a lesson) is solved as given, out of reach or not.
    let mut next = e.settings().clone();
    next.target = vec![0.6, 0.3];
    assert!(e.apply(next).is_empty());
    assert_eq!(e.settings().target, vec![0.6, 0.3]);
    assert_eq!(e.state().status, "unreachable");
    let mut next = e.settings().clone();
    next.target = vec![0.012, 0.124];
    assert!(e.apply(next).is_empty());
    // Back to a planar view: the soft arm's target stays where planar3 reaches it, and is
    // replaced by planar3's own default (said) where it does not.
    let planar3 = loink::problem::Problem::preset("planar3").unwrap();
    let verdict = planar3.reachability(&[0.012, 0.124], None);
    assert_ne!(verdict, loink::problem::Reachability::Unknown);
    let mut next = e.settings().clone();
    next.model = "planar3-h28w".into();
    e.carry_target(next.target.clone());
    let warnings = e.apply(next);
    if verdict == loink::problem::Reachability::Reachable {
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(e.settings().target, vec![0.012, 0.124]);
    } else {
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(e.settings().target, vec![0.6, 0.3]);
    }
}
