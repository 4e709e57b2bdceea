//! `loink bench --scaling`: how the learned solver's cost grows.
//!
//! - solve time vs hidden width and vs depth: **untrained random networks** (speed only — an
//!   untrained G's answers are not on target, so only its inverse time means anything): the time
//!   of the raw inverse x = G⁻¹([ỹ; 0]) (`Loink::preimage`, no replay), cold, over the targets,
//!   beside the time of one forward pass G(x) of the same network at the answers, so the ratio
//!   says how many forward passes' worth of arithmetic an inverse costs;
//! - time per target vs batch size: a fresh solver state per batch, B cold solves in it, total
//!   time / B (the inference crate has no batched inverse; this shows what per-batch setup costs);
//! - training time vs data size (`--scaling-train`): `loink train` wall time (child process) for
//!   growing sample counts at a fixed small epoch count.
//!
//! Solve times are the thread's CPU time (the machine is shared; wall time under load mostly
//! measures the scheduler); training times are wall time (burn may use several threads).
//! The gap of each shipped model comes from the main benchmark (trained models only).

use std::path::Path;
use std::time::Instant;

use loink::artifact::{random_model, validate};
use loink::surrogate::Loink;
use plotters::prelude::*;

use super::methods::thread_cpu_micros;
use super::stats::{median, quantile};

/// One measured point of a curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The varied quantity (width, depth, batch size, samples).
    pub x: f64,
    /// Median (µs for solves, s for training).
    pub median: f64,
    /// p95 (same unit; equal to the median for single measurements).
    pub p95: f64,
    /// Median time of one forward pass G(x) of the same network (µs), where measured.
    pub forward: Option<f64>,
    /// Extra note (e.g. inverse iterations).
    pub note: String,
}

/// A curve with its axis names.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Panel title.
    pub title: String,
    /// x-axis name.
    pub x_name: String,
    /// y-axis name.
    pub y_name: String,
    /// The points.
    pub points: Vec<Point>,
}

fn untrained(robot: &str, depth: usize, hidden: &[usize], seed: u64) -> Result<Loink, String> {
    let file = random_model(robot, depth, hidden, 0.05, 20.0, seed).map_err(|e| e.to_string())?;
    Ok(Loink::new(validate(file).map_err(|e| e.to_string())?))
}

/// Cold raw-inverse times (µs) of `learned` over `targets`, the median forward-pass time (µs)
/// at the answers, and the mean inverse iterations.
fn inverse_times(learned: &Loink, targets: &[Vec<f64>]) -> Result<(Vec<f64>, f64, f64), String> {
    let mut state = learned.new_state();
    let zero = vec![0.0; learned.latent_dim()];
    let mut times = Vec::with_capacity(targets.len());
    let mut answers = Vec::with_capacity(targets.len());
    let mut iterations = 0usize;
    for y in targets {
        state.reset();
        let start = thread_cpu_micros();
        let (x, report) = learned
            .preimage(&mut state, y, &zero)
            .map_err(|e| e.to_string())?;
        times.push(thread_cpu_micros() - start);
        iterations += report.iterations;
        answers.push(x);
    }
    let net = learned.model().net();
    let mut net_state = net.new_state();
    let mut out = vec![0.0; net.dim()];
    // A forward pass takes about a microsecond: time a block of them per sample.
    const BLOCK: usize = 50;
    let mut forward = Vec::with_capacity(answers.len() / BLOCK + 1);
    for block in answers.chunks(BLOCK) {
        let start = thread_cpu_micros();
        for x in block {
            net.forward_into(x, &mut net_state, &mut out);
            std::hint::black_box(&out);
        }
        forward.push((thread_cpu_micros() - start) / block.len() as f64);
    }
    let mean_iterations = iterations as f64 / targets.len().max(1) as f64;
    Ok((times, median(&forward), mean_iterations))
}

fn point(x: f64, times: &[f64], forward: Option<f64>, note: String) -> Point {
    Point {
        x,
        median: median(times),
        p95: quantile(times, 0.95),
        forward,
        note,
    }
}

