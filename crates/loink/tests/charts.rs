//! Multi-chart model files: loading either kind, every refusal of a bad charts file, a set of
//! one chart answering exactly as the plain model, and the cheapest feasible proposal winning.

use loink::artifact::{
    load_any, random_model, save_charts, save_model, ArtifactError, ChartEntry, ChartsFile,
    LoadedModel, ModelFile, RegionBox, MAX_CHARTS,
};
use loink::problem::Problem;
use loink::report::{Solution, Termination};
use loink::surrogate::charts::pick;
use loink::surrogate::{ChartSet, Loink};

fn chart(seed: u64) -> ModelFile {
    random_model("planar3-wide", 2, &[8, 8], 0.05, 20.0, seed).expect("random model")
}

fn region(lower: [f64; 3], upper: [f64; 3]) -> RegionBox {
    RegionBox {
        lower: lower.to_vec(),
        upper: upper.to_vec(),
    }
}

/// Two charts split on the sign of q2.
fn two_charts() -> ChartsFile {
    let entries = vec![
        ChartEntry {
            region: region([-2.6, -2.6, -2.6], [2.6, 0.0, 2.6]),
            model: chart(1),
        },
        ChartEntry {
            region: region([-2.6, 0.0, -2.6], [2.6, 2.6, 2.6]),
            model: chart(2),
        },
    ];
    let problem = entries[0].model.problem.clone();
    loink::artifact::charts_file(Default::default(), problem, entries, Default::default()).unwrap()
}

fn refused(file: &ChartsFile) -> ArtifactError {
    match load_any(&save_charts(file)) {
        Ok(_) => panic!("a bad charts file loaded"),
        Err(e) => e,
    }
}

#[test]
fn either_kind_loads() {
    let file = two_charts();
    match load_any(&save_charts(&file)).expect("loads") {
        LoadedModel::Charts(c) => {
            assert_eq!(c.charts().len(), 2);
            assert_eq!(c.regions()[1].lower()[1], 0.0);
        }
        LoadedModel::Loink(_) => panic!("a charts file read as one model"),
    }
    assert!(matches!(
        load_any(&save_model(&chart(3))).expect("loads"),
        LoadedModel::Loink(_)
    ));
    let set = ChartSet::from_json(&save_charts(&file)).unwrap();
    assert!(set.is_multi());
    assert_eq!(set.len(), 2);
    // The plain loader names the kind it does not read.
    let e = loink::artifact::load_model(&save_charts(&file)).unwrap_err();
    assert!(e.to_string().contains("charts"), "{e}");
}

