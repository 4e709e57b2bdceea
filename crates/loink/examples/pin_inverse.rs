//! Writes crates/loink/tests/fixtures/inverse-answers.json: cold and warm-path inverses of the
//! shipped planar3-h38w and planar4 networks, for `tests/inverse_answers.rs`.
use loink::nn::InverseOptions;
use loink::surrogate::Loink;
use rand::{Rng, SeedableRng};

fn main() {
    let mut cases = Vec::new();
    for file in ["web/models/planar3-h38w.json", "web/models/planar4.json"] {
        let model = Loink::from_json(&std::fs::read_to_string(file).unwrap()).unwrap();
        let net = model.model().net();
        let n = net.dim();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let opts = InverseOptions::NEWTON;
        // Cold: G(x) of uniform x in [-1.5, 1.5]^n, plus the z = 0 targets of the task range.
        let mut cold = Vec::new();
        let mut st = net.new_state();
        for _ in 0..200 {
            let x: Vec<f64> = (0..n).map(|_| rng.random_range(-1.5..1.5)).collect();
            let y = net.forward(&x).unwrap();
            st.reset();
            let mut out = vec![0.0; n];
            net.inverse_into(&y, &mut st, &opts, &mut out).unwrap();
            cold.push((y, out));
        }
        let mut warm = Vec::new();
        st.reset();
        for i in 0..200 {
            let t = i as f64 * 0.02;
            let x: Vec<f64> = (0..n)
                .map(|j| 0.9 * (t * (1.0 + 0.3 * j as f64)).sin())
                .collect();
            let y = net.forward(&x).unwrap();
            let mut out = vec![0.0; n];
            net.inverse_into(&y, &mut st, &opts, &mut out).unwrap();
            warm.push((y, out));
        }
        cases.push(serde_json::json!({"model": file, "cold": cold, "warm": warm}));
    }
    std::fs::write(
        "crates/loink/tests/fixtures/inverse-answers.json",
        serde_json::to_string(&cases).unwrap(),
    )
    .unwrap();
}
