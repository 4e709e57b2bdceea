//! The benchmarked methods, each a closure from (target index, target) to labelled solutions.
//!
//! Every Rust solver is timed here around its call alone (`Instant`), so all methods are
//! measured the same way; IPOPT's time comes from inside its Python process, around its solve
//! call alone. Warm-start methods keep their state across the calls of one target set, which
//! the driver visits in path order.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use loink::problem::Problem;
use loink::report::{Solution, Status, Termination};
use loink::solvers::registry::{SolverKind, SolverSettings, Start as SolverStart};

use super::ipopt::{Attempt, IpoptServer, Start};

/// One labelled answer: the solution (its `micros` is wall time) and the CPU time (µs).
pub type Answer = (String, Solution, f64);

/// Labelled answers of one method on one target (best-of-K gives one per K).
pub type Answers = Vec<Answer>;

/// A method's solve: (target index, target) to its labelled answers.
pub type Solve = Box<dyn FnMut(usize, &[f64]) -> Result<Answers, String>>;

/// A method: solves target `index` of its set.
pub struct Method {
    /// Short name for progress messages.
    pub name: String,
    /// The solve.
    pub run: Solve,
}

/// This thread's CPU time in µs (CLOCK_THREAD_CPUTIME_ID; NaN if the clock is unavailable).
pub fn thread_cpu_micros() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass, which lives on this stack frame.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 * 1e6 + ts.tv_nsec as f64 / 1e3
    } else {
        f64::NAN
    }
}

/// Runs `f`; returns the solution stamped with the call's wall time (µs) and its CPU time (µs).
pub fn timed(f: impl FnOnce() -> Solution) -> (Solution, f64) {
    let cpu = thread_cpu_micros();
    let start = Instant::now();
    let solution = f();
    let micros = start.elapsed().as_secs_f64() * 1e6;
    let cpu = thread_cpu_micros() - cpu;
    (solution.with_micros(micros), cpu)
}

fn answer(label: &str, (solution, cpu): (Solution, f64)) -> Answer {
    (label.to_string(), solution, cpu)
}

/// A registry solver as a benchmark method: `label` on every answer, each call timed alone.
pub fn registered(
    label: &str,
    problem: &Problem,
    model: Option<&loink::surrogate::ChartSet>,
    settings: SolverSettings,
) -> Result<Method, String> {
    let model = model.cloned().map(loink::model::LearnedModel::from);
    let mut solver =
        loink::model::solver(problem, model.as_ref(), &settings).map_err(|e| e.to_string())?;
    let label = label.to_string();
    Ok(Method {
        name: label.clone(),
        run: Box::new(move |_, y| Ok(vec![answer(&label, timed(|| solver.solve(y)))])),
    })
}

/// The global reference optimum J* (its time is reported like any other method's).
pub fn reference(problem: Rc<Problem>) -> Result<Method, String> {
    registered(
        "reference J*",
        &problem,
        None,
        SolverSettings::new(SolverKind::Reference),
    )
}

/// The closed form along a free joint, searched (the Panda's pose task), where the problem has
/// one (`None` elsewhere).
pub fn closed_form_search(problem: &Rc<Problem>) -> Option<Method> {
    let kind = SolverKind::ClosedFormSearch;
    loink::solvers::registry::applies(kind, problem).ok()?;
    registered(
        "closed form + q7 search",
        problem,
        None,
        SolverSettings::new(kind),
    )
    .ok()
}

/// DLS with null-space cost descent from the mid-range seed c.
pub fn dls_mid(problem: Rc<Problem>) -> Result<Method, String> {
    registered(
        "dls (mid seed)",
        &problem,
        None,
        SolverSettings::new(SolverKind::Dls),
    )
}

/// DLS warm-started from its own previous answer along the path (the first from c).
pub fn dls_warm(problem: Rc<Problem>) -> Result<Method, String> {
    registered(
        "dls (warm)",
        &problem,
        None,
        SolverSettings {
            start: SolverStart::Warm,
            ..SolverSettings::new(SolverKind::Dls)
        },
    )
}

