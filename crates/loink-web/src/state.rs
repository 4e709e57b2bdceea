//! What one frame hands back to JavaScript: the solve's own report plus what the page shows
//! next to it. Field names are the JS API's (`getState()`), so they are camelCase.

use loink::report::{Solution, Status};
use serde::Serialize;

/// The state after a frame (`window.loinkPlayground.getState()`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameState {
    /// Model name (catalog).
    pub model: String,
    /// The problem's name (`planar3`, `panda`, …).
    pub problem: String,
    /// Solver word (`loink`, `loink-refine`, `dls`, `analytic`, `reference`).
    pub solver: String,
    /// Target y in the task's columns (metres for the arms; a pose adds its quaternion, w
    /// first; an axis its unit direction).
    pub target: Vec<f64>,
    /// The names of those columns (`x,y`; `x,y,z,qw,qx,qy,qz` for a pose).
    pub columns: Vec<String>,
    /// Whether the target turns (a pose or a tool axis): the arm panel's ring and keys turn it.
    pub turning: bool,
    /// Joint angles (rad); empty when the target was invalid.
    pub q: Vec<f64>,
    /// p(q) by forward-kinematics replay, in the task's columns.
    pub reached: Vec<f64>,
    /// ‖p(q) − y‖ (m): the position's miss.
    pub residual: f64,
    /// The orientation's (or the tool axis's) miss in radians, for a task that turns the
    /// hand; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angle: Option<f64>,
    /// J(q).
    pub cost: f64,
    /// J* of the reference optimum for this target (NaN when none is feasible).
    pub optimum: f64,
    /// (J − J*)/J* in percent (NaN when J* is unknown or the solve is not feasible).
    pub gap: f64,
    /// The reference optimum of this target is not computed yet (it runs with the next drawn
    /// frame): `optimum` and `gap` are NaN for that reason, not because none is feasible.
    pub optimum_pending: bool,
    /// Distance to the nearest joint limit (rad), negative when violated.
    pub margin: f64,
    /// `converged`, `capped`, `unreachable`, `limits` or `invalid`.
    pub status: String,
    /// Iterations the solver used.
    pub iterations: usize,
    /// Wall time of the solve (µs).
    pub solve_micros: f64,
    /// Wall time of the last drawn frame (ms): the deferred per-target work (reference pass,
    /// samples, learned curve) and all four panels; the solve itself is `solve_micros`.
    pub frame_ms: f64,
    /// Whether the target is outside what the arm can reach (the page says so in words).
    pub unreachable: bool,
    /// One sentence about the solution for the status line.
    pub message: String,
    /// Notes about settings that could not be honoured (bad link entries, missing model file).
    pub warnings: Vec<String>,
    /// Whether a trained model is loaded for this model name.
    pub learned: bool,
    /// The controls that act in this view (`data-control` names): the page hides the others.
    pub controls: Vec<&'static str>,
    /// What each readout counts in this view (`data-readout` name → one sentence), for its title.
    pub readout_notes: ReadoutNotes,
    /// J defined in one sentence (the page prints it under the readouts).
    pub cost_definition: String,
    /// The pose at the reader's latent probe z (null without one).
    pub probe: Option<ProbeState>,
    /// Whether the latent panel shows a latent map (and so takes a probe from the pointer).
    pub latent_shown: bool,
    /// A multi-chart model: the chart whose proposal is the answer (null otherwise).
    pub chart: Option<usize>,
    /// A multi-chart model: every chart's proposal for the target (empty otherwise, and while
    /// the panel work is pending; the full bundle only).
    #[cfg(feature = "multi-chart")]
    pub proposals: Vec<ProposalState>,
    /// The readouts as the page prints them (`data-readout` name → text), formatted here so
    /// JavaScript holds no number formatting either.
    pub readouts: Readouts,
    /// A slider per target coordinate the pointer does not set (the climber's clearance; the
    /// full bundle only, as the next two).
    #[cfg(feature = "target-controls")]
    pub target_controls: Vec<TargetControlState>,
    /// Named targets of this view, one button each (the climber's wall, overhang, ceiling).
    #[cfg(feature = "target-controls")]
    pub presets: Vec<PresetState>,
    /// What the robot's contacts must hold in the answer, beside the neutral posture (empty for
    /// a robot without contacts; the full bundle only).
    #[cfg(feature = "statics")]
    pub loads: Vec<LoadState>,
    /// A robot drawn in 3-D: the arm panel's orbit `[yaw, pitch]` in degrees (None for a view
    /// drawn in a plane).
    #[cfg(feature = "view3d")]
    pub view3d: Option<[f64; 2]>,
    /// The two latent axes the latent panel's slice of a latent space of three or more
    /// coordinates spans, counted from 1 (empty for a smaller latent space or none).
    #[cfg(feature = "view3d")]
    pub latent_axes: Vec<usize>,
    /// A robot that keeps clear of itself and a scene: the answer's clearance by its collision
    /// spheres (None for any other robot, or without an answer).
    #[cfg(feature = "view3d")]
    pub collision: Option<CollisionState>,
}

