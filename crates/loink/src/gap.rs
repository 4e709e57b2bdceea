//! The optimality gap of an answer against the reference optimum J\*, one rule for every
//! report (the page's readouts, `loink eval`'s column and summary, the benchmark tables, the
//! lessons).
//!
//! The gap is relative, (J − J\*)/J\*, where |J\*| is at least [`GAP_FLOOR`]. Below it a
//! relative gap divides by almost nothing (at the Panda's mid-range pose J\* = 0, and a cost of
//! 0.001 would read as a gap of millions of percent), so the gap is stated as J − J\* itself,
//! in the cost's units, and says so. "Within 1 % of J\*" is then J − J\* ≤ 1 % of the floor:
//! one threshold, (J − J\*)/max(|J\*|, floor) ≤ 1 %, for every target ([`Gap::scaled`]).
//! No readout prints a relative gap above [`PRINTED_MAX`]; a larger one reads "> 10,000 %".

/// |J\*| below which the gap is stated as J − J\*. The costs are sums of squared normalised
/// terms, of order 1 over a workspace; below 10⁻³ the optimum is the neutral posture to within
/// a few hundredths of each joint's half-range.
pub const GAP_FLOOR: f64 = 1e-3;

/// The largest relative gap printed as a number (100 = 10,000 %).
pub const PRINTED_MAX: f64 = 100.0;

/// An answer's gap to the optimum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gap {
    /// (J − J\*)/J\*, where |J\*| ≥ [`GAP_FLOOR`].
    Relative(f64),
    /// J − J\* in the cost's units, where |J\*| < [`GAP_FLOOR`].
    Absolute(f64),
}

impl Gap {
    /// The gap of cost `cost` against optimum `optimum` (NaN in, NaN out, as a relative gap).
    pub fn of(cost: f64, optimum: f64) -> Gap {
        if optimum.abs() < GAP_FLOOR {
            Gap::Absolute(cost - optimum)
        } else {
            Gap::Relative((cost - optimum) / optimum.abs())
        }
    }

    /// The number itself: the relative gap, or J − J\*.
    pub fn value(self) -> f64 {
        match self {
            Gap::Relative(g) | Gap::Absolute(g) => g,
        }
    }

    /// `relative` or `absolute`: how [`Self::value`] reads (the results files' `gap_kind`).
    pub fn kind(self) -> &'static str {
        match self {
            Gap::Relative(_) => "relative",
            Gap::Absolute(_) => "absolute",
        }
    }

    /// (J − J\*)/max(|J\*|, floor): the relative gap, or J − J\* over the floor — one scale on
    /// which every target's gap is compared, ranked and summarised.
    pub fn scaled(self) -> f64 {
        match self {
            Gap::Relative(g) => g,
            Gap::Absolute(d) => d / GAP_FLOOR,
        }
    }

    /// Whether the answer is within `share` of the optimum (`0.01`: within 1 %).
    pub fn within(self, share: f64) -> bool {
        self.scaled() <= share
    }

    /// The gap as a readout prints it: `0.057 %`, `> 10,000 %`, or `1.03e-3 (J − J*)`; `—`
    /// when unknown.
    pub fn text(self) -> String {
        match self {
            Gap::Relative(g) if !g.is_finite() => "—".into(),
            Gap::Relative(g) => percent(g),
            Gap::Absolute(d) if !d.is_finite() => "—".into(),
            Gap::Absolute(d) => format!("{d:.2e} (J − J*)"),
        }
    }
}

/// A relative gap (or a summary of [`Gap::scaled`] gaps) in percent, three decimals, capped at
/// [`PRINTED_MAX`]: `0.057 %`, `> 10,000 %` (`∞` for an infeasible answer counted as such).
pub fn percent(g: f64) -> String {
    if g == f64::INFINITY {
        "∞".into()
    } else if g > PRINTED_MAX {
        "> 10,000 %".into()
    } else {
        // Gaps of ±1e-8 are solver tolerance, not a sign worth printing.
        let g = if g.abs() < 5e-8 { 0.0 } else { g };
        format!("{:.3} %", 100.0 * g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_zero_optimum_gives_the_absolute_gap_and_one_threshold_judges_both() {
        assert_eq!(Gap::of(1.1, 1.0), Gap::Relative(0.10000000000000009));
        let at_zero = Gap::of(0.00103, 0.0);
        assert_eq!(at_zero, Gap::Absolute(0.00103));
        assert_eq!(at_zero.kind(), "absolute");
        assert_eq!(at_zero.text(), "1.03e-3 (J − J*)");
        assert!(!at_zero.within(0.01));
        assert!(Gap::of(5e-6, 0.0).within(0.01));
        assert!(Gap::of(1.005, 1.0).within(0.01));
        assert!(!Gap::of(1.02, 1.0).within(0.01));
        assert!((Gap::of(2e-3, 1e-3).scaled() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn no_relative_gap_prints_above_ten_thousand_percent() {
        assert_eq!(Gap::of(1030.0, 0.001).text(), "> 10,000 %");
        assert_eq!(Gap::of(1.00057, 1.0).text(), "0.057 %");
        assert_eq!(Gap::of(102.0, 1.0).text(), "> 10,000 %");
        assert_eq!(Gap::of(101.0, 1.0).text(), "10000.000 %");
        assert_eq!(Gap::of(100.0, 1.0).text(), "9900.000 %");
        assert_eq!(Gap::of(f64::NAN, 1.0).text(), "—");
        assert_eq!(percent(-3e-9), "0.000 %");
    }
}
