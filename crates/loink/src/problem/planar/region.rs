//! A planar arm's reachable region inside its limits: the end effectors of a regular lattice of
//! configurations (deterministic, so every page shows the same region), over the square
//! [−1.05·reach, 1.05·reach]².

use super::PlanarArm;
use crate::problem::region::Region;

/// Marks the cells hit by the end effectors of a lattice of about `samples` configurations
/// (the same count of midpoint-spaced angles per joint, inside the limits), then closes
/// one-cell holes.
///
/// The lattice is walked joint by joint, composing each link's direction from the previous one
/// with a precomputed rotation per angle, so a configuration costs one complex multiply-add
/// instead of a forward-kinematics call: this runs before the page's first full frame.
pub fn sample(arm: &PlanarArm, samples: usize) -> Region {
    let half = arm.reach() * 1.05;
    let dof = arm.dof();
    let per_joint = ((samples.max(1) as f64).powf(1.0 / dof as f64).ceil() as usize).max(2);
    let limits = arm.limits();
    // rotations[j][k] = (cos, sin) of joint j's k-th lattice angle.
    let rotations: Vec<Vec<[f64; 2]>> = (0..dof)
        .map(|j| {
            let (lo, hi) = (limits.lower()[j], limits.upper()[j]);
            (0..per_joint)
                .map(|k| {
                    let q = lo + (hi - lo) * (k as f64 + 0.5) / per_joint as f64;
                    [q.cos(), q.sin()]
                })
                .collect()
        })
        .collect();
    let mut walk = Lattice {
        lengths: arm.lengths(),
        rotations: &rotations,
        region: Region::empty([-half, half, -half, half]),
    };
    walk.visit(0, [0.0, 0.0], [1.0, 0.0]);
    let mut region = walk.region;
    region.close_holes();
    region
}

/// The depth-first walk over the configuration lattice of [`sample`].
struct Lattice<'a> {
    lengths: &'a [f64],
    rotations: &'a [Vec<[f64; 2]>],
    region: Region,
}

impl Lattice<'_> {
    /// Joint `joint` onwards, from the joint's position `at` and the previous link's
    /// direction `dir` (unit complex number).
    fn visit(&mut self, joint: usize, at: [f64; 2], dir: [f64; 2]) {
        let length = self.lengths[joint];
        let last = joint + 1 == self.lengths.len();
        for &[c, s] in &self.rotations[joint] {
            let d = [dir[0] * c - dir[1] * s, dir[0] * s + dir[1] * c];
            let p = [at[0] + length * d[0], at[1] + length * d[1]];
            if last {
                self.region.mark(p[0], p[1]);
            } else {
                self.visit(joint + 1, p, d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::region::CELLS;

    #[test]
    fn planar3_region_holds_reachable_points_and_not_far_ones() {
        let arm = PlanarArm::preset("planar3").unwrap();
        let region = sample(&arm, 40_000);
        let mid = arm.position(&arm.limits().centres());
        assert!(region.contains(mid[0], mid[1]));
        assert!(!region.contains(1.25, 0.0));
    }

    #[test]
    fn every_sampled_end_effector_is_in_the_region_and_the_region_is_inside_full_reach() {
        for name in ["planar2", "planar3", "planar3-wide", "planar4"] {
            let arm = PlanarArm::preset(name).unwrap();
            let region = sample(&arm, 150_000);
            let limits = arm.limits();
            // Random in-limit configurations (not the lattice) land in marked cells or next
            // to one: the raster covers the reachable set at its resolution.
            let [x0, x1, _, _] = region.bounds();
            let cell = (x1 - x0) / CELLS as f64;
            let mut missed = 0;
            for i in 0..2_000 {
                let q: Vec<f64> = (0..arm.dof())
                    .map(|j| {
                        let t = ((i * 7919 + j * 104_729) % 1_000) as f64 / 1_000.0;
                        limits.lower()[j] + t * (limits.upper()[j] - limits.lower()[j])
                    })
                    .collect();
                let [x, y] = arm.position(&q);
                let near = [
                    (0.0, 0.0),
                    (cell, 0.0),
                    (-cell, 0.0),
                    (0.0, cell),
                    (0.0, -cell),
                ]
                .iter()
                .any(|(dx, dy)| region.contains(x + dx, y + dy));
                missed += usize::from(!near);
            }
            assert!(
                missed <= 20,
                "{name}: {missed} of 2000 in-limit end effectors missed"
            );
            for k in 0..360 {
                let a = k as f64 * std::f64::consts::PI / 180.0;
                let r = arm.reach() + 2.0 * cell;
                assert!(
                    !region.contains(r * a.cos(), r * a.sin()),
                    "{name}: beyond reach"
                );
            }
        }
    }
}
