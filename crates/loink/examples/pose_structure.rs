//! How the Panda's pose answers fall into pieces, and how a charts model meets them
//! (docs/pose.md, "What the charts meet"):
//!
//! ```text
//! cargo run --release -p loink --example pose_structure -- MODEL.json TARGETS.csv [OUT.csv]
//! ```
//!
//! For every target: every closed-form answer on a grid of [`STEPS`] values of q7, split into
//! pieces (a branch's runs between the ends where it has no answer within the limits), and each
//! piece cut again by every chart's region into arcs. It prints, per region, how many arcs of
//! the answer set lie inside it per target; the one-shot error of the chart whose region holds
//! the optimum, binned by the margin from J\* to the cheapest other piece; and how often the
//! polish of one chart, the two or three the value heads rank first, or every covering chart
//! lands within 1 % of J\*; and per region the single cut of one joint that most often leaves the
//! optimum's arc alone in its half. With OUT.csv it writes one row per target and chart.

use loink::problem::chain::panda_ik::PandaIk;
use loink::problem::chain::sweep::pose_branches;
use loink::problem::chain::SerialChain;
use loink::problem::{JointLimits, Problem};
use loink::report::Status;
use loink::solvers::reference;
use loink::surrogate::charts::ChartSet;

/// q7 values of the sweep (docs/pose.md's figures use 1,200).
const STEPS: usize = 1_200;
/// One answer on a piece: its cost and configuration.
type Answer = (f64, [f64; 7]);
/// Two answers are the same when every joint is within this (rad): the reference optimum lies
/// between two of the sweep's q7 values.
const SAME_ANSWER: f64 = 0.02;
/// Values of each joint tried as a cut.
const CUT_GRID: usize = 41;
/// Margin bins (J of the cheapest other piece over J\*, minus one).
const BINS: [(f64, f64); 3] = [(0.0, 0.25), (0.25, 1.0), (1.0, f64::INFINITY)];

/// One chart's answers for one target.
struct ChartRow {
    chart: usize,
    value: f64,
    raw_mm: f64,
    raw_deg: f64,
    polished_within: bool,
}

/// One arc of the answers inside a region: each joint's range along it.
struct Arc {
    lower: [f64; 7],
    upper: [f64; 7],
    holds_optimum: bool,
}

/// One target's facts.
struct TargetRow {
    optimum_region: Option<usize>,
    /// The reference optimum.
    optimum: Vec<f64>,
    /// The arcs inside the region that holds the optimum.
    optimum_arcs: Vec<Arc>,
    margin: f64,
    arcs: Vec<usize>,
    pieces: usize,
    charts: Vec<ChartRow>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(model), Some(targets)) = (args.get(1), args.get(2)) else {
        return Err("usage: pose_structure MODEL.json TARGETS.csv [OUT.csv]".into());
    };
    let text = std::fs::read_to_string(model)?;
    let set = ChartSet::from_json(&text)?;
    let problem = set.problem().clone();
    let chain: &SerialChain = problem
        .kinematics()
        .as_any()
        .downcast_ref()
        .ok_or("not a serial chain")?;
    let ik = PandaIk::of(chain.chain(), problem.limits()).ok_or("not the Panda's seven joints")?;
    let refined = set.clone().with_refinement(3);
    let mut rows = Vec::new();
    for line in std::fs::read_to_string(targets)?.lines().skip(1) {
        let columns: Vec<f64> = line.split(',').map(str::parse).collect::<Result<_, _>>()?;
        let y = problem
            .task()
            .from_columns(&columns)
            .map_err(|e| e.to_string())?;
        rows.push(measure(&set, &refined, &ik, &problem, &y));
    }
    if let Some(out) = args.get(3) {
        write_rows(out, &rows)?;
    }
    summarise(&set, &rows);
    best_cuts(&set, &rows);
    Ok(())
}

