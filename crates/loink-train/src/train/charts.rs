//! `loink train --charts J1,J2,…`: a multi-chart model (model kind `charts`, see
//! `loink::artifact::charts`). The joint box is cut into 2^J regions by the sign of each listed
//! joint (a joint whose range does not hold 0 is cut at its middle); chart k is an ordinary
//! LOInK network for the whole problem trained on configurations drawn from region k alone, so
//! its learned solution sets follow the pieces of the true ones that lie in that region. The
//! `--turns ψ1,ψ2,…` (a pose task) makes one chart per orientation reference turned ψ about the
//! tool axis, each trained on the orientations within `--cover` of its own reference (with
//! `--charts`: one per turn and region). The closing optimality check runs on the whole set (every chart proposes, the cheapest feasible
//! proposal wins), exactly as `loink eval` and the page solve with the file.

use std::collections::BTreeMap;

use loink::artifact::{charts_file, About, ChartEntry, RegionBox, MAX_CHARTS};
use loink::problem::{JointLimits, Problem};

use super::summary::{self, Row};
use super::{fit, optimality, TrainArgs, TrainError};

/// The regions of `--charts joints` (1-based joint numbers) in chart order: chart k takes the
/// lower part of the i-th listed joint's range when bit (J − 1 − i) of k is 0, the upper part
/// when it is 1.
pub fn regions(limits: &JointLimits, joints: &[usize]) -> Result<Vec<JointLimits>, TrainError> {
    let bad = |m: String| Err(TrainError::Argument(m));
    let count = 1usize << joints.len().min(8);
    if joints.is_empty() || count > MAX_CHARTS {
        return bad(format!(
            "--charts needs 1 to {} joints (2^J charts, at most {MAX_CHARTS})",
            MAX_CHARTS.ilog2()
        ));
    }
    for (i, &j) in joints.iter().enumerate() {
        if j == 0 || j > limits.len() {
            return bad(format!(
                "--charts: joint {j} does not exist (joints are 1..={})",
                limits.len()
            ));
        }
        if joints[..i].contains(&j) {
            return bad(format!("--charts: joint {j} is listed twice"));
        }
    }
    (0..count)
        .map(|k| {
            let (mut lower, mut upper) = (limits.lower().to_vec(), limits.upper().to_vec());
            for (i, &j) in joints.iter().enumerate() {
                let (lo, hi) = (lower[j - 1], upper[j - 1]);
                let cut = if lo < 0.0 && hi > 0.0 {
                    0.0
                } else {
                    0.5 * (lo + hi)
                };
                if (k >> (joints.len() - 1 - i)) & 1 == 0 {
                    upper[j - 1] = cut;
                } else {
                    lower[j - 1] = cut;
                }
            }
            JointLimits::new(lower, upper).map_err(TrainError::from)
        })
        .collect()
}

