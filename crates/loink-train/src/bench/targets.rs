//! The two target sets: a targets file (columns `x,y`, as `loink targets` writes) and a smooth
//! path for the warm-start methods.

use std::path::Path;

use loink::problem::Problem;

/// Reads the `x` and `y` columns of a CSV (other columns are ignored); every value must be finite.
pub fn read_targets(path: &Path) -> Result<Vec<[f64; 2]>, String> {
    let mut reader =
        csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let headers = reader
        .headers()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| format!("{}: no column '{name}' in the header", path.display()))
    };
    let (ix, iy) = (column("x")?, column("y")?);
    let mut targets = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
        let value = |i: usize| -> Result<f64, String> {
            let text = record.get(i).unwrap_or("").trim();
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(format!(
                    "{}: row {}: '{text}' is not a finite number",
                    path.display(),
                    line + 1
                )),
            }
        };
        targets.push([value(ix)?, value(iy)?]);
    }
    if targets.is_empty() {
        return Err(format!("{}: no targets", path.display()));
    }
    Ok(targets)
}

/// `count` targets along a closed Lissajous curve in joint space mapped through forward
/// kinematics: q_i(t) = c_i + 0.85 h_i sin(2π f_i t + φ_i) with f = (1, 2, 3). Every target is
/// reachable inside the limits and consecutive targets are close, like a pointer dragged
/// around the workspace.
pub fn lissajous_path(problem: &Problem, count: usize) -> Vec<[f64; 2]> {
    let limits = problem.limits();
    let n = problem.dof();
    (0..count)
        .map(|k| {
            let t = k as f64 / count.max(1) as f64;
            let q: Vec<f64> = (0..n)
                .map(|i| {
                    let (f, phase) = ((i + 1) as f64, 0.7 * i as f64);
                    limits.centre(i)
                        + 0.85
                            * limits.half_width(i)
                            * (std::f64::consts::TAU * f * t + phase).sin()
                })
                .collect();
            let y = problem.position(&q);
            [y[0], y.get(1).copied().unwrap_or(f64::NAN)]
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
        let reach = problem.planar().unwrap().reach();
        assert!(path.iter().all(|p| (p[0].hypot(p[1])) <= reach));
    }

    #[test]
    fn reads_x_y_columns_and_rejects_bad_values() {
        let dir = std::env::temp_dir().join(format!("loink-bench-targets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.csv");
        std::fs::write(&good, "q1,x,y\n0.1,0.5,0.25\n0.2,-0.5,1e-1\n").unwrap();
        assert_eq!(read_targets(&good).unwrap(), vec![[0.5, 0.25], [-0.5, 0.1]]);
        let bad = dir.join("bad.csv");
        std::fs::write(&bad, "x,y\n0.5,NaN\n").unwrap();
        assert!(read_targets(&bad).is_err());
        let missing = dir.join("missing.csv");
        std::fs::write(&missing, "a,b\n1,2\n").unwrap();
        assert!(read_targets(&missing).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
