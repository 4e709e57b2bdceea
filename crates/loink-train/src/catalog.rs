//! `loink catalog` and `loink card`: the page's model catalog as data, made from the model files'
//! own cards.
//!
//! - `loink card --model F [--name N] [--description D] [--command C] [--recipe R]` rewrites a
//!   model file's card (`about`) in place, keeping every weight bit for bit (the file is
//!   validated before it is written, and written as the trainer writes files: compact JSON,
//!   current format version); any kind of model file, the regressors' included.
//! - `loink catalog --dir web/models --order A,B,… --out web/models/catalog.json [--check]`
//!   lists every model file in the directory (`loink-model` files; regressor files are the
//!   lessons' and not offered): name, problem, kind, one-line description, size in bytes, file,
//!   and `default: true` on the first of `--order`. Models are grouped by problem (the default's
//!   problem first, then in `--order`), each group in `--order` (unlisted files last, by name),
//!   so every problem's first model is its default. `--check` compares instead of writing and
//!   fails when the file is not what the models give (CI runs it).

use std::path::{Path, PathBuf};

use clap::Args;
use loink::artifact::{
    load_any, load_model, About, ChartsFile, LoadedModel, ModelKind, FORMAT_NAME,
};
use loink::flow::{Flow, FlowFile};
use loink_train::train::export::to_json;
use serde::Serialize;

use crate::cli::CliError;

/// The card of a listed file (either kind).
struct Card {
    about: loink::artifact::About,
}

/// Arguments of `loink card`.
#[derive(Debug, Clone, Args)]
pub struct CardArgs {
    /// The model file to rewrite.
    #[arg(long)]
    pub model: PathBuf,
    /// The catalog name (default: the file's stem).
    #[arg(long)]
    pub name: Option<String>,
    /// One line on what the model is.
    #[arg(long)]
    pub description: Option<String>,
    /// The command line that made the file.
    #[arg(long)]
    pub command: Option<String>,
    /// What of the paper a view of this model reproduces (the page's model card).
    #[arg(long)]
    pub reproduces: Option<String>,
    /// What of the paper it does not reproduce.
    #[arg(long)]
    pub does_not: Option<String>,
    /// What the page's list of experiments calls the view this model opens.
    #[arg(long)]
    pub experiment_title: Option<String>,
    /// What that experiment shows, in one line.
    #[arg(long)]
    pub experiment_line: Option<String>,
    /// The recipe that trains the model (`recipes/NAME.toml`): the card records its path as
    /// given and its SHA-256.
    #[arg(long, value_name = "FILE")]
    pub recipe: Option<PathBuf>,
    /// Where a view of the model opens: a target in its task's columns, comma-separated
    /// (`0.45,-0.20,0.35` for the Panda), or `preset` for its preset problem's default target.
    /// Checked against the model's problem (its columns, finite, a quaternion normalised).
    #[arg(long, value_name = "COLUMNS|preset", allow_hyphen_values = true)]
    pub opening_target: Option<String>,
    /// The solver a view of the model opens with when its link names none (`loink-refine`, …;
    /// `none` clears it).
    #[arg(long, value_name = "SOLVER")]
    pub opening_solver: Option<String>,
}

/// Arguments of `loink catalog`.
#[derive(Debug, Clone, Args)]
pub struct CatalogArgs {
    /// The directory of model files.
    #[arg(long, default_value = "web/models")]
    pub dir: PathBuf,
    /// Model names in menu order, comma-separated; the first is the page's default.
    #[arg(long, value_delimiter = ',', required = true)]
    pub order: Vec<String>,
    /// The catalog to write (or compare with --check).
    #[arg(long, default_value = "web/models/catalog.json")]
    pub out: PathBuf,
    /// Compare with the existing file instead of writing it; exit 1 when it differs.
    #[arg(long)]
    pub check: bool,
}

