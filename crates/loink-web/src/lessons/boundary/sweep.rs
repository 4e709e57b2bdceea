//! The boundary lesson's measurements: the target walked along a straight line from well inside
//! planar3's workspace to 5 cm past its edge in 1 mm steps, every method solving every point
//! ([`Sweep`]), and the re-seeding counts after a simulated contact ([`Reseed`]).
//!
//! The signed distance d to the boundary (negative inside) comes from the reference's own
//! reachability: the edge is where the reference's status turns from `converged` to
//! `unreachable`, found by bisection along the line, so no formula for one arm enters it.

use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::{dls, reference};
use loink::surrogate::Loink;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::lessons::EdgeKind;

/// A straight line the target walks: its first point (m, inside the workspace) and its unit
/// direction.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Line {
    /// First point (m).
    pub start: [f64; 2],
    /// Unit direction.
    pub direction: [f64; 2],
}

impl Line {
    /// The line across `edge`: radially out through the reach circle 20° above the x axis
    /// (the arm stretched straight at the edge: a singular posture), or leftwards across the
    /// edge the shoulder's −π/2 limit draws below the base (the arm points down, its elbow
    /// curled; the reach circle is far, so only the full decision says `unreachable`).
    pub fn across(edge: EdgeKind) -> Line {
        match edge {
            EdgeKind::Reach => {
                let (s, c) = 20f64.to_radians().sin_cos();
                Line {
                    start: [0.95 * c, 0.95 * s],
                    direction: [c, s],
                }
            }
            EdgeKind::Limit => Line {
                start: [0.45, -0.55],
                direction: [-1.0, 0.0],
            },
        }
    }

    /// The point at distance `t` along the line.
    pub fn point(&self, t: f64) -> [f64; 2] {
        [
            self.start[0] + t * self.direction[0],
            self.start[1] + t * self.direction[1],
        ]
    }

    /// The distance along the line of `p`'s projection on it.
    pub fn along(&self, p: [f64; 2]) -> f64 {
        (p[0] - self.start[0]) * self.direction[0] + (p[1] - self.start[1]) * self.direction[1]
    }
}

/// The step along the line (m).
pub const STEP_M: f64 = 1e-3;
/// How far past the edge the sweep goes (m).
pub const PAST_EDGE_M: f64 = 0.05;
/// Bisection steps on the reference's verdict: the edge to 4 nm.
const BISECTIONS: usize = 28;
/// The reference's φ samples along the line: a quarter of its default 40,000, so the lesson is
/// ready in about a second in the page. On every point of both lines it gives the default's
/// status and cost (`crates/loink-web/src/lessons/boundary/tests.rs`): the narrowest feasible
/// piece 1 mm inside an edge is several sample spacings wide.
pub const REFERENCE_SAMPLES: usize = 10_000;
/// DLS's iterations per point along the line: a trajectory's real-time budget, as the
/// simulators' IK loops run it (the solver's own cap is 500).
pub const WARM_ITERATIONS: usize = 10;
/// The polish steps after LOInK's inverse.
pub const REFINE_STEPS: usize = 3;
/// Contact deflections of the re-seeding experiment (m).
pub const CONTACTS_M: [f64; 3] = [0.5e-3, 1e-3, 2e-3];
/// Points of the line (inside) at which the re-seeding is measured, per deflection.
const RESEED_POINTS: usize = 24;
/// The seed of the contacts' directions.
const CONTACT_SEED: u64 = 0xC0_47AC7;

/// The methods the sweep compares, in the panels' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// DLS from the previous point's answer with a real-time budget of [`WARM_ITERATIONS`] per
    /// point (a trajectory's habit).
    DlsWarm,
    /// DLS from the mid-range seed at every point.
    DlsCold,
    /// LOInK's one-shot inverse, x = G⁻¹([y; 0]).
    LoinkOneShot,
    /// LOInK's inverse and three polish steps.
    LoinkRefine,
    /// The global reference optimum (the φ sweep).
    Reference,
}

