//! The IPOPT peer: `bench/ipopt_planar3.py --serve` (the planar arms), `bench/ipopt_chain.py
//! --serve` (the serial chains) or `bench/ipopt_climber.py --serve` (the climber) run as a child
//! process.
//!
//! The driver sends one request per target and reads one answer line per start (see the
//! script's module doc for the line protocol), so IPOPT runs interleaved with the Rust solvers
//! on the same target in the same run. Each answer carries the time IPOPT's solve call took,
//! measured inside Python around that call alone (no pipe or parsing time).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The IPOPT script of `problem`'s kind (each has its own NLP and kinematics).
pub fn script_for(problem: &loink::problem::Problem) -> Result<PathBuf, String> {
    match problem.spec().kind.as_str() {
        "planar" => Ok(PathBuf::from("bench/ipopt_planar3.py")),
        "chain" if problem.task().has_angle() => Ok(PathBuf::from("bench/ipopt_pose.py")),
        "chain" => Ok(PathBuf::from("bench/ipopt_chain.py")),
        "climber" => Ok(PathBuf::from("bench/ipopt_climber.py")),
        kind => Err(format!(
            "no IPOPT script for a '{kind}' problem (pass --ipopt-script)"
        )),
    }
}

/// How a request starts IPOPT.
#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    /// One start from the mid-range configuration c.
    MidRange,
    /// K random starts, uniform in the limits, seeded by (server seed, target index).
    Random(usize),
    /// One start from the given joint vector (warm start along a path).
    From(Vec<f64>),
}

/// One IPOPT solve call's answer, before the driver judges it by replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// The returned joint vector.
    pub q: Vec<f64>,
    /// IPOPT met its own stopping test (Solve_Succeeded or Solved_To_Acceptable_Level).
    pub succeeded: bool,
    /// IPOPT hit an iteration or time cap.
    pub capped: bool,
    /// IPOPT iterations.
    pub iterations: usize,
    /// Wall time of the solve call alone (µs).
    pub micros: f64,
    /// CPU time of the server's thread over the solve call (µs).
    pub cpu_micros: f64,
}

/// A running `--serve` process.
pub struct IpoptServer {
    /// The task whose columns the requests give a target in.
    task: loink::problem::TaskSpace,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl IpoptServer {
    /// Starts `python script --serve --robot robot --seed seed` and waits for its `ready` line;
    /// targets of `task` go to it in the task's columns.
    pub fn spawn(
        python: &Path,
        script: &Path,
        robot: &str,
        seed: u64,
        task: loink::problem::TaskSpace,
    ) -> Result<Self, String> {
        let mut child = Command::new(python)
            .arg(script)
            .args(["--serve", "--robot", robot, "--seed", &seed.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start {} {}: {e} (run bench/setup-venv.sh, or pass --ipopt-python)",
                    python.display(),
                    script.display()
                )
            })?;
        let stdin = child
            .stdin
            .take()
            .ok_or("no stdin pipe to the IPOPT server")?;
        let stdout = BufReader::new(
            child
                .stdout
                .take()
                .ok_or("no stdout pipe from the IPOPT server")?,
        );
        let mut server = Self {
            task,
            child,
            stdin,
            stdout,
        };
        match server.read_line()?.as_str() {
            "ready" => Ok(server),
            other => Err(format!("IPOPT server said '{other}' instead of 'ready'")),
        }
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        let read = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| format!("reading from the IPOPT server: {e}"))?;
        if read == 0 {
            return Err("the IPOPT server exited early (see its stderr above)".into());
        }
        Ok(line.trim().to_string())
    }

    /// Solves one target; returns one attempt per start, in start order.
    pub fn solve(
        &mut self,
        index: usize,
        target: &[f64],
        start: &Start,
    ) -> Result<Vec<Attempt>, String> {
        let numbers = |values: &[f64]| {
            values
                .iter()
                .map(|v| format!("{v:e}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let y = numbers(&self.task.to_columns(target));
        let request = match start {
            Start::MidRange => format!("{index} mid {y}"),
            Start::Random(k) => format!("{index} random-{k} {y}"),
            Start::From(q) => format!("{index} seed {y} {}", numbers(q)),
        };
        writeln!(self.stdin, "{request}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("writing to the IPOPT server: {e}"))?;
        let mut attempts = Vec::new();
        loop {
            let line = self.read_line()?;
            if line == "end" {
                return Ok(attempts);
            }
            if let Some(message) = line.strip_prefix("error") {
                return Err(format!("IPOPT server rejected '{request}':{message}"));
            }
            attempts.push(parse_attempt(&line)?);
        }
    }
}

impl Drop for IpoptServer {
    fn drop(&mut self) {
        // Closing stdin ends the server's read loop; wait so no zombie is left behind.
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_attempt(line: &str) -> Result<Attempt, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let bad = || format!("unreadable IPOPT answer '{line}'");
    if fields.len() < 6 {
        return Err(bad());
    }
    let n = fields.len() - 5;
    let q = fields[..n]
        .iter()
        .map(|f| f.parse::<f64>().map_err(|_| bad()))
        .collect::<Result<Vec<_>, _>>()?;
    let flag = |f: &str| match f {
        "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(bad()),
    };
    Ok(Attempt {
        q,
        succeeded: flag(fields[n])?,
        capped: flag(fields[n + 1])?,
        iterations: fields[n + 2].parse().map_err(|_| bad())?,
        micros: fields[n + 3].parse().map_err(|_| bad())?,
        cpu_micros: fields[n + 4].parse().map_err(|_| bad())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_an_answer_line() {
        let a = parse_attempt("-0.18 1.26 1.14 1 0 6 2878.5 2500.25").unwrap();
        assert_eq!(a.q, vec![-0.18, 1.26, 1.14]);
        assert!(a.succeeded && !a.capped);
        assert_eq!(a.iterations, 6);
        assert_eq!(a.micros, 2878.5);
        assert_eq!(a.cpu_micros, 2500.25);
    }

    #[test]
    fn rejects_malformed_answers() {
        assert!(parse_attempt("1 0 6 2.0").is_err());
        assert!(parse_attempt("a b c 1 0 6 2.0 1.0").is_err());
        assert!(parse_attempt("0.1 0.2 0.3 2 0 6 2.0 1.0").is_err());
    }
}