/// The answer's clearance by the robot's collision spheres.
#[cfg(feature = "view3d")]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollisionState {
    /// Nothing overlaps.
    pub clear: bool,
    /// The smallest signed distance over the checked pairs (mm; negative: how deep they
    /// overlap).
    pub clearance_mm: f64,
    /// What that distance separates, in words (`panda_link5 and the shelf`).
    pub between: String,
    /// The readout as the panel prints it.
    pub readout: String,
    /// The links that overlap something.
    pub touching: Vec<String>,
    /// Every sphere is drawn (`spheres=1`).
    pub spheres: bool,
}

#[cfg(feature = "view3d")]
impl CollisionState {
    /// The state of a picture, with the reader's sphere toggle.
    pub fn new(
        picture: &loink::problem::collision_picture::CollisionPicture,
        spheres: bool,
    ) -> Self {
        let (distance, between) = picture
            .clearance
            .clone()
            .unwrap_or((f64::INFINITY, String::new()));
        CollisionState {
            clear: picture.is_clear(),
            clearance_mm: distance * 1e3,
            between,
            readout: picture.readout(),
            touching: (picture.links.iter())
                .filter(|(_, hit)| *hit)
                .map(|(name, _)| name.clone())
                .collect(),
            spheres,
        }
    }
}

/// A target coordinate's slider.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetControlState {
    /// The coordinate it sets (0-based).
    pub coordinate: usize,
    /// The control's name (`data-control`).
    pub name: &'static str,
    /// What it sets, with its unit.
    pub label: &'static str,
    /// Its range and step.
    pub min: f64,
    /// Upper end.
    pub max: f64,
    /// Step.
    pub step: f64,
    /// The coordinate's current value.
    pub value: f64,
    /// The value as the page prints it.
    pub text: String,
}

/// A named target.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PresetState {
    /// Its name.
    pub name: &'static str,
    /// The target it sets.
    pub target: Vec<f64>,
}

/// One contact's load.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadState {
    /// The contact in words.
    pub label: &'static str,
    /// The force it needs in the answer (N).
    pub needed: f64,
    /// The force it has (N).
    pub available: f64,
    /// The force it needs in the neutral posture for the same target (N; NaN without one).
    pub neutral: f64,
}

/// One chart's proposal, judged by replay like any answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProposalState {
    /// Its chart.
    pub chart: usize,
    /// Joint angles (rad).
    pub q: Vec<f64>,
    /// True cost J.
    pub cost: f64,
    /// Distance from the target (m).
    pub residual: f64,
    /// Status.
    pub status: &'static str,
}