/// One catalog entry (the JSON the page embeds).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// Name in links and the file's stem.
    pub name: String,
    /// The problem's name (the menu's group).
    pub problem: String,
    /// What the problem is, in words (the group's label).
    pub problem_title: String,
    /// The model kind (`loink`, `charts`, or `flow`: the baseline solver of its problem, not
    /// a menu entry).
    pub kind: String,
    /// One line for the menu.
    pub description: String,
    /// What the list of experiments calls the view this model opens (from its card).
    pub experiment_title: String,
    /// What that experiment shows, in one line (from its card).
    pub experiment_line: String,
    /// The file, relative to the site root.
    pub file: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// The page's default model (exactly one).
    pub default: bool,
    /// It runs in the page's full bundle (pkg/lessons/): a multi-chart model, a flow, or a
    /// problem other than a planar arm.
    pub full_bundle: bool,
    /// Where a view of it opens, in its task's columns (from its card; empty: its problem's
    /// default target).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening_target: Vec<f64>,
    /// The solver a view of it opens with when its link names none (from its card; empty: the
    /// page's default).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub opening_solver: String,
}

/// Every model file of `dir` with a card (any kind, the regressors' included) names the recipe
/// that trains it, the recipe exists (its path is read from where the command runs: the
/// repository's root), and it is the recipe the model was trained by (its SHA-256).
pub fn check_recipes(dir: &Path) -> Result<(), CliError> {
    #[derive(serde::Deserialize)]
    struct Carded {
        #[serde(default)]
        about: Option<About>,
    }
    let listing = std::fs::read_dir(dir)
        .map_err(|e| CliError::Input(format!("cannot list {}: {e}", dir.display())))?;
    let mut paths: Vec<PathBuf> = listing
        .flatten()
        .map(|item| item.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && stem(p) != "catalog")
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        let Ok(Carded { about: Some(about) }) = serde_json::from_str::<Carded>(&text) else {
            continue;
        };
        let fail = |why: String| CliError::Input(format!("{}: {why}", path.display()));
        if about.recipe.is_empty() {
            return Err(fail(
                "its card names no recipe (`loink card --recipe recipes/NAME.toml`)".into(),
            ));
        }
        let (_, sha) = crate::recipe::identity(Path::new(&about.recipe)).map_err(|e| match e {
            CliError::Input(m) | CliError::Internal(m) => fail(format!("its recipe: {m}")),
        })?;
        if sha != about.recipe_sha256 {
            return Err(fail(format!(
                "its recipe {} changed since it was trained (retrain it, or record the recipe with `loink card --recipe`)",
                about.recipe
            )));
        }
    }
    Ok(())
}

