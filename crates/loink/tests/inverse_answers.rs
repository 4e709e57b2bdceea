//! The inverse's answers are pinned: cold inverses of 200 points and a 200-step warm path, for
//! the shipped planar3-h38w and planar4 networks, agree with the recorded answers
//! (`tests/fixtures/inverse-answers.json`, written by `cargo run --release -p loink --example
//! pin_inverse`) to 1e-12 in every coordinate. A faster inverse must land on the same points.

use loink::nn::InverseOptions;
use loink::surrogate::Loink;
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    model: String,
    cold: Vec<(Vec<f64>, Vec<f64>)>,
    warm: Vec<(Vec<f64>, Vec<f64>)>,
}

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn cold_and_warm_inverses_land_on_the_recorded_answers() {
    let text = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/inverse-answers.json"),
    )
    .expect("fixture");
    let cases: Vec<Case> = serde_json::from_str(&text).expect("fixture parses");
    assert_eq!(cases.len(), 2);
    for case in cases {
        let json = std::fs::read_to_string(root().join(&case.model)).expect("model file");
        let model = Loink::from_json(&json).expect("model loads");
        let net = model.model().net();
        let opts = InverseOptions::NEWTON;
        let mut state = net.new_state();
        let mut worst = 0.0_f64;
        let mut x = vec![0.0; net.dim()];
        for (y, expected) in &case.cold {
            state.reset();
            net.inverse_into(y, &mut state, &opts, &mut x).unwrap();
            for (a, b) in x.iter().zip(expected) {
                worst = worst.max((a - b).abs());
            }
        }
        state.reset();
        for (y, expected) in &case.warm {
            net.inverse_into(y, &mut state, &opts, &mut x).unwrap();
            for (a, b) in x.iter().zip(expected) {
                worst = worst.max((a - b).abs());
            }
        }
        assert!(worst <= 1e-12, "{}: answers moved by {worst:e}", case.model);
    }
}
