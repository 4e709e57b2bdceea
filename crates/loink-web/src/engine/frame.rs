//! What one frame hands to JavaScript: the solve's report, the gap, the controls that act, the
//! readouts and the status line ([`FrameState`]).

use loink::gap::Gap;
use loink::report::Status;

use super::{comparable, gap_percent, Engine};
use crate::clock::RESOLUTION_MICROS;
use crate::settings::SolverKind;
use crate::state::{describe, FrameState};

impl Engine {
    /// Optimality gap (J − J*)/J* in percent; NaN unless J* is known and the answer reaches
    /// the target closely enough for the comparison to mean something ([`comparable`]).
    pub fn gap(&self) -> f64 {
        match &self.optimum {
            Some(opt) if comparable(&self.solution) => gap_percent(self.solution.cost(), opt.cost),
            _ => f64::NAN,
        }
    }

    /// The controls that act in this view: refinement steps for LOInK + refinement, feedback
    /// rounds for both learned solvers, the sampler's σ, samples and seed where a learned model
    /// with a latent space is loaded, the trainer on a planar arm outside a lesson; the rest
    /// always.
    pub fn acting_controls(&self) -> Vec<&'static str> {
        let mut on = vec!["model", "solver"];
        let learned_latent = self.model().is_some_and(|m| m.latent_dim() > 0);
        if learned_latent {
            on.extend(["sigma", "samples", "seed"]);
        }
        if self.settings.solver == SolverKind::LoinkRefine {
            on.push("refine");
        }
        if self.settings.solver.is_learned() {
            on.push("feedback");
        }
        if !crate::kinds::of(&self.problem).controls.is_empty() || self.problem.task().has_angle() {
            on.push("target");
        }
        if self.problem.task().has_angle() {
            on.push("angle");
        }
        on.extend(["play", "share", "export", "readouts"]);
        // The page trains the planar arms (web/train.js); a lesson brings its own controls,
        // except the lesson on training, whose control it is.
        let lesson = self.settings.lesson.name.map(|l| l.entry().word);
        if crate::catalog::trained_slot(self.problem.name()).is_some()
            && matches!(lesson, None | Some("training"))
        {
            on.push("train");
        }
        if self.sim_calls().is_some() {
            on.push("sim-calls");
        }
        self.flow_controls(&mut on);
        on
    }

    /// The state handed to JS.
    pub fn state(&self) -> FrameState {
        let s = &self.solution;
        let gap = self.gap();
        #[allow(unused_mut)]
        let mut readouts = crate::state::Readouts::new(
            s.residual(),
            s.cost(),
            gap,
            s.margin(),
            s.status().as_str(),
            crate::state::iterations_text(self.settings.solver, s.iterations()),
            crate::state::solve_text(s.micros(), self.timed, RESOLUTION_MICROS),
            self.frame_ms,
        );
        self.count_calls(&mut readouts);
        // Only a 3-D view's task turns the hand.
        #[cfg(feature = "view3d")]
        if let Some(angle) = s.angle() {
            readouts = readouts.with_angle(s.residual(), angle);
        }
        let judged = self
            .optimum
            .as_ref()
            .filter(|_| gap.is_finite())
            .map(|opt| Gap::of(s.cost(), opt.cost));
        if let Some(Gap::Absolute(d)) = judged {
            readouts = readouts.with_absolute_gap(d);
        }
        FrameState {
            problem: self.problem.name().to_string(),
            model: self.entry.name.to_string(),
            solver: self.settings.solver.as_str().to_string(),
            target: self.settings.target.clone(),
            columns: self.problem.task().columns(),
            turning: self.problem.task().has_angle(),
            q: s.q().to_vec(),
            reached: if s.reached().is_empty() {
                Vec::new()
            } else {
                self.problem.task().to_columns(s.reached())
            },
            residual: s.residual(),
            angle: s.angle(),
            cost: s.cost(),
            optimum: self.optimum.as_ref().map_or(f64::NAN, |o| o.cost),
            gap,
            optimum_pending: self.optimum_pending(),
            margin: s.margin(),
            status: s.status().as_str().to_string(),
            iterations: s.iterations(),
            solve_micros: s.micros(),
            frame_ms: self.frame_ms,
            unreachable: s.status() == Status::Unreachable,
            message: describe(
                s,
                judged,
                crate::state::Context {
                    closest: self.closest,
                },
            ),
            warnings: self.warnings.clone(),
            learned: self.models.contains_key(self.entry.name),
            readouts,
            controls: self.acting_controls(),
            readout_notes: crate::state::readout_notes(
                self.settings.solver,
                self.timed,
                self.timing_provisional,
                RESOLUTION_MICROS,
                self.problem().cost().spec(),
            ),
            cost_definition: crate::state::cost_definition(self.problem().cost().spec()),
            probe: self
                .probe
                .as_ref()
                .map(|p| crate::state::ProbeState::new(&self.settings.probe, p)),
            latent_shown: self.latent_map.is_some(),
            chart: s.chart(),
            #[cfg(feature = "multi-chart")]
            proposals: self
                .proposals
                .iter()
                .map(crate::state::ProposalState::new)
                .collect(),
            #[cfg(feature = "target-controls")]
            target_controls: self.target_controls(),
            #[cfg(feature = "target-controls")]
            presets: (crate::kinds::of(&self.problem).presets)(&self.settings.target)
                .into_iter()
                .map(|p| crate::state::PresetState {
                    name: p.name,
                    target: p.target,
                })
                .collect(),
            #[cfg(feature = "statics")]
            loads: self.loads(),
            #[cfg(feature = "view3d")]
            view3d: self.problem.capabilities().space().map(|_| self.view()),
            #[cfg(feature = "view3d")]
            latent_axes: if self
                .models
                .get(self.entry.name)
                .is_some_and(|m| m.latent_dim() > 2)
            {
                self.latent_slice().0.iter().map(|a| a + 1).collect()
            } else {
                Vec::new()
            },
            #[cfg(feature = "view3d")]
            collision: (self.problem.capabilities().space())
                .and_then(|space| space.collision(self.solution.q()))
                .map(|p| crate::state::CollisionState::new(&p, self.settings.view3d.spheres)),
        }
    }

    #[cfg(feature = "target-controls")]
    fn target_controls(&self) -> Vec<crate::state::TargetControlState> {
        let target = &self.settings.target;
        crate::kinds::of(&self.problem)
            .controls
            .iter()
            .filter_map(|c| {
                let value = *target.get(c.coordinate)?;
                Some(crate::state::TargetControlState {
                    coordinate: c.coordinate,
                    name: c.name,
                    label: c.label,
                    min: c.range[0],
                    max: c.range[1],
                    step: c.step,
                    value,
                    text: format!("{:.1} cm", value * 100.0),
                })
            })
            .collect()
    }

    #[cfg(feature = "statics")]
    fn loads(&self) -> Vec<crate::state::LoadState> {
        use loink::problem::presentation::Loads;
        let target = &self.target;
        let Some(loads) = Loads::of(&self.problem, self.solution.q(), target) else {
            return Vec::new();
        };
        (loads.answer.iter().enumerate())
            .map(|(k, load)| crate::state::LoadState {
                label: load.label,
                needed: load.needed,
                available: load.available,
                neutral: loads.neutral_needed(k).unwrap_or(f64::NAN),
            })
            .collect()
    }
}
