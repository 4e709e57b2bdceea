//! The model card: for a paper's reader, the chosen model's μ, ν, architecture, size, the
//! command that trained it and the figures it measured at the end of training (all from the
//! model file itself), what of the paper the view reproduces and what it does not (the file's
//! card, written when it was trained), and the `loink` command that gives the numbers of the
//! current view.

use serde::Serialize;

use crate::engine::Engine;
use crate::settings::SolverKind;

/// The card as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelCard {
    /// The model's name and one-line description.
    pub title: String,
    /// Label and value, in reading order.
    pub rows: Vec<(String, String)>,
    /// What of the paper this view reproduces.
    pub reproduces: String,
    /// What it does not.
    pub not_reproduced: String,
    /// The shell command that gives this view's numbers.
    pub command: String,
}

/// A training metric as the card prints it (None when the file does not carry it).
fn metric(engine: &Engine, key: &str) -> Option<f64> {
    let model = engine.model()?;
    model.metrics().get(key).copied()
}

fn length(metres: f64) -> String {
    if metres < 1e-4 {
        format!("{:.3} µm", metres * 1e6)
    } else {
        format!("{:.3} mm", metres * 1e3)
    }
}

/// The `loink` command that gives the current view's numbers.
fn command(engine: &Engine) -> String {
    let s = engine.settings();
    let target: Vec<String> = s.target.iter().map(|v| v.to_string()).collect();
    let header = if target.len() == 2 {
        "x,y".to_string()
    } else {
        (1..=target.len())
            .map(|i| format!("y{i}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let file = engine.entry().file;
    let solver = match s.solver {
        SolverKind::Loink => format!("--model {file} --feedback {}", s.feedback),
        SolverKind::LoinkRefine => format!(
            "--model {file} --feedback {} --refine {}",
            s.feedback, s.refine
        ),
        other => format!(
            "--robot {} --solver {}",
            engine.problem().name(),
            other.as_str()
        ),
    };
    format!(
        "printf '{header}\\n{}\\n' > T.csv && loink eval {solver} --targets T.csv --out R.csv",
        target.join(",")
    )
}

/// The card of the view's model (None while no learned model is loaded for it).
pub fn card(engine: &Engine) -> Option<ModelCard> {
    let model = engine.model()?;
    let file = model.loink().model().file();
    let hyper = &file.hyper;
    let entry = engine.entry();
    let mut rows = vec![
        ("μ (lower Lipschitz bound of G)".to_string(), hyper.mu.to_string()),
        ("ν (upper Lipschitz bound of G)".to_string(), hyper.nu.to_string()),
        (
            "architecture".to_string(),
            format!(
                "{}depth {} (monotone layers), hidden blocks {:?} per layer, heads {:?}; task {} + latent {}",
                match model.chart_count() {
                    1 => String::new(),
                    k => format!("{k} charts, each "),
                },
                hyper.depth, hyper.hidden, hyper.head_hidden, hyper.task_dim, hyper.latent_dim
            ),
        ),
        (
            "file".to_string(),
            format!("{} ({:.1} kB)", entry.file, entry.bytes as f64 / 1000.0),
        ),
        ("trained by".to_string(), model.command().to_string()),
    ];
    if let Some(epochs) = metric(engine, "epochs") {
        rows.push(("epochs".to_string(), format!("{epochs:.0}")));
    }
    if let (Some(median), Some(p95)) = (
        metric(engine, "ee_error_median_m"),
        metric(engine, "ee_error_p95_m"),
    ) {
        rows.push((
            "one-shot residual at the end of training".to_string(),
            format!("{} median, {} p95", length(median), length(p95)),
        ));
    }
    if let (Some(within), Some(steps), Some(count)) = (
        metric(engine, "within_1pct"),
        metric(engine, "check_refine_steps"),
        metric(engine, "check_targets"),
    ) {
        rows.push((
            "within 1 % of the optimum at the end of training".to_string(),
            format!(
                "{:.1} % of {count:.0} held-out targets after {steps:.0} refinement steps",
                100.0 * within
            ),
        ));
    }
    if let Some(kind) = crate::settings::SolverKind::parse(entry.opening_solver) {
        rows.push(("the view opens with".to_string(), kind.label().to_string()));
    }
    if model.is_untrained() {
        rows.push((
            "trained".to_string(),
            "no: an untrained stand-in (speed only)".to_string(),
        ));
    }
    // What the view reproduces is the model file's own word, written when it was trained.
    let about = model.about();
    Some(ModelCard {
        title: format!("{} — {}", entry.name, entry.description),
        rows,
        reproduces: about.reproduces.clone(),
        not_reproduced: about.does_not.clone(),
        command: command(engine),
    })
}
