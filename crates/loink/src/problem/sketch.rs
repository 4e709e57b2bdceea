//! What the page needs to draw a configuration: a few shapes in task coordinates (metres), each
//! with a [`Stroke`] that says what it is, so the drawing code styles them without knowing the
//! problem. A problem that can be drawn returns a [`Sketch`] from `Kinematics::sketch`.

/// What a shape stands for (the page picks colour and width from it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stroke {
    /// A rigid link or the body of the robot.
    Link,
    /// A joint (drawn as a dot).
    Joint,
    /// The fixed base.
    Base,
    /// A flexible rod (soft robots).
    Rod,
    /// A rigid plate or cap.
    Plate,
    /// The end effector.
    Effector,
    /// A joint's allowed range, drawn around the joint.
    LimitArc,
    /// A surface the robot stands on, and its hatching on the far side.
    Wall,
    /// The robot's centre of mass (a dot).
    Mass,
    /// A force drawn as an arrow (gravity, a contact force), at a fixed scale of metres per
    /// newton that the kind states.
    Force,
}

impl Stroke {
    /// Whether the shape is part of the robot itself (what a ghost of a posture draws).
    pub fn is_robot(self) -> bool {
        matches!(
            self,
            Stroke::Link
                | Stroke::Joint
                | Stroke::Base
                | Stroke::Rod
                | Stroke::Plate
                | Stroke::Effector
        )
    }
}

/// One shape.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Connected segments through the points.
    Polyline {
        /// What it is.
        stroke: Stroke,
        /// The vertices.
        points: Vec<[f64; 2]>,
    },
    /// A point marker.
    Dot {
        /// What it is.
        stroke: Stroke,
        /// Where.
        at: [f64; 2],
    },
    /// A circular arc from angle `from` to `to` (radians, counter-clockwise from +x).
    Arc {
        /// What it is.
        stroke: Stroke,
        /// Centre.
        centre: [f64; 2],
        /// Radius.
        radius: f64,
        /// Start angle.
        from: f64,
        /// End angle.
        to: f64,
    },
}

/// The shapes of one configuration, drawn in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sketch {
    /// The shapes.
    pub shapes: Vec<Shape>,
}

impl Sketch {
    /// Every point the sketch touches (for fitting a view around it).
    pub fn points(&self) -> impl Iterator<Item = [f64; 2]> + '_ {
        self.shapes.iter().flat_map(|s| match s {
            Shape::Polyline { points, .. } => points.clone(),
            Shape::Dot { at, .. } => vec![*at],
            Shape::Arc { centre, radius, .. } => vec![
                [centre[0] - radius, centre[1] - radius],
                [centre[0] + radius, centre[1] + radius],
            ],
        })
    }
}
