//! `loink train --charts J1,J2,… | --split J:c₁:c₂… | --turns ψ1,ψ2,…`: a multi-chart model
//! (model kind `charts`, see `loink::artifact::charts`). The joint box is cut into regions
//! ([`super::regions`]); chart k is an ordinary LOInK network for the whole problem trained on
//! configurations drawn from region k alone, so its learned solution sets follow the pieces of
//! the true ones that lie in that region. `--turns` (a pose task) makes one chart per
//! orientation reference turned ψ about the tool axis, each trained on the orientations within
//! `--cover` of its own reference (one per turn and region). The charts train `--jobs` at a
//! time, each on its own seed, so the file does not depend on how many ran at once. The closing
//! optimality check runs on the whole set (every chart proposes, the cheapest feasible proposal
//! wins), exactly as `loink eval` and the page solve with the file.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use loink::artifact::{charts_file, About, ChartEntry, RegionBox, MAX_CHARTS};
use loink::problem::{JointLimits, Problem};
use serde::{Deserialize, Serialize};

use super::regions::{cuts, describe, regions, trim};
use super::summary::{self, Row};
use super::{fit, optimality, TrainArgs, TrainError};

/// One chart to train: its reference turn (a pose task), its region and the region in words.
type ChartPlan<'a> = (Option<f64>, &'a JointLimits, &'a String);

/// Runs `loink train --charts/--split/--turns …`: trains every chart, `--jobs` at a time, then
/// checks and writes the set.
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
    let (regions, region_words) = region_list(args, &whole)?;
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
    let charts: Vec<ChartPlan> = turns
        .iter()
        .flat_map(|&t| {
            regions
                .iter()
                .zip(&region_words)
                .map(move |(r, w)| (t, r, w))
        })
        .collect();
    let about = args.about();
    let jobs = args.jobs().min(count);
    let wall = std::time::Instant::now();
    // A worker process: one chart, written where the parent reads it.
    if let (Some(k), Some(out)) = (args.only_chart, &args.chart_out) {
        if k >= count {
            return Err(TrainError::Argument(format!("no chart {k} of {count}")));
        }
        return write_worker_chart(&train_chart(args, &charts, k, &about)?, out);
    }
    let trained: Vec<TrainedChart> = if jobs <= 1 || args.argv.is_empty() {
        (0..count)
            .map(|k| train_chart(args, &charts, k, &about))
            .collect::<Result<_, _>>()?
    } else {
        let mut trained = in_processes(&args.argv, count, jobs)?;
        // The workers' cards name their own command line: the set's is the one that ran.
        for chart in &mut trained {
            chart.entry.model.about.command = about.command.clone();
        }
        trained
    };
    let seconds: f64 = trained.iter().map(|c| c.seconds).sum();
    let json = assemble(args, &whole, &about, trained, count)?;
    println!(
        "train_seconds {seconds:.1} for {count} charts ({:.1} s of wall time, {jobs} at a time; not stored in the file, so it stays reproducible)",
        wall.elapsed().as_secs_f64()
    );
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

/// The charts' regions of the training box (the limits, or --region-lower/--region-upper's
/// part) and each in words: cut by --charts/--split, or named whole by --region.
fn region_list(
    args: &TrainArgs,
    whole: &Problem,
) -> Result<(Vec<JointLimits>, Vec<String>), TrainError> {
    let limits = args.region(whole)?;
    let cut_list = cuts(&limits, &args.charts, &args.split);
    if !args.region.is_empty() && !cut_list.is_empty() {
        return Err(TrainError::Argument(
            "--region names each region whole: it does not take --charts or --split".into(),
        ));
    }
    if args.region.is_empty() {
        let regions = regions(&limits, &cut_list)?;
        let words: Vec<String> = regions
            .iter()
            .map(|r| describe(r, &limits, &cut_list))
            .collect();
        return Ok((regions, words));
    }
    let regions = args
        .region
        .iter()
        .map(|spec| spec.region(&limits))
        .collect::<Result<Vec<_>, _>>()?;
    let words: Vec<String> = args
        .region
        .iter()
        .map(|spec| spec.describe(&limits))
        .collect();
    Ok((regions, words))
}

