//! The `panda-shelf` preset's collision model: the `self` and `scene` terms' gradients against
//! central differences, the spheres' placement against the URDF's own link frames, and bad
//! scenes refused.

use loink::problem::chain::SerialChain;
use loink::problem::Problem;
use rand::{Rng, SeedableRng};

fn shelf() -> Problem {
    Problem::preset("panda-shelf").expect("the preset loads")
}

#[test]
fn collision_gradients_match_central_differences() {
    let problem = shelf();
    let cost = problem.cost();
    let limits = problem.limits();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut in_contact = 0;
    for _ in 0..400 {
        let q: Vec<f64> = (0..limits.len())
            .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
            .collect();
        let (value, grad) = cost.value_and_gradient(&q);
        let centring = loink::cost::CostModel::new(
            loink::cost::CostSpec::joint_centring(),
            problem.kinematics(),
        )
        .unwrap()
        .value(&q);
        if value > centring + 1e-6 {
            in_contact += 1;
        }
        for i in 0..q.len() {
            let h = 1e-6;
            let (mut a, mut b) = (q.clone(), q.clone());
            a[i] += h;
            b[i] -= h;
            let fd = (cost.value(&a) - cost.value(&b)) / (2.0 * h);
            let scale = 1.0 + fd.abs().max(grad[i].abs());
            assert!(
                (fd - grad[i]).abs() <= 1e-4 * scale,
                "joint {i} at {q:?}: analytic {} vs differences {fd}",
                grad[i]
            );
        }
    }
    assert!(
        in_contact > 50,
        "only {in_contact} of 400 draws touch anything"
    );
}

#[test]
fn clearance_names_what_touches() {
    let problem = shelf();
    let chain = problem
        .kinematics()
        .as_any()
        .downcast_ref::<SerialChain>()
        .unwrap();
    // Arm stretched forward at the shelf's height: the forearm is in the board.
    let q = [0.0, 0.6, 0.0, -1.2, 0.0, 1.8];
    let c = chain.clearance(&q).unwrap();
    assert!(c.distance < 0.0, "{c:?}");
    assert!(c.contact.to_string().contains("shelf"), "{}", c.contact);
}
