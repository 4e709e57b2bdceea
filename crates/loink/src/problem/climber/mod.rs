//! `climber`: the magnetic climbing robot Magneto on a wall of any inclination, side view
//! (docs/climber.md, which fixes every number). The task is where the feet are and how high the
//! body stands: y = (y1, y2) the world vector from the rear to the front ankle (its direction is
//! the wall's inclination γ, its length the foot span d) and y3 = h the body's clearance; the
//! joints x = (θ_b, q_fU, q_tU, q_fL, q_tL) are the body's pitch and the femur and tibia of the
//! front and rear leg pairs; the two-dimensional self-motion is the body's tilt and slide between
//! the feet; the cost is the magnet pull the feet need under the equal-joint-stiffness force
//! distribution, plus the passive ankles' centring and a soft tilt term.
//!
//! - [`body`]: the geometry, the task and its analytic Jacobian;
//! - [`statics`]: the masses, the ankle forces and the adhesion each pair needs;
//! - [`cost`]: the cost terms (`adhesion`, `ankles`, `tilt`);
//! - [`stance`](mod@stance): the closed-form stance of a placement (γ, d, h, α, c).

pub mod body;
pub mod cost;
pub mod sketch;
pub mod stance;
pub mod statics;

use std::any::Any;
use std::sync::Arc;

use crate::cost::{CostSpec, CostTerm, Term, TermSpec};
use crate::error::Result;
use crate::problem::capability::{Domain, PlaneView, Search, Statics};
use crate::problem::presentation::ContactLoad;
use crate::problem::region::Region;
use crate::problem::sketch::Sketch;
use crate::problem::{
    Basics, Capabilities, DlsTuning, JointLimits, Kinematics, Problem, ProblemSpec, Profile,
    Reachability, TaskSpace, View,
};

use body::{Stance, ANKLE_MAX, BODY_END, FEMUR, PAD, PIVOT_U, PIVOT_V, TIBIA};
use cost::{ClimberTerm, Part};
use stance::{placement_of, stance};

/// The kind's name in model files.
pub const KIND: &str = "climber";
/// The preset's name.
pub const NAME: &str = "climber";

/// The climber in the registry (its cost: [`default_cost`]).
pub const REGISTRY_ENTRY: super::entry::KindEntry = super::entry::KindEntry {
    kind: KIND,
    presets: &[NAME],
    build: |spec, limits| Ok(Arc::new(Climber::new(&spec.name, limits)?)),
    preset: |_| Ok((Arc::new(Climber::preset()), default_cost())),
};

/// The joint box: θ_b ∈ [0, 4.2] (ours), femur [−1.571, 2.355], tibia [−2.355, 0.001] (URDF).
const LOWER: [f64; 5] = [0.0, -1.571, -2.355, -1.571, -2.355];
const UPPER: [f64; 5] = [4.2, 2.355, 0.001, 2.355, 0.001];

/// The useful domain of targets: γ ∈ [60°, 180°], d ∈ [0.30, 0.70] m, h ∈ [0.04, 0.16] m.
const INCLINATION: [f64; 2] = [std::f64::consts::FRAC_PI_3, std::f64::consts::PI];
const SPAN: [f64; 2] = [0.30, 0.70];
pub const CLEARANCE: [f64; 2] = [0.04, 0.16];

/// The side view's frame `[x0, x1, y0, y1]` (m): the useful sector and the robot in every
/// stance it takes there (its sketch sampled over the domain spans [−0.80, 0.42] × [−0.23,
/// 0.85]), with a margin.
const SKETCH_BOUNDS: [f64; 4] = [-0.86, 0.46, -0.28, 0.88];

/// The latent grid of the reference search: tilt α ∈ [−0.9, 0.9] rad (46 values) × offset
/// c ∈ [−0.2, 0.2] m (41 values).
const TILTS: (f64, usize) = (0.9, 46);
const OFFSETS: (f64, usize) = (0.2, 41);
/// Grid points the reference polishes (the cheapest, inside the box).
const SEEDS: usize = 6;

/// The longest foot span any configuration has: the pivots' distance plus both legs stretched
/// (0.814 m).
pub fn max_span() -> f64 {
    2.0 * (PIVOT_U + FEMUR + TIBIA)
}

/// The largest |h|: a stretched leg's reach from the body origin, plus the pad (0.468 m).
pub fn max_clearance() -> f64 {
    PIVOT_U.hypot(PIVOT_V) + FEMUR + TIBIA + PAD
}

/// The climber's cost: adhesion + 0.03 · ankles + 0.05 · tilt (docs/climber.md §4).
pub fn default_cost() -> CostSpec {
    CostSpec {
        terms: vec![
            TermSpec::new(Term::Adhesion, 1.0),
            TermSpec::new(Term::Ankles, 0.03),
            TermSpec::new(Term::Tilt, 0.05),
        ],
    }
}

