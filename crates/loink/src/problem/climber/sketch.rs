//! The climber drawn from the side (docs/climber.md §8), in the task's world frame: the rear
//! ankle at the origin, y up against gravity, so the front ankle sits at the target (y1, y2).
//! The wall runs through both pads, hatched on its far side; the body, legs, pads, the centre of
//! mass with its weight, and at each pad the contact force the wall puts on the robot.

use super::body::{sub, Stance, BODY_END, PAD, PIVOT_U, PIVOT_V};
use super::statics::{centre_of_mass, forces, forces_by, Rule, MAGNET, WEIGHT};
use crate::problem::presentation::ContactLoad;
use crate::problem::region::{Region, CELLS};
use crate::problem::sketch::{Shape, Sketch, Stroke};

/// Metres of arrow per newton of force (the weight, ~61 N, is 0.12 m long).
pub const FORCE_SCALE: f64 = 0.002;
/// How far the wall runs past each pad (m).
const WALL_PAST: f64 = 0.2;
/// Hatch spacing along the wall and depth behind it (m).
const HATCH: (f64, f64) = (0.04, 0.025);

/// A posture in the world frame: body-frame points placed by R(θ_b)(p − A_L).
struct World<'a>(&'a Stance);

impl World<'_> {
    fn at(&self, p: [f64; 2]) -> [f64; 2] {
        self.0.to_world(sub(p, self.0.rear.ankle))
    }
    /// The pad under ankle `a` (body frame): the ankle moved by the pad's thickness to the wall.
    fn pad(&self, a: [f64; 2]) -> [f64; 2] {
        let n = self.0.normal;
        self.at([a[0] - PAD * n[0], a[1] - PAD * n[1]])
    }
}

fn arrow(stroke: Stroke, from: [f64; 2], vector: [f64; 2]) -> Shape {
    let tip = [from[0] + vector[0], from[1] + vector[1]];
    let length = vector[0].hypot(vector[1]);
    let mut points = vec![from, tip];
    if length > 1e-6 {
        let head = (0.3 * length).min(0.02);
        let (u, v) = (vector[0] / length, vector[1] / length);
        for side in [1.0, -1.0] {
            // Two barbs at ±25° back from the tip.
            let (c, s) = (0.906, 0.423 * side);
            let back = [-(c * u - s * v), -(s * u + c * v)];
            points.push([tip[0] + head * back[0], tip[1] + head * back[1]]);
            points.push(tip);
        }
    }
    Shape::Polyline { stroke, points }
}

/// The shapes of configuration `x`.
pub fn sketch(x: &[f64]) -> Sketch {
    let stance = Stance::new(x);
    let world = World(&stance);
    let mut shapes = Vec::new();
    let wall = stance.wall();
    let behind = stance.to_world([-stance.normal[0], -stance.normal[1]]);
    let (rear_pad, front_pad) = (world.pad(stance.rear.ankle), world.pad(stance.front.ankle));
    let along = |p: [f64; 2], t: f64| [p[0] + t * wall[0], p[1] + t * wall[1]];
    let (start, end) = (along(rear_pad, -WALL_PAST), along(front_pad, WALL_PAST));
    shapes.push(Shape::Polyline {
        stroke: Stroke::Wall,
        points: vec![start, end],
    });
    let length = stance.span + 2.0 * WALL_PAST;
    let mut t = HATCH.0 / 2.0;
    while t < length {
        let p = along(start, t);
        let q = along(p, -HATCH.1);
        shapes.push(Shape::Polyline {
            stroke: Stroke::Wall,
            points: vec![p, [q[0] + HATCH.1 * behind[0], q[1] + HATCH.1 * behind[1]]],
        });
        t += HATCH.0;
    }
    // The body: a plate from end to end, up to the femur pivots.
    let outline = [
        [-BODY_END, 0.0],
        [BODY_END, 0.0],
        [PIVOT_U, PIVOT_V],
        [-PIVOT_U, PIVOT_V],
        [-BODY_END, 0.0],
    ];
    shapes.push(Shape::Polyline {
        stroke: Stroke::Plate,
        points: outline.iter().map(|&p| world.at(p)).collect(),
    });
    for leg in [&stance.rear, &stance.front] {
        shapes.push(Shape::Polyline {
            stroke: Stroke::Link,
            points: vec![world.at(leg.pivot), world.at(leg.knee), world.at(leg.ankle)],
        });
        shapes.push(Shape::Polyline {
            stroke: Stroke::Rod,
            points: vec![world.at(leg.ankle), world.pad(leg.ankle)],
        });
        let pad = world.pad(leg.ankle);
        shapes.push(Shape::Polyline {
            stroke: Stroke::Plate,
            points: vec![along(pad, -0.025), along(pad, 0.025)],
        });
        for joint in [leg.pivot, leg.knee] {
            shapes.push(Shape::Dot {
                stroke: Stroke::Joint,
                at: world.at(joint),
            });
        }
    }
    shapes.push(Shape::Dot {
        stroke: Stroke::Effector,
        at: world.at(stance.front.ankle),
    });
    let com = world.at(centre_of_mass(&stance));
    shapes.push(Shape::Dot {
        stroke: Stroke::Mass,
        at: com,
    });
    shapes.push(arrow(Stroke::Force, com, [0.0, -WEIGHT * FORCE_SCALE]));
    let f = forces(&stance);
    for (k, pad) in [front_pad, rear_pad].into_iter().enumerate() {
        // The force on the robot: T along the wall, N across it (positive pushes off the wall).
        let normal = stance.to_world(stance.normal);
        let force = [
            f.shear[k] * wall[0] + f.normal[k] * normal[0],
            f.shear[k] * wall[1] + f.normal[k] * normal[1],
        ];
        shapes.push(arrow(
            Stroke::Force,
            pad,
            [force[0] * FORCE_SCALE, force[1] * FORCE_SCALE],
        ));
    }
    Sketch { shapes }
}