/// A point of the width or depth curve: inverse times, forward time, and their ratio.
fn size_point(x: f64, learned: &Loink, targets: &[Vec<f64>]) -> Result<Point, String> {
    let (times, forward, its) = inverse_times(learned, targets)?;
    let inverse = median(&times);
    Ok(point(
        x,
        &times,
        Some(forward),
        format!(
            "{its:.1} inverse iterations; inverse = {:.1} forward passes",
            inverse / forward
        ),
    ))
}

/// Time vs width (depth 3, four blocks of width w) and vs depth (blocks [32]×4).
pub fn width_and_depth(robot: &str, targets: &[Vec<f64>], seed: u64) -> Result<[Curve; 2], String> {
    let mut width = Vec::new();
    for w in [8, 16, 32, 64, 128] {
        width.push(size_point(
            w as f64,
            &untrained(robot, 3, &[w; 4], seed)?,
            targets,
        )?);
    }
    let mut depth = Vec::new();
    for d in [1, 2, 3, 4, 6, 8] {
        depth.push(size_point(
            d as f64,
            &untrained(robot, d, &[32; 4], seed)?,
            targets,
        )?);
    }
    Ok([
        Curve {
            title: "inverse time vs block width (depth 3, 4 blocks; untrained)".into(),
            x_name: "hidden block width".into(),
            y_name: "CPU µs per solve".into(),
            points: width,
        },
        Curve {
            title: "inverse time vs depth (blocks [32]×4; untrained)".into(),
            x_name: "monotone layers d".into(),
            y_name: "CPU µs per solve".into(),
            points: depth,
        },
    ])
}

/// Time per target vs batch size, with `learned` (a fresh state per batch).
pub fn batch(learned: &Loink, label: &str, targets: &[Vec<f64>]) -> Result<Curve, String> {
    let zero = vec![0.0; learned.latent_dim()];
    let mut points = Vec::new();
    for size in [1usize, 10, 100, 1000] {
        let mut per_target = Vec::new();
        let batches = (4000 / size).max(10);
        for b in 0..batches {
            let start = thread_cpu_micros();
            let mut state = learned.new_state();
            for k in 0..size {
                state.reset();
                let y = &targets[(b * size + k) % targets.len()];
                learned
                    .preimage(&mut state, y, &zero)
                    .map_err(|e| e.to_string())?;
            }
            per_target.push((thread_cpu_micros() - start) / size as f64);
        }
        points.push(point(
            size as f64,
            &per_target,
            None,
            format!("{batches} batches"),
        ));
    }
    Ok(Curve {
        title: format!("time per target vs batch size ({label})"),
        x_name: "targets per batch".into(),
        y_name: "CPU µs per target".into(),
        points,
    })
}

/// `loink train` wall time (this binary, as a child process) for each sample count at
/// `epochs` epochs, other settings at their defaults.
pub fn training(
    robot: &str,
    samples: &[usize],
    epochs: usize,
    dir: &Path,
) -> Result<Curve, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the loink binary: {e}"))?;
    let mut points = Vec::new();
    for &n in samples {
        let out = dir.join(format!("scaling-train-{n}.json"));
        let start = Instant::now();
        let status = std::process::Command::new(&exe)
            .arg("train")
            .arg(format!("--robot={robot}"))
            .arg(format!("--samples={n}"))
            .arg(format!("--epochs={epochs}"))
            .arg(format!("--out={}", out.display()))
            .stdout(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        let seconds = start.elapsed().as_secs_f64();
        let _ = std::fs::remove_file(&out);
        if !status.success() {
            return Err(format!("loink train --samples={n} failed ({status})"));
        }
        points.push(Point {
            x: n as f64,
            median: seconds,
            p95: seconds,
            forward: None,
            note: format!("{epochs} epochs, one run"),
        });
    }
    Ok(Curve {
        title: format!("training time vs data size ({epochs} epochs)"),
        x_name: "training samples".into(),
        y_name: "seconds".into(),
        points,
    })
}

