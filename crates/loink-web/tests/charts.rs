//! A multi-chart model in the playground's engine, natively: it loads under its catalog name,
//! answers with its winning chart and every chart's proposal, turns the latent panel to the
//! winner, and a bad charts file is refused without changing anything (the `charts` feature).
#![cfg(feature = "multi-chart")]

use loink::artifact::{charts_file, random_model, save_charts, ChartEntry, ChartsFile, RegionBox};
use loink_web::engine::Engine;
use loink_web::settings::SolverKind;

const NAME: &str = "planar3-wide-charts";

/// Two untrained charts of planar3-wide split on the sign of q2.
fn two_charts() -> ChartsFile {
    let entry = |seed, lower: [f64; 3], upper: [f64; 3]| ChartEntry {
        region: RegionBox {
            lower: lower.to_vec(),
            upper: upper.to_vec(),
        },
        model: random_model("planar3-wide", 2, &[8, 8], 0.5, 2.0, seed).unwrap(),
    };
    let entries = vec![
        entry(1, [-2.6, -2.6, -2.6], [2.6, 0.0, 2.6]),
        entry(2, [-2.6, 0.0, -2.6], [2.6, 2.6, 2.6]),
    ];
    let problem = entries[0].model.problem.clone();
    charts_file(Default::default(), problem, entries, Default::default()).unwrap()
}

fn view(e: &mut Engine, solver: SolverKind, target: [f64; 2]) {
    let mut next = e.settings().clone();
    next.model = NAME.into();
    next.solver = solver;
    next.refine = 3;
    next.target = target.to_vec();
    e.apply(next);
    while e.idle_pending() {
        e.idle(1e9);
    }
}

#[test]
fn every_chart_proposes_and_the_answer_is_the_winner() {
    let mut e = Engine::new().unwrap();
    e.load_model(NAME, &save_charts(&two_charts()))
        .expect("loads");
    view(&mut e, SolverKind::LoinkRefine, [0.5, 0.4]);
    let s = e.state();
    assert_eq!(e.model().unwrap().chart_count(), 2);
    assert_eq!(s.proposals.len(), 2);
    let k = s.chart.expect("the answer names its chart");
    assert_eq!(s.proposals[k].q, s.q);
    assert_eq!(e.model().unwrap().shown_chart(), k);
    // The one-chart solvers still run on the model's problem, and name no chart.
    view(&mut e, SolverKind::Dls, [0.5, 0.4]);
    let s = e.state();
    assert_eq!(s.chart, None);
    assert_eq!(s.proposals.len(), 2, "the ghosts stay with the model");
}

#[test]
fn a_bad_charts_file_is_refused_and_changes_nothing() {
    let mut e = Engine::new().unwrap();
    let before = e.state();
    let mut wrong_problem = two_charts();
    wrong_problem.charts[1].model = random_model("planar3", 2, &[8, 8], 0.5, 2.0, 3).unwrap();
    let mut outside = two_charts();
    outside.charts[0].region.upper[0] = 4.0;
    let text = save_charts(&two_charts());
    for bad in [
        save_charts(&wrong_problem),
        save_charts(&outside),
        text[..text.len() / 3].to_string(),
    ] {
        assert!(e.load_model(NAME, &bad).is_err());
    }
    // Under a catalog name of another problem it is refused too.
    assert!(e.load_model("planar3", &text).is_err());
    assert_eq!(e.state().q, before.q);
    assert!(e.loaded().is_empty());
}