impl ProposalState {
    /// The state of a proposal.
    pub fn new(s: &loink::report::Solution) -> Self {
        ProposalState {
            chart: s.chart().unwrap_or(0),
            q: s.q().to_vec(),
            cost: s.cost(),
            residual: s.residual(),
            status: s.status().as_str(),
        }
    }
}

/// The pose G⁻¹([y; z]) at the reader's latent probe, judged by replay like any answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProbeState {
    /// The latent point z (normalised units).
    pub z: Vec<f64>,
    /// Its pose (rad).
    pub q: Vec<f64>,
    /// ‖f(q) − y‖ (m).
    pub residual: f64,
    /// The orientation's miss (rad), for a task that turns the hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angle: Option<f64>,
    /// J(q).
    pub cost: f64,
    /// Joint-limit margin (rad).
    pub margin: f64,
    /// Status word.
    pub status: &'static str,
}

impl ProbeState {
    /// The probe's state from its z and judged pose.
    pub fn new(z: &[f64], s: &Solution) -> ProbeState {
        ProbeState {
            z: z.to_vec(),
            q: s.q().to_vec(),
            residual: s.residual(),
            angle: s.angle(),
            cost: s.cost(),
            margin: s.margin(),
            status: s.status().as_str(),
        }
    }
}

/// What the readouts whose meaning depends on the solver count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadoutNotes {
    /// What `iterations` counts.
    pub iterations: String,
    /// How `solve-us` was measured.
    #[serde(rename = "solve-us")]
    pub solve_us: String,
    /// What J is (the problem's cost, in symbols and words).
    pub cost: String,
    /// What the gap compares.
    pub gap: String,
}

/// Formatted readout texts, one per `data-readout` element.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Readouts {
    /// ‖p(q) − y‖ in m (mm for a task that turns the hand, beside its angle).
    pub residual: String,
    /// The residual's unit.
    #[serde(rename = "residual-unit")]
    pub residual_unit: String,
    /// The orientation (or tool axis) error in degrees, for a task that turns the hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angle: Option<String>,
    /// J(q).
    pub cost: String,
    /// Gap to J* in % (at most "> 10,000"), or J − J* itself where J* is near 0
    /// ([`loink::gap::GAP_FLOOR`]).
    pub gap: String,
    /// The gap's unit: `%`, or `(J − J*)` when it is absolute.
    #[serde(rename = "gap-unit")]
    pub gap_unit: String,
    /// Joint-limit margin in rad.
    pub margin: String,
    /// Status word.
    pub status: String,
    /// Iterations.
    pub iterations: String,
    /// Solve time in µs.
    #[serde(rename = "solve-us")]
    pub solve_us: String,
    /// Frame time in ms.
    #[serde(rename = "frame-ms")]
    pub frame_ms: String,
    /// Simulator calls of the solve (a simulator that counts them: the soft arm).
    #[cfg(feature = "unswept")]
    #[serde(rename = "sim-calls", skip_serializing_if = "Option::is_none")]
    pub sim_calls: Option<String>,
}

fn or_dash(v: f64, text: impl FnOnce(f64) -> String) -> String {
    if v.is_finite() {
        text(v)
    } else {
        "—".to_string()
    }
}

impl Readouts {
    /// Formats the readouts of a frame.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        residual: f64,
        cost: f64,
        gap: f64,
        margin: f64,
        status: &str,
        iterations: String,
        solve_us: String,
        frame_ms: f64,
    ) -> Readouts {
        Readouts {
            residual: or_dash(residual, |v| format!("{v:.2e}")),
            residual_unit: "m".into(),
            angle: None,
            cost: or_dash(cost, |v| format!("{v:.5}")),
            gap: or_dash(gap, gap_text),
            gap_unit: "%".into(),
            margin: or_dash(margin, |v| format!("{v:.4}")),
            status: status.to_string(),
            iterations,
            solve_us,
            frame_ms: or_dash(frame_ms, |v| format!("{v:.2}")),
            #[cfg(feature = "unswept")]
            sim_calls: None,
        }
    }
}

