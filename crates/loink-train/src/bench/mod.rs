//! `loink bench`: LOInK against IPOPT and the classical solvers, on one targets file, in one run.
//!
//! Two target sets: the targets file (planar3.md's random reachable targets) and a smooth
//! Lissajous path of as many points (for the warm-start methods). Target by target, every
//! method solves the same target before the next one is taken (in an order shuffled per target,
//! seeded), so a change in machine load hits all methods alike. Interleaving leaves each method
//! with caches the others have used; so every Rust method then also runs alone over each set
//! (rows labelled `… alone`), as a caller that solves with one method would see it. IPOPT runs
//! as a child process
//! (`bench/ipopt_planar3.py --serve`) that answers one target at a time. Every answer is judged
//! by forward-kinematics replay ([`loink::report::Solution::assess`]) against the global
//! optimum J* from the reference solver.
//!
//! Output: one table on stdout, and in `--out-dir`: `<robot>.md` (the table and headline),
//! `<robot>-rows.csv` (every row), `<robot>-time-vs-optimality.svg`.

mod headline;
mod ipopt;
mod learned;
mod machine;
mod methods;
mod plot;
mod record;
mod scaling;
mod stats;
mod table;
mod targets;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use clap::Args;

use crate::cli::CliError;
use indicatif::{ProgressBar, ProgressStyle};
use loink::problem::Problem;
use loink::report::Status;

use methods::Method;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use record::{Row, TargetSet};

/// Arguments of `loink bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Problem preset: a planar arm (planar3, planar3-wide, planar4, planar2), a serial chain
    /// (panda, tiago) or the climber.
    #[arg(long, visible_alias = "robot", default_value = "planar3")]
    pub problem: String,
    /// Trained model file (LOInK rows are skipped without it).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// A second model whose cold rows run beside --model's (e.g. the one-chart model next to
    /// a charts model, each labelled by its kind).
    #[arg(long, requires = "model")]
    pub compare_model: Option<PathBuf>,
    /// Instead of --model: an UNTRAINED random network `DEPTH:W1,W2,…` (speed only; its rows are
    /// labelled UNTRAINED).
    #[arg(long, conflicts_with = "model", value_name = "DEPTH:WIDTHS")]
    pub untrained: Option<String>,
    /// Targets CSV with the task's columns (`x,y`, `x,y,z`: as `loink targets` writes).
    #[arg(long)]
    pub targets: PathBuf,
    /// At most 200 targets per set (finishes in under 2 minutes).
    #[arg(long)]
    pub quick: bool,
    /// Use only the first N targets of the file (and N path points).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Python of the IPOPT environment (bench/setup-venv.sh creates it).
    #[arg(long, default_value = "bench/.venv/bin/python")]
    pub ipopt_python: PathBuf,
    /// The IPOPT script (default: the one for the problem's kind, bench/ipopt_planar3.py,
    /// bench/ipopt_chain.py or bench/ipopt_climber.py).
    #[arg(long)]
    pub ipopt_script: Option<PathBuf>,
    /// Random starts per target for IPOPT best-of-K (every K up to this is reported in the CSV).
    #[arg(long, default_value_t = 8)]
    pub ipopt_starts: usize,
    /// Seed of IPOPT's random starts.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Polish steps of the refined LOInK rows.
    #[arg(long, default_value_t = 3)]
    pub refine_steps: usize,
    /// Task-feedback rounds of the LOInK feedback rows (0: no such rows).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub feedback: u32,
    /// Skip the pass that runs each Rust method alone.
    #[arg(long)]
    pub no_alone: bool,
    /// Instead of the table: the scaling figures (time vs width/depth on untrained networks,
    /// time per target vs batch size), written as `scaling-<robot>.md` / `.svg`.
    #[arg(long)]
    pub scaling: bool,
    /// With --scaling: also time `loink train` for these sample counts (e.g. 2000,8000,32000).
    #[arg(long, value_delimiter = ',', requires = "scaling")]
    pub scaling_train: Vec<usize>,
    /// Epochs of each --scaling-train run.
    #[arg(long, default_value_t = 2)]
    pub scaling_epochs: usize,
    /// Where the Markdown table, the CSV of all rows and the plots go.
    #[arg(long, default_value = "bench/results")]
    pub out_dir: PathBuf,
}

/// Number of targets per set in `--quick` mode.
const QUICK_TARGETS: usize = 200;