impl Method {
    /// Every method, panel order.
    pub const ALL: [Method; 5] = [
        Method::DlsWarm,
        Method::DlsCold,
        Method::LoinkOneShot,
        Method::LoinkRefine,
        Method::Reference,
    ];
    /// The key in `getState().lesson.sweep`.
    pub fn key(self) -> &'static str {
        match self {
            Method::DlsWarm => "dls-warm",
            Method::DlsCold => "dls-cold",
            Method::LoinkOneShot => "loink",
            Method::LoinkRefine => "loink-refine",
            Method::Reference => "reference",
        }
    }
    /// The name on the page.
    pub fn name(self) -> &'static str {
        match self {
            Method::DlsWarm => "DLS warm, 10 iterations a step",
            Method::DlsCold => "DLS from mid-range",
            Method::LoinkOneShot => "LOInK one-shot",
            Method::LoinkRefine => "LOInK + refine 3",
            Method::Reference => "reference",
        }
    }
    fn learned(self) -> bool {
        matches!(self, Method::LoinkOneShot | Method::LoinkRefine)
    }
}

/// One method at one point of the line (`getState().lesson.sweep`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Signed distance to the edge (m; negative inside).
    pub d_m: f64,
    /// The method's key.
    pub method: &'static str,
    /// The target (m).
    pub target: [f64; 2],
    /// The answer's joints (rad).
    pub q: Vec<f64>,
    /// ‖p(q) − y‖ by forward replay (m).
    pub residual_m: f64,
    /// The status, one meaning for every solver.
    pub status: &'static str,
    /// The solver's iterations (the reference's sweep counts 1).
    pub iterations: usize,
}

/// Where a method's answers stop being `converged`, and what it says past the edge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Switch {
    /// The method's key.
    pub method: &'static str,
    /// The largest d (m) at which it is `converged` (None: nowhere).
    pub converged_until_m: Option<f64>,
    /// Its points at least 1 mm inside the edge that are not `converged`.
    pub unconverged_inside: usize,
    /// The first d (m) past which every answer is `unreachable` (None: some answer past the
    /// edge says something else to the end).
    pub unreachable_from_m: Option<f64>,
    /// Its residual (m) 5 cm inside the edge and 1 cm inside it: the warning sign.
    pub residual_5cm_in_m: f64,
    /// See above.
    pub residual_1cm_in_m: f64,
    /// Answers past the edge (d ≥ 1 mm) that say anything but `unreachable`, and their statuses.
    pub past_edge_not_unreachable: usize,
    /// The statuses it gives past the edge (d ≥ 1 mm), each once, in order of first use.
    pub statuses_past_edge: Vec<&'static str>,
}

/// The sweep along the line.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The line.
    pub line: Line,
    /// The edge's distance from the line's first point (m).
    pub edge_m: f64,
    /// The rows, method after method within each point, points inwards to outwards.
    pub rows: Vec<Row>,
    /// Each method's status switch.
    pub switches: Vec<Switch>,
}

/// Whether the reference reaches the point at `t` (its verdict: `converged`).
fn reached(problem: &Problem, line: &Line, t: f64) -> bool {
    reference_at(problem, &line.point(t)).status() == Status::Converged
}

/// The reference optimum at `target` ([`REFERENCE_SAMPLES`] φ samples).
pub fn reference_at(problem: &Problem, target: &[f64]) -> Solution {
    reference::planar::solve_with_samples(problem, target, REFERENCE_SAMPLES)
}

/// The edge along the line: the reference's verdict bisected between a point it reaches and
/// one it proves out of reach (`None` when the line's ends do not bracket a crossing).
pub fn edge(problem: &Problem, line: &Line) -> Option<f64> {
    let (mut inside, mut outside) = (0.0, 1.0);
    if !reached(problem, line, inside) || reached(problem, line, outside) {
        return None;
    }
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (inside + outside);
        if reached(problem, line, mid) {
            inside = mid;
        } else {
            outside = mid;
        }
    }
    Some(0.5 * (inside + outside))
}

fn row(method: Method, d: f64, target: [f64; 2], s: &Solution) -> Row {
    Row {
        d_m: d,
        method: method.key(),
        target,
        q: s.q().to_vec(),
        residual_m: s.residual(),
        status: s.status().as_str(),
        iterations: s.iterations(),
    }
}

