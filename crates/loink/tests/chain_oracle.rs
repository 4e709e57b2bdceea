//! The chain kind against an independent implementation: the `k` crate reads the same URDF
//! files with its own parser (urdf-rs) and computes forward kinematics with its own algebra
//! (nalgebra); both presets' tip positions agree on random configurations, held joints
//! included.

use loink::problem::Problem;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The tip's position relative to the base link by `k`, with `joints` set by name.
fn oracle(urdf: &str, base: &str, tip: &str, joints: &[(String, f64)]) -> [f64; 3] {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../robots/");
    let chain = k::Chain::<f64>::from_urdf_file(format!("{path}{urdf}")).expect("k reads it");
    for (name, value) in joints {
        chain
            .find(name)
            .unwrap_or_else(|| panic!("k has joint {name}"))
            .set_joint_position_unchecked(*value);
    }
    chain.update_transforms();
    let frame = |link: &str| {
        chain
            .find_link(link)
            .unwrap_or_else(|| panic!("k has link {link}"))
            .world_transform()
            .unwrap()
    };
    let relative = frame(base).inverse() * frame(tip);
    let t = relative.translation.vector;
    [t.x, t.y, t.z]
}

#[test]
fn both_presets_agree_with_an_independent_reader_and_kinematics() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (preset, urdf) in [
        ("panda", "panda/panda.urdf"),
        ("tiago", "tiago/tiago_no_hand.urdf"),
    ] {
        let problem = Problem::preset(preset).unwrap();
        let spec = problem.spec();
        let chain = spec.chain.as_ref().unwrap();
        let mut worst: f64 = 0.0;
        for _ in 0..200 {
            let limits = problem.limits();
            let q: Vec<f64> = (0..problem.dof())
                .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                .collect();
            let mut named: Vec<(String, f64)> = chain
                .joints
                .iter()
                .map(|j| j.name.clone())
                .zip(q.iter().copied())
                .collect();
            named.extend(chain.held.iter().map(|h| (h.name.clone(), h.value)));
            let want = oracle(urdf, &chain.base, &chain.tip, &named);
            let got = problem.forward(&q).unwrap();
            for (a, b) in got.iter().zip(want) {
                worst = worst.max((a - b).abs());
            }
        }
        assert!(worst < 1e-12, "{preset}: worst difference {worst:e} m");
    }
}