/// The curves as Markdown tables (a forward-pass column where a curve has one).
pub fn markdown(curves: &[Curve]) -> String {
    let mut out = String::new();
    for c in curves {
        let forward = c.points.iter().any(|p| p.forward.is_some());
        if forward {
            out.push_str(&format!(
                "### {}

| {} | {} median | p95 | one forward pass G(x), µs | note |\n|---|---|---|---|---|\n",
                c.title, c.x_name, c.y_name
            ));
        } else {
            out.push_str(&format!(
                "### {}

| {} | {} median | p95 | note |\n|---|---|---|---|\n",
                c.title, c.x_name, c.y_name
            ));
        }
        for p in &c.points {
            match (forward, p.forward) {
                (true, Some(f)) => out.push_str(&format!(
                    "| {} | {:.2} | {:.2} | {:.2} | {} |\n",
                    p.x, p.median, p.p95, f, p.note
                )),
                (true, None) => out.push_str(&format!(
                    "| {} | {:.2} | {:.2} | — | {} |\n",
                    p.x, p.median, p.p95, p.note
                )),
                _ => out.push_str(&format!(
                    "| {} | {:.2} | {:.2} | {} |\n",
                    p.x, p.median, p.p95, p.note
                )),
            }
        }
        out.push('\n');
    }
    out
}

/// All curves in one SVG, one log–log panel each (median line, p95 dashed-as-dots).
pub fn plot(path: &Path, curves: &[Curve]) -> Result<(), String> {
    draw(path, curves).map_err(|e| format!("{}: {e}", path.display()))
}

fn draw(path: &Path, curves: &[Curve]) -> Result<(), Box<dyn std::error::Error>> {
    let cols = 2usize;
    let rows = curves.len().div_ceil(cols).max(1);
    let root = SVGBackend::new(path, (1100, 380 * rows as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((rows, cols));
    for (c, area) in curves.iter().zip(panels.iter()) {
        let xs = c.points.iter().map(|p| p.x);
        let ys = c
            .points
            .iter()
            .flat_map(|p| [p.median, p.p95, p.forward.unwrap_or(p.median)])
            .filter(|v| *v > 0.0);
        let (x_lo, x_hi) = xs.fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
        let (y_lo, y_hi) = ys.fold((f64::INFINITY, 0.0f64), |(a, b), y| (a.min(y), b.max(y)));
        if !(x_lo.is_finite() && y_lo.is_finite()) {
            continue;
        }
        let mut chart = ChartBuilder::on(area)
            .caption(&c.title, ("sans-serif", 15))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(
                (x_lo / 1.5..x_hi * 1.5).log_scale(),
                (y_lo / 2.0..y_hi * 2.0).log_scale(),
            )?;
        chart
            .configure_mesh()
            .x_desc(c.x_name.as_str())
            .y_desc(c.y_name.as_str())
            .x_label_formatter(&|v| format!("{v}"))
            .y_label_formatter(&|v| {
                if *v >= 10.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.2}")
                }
            })
            .draw()?;
        let blue = RGBColor(31, 119, 180);
        chart
            .draw_series(LineSeries::new(
                c.points.iter().map(|p| (p.x, p.median)),
                blue.stroke_width(2),
            ))?
            .label("inverse G⁻¹, median")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], blue.stroke_width(2)));
        chart.draw_series(
            c.points
                .iter()
                .map(|p| Circle::new((p.x, p.median), 4, blue.filled())),
        )?;
        let orange = RGBColor(230, 120, 20);
        let forward: Vec<(f64, f64)> = c
            .points
            .iter()
            .filter_map(|p| p.forward.map(|f| (p.x, f)))
            .collect();
        if !forward.is_empty() {
            chart
                .draw_series(LineSeries::new(
                    forward.iter().copied(),
                    orange.stroke_width(2),
                ))?
                .label("one forward pass G(x)")
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 16, y)], orange.stroke_width(2))
                });
            chart.draw_series(
                forward
                    .iter()
                    .map(|&(x, f)| TriangleMarker::new((x, f), 4, orange.filled())),
            )?;
        }
        let grey = RGBColor(150, 150, 150);
        chart
            .draw_series(
                c.points
                    .iter()
                    .map(|p| Circle::new((p.x, p.p95), 3, grey.stroke_width(1))),
            )?
            .label("p95")
            .legend(move |(x, y)| Circle::new((x + 8, y), 3, grey.stroke_width(1)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
    }
    root.present()?;
    Ok(())
}