impl Readouts {
    /// The position's miss in millimetres and the angle in degrees beside it (a task that
    /// turns the hand: a pose's errors are read in the units they are quoted in).
    pub fn with_angle(mut self, residual: f64, angle: f64) -> Readouts {
        self.residual = or_dash(residual, |v| format!("{:.2e}", v * 1e3));
        self.residual_unit = "mm".into();
        self.angle = Some(or_dash(angle, |v| format!("{:.2e}", v.to_degrees())));
        self
    }
}

impl Readouts {
    /// The gap as J − J* (in the cost's own units) where J* is near 0
    /// ([`loink::gap::GAP_FLOOR`]): a relative gap would divide by almost nothing.
    pub fn with_absolute_gap(mut self, difference: f64) -> Readouts {
        self.gap = or_dash(difference, |v| format!("{v:.2e}"));
        self.gap_unit = "(J − J*)".into();
        self
    }
}

/// The gap as the page prints it (readout and status line alike), in percent: three decimals,
/// "> 10,000" above [`loink::gap::PRINTED_MAX`].
pub fn gap_text(gap: f64) -> String {
    if gap > 100.0 * loink::gap::PRINTED_MAX {
        "> 10,000".into()
    } else {
        format!("{gap:.3}")
    }
}

/// What the status line says beside a solution.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Context {
    /// Distance (m) from the target to the closest pose within the limits, when the target is
    /// out of reach and the problem can find that pose.
    pub closest: Option<f64>,
}

/// The sentence shown in the status line for a solution.
pub fn describe(solution: &Solution, gap: Option<loink::gap::Gap>, context: Context) -> String {
    let gap_text = match gap {
        Some(loink::gap::Gap::Relative(g)) if g.is_finite() => {
            format!(", {}% above the optimum", gap_text(100.0 * g))
        }
        Some(loink::gap::Gap::Absolute(d)) if d.is_finite() => {
            format!(", J − J* = {d:.2e} above the optimum (J* ≈ 0)")
        }
        _ => String::new(),
    };
    let r = solution.residual();
    let sentence = match solution.status() {
        Status::Converged => format!("Reached the target ({r:.1e} m){gap_text}."),
        Status::Approximate => format!("A learned estimate {r:.1e} m from the target{gap_text}."),
        Status::Unverified => {
            "Nothing can replay this answer: it is the learned model's word alone.".to_string()
        }
        Status::Capped => format!("Stopped short: {r:.1e} m from the target."),
        Status::Unreachable => match context.closest {
            Some(d) if (r - d).abs() <= 1e-6 => format!(
                "Target unreachable within the joint limits: the answer is the closest pose, \
                 {r:.3} m away."
            ),
            Some(d) => format!(
                "Target unreachable within the joint limits: this answer stops {r:.3} m away; \
                 the closest pose within the limits is {d:.3} m away."
            ),
            None => format!(
                "Target unreachable within the joint limits: this answer stops {r:.3} m away."
            ),
        },
        Status::Limits => format!(
            "Reaches {r:.1e} m from the target only by breaking a joint limit by {:.3} rad.",
            -solution.margin()
        ),
        Status::Invalid => "The target is not a valid point.".to_string(),
    };
    match solution.note() {
        Some(note) => format!("{sentence} ({note}.)"),
        None => sentence,
    }
}

/// The solve time as the page prints it (µs): the idle re-timing (`timed`: µs per solve,
/// repeats) when there is one, else the one solve's clock reading — "< step" below the clock's
/// step `resolution` (a coarse browser clock reads 0 for a fast solve).
pub fn solve_text(micros: f64, timed: Option<(f64, usize)>, resolution: f64) -> String {
    match timed {
        Some((us, _)) if us < 10.0 => format!("{us:.1}"),
        Some((us, _)) => format!("{us:.0}"),
        None if !micros.is_finite() => "—".to_string(),
        None if micros < resolution => format!("< {resolution:.0}"),
        None => format!("{micros:.0}"),
    }
}

