//! One palette and one type scale for every panel (Okabe–Ito colours, safe for colour-blind
//! readers), so the four panels read as one figure.

use plotters::style::RGBColor;

/// The solver's arm and the learned solution set.
pub const SOLUTION: RGBColor = RGBColor(0, 114, 178);
/// The reference optimum (ghost arm, global minimum markers).
pub const OPTIMUM: RGBColor = RGBColor(230, 159, 0);
/// The target.
pub const TARGET: RGBColor = RGBColor(213, 94, 0);
/// Sampled solutions (σ > 0).
pub const SAMPLE: RGBColor = RGBColor(86, 180, 233);
/// Joint-limit arcs and feasible self-motion pieces.
pub const LIMITS: RGBColor = RGBColor(0, 158, 115);
/// The surrogate zᵀM z + b.
pub const SURROGATE: RGBColor = RGBColor(204, 121, 167);
/// A link that overlaps another or a scene object (a vivid red, apart from the target's
/// vermilion).
pub const CONTACT: RGBColor = RGBColor(204, 37, 41);
/// Infeasible (cut by limits) and other de-emphasised marks.
pub const MUTED: RGBColor = RGBColor(150, 150, 150);
/// Forces drawn as arrows, and the loads they put on the contacts.
pub const FORCE: RGBColor = RGBColor(204, 121, 167);
/// Axes, ticks, text.
pub const INK: RGBColor = RGBColor(40, 40, 40);
/// Secondary text (sub-captions), dark enough for 4.5:1 contrast on white.
pub const MUTED_INK: RGBColor = RGBColor(100, 100, 100);
/// Panel background.
pub const PAPER: RGBColor = RGBColor(255, 255, 255);
/// Reachable-region shading.
pub const REGION: RGBColor = RGBColor(232, 238, 244);
/// Grid lines.
pub const GRID: RGBColor = RGBColor(228, 228, 228);

/// One colour per chart of a multi-chart model (chart k takes `CHARTS[k % 8]`): Okabe–Ito's
/// eight, reordered so neighbouring charts differ most.
pub const CHARTS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(170, 150, 0),
];

/// Chart `k`'s colour.
pub fn chart(k: usize) -> RGBColor {
    CHARTS[k % CHARTS.len()]
}

/// Font family for every label (the enum, not the string "sans-serif": plotters maps strings
/// through `to_lowercase`, which would link Unicode case tables into the download).
pub const FONT: plotters::style::FontFamily<'static> = plotters::style::FontFamily::SansSerif;
/// Caption size (CSS px).
pub const CAPTION_PX: f64 = 13.0;
/// Tick label and legend size (CSS px).
pub const LABEL_PX: f64 = 11.0;

/// Viridis, sampled at 9 stops; [`viridis`] interpolates between them.
const VIRIDIS: [[f64; 3]; 9] = [
    [68.0, 1.0, 84.0],
    [71.0, 44.0, 122.0],
    [59.0, 81.0, 139.0],
    [44.0, 113.0, 142.0],
    [33.0, 144.0, 141.0],
    [39.0, 173.0, 129.0],
    [92.0, 200.0, 99.0],
    [170.0, 220.0, 50.0],
    [253.0, 231.0, 37.0],
];

/// Viridis colour for t ∈ [0, 1] (clamped; NaN gives the first stop).
pub fn viridis(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    [0, 1, 2].map(|k| (a[k] + f * (b[k] - a[k])).round() as u8)
}