impl Sweep {
    /// Solves every point of the line with every method (the learned ones only when `loink` is
    /// given). `None` when the line does not cross the edge.
    pub fn run(problem: &Problem, loink: Option<&Loink>, line: Line) -> Option<Sweep> {
        let edge_m = edge(problem, &line)?;
        let steps = ((edge_m + PAST_EDGE_M) / STEP_M).floor() as usize;
        let options = dls::DlsOptions::for_problem(problem);
        let budget = dls::DlsOptions {
            max_iters: WARM_ITERATIONS,
            ..options
        };
        let mid = problem.limits().centres();
        let one_shot = loink.map(|m| m.clone().with_feedback(0));
        let refined = one_shot.clone().map(|m| m.with_refinement(REFINE_STEPS));
        let mut warm = mid.clone();
        let mut rows = Vec::with_capacity((steps + 1) * Method::ALL.len());
        for k in 0..=steps {
            let t = k as f64 * STEP_M;
            let (d, target) = (t - edge_m, line.point(t));
            for method in Method::ALL {
                let solution = match method {
                    Method::DlsWarm => {
                        // The trajectory starts from a solved posture.
                        let first = if k == 0 { &options } else { &budget };
                        let s = dls::solve(problem, &target, &warm, first);
                        warm = s.q().to_vec();
                        s
                    }
                    Method::DlsCold => dls::solve(problem, &target, &mid, &options),
                    Method::LoinkOneShot => match &one_shot {
                        Some(m) => m.solve_cold(&target),
                        None => continue,
                    },
                    Method::LoinkRefine => match &refined {
                        Some(m) => m.solve_cold(&target),
                        None => continue,
                    },
                    Method::Reference => reference_at(problem, &target),
                };
                rows.push(row(method, d, target, &solution));
            }
        }
        let switches = Method::ALL
            .into_iter()
            .filter(|m| loink.is_some() || !m.learned())
            .map(|m| switch(&rows, m))
            .collect();
        Some(Sweep {
            line,
            edge_m,
            rows,
            switches,
        })
    }

    /// The rows of `method`, inwards to outwards.
    pub fn of(&self, method: Method) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(move |r| r.method == method.key())
    }

    /// The row of `method` nearest signed distance `d` (m).
    pub fn nearest(&self, method: Method, d: f64) -> Option<&Row> {
        nearest(self.of(method), d)
    }
}

/// The row of `rows` nearest signed distance `d` (m).
pub fn nearest<'a>(rows: impl Iterator<Item = &'a Row>, d: f64) -> Option<&'a Row> {
    rows.min_by(|a, b| (a.d_m - d).abs().total_cmp(&(b.d_m - d).abs()))
}

fn switch(rows: &[Row], method: Method) -> Switch {
    let mine: Vec<&Row> = rows.iter().filter(|r| r.method == method.key()).collect();
    let converged_until_m = mine
        .iter()
        .filter(|r| r.status == "converged")
        .map(|r| r.d_m)
        .reduce(f64::max);
    let unconverged_inside = mine
        .iter()
        .filter(|r| r.d_m <= -1e-3 && r.status != "converged")
        .count();
    let unreachable_from_m = mine
        .iter()
        .rev()
        .take_while(|r| r.status == "unreachable")
        .last()
        .map(|r| r.d_m);
    let residual_at = |d: f64| nearest(mine.iter().copied(), d).map_or(f64::NAN, |r| r.residual_m);
    let past: Vec<&&Row> = mine.iter().filter(|r| r.d_m >= 1e-3).collect();
    let mut statuses_past_edge: Vec<&'static str> = Vec::new();
    for r in &past {
        if !statuses_past_edge.contains(&r.status) {
            statuses_past_edge.push(r.status);
        }
    }
    Switch {
        method: method.key(),
        converged_until_m,
        unconverged_inside,
        unreachable_from_m,
        residual_5cm_in_m: residual_at(-0.05),
        residual_1cm_in_m: residual_at(-0.01),
        past_edge_not_unreachable: past.iter().filter(|r| r.status != "unreachable").count(),
        statuses_past_edge,
    }
}

