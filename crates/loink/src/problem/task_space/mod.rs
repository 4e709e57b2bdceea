//! The task space every layer reads: what the m coordinates of a target y are (name, unit and
//! scale of each), how far an answer is from its target (the error measure), the tangent error a
//! Jacobian step drives to zero, and the columns a file, a link or an API gives a target in.
//!
//! Three measures:
//! - [`Measure::Distance`]: every coordinate is a length of one kind (a planar tip, the soft
//!   arm's end effector, a 3-D point, the climber's foot vector and clearance); the miss is the
//!   Euclidean distance over all of them.
//! - [`Measure::Pose`]: y = [p; θ], a position p (m) and an orientation as the rotation vector
//!   θ = log(R_cᵀR) about the chart reference R_c (rad). Files give it as
//!   `x,y,z,qw,qx,qy,qz` (docs/pose.md). The miss is the position distance **and** the geodesic
//!   angle; the tangent error of the orientation is log(Rᵀ R_target), a turn in the reached
//!   frame (so a chain's Jacobian rows are the joint axes in that frame).
//! - [`Measure::Axis`]: y = [p; s], a position and the direction d of the tool's z axis as its
//!   stereographic coordinates from straight up, s = (d_x, d_y)/(1 − d_z) (0 points straight
//!   down). Files give it as `x,y,z,ax,ay,az`. The miss is the position distance and the angle
//!   between the directions; the tangent error is the turn of d towards the target's, in a
//!   basis of the plane perpendicular to d ([`tangent_basis`]).
//!
//! **Units weighed.** A coordinate's `scale` is how much of it counts as one unit of the task's
//! common measure: 1 for metres, 1/L for a rotation vector's radians and 0.5/L for a
//! stereographic coordinate (near straight down it turns the axis by twice its change), L the
//! characteristic length ([`CHARACTERISTIC_LENGTH`]). Trainers normalise each coordinate by its
//! scale times one common spread, and solvers step on the tangent error weighted alike (a metre
//! by 1, a radian of turn by L), so no isotropic scale mixes metres with radians.

#[cfg(feature = "orientation")]
mod turning;

#[cfg(feature = "orientation")]
pub use turning::{direction, stereographic, tangent_basis, unit_direction};

/// The unit of a task coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Metres.
    Metre,
    /// Radians (an orientation's chart coordinate).
    Radian,
    /// No unit (a stereographic coordinate of a direction).
    None,
}

impl Unit {
    /// The unit's symbol (`m`, `rad`, or empty).
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Metre => "m",
            Unit::Radian => "rad",
            Unit::None => "",
        }
    }
}

/// One coordinate of y.
#[derive(Debug, Clone, PartialEq)]
pub struct Coordinate {
    /// Its name in data files and readouts (`x`, `rx`, `y1`, …).
    pub name: String,
    /// Its unit.
    pub unit: Unit,
    /// How much of it weighs as one unit of the task's common measure (see the module docs).
    pub scale: f64,
}

/// How a miss is measured (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure {
    /// The Euclidean distance over every coordinate.
    Distance,
    /// Position and orientation, the orientation as a rotation vector about `reference`
    /// (feature `orientation`).
    #[cfg(feature = "orientation")]
    Pose {
        /// R_c, the chart's reference orientation (row-major).
        reference: [f64; 9],
    },
    /// Position and the direction of the tool's z axis, stereographic from straight up
    /// (feature `orientation`).
    #[cfg(feature = "orientation")]
    Axis,
}

/// L: an angle error of θ rad at the hand weighs as a position error of L·θ metres. 0.15 m puts
/// 1° level with 2.6 mm, so the mean misses a learned pose solver is judged by (IKFlow's
/// published 6.8 mm and 2.28° on the Panda) weigh about alike.
pub const CHARACTERISTIC_LENGTH: f64 = 0.15;

/// Task dimensions whose error vectors live on the stack.
const MAX_STACK_DIM: usize = 8;

/// How far an answer is from its target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Miss {
    /// The position error (task units: metres for every shipped problem).
    pub distance: f64,
    /// The orientation or axis error (rad), for a task that has one.
    pub angle: Option<f64>,
}

/// Why a row of file columns is no target.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnsError(pub String);