/// Trains chart `k` of `charts` (its own seed, turn and region) into its file entry.
fn train_chart(
    args: &TrainArgs,
    charts: &[ChartPlan],
    k: usize,
    about: &About,
) -> Result<TrainedChart, TrainError> {
    let count = charts.len();
    let (turn, region, region_words) = charts[k];
    let mut words = region_words.clone();
    if let Some(turn) = turn.filter(|_| !args.turns.is_empty()) {
        let about = format!("reference turned {}° about the tool axis", trim(turn));
        words = if words.is_empty() {
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
    let mut model = trained.file;
    model.about = About {
        name: format!("{}/chart-{k}", about.name),
        description: format!("chart {k} of {count}: {words}"),
        command: about.command.clone(),
        ..About::default()
    };
    let rows = ["task_rmse_m", "best_val_loss", "epochs"]
        .iter()
        .filter_map(|key| Some((format!("chart{k}_{key}"), *model.metrics.get(*key)?)))
        .collect();
    let entry = ChartEntry {
        region: RegionBox {
            lower: region.lower().to_vec(),
            upper: region.upper().to_vec(),
        },
        model,
    };
    Ok(TrainedChart {
        entry,
        rows,
        seconds: trained.seconds,
    })
}

/// A worker's chart, written whole and then renamed to `out`: a run stopped mid-write leaves no
/// half chart behind.
fn write_worker_chart(chart: &TrainedChart, out: &std::path::Path) -> Result<(), TrainError> {
    let json = serde_json::to_string(chart).map_err(|e| TrainError::Argument(e.to_string()))?;
    let partial = out.with_extension("partial");
    std::fs::write(&partial, json).map_err(|source| TrainError::Io {
        path: partial.clone(),
        source,
    })?;
    std::fs::rename(&partial, out).map_err(|source| TrainError::Io {
        path: out.to_path_buf(),
        source,
    })
}

/// The set of `count` trained charts as a charts file's JSON, with every chart's figures and,
/// when asked, the set's optimality check in its metrics.
fn assemble(
    args: &TrainArgs,
    whole: &Problem,
    about: &About,
    trained: Vec<TrainedChart>,
    count: usize,
) -> Result<String, TrainError> {
    let mut entries = Vec::with_capacity(count);
    let mut rows: Vec<(String, f64)> = Vec::new();
    for chart in trained {
        entries.push(chart.entry);
        rows.extend(chart.rows);
    }
    if entries.len() < count {
        return Err(TrainError::Argument("a chart was not trained".into()));
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
    serde_json::to_string(&file).map_err(|e| TrainError::Argument(e.to_string()))
}

/// One trained chart: its file entry, its figures for the set's metrics and its training time.
#[derive(Debug, Serialize, Deserialize)]
struct TrainedChart {
    entry: ChartEntry,
    rows: Vec<(String, f64)>,
    seconds: f64,
}

/// Reads a chart a worker wrote, `None` when there is none or it does not parse.
fn read_chart(path: &std::path::Path) -> Option<TrainedChart> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The folder the workers of one command line write to: named by a digest of the line, so
/// that the same command run again after an interruption finds the charts already trained
/// (each chart's training is deterministic: its seed follows from the flags and its index).
fn worker_dir(argv: &[String]) -> PathBuf {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(argv.join("\u{1f}").as_bytes());
    let tag: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    std::env::temp_dir().join(format!("loink-charts-{tag}"))
}

/// Trains the `count` charts `jobs` at a time, each in a process of its own (this binary, this
/// flags, `--only-chart k`): training threads of one process contend inside the
/// autodiff backend and run no faster together than one after another; processes do. Charts
/// an interrupted run of the same command finished are taken as they are.
fn in_processes(
    argv: &[String],
    count: usize,
    jobs: usize,
) -> Result<Vec<TrainedChart>, TrainError> {
    let exe = std::env::current_exe().map_err(|e| TrainError::Argument(e.to_string()))?;
    let dir = worker_dir(argv);
    std::fs::create_dir_all(&dir).map_err(|source| TrainError::Io {
        path: dir.clone(),
        source,
    })?;
    if argv.is_empty() {
        return Err(TrainError::Argument(
            "--jobs above 1 needs the command line the workers repeat".into(),
        ));
    }
    let next = Mutex::new(0usize);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let path_of = |k: usize| -> PathBuf { dir.join(format!("chart-{k}.json")) };
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let k = {
                    let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
                    let k = *next;
                    *next += 1;
                    k
                };
                if k >= count {
                    break;
                }
                if read_chart(&path_of(k)).is_some() {
                    eprintln!(
                        "== chart {}/{count}: trained by an interrupted run of this command, kept",
                        k + 1
                    );
                    continue;
                }
                let status = std::process::Command::new(&exe)
                    .args(argv)
                    .arg(format!("--only-chart={k}"))
                    .arg("--chart-out")
                    .arg(path_of(k))
                    .status();
                if !status.as_ref().is_ok_and(|s| s.success()) {
                    let why = match status {
                        Ok(s) => s.to_string(),
                        Err(e) => e.to_string(),
                    };
                    failures
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(format!("chart {k}: {why}"));
                    // The others finish the chart they are on; no new one starts.
                    *next.lock().unwrap_or_else(|e| e.into_inner()) = count;
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    let trained = if failures.is_empty() {
        (0..count)
            .map(|k| {
                let path = path_of(k);
                let text = std::fs::read_to_string(&path).map_err(|source| TrainError::Io {
                    path: path.clone(),
                    source,
                })?;
                serde_json::from_str(&text).map_err(|e| TrainError::Argument(e.to_string()))
            })
            .collect::<Result<Vec<TrainedChart>, TrainError>>()
    } else {
        Err(TrainError::Argument(format!(
            "a chart's training failed ({})",
            failures.join("; ")
        )))
    };
    let _ = std::fs::remove_dir_all(&dir);
    trained
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workers_folder_is_the_command_lines_own() {
        let line = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let a = worker_dir(&line("--problem panda-pose --turns 0,180 --seed 1"));
        assert_eq!(
            a,
            worker_dir(&line("--problem panda-pose --turns 0,180 --seed 1"))
        );
        assert_ne!(
            a,
            worker_dir(&line("--problem panda-pose --turns 0,180 --seed 2"))
        );
        // Arguments are kept apart: "a b" + "c" is not "a" + "b c".
        assert_ne!(
            worker_dir(&["a b".into(), "c".into()]),
            worker_dir(&["a".into(), "b c".into()])
        );
    }

    #[test]
    fn a_half_written_chart_is_trained_again() {
        let dir = std::env::temp_dir().join(format!("loink-charts-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chart-0.json");
        assert!(read_chart(&path).is_none(), "no file");
        std::fs::write(&path, "{\"entry\": {\"region\"").unwrap();
        assert!(read_chart(&path).is_none(), "a truncated file");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
