//! The chain kind against an independent implementation: the `k` crate reads the same URDF
//! files with its own parser (urdf-rs) and computes forward kinematics with its own algebra
//! (nalgebra); every chain preset's tip position — and the pose tasks' orientation, as
//! nalgebra's unit quaternion — agree on random configurations, held joints included.

use loink::problem::Problem;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The tip's position and orientation (w, x, y, z) relative to the base link by `k`, with
/// `joints` set by name.
fn oracle(urdf: &str, base: &str, tip: &str, joints: &[(String, f64)]) -> ([f64; 3], [f64; 4]) {
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
    let r = relative.rotation;
    ([t.x, t.y, t.z], [r.w, r.i, r.j, r.k])
}

#[test]
fn every_chain_preset_agrees_with_an_independent_reader_and_kinematics() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (preset, urdf) in [
        ("panda", "panda/panda.urdf"),
        ("panda-pose", "panda/panda.urdf"),
        ("panda-axis", "panda/panda.urdf"),
        ("tiago", "tiago/tiago_no_hand.urdf"),
        ("tiago-pose", "tiago/tiago_no_hand.urdf"),
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
            let (position, [w, x, y, z]) = oracle(urdf, &chain.base, &chain.tip, &named);
            let columns = problem.task().to_columns(&problem.forward(&q).unwrap());
            for (a, b) in columns.iter().zip(position) {
                worst = worst.max((a - b).abs());
            }
            // A turning task's orientation: the oracle's quaternion, as an angle between the two.
            let reached = columns.get(3..).filter(|_| problem.task().has_angle());
            let turned = match reached {
                Some([qw, qx, qy, qz]) => {
                    let ours = loink::so3::Quaternion::new(*qw, *qx, *qy, *qz);
                    ours.angle_to(loink::so3::Quaternion::new(w, x, y, z))
                }
                Some([ax, ay, az]) => {
                    let k = k::nalgebra::UnitQuaternion::from_quaternion(
                        k::nalgebra::Quaternion::new(w, x, y, z),
                    );
                    let axis = k * k::nalgebra::Vector3::z();
                    (axis - k::nalgebra::Vector3::new(*ax, *ay, *az)).norm()
                }
                _ => 0.0,
            };
            worst = worst.max(turned);
        }
        assert!(
            worst < 1e-12,
            "{preset}: worst difference {worst:e} (m or rad)"
        );
    }
}
