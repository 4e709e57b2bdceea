//! The regions of a multi-chart model: the training box cut along some joints. `--charts J`
//! cuts joint J at 0 (at its middle when its range does not hold 0); `--split J:c₁:c₂…` cuts it
//! at the given values. The regions are every combination of one interval per cut joint, the
//! first cut joint varying slowest: with `--charts 2,3`, chart k takes the lower part of q2
//! when bit 1 of k is 0 and the lower part of q3 when bit 0 is 0. `--region J:lo:hi;J:lo:hi`
//! instead names each region itself (repeated: one chart each; an empty bound is the box's):
//! where a product of cuts would make regions no optimum lies in.

use loink::artifact::MAX_CHARTS;
use loink::problem::JointLimits;

use super::TrainError;

/// One joint's cuts: joint (1-based) and the values it is cut at, increasing.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The joint, counted from 1.
    pub joint: usize,
    /// Where its range is cut (strictly inside it, increasing).
    pub at: Vec<f64>,
}

impl Cut {
    /// `J:c₁:c₂…` (radians or metres, increasing).
    pub fn parse(text: &str) -> Result<Cut, String> {
        let mut parts = text.split(':');
        let joint = parts
            .next()
            .and_then(|j| j.trim().parse::<usize>().ok())
            .ok_or_else(|| format!("'{text}': JOINT:VALUE[:VALUE…] (a joint counted from 1)"))?;
        let at = parts
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .map_err(|e| format!("'{text}': '{v}': {e}"))
            })
            .collect::<Result<Vec<f64>, String>>()?;
        if at.is_empty() || at.iter().any(|v| !v.is_finite()) {
            return Err(format!("'{text}': give at least one finite cut value"));
        }
        if at.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("'{text}': cut values must increase"));
        }
        Ok(Cut { joint, at })
    }

    /// `--charts J`'s cut: at 0, or at the middle of a range that does not hold 0.
    pub fn sign(joint: usize, limits: &JointLimits) -> Cut {
        let i = joint.saturating_sub(1).min(limits.len().saturating_sub(1));
        let (lo, hi) = (limits.lower()[i], limits.upper()[i]);
        let at = if lo < 0.0 && hi > 0.0 {
            0.0
        } else {
            0.5 * (lo + hi)
        };
        Cut {
            joint,
            at: vec![at],
        }
    }
}

/// One region given whole (`--region`): per named joint its interval, the box's elsewhere.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionSpec {
    /// (joint from 1, lower or None for the box's, upper or None for the box's).
    pub bounds: Vec<(usize, Option<f64>, Option<f64>)>,
}

