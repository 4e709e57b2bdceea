//! Anchors at the optimum (`--optima N`): the reference optimum x\* of N targets, each a row
//! (x\*, y, J\*) the loss pins to the latent origin, G₂(x̃\*) = 0, besides its task and cost
//! terms. Uniform samples teach G₁ the forward map and the heads the cost, but where the cost
//! changes little along a self-motion set (a 6-joint arm's, in a box narrowed around its optima)
//! nothing in them says where z = 0 lies; the anchors say it where the answers are read.
//!
//! The targets are the images of configurations uniform in the problem's limits (the TRAC-IK
//! protocol); an optimum outside the training box is left out (the network learns nothing
//! there). The reference searches run on every core, each target on its own seeded search, so
//! the rows are the same for any number of threads.

use std::time::Instant;

use loink::problem::{JointLimits, Problem};
use loink::report::Status;
use loink::solvers::reference;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::data::Samples;
use super::TrainError;

/// One anchor: x\*, its target y and J\*.
type Anchor = (Vec<f64>, Vec<f64>, f64);

/// The anchors of `count` targets drawn with `seed`, kept when their optimum lies in `region`.
pub fn draw(
    problem: &Problem,
    region: &JointLimits,
    count: usize,
    seed: u64,
) -> Result<Samples, TrainError> {
    reference::applies(problem)?;
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0A11_C0DE);
    let targets = problem.random_targets(count, &mut rng);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_thread = targets.len().div_ceil(threads.max(1)).max(1);
    let solved: Vec<Option<Anchor>> = std::thread::scope(|scope| {
        let handles: Vec<_> = targets
            .chunks(per_thread)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|y| {
                            let s = reference::solve(problem, y);
                            (s.status() == Status::Converged && inside(region, s.q()))
                                .then(|| (s.q().to_vec(), y.clone(), s.cost()))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join())
            .collect::<Result<Vec<_>, _>>()
            .map(|parts| parts.into_iter().flatten().collect())
    })
    .map_err(|_| TrainError::Anchors("a reference search stopped with a panic".into()))?;
    let mut rows = Samples {
        dof: problem.dof(),
        task_dim: problem.task_dim(),
        x: Vec::new(),
        y: Vec::new(),
        cost: Vec::new(),
    };
    for (x, y, cost) in solved.into_iter().flatten() {
        rows.x.extend(x);
        rows.y.extend(y);
        rows.cost.push(cost);
    }
    eprintln!(
        "anchors: {} optima of {count} targets inside the training box, {:.1} s on {threads} threads",
        rows.len(),
        start.elapsed().as_secs_f64()
    );
    if rows.is_empty() {
        return Err(TrainError::Argument(format!(
            "--optima {count}: no optimum lies inside the training box"
        )));
    }
    Ok(rows)
}

fn inside(region: &JointLimits, q: &[f64]) -> bool {
    region.margin(q) >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_optima_inside_the_box_and_reproducible() {
        let problem = Problem::preset("planar3").unwrap();
        let rows = draw(&problem, problem.limits(), 40, 3).unwrap();
        assert!(rows.len() >= 30, "{} of 40 targets", rows.len());
        for i in 0..rows.len() {
            let x = &rows.x[i * 3..i * 3 + 3];
            let y = &rows.y[i * 2..i * 2 + 2];
            let replay = problem.position(x);
            assert!((replay[0] - y[0]).hypot(replay[1] - y[1]) < 1e-6);
            let best = reference::solve(&problem, y);
            assert!((best.cost() - rows.cost[i]).abs() <= 1e-9 * best.cost().max(1.0));
        }
        assert_eq!(draw(&problem, problem.limits(), 40, 3).unwrap().x, rows.x);
        let narrow = JointLimits::new(vec![-0.8, 0.0, 0.0], vec![0.8, 2.0, 2.0]).unwrap();
        let kept = draw(&problem, &narrow, 40, 3).unwrap();
        assert!(kept.len() < rows.len());
        assert!(kept.x.chunks(3).all(|q| inside(&narrow, q)));
    }
}