/// DLS's iterations back onto the target after a contact, from the stale seed against the
/// measured joints, for one contact deflection (`getState().lesson.reseed`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reseed {
    /// The contact's deflection of the hand (m).
    pub contact_m: f64,
    /// Points measured.
    pub points: usize,
    /// DLS's iterations from the answer before the contact (the stale seed), mean.
    pub stale_iterations: f64,
    /// … from the joints measured after it, mean.
    pub measured_iterations: f64,
    /// Points where the stale seed took more iterations than the measured joints.
    pub stale_slower: usize,
    /// LOInK's cold answer (no seed): its iterations (the inverse's Newton steps and the polish),
    /// mean.
    pub loink_iterations: Option<f64>,
    /// How many of the three kinds of answer converged, of `points` each: stale, measured, LOInK.
    pub converged: [usize; 3],
}

/// The re-seeding experiment: at points spread over the inside of the line, the arm holds the
/// reference's answer; a contact pushes its hand by `contact` (a seeded direction) through the
/// Jacobian, q_c = q + J⁺δ; the next target is the pushed hand moved one step on along the
/// line (the task is stated from where the hand is now, as after a touch). DLS solves it from
/// the stale answer q and from the measured q_c; LOInK needs no seed.
pub fn reseed(problem: &Problem, sweep: &Sweep, loink: Option<&Loink>) -> Vec<Reseed> {
    let options = dls::DlsOptions::for_problem(problem);
    let refined = loink.map(|m| m.clone().with_feedback(0).with_refinement(REFINE_STEPS));
    let inside: Vec<&Row> = sweep
        .of(Method::Reference)
        .filter(|r| r.status == "converged" && r.d_m <= -0.01)
        .collect();
    let every = (inside.len() / RESEED_POINTS).max(1);
    let chosen: Vec<&Row> = inside
        .into_iter()
        .step_by(every)
        .take(RESEED_POINTS)
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(CONTACT_SEED);
    CONTACTS_M
        .iter()
        .map(|&contact| {
            let (mut stale, mut measured, mut learned) = (0usize, 0usize, 0usize);
            let (mut slower, mut converged) = (0usize, [0usize; 3]);
            for r in &chosen {
                let angle = rng.random_range(0.0..std::f64::consts::TAU);
                let push = [contact * angle.cos(), contact * angle.sin()];
                let pushed = deflect(problem, &r.q, push);
                let hand = problem.position(&pushed);
                let next = [
                    hand[0] + STEP_M * sweep.line.direction[0],
                    hand[1] + STEP_M * sweep.line.direction[1],
                ];
                let from_stale = dls::solve(problem, &next, &r.q, &options);
                let from_measured = dls::solve(problem, &next, &pushed, &options);
                stale += from_stale.iterations();
                measured += from_measured.iterations();
                slower += usize::from(from_stale.iterations() > from_measured.iterations());
                converged[0] += usize::from(from_stale.status() == Status::Converged);
                converged[1] += usize::from(from_measured.status() == Status::Converged);
                if let Some(m) = &refined {
                    let cold = m.solve_cold(&next);
                    learned += cold.iterations();
                    converged[2] += usize::from(cold.status() == Status::Converged);
                }
            }
            let n = chosen.len().max(1) as f64;
            Reseed {
                contact_m: contact,
                points: chosen.len(),
                stale_iterations: stale as f64 / n,
                measured_iterations: measured as f64 / n,
                stale_slower: slower,
                loink_iterations: refined.as_ref().map(|_| learned as f64 / n),
                converged,
            }
        })
        .collect()
}

/// q moved so that its hand moves by `push` to first order: q + J⁺ δ (the minimum-norm joint
/// move), clamped into the limits.
fn deflect(problem: &Problem, q: &[f64], push: [f64; 2]) -> Vec<f64> {
    let mut jac = loink::solvers::linalg::Jacobian::for_problem(problem);
    jac.eval(problem, q);
    let mut step = vec![0.0; q.len()];
    jac.task_step(None, &push, 0.0, &mut step);
    let mut moved: Vec<f64> = q.iter().zip(&step).map(|(a, b)| a + b).collect();
    problem.limits().clamp(&mut moved);
    moved
}