/// A region in words: `q2 ≥ 0, q3 < 0` for the cut joints.
pub fn describe(region: &JointLimits, limits: &JointLimits, joints: &[usize]) -> String {
    joints
        .iter()
        .map(|&j| {
            let i = j - 1;
            let upper_part = region.upper()[i] >= limits.upper()[i];
            let cut = if upper_part {
                region.lower()[i]
            } else {
                region.upper()[i]
            };
            let sign = if upper_part { "≥" } else { "<" };
            format!("q{j} {sign} {}", trim(cut))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn trim(v: f64) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Runs `loink train --charts …`: trains every chart in turn, then checks and writes the set.
pub fn run(args: &TrainArgs) -> Result<(), TrainError> {
    if args.data.is_some() {
        return Err(TrainError::Argument(
            "--charts draws each chart's data from its region: it does not take --data".into(),
        ));
    }
    // The file's problem: the task without a chart's own reference or cover.
    let whole: Problem = TrainArgs {
        turn: None,
        cover: None,
        ..args.clone()
    }
    .problem()?;
    // The charts cut the training box (the limits, or --region-lower/--region-upper's part).
    let limits = args.region(&whole)?;
    let regions = if args.charts.is_empty() {
        vec![limits.clone()]
    } else {
        regions(&limits, &args.charts)?
    };
    let turns: Vec<Option<f64>> = if args.turns.is_empty() {
        vec![args.turn]
    } else {
        args.turns.iter().copied().map(Some).collect()
    };
    let count = regions.len() * turns.len();
    if count > MAX_CHARTS {
        return Err(TrainError::Argument(format!(
            "{count} charts asked ({} turns × {} regions): a file holds at most {MAX_CHARTS}",
            turns.len(),
            regions.len()
        )));
    }
    let charts: Vec<(Option<f64>, &JointLimits)> = turns
        .iter()
        .flat_map(|&t| regions.iter().map(move |r| (t, r)))
        .collect();
    let about = args.about();
    let mut entries = Vec::with_capacity(count);
    let mut rows: Vec<(String, f64)> = Vec::new();
    let mut seconds = 0.0;
    for (k, &(turn, region)) in charts.iter().enumerate() {
        let mut words = describe(region, &limits, &args.charts);
        if let Some(turn) = turn.filter(|_| !args.turns.is_empty()) {
            let about = format!("reference turned {}° about the tool axis", trim(turn));
            words = if args.charts.is_empty() {
                about
            } else {
                format!("{about}, {words}")
            };
        }
        println!("== chart {}/{count}: {words}", k + 1);
        let chart_args = TrainArgs {
            check_targets: 0,
            seed: args.seed.wrapping_add(k as u64),
            turn,
            ..args.clone()
        };
        let problem = chart_args.problem()?;
        let trained = fit(&chart_args, &problem, region, Some((k, count)), None)?;
        seconds += trained.seconds;
        let mut model = trained.file;
        model.about = About {
            name: format!("{}/chart-{k}", about.name),
            description: format!("chart {k} of {count}: {words}"),
            command: about.command.clone(),
            ..About::default()
        };
        for key in ["task_rmse_m", "best_val_loss", "epochs"] {
            if let Some(v) = model.metrics.get(key) {
                rows.push((format!("chart{k}_{key}"), *v));
            }
        }
        entries.push(ChartEntry {
            region: RegionBox {
                lower: region.lower().to_vec(),
                upper: region.upper().to_vec(),
            },
            model,
        });
    }
    let mut metrics: BTreeMap<String, f64> = rows.into_iter().collect();
    metrics.insert("charts".into(), count as f64);
    let build = |metrics: BTreeMap<String, f64>| {
        charts_file(about.clone(), whole.spec(), entries.clone(), metrics)
            .ok_or_else(|| TrainError::Argument("no chart was trained".into()))
    };
    let mut file = build(metrics.clone())?;
    if args.check_targets > 0 {
        let check_seed = args.seed ^ 0x005e_ed0f_c4ec;
        let json = serde_json::to_string(&file).map_err(|e| TrainError::Argument(e.to_string()))?;
        match optimality::check(&json, args.check_targets, args.check_refine, check_seed) {
            Ok(o) => {
                let check_rows: Vec<Row> = o.rows();
                summary::print_table(
                    &format!("loink train {} --charts — the set of {count}", args.problem),
                    &check_rows,
                );
                metrics.extend(summary::metrics(&check_rows));
                file = build(metrics)?;
            }
            Err(e) => {
                println!("optimality check skipped: the inference crate rejected the set: {e}")
            }
        }
    }
    println!(
        "train_seconds {seconds:.1} for {count} charts (wall time; not stored in the file, so it stays reproducible)"
    );
    let json = serde_json::to_string(&file).map_err(|e| TrainError::Argument(e.to_string()))?;
    std::fs::write(args.out(), &json).map_err(|source| TrainError::Io {
        path: args.out().to_path_buf(),
        source,
    })?;
    println!(
        "wrote {} ({} bytes, {count} charts)",
        args.out().display(),
        json.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_patterns_cover_the_box_without_overlap() {
        let limits = JointLimits::new(vec![-2.6; 3], vec![2.6; 3]).unwrap();
        let r = regions(&limits, &[2, 3]).unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!((r[0].upper()[1], r[0].upper()[2]), (0.0, 0.0));
        assert_eq!((r[1].upper()[1], r[1].lower()[2]), (0.0, 0.0));
        assert_eq!((r[3].lower()[1], r[3].lower()[2]), (0.0, 0.0));
        assert!(r
            .iter()
            .all(|b| b.lower()[0] == -2.6 && b.upper()[0] == 2.6));
        assert_eq!(describe(&r[2], &limits, &[2, 3]), "q2 ≥ 0, q3 < 0");
        // A range without 0 is cut at its middle.
        let shifted = JointLimits::new(vec![0.0, 1.0], vec![2.0, 3.0]).unwrap();
        let r = regions(&shifted, &[2]).unwrap();
        assert_eq!((r[0].upper()[1], r[1].lower()[1]), (2.0, 2.0));
    }

    #[test]
    fn bad_joint_lists_are_refused() {
        let limits = JointLimits::new(vec![-1.0; 3], vec![1.0; 3]).unwrap();
        for joints in [vec![], vec![0], vec![4], vec![2, 2], vec![1, 2, 3, 1, 2]] {
            assert!(regions(&limits, &joints).is_err(), "{joints:?}");
        }
    }
}
