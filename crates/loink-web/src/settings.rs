//! Every control of the page as one typed [`Settings`] value, and its URL-hash form
//! (`#model=planar3&solver=loink&target=0.6,0.3&sigma=0&samples=8&seed=1&refine=3&feedback=2`),
//! TensorFlow-Playground style: read at start, rewritten on change, so a link reproduces a view.
//!
//! A link that omits a setting gets the page's current default, so `#embed=1` opens the view the
//! bare page shows. One exception keeps old links honest: `feedback` (task-feedback rounds of the
//! learned solvers) came after the first links were shared, and a link the page wrote then —
//! naming every other view setting and no `feedback` — opens with 0 rounds, the one-shot
//! inverse its author saw.
//!
//! Parsing never fails as a whole: a bad or unknown entry keeps its default and yields a
//! readable warning, so a mangled link still opens a working page.

use serde::{Deserialize, Serialize};

use crate::catalog;
use crate::decimal::{number, parse_count, parse_number};
use crate::learned::MAX_PROBE_DIM;
use crate::view_keys::ViewKeys;

pub use loink::solvers::registry::SolverKind;

/// Controls that a `NAME_hide=1` key can hide.
pub const HIDEABLE: [&str; 13] = [
    "model", "solver", "sigma", "samples", "seed", "refine", "feedback", "target", "play", "share",
    "export", "readouts", "train",
];

/// The panels a figure can show alone: every panel of the page ([`crate::panels::PANELS`]).
pub use crate::panels::PANELS as FIGURES;

/// Allowed ranges (inclusive).
pub const SIGMA_MAX: f64 = 2.0;
/// Most samples drawn around the optimum.
pub const SAMPLES_MAX: u32 = 64;
/// Most refinement steps.
pub const REFINE_MAX: u32 = 50;
/// Most task-feedback rounds the page offers.
pub const FEEDBACK_MAX: u32 = 8;
/// Task-feedback rounds of the bare page: 0.72 mm → 0.95 µm median residual on the default
/// planar3-h28w (web/models/README.md), for about twice the one-shot solve's time (BENCHMARKS.md).
pub const DEFAULT_FEEDBACK: u32 = 2;
/// Seeds are kept below 2⁵³ so they survive a round trip through a JS number.
pub const SEED_MAX: u64 = (1 << 53) - 1;

/// Every control's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Model name from the catalog.
    pub model: String,
    /// The solver.
    pub solver: SolverKind,
    /// Target y (the task's m coordinates; metres for the arms). Empty: the problem's own
    /// default target (a link that names none opens there).
    pub target: Vec<f64>,
    /// Sampling spread σ in latent space (0: no samples drawn).
    pub sigma: f64,
    /// Number of sampled solutions shown when σ > 0.
    pub samples: u32,
    /// Seed of the sampler.
    pub seed: u64,
    /// Refinement steps for `loink-refine`.
    pub refine: u32,
    /// Task-feedback rounds of both learned solvers (0: the one-shot inverse).
    #[serde(default = "default_feedback")]
    pub feedback: u32,
    /// A latent point z the reader picked on the latent panel (empty: none): the page also
    /// shows the pose G⁻¹([y; z]) it gives for the current target.
    #[serde(default)]
    pub probe: Vec<f64>,
    /// The 3-D view's entries (`view=ψ,θ`, `axes=a,b`; [`crate::view_keys`]): none in a
    /// bundle without the 3-D view.
    #[serde(default, skip_serializing_if = "ViewKeys::is_empty")]
    pub view3d: ViewKeys,
    /// Whether the target moves by itself.
    pub play: bool,
    /// The trainer's panel is open (`train=1`; web/train.js): a planar arm's LOInK trained in
    /// the page.
    #[serde(default)]
    pub train: bool,
    /// Embedded view: panels only.
    pub embed: bool,
    /// Controls hidden with `NAME_hide=1`, in [`HIDEABLE`] order.
    pub hide: Vec<String>,
    /// One panel alone, filling the page (`figure=NAME`, one of [`FIGURES`]), for a paper's
    /// screenshot; None shows the page.
    #[serde(default)]
    pub figure: Option<String>,
    /// The open lesson and its settings (`lesson=…`; see [`crate::lesson_table`]).
    #[serde(default)]
    pub lesson: crate::lesson_table::LessonSettings,
}

