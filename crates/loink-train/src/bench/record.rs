//! One benchmark row: a method's answer on one target, judged against the global optimum J*.

use std::io::Write;
use std::path::Path;

use loink::gap::Gap;
use loink::report::{Solution, Status, Tolerance};

/// Which target set a row belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TargetSet {
    /// planar3.md's evaluation targets (y = p(q_s), q_s uniform in the limits), in file order.
    Random,
    /// A smooth path through the workspace (consecutive targets a few mm apart), for warm starts.
    Path,
}

impl TargetSet {
    /// The word used in tables and CSV files.
    pub fn as_str(self) -> &'static str {
        match self {
            TargetSet::Random => "random",
            TargetSet::Path => "path",
        }
    }
}

/// A method's answer on one target.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Target set.
    pub set: TargetSet,
    /// Method label (e.g. `loink cold + refine 3`).
    pub method: String,
    /// Index of the target in its set.
    pub index: usize,
    /// The solution, as judged by forward-kinematics replay.
    pub solution: Solution,
    /// J* of the target (global optimum, from the reference solver).
    pub j_star: f64,
    /// CPU time of the solving thread over the call (µs); `solution.micros()` is wall time.
    pub cpu_micros: f64,
}

/// Which clock a summary reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// Wall time around the call.
    Wall,
    /// The solving thread's CPU time over the call.
    Cpu,
}

impl Clock {
    /// Short name for headings.
    pub fn as_str(self) -> &'static str {
        match self {
            Clock::Wall => "wall-clock",
            Clock::Cpu => "thread CPU time",
        }
    }
}

impl Row {
    /// Feasible as planar3.md defines it: residual < 1e-6 m, for a task that turns the hand
    /// its angle < 1e-6 rad, and limits held to 1e-6 rad (judged from the replayed numbers,
    /// whatever the solver claims).
    pub fn feasible(&self) -> bool {
        let tol = Tolerance::CLASSICAL;
        self.solution.status() != Status::Invalid
            && self.solution.residual() < tol.residual
            && self.solution.angle().is_none_or(|a| a < tol.angle)
            && self.solution.margin() >= -tol.limits
    }

    /// The optimality gap ([`Gap`]: (J − J*)/J*, or J − J* where J* is near 0).
    pub fn judged_gap(&self) -> Gap {
        Gap::of(self.solution.cost(), self.j_star)
    }

    /// The gap on the one scale every row is summarised on, (J − J*)/max(|J*|, floor); NaN
    /// when either cost is unknown.
    pub fn gap(&self) -> f64 {
        self.judged_gap().scaled()
    }

    /// The row's time (µs) on `clock`.
    pub fn micros(&self, clock: Clock) -> f64 {
        match clock {
            Clock::Wall => self.solution.micros(),
            Clock::Cpu => self.cpu_micros,
        }
    }

    /// Feasible and within 1% of J*.
    pub fn within_one_percent(&self) -> bool {
        self.feasible() && self.judged_gap().within(0.01)
    }
}

/// Writes every row as CSV: `set,method,index` then `loink eval`'s columns, then `j_star,gap`
/// (relative, or J − J* where J* is near 0: `gap_absolute` = 1 there) and `cpu_micros`.
pub fn write_rows(
    path: &Path,
    rows: &[Row],
    dof: usize,
    columns: &[String],
) -> std::io::Result<()> {
    let task_dim = columns.len();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    let joints: Vec<String> = (1..=dof).map(|i| format!("q{i}")).collect();
    writeln!(
        out,
        "set,method,index,{},{},residual,cost,margin,status,iterations,micros,j_star,gap,cpu_micros,gap_absolute",
        columns.join(","),
        joints.join(",")
    )?;
    for row in rows {
        let s = &row.solution;
        let target = s.target();
        let q: Vec<String> = (0..dof)
            .map(|i| s.q().get(i).map_or("NaN".to_string(), |v| v.to_string()))
            .collect();
        let y: Vec<String> = (0..task_dim)
            .map(|i| target.get(i).map_or("NaN".to_string(), |v| v.to_string()))
            .collect();
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            row.set.as_str(),
            row.method,
            row.index,
            y.join(","),
            q.join(","),
            s.residual(),
            s.cost(),
            s.margin(),
            s.status(),
            s.iterations(),
            s.micros(),
            row.j_star,
            row.judged_gap().value(),
            row.cpu_micros,
            u8::from(row.judged_gap().kind() == "absolute")
        )?;
    }
    out.flush()
}
