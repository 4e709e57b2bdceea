//! A flow solve: one sample at z = 0, or the best of K samples.
//!
//! - K = 1: x = F⁻¹(0; ỹ), the flow's most likely point of the base density, clamped into the
//!   joint box (a free projection any user of the flow would make) and replayed once.
//! - K > 1: sample 0 at z = 0, samples 1..K at z ~ N(0, s² I) (ChaCha8, seeded per solve), each
//!   clamped and replayed by the simulator — K calls. The answer is the cheapest sample (by the
//!   problem's cost) among those that land within twice the nearest sample's miss (plus the
//!   1e-6 m feasibility tolerance): IKFlow keeps the sample nearest the target; asked for a cheap
//!   answer it must keep accuracy too, or the cheapest sample would be a far miss.
//! - A problem known only from data cannot replay: the answer is sample 0, `unverified`.
//!
//! The answer is `approximate` (a learned estimate) with its replayed residual, like LOInK's
//! one-shot answer; its note says how many samples were replayed.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use super::Flow;
use crate::error::{LoinkError, Result};
use crate::report::{Solution, Termination, Tolerance};
use crate::solvers::registry::{Solver, SolverKind, SolverSettings, Start};
use crate::solvers::{clock, micros_since};

/// Most samples one solve may draw.
pub const MAX_SAMPLES: usize = 1024;
/// The solver name in reports.
pub const NAME: &str = "flow";

/// The flow as a solver: K samples at scale s, seeded per solve.
#[derive(Debug, Clone)]
pub struct FlowSolver {
    flow: Flow,
    samples: usize,
    sigma: f64,
    seed: u64,
    solves: u64,
}

impl FlowSolver {
    /// `samples` (1..=[`MAX_SAMPLES`]) per solve at scale `sigma` (finite, ≥ 0); solve r (from
    /// 0, in call order) draws from ChaCha8 seeded by `seed + r`.
    pub fn new(flow: Flow, samples: usize, sigma: f64, seed: u64) -> Result<Self> {
        if !(1..=MAX_SAMPLES).contains(&samples) {
            return Err(LoinkError::OutOfRange {
                what: "flow samples".into(),
                detail: format!("{samples} (need 1..={MAX_SAMPLES})"),
            });
        }
        if !(sigma.is_finite() && (0.0..=10.0).contains(&sigma)) {
            return Err(LoinkError::OutOfRange {
                what: "flow sigma".into(),
                detail: format!("{sigma} (need a finite scale in [0, 10])"),
            });
        }
        Ok(Self {
            flow,
            samples,
            sigma,
            seed,
            solves: 0,
        })
    }

    /// The flow.
    pub fn flow(&self) -> &Flow {
        &self.flow
    }
    /// Samples per solve K.
    pub fn samples(&self) -> usize {
        self.samples
    }
    /// Restarts the per-solve seeds (the next solve draws from `seed` again).
    pub fn reset(&mut self) {
        self.solves = 0;
    }