fn default_feedback() -> u32 {
    DEFAULT_FEEDBACK
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            model: catalog::default_entry().name.to_string(),
            solver: SolverKind::Loink,
            target: Vec::new(),
            sigma: 0.0,
            samples: 8,
            seed: 1,
            refine: 3,
            feedback: DEFAULT_FEEDBACK,
            probe: Vec::new(),
            view3d: ViewKeys::default(),
            play: false,
            train: false,
            embed: false,
            hide: Vec::new(),
            figure: None,
            lesson: crate::lesson_table::LessonSettings::default(),
        }
    }
}

/// Settings read from a hash, with one warning per entry that was ignored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParsedHash {
    /// The settings (defaults where the hash had nothing usable).
    pub settings: Settings,
    /// Human-readable notes about ignored entries.
    pub warnings: Vec<String>,
}

fn parse_flag(key: &str, text: &str) -> Result<bool, String> {
    match text {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(format!("{key}='{text}' is not 0 or 1")),
    }
}

/// Largest |coordinate| of a target in a link (m); the page clamps nothing, it just refuses.
pub const TARGET_LIMIT: f64 = 10.0;

/// Most target coordinates a link may hold.
const MAX_TARGET_DIM: usize = 16;

fn parse_target(text: &str) -> Result<Vec<f64>, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() < 2 || parts.len() > MAX_TARGET_DIM {
        return Err(format!("target='{text}' is not X,Y (or Y1,…,Ym)"));
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let axis = match i {
                0 => "target x".to_string(),
                1 => "target y".to_string(),
                _ => format!("target y{}", i + 1),
            };
            parse_number(&axis, p, -TARGET_LIMIT, TARGET_LIMIT)
        })
        .collect()
}

/// Largest |zᵢ| of a latent probe (normalised latent units).
pub const PROBE_LIMIT: f64 = 5.0;

fn parse_probe(text: &str) -> Result<Vec<f64>, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > MAX_PROBE_DIM {
        return Err(format!(
            "probe='{text}' has more than {MAX_PROBE_DIM} coordinates"
        ));
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| parse_number(&format!("probe z{}", i + 1), p, -PROBE_LIMIT, PROBE_LIMIT))
        .collect()
}

/// The keys the page wrote into every link before it had task feedback.
const LEGACY_KEYS: [&str; 7] = [
    "model", "solver", "target", "sigma", "samples", "seed", "refine",
];

