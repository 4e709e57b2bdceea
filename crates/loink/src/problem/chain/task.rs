//! A chain's task in the task space's coordinates (docs/pose.md): the tip's position, with its
//! orientation as the rotation vector about the chart reference, or its z axis as stereographic
//! coordinates; and the Jacobian's columns in the task space's tangent coordinates — a joint's
//! motion moves the tip point by a × (p − o) (revolute) or a (prismatic), turns the hand by
//! ω = a, which the pose task reads in the reached frame (Rᵀω) and the axis task as the
//! direction's motion ω × d in the tangent basis at d.

use super::frame::Frame;
use super::spec::{ChainSpec, Task};
use crate::error::{LoinkError, Result};
use crate::problem::task_space::tangent_basis;
use crate::problem::{JointLimits, Measure, TaskSpace};
use crate::so3::{self, Quaternion, Vector3};

/// The task space of `chain`: points, a pose about its chart reference (the spec's, else the
/// tip's orientation at the middle of the box, from `walk`), or an axis.
pub(super) fn space(
    chain: &ChainSpec,
    walk: impl Fn(&[f64]) -> Frame,
    limits: &JointLimits,
) -> Result<TaskSpace> {
    Ok(match chain.task {
        Task::Position => TaskSpace::points(3),
        Task::Axis => TaskSpace::axis(),
        Task::Pose => {
            let reference = match chain.chart {
                Some([w, x, y, z]) => Quaternion::new(w, x, y, z)
                    .checked_unit()
                    .map_err(|e| LoinkError::OutOfRange {
                        what: "the chain's chart reference".into(),
                        detail: e.to_string(),
                    })?
                    .to_matrix(),
                None => walk(&limits.centres()).rotation,
            };
            TaskSpace::pose(reference)
        }
    })
}

/// y of the tip's frame: its position, then its orientation's or axis's chart coordinates.
pub(super) fn coordinates(space: &TaskSpace, tip: &Frame, y: &mut [f64]) {
    y[..3].copy_from_slice(&tip.xyz);
    match space.measure() {
        Measure::Distance => {}
        Measure::Pose { reference } => {
            let relative = so3::transpose_mul(&reference, &tip.rotation);
            y[3..6].copy_from_slice(&so3::log(&relative));
        }
        Measure::Axis => {
            let d = z_axis(tip);
            // Straight up the chart ends; a bounded stand-in keeps the numbers finite.
            let below = (1.0 - d[2]).max(1e-12);
            y[3] = d[0] / below;
            y[4] = d[1] / below;
        }
    }
}

fn z_axis(tip: &Frame) -> Vector3 {
    [tip.rotation[2], tip.rotation[5], tip.rotation[8]]
}

/// What every Jacobian column of one configuration shares: the tip, and for the turning tasks
/// the frame the turn is read in.
pub(super) struct TaskColumns {
    task: Task,
    tip: Vector3,
    rotation: [f64; 9],
    axis: Vector3,
    basis: (Vector3, Vector3),
}

impl TaskColumns {
    /// The columns' common part at the tip frame `tip`.
    pub(super) fn at(task: Task, tip: &Frame) -> Self {
        let axis = z_axis(tip);
        TaskColumns {
            task,
            tip: tip.xyz,
            rotation: tip.rotation,
            axis,
            basis: match task {
                Task::Axis => tangent_basis(axis),
                _ => ([0.0; 3], [0.0; 3]),
            },
        }
    }

    /// The column of a joint whose world axis is `a` through `origin` into `column` (m
    /// entries).
    #[inline]
    pub(super) fn write(&self, rotates: bool, a: Vector3, origin: Vector3, column: &mut [f64]) {
        let linear = if rotates {
            let arm = [
                self.tip[0] - origin[0],
                self.tip[1] - origin[1],
                self.tip[2] - origin[2],
            ];
            so3::cross(a, arm)
        } else {
            a
        };
        column[..3].copy_from_slice(&linear);
        let turn = if rotates { a } else { [0.0; 3] };
        match self.task {
            Task::Position => {}
            Task::Pose => column[3..6].copy_from_slice(&so3::apply_transpose(&self.rotation, turn)),
            Task::Axis => {
                let moved = so3::cross(turn, self.axis);
                column[3] = so3::dot(self.basis.0, moved);
                column[4] = so3::dot(self.basis.1, moved);
            }
        }
    }
}