/// Runs `loink card` on a model file of any kind (`loink`, `charts`, `flow`).
pub fn card(args: &CardArgs) -> Result<(), CliError> {
    let name = args.model.display();
    let text = std::fs::read_to_string(&args.model)
        .map_err(|e| CliError::Input(format!("cannot read model file {name}: {e}")))?;
    let bad = |e: &dyn std::fmt::Display| CliError::Input(format!("{name}: {e}"));
    let rewritten =
        |e: &dyn std::fmt::Display| CliError::Internal(format!("{name}: rewritten file: {e}"));
    let recipe = match &args.recipe {
        Some(path) => Some(crate::recipe::identity(path)?),
        None => None,
    };
    let rewrite = |about: &mut About, problem: &loink::problem::Problem| -> Result<(), CliError> {
        rewrite(about, args);
        if let Some((path, sha)) = &recipe {
            about.recipe = path.clone();
            about.recipe_sha256 = sha.clone();
        }
        if let Some(asked) = &args.opening_target {
            about.opening_target = opening_target(asked, problem).map_err(|e| bad(&e))?;
        }
        if let Some(asked) = &args.opening_solver {
            about.opening_solver = opening_solver(asked).map_err(|e| bad(&e))?;
        }
        Ok(())
    };
    let kind = loink::artifact::model_kind_of(&text).map_err(|e| bad(&e))?;
    let (json, about) = if matches!(kind, ModelKind::Mse | ModelKind::Mdn) {
        let regressor = loink::regressor::Regressor::from_json(&text).map_err(|e| bad(&e))?;
        let mut file: loink::regressor::RegressorFile =
            serde_json::from_str(&text).map_err(|e| bad(&e))?;
        rewrite(&mut file.about, regressor.problem())?;
        let json = serde_json::to_string(&file).map_err(|e| rewritten(&e))?;
        loink::regressor::Regressor::from_json(&json).map_err(|e| rewritten(&e))?;
        (json, file.about)
    } else if kind == ModelKind::Flow {
        let flow = Flow::from_json(&text).map_err(|e| bad(&e))?;
        let mut file: FlowFile = serde_json::from_str(&text).map_err(|e| bad(&e))?;
        rewrite(&mut file.about, flow.problem())?;
        let json = serde_json::to_string(&file).map_err(|e| rewritten(&e))?;
        Flow::from_json(&json).map_err(|e| rewritten(&e))?;
        (json, file.about)
    } else {
        match load_any(&text).map_err(|e| bad(&e))? {
            LoadedModel::Loink(model) => {
                let problem = model.problem().clone();
                let mut file = model.into_file();
                file.version = loink::artifact::FORMAT_VERSION;
                rewrite(&mut file.about, &problem)?;
                let json = to_json(&file);
                load_model(&json).map_err(|e| rewritten(&e))?;
                (json, file.about)
            }
            LoadedModel::Charts(charts) => {
                let mut file: ChartsFile = serde_json::from_str(&text).map_err(|e| bad(&e))?;
                rewrite(&mut file.about, charts.problem())?;
                let json = serde_json::to_string(&file).map_err(|e| rewritten(&e))?;
                load_any(&json).map_err(|e| rewritten(&e))?;
                (json, file.about)
            }
        }
    };
    std::fs::write(&args.model, &json)
        .map_err(|e| CliError::Input(format!("cannot write {name}: {e}")))?;
    println!("loink card: {name}: {} — {}", about.name, about.description);
    Ok(())
}