/// Runs the benchmark: bad input (problem, flags, targets file, model file) exits 2 before any
/// work, a failure during the run 1.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let problem =
        Rc::new(Problem::preset(&args.problem).map_err(|e| CliError::Input(e.to_string()))?);
    if !(1..=64).contains(&args.ipopt_starts) {
        return Err(CliError::Input("--ipopt-starts must be in 1..=64".into()));
    }
    let random = targets::read_targets(&args.targets, problem.task())?;
    let learned = match (&args.model, &args.untrained) {
        (Some(path), _) => Some(learned::Learned::load(path, &problem).map_err(CliError::Input)?),
        (None, Some(shape)) => {
            let (depth, hidden) = parse_shape(shape).map_err(CliError::Input)?;
            Some(
                learned::Learned::untrained(&problem, &args.problem, depth, &hidden, args.seed)
                    .map_err(CliError::Input)?,
            )
        }
        (None, None) => None,
    };
    let compare = args
        .compare_model
        .as_deref()
        .map(|path| learned::Learned::load(path, &problem))
        .transpose()
        .map_err(CliError::Input)?;
    run_checked(args, problem, random, learned, compare).map_err(CliError::Internal)
}

/// [`run`] after its input checks: the methods on both target sets (each with the others, then
/// the fastest alone), then the tables, the rows and the figures.
fn run_checked(
    args: &BenchArgs,
    problem: Rc<Problem>,
    mut random: Vec<Vec<f64>>,
    learned: Option<learned::Learned>,
    compare: Option<learned::Learned>,
) -> Result<(), String> {
    let cap = args.limit.unwrap_or(usize::MAX).min(if args.quick {
        QUICK_TARGETS
    } else {
        usize::MAX
    });
    random.truncate(cap);
    if args.scaling {
        return run_scaling(args, &problem, &random);
    }
    let path = targets::lissajous_path(&problem, random.len());
    let load_before = machine::load_average();
    let model_label = learned.as_ref().map(|l| match &compare {
        Some(c) => format!("{}; beside it {}", l.describe(), c.describe()),
        None => l.describe(),
    });
    let mut methods = MethodSets::new(args, &problem, learned.as_ref(), compare.as_ref())?;
    let mut rows = methods.run(args, &random, &path)?;
    fill_j_star(&mut rows);
    let load_after = machine::load_average();
    let context = headline::Context {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        machine: machine::describe(),
        load: format!("{load_before} before, {load_after} after"),
        targets: format!(
            "{} ({} targets) and a {}-point Lissajous path",
            args.targets.display(),
            random.len(),
            path.len()
        ),
        model: model_label
            .clone()
            .unwrap_or_else(|| "none (no LOInK rows)".into()),
    };
    report(args, &problem, &rows, &context, model_label.as_deref())
}

/// The methods of a run: with the others on the random targets and on the path, and the fast
/// ones again alone on each (their times without the others' interleaving).
struct MethodSets {
    random: Vec<Method>,
    path: Vec<Method>,
    alone_random: Vec<Method>,
    alone_path: Vec<Method>,
}

impl MethodSets {
    /// The reference, IPOPT (one call from the mid-range, best of the starts, warm on the path)
    /// and DLS, and LOInK's rows of the model (and of the compared one) when given.
    fn new(
        args: &BenchArgs,
        problem: &Rc<Problem>,
        learned: Option<&learned::Learned>,
        compare: Option<&learned::Learned>,
    ) -> Result<Self, String> {
        let script = match &args.ipopt_script {
            Some(script) => script.clone(),
            None => ipopt::script_for(problem)?,
        };
        let server = Rc::new(RefCell::new(ipopt::IpoptServer::spawn(
            &args.ipopt_python,
            &script,
            &args.problem,
            args.seed,
            problem.task().clone(),
        )?));
        let mut random = vec![
            methods::reference(problem.clone())?,
            methods::ipopt_mid(problem.clone(), server.clone()),
            methods::ipopt_best_of(problem.clone(), server.clone(), args.ipopt_starts),
            methods::dls_mid(problem.clone())?,
        ];
        let mut path = vec![
            methods::reference(problem.clone())?,
            methods::ipopt_mid(problem.clone(), server.clone()),
            methods::ipopt_warm(problem.clone(), server.clone()),
            methods::dls_warm(problem.clone())?,
        ];
        // Stateless: the same method on the random targets and along the path.
        random.extend(methods::closed_form_search(problem));
        path.extend(methods::closed_form_search(problem));
        let (feedback, refine) = (args.feedback as usize, args.refine_steps);
        if let Some(learned) = learned {
            random.extend(learned.cold_methods(feedback, refine)?);
            path.extend(learned.cold_methods(feedback, refine)?);
            path.extend(learned.warm_methods(feedback, refine)?);
        }
        if let Some(compare) = compare {
            random.extend(compare.cold_methods(feedback, refine)?);
        }
        let mut alone_random = Vec::new();
        let mut alone_path = Vec::new();
        if !args.no_alone {
            alone_random.push(methods::dls_mid(problem.clone())?);
            alone_path.push(methods::dls_warm(problem.clone())?);
            if let Some(learned) = learned {
                alone_random.extend(learned.cold_methods(feedback, refine)?);
                alone_path.extend(learned.warm_methods(feedback, refine)?);
            }
            if let Some(compare) = compare {
                alone_random.extend(compare.cold_methods(feedback, refine)?);
            }
        }
        Ok(MethodSets {
            random,
            path,
            alone_random,
            alone_path,
        })
    }

