//! What the page says and offers for each kind of problem, keyed by the kind's tag: the words
//! for the shaded region and for a pose outside the useful domain, the controls for target
//! coordinates a pointer in the plane does not set, named targets, and which landscape the
//! kind's view shows. These exist only for the page, so they live here, not in the core.

/// A target coordinate beyond the two a pointer sets in the sketch plane (a slider).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetControl {
    /// Which coordinate of the target (0-based; at least 2).
    pub coordinate: usize,
    /// The control's name in the page (`data-control`).
    pub name: &'static str,
    /// What it sets, with its unit.
    pub label: &'static str,
    /// The useful range [lo, hi] (task units).
    pub range: [f64; 2],
    /// A step of the control (task units).
    pub step: f64,
}

/// A named target a view offers as one click.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetPreset {
    /// Its name (a word).
    pub name: &'static str,
    /// The target.
    pub target: Vec<f64>,
}

/// What the landscape panel shows for a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landscape {
    /// J along the learned set (and the self-motion set where it is swept).
    Cost,
    /// The actuators' travel (the soft arm's rods' twists): a latent curve says little about
    /// one rod.
    Actuators,
}

/// The page's words and controls for one kind.
#[derive(Debug, Clone, Copy)]
pub struct KindPage {
    /// What the shaded region of the sketch plane is.
    pub region_words: &'static str,
    /// What a pose for a valid target is when outside the kind's useful domain.
    pub domain_words: Option<&'static str>,
    /// The sliders of the target's further coordinates.
    pub controls: &'static [TargetControl],
    /// Named targets, one click each, given the current target's columns.
    pub presets: fn(&[f64]) -> Vec<TargetPreset>,
    /// What the landscape panel shows.
    pub landscape: Landscape,
}

fn none(_: &[f64]) -> Vec<TargetPreset> {
    Vec::new()
}

#[cfg(feature = "view3d")]
/// A turning hand's orientations at the current position: the hand straight down and pointing
/// forward (its z axis along +x, its x axis up). A pose's columns end in a quaternion (w first),
/// an axis's in a direction; a point has none.
fn hand_presets(current: &[f64]) -> Vec<TargetPreset> {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let ends: [(&'static str, &[f64]); 2] = match current.len() {
        7 => [
            ("hand down", &[0.0, 1.0, 0.0, 0.0]),
            ("hand forward", &[0.0, h, 0.0, h]),
        ],
        6 => [
            ("hand down", &[0.0, 0.0, -1.0]),
            ("hand forward", &[1.0, 0.0, 0.0]),
        ],
        _ => return Vec::new(),
    };
    ends.into_iter()
        .map(|(name, end)| TargetPreset {
            name,
            target: current[..3].iter().chain(end).copied().collect(),
        })
        .collect()
}

/// The climber's clearance slider (docs/climber.md: h ∈ [0.04, 0.16] m).
#[cfg(feature = "target-controls")]
const CLIMBER_CONTROLS: [TargetControl; 1] = [TargetControl {
    coordinate: 2,
    name: "height",
    label: "body clearance h (m)",
    range: [0.04, 0.16],
    step: 0.005,
}];

/// Span 0.5 m, clearance 8–9 cm (docs/climber.md §5's optima).
#[cfg(feature = "target-controls")]
fn climber_presets(_: &[f64]) -> Vec<TargetPreset> {
    let at = |name, degrees: f64, clearance| {
        let g = degrees.to_radians();
        // The ceiling's y1 is −0.5 exactly, not −0.5 + 6e-17.
        let round = |v: f64| (v * 1e12).round() / 1e12;
        TargetPreset {
            name,
            target: vec![round(0.5 * g.cos()), round(0.5 * g.sin()), clearance],
        }
    };
    vec![
        at("wall", 90.0, 0.08),
        at("overhang", 135.0, 0.09),
        at("ceiling", 180.0, 0.09),
    ]
}

/// The page's words and controls for `kind`.
pub fn page(kind: &str) -> KindPage {
    let plain = KindPage {
        region_words: "reachable within limits",
        domain_words: None,
        controls: &[],
        presets: none,
        landscape: Landscape::Cost,
    };
    // Each kind's entry is in the bundles that can show the kind (the slim one: the planar
    // arms alone).
    match kind {
        #[cfg(feature = "target-controls")]
        "climber" => KindPage {
            region_words: "where the front foot may stand (span 0.30–0.70 m, wall 60–180°)",
            domain_words: Some("an ankle past its range or the body on the wall"),
            controls: &CLIMBER_CONTROLS,
            presets: climber_presets,
            ..plain
        },
        #[cfg(feature = "unswept")]
        "soft4" => KindPage {
            landscape: Landscape::Actuators,
            ..plain
        },
        #[cfg(feature = "view3d")]
        "chain" => KindPage {
            presets: hand_presets,
            ..plain
        },
        _ => plain,
    }
}

/// The sketch of configuration q of a kind drawn in its task plane (`None` for any other).
pub fn sketch(problem: &loink::problem::Problem, q: &[f64]) -> Option<loink::problem::Sketch> {
    problem.capabilities().plane().map(|view| view.sketch(q))
}

/// The page's words and controls for `problem`'s kind.
pub fn of(problem: &loink::problem::Problem) -> KindPage {
    page(problem.kinematics().kind())
}