/// The magnet pull each real foot needs at `x` (half its pair's adhesion) against the
/// [`MAGNET`] it has: the front (upper) feet first.
pub fn loads(x: &[f64]) -> Vec<ContactLoad> {
    loads_by(x, Rule::EqualStiffness)
}

/// [`loads`] with the load shared by `rule`.
pub fn loads_by(x: &[f64], rule: Rule) -> Vec<ContactLoad> {
    let f = forces_by(&Stance::new(x), rule);
    vec![
        ContactLoad {
            label: "front (upper) feet",
            needed: f.adhesion[0] / 2.0,
            available: MAGNET,
        },
        ContactLoad {
            label: "rear (lower) feet",
            needed: f.adhesion[1] / 2.0,
            available: MAGNET,
        },
    ]
}

/// The useful domain's placements of the front ankle about the rear one (span `span`,
/// inclination `inclination`, in radians), rastered over `bounds`.
pub fn domain_region(bounds: [f64; 4], span: [f64; 2], inclination: [f64; 2]) -> Region {
    let mut region = Region::empty(bounds);
    let [x0, x1, y0, y1] = bounds;
    for row in 0..CELLS {
        for col in 0..CELLS {
            let x = x0 + (col as f64 + 0.5) * (x1 - x0) / CELLS as f64;
            let y = y1 - (row as f64 + 0.5) * (y1 - y0) / CELLS as f64;
            let d = x.hypot(y);
            let gamma = y.atan2(x);
            // atan2 gives −π for points just below the negative x axis: the ceiling's edge.
            let gamma = if gamma < -3.0 {
                gamma + std::f64::consts::TAU
            } else {
                gamma
            };
            if (span[0]..=span[1]).contains(&d)
                && (inclination[0]..=inclination[1]).contains(&gamma)
            {
                region.mark(x, y);
            }
        }
    }
    region
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::climber::body::dot;

    /// The contact forces drawn at the pads and the weight drawn at the centre of mass balance.
    #[test]
    fn drawn_forces_balance_the_weight() {
        for x in [
            [1.9, -0.7, -1.5, 0.6, -1.7],
            [2.3, -0.4, -1.5, 0.3, -1.9],
            [3.0, -1.0, -0.8, 0.9, -2.2],
        ] {
            let stance: Stance = Stance::new(&x);
            let f = forces(&stance);
            let (wall, normal) = (stance.wall(), stance.to_world(stance.normal));
            let sum = |k: usize| {
                (f.shear[0] + f.shear[1]) * wall[k] + (f.normal[0] + f.normal[1]) * normal[k]
            };
            assert!(sum(0).abs() < 1e-9 && (sum(1) - WEIGHT).abs() < 1e-9);
            let arrows = sketch(&x)
                .shapes
                .iter()
                .filter(|s| {
                    matches!(
                        s,
                        Shape::Polyline {
                            stroke: Stroke::Force,
                            ..
                        }
                    )
                })
                .count();
            assert_eq!(arrows, 3, "the weight and two contact forces");
        }
    }

    /// The front ankle is drawn at the target, the rear one at the origin, both pads on the wall.
    #[test]
    fn the_front_ankle_is_drawn_at_the_target() {
        let x = [2.3, -0.4, -1.5, 0.3, -1.9];
        let y = Stance::new(&x).task();
        let effector = sketch(&x).shapes.iter().find_map(|s| match s {
            Shape::Dot {
                stroke: Stroke::Effector,
                at,
            } => Some(*at),
            _ => None,
        });
        let at = effector.expect("the front ankle is marked");
        assert!((at[0] - y[0]).abs() < 1e-12 && (at[1] - y[1]).abs() < 1e-12);
        let stance = Stance::new(&x);
        let world = World(&stance);
        assert!(world.at(stance.rear.ankle).iter().all(|v| v.abs() < 1e-12));
        // Both pads lie on one line along the wall.
        let (a, b) = (world.pad(stance.rear.ankle), world.pad(stance.front.ankle));
        let wall = stance.wall();
        let d = sub(b, a);
        assert!((d[0] * wall[1] - d[1] * wall[0]).abs() < 1e-12);
        assert!(dot(d, wall) > 0.0);
    }

    #[test]
    fn the_domain_region_is_the_annulus_sector() {
        let region = domain_region(
            [-0.8, 0.8, -0.2, 0.8],
            [0.3, 0.7],
            [std::f64::consts::FRAC_PI_3, std::f64::consts::PI],
        );
        assert!(region.contains(0.0, 0.5));
        assert!(region.contains(-0.5, 0.001));
        assert!(!region.contains(0.5, 0.05), "a floor-like slope below 60°");
        assert!(!region.contains(0.0, 0.2) && !region.contains(0.0, 0.75));
    }
}