/// Reads a hash (with or without the leading `#`). Hash text longer than 2,000 characters is
/// refused whole (defaults and one warning): no link needs more.
pub fn parse_hash(hash: &str) -> ParsedHash {
    let mut settings = Settings::default();
    let mut warnings = Vec::new();
    let body = hash.strip_prefix('#').unwrap_or(hash);
    if body.len() > 2000 {
        warnings.push(format!(
            "the link's settings are {} characters long; ignored",
            body.len()
        ));
        return ParsedHash { settings, warnings };
    }
    let mut hide = Vec::new();
    let mut named_feedback = false;
    let mut named = Vec::new();
    for pair in body.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        named.push(key);
        let outcome: Result<(), String> = match key {
            "model" => match catalog::lookup_view(value) {
                Some(entry) => {
                    settings.model = entry.name.to_string();
                    Ok(())
                }
                None => Err(format!(
                    "unknown model '{value}' (known: {})",
                    catalog::names()
                )),
            },
            "solver" => match SolverKind::parse(value) {
                Some(kind) => {
                    settings.solver = kind;
                    Ok(())
                }
                None => Err(format!(
                    "unknown solver '{value}' (known: {})",
                    SolverKind::ALL.map(SolverKind::as_str).join(", ")
                )),
            },
            "target" => parse_target(value).map(|t| settings.target = t),
            "sigma" => parse_number(key, value, 0.0, SIGMA_MAX).map(|v| settings.sigma = v),
            "samples" => {
                parse_count(key, value, SAMPLES_MAX.into()).map(|v| settings.samples = v as u32)
            }
            "seed" => parse_count(key, value, SEED_MAX).map(|v| settings.seed = v),
            "refine" => {
                parse_count(key, value, REFINE_MAX.into()).map(|v| settings.refine = v as u32)
            }
            "feedback" => {
                named_feedback = true;
                parse_count(key, value, FEEDBACK_MAX.into()).map(|v| settings.feedback = v as u32)
            }
            "probe" => parse_probe(value).map(|z| settings.probe = z),
            k if ViewKeys::owns(k) => settings.view3d.parse_entry(k, value),
            "play" => parse_flag(key, value).map(|v| settings.play = v),
            "train" => parse_flag(key, value).map(|v| settings.train = v),
            "embed" => parse_flag(key, value).map(|v| settings.embed = v),
            "figure" => match FIGURES.iter().find(|f| **f == value) {
                Some(name) => {
                    settings.figure = Some(name.to_string());
                    Ok(())
                }
                None => Err(format!(
                    "figure='{value}' is not a panel ({})",
                    FIGURES.join(", ")
                )),
            },
            k if crate::lesson_table::LessonSettings::owns(k) => {
                settings.lesson.parse_entry(k, value)
            }
            _ => match key.strip_suffix("_hide") {
                Some(name) if HIDEABLE.contains(&name) => parse_flag(key, value).map(|on| {
                    if on && !hide.contains(&name) {
                        hide.push(name);
                    }
                }),
                _ => Err(format!("unknown setting '{key}'")),
            },
        };
        if let Err(w) = outcome {
            warnings.push(w);
        }
    }
    // A link that names no solver opens the view with the solver its model's card names.
    if !named.contains(&"solver") {
        if let Some(kind) = catalog::lookup_view(&settings.model)
            .and_then(|entry| SolverKind::parse(entry.opening_solver))
        {
            settings.solver = kind;
        }
    }
    // Links written by the page before it had task feedback name every other view setting and
    // no `feedback`: their author saw the one-shot inverse. Any other link that omits a setting
    // gets the page's current default.
    if !named_feedback && LEGACY_KEYS.iter().all(|k| named.contains(k)) {
        settings.feedback = 0;
    }
    settings.hide = HIDEABLE
        .iter()
        .filter(|h| hide.contains(h))
        .map(|h| h.to_string())
        .collect();
    ParsedHash { settings, warnings }
}

