//! The headline: LOInK's speed ratio to one IPOPT call and to IPOPT best-of-K at equal hit
//! rate, with spread; and the Markdown page that carries it with the table.

use super::methods::{best_of_label, IPOPT_MID};
use super::record::{Clock, Row, TargetSet};
use super::stats::{paired_ratio, Summary};
use super::table;

/// Best-of-k rows the table shows (the CSV keeps every k).
pub fn shown_in_table(method: &str, starts: usize) -> bool {
    (2..=starts).all(|k| k == 3 || k == starts || method != best_of_label(k))
}

/// One LOInK method against IPOPT on the random targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// LOInK method label.
    pub method: String,
    /// Its within-1% share.
    pub hit_rate: f64,
    /// Against one IPOPT call (mid-range seed): ratio of medians, p5, p95 of per-target ratios.
    pub vs_one_call: (f64, f64, f64),
    /// IPOPT(mid)'s own within-1% share.
    pub one_call_hit_rate: f64,
    /// The smallest k whose best-of-k IPOPT hit rate reaches LOInK's, its hit rate and the
    /// ratios; `None` when no k up to the number of starts reaches it.
    pub vs_best_of: Option<(usize, f64, (f64, f64, f64))>,
    /// Best-of-K's hit rate at the largest K (to say how far off it is when none reaches).
    pub best_of_max: (usize, f64),
}

/// The headline comparisons (empty without LOInK rows).
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    /// The clock the ratios read.
    pub clock: Clock,
    /// One per LOInK method on the random set.
    pub comparisons: Vec<Comparison>,
}

fn group<'a>(rows: &'a [Row], method: &str) -> Vec<&'a Row> {
    rows.iter()
        .filter(|r| r.set == TargetSet::Random && r.method == method)
        .collect()
}

fn hit_rate(rows: &[&Row]) -> f64 {
    rows.iter().filter(|r| r.within_one_percent()).count() as f64 / rows.len().max(1) as f64
}

/// Computes the comparisons for every `loink …` method on the random targets.
pub fn compute(rows: &[Row], starts: usize, clock: Clock) -> Headline {
    let mut learned: Vec<String> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.set == TargetSet::Random && r.method.starts_with("loink"))
    {
        if !learned.contains(&r.method) {
            learned.push(r.method.clone());
        }
    }
    learned.sort_by(|a, b| super::stats::table_rank(a).cmp(&super::stats::table_rank(b)));
    let one_call = group(rows, IPOPT_MID);
    let comparisons = learned
        .iter()
        .map(|method| {
            let ours = group(rows, method);
            let hit = hit_rate(&ours);
            let vs_best_of = (1..=starts).find_map(|k| {
                let theirs = group(rows, &best_of_label(k));
                let rate = hit_rate(&theirs);
                (rate >= hit).then(|| (k, rate, paired_ratio(&theirs, &ours, clock)))
            });
            Comparison {
                method: method.clone(),
                hit_rate: hit,
                vs_one_call: paired_ratio(&one_call, &ours, clock),
                one_call_hit_rate: hit_rate(&one_call),
                vs_best_of,
                best_of_max: (starts, hit_rate(&group(rows, &best_of_label(starts)))),
            }
        })
        .collect();
    Headline { clock, comparisons }
}

fn spread((median, p5, p95): (f64, f64, f64)) -> String {
    format!(
        "{} (ratio of medians; per-target p5–p95 {}–{})",
        table::ratio(median),
        table::ratio(p5),
        table::ratio(p95)
    )
}