/// Whether a stance is one the robot can hold: both passive ankles within their range and both
/// body ends at or above the wall.
fn stands(stance: &Stance) -> bool {
    let ankles = [&stance.front, &stance.rear]
        .iter()
        .all(|leg| stance.ankle_cos(leg) >= ANKLE_MAX.cos());
    ankles
        && [BODY_END, -BODY_END]
            .iter()
            .all(|&u| stance.height([u, 0.0]) >= 0.0)
}

/// The climber problem.
#[derive(Debug, Clone)]
pub struct Climber {
    basics: Basics,
}

impl Climber {
    /// The climber with the joint box `limits` (five joints).
    pub fn new(name: &str, limits: JointLimits) -> Result<Self> {
        if limits.len() != 5 {
            return Err(crate::error::LoinkError::OutOfRange {
                what: "climber joints".into(),
                detail: format!("{} joints given, the climber has 5", limits.len()),
            });
        }
        Ok(Self::with(name, limits))
    }

    /// The preset: the box of docs/climber.md.
    pub fn preset() -> Self {
        let limits = JointLimits::new(LOWER.to_vec(), UPPER.to_vec())
            .unwrap_or_else(|_| unreachable!("constant limits are ordered"));
        Self::with(NAME, limits)
    }

    fn with(name: &str, limits: JointLimits) -> Self {
        Self {
            basics: Basics {
                kind: KIND,
                name: name.to_string(),
                limits,
                task: TaskSpace::euclidean(&["y1", "y2", "y3"]),
                profile: profile(),
            },
        }
    }

    /// The stances of target y on the latent grid that lie inside the box, with their ankles
    /// within their range and both body ends clear of the wall: the postures a robot standing
    /// on these footholds can take (what a comparison over "every posture" ranges over).
    pub fn postures<'a>(&'a self, y: &'a [f64]) -> impl Iterator<Item = [f64; 5]> + 'a {
        self.grid(y).filter(|x| stands(&Stance::new(x)))
    }

    /// The stances of target y on the latent grid that lie inside the box.
    fn grid<'a>(&'a self, y: &'a [f64]) -> impl Iterator<Item = [f64; 5]> + 'a {
        let step = |(half, count): (f64, usize), i: usize| {
            -half + 2.0 * half * i as f64 / (count - 1) as f64
        };
        let placements = (0..TILTS.1).flat_map(move |i| {
            (0..OFFSETS.1).map(move |k| placement_of(y, step(TILTS, i), step(OFFSETS, k)))
        });
        placements
            .filter_map(|placement| stance(&placement))
            .filter(|x| self.basics.limits.margin(x) >= 0.0)
    }
}