#[test]
fn bad_charts_files_are_refused_with_their_field() {
    let mut empty = two_charts();
    empty.charts.clear();
    assert!(matches!(refused(&empty), ArtifactError::OutOfRange { .. }));

    let mut many = two_charts();
    let first = many.charts[0].clone();
    many.charts = vec![first; MAX_CHARTS + 1];
    assert!(matches!(refused(&many), ArtifactError::OutOfRange { .. }));

    let mut outside = two_charts();
    outside.charts[1].region.upper[2] = 3.0;
    let e = refused(&outside);
    assert!(e.to_string().contains("charts[1].region"), "{e}");

    let mut inverted = two_charts();
    inverted.charts[0].region.lower[0] = 2.0;
    inverted.charts[0].region.upper[0] = 1.0;
    assert!(refused(&inverted).to_string().contains("charts[0].region"));

    let mut short = two_charts();
    short.charts[0].region.lower.pop();
    short.charts[0].region.upper.pop();
    assert!(refused(&short).to_string().contains("charts[0].region"));

    let mut other_problem = two_charts();
    other_problem.charts[1].model = random_model("planar3", 2, &[8, 8], 0.05, 20.0, 4).unwrap();
    assert!(refused(&other_problem)
        .to_string()
        .contains("charts[1].model.problem"));

    let mut broken = two_charts();
    broken.charts[0].model.bilipnet.orthogonal[0].r[0][0] += 0.5;
    let e = refused(&broken);
    assert!(e.to_string().contains("charts[0].model"), "{e}");

    let mut bad_metric = two_charts();
    bad_metric
        .metrics
        .insert("within_1pct".into(), f64::INFINITY);
    // In JSON a non-finite number is `null`, which does not parse; a decoded file is
    // validated too.
    refused(&bad_metric);
    assert!(matches!(
        loink::artifact::validate_charts(bad_metric),
        Err(ArtifactError::NonFinite { .. })
    ));

    let text = save_charts(&two_charts());
    for cut in [10, text.len() / 2, text.len() - 3] {
        assert!(load_any(&text[..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn a_set_of_one_answers_as_the_plain_model() {
    let loink = Loink::from_json(&save_model(&chart(5))).unwrap();
    let set = ChartSet::from(loink.clone());
    assert!(!set.is_multi());
    for y in [[0.5, 0.3], [-0.2, 0.7], [0.9, -0.1], [f64::NAN, 0.0]] {
        let a = loink.solve_cold(&y);
        let b = set.solve_cold(&y);
        assert_eq!(a.q(), b.q());
        assert_eq!(a.status(), b.status());
        assert_eq!(b.chart(), None);
    }
}

#[test]
fn every_chart_proposes_and_the_answer_is_one_of_them() {
    let set = ChartSet::from_json(&save_charts(&two_charts()))
        .unwrap()
        .with_refinement(3);
    let y = [0.4, 0.5];
    let proposals = set.propose(&mut set.new_states(), &y);
    assert_eq!(proposals.len(), 2);
    assert_eq!(proposals[1].chart(), Some(1));
    let k = pick(set.problem(), &proposals);
    assert_eq!(proposals[k].chart(), Some(k));
    // The solve (cheapest expected chart first, with its early exit) answers with one chart's
    // proposal, judged by replay like any answer.
    let answer = set.solve_cold(&y);
    assert!(answer.chart().is_some_and(|c| c < 2));
    let problem = set.problem();
    assert_eq!(answer.cost(), problem.cost().value(answer.q()));
    let miss = loink::report::distance(&problem.position(answer.q()), &y);
    assert!((answer.residual() - miss).abs() <= 1e-15);
    // A bad target is refused by every chart, and nothing panics.
    let bad = set.solve_cold(&[f64::INFINITY, 0.0]);
    assert!(bad.q().is_empty());
}

fn judged(problem: &Problem, q: [f64; 3], target: &[f64]) -> Solution {
    Solution::assess(
        problem,
        "test",
        target,
        None,
        q.to_vec(),
        1,
        0.0,
        Termination::Approximate,
    )
}

#[test]
fn the_cheapest_feasible_proposal_wins() {
    let problem = Problem::preset("planar3-wide").unwrap();
    let cheap_q = [0.3, 0.6, 0.4];
    let y = problem.position(&cheap_q);
    let exact = judged(&problem, cheap_q, &y);
    let far = judged(&problem, [2.5, -2.5, 2.5], &y);
    assert_eq!(pick(&problem, &[far, exact]), 1);
    // A converged answer beats every unconverged one, however cheap.
    let converged = judged(
        &problem,
        [2.0, 0.8, 0.5],
        &problem.position(&[2.0, 0.8, 0.5]),
    );
    let target = converged.target().to_vec();
    let cheap_miss = judged(&problem, [1.5, 0.0, 0.0], &target);
    assert!(cheap_miss.cost() < converged.cost());
    assert_eq!(pick(&problem, &[cheap_miss, converged]), 1);
    // Among near misses, the cheaper wins; a far miss loses to a near one.
    let near_costly = judged(&problem, [0.3, 0.6, 0.4001], &y);
    let near_cheap = judged(&problem, [0.3, 0.6, 0.3999], &y);
    let (c0, c1) = (near_costly.cost(), near_cheap.cost());
    let expected = if c1 < c0 { 1 } else { 0 };
    assert_eq!(pick(&problem, &[near_costly, near_cheap]), expected);
    assert_eq!(pick(&problem, &[]), 0);
}

#[test]
fn the_shipped_charts_find_the_optimum_where_one_chart_does_not() {
    use rand::SeedableRng;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/models/");
    let read = |name: &str| std::fs::read_to_string(format!("{root}{name}")).unwrap();
    let charts = ChartSet::from_json(&read("planar3-wide-charts.json"))
        .unwrap()
        .with_refinement(3);
    let one = ChartSet::from_json(&read("planar3-wide.json"))
        .unwrap()
        .with_refinement(3);
    assert_eq!(charts.len(), 8);
    let problem = charts.problem().clone();
    let targets = problem.random_targets(60, &mut rand_chacha::ChaCha8Rng::seed_from_u64(11));
    let within = |set: &ChartSet| {
        targets
            .iter()
            .filter(|y| {
                let best = loink::solvers::reference::solve(&problem, y);
                let a = set.solve_cold(y);
                a.status() == loink::report::Status::Converged
                    && (a.cost() - best.cost()) / best.cost() <= 0.01
            })
            .count()
    };
    let (with_charts, with_one) = (within(&charts), within(&one));
    assert!(
        with_charts >= 59,
        "eight charts: {with_charts} of 60 within 1 %"
    );
    assert!(with_one < with_charts, "one chart: {with_one} of 60");
}
