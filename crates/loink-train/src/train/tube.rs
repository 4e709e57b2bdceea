//! Training configurations around the optimal surface (`--tube S`): each an anchor's optimum x\*
//! (`--optima`) moved by Gaussian noise of S rad per joint, kept inside the training box and the
//! problem's domain. The one-shot answer x = G⁻¹([y; 0]) is read on the optimal surface alone;
//! where a pose's answers fall into several pieces, uniform samples spend the network on pieces
//! no optimum lies on, and a bijection cannot fit them all. `--tube-share F` of the
//! configurations are drawn so; the rest stay uniform (for the heads and for σ > 0).

use loink::problem::{JointLimits, Problem};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use super::data::Samples;
use super::TrainError;

/// Draws per configuration before a perturbed anchor is given up (outside the box or domain).
const DRAWS: usize = 32;

/// `count` configurations near the anchors' optima `anchors.x`, labelled by the forward map and
/// the cost; noise `sigma` rad per joint. Fewer when the box and domain refuse most draws.
pub fn around(
    problem: &Problem,
    region: &JointLimits,
    anchors: &Samples,
    sigma: f64,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Samples, TrainError> {
    if anchors.is_empty() {
        return Err(TrainError::Argument(
            "--tube draws around the anchors: give --optima N with an optimum in the box".into(),
        ));
    }
    if !(sigma.is_finite() && sigma > 0.0) {
        return Err(TrainError::Argument(format!(
            "--tube {sigma}: a noise scale above 0 (rad)"
        )));
    }
    let (n, m) = (problem.dof(), problem.task_dim());
    let noise = Normal::new(0.0, sigma).map_err(|e| TrainError::Argument(e.to_string()))?;
    let domain = problem.capabilities().domain;
    let mut out = Samples::with_capacity(n, m, count);
    let mut y = vec![0.0; m];
    for _ in 0..count {
        let anchor = rng.random_range(0..anchors.len());
        let centre = &anchors.x[anchor * n..(anchor + 1) * n];
        for _ in 0..DRAWS {
            let q: Vec<f64> = centre.iter().map(|c| c + noise.sample(rng)).collect();
            if region.margin(&q) < 0.0 || domain.is_some_and(|d| !d.contains(&q)) {
                continue;
            }
            problem.position_into(&q, &mut y);
            out.y.extend_from_slice(&y);
            out.cost.push(problem.cost().value(&q));
            out.x.extend(q);
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_tube_stays_near_the_anchors_inside_the_box() {
        let problem = Problem::preset("planar3").unwrap();
        let region = problem.limits().clone();
        let centre = region.centres();
        let anchors = Samples {
            dof: 3,
            task_dim: 2,
            x: centre.clone(),
            y: problem.position(&centre),
            cost: vec![problem.cost().value(&centre)],
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let tube = around(&problem, &region, &anchors, 0.05, 500, &mut rng).unwrap();
        assert_eq!(tube.len(), 500);
        for (q, y) in tube.x.chunks(3).zip(tube.y.chunks(2)) {
            assert!(region.margin(q) >= 0.0);
            assert!(q.iter().zip(&anchors.x).all(|(a, b)| (a - b).abs() < 0.5));
            assert_eq!(problem.position(q), y);
        }
        let empty = Samples {
            x: vec![],
            y: vec![],
            cost: vec![],
            ..anchors.clone()
        };
        assert!(around(&problem, &region, &empty, 0.05, 10, &mut rng).is_err());
        assert!(around(&problem, &region, &anchors, f64::NAN, 10, &mut rng).is_err());
    }
}
