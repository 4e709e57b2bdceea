//! The two target sets: a targets file (as `loink targets` writes it) and a smooth path for the
//! warm-start methods.

use std::path::Path;

use loink::problem::{Problem, TaskSpace};

use crate::cli::CliError;
use crate::targets_csv;

/// Reads a targets file of `problem`'s task (its columns, as `loink targets` writes; other
/// columns are ignored); every row must be a target.
pub fn read_targets(path: &Path, task: &TaskSpace) -> Result<Vec<Vec<f64>>, CliError> {
    let file = targets_csv::read_targets(path, task)?;
    let mut targets = Vec::with_capacity(file.rows.len());
    for (line, row) in file.rows.iter().enumerate() {
        let target = row.target.clone().ok_or_else(|| {
            CliError::Input(format!(
                "{}: row {}: '{}' is not a target ({})",
                path.display(),
                line + 1,
                row.texts.join(","),
                row.reason.as_deref().unwrap_or("not finite")
            ))
        })?;
        targets.push(target);
    }
    if targets.is_empty() {
        return Err(CliError::Input(format!("{}: no targets", path.display())));
    }
    Ok(targets)
}

/// `count` targets along a closed Lissajous curve in joint space mapped through forward
/// kinematics: q_i(t) = c_i + 0.85 h_i sin(2π f_i t + φ_i) with f = (1, 2, 3). Every target is
/// reachable inside the limits and consecutive targets are close, like a pointer dragged
/// around the workspace.
///
/// A kind whose useful domain is a small part of its box walks its own path through that domain
/// instead ([`loink::problem::capability::Domain::path`]).
pub fn lissajous_path(problem: &Problem, count: usize) -> Vec<Vec<f64>> {
    let limits = problem.limits();
    let n = problem.dof();
    let domain = problem.capabilities().domain;
    (0..count)
        .map(|k| {
            let t = k as f64 / count.max(1) as f64;
            if let Some(y) = domain.and_then(|d| d.path(t)) {
                return y;
            }
            let q: Vec<f64> = (0..n)
                .map(|i| {
                    let (f, phase) = ((i + 1) as f64, 0.7 * i as f64);
                    limits.centre(i)
                        + 0.85
                            * limits.half_width(i)
                            * (std::f64::consts::TAU * f * t + phase).sin()
                })
                .collect();
            problem.position(&q)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_is_reachable_and_smooth() {
        let problem = Problem::preset("planar3").unwrap();
        let path = lissajous_path(&problem, 1000);
        assert_eq!(path.len(), 1000);
        let steps: Vec<f64> = path
            .windows(2)
            .map(|w| ((w[1][0] - w[0][0]).powi(2) + (w[1][1] - w[0][1]).powi(2)).sqrt())
            .collect();
        let longest = steps.iter().cloned().fold(0.0, f64::max);
        assert!(longest < 0.05, "longest step {longest} m");
        let reach = problem.workspace_radius();
        assert!(path.iter().all(|p| (p[0].hypot(p[1])) <= reach));
    }

    #[test]
    fn the_climbers_path_stays_on_stances_it_can_take() {
        use loink::report::Status;
        let problem = Problem::preset("climber").unwrap();
        let path = lissajous_path(&problem, 200);
        let step = |a: &[f64], b: &[f64]| -> f64 {
            a.iter()
                .zip(b)
                .map(|(p, q)| (p - q).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        let longest = path
            .windows(2)
            .map(|w| step(&w[0], &w[1]))
            .fold(0.0, f64::max);
        assert!(longest < 0.03, "longest step {longest} m over 200 points");
        for y in &path {
            let optimum = loink::solvers::reference::solve(&problem, y);
            assert_eq!(optimum.status(), Status::Converged, "target {y:?}");
            assert!(
                problem.capabilities().domain.unwrap().contains(optimum.q()),
                "the optimum at {y:?} is no stance on the wall"
            );
        }
    }

    #[test]
    fn reads_x_y_columns_and_rejects_bad_values() {
        let dir = std::env::temp_dir().join(format!("loink-bench-targets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.csv");
        std::fs::write(&good, "q1,x,y\n0.1,0.5,0.25\n0.2,-0.5,1e-1\n").unwrap();
        assert_eq!(
            read_targets(&good, &TaskSpace::points(2)).unwrap(),
            vec![vec![0.5, 0.25], vec![-0.5, 0.1]]
        );
        let spatial = dir.join("spatial.csv");
        std::fs::write(&spatial, "x,y,z\n0.1,0.2,0.3\n").unwrap();
        assert_eq!(
            read_targets(&spatial, &TaskSpace::points(3)).unwrap(),
            vec![vec![0.1, 0.2, 0.3]]
        );
        assert!(
            read_targets(&spatial, &TaskSpace::points(2)).is_err(),
            "a 3-D file for a 2-D task"
        );
        let bad = dir.join("bad.csv");
        std::fs::write(&bad, "x,y\n0.5,NaN\n").unwrap();
        assert!(read_targets(&bad, &TaskSpace::points(2)).is_err());
        let missing = dir.join("missing.csv");
        std::fs::write(&missing, "a,b\n1,2\n").unwrap();
        assert!(read_targets(&missing, &TaskSpace::points(2)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
