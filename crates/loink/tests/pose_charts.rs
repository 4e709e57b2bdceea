//! Pose charts about turned references in one charts file: a chart narrowing the file's
//! problem is accepted, one of another robot refused; every chart takes the target in its own
//! coordinates and every answer comes back in the file's; the charts' covers say which targets
//! are their own.

use loink::artifact::{
    charts_file, load_any, random_model, save_charts, ArtifactError, ChartEntry, ChartsFile,
    ModelFile, RegionBox,
};
use loink::problem::Problem;
use loink::so3::{self, Quaternion};
use loink::surrogate::ChartSet;

/// The hand pointing down, turned `degrees` about its own z axis (w first).
fn turned_down(degrees: f64) -> [f64; 4] {
    let down = Quaternion::new(0.0, 1.0, 0.0, 0.0).to_matrix();
    let q = Quaternion::from_matrix(&so3::mul(&down, &so3::rot_z(degrees.to_radians())));
    [q.w, q.x, q.y, q.z]
}

/// An untrained panda-pose chart about the reference turned `degrees`, covering `cover`°.
fn chart(seed: u64, degrees: f64, cover: f64) -> ModelFile {
    let mut model = random_model("panda-pose", 2, &[16, 16], 0.5, 2.0, seed).unwrap();
    let chain = model.problem.chain.as_mut().unwrap();
    chain.chart = Some(turned_down(degrees));
    chain.cover = Some(cover);
    model
}

fn two_turns(cover: f64) -> ChartsFile {
    let problem = random_model("panda-pose", 2, &[16, 16], 0.5, 2.0, 0)
        .unwrap()
        .problem;
    let limits = Problem::preset("panda-pose").unwrap().limits().clone();
    let region = RegionBox {
        lower: limits.lower().to_vec(),
        upper: limits.upper().to_vec(),
    };
    let entries = [(1, 0.0), (2, 180.0)]
        .map(|(seed, turn)| ChartEntry {
            region: region.clone(),
            model: chart(seed, turn, cover),
        })
        .to_vec();
    charts_file(Default::default(), problem, entries, Default::default()).unwrap()
}

/// The pose target of the ready posture turned `degrees` about the tool axis, in the file's
/// coordinates.
fn target(problem: &Problem, degrees: f64) -> Vec<f64> {
    let q = [
        0.0,
        -0.785,
        0.0,
        -2.356,
        0.0,
        1.571,
        0.785 + degrees.to_radians(),
    ];
    problem.forward(&q).unwrap()
}

#[test]
fn turned_charts_answer_in_the_files_coordinates() {
    let set = ChartSet::from_json(&save_charts(&two_turns(120.0))).unwrap();
    let problem = set.problem().clone();
    assert_eq!(problem.name(), "panda-pose");
    for degrees in [0.0, 90.0, 170.0] {
        let y = target(&problem, degrees);
        let answer = set.solve_cold(&y);
        assert_eq!(answer.target(), y.as_slice());
        let replayed = problem.position(answer.q());
        let miss = problem.miss(&replayed, answer.reached());
        assert!(miss.distance < 1e-12, "{miss:?}");
        assert!(miss.angle.unwrap() < 1e-9, "{miss:?}");
        for proposal in set.propose(&mut set.new_states(), &y) {
            assert_eq!(proposal.target(), y.as_slice());
        }
    }
}

#[test]
fn each_turned_chart_covers_the_orientations_near_its_reference() {
    let set = ChartSet::from_json(&save_charts(&two_turns(60.0))).unwrap();
    let problem = set.problem().clone();
    // The ready posture's hand is the reference turned 0°; turned 180° it is the other
    // chart's own.
    let near_first = target(&problem, 0.0);
    let near_second = target(&problem, 180.0);
    assert!(set.covers(0, &near_first) && !set.covers(1, &near_first));
    assert!(set.covers(1, &near_second) && !set.covers(0, &near_second));
    // The same pose restated: chart 1's coordinates of its own reference are zero rotation.
    let own = set.in_chart(1, &near_second);
    assert!(so3::norm([own[3], own[4], own[5]]) < 1e-3, "{own:?}");
}

#[test]
fn a_chart_of_another_problem_is_refused() {
    let mut file = two_turns(120.0);
    file.charts[1].model.problem.chain.as_mut().unwrap().task = loink::problem::chain::Task::Axis;
    assert!(matches!(
        load_any(&save_charts(&file)),
        Err(ArtifactError::Inconsistent { .. })
    ));
    let mut file = two_turns(120.0);
    file.problem.chain.as_mut().unwrap().cover = Some(30.0);
    // A chart wider than the file's domain does not narrow it.
    assert!(matches!(
        load_any(&save_charts(&file)),
        Err(ArtifactError::Inconsistent { .. })
    ));
}