impl std::fmt::Display for ColumnsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The task space of a problem (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSpace {
    coordinates: Vec<Coordinate>,
    measure: Measure,
    /// 1/scale per coordinate.
    weights: Vec<f64>,
    /// Every weight is 1 (no multiply on the solvers' hot path).
    unit_weights: bool,
}

impl TaskSpace {
    /// A Euclidean task in metres with these coordinate names.
    pub fn euclidean(names: &[&str]) -> Self {
        Self::from_coordinates(metres(names), Measure::Distance)
    }

    /// A Euclidean task of m coordinates named by its dimension: `x,y`, `x,y,z`, else
    /// `y1…ym`.
    pub fn points(m: usize) -> Self {
        match m {
            2 => Self::euclidean(&["x", "y"]),
            3 => Self::euclidean(&["x", "y", "z"]),
            _ => {
                let names: Vec<String> = (1..=m).map(|k| format!("y{k}")).collect();
                let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                Self::euclidean(&refs)
            }
        }
    }

    /// The full pose about chart reference `reference` (row-major): `x,y,z` (m) and
    /// `rx,ry,rz` (rad).
    #[cfg(feature = "orientation")]
    pub fn pose(reference: [f64; 9]) -> Self {
        let mut coordinates = metres(&["x", "y", "z"]);
        coordinates.extend(["rx", "ry", "rz"].map(|name| Coordinate {
            name: name.into(),
            unit: Unit::Radian,
            scale: 1.0 / CHARACTERISTIC_LENGTH,
        }));
        Self::from_coordinates(coordinates, Measure::Pose { reference })
    }

    /// Position and tool axis: `x,y,z` (m) and `sx,sy` (stereographic, unitless).
    #[cfg(feature = "orientation")]
    pub fn axis() -> Self {
        let mut coordinates = metres(&["x", "y", "z"]);
        // Near straight down a unit of s turns the axis by 2 rad: the scale keeps the angle's
        // weight (s ≈ θ/2 there).
        coordinates.extend(["sx", "sy"].map(|name| Coordinate {
            name: name.into(),
            unit: Unit::None,
            scale: 0.5 / CHARACTERISTIC_LENGTH,
        }));
        Self::from_coordinates(coordinates, Measure::Axis)
    }

    fn from_coordinates(coordinates: Vec<Coordinate>, measure: Measure) -> Self {
        // The tangent error is in metres and radians whatever the chart: a turn weighs L.
        let weights: Vec<f64> = coordinates
            .iter()
            .map(|c| match c.unit {
                Unit::Metre => 1.0 / c.scale,
                Unit::Radian | Unit::None => CHARACTERISTIC_LENGTH,
            })
            .collect();
        let unit_weights = weights.iter().all(|&w| w == 1.0);
        TaskSpace {
            coordinates,
            measure,
            weights,
            unit_weights,
        }
    }

    /// The task dimension m.
    pub fn dim(&self) -> usize {
        self.coordinates.len()
    }
    /// The coordinates, in order.
    pub fn coordinates(&self) -> &[Coordinate] {
        &self.coordinates
    }
    /// The coordinates' names (data files, readouts).
    pub fn names(&self) -> Vec<String> {
        self.coordinates.iter().map(|c| c.name.clone()).collect()
    }
    /// Per coordinate, its scale (see the module docs).
    pub fn scales(&self) -> Vec<f64> {
        self.coordinates.iter().map(|c| c.scale).collect()
    }
    /// Per tangent coordinate, its weight: what the solvers multiply the tangent error and the
    /// Jacobian's rows by (1 a metre, L a radian of turn).
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }
    /// Whether every weight is 1.
    pub fn unit_weights(&self) -> bool {
        self.unit_weights
    }
    /// The error measure.
    pub fn measure(&self) -> Measure {
        self.measure
    }
    /// Whether the task turns the hand (a pose or an axis): its answers report an angle.
    pub fn has_angle(&self) -> bool {
        !matches!(self.measure, Measure::Distance)
    }

    /// The columns a target is given in (files, links, APIs): the coordinates' names for a
    /// Euclidean task, `x,y,z,qw,qx,qy,qz` for a pose, `x,y,z,ax,ay,az` for an axis.
    pub fn columns(&self) -> Vec<String> {
        match self.measure {
            Measure::Distance => self.names(),
            #[cfg(feature = "orientation")]
            turning => turning::columns(turning),
        }
    }

    /// The target of a row of [`Self::columns`]: a quaternion or direction normalised, one that
    /// is zero, non-finite or off unit length by more than 10 % refused with the reason. A
    /// Euclidean row is returned as it is (the problem's target check judges its numbers).
    pub fn from_columns(&self, row: &[f64]) -> Result<Vec<f64>, ColumnsError> {
        let want = self.columns().len();
        if row.len() != want {
            return Err(ColumnsError(format!(
                "{} numbers given, the target has {want} ({})",
                row.len(),
                self.columns().join(",")
            )));
        }
        match self.measure {
            Measure::Distance => Ok(row.to_vec()),
            #[cfg(feature = "orientation")]
            turning => turning::from_columns(turning, row),
        }
    }

    /// The row of [`Self::columns`] of target y (a quaternion with w ≥ 0, a unit direction).
    pub fn to_columns(&self, y: &[f64]) -> Vec<f64> {
        match self.measure {
            Measure::Distance => y.to_vec(),
            #[cfg(feature = "orientation")]
            turning => turning::to_columns(turning, y),
        }
    }

    /// Target y of task `from` in this task's coordinates (the same hand pose in a chart
    /// about another reference): through the columns, which every chart of one task shares.
    /// A target `from` cannot state (non-finite) comes back as NaN, which every target check
    /// refuses.
    pub fn restate(&self, from: &TaskSpace, y: &[f64]) -> Vec<f64> {
        if self.measure == from.measure {
            return y.to_vec();
        }
        self.from_columns(&from.to_columns(y))
            .unwrap_or_else(|_| vec![f64::NAN; self.dim()])
    }

    /// The orientation of pose coordinates y in the world (w ≥ 0); `None` for other tasks.
    #[cfg(feature = "orientation")]
    pub fn quaternion(&self, y: &[f64]) -> Option<crate::so3::Quaternion> {
        match self.measure {
            Measure::Pose { reference } => Some(turning::quaternion(&reference, y)),
            _ => None,
        }
    }

    /// The tool's z axis of target y in the world, for a task that turns the hand.
    pub fn tool_axis(&self, y: &[f64]) -> Option<[f64; 3]> {
        match self.measure {
            Measure::Distance => {
                let _ = y;
                None
            }
            #[cfg(feature = "orientation")]
            turning => Some(turning::tool_axis(turning, y)),
        }
    }

    /// The target's own axes in the world (the columns of a rotation, row-major) for a task
    /// that turns the hand: a pose's orientation, or a frame whose z is the tool axis.
    #[cfg(feature = "orientation")]
    pub fn frame(&self, y: &[f64]) -> Option<crate::so3::Matrix3> {
        match self.measure {
            Measure::Distance => None,
            turning => Some(turning::frame(turning, y)),
        }
    }

    /// Target y turned by `angle` (rad) about the world's unit `axis`, its position kept;
    /// `None` for a task that does not turn the hand, or where the turned target leaves the
    /// task's chart (an axis pointing straight up).
    #[cfg(feature = "orientation")]
    pub fn turned(&self, y: &[f64], axis: [f64; 3], angle: f64) -> Option<Vec<f64>> {
        match self.measure {
            Measure::Distance => None,
            turning => turning::turned(turning, y, axis, angle),
        }
    }

    /// For a pose, the angle (rad) between target y's orientation and the chart's reference:
    /// how far from its cut at π the chart states it. `None` for other tasks.
    pub fn chart_angle(&self, y: &[f64]) -> Option<f64> {
        match self.measure {
            #[cfg(feature = "orientation")]
            Measure::Pose { .. } if y.len() == 6 => {
                Some((y[3] * y[3] + y[4] * y[4] + y[5] * y[5]).sqrt())
            }
            _ => {
                let _ = y;
                None
            }
        }
    }

    /// How far `reached` is from `target` (both m coordinates).
    pub fn miss(&self, target: &[f64], reached: &[f64]) -> Miss {
        match self.measure {
            Measure::Distance => Miss {
                distance: crate::nn::linalg::distance(reached, target),
                angle: None,
            },
            #[cfg(feature = "orientation")]
            turning => turning::miss(turning, target, reached),
        }
    }

    /// The unweighted tangent difference a ⊖ b into `out` (m entries): what moves b onto a, to
    /// first order, in the coordinates a Jacobian of this task is written in (a − b for a
    /// Euclidean task; see the module docs for the others).
    pub fn difference_into(&self, a: &[f64], b: &[f64], out: &mut [f64]) {
        match self.measure {
            Measure::Distance => {
                for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
                    *o = x - y;
                }
            }
            #[cfg(feature = "orientation")]
            turning => {
                for k in 0..3 {
                    out[k] = a[k] - b[k];
                }
                turning::difference_into(turning, a, b, out);
            }
        }
    }

    /// The weighted error (target ⊖ reached), each coordinate over its scale, into `out`: what a
    /// Jacobian step drives to zero (see [`Self::weigh_rows`]).
    pub fn error_into(&self, target: &[f64], reached: &[f64], out: &mut [f64]) {
        self.difference_into(target, reached, out);
        if !self.unit_weights {
            for (e, w) in out.iter_mut().zip(&self.weights) {
                *e *= w;
            }
        }
    }

    /// ‖target ⊖ reached‖ weighted ([`Self::error_into`]): what the restoring steps lower. For a
    /// Euclidean task in metres it is the distance itself.
    pub fn error_norm(&self, target: &[f64], reached: &[f64]) -> f64 {
        if self.unit_weights && matches!(self.measure, Measure::Distance) {
            return crate::nn::linalg::distance(reached, target);
        }
        let mut e = [0.0; MAX_STACK_DIM];
        if self.dim() > MAX_STACK_DIM {
            let mut e = vec![0.0; self.dim()];
            self.error_into(target, reached, &mut e);
            return crate::nn::linalg::norm(&e);
        }
        let e = &mut e[..self.dim()];
        self.error_into(target, reached, e);
        crate::nn::linalg::norm(e)
    }

    /// Weighs the rows of a column-major m × n Jacobian (`jac[i·m + r]`) like [`Self::error_into`].
    pub fn weigh_rows(&self, jac: &mut [f64]) {
        if self.unit_weights {
            return;
        }
        let m = self.dim();
        for column in jac.chunks_mut(m) {
            for (entry, w) in column.iter_mut().zip(&self.weights) {
                *entry *= w;
            }
        }
    }
}

fn metres(names: &[&str]) -> Vec<Coordinate> {
    names
        .iter()
        .map(|name| Coordinate {
            name: (*name).into(),
            unit: Unit::Metre,
            scale: 1.0,
        })
        .collect()
}