fn measure(
    set: &ChartSet,
    refined: &ChartSet,
    ik: &PandaIk,
    problem: &Problem,
    y: &[f64],
) -> TargetRow {
    let truth = reference::solve(problem, y);
    let j_star = truth.cost();
    let regions = set.regions();
    let optimum_region = distinct_regions(regions)
        .into_iter()
        .find(|&k| regions[k].margin(truth.q()) >= 0.0);
    let pieces = pieces(ik, problem, y);
    let arcs = regions.iter().map(|r| arcs_inside(&pieces, r)).collect();
    let optimum_arcs =
        optimum_region.map_or_else(Vec::new, |k| ranges_inside(&pieces, &regions[k], truth.q()));
    // The cheapest other piece: every piece but the one holding the optimum.
    let mut minima: Vec<f64> = pieces
        .iter()
        .map(|p| p.iter().map(|(c, _)| *c).fold(f64::INFINITY, f64::min))
        .collect();
    minima.sort_by(f64::total_cmp);
    let margin = minima
        .get(1)
        .map_or(f64::INFINITY, |second| second / j_star - 1.0);
    let charts = (0..set.len())
        .filter(|&k| set.covers(k, y))
        .map(|k| {
            let own = set.in_chart(k, y);
            let chart = set.chart(k);
            let raw = set.from_chart(k, y, chart.solve_cold_one_shot(&own));
            let polished = set.from_chart(
                k,
                y,
                refined.chart(k).clone().with_refinement(3).solve_cold(&own),
            );
            ChartRow {
                chart: k,
                value: chart.value(&own).unwrap_or(f64::INFINITY),
                raw_mm: raw.residual() * 1e3,
                raw_deg: raw.angle().unwrap_or(0.0).to_degrees(),
                polished_within: polished.status() == Status::Converged
                    && polished.cost() <= j_star * 1.01 + 1e-9,
            }
        })
        .collect();
    TargetRow {
        optimum_region,
        optimum: truth.q().to_vec(),
        optimum_arcs,
        margin,
        arcs,
        pieces: pieces.len(),
        charts,
    }
}

/// The first chart of every distinct region (charts about several orientation references share
/// their regions).
fn distinct_regions(regions: &[JointLimits]) -> Vec<usize> {
    (0..regions.len())
        .filter(|&k| !regions[..k].contains(&regions[k]))
        .collect()
}

/// The answer set of `y` in pieces: per branch, the runs of q7 values that have an answer
/// within the limits, each answer with its cost.
fn pieces(ik: &PandaIk, problem: &Problem, y: &[f64]) -> Vec<Vec<Answer>> {
    let rotation = problem
        .task()
        .quaternion(y)
        .expect("a pose task")
        .to_matrix();
    let branches = pose_branches(ik, problem, ([y[0], y[1], y[2]], &rotation), STEPS);
    let mut pieces = Vec::new();
    for branch in branches {
        let mut run = Vec::new();
        for point in branch {
            match point {
                Some(p) => run.push(p),
                None if !run.is_empty() => pieces.push(std::mem::take(&mut run)),
                None => {}
            }
        }
        if !run.is_empty() {
            pieces.push(run);
        }
    }
    pieces
}

/// Arcs of the pieces inside `region`: the runs of consecutive answers it holds.
fn arcs_inside(pieces: &[Vec<Answer>], region: &JointLimits) -> usize {
    pieces
        .iter()
        .map(|piece| {
            let inside: Vec<bool> = piece.iter().map(|(_, q)| region.margin(q) >= 0.0).collect();
            inside
                .iter()
                .enumerate()
                .filter(|&(k, &i)| i && (k == 0 || !inside[k - 1]))
                .count()
        })
        .sum()
}

/// The arcs of the pieces inside `region`, each with its joints' ranges and whether it passes
/// within [`SAME_ANSWER`] rad (every joint) of `optimum`.
fn ranges_inside(pieces: &[Vec<Answer>], region: &JointLimits, optimum: &[f64]) -> Vec<Arc> {
    let mut arcs = Vec::new();
    for piece in pieces {
        for run in
            piece.chunk_by(|a, b| (region.margin(&a.1) >= 0.0) == (region.margin(&b.1) >= 0.0))
        {
            if region.margin(&run[0].1) < 0.0 {
                continue;
            }
            let mut arc = Arc {
                lower: [f64::INFINITY; 7],
                upper: [f64::NEG_INFINITY; 7],
                holds_optimum: false,
            };
            for (_, q) in run {
                for (j, &v) in q.iter().enumerate() {
                    arc.lower[j] = arc.lower[j].min(v);
                    arc.upper[j] = arc.upper[j].max(v);
                }
                arc.holds_optimum |= q
                    .iter()
                    .zip(optimum)
                    .all(|(a, b)| (a - b).abs() < SAME_ANSWER);
            }
            arcs.push(arc);
        }
    }
    arcs
}

/// Per region, the single cut (a joint and a threshold on a grid of [`CUT_GRID`] values across
/// its range) that most often leaves the optimum's arc alone in its half: every other arc of
/// the region lies wholly on the other side.
fn best_cuts(set: &ChartSet, rows: &[TargetRow]) {
    let limits = set.problem().limits();
    println!("the best single cut of each region (targets whose optimum's half then holds its arc alone):");
    for k in distinct_regions(set.regions()) {
        let targets: Vec<&TargetRow> = rows
            .iter()
            .filter(|r| r.optimum_region == Some(k))
            .filter(|r| r.optimum_arcs.iter().filter(|a| a.holds_optimum).count() == 1)
            .collect();
        let alone = targets.iter().filter(|r| r.optimum_arcs.len() == 1).count();
        let mut best = (0, 0, 0.0);
        for j in 0..7 {
            for step in 1..CUT_GRID - 1 {
                let (lo, hi) = (limits.lower()[j], limits.upper()[j]);
                let cut = lo + (hi - lo) * step as f64 / (CUT_GRID - 1) as f64;
                let separated = targets
                    .iter()
                    .filter(|r| {
                        let above = r.optimum[j] >= cut;
                        r.optimum_arcs.iter().filter(|a| !a.holds_optimum).all(|a| {
                            if above {
                                a.upper[j] < cut
                            } else {
                                a.lower[j] >= cut
                            }
                        })
                    })
                    .count();
                if separated > best.0 {
                    best = (separated, j, cut);
                }
            }
        }
        println!(
            "  region of chart {k}: q{} at {:.2} rad, {} → {} of {} targets",
            best.1 + 1,
            best.2,
            alone,
            best.0,
            targets.len()
        );
    }
}