    /// Every method on its targets, in a seeded order, with a progress bar; the rows.
    fn run(
        &mut self,
        args: &BenchArgs,
        random: &[Vec<f64>],
        path: &[Vec<f64>],
    ) -> Result<Vec<Row>, String> {
        let mut rows = Vec::new();
        let total = (random.len() * (1 + self.alone_random.len())
            + path.len() * (1 + self.alone_path.len())) as u64;
        let mut order_rng = ChaCha8Rng::seed_from_u64(args.seed);
        let bar = ProgressBar::new(total).with_style(
            ProgressStyle::with_template("{msg:>8} [{bar:40}] {pos}/{len} {elapsed}/{eta}")
                .map_err(|e| e.to_string())?
                .progress_chars("=> "),
        );
        for (set, set_targets, set_methods) in [
            (TargetSet::Random, random, &mut self.random),
            (TargetSet::Path, path, &mut self.path),
        ] {
            bar.set_message(set.as_str());
            rows.extend(run_set(
                set,
                set_targets,
                set_methods,
                &mut order_rng,
                &bar,
            )?);
        }
        bar.set_message("alone");
        for (set, set_targets, set_methods) in [
            (TargetSet::Random, random, &mut self.alone_random),
            (TargetSet::Path, path, &mut self.alone_path),
        ] {
            for method in set_methods.iter_mut() {
                let alone = run_set(
                    set,
                    set_targets,
                    std::slice::from_mut(method),
                    &mut order_rng,
                    &bar,
                )?;
                rows.extend(alone.into_iter().map(|mut row| {
                    row.method = format!("{} {ALONE}", row.method);
                    row
                }));
            }
        }
        bar.finish_and_clear();
        Ok(rows)
    }
}

/// Prints the tables and headlines by CPU and wall time, and writes the rows (CSV), the
/// time-against-optimality figures (SVG) and the report (Markdown) into `--out-dir`.
fn report(
    args: &BenchArgs,
    problem: &Problem,
    rows: &[Row],
    context: &headline::Context,
    model_label: Option<&str>,
) -> Result<(), String> {
    let shown: Vec<Row> = rows
        .iter()
        .filter(|r| headline::shown_in_table(&r.method, args.ipopt_starts))
        .cloned()
        .collect();
    let clocks = [record::Clock::Cpu, record::Clock::Wall];
    let tables: Vec<(record::Clock, Vec<stats::Summary>)> = clocks
        .iter()
        .map(|&c| (c, stats::summarise(&shown, methods::IPOPT_MID, c)))
        .collect();
    let heads: Vec<headline::Headline> = clocks
        .iter()
        .map(|&c| headline::compute(rows, args.ipopt_starts, c))
        .collect();
    for ((clock, summaries), head) in tables.iter().zip(&heads) {
        println!("times by {}:\n{}", clock.as_str(), table::text(summaries));
        println!("{}\n", head.text());
    }

    std::fs::create_dir_all(&args.out_dir)
        .map_err(|e| format!("{}: {e}", args.out_dir.display()))?;
    let csv_path = args.out_dir.join(format!("{}-rows.csv", args.problem));
    record::write_rows(
        &csv_path,
        rows,
        problem.dof(),
        &crate::targets_csv::columns_of(problem),
    )
    .map_err(|e| format!("{}: {e}", csv_path.display()))?;
    let mut svgs = Vec::new();
    for (clock, summaries) in &tables {
        let suffix = match clock {
            record::Clock::Cpu => "",
            record::Clock::Wall => "-wall",
        };
        let svg_path = args
            .out_dir
            .join(format!("{}-time-vs-optimality{suffix}.svg", args.problem));
        let title = format!("{} ({})", args.problem, clock.as_str());
        plot::time_vs_optimality(&svg_path, summaries, &title, model_label)?;
        svgs.push(svg_path.display().to_string());
    }
    let md_path = args.out_dir.join(format!("{}.md", args.problem));
    std::fs::write(&md_path, headline::markdown(context, &tables, &heads))
        .map_err(|e| format!("{}: {e}", md_path.display()))?;
    eprintln!(
        "wrote {}, {}, {}",
        md_path.display(),
        csv_path.display(),
        svgs.join(", ")
    );
    Ok(())
}

