//! Order statistics and the per-method summary the table prints.

use std::collections::BTreeMap;

use super::record::{Clock, Row, TargetSet};

pub use loink::stats::{median, quantile};

/// One method on one target set.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Target set.
    pub set: TargetSet,
    /// Method label.
    pub method: String,
    /// Number of targets.
    pub count: usize,
    /// µs per solve: median and p95.
    pub micros: (f64, f64),
    /// Median IPOPT(mid-range seed) time over this method's median time, on the same set.
    pub speedup: f64,
    /// p5 and p95 of the per-target ratios IPOPT(mid)/method.
    pub speedup_spread: (f64, f64),
    /// Feasible share (0..1).
    pub feasible: f64,
    /// Share within 1% of J* (feasible and gap ≤ 1%).
    pub within: f64,
    /// Relative gap (J − J*)/J* over all rows with a cost: median and p95.
    pub gap: (f64, f64),
    /// End-effector error ‖p(q) − y‖ (m): median and p95.
    pub ee_error: (f64, f64),
}

/// Per-target times of one method on `clock`, by target index.
pub fn times_by_index(rows: &[&Row], clock: Clock) -> BTreeMap<usize, f64> {
    rows.iter().map(|r| (r.index, r.micros(clock))).collect()
}

/// Where a method's rows go in a table: the reference, IPOPT, DLS, LOInK, then the methods
/// run alone; by label within each.
pub fn table_rank(method: &str) -> (bool, usize, &str) {
    let family = ["reference", "ipopt", "dls", "loink"]
        .iter()
        .position(|p| method.starts_with(p))
        .unwrap_or(4);
    let alone = method.strip_suffix(super::ALONE);
    (
        alone.is_some(),
        family,
        alone.map_or(method, |m| m.trim_end()),
    )
}

/// Summarises each (set, method) group, random targets first, in [`table_rank`] order;
/// `baseline` names the method every speed ratio divides (IPOPT from the mid-range seed).
pub fn summarise(rows: &[Row], baseline: &str, clock: Clock) -> Vec<Summary> {
    let mut order: Vec<(TargetSet, String)> = Vec::new();
    for row in rows {
        let key = (row.set, row.method.clone());
        if !order.contains(&key) {
            order.push(key);
        }
    }
    order.sort_by(|a, b| {
        let set = |s: TargetSet| s != TargetSet::Random;
        (table_rank(&a.1).0, set(a.0), table_rank(&a.1)).cmp(&(
            table_rank(&b.1).0,
            set(b.0),
            table_rank(&b.1),
        ))
    });
    order
        .iter()
        .map(|(set, method)| {
            let group: Vec<&Row> = rows
                .iter()
                .filter(|r| r.set == *set && &r.method == method)
                .collect();
            let base: Vec<&Row> = rows
                .iter()
                .filter(|r| r.set == *set && r.method == baseline)
                .collect();
            summarise_group(*set, method, &group, &base, clock)
        })
        .collect()
}

fn summarise_group(
    set: TargetSet,
    method: &str,
    group: &[&Row],
    base: &[&Row],
    clock: Clock,
) -> Summary {
    let n = group.len().max(1) as f64;
    let micros: Vec<f64> = group.iter().map(|r| r.micros(clock)).collect();
    let gaps: Vec<f64> = group.iter().map(|r| r.gap()).collect();
    let errors: Vec<f64> = group.iter().map(|r| r.solution.residual()).collect();
    let base_times = times_by_index(base, clock);
    let ratios: Vec<f64> = group
        .iter()
        .filter_map(|r| base_times.get(&r.index).map(|b| b / r.micros(clock)))
        .collect();
    let base_median = median(&base_times.values().copied().collect::<Vec<_>>());
    Summary {
        set,
        method: method.to_string(),
        count: group.len(),
        micros: (median(&micros), quantile(&micros, 0.95)),
        speedup: base_median / median(&micros),
        speedup_spread: (quantile(&ratios, 0.05), quantile(&ratios, 0.95)),
        feasible: group.iter().filter(|r| r.feasible()).count() as f64 / n,
        within: group.iter().filter(|r| r.within_one_percent()).count() as f64 / n,
        gap: (median(&gaps), quantile(&gaps, 0.95)),
        ee_error: (median(&errors), quantile(&errors, 0.95)),
    }
}

/// Ratio of two methods' times on the same targets: (ratio of medians, p5, p95 of the
/// per-target ratios `slow / fast`).
pub fn paired_ratio(slow: &[&Row], fast: &[&Row], clock: Clock) -> (f64, f64, f64) {
    let fast_times = times_by_index(fast, clock);
    let ratios: Vec<f64> = slow
        .iter()
        .filter_map(|r| fast_times.get(&r.index).map(|f| r.micros(clock) / f))
        .collect();
    let slow_median = median(&slow.iter().map(|r| r.micros(clock)).collect::<Vec<_>>());
    let fast_median = median(&fast_times.values().copied().collect::<Vec<_>>());
    (
        slow_median / fast_median,
        quantile(&ratios, 0.05),
        quantile(&ratios, 0.95),
    )
}