impl RegionSpec {
    /// `J:lo:hi;J:lo:hi…` (an empty bound is the box's own).
    pub fn parse(text: &str) -> Result<RegionSpec, String> {
        let bound = |v: &str| -> Result<Option<f64>, String> {
            let v = v.trim();
            if v.is_empty() {
                return Ok(None);
            }
            let x = v
                .parse::<f64>()
                .map_err(|e| format!("'{text}': '{v}': {e}"))?;
            x.is_finite()
                .then_some(Some(x))
                .ok_or_else(|| format!("'{text}': bounds must be finite"))
        };
        let bounds = text
            .split(';')
            .map(|part| {
                let fields: Vec<&str> = part.split(':').collect();
                let [joint, lo, hi] = fields[..] else {
                    return Err(format!(
                        "'{text}': JOINT:LOWER:UPPER for each joint, ';' between"
                    ));
                };
                let joint = joint
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("'{text}': '{joint}' is not a joint number"))?;
                Ok((joint, bound(lo)?, bound(hi)?))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(RegionSpec { bounds })
    }

    /// The region inside `limits`: checked to name real joints once each and to be a
    /// non-empty box inside the limits.
    pub fn region(&self, limits: &JointLimits) -> Result<JointLimits, TrainError> {
        let (mut lower, mut upper) = (limits.lower().to_vec(), limits.upper().to_vec());
        for (k, &(joint, lo, hi)) in self.bounds.iter().enumerate() {
            if joint == 0 || joint > limits.len() || self.bounds[..k].iter().any(|b| b.0 == joint) {
                return Err(TrainError::Argument(format!(
                    "--region: joint {joint} is not a joint of 1..={} named once",
                    limits.len()
                )));
            }
            let i = joint - 1;
            lower[i] = lo.unwrap_or(lower[i]);
            upper[i] = hi.unwrap_or(upper[i]);
            if !(lower[i] < upper[i]
                && lower[i] >= limits.lower()[i]
                && upper[i] <= limits.upper()[i])
            {
                return Err(TrainError::Argument(format!(
                    "--region: q{joint} in [{}, {}] is empty or leaves its range [{}, {}]",
                    lower[i],
                    upper[i],
                    limits.lower()[i],
                    limits.upper()[i]
                )));
            }
        }
        JointLimits::new(lower, upper).map_err(TrainError::from)
    }

    /// The region in words: `q2 < 0, -1.571 ≤ q5 < 1.571`.
    pub fn describe(&self, limits: &JointLimits) -> String {
        self.bounds
            .iter()
            .map(|&(j, lo, hi)| {
                let lo = lo.filter(|v| *v > limits.lower()[j - 1]);
                let hi = hi.filter(|v| *v < limits.upper()[j - 1]);
                match (lo, hi) {
                    (Some(a), Some(b)) => format!("{} ≤ q{j} < {}", trim(a), trim(b)),
                    (Some(a), None) => format!("q{j} ≥ {}", trim(a)),
                    (None, Some(b)) => format!("q{j} < {}", trim(b)),
                    (None, None) => format!("any q{j}"),
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The cuts of `--charts joints` followed by `--split`'s.
pub fn cuts(limits: &JointLimits, signs: &[usize], splits: &[Cut]) -> Vec<Cut> {
    signs
        .iter()
        .map(|&j| Cut::sign(j, limits))
        .chain(splits.iter().cloned())
        .collect()
}

/// The regions of `cuts` in chart order (see the module docs). No cut: the box itself.
pub fn regions(limits: &JointLimits, cuts: &[Cut]) -> Result<Vec<JointLimits>, TrainError> {
    let bad = |m: String| Err(TrainError::Argument(m));
    for (i, cut) in cuts.iter().enumerate() {
        let j = cut.joint;
        if j == 0 || j > limits.len() {
            return bad(format!(
                "--charts/--split: joint {j} does not exist (joints are 1..={})",
                limits.len()
            ));
        }
        if cuts[..i].iter().any(|c| c.joint == j) {
            return bad(format!("--charts/--split: joint {j} is cut twice"));
        }
        let (lo, hi) = (limits.lower()[j - 1], limits.upper()[j - 1]);
        if let Some(v) = cut.at.iter().find(|v| !(**v > lo && **v < hi)) {
            return bad(format!(
                "--split: q{j} cut at {v}, outside its range ({lo}, {hi})"
            ));
        }
    }
    let count = cuts
        .iter()
        .try_fold(1usize, |n, c| n.checked_mul(c.at.len() + 1))
        .filter(|&n| n <= MAX_CHARTS);
    let Some(count) = count else {
        return bad(format!(
            "the cuts make more than {MAX_CHARTS} regions (a file holds at most {MAX_CHARTS} charts)"
        ));
    };
    (0..count)
        .map(|k| {
            let (mut lower, mut upper) = (limits.lower().to_vec(), limits.upper().to_vec());
            let mut rest = k;
            for cut in cuts.iter().rev() {
                let pieces = cut.at.len() + 1;
                let piece = rest % pieces;
                rest /= pieces;
                let i = cut.joint - 1;
                if piece > 0 {
                    lower[i] = cut.at[piece - 1];
                }
                if piece < cut.at.len() {
                    upper[i] = cut.at[piece];
                }
            }
            JointLimits::new(lower, upper).map_err(TrainError::from)
        })
        .collect()
}

/// A region in words: `q2 ≥ 0, -1.571 ≤ q5 < 1.571` for the cut joints.
pub fn describe(region: &JointLimits, limits: &JointLimits, cuts: &[Cut]) -> String {
    cuts.iter()
        .map(|cut| {
            let (j, i) = (cut.joint, cut.joint - 1);
            let from = region.lower()[i] > limits.lower()[i];
            let to = region.upper()[i] < limits.upper()[i];
            match (from, to) {
                (true, true) => format!(
                    "{} ≤ q{j} < {}",
                    trim(region.lower()[i]),
                    trim(region.upper()[i])
                ),
                (true, false) => format!("q{j} ≥ {}", trim(region.lower()[i])),
                _ => format!("q{j} < {}", trim(region.upper()[i])),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value with at most three decimals and no trailing zeros.
pub fn trim(v: f64) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signs(limits: &JointLimits, joints: &[usize]) -> Result<Vec<JointLimits>, TrainError> {
        regions(limits, &cuts(limits, joints, &[]))
    }

    #[test]
    fn sign_patterns_cover_the_box_without_overlap() {
        let limits = JointLimits::new(vec![-2.6; 3], vec![2.6; 3]).unwrap();
        let r = signs(&limits, &[2, 3]).unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!((r[0].upper()[1], r[0].upper()[2]), (0.0, 0.0));
        assert_eq!((r[1].upper()[1], r[1].lower()[2]), (0.0, 0.0));
        assert_eq!((r[3].lower()[1], r[3].lower()[2]), (0.0, 0.0));
        assert!(r
            .iter()
            .all(|b| b.lower()[0] == -2.6 && b.upper()[0] == 2.6));
        let c = cuts(&limits, &[2, 3], &[]);
        assert_eq!(describe(&r[2], &limits, &c), "q2 ≥ 0, q3 < 0");
        // A range without 0 is cut at its middle.
        let shifted = JointLimits::new(vec![0.0, 1.0], vec![2.0, 3.0]).unwrap();
        let r = signs(&shifted, &[2]).unwrap();
        assert_eq!((r[0].upper()[1], r[1].lower()[1]), (2.0, 2.0));
    }

    #[test]
    fn splits_cut_a_joint_into_intervals() {
        let limits = JointLimits::new(vec![-2.0; 3], vec![2.0; 3]).unwrap();
        let split = Cut::parse("3:-1:1").unwrap();
        let c = cuts(&limits, &[2], &[split]);
        let r = regions(&limits, &c).unwrap();
        assert_eq!(r.len(), 6);
        // q2 varies slowest, q3's three intervals within each.
        assert_eq!((r[0].upper()[1], r[0].upper()[2]), (0.0, -1.0));
        assert_eq!((r[1].lower()[2], r[1].upper()[2]), (-1.0, 1.0));
        assert_eq!((r[5].lower()[1], r[5].lower()[2]), (0.0, 1.0));
        assert_eq!(describe(&r[4], &limits, &c), "q2 ≥ 0, -1 ≤ q3 < 1");
        // The regions tile the box: their volumes add up to its.
        let volume = |b: &JointLimits| (0..3).map(|i| b.upper()[i] - b.lower()[i]).product::<f64>();
        let total: f64 = r.iter().map(volume).sum();
        assert!((total - volume(&limits)).abs() < 1e-12);
    }

    #[test]
    fn regions_given_whole_keep_the_box_elsewhere() {
        let limits = JointLimits::new(vec![-2.0; 3], vec![2.0; 3]).unwrap();
        let outer = RegionSpec::parse("3::-1").unwrap().region(&limits).unwrap();
        assert_eq!(
            (outer.lower()[2], outer.upper()[2], outer.upper()[1]),
            (-2.0, -1.0, 2.0)
        );
        let spec = RegionSpec::parse("2::0;3:-1:1").unwrap();
        let inner = spec.region(&limits).unwrap();
        assert_eq!(
            (inner.upper()[1], inner.lower()[2], inner.upper()[2]),
            (0.0, -1.0, 1.0)
        );
        assert_eq!(spec.describe(&limits), "q2 < 0, -1 ≤ q3 < 1");
        for text in ["2:0", "x:0:1", "2:a:1", "2:0:inf"] {
            assert!(RegionSpec::parse(text).is_err(), "{text}");
        }
        for text in ["4:0:1", "2:1:0", "2:-3:0", "2:0:1;2:0:1"] {
            let spec = RegionSpec::parse(text).unwrap();
            assert!(spec.region(&limits).is_err(), "{text}");
        }
    }

    #[test]
    fn bad_cuts_are_refused() {
        let limits = JointLimits::new(vec![-1.0; 3], vec![1.0; 3]).unwrap();
        for joints in [vec![0], vec![4], vec![2, 2], vec![1, 2, 3, 1, 2]] {
            assert!(signs(&limits, &joints).is_err(), "{joints:?}");
        }
        for text in ["x:1", "2", "2:a", "2:0.5:0.1", "2:nan"] {
            assert!(Cut::parse(text).is_err(), "{text}");
        }
        let outside = Cut::parse("2:1.5").unwrap();
        assert!(regions(&limits, &[outside]).is_err());
        let many: Vec<Cut> = (1..=3)
            .map(|j| Cut::parse(&format!("{j}:-0.5:0:0.5")).unwrap())
            .collect();
        assert!(regions(&limits, &many).is_err());
    }
}