impl Kinematics for Climber {
    fn basics(&self) -> &Basics {
        &self.basics
    }
    fn spec(&self) -> ProblemSpec {
        ProblemSpec {
            task_dim: 3,
            ..ProblemSpec::with_box(KIND, &self.basics.name, &self.basics.limits)
        }
    }
    fn forward_into(&self, q: &[f64], y: &mut [f64]) {
        y[..3].copy_from_slice(&Stance::new(q).task());
    }
    fn jacobian_into(&self, q: &[f64], y: &mut [f64], jac: &mut [f64]) {
        let stance = Stance::new(q);
        y[..3].copy_from_slice(&stance.task());
        stance.task_jacobian(jac);
    }
    /// Proved unreachable: a foot span beyond both legs stretched out from their pivots, or a
    /// clearance beyond a stretched leg's reach from the body origin. Decided on the
    /// reference's latent grid: reachable when a grid stance lies in the box (existence is all
    /// the verdict needs: no cost is evaluated).
    fn reachability(&self, y: &[f64], search: Option<&Problem>) -> Reachability {
        if y.len() != 3 || y.iter().any(|v| !v.is_finite()) {
            return Reachability::Unknown;
        }
        if y[0].hypot(y[1]) > max_span() || y[2].abs() > max_clearance() {
            return Reachability::Unreachable;
        }
        match search {
            None => Reachability::Unknown,
            Some(_) if self.grid(y).next().is_none() => Reachability::Unreachable,
            Some(_) => Reachability::Reachable,
        }
    }
    fn cost_term(&self, term: &TermSpec) -> Option<Arc<dyn CostTerm>> {
        self.cost_terms_together(std::slice::from_ref(term))
    }
    fn cost_terms_together(&self, terms: &[TermSpec]) -> Option<Arc<dyn CostTerm>> {
        let parts = terms
            .iter()
            .map(|term| match term.term {
                Term::Adhesion => Some((Part::Adhesion, term.weight)),
                Term::Ankles => Some((Part::Ankles, term.weight)),
                Term::Tilt => Some((Part::Tilt, term.weight)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        (!parts.is_empty()).then(|| Arc::new(ClimberTerm { parts }) as Arc<dyn CostTerm>)
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            view: Some(View::Plane(self)),
            domain: Some(self),
            statics: Some(self),
            search: Some(self),
            simulator: None,
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The climber's facts: √(d_max² + h_max²) = 0.939 m of workspace radius ([`max_span`],
/// [`max_clearance`]), a 0.5 m span for DLS's damping, and its DLS tuning: the default pull
/// (k = 0.1 down to 10⁻⁶) ran every solve to the 500-step cap, its gradient being differences
/// of the adhesion; k = 0.5 down to 10⁻⁴ ends in a median of 115 steps with the task met as
/// often (docs/climber.md). A view opens on a vertical wall climbed head-up, span 0.5 m,
/// clearance 8 cm.
fn profile() -> Profile {
    Profile {
        task_scale: 0.5,
        dls: Some(DlsTuning {
            nullspace_gain: 0.5,
            nullspace_tol: 1e-4,
            restarts: 16,
            error_damping: false,
            max_iters: 500,
        }),
        default_target: Some(vec![0.0, 0.5, 0.08]),
        ..Profile::new(
            "Magneto on a wall (side view): 5 joints, a 2-D latent",
            max_span().hypot(max_clearance()),
        )
    }
}

impl PlaneView for Climber {
    fn sketch(&self, q: &[f64]) -> Sketch {
        sketch::sketch(q)
    }
    /// The front foot's placements about the rear one and the body hanging off either side of
    /// the wall (the ceiling's body below the feet, a 60° slope's up to the left), and a band
    /// below for the page's load bars.
    fn bounds(&self) -> Option<[f64; 4]> {
        Some(SKETCH_BOUNDS)
    }
    /// The useful domain's annulus sector (d 0.30–0.70 m, γ 60–180°) at any clearance.
    fn region(&self, _samples: usize) -> Option<Region> {
        Some(sketch::domain_region(SKETCH_BOUNDS, SPAN, INCLINATION))
    }
}

impl Domain for Climber {
    fn contains(&self, q: &[f64]) -> bool {
        let stance = Stance::new(q);
        let y = stance.task();
        let inclination = y[1].atan2(y[0]);
        let span = stance.span;
        (INCLINATION[0]..=INCLINATION[1]).contains(&inclination)
            && (SPAN[0]..=SPAN[1]).contains(&span)
            && (CLEARANCE[0]..=CLEARANCE[1]).contains(&y[2])
            && stands(&stance)
    }
    /// The wall swung from 66° to 174° and back while the span breathes over 0.42–0.64 m, the
    /// clearance against it (high on a short span, low on a long one, where the optimum keeps
    /// its ankles and body ends clear of the wall): a pointer dragging the front foot around the
    /// rear one. (Spans below 0.41 m have a second minimum 16–21 % dearer.)
    fn path(&self, t: f64) -> Option<Vec<f64>> {
        use std::f64::consts::TAU;
        let mid = (INCLINATION[0] + INCLINATION[1]) / 2.0;
        let gamma = mid + 0.9 * (INCLINATION[1] - mid) * (TAU * t).sin();
        let span = 0.53 + 0.11 * (2.0 * TAU * t + 0.7).sin();
        let clearance = 0.10 - 0.03 * (2.0 * TAU * t + 0.7).sin() + 0.01 * (6.0 * TAU * t).sin();
        Some(vec![span * gamma.cos(), span * gamma.sin(), clearance])
    }
}

impl Statics for Climber {
    fn contact_loads(&self, q: &[f64]) -> Option<Vec<ContactLoad>> {
        (q.len() == 5 && q.iter().all(|v| v.is_finite())).then(|| sketch::loads(q))
    }
    /// The untilted stance centred between the feet (α = c = 0).
    fn neutral_pose(&self, y: &[f64]) -> Option<Vec<f64>> {
        if y.len() != 3 || !y.iter().all(|v| v.is_finite()) {
            return None;
        }
        stance(&placement_of(y, 0.0, 0.0)).map(|x| x.to_vec())
    }
}

impl Search for Climber {
    /// The six cheapest grid stances by `problem`'s cost.
    fn reference_seeds(&self, problem: &Problem, y: &[f64]) -> Option<Vec<Vec<f64>>> {
        let mut costed: Vec<(f64, [f64; 5])> = self
            .grid(y)
            .map(|x| (problem.cost().value(&x), x))
            .collect();
        costed.sort_by(|a, b| a.0.total_cmp(&b.0));
        Some(
            costed
                .into_iter()
                .take(SEEDS)
                .map(|(_, x)| x.to_vec())
                .collect(),
        )
    }
}