fn run_scaling(args: &BenchArgs, problem: &Problem, targets: &[Vec<f64>]) -> Result<(), String> {
    let machine = machine::describe();
    let [width, depth] = scaling::width_and_depth(&args.problem, targets, args.seed)?;
    let learned = match &args.model {
        Some(path) => learned::Learned::load(path, problem)?,
        None => learned::Learned::untrained(problem, &args.problem, 3, &[32; 4], args.seed)?,
    };
    let batch_label = if args.model.is_some() {
        "the --model network"
    } else {
        "untrained, depth 3, [32]×4"
    };
    let batch = scaling::batch(learned.first_chart(), batch_label, targets)?;
    let mut curves = vec![width, depth, batch];
    std::fs::create_dir_all(&args.out_dir)
        .map_err(|e| format!("{}: {e}", args.out_dir.display()))?;
    if !args.scaling_train.is_empty() {
        curves.push(scaling::training(
            &args.problem,
            &args.scaling_train,
            args.scaling_epochs,
            &args.out_dir,
        )?);
    }
    let svg = args.out_dir.join(format!("scaling-{}.svg", args.problem));
    scaling::plot(&svg, &curves)?;
    let page = format!(
        "# `loink bench --scaling` results\n\n- command: `{}`\n- machine: {machine}\n- targets: {} ({} used)\n\n{}",
        std::env::args().collect::<Vec<_>>().join(" "),
        args.targets.display(),
        targets.len(),
        scaling::markdown(&curves)
    );
    println!("{page}");
    let md = args.out_dir.join(format!("scaling-{}.md", args.problem));
    std::fs::write(&md, page).map_err(|e| format!("{}: {e}", md.display()))?;
    eprintln!("wrote {}, {}", md.display(), svg.display());
    Ok(())
}

/// Parses `DEPTH:W1,W2,…` (e.g. `3:32,32,32,32`).
pub fn parse_shape(text: &str) -> Result<(usize, Vec<usize>), String> {
    let bad = || format!("'{text}' is not DEPTH:W1,W2,… (e.g. 3:32,32,32,32)");
    let (depth, widths) = text.split_once(':').ok_or_else(bad)?;
    let depth: usize = depth.trim().parse().map_err(|_| bad())?;
    let hidden = widths
        .split(',')
        .map(|w| w.trim().parse::<usize>().map_err(|_| bad()))
        .collect::<Result<Vec<_>, _>>()?;
    if !(1..=16).contains(&depth)
        || hidden.is_empty()
        || hidden.iter().any(|w| !(1..=1024).contains(w))
    {
        return Err(bad());
    }
    Ok((depth, hidden))
}

/// Suffix of the rows of a method run alone.
pub const ALONE: &str = "alone";

/// Every method on every target of `set`, target by target, the methods in an order `rng`
/// shuffles per target.
fn run_set(
    set: TargetSet,
    targets: &[Vec<f64>],
    methods: &mut [Method],
    rng: &mut ChaCha8Rng,
    bar: &ProgressBar,
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let mut order: Vec<usize> = (0..methods.len()).collect();
    for (index, y) in targets.iter().enumerate() {
        order.shuffle(rng);
        for &k in &order {
            let method = &mut methods[k];
            let answers = (method.run)(index, y)
                .map_err(|e| format!("{} on {set:?} target {index}: {e}", method.name))?;
            rows.extend(
                answers
                    .into_iter()
                    .map(|(label, solution, cpu_micros)| Row {
                        set,
                        method: label,
                        index,
                        solution,
                        j_star: f64::NAN,
                        cpu_micros,
                    }),
            );
        }
        bar.inc(1);
    }
    Ok(rows)
}

/// Copies each target's reference cost J* into its rows (NaN when the reference found no
/// feasible point, which then counts against nobody's within-1% share but shows in the CSV).
fn fill_j_star(rows: &mut [Row]) {
    let j_star: std::collections::HashMap<(TargetSet, usize), f64> = rows
        .iter()
        .filter(|r| r.method == "reference J*")
        .map(|r| {
            let ok = r.solution.status() == Status::Converged;
            (
                (r.set, r.index),
                if ok { r.solution.cost() } else { f64::NAN },
            )
        })
        .collect();
    for row in rows.iter_mut() {
        row.j_star = j_star
            .get(&(row.set, row.index))
            .copied()
            .unwrap_or(f64::NAN);
    }
}