/// The opening solver `asked` names: a solver's word that a view offers without a model of
/// another kind (`none`: the page's default).
fn opening_solver(asked: &str) -> Result<String, String> {
    use loink::solvers::registry::SolverKind;
    if asked == "none" {
        return Ok(String::new());
    }
    match SolverKind::parse(asked) {
        Some(kind) if kind != SolverKind::Flow => Ok(kind.as_str().to_string()),
        _ => Err(format!(
            "--opening-solver '{asked}': not a solver a view opens with (known: {}, none)",
            SolverKind::ALL
                .iter()
                .filter(|k| **k != SolverKind::Flow)
                .map(|k| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The opening target `asked` names for `problem`, in its task's columns: `preset` (the
/// preset problem's default target) or the columns, comma-separated.
fn opening_target(asked: &str, problem: &loink::problem::Problem) -> Result<Vec<f64>, String> {
    let task = problem.task();
    let target = if asked.trim() == "preset" {
        loink::problem::Problem::preset(problem.name())
            .map_err(|e| format!("--opening-target preset: {e}"))?
            .default_target()
    } else {
        let columns: Vec<f64> = asked
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--opening-target '{asked}': not numbers separated by commas"))?;
        task.from_columns(&columns)
            .map_err(|e| format!("--opening-target: {e}"))?
    };
    problem
        .check_target(&target)
        .map_err(|e| format!("--opening-target: {e}"))?;
    Ok(task.to_columns(&target))
}

/// The card as `args` rewrite it (fields not given are kept; the name defaults to the stem).
fn rewrite(about: &mut About, args: &CardArgs) {
    about.name = match &args.name {
        Some(n) => n.clone(),
        None => stem(&args.model),
    };
    for (field, given) in [
        (&mut about.description, &args.description),
        (&mut about.command, &args.command),
        (&mut about.reproduces, &args.reproduces),
        (&mut about.does_not, &args.does_not),
        (&mut about.experiment_title, &args.experiment_title),
        (&mut about.experiment_line, &args.experiment_line),
    ] {
        if let Some(text) = given {
            *field = text.clone();
        }
    }
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// Whether the page can draw `problem`: a kind with a view (in its task plane, or in space);
/// model files of any other problem stay out of the page's menu.
pub fn page_draws(problem: &loink::problem::Problem) -> bool {
    problem.capabilities().view.is_some()
}

/// The catalog entry of a regressor file (a lesson's direct-regression baseline): its card's
/// name and description, its problem; the lessons' bundle runs it.
fn regressor_entry(path: &Path, text: &str) -> Result<Entry, CliError> {
    let bad = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", path.display()));
    let regressor = loink::regressor::Regressor::from_json(text).map_err(|e| bad(&e))?;
    let file: loink::regressor::RegressorFile = serde_json::from_str(text).map_err(|e| bad(&e))?;
    let name = stem(path);
    for (what, text, flag) in [
        ("description", &file.about.description, "--description"),
        (
            "scope (what it reproduces)",
            &file.about.reproduces,
            "--reproduces",
        ),
        (
            "scope (what it does not)",
            &file.about.does_not,
            "--does-not",
        ),
    ] {
        if text.trim().is_empty() {
            return Err(bad(&format!(
                "the card has no {what} (`loink card {flag}`)"
            )));
        }
    }
    let problem = regressor.problem();
    Ok(Entry {
        problem: problem.name().to_string(),
        problem_title: problem.profile().title.clone(),
        kind: regressor.kind().as_str().to_string(),
        full_bundle: true,
        description: file.about.description.clone(),
        experiment_title: String::new(),
        experiment_line: String::new(),
        file: format!("web/models/{name}.json"),
        bytes: text.len() as u64,
        default: false,
        opening_target: file.about.opening_target.clone(),
        opening_solver: file.about.opening_solver.clone(),
        name,
    })
}

/// The catalog of `dir` in `order` (see the module docs).
pub fn entries(dir: &Path, order: &[String]) -> Result<Vec<Entry>, CliError> {
    let listing = std::fs::read_dir(dir)
        .map_err(|e| CliError::Input(format!("cannot list {}: {e}", dir.display())))?;
    let mut found = Vec::new();
    for item in listing.flatten() {
        let path = item.path();
        if path.extension().is_none_or(|e| e != "json") || stem(&path) == "catalog" {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        let Ok(header) = serde_json::from_str::<loink::artifact::FileHeader>(&text) else {
            continue;
        };
        if header.format == loink::regressor::REGRESSOR_FORMAT {
            // A lesson's baseline: listed (the lessons read the one catalog), never a menu entry.
            found.push(regressor_entry(&path, &text)?);
            continue;
        }
        if header.format != FORMAT_NAME {
            continue; // another format: not a model of the page
        }
        let loaded = if ModelKind::from_word(header.kind.as_deref()).ok() == Some(ModelKind::Flow) {
            // A baseline flow: listed so the page can fetch it as its problem's flow solver.
            let flow = loink::flow::Flow::from_json(&text)
                .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
            Err((
                flow.meta().about.clone(),
                flow.meta().kind.clone(),
                flow.meta().problem.name.clone(),
                flow.problem().clone(),
            ))
        } else {
            Ok(load_any(&text).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?)
        };
        let (about, kind, problem_name, problem) = match loaded {
            Err(flow) => flow,
            Ok(loaded) => match loaded {
                LoadedModel::Loink(model) => {
                    let file = model.file();
                    (
                        file.about.clone(),
                        file.kind.clone(),
                        file.problem.name.clone(),
                        model.problem().clone(),
                    )
                }
                LoadedModel::Charts(charts) => (
                    charts.meta().about.clone(),
                    charts.meta().kind.clone(),
                    charts.meta().problem.name.clone(),
                    charts.problem().clone(),
                ),
            },
        };
        if !page_draws(&problem) {
            continue;
        }
        let file = Card { about };
        let name = stem(&path);
        if !file.about.name.is_empty() && file.about.name != name {
            return Err(CliError::Input(format!(
                "{}: its card names it '{}', its file '{name}'",
                path.display(),
                file.about.name
            )));
        }
        for (what, text, flag) in [
            ("description", &file.about.description, "--description"),
            (
                "'reproduces' text (what of the paper its view reproduces)",
                &file.about.reproduces,
                "--reproduces",
            ),
            (
                "'does not' text (what of the paper its view does not reproduce)",
                &file.about.does_not,
                "--does-not",
            ),
            (
                "experiment title (what the list of experiments calls its view)",
                &file.about.experiment_title,
                "--experiment-title",
            ),
            (
                "experiment line (what its view shows)",
                &file.about.experiment_line,
                "--experiment-line",
            ),
        ] {
            if text.trim().is_empty() {
                return Err(CliError::Input(format!(
                    "{}: the card has no {what} (`loink card {flag}`)",
                    path.display()
                )));
            }
        }
        let full_bundle = kind != ModelKind::Loink.word() || problem.spec().kind != "planar";
        found.push(Entry {
            problem: problem_name,
            problem_title: problem.profile().title.clone(),
            kind,
            full_bundle,
            description: file.about.description.clone(),
            experiment_title: file.about.experiment_title.clone(),
            experiment_line: file.about.experiment_line.clone(),
            file: format!("web/models/{name}.json"),
            bytes: text.len() as u64,
            default: false,
            opening_target: file.about.opening_target.clone(),
            opening_solver: file.about.opening_solver.clone(),
            name,
        });
    }
    let rank = |name: &str| order.iter().position(|o| o == name).unwrap_or(usize::MAX);
    if let Some(missing) = order.iter().find(|o| !found.iter().any(|e| &e.name == *o)) {
        return Err(CliError::Input(format!(
            "--order names '{missing}', which is not in {}",
            dir.display()
        )));
    }
    found.sort_by(|a, b| rank(&a.name).cmp(&rank(&b.name)).then(a.name.cmp(&b.name)));
    // Problems in the order their first model appears; models keep their order within.
    let mut problems: Vec<String> = Vec::new();
    for e in &found {
        if !problems.contains(&e.problem) {
            problems.push(e.problem.clone());
        }
    }
    let mut out: Vec<Entry> = problems
        .iter()
        .flat_map(|p| found.iter().filter(move |e| &e.problem == p).cloned())
        .collect();
    if let Some(first) = out.iter_mut().find(|e| Some(&e.name) == order.first()) {
        first.default = true;
    }
    Ok(out)
}

/// The file's top level.
#[derive(Serialize)]
struct Catalog<'a> {
    models: &'a [Entry],
}

/// The catalog's text: pretty JSON with a trailing newline.
pub fn text(entries: &[Entry]) -> String {
    let mut s = serde_json::to_string_pretty(&Catalog { models: entries }).unwrap_or_default();
    s.push('\n');
    s
}

/// Runs `loink catalog`.
pub fn catalog(args: &CatalogArgs) -> Result<(), CliError> {
    check_recipes(&args.dir)?;
    let list = entries(&args.dir, &args.order)?;
    let json = text(&list);
    if args.check {
        let have = std::fs::read_to_string(&args.out).unwrap_or_default();
        if have != json {
            return Err(CliError::Internal(format!(
                "{} is not what the model files give: run scripts/catalog.sh and commit it",
                args.out.display()
            )));
        }
        println!(
            "loink catalog: {} is current ({} models)",
            args.out.display(),
            list.len()
        );
        return Ok(());
    }
    std::fs::write(&args.out, &json)
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", args.out.display())))?;
    println!(
        "loink catalog: wrote {} ({} models)",
        args.out.display(),
        list.len()
    );
    Ok(())
}