/// The iterations readout, saying what is counted where a bare number would mislead.
pub fn iterations_text(solver: crate::settings::SolverKind, iterations: usize) -> String {
    use crate::settings::SolverKind;
    match solver {
        SolverKind::Loink | SolverKind::LoinkRefine => format!("{iterations} inverse steps"),
        SolverKind::Dls => iterations.to_string(),
        SolverKind::Analytic => "— (closed form)".to_string(),
        SolverKind::Reference => "— (a sweep)".to_string(),
        #[allow(unreachable_patterns)]
        _ => format!("{iterations} sample(s) replayed"),
    }
}

/// The sentence defining J on the page (under the readouts, and the cost readout's title).
pub fn cost_definition(cost: &loink::cost::CostSpec) -> String {
    format!(
        "{}: {}. J* is the cheapest J of any pose reaching the target within the joint limits \
         (the reference solver's); the gap is (J − J*)/J*.",
        cost.formula(),
        cost.words()
    )
}

/// What the readouts count, for the solver in use.
pub fn readout_notes(
    solver: crate::settings::SolverKind,
    timed: Option<(f64, usize)>,
    provisional: bool,
    resolution: f64,
    cost: &loink::cost::CostSpec,
) -> ReadoutNotes {
    use crate::settings::SolverKind;
    let iterations = match solver {
        SolverKind::Loink | SolverKind::LoinkRefine => {
            "Newton steps of the network's inverse, summed over its monotone layers, every task-feedback round and refinement step included"
        }
        SolverKind::Dls => "damped-least-squares iterations (of the restart, when the warm start stalled)",
        SolverKind::Analytic => "1: a closed form",
        SolverKind::Reference => "1: a sweep of the self-motion set, not an iteration",
        #[allow(unreachable_patterns)]
        _ => "the flow: one pass of its coupling blocks per sample, no iteration",
    }
    .to_string();
    let solve_us = match timed {
        Some((_, repeats)) if provisional => format!(
            "µs per solve: this solve repeated {repeats} times from the same start on opening the page, while the browser may still be compiling it to fast code; timed again by repetition once the page is idle"
        ),
        Some((_, repeats)) => format!(
            "µs per solve: this solve repeated {repeats} times from the same start after an untimed warm-up, while the page was idle"
        ),
        None if resolution > 0.0 => format!(
            "µs of this one solve by the browser's clock, which ticks in {resolution:.0} µs steps; the solve is timed again by repetition once the pointer rests"
        ),
        None => "µs of this one solve".to_string(),
    };
    ReadoutNotes {
        iterations,
        solve_us,
        cost: cost_definition(cost),
        gap: "(J − J*)/J* in percent, J* the reference optimum's cost (J − J* itself where J* is below 1e-3); shown only for an answer that reaches the target within the limits".to_string(),
    }
}

#[cfg(test)]
mod gap_tests {
    use super::Readouts;

    fn readouts(gap: f64) -> Readouts {
        Readouts::new(
            1e-9,
            0.3,
            gap,
            0.1,
            "converged",
            "3".into(),
            "12".into(),
            1.0,
        )
    }

    #[test]
    fn the_gap_is_relative_unless_the_optimum_is_near_zero() {
        let relative = readouts(1.25);
        assert_eq!(
            (relative.gap.as_str(), relative.gap_unit.as_str()),
            ("1.250", "%")
        );
        let absolute = readouts(f64::INFINITY).with_absolute_gap(2.5e-4 - 1e-5);
        assert_eq!(absolute.gap, "2.40e-4");
        assert_eq!(absolute.gap_unit, "(J − J*)");
        assert_eq!(readouts(1.03e8).gap, "> 10,000");
    }
}