    /// The latent points of the next solve: z = 0, then K − 1 draws at scale s.
    fn latents(&mut self) -> Vec<Vec<f64>> {
        let n = self.flow.problem().dof();
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed.wrapping_add(self.solves));
        self.solves += 1;
        let normal = Normal::new(0.0, 1.0).expect("unit normal");
        let mut out = vec![vec![0.0; n]];
        for _ in 1..self.samples {
            out.push(
                (0..n)
                    .map(|_| self.sigma * normal.sample(&mut rng))
                    .collect(),
            );
        }
        out
    }

    /// Every sample of the next solve for `target`, clamped into the limits and each judged by
    /// replay (K simulator calls); sample 0 is z = 0. Each reports K iterations (the samples drawn).
    pub fn candidates(&mut self, target: &[f64]) -> Result<Vec<Solution>> {
        self.flow.problem().check_target(target)?;
        let start = clock();
        let latents = self.latents();
        let k = latents.len();
        let problem = self.flow.problem();
        let limits = problem.limits();
        let mut poses = Vec::with_capacity(self.samples);
        for z in latents {
            let mut x = self.flow.decode(target, &z)?;
            limits.clamp(&mut x);
            poses.push(x);
        }
        let micros = micros_since(start);
        Ok(poses
            .into_iter()
            .map(|x| {
                Solution::assess_replayed(
                    problem,
                    NAME,
                    target,
                    None,
                    (x, None),
                    k,
                    micros,
                    Termination::Approximate,
                    false,
                )
            })
            .collect())
    }

    /// The answer for `target` (see the module docs); bad input gives an `invalid` solution.
    pub fn solve(&mut self, target: &[f64]) -> Solution {
        let start = clock();
        let candidates = match self.candidates(target) {
            Ok(c) if !c.is_empty() => c,
            _ => return Solution::invalid(NAME, target, micros_since(start)),
        };
        let k = candidates.len();
        let nearest = candidates
            .iter()
            .map(Solution::residual)
            .fold(f64::INFINITY, f64::min);
        let accept = 2.0 * nearest + Tolerance::CLASSICAL.residual;
        let best = if nearest.is_finite() {
            candidates
                .into_iter()
                .filter(|c| c.residual() <= accept)
                .min_by(|a, b| a.cost().total_cmp(&b.cost()))
        } else {
            candidates.into_iter().next()
        };
        let micros = micros_since(start);
        match best {
            Some(answer) if k > 1 => answer
                .with_micros(micros)
                .with_note(format!("cheapest near sample of {k} (σ = {})", self.sigma)),
            Some(answer) => answer.with_micros(micros),
            None => Solution::invalid(NAME, target, micros),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_file;
    use super::*;
    use crate::report::Status;

    #[test]
    fn one_sample_is_z_zero_and_costs_one_call() {
        let flow = Flow::new(random_file(2)).unwrap();
        let y = [0.005, 0.125];
        let expected = flow.decode(&y, &[0.0; 4]).unwrap();
        let mut solver = FlowSolver::new(flow.clone(), 1, 0.5, 9).unwrap();
        let before = flow.problem().capabilities().simulator.unwrap().calls();
        let answer = solver.solve(&y);
        let after = flow.problem().capabilities().simulator.unwrap().calls();
        assert_eq!(after - before, 1);
        let mut clamped = expected;
        flow.problem().limits().clamp(&mut clamped);
        assert_eq!(answer.q(), clamped.as_slice());
        assert!(answer.margin() >= 0.0);
        assert!(matches!(
            answer.status(),
            Status::Approximate | Status::Converged
        ));
    }

    #[test]
    fn best_of_k_costs_k_calls_and_is_seeded() {
        let flow = Flow::new(random_file(4)).unwrap();
        let y = [-0.01, 0.12];
        let mut a = FlowSolver::new(flow.clone(), 8, 0.7, 3).unwrap();
        let mut b = FlowSolver::new(flow.clone(), 8, 0.7, 3).unwrap();
        let before = flow.problem().capabilities().simulator.unwrap().calls();
        let first = a.solve(&y);
        let after = flow.problem().capabilities().simulator.unwrap().calls();
        assert_eq!(after - before, 8);
        assert_eq!(first.q(), b.solve(&y).q());
        let candidates = b.candidates(&y).unwrap();
        assert_eq!(candidates.len(), 8);
        // Solve r draws from seed + r: the same solve of two solvers agrees, the next differs.
        assert_eq!(candidates[1].q(), a.candidates(&y).unwrap()[1].q());
        assert_ne!(candidates[1].q(), a.candidates(&y).unwrap()[1].q());
        let nearest = candidates
            .iter()
            .map(Solution::residual)
            .fold(f64::INFINITY, f64::min);
        assert!(first.residual() <= 2.0 * nearest + 1e-6 + 1e-12);
    }

    #[test]
    fn bad_input_is_invalid_and_bad_settings_are_refused() {
        let flow = Flow::new(random_file(1)).unwrap();
        let mut solver = FlowSolver::new(flow.clone(), 4, 0.5, 0).unwrap();
        assert_eq!(solver.solve(&[f64::NAN, 0.1]).status(), Status::Invalid);
        assert_eq!(solver.solve(&[0.1]).status(), Status::Invalid);
        assert!(FlowSolver::new(flow.clone(), 0, 0.5, 0).is_err());
        assert!(FlowSolver::new(flow.clone(), 4, f64::NAN, 0).is_err());
        assert!(FlowSolver::new(flow, MAX_SAMPLES + 1, 0.5, 0).is_err());
    }
}

impl crate::solvers::learned::Learned for Flow {
    fn problem(&self) -> &crate::problem::Problem {
        Flow::problem(self)
    }
    fn solver(&self, settings: &SolverSettings) -> Result<Box<dyn Solver>> {
        Flow::solver(self, settings)
    }
    fn native_solver(&self) -> SolverKind {
        SolverKind::Flow
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Flow {
    /// The flow as a registry solver: `settings.samples` samples per solve at scale
    /// `settings.sigma` (1: the z = 0 sample). Cold (`loink eval`), solve r is seeded by
    /// `settings.seed + r`; tracking a pointer (`Start::Warm`, the page) every solve draws from
    /// `settings.seed` itself, so a link's answer does not depend on the solves before it.
    pub fn solver(&self, settings: &SolverSettings) -> Result<Box<dyn Solver>> {
        if settings.kind != SolverKind::Flow {
            return Err(LoinkError::UnsupportedSolver {
                solver: settings.kind.as_str().into(),
                reason: "a flow model builds the flow baseline only".into(),
            });
        }
        let solver = FlowSolver::new(
            self.clone(),
            settings.samples,
            settings.sigma,
            settings.seed,
        )?;
        Ok(Box::new(FlowBaseline {
            solver,
            same_seed: settings.start == Start::Warm,
        }))
    }
}

/// The flow as a registry solver.
#[derive(Clone)]
struct FlowBaseline {
    solver: FlowSolver,
    same_seed: bool,
}

impl Solver for FlowBaseline {
    fn kind(&self) -> SolverKind {
        SolverKind::Flow
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        if self.same_seed {
            self.solver.reset();
        }
        self.solver.solve(target)
    }
    fn reset(&mut self) {
        self.solver.reset();
    }
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}