/// Writes the hash (with the leading `#`); keys in a fixed order, flags only when set.
pub fn format_hash(s: &Settings) -> String {
    let mut parts = vec![
        format!("model={}", s.model),
        format!("solver={}", s.solver.as_str()),
    ];
    if !s.target.is_empty() {
        let y: Vec<String> = s.target.iter().map(|&v| number(v)).collect();
        parts.push(format!("target={}", y.join(",")));
    }
    parts.extend([
        format!("sigma={}", number(s.sigma)),
        format!("samples={}", s.samples),
        format!("seed={}", s.seed),
        format!("refine={}", s.refine),
        format!("feedback={}", s.feedback),
    ]);
    if !s.probe.is_empty() {
        let z: Vec<String> = s.probe.iter().map(|&v| number(v)).collect();
        parts.push(format!("probe={}", z.join(",")));
    }
    s.view3d.hash_entries(&mut parts);
    if s.play {
        parts.push("play=1".into());
    }
    if s.train {
        parts.push("train=1".into());
    }
    if s.embed {
        parts.push("embed=1".into());
    }
    for h in &s.hide {
        parts.push(format!("{h}_hide=1"));
    }
    if let Some(figure) = s.figure.as_deref().filter(|f| FIGURES.contains(f)) {
        parts.push(format!("figure={figure}"));
    }
    parts.extend(s.lesson.hash_entries());
    format!("#{}", parts.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_hash_round_trips() {
        let s = Settings {
            model: "planar4".into(),
            solver: SolverKind::Dls,
            target: vec![-0.123456789012345, 0.7],
            sigma: 0.25,
            samples: 12,
            seed: 9007199254740991,
            refine: 7,
            feedback: 5,
            probe: vec![0.25, -1.5],
            view3d: ViewKeys::default(),
            play: true,
            train: true,
            embed: true,
            hide: vec!["model".into(), "seed".into()],
            figure: Some("gapmap".into()),
            lesson: Default::default(),
        };
        let parsed = parse_hash(&format_hash(&s));
        assert_eq!(parsed.warnings, Vec::<String>::new());
        assert_eq!(parsed.settings, s);
    }

    #[test]
    fn a_figure_names_a_panel_or_is_refused() {
        for name in FIGURES {
            let parsed = parse_hash(&format!("#figure={name}"));
            assert_eq!(parsed.settings.figure.as_deref(), Some(name));
            assert!(parsed.warnings.is_empty());
        }
        let bad = parse_hash("#figure=../../etc&model=planar4");
        assert_eq!(bad.settings.figure, None);
        assert_eq!(bad.settings.model, "planar4");
        assert_eq!(bad.warnings.len(), 1, "{:?}", bad.warnings);
        assert!(!format_hash(&Settings::default()).contains("figure"));
    }

    #[test]
    fn bad_entries_keep_defaults_and_say_why() {
        let parsed = parse_hash(
            "#model=../../etc/passwd&solver=magic&target=NaN,1&sigma=1e300&seed=-1&refine=x&foo=1&embed=2&model_hide=1",
        );
        let d = Settings::default();
        assert_eq!(parsed.settings.model, d.model);
        assert_eq!(parsed.settings.solver, d.solver);
        assert_eq!(parsed.settings.target, d.target);
        assert_eq!(parsed.settings.sigma, d.sigma);
        assert_eq!(parsed.settings.seed, d.seed);
        assert_eq!(parsed.settings.hide, vec!["model".to_string()]);
        assert_eq!(parsed.warnings.len(), 8, "{:?}", parsed.warnings);
        assert!(parsed.warnings[0].contains("unknown model"));
    }

    #[test]
    fn empty_and_huge_hashes_give_defaults() {
        assert_eq!(parse_hash("").settings, Settings::default());
        assert_eq!(parse_hash("#").settings, Settings::default());
        let huge = format!("#target={}", "1".repeat(5000));
        let parsed = parse_hash(&huge);
        assert_eq!(parsed.settings, Settings::default());
        assert_eq!(parsed.warnings.len(), 1);
    }

    #[test]
    fn old_page_links_open_one_shot_and_partial_links_get_the_defaults() {
        // Written by the page before `feedback` existed: the author saw the one-shot inverse.
        let old = parse_hash(
            "#model=planar3-h38w&solver=loink&target=0.4,0.6&sigma=0&samples=8&seed=1&refine=3",
        );
        assert_eq!(old.warnings, Vec::<String>::new());
        assert_eq!(old.settings.feedback, 0);
        // A hand-written partial link gets the current default, like the bare page.
        for partial in [
            "#target=0.4,0.6",
            "#embed=1",
            "#model=planar4",
            "#solver=loink&embed=1",
        ] {
            assert_eq!(
                parse_hash(partial).settings.feedback,
                DEFAULT_FEEDBACK,
                "{partial}"
            );
        }
        // The bare page, and a link that names it.
        assert_eq!(parse_hash("").settings.feedback, DEFAULT_FEEDBACK);
        assert_eq!(parse_hash("#feedback=3").settings.feedback, 3);
        let now = format_hash(&Settings::default());
        assert!(
            now.contains(&format!("feedback={DEFAULT_FEEDBACK}")),
            "{now}"
        );
        assert_eq!(parse_hash(&now).settings, Settings::default());
        let over = parse_hash("#feedback=9");
        assert_eq!(over.settings.feedback, DEFAULT_FEEDBACK);
        assert_eq!(over.warnings.len(), 1);
    }

    #[test]
    fn negative_zero_and_infinities() {
        let parsed = parse_hash("#target=-0,0.5");
        assert_eq!(parsed.settings.target, vec![0.0, 0.5]);
        assert!(format_hash(&parsed.settings).contains("target=0,0.5"));
        assert_eq!(parse_hash("#target=inf,0").warnings.len(), 1);
    }
}