/// Judges one IPOPT attempt by forward-kinematics replay, like every Rust solver.
fn judge(problem: &Problem, label: &str, y: &[f64], a: &Attempt) -> Solution {
    let termination = if a.succeeded {
        Termination::Converged
    } else {
        Termination::IterationCap
    };
    Solution::assess(
        problem,
        label,
        y,
        None,
        a.q.clone(),
        a.iterations,
        a.micros,
        termination,
    )
}

/// IPOPT from the mid-range seed c: the "one IPOPT call" every speed ratio divides.
pub fn ipopt_mid(problem: Rc<Problem>, server: Rc<RefCell<IpoptServer>>) -> Method {
    Method {
        name: "ipopt mid".into(),
        run: Box::new(move |i, y| {
            let attempts = server.borrow_mut().solve(i, y, &Start::MidRange)?;
            let a = attempts.first().ok_or("IPOPT gave no answer")?;
            Ok(vec![(
                IPOPT_MID.into(),
                judge(&problem, IPOPT_MID, y, a),
                a.cpu_micros,
            )])
        }),
    }
}

/// Label of the baseline method.
pub const IPOPT_MID: &str = "ipopt (mid seed)";

/// Label of IPOPT's best of the first k random starts.
pub fn best_of_label(k: usize) -> String {
    if k == 1 {
        "ipopt (random seed)".into()
    } else {
        format!("ipopt best of {k}")
    }
}

/// IPOPT from `starts` random seeds; yields best-of-k for every k ≤ `starts` (prefixes of the
/// same starts: best-of-k's time is the sum of its k calls).
pub fn ipopt_best_of(
    problem: Rc<Problem>,
    server: Rc<RefCell<IpoptServer>>,
    starts: usize,
) -> Method {
    Method {
        name: format!("ipopt random ×{starts}"),
        run: Box::new(move |i, y| {
            let attempts = server.borrow_mut().solve(i, y, &Start::Random(starts))?;
            let mut best: Option<Solution> = None;
            let (mut micros, mut cpu, mut iterations) = (0.0, 0.0, 0);
            let mut out = Vec::new();
            for (k, a) in attempts.iter().enumerate() {
                micros += a.micros;
                cpu += a.cpu_micros;
                iterations += a.iterations;
                let s = judge(&problem, "ipopt", y, a);
                if best.as_ref().is_none_or(|b| s.is_better_than(b)) {
                    best = Some(s);
                }
                let b = best.as_ref().ok_or("no IPOPT attempt")?;
                let label = best_of_label(k + 1);
                let prefix = Solution::assess(
                    &problem,
                    &label,
                    y,
                    None,
                    b.q().to_vec(),
                    iterations,
                    micros,
                    if b.status() == Status::Converged {
                        Termination::Converged
                    } else {
                        Termination::IterationCap
                    },
                );
                out.push((label, prefix, cpu));
            }
            Ok(out)
        }),
    }
}

/// IPOPT warm-started from its own previous answer along the path (the first from c).
pub fn ipopt_warm(problem: Rc<Problem>, server: Rc<RefCell<IpoptServer>>) -> Method {
    let mut seed: Option<Vec<f64>> = None;
    Method {
        name: "ipopt warm".into(),
        run: Box::new(move |i, y| {
            let start = seed.clone().map_or(Start::MidRange, Start::From);
            let attempts = server.borrow_mut().solve(i, y, &start)?;
            let a = attempts.first().ok_or("IPOPT gave no answer")?;
            let s = judge(&problem, "ipopt (warm)", y, a);
            if s.status() != Status::Invalid {
                seed = Some(s.q().to_vec());
            }
            Ok(vec![("ipopt (warm)".into(), s, a.cpu_micros)])
        }),
    }
}
