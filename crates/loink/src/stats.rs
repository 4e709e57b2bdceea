//! Order statistics, one definition for the whole project: the q-quantile of the finite values
//! is the order statistic of rank round(q·(n − 1)) (0-based; an even count's median is the upper
//! middle value), NaN when there are none. Always a value that occurred, never an interpolation.
//!
//! Every sort of the crates goes through [`sort_values`] and [`sort_by_cost`]: each `sort_by`
//! with its own closure is another copy of the standard library's sort in the page's wasm
//! (about 4 kB each), so there are exactly two.

/// Sorts `values` ascending in the total order of f64 (−0 before +0, NaN last).
pub fn sort_values(values: &mut [f64]) {
    values.sort_unstable_by(f64::total_cmp);
}

/// Sorts `items` by `cost(item)` ascending, ties kept in their order (a stable sort; NaN costs
/// last).
pub fn sort_by_cost<T>(items: &mut Vec<T>, cost: impl Fn(&T) -> f64) {
    let mut keys: Vec<(f64, usize)> = items.iter().map(&cost).zip(0..).collect();
    sort_keys(&mut keys);
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(keys.iter().filter_map(|&(_, i)| slots[i].take()));
}

/// The one sort of (cost, index) pairs: by cost, then index.
fn sort_keys(keys: &mut [(f64, usize)]) {
    keys.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
}

/// The q-quantile (0 ≤ q ≤ 1) of the finite values of `values`; NaN when there are none.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    sort_values(&mut v);
    quantile_sorted(&v, q)
}

/// [`quantile`] of values already sorted ascending and all finite.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// The median of the finite values.
pub fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

/// The median and the 95th percentile of the finite values.
pub fn median_p95(values: &[f64]) -> (f64, f64) {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    sort_values(&mut v);
    (quantile_sorted(&v, 0.5), quantile_sorted(&v, 0.95))
}

/// The mean of the finite values; NaN when there are none.
pub fn mean(values: &[f64]) -> f64 {
    let (sum, count) = values
        .iter()
        .filter(|x| x.is_finite())
        .fold((0.0, 0usize), |(s, c), x| (s + x, c + 1));
    if count == 0 {
        f64::NAN
    } else {
        sum / count as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_order_statistics_of_the_finite_values() {
        let v = [3.0, 1.0, f64::NAN, 4.0, 2.0, f64::INFINITY];
        assert_eq!(median(&v), 3.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert_eq!(quantile(&v, 0.95), 4.0);
        assert_eq!(median(&[1.0, 2.0, 3.0]), 2.0);
        assert!(median(&[]).is_nan());
        assert_eq!(mean(&v), 2.5);
        assert_eq!(median_p95(&[5.0]), (5.0, 5.0));
    }
}
