//! Order statistics, one definition for the whole project: the q-quantile of the finite values
//! is the order statistic of rank round(q·(n − 1)) (0-based; an even count's median is the upper
//! middle value), NaN when there are none. Always a value that occurred, never an interpolation.

/// The q-quantile (0 ≤ q ≤ 1) of the finite values of `values`; NaN when there are none.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
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
    v.sort_by(f64::total_cmp);
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