impl Headline {
    /// Plain-text lines, one per LOInK method.
    pub fn text(&self) -> String {
        if self.comparisons.is_empty() {
            return format!(
                "headline ({}): no LOInK rows (run with --model)",
                self.clock.as_str()
            );
        }
        self.comparisons
            .iter()
            .map(|c| {
                let best = match &c.vs_best_of {
                    Some((k, rate, r)) => format!(
                        "vs IPOPT best of {k} at equal hit rate ({:.1}% ≥ {:.1}%): {}",
                        100.0 * rate,
                        100.0 * c.hit_rate,
                        spread(*r)
                    ),
                    None => format!(
                        "no IPOPT best-of-k (k ≤ {}) reaches its hit rate {:.1}% (best of {}: {:.1}%)",
                        c.best_of_max.0,
                        100.0 * c.hit_rate,
                        c.best_of_max.0,
                        100.0 * c.best_of_max.1
                    ),
                };
                format!(
                    "[{}] {}: {:.1}% within 1% of J*; vs one IPOPT call (mid seed, {:.1}% within 1%): {}; {}",
                    self.clock.as_str(),
                    c.method,
                    100.0 * c.hit_rate,
                    100.0 * c.one_call_hit_rate,
                    spread(c.vs_one_call),
                    best
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// What the page says about the run besides the numbers.
pub struct Context {
    /// The command line.
    pub command: String,
    /// Machine description.
    pub machine: String,
    /// Load averages before and after.
    pub load: String,
    /// Target sets.
    pub targets: String,
    /// Model file and whether it is trained.
    pub model: String,
}

/// The results page (`bench/results/<robot>.md`): one table per clock, then the headlines.
pub fn markdown(ctx: &Context, tables: &[(Clock, Vec<Summary>)], heads: &[Headline]) -> String {
    let lines: Vec<String> = heads
        .iter()
        .flat_map(|h| {
            h.text()
                .lines()
                .map(|l| format!("- {l}"))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut body = String::new();
    for (clock, summaries) in tables {
        body.push_str(&format!(
            "## Times by {}\n\n{}\n",
            clock.as_str(),
            table::markdown(summaries)
        ));
    }
    format!(
        "# `loink bench` results\n\n\
         - command: `{}`\n- machine: {}\n- load average (1/5/15 min): {}\n- targets: {}\n- model: {}\n\n\
         Times are per target (best-of-K: the sum of its K calls), measured in the same run on two clocks: \
         wall time around the call, and the solving thread's CPU time over the call (on a loaded machine \
         wall time also counts time spent descheduled). `× IPOPT(mid)` is the median time of one IPOPT call \
         from the mid-range seed on the same set divided by the method's median; the spread is the p5–p95 \
         of the per-target ratios. Feasible: ‖p(q) − y‖ < 1e-6 m (and an orientation or axis error < 1e-6 rad \
         for a task that turns the hand) and limits held to 1e-6 rad by replay. \
         Gap (J − J*)/J* is over every row with a cost (infeasible rows included).\n\n{}## Headline\n\n{}\n",
        ctx.command,
        ctx.machine,
        ctx.load,
        ctx.targets,
        ctx.model,
        body,
        lines.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use loink::problem::Problem;
    use loink::report::{Solution, Termination};

    /// A row on target `index` whose answer hits (q on target, J = J*) or misses (q off target).
    fn row(problem: &Problem, method: &str, index: usize, hit: bool, micros: f64) -> Row {
        let q = vec![0.1 * index as f64, 1.0, 1.0];
        let y = problem.position(&q);
        let answer = if hit {
            q.clone()
        } else {
            vec![q[0] + 0.2, 1.0, 1.0]
        };
        let solution = Solution::assess(
            problem,
            method,
            &y,
            None,
            answer,
            1,
            micros,
            Termination::Converged,
        );
        Row {
            set: TargetSet::Random,
            method: method.into(),
            index,
            j_star: problem.cost().value(&q),
            solution,
            cpu_micros: micros,
        }
    }

    #[test]
    fn equal_hit_rate_picks_the_smallest_k_that_reaches_loink() {
        let problem = Problem::preset("planar3").unwrap();
        let mut rows = Vec::new();
        for i in 0..4 {
            rows.push(row(&problem, "loink cold + refine 3", i, i != 3, 10.0));
            rows.push(row(&problem, IPOPT_MID, i, true, 1000.0));
            rows.push(row(&problem, &best_of_label(1), i, i < 2, 1000.0));
            rows.push(row(&problem, &best_of_label(2), i, true, 2000.0));
        }
        let head = compute(&rows, 2, Clock::Cpu);
        let c = &head.comparisons[0];
        assert_eq!(c.hit_rate, 0.75);
        assert_eq!(c.vs_one_call.0, 100.0);
        let (k, rate, ratio) = c.vs_best_of.expect("best of 2 reaches 75%");
        assert_eq!((k, rate, ratio.0), (2, 1.0, 200.0));
        assert!(head.text().contains("best of 2 at equal hit rate"));
    }

    #[test]
    fn table_hides_intermediate_best_of_k() {
        assert!(shown_in_table(&best_of_label(1), 8));
        assert!(shown_in_table(&best_of_label(3), 8));
        assert!(shown_in_table(&best_of_label(8), 8));
        assert!(!shown_in_table(&best_of_label(5), 8));
        assert!(shown_in_table("loink cold", 8));
    }
}
