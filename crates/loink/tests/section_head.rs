//! The section head σ(ỹ) ≈ G⁻¹([ỹ; 0]): it only chooses where the inverse starts, so the answer
//! is the inverse's own (to its tolerance) whatever the head says; an exact guess needs no Newton
//! step; a file's head is checked like every other part of it.

use loink::artifact::{
    load_model, random_model, save_model, ArtifactError, DenseWeights, MlpWeights,
};
use loink::nn::InverseOptions;
use loink::surrogate::Loink;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A ReLU head m → hidden → n with weights drawn uniformly in ±`scale` (seeded).
fn head(m: usize, hidden: &[usize], n: usize, scale: f64, seed: u64) -> MlpWeights {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut sizes = vec![m];
    sizes.extend_from_slice(hidden);
    sizes.push(n);
    MlpWeights {
        activation: "relu".into(),
        layers: sizes
            .windows(2)
            .map(|io| DenseWeights {
                w: (0..io[1])
                    .map(|_| {
                        (0..io[0])
                            .map(|_| rng.random_range(-scale..scale))
                            .collect()
                    })
                    .collect(),
                b: (0..io[1])
                    .map(|_| rng.random_range(-scale..scale))
                    .collect(),
            })
            .collect(),
    }
}

fn targets(count: usize) -> Vec<[f64; 2]> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    (0..count)
        .map(|_| [rng.random_range(-1.2..1.2), rng.random_range(-1.2..1.2)])
        .collect()
}

#[test]
fn a_head_moves_only_where_the_inverse_starts() {
    let plain_file = random_model("planar3", 2, &[16, 16], 0.3, 3.0, 7).unwrap();
    let mut headed_file = plain_file.clone();
    headed_file.section_head = Some(head(2, &[12, 12], 3, 0.8, 11));
    let plain = Loink::new(load_model(&save_model(&plain_file)).unwrap());
    let headed = Loink::new(load_model(&save_model(&headed_file)).unwrap());
    assert!(headed.model().section_head().is_some());
    let mu = plain.model().net().mu();
    let scale = plain_file
        .normalisation
        .x_scale
        .iter()
        .fold(0.0_f64, |a, &s| a.max(s));
    for y in targets(60) {
        let mut a = plain.new_state();
        let mut b = headed.new_state();
        let (xa, ra) = plain.preimage(&mut a, &y, &[0.0]).unwrap();
        let (xb, rb) = headed.preimage(&mut b, &y, &[0.0]).unwrap();
        assert!(ra.converged() && rb.converged(), "{y:?}: {ra:?} {rb:?}");
        // ‖G(xa) − G(xb)‖ ≤ both residuals, so ‖xa − xb‖ ≤ (ra + rb)/μ in normalised joints.
        let bound = (ra.residual + rb.residual) / mu * scale + 1e-12;
        let gap = xa
            .iter()
            .zip(&xb)
            .map(|(p, q)| (p - q).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            gap <= bound,
            "{y:?}: the answers differ by {gap:e} > {bound:e}"
        );
    }
}

#[test]
fn an_exact_guess_needs_no_newton_step() {
    let file = random_model("planar3", 3, &[16, 16], 0.3, 3.0, 2).unwrap();
    let model = load_model(&save_model(&file)).unwrap();
    let net = model.net();
    let options = InverseOptions::default();
    let mut cold_iterations = 0;
    for y in targets(20) {
        let target = [y[0], y[1], 0.0];
        let exact = net.inverse(&target, &options).unwrap();
        cold_iterations += exact.layer_iterations.iter().sum::<usize>();
        let mut state = net.new_state();
        assert!(net.seed_warm_starts(&exact.x, &mut state));
        let mut x = [0.0; 3];
        let report = net
            .inverse_into(&target, &mut state, &options, &mut x)
            .unwrap();
        assert!(report.converged());
        assert_eq!(
            report.iterations, 0,
            "{y:?}: the seeded start is the answer"
        );
        for (a, b) in x.iter().zip(&exact.x) {
            assert!((a - b).abs() < 1e-9);
        }
    }
    assert!(
        cold_iterations > 20,
        "the cold inverses took steps: {cold_iterations}"
    );
    let mut state = net.new_state();
    assert!(!net.seed_warm_starts(&[f64::NAN, 0.0, 0.0], &mut state));
    assert!(!net.seed_warm_starts(&[0.0, 0.0], &mut state));
    assert!(!state.is_warm(), "a refused guess seeds nothing");
}

#[test]
fn hostile_section_heads_are_refused() {
    let base = random_model("planar3", 2, &[8, 8], 0.3, 3.0, 1).unwrap();
    let refuse = |head: MlpWeights, needle: &str| {
        let mut file = base.clone();
        file.section_head = Some(head);
        let err: ArtifactError = load_model(&save_model(&file)).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("section_head") && text.contains(needle),
            "{text}"
        );
    };
    let mut tanh = head(2, &[8], 3, 0.5, 1);
    tanh.activation = "tanh".into();
    refuse(tanh, "activation");
    refuse(head(2, &[8], 4, 0.5, 1), "section_head.layers[1]");
    refuse(head(3, &[8], 3, 0.5, 1), "section_head.layers[0]");
    refuse(head(2, &[], 3, 0.5, 1), "layers");
    refuse(head(2, &[4, 4, 4, 4, 4], 3, 0.5, 1), "layers");
    refuse(head(2, &[2000], 3, 0.5, 1), "1024");
    let mut nan = head(2, &[8], 3, 0.5, 1);
    nan.layers[0].w[3][1] = f64::NAN;
    let mut file = base.clone();
    file.section_head = Some(nan);
    // JSON has no NaN: a hostile file carries it as null, which the parser refuses.
    assert!(load_model(&save_model(&file)).is_err());
    // A file without a head loads as before and writes no `section_head` key.
    assert!(!save_model(&base).contains("section_head"));
}