fn write_rows(out: &str, rows: &[TargetRow]) -> std::io::Result<()> {
    let mut text = String::from("target,optimum_region,margin,pieces,arcs_in_optimum_region,chart,value,raw_mm,raw_deg,polished_within\n");
    for (t, row) in rows.iter().enumerate() {
        let arcs = row.optimum_region.map_or(0, |k| row.arcs[k]);
        for c in &row.charts {
            text += &format!(
                "{t},{},{:.4},{},{arcs},{},{:.4},{:.2},{:.2},{}\n",
                row.optimum_region.map_or(-1, |k| k as i64),
                row.margin,
                row.pieces,
                c.chart,
                c.value,
                c.raw_mm,
                c.raw_deg,
                u8::from(c.polished_within)
            );
        }
    }
    std::fs::write(out, text)
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn quantile(mut v: Vec<f64>, q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn summarise(set: &ChartSet, rows: &[TargetRow]) {
    let n = rows.len() as f64;
    let pieces: Vec<f64> = rows.iter().map(|r| r.pieces as f64).collect();
    println!(
        "targets {}; pieces per target: median {}, 90th percentile {}",
        rows.len(),
        median(pieces.clone()),
        quantile(pieces, 0.9)
    );
    println!("arcs of the answer set inside each region, per target (where it holds any):");
    for k in distinct_regions(set.regions()) {
        let arcs: Vec<f64> = rows
            .iter()
            .map(|r| r.arcs[k] as f64)
            .filter(|&a| a > 0.0)
            .collect();
        let opt: Vec<f64> = rows
            .iter()
            .filter(|r| r.optimum_region == Some(k))
            .map(|r| r.arcs[k] as f64)
            .collect();
        let several = opt.iter().filter(|&&a| a > 1.0).count();
        println!(
            "  region of chart {k}: median {} (90th {}) over {} targets; holding the optimum on {} targets: median {}, more than one arc on {:.1} %",
            median(arcs.clone()),
            quantile(arcs.clone(), 0.9),
            arcs.len(),
            opt.len(),
            median(opt.clone()),
            100.0 * several as f64 / opt.len().max(1) as f64
        );
    }
    println!("one-shot error of the covering chart whose region holds the optimum, by the margin to the cheapest other piece:");
    for (lo, hi) in BINS {
        let hits: Vec<&ChartRow> = rows
            .iter()
            .filter(|r| r.margin >= lo && r.margin < hi)
            .filter_map(|r| {
                let k = r.optimum_region?;
                r.charts
                    .iter()
                    .find(|c| set.regions()[c.chart] == set.regions()[k])
            })
            .collect();
        println!(
            "  margin {:.0}–{:.0} %: {} targets, position median {:.1} mm (mean {:.1}), angle median {:.2}° (mean {:.2}); its polish within 1 % on {:.1} %",
            lo * 100.0,
            hi * 100.0,
            hits.len(),
            median(hits.iter().map(|c| c.raw_mm).collect()),
            hits.iter().map(|c| c.raw_mm).sum::<f64>() / hits.len().max(1) as f64,
            median(hits.iter().map(|c| c.raw_deg).collect()),
            hits.iter().map(|c| c.raw_deg).sum::<f64>() / hits.len().max(1) as f64,
            100.0 * hits.iter().filter(|c| c.polished_within).count() as f64 / hits.len().max(1) as f64
        );
    }
    println!("within 1 % of J* after refine 3, keeping the cheapest polished answer of:");
    for take in [1, 2, 3, usize::MAX] {
        let within = rows
            .iter()
            .filter(|r| {
                let mut ranked: Vec<&ChartRow> = r.charts.iter().collect();
                ranked.sort_by(|a, b| a.value.total_cmp(&b.value));
                ranked.iter().take(take).any(|c| c.polished_within)
            })
            .count();
        let label = if take == usize::MAX {
            "every covering chart".to_string()
        } else {
            format!("the first {take} by b(y)")
        };
        println!("  {label}: {:.1} %", 100.0 * within as f64 / n);
    }
}
