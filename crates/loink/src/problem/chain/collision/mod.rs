//! What a chain may not touch: its links as spheres, the pairs of links checked against each
//! other, and a static scene (half-spaces, boxes), with the two cost terms that keep the arm
//! clear (docs/collision.md).
//!
//! Symbols: each body b (a URDF link with collision geometry) rides on segment s(b) of the chain
//! (0 the base, i + 1 the frame moved by joint i) and carries spheres (c, r), c in that
//! segment's frame. At q a sphere's centre is p = S_s(q) · c. The signed distance of two spheres
//! is d = |p_a − p_b| − r_a − r_b, of a sphere and a scene object d = φ(p) − r with φ the
//! object's signed distance. Each term is the hinge w · Σ ((m − d)/m)³ over the distances below
//! its margin m: zero when everything is at least m apart, w at contact, continuous with its
//! gradient and curvature (what the polish, DLS's null-space pull and Newton need; the polish
//! also keeps its cost steps short on it, [`crate::cost::CostTerm::max_step`]).
//!
//! - this file: [`CollisionSpec`] (what a model file stores of a chain's bodies and scene) and
//!   its checks;
//! - [`scene`]: the scene's objects and their signed distances;
//! - [`placed`]: the spheres placed at q, the clearance report and the terms' sums;
//! - [`cost`]: the `self` and `scene` cost terms;
//! - [`picture`]: what a view draws of it (the boxes, the spheres at q, the links that touch);
//! - [`rescene`]: a problem's scene, and the same problem in another;
//! - [`seeds`]: the reference's starts, clear neighbours of the target;
//! - [`bind`] (feature `urdf`): a spheres file and a URDF made a [`CollisionSpec`] for a chain.

#[cfg(feature = "urdf")]
pub mod bind;
pub mod cost;
pub mod picture;
pub mod placed;
pub mod rescene;
pub mod scene;
pub mod seeds;
#[cfg(feature = "urdf")]
pub mod spheres_file;

use serde::{Deserialize, Serialize};

use crate::error::{LoinkError, Result};
pub use placed::{Clearance, Contact, Placed};
pub use scene::{Cuboid, HalfSpace, Scene};

/// Most spheres a chain may carry, and most checked pairs (bounds on hostile files, far above a
/// fitted arm's).
pub const MAX_SPHERES: usize = 4096;
/// Most body pairs a chain may check.
pub const MAX_PAIRS: usize = 16_384;

/// A ball: centre (m, in its frame) and radius (m).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sphere {
    /// The centre.
    pub centre: [f64; 3],
    /// The radius (> 0).
    pub radius: f64,
}

/// One link of the robot as spheres on one segment of the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Body {
    /// The link's name in the source.
    pub name: String,
    /// The segment it rides on: 0 the base, i + 1 the frame joint i moves.
    pub segment: usize,
    /// Its spheres, centres in the segment's frame.
    pub spheres: Vec<Sphere>,
}

/// A chain's bodies, the pairs of them that may collide, and its scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollisionSpec {
    /// Where the spheres came from (the spheres file's own name and what it says of its source).
    pub source: String,
    /// The bodies.
    pub bodies: Vec<Body>,
    /// The pairs of bodies (indices into `bodies`) whose distance the `self` term keeps: every
    /// pair except those on one rigid segment, adjacent links and the pairs the robot's SRDF
    /// disables.
    pub pairs: Vec<[usize; 2]>,
    /// The static scene.
    #[serde(default)]
    pub scene: Scene,
    /// The `self` term's margin m (m).
    pub self_margin: f64,
    /// The `scene` term's margin m (m).
    pub scene_margin: f64,
}

impl CollisionSpec {
    /// Checks the spec against a chain of `joints` movable joints: finite positive radii and
    /// margins, segments on the chain, pairs of distinct bodies, a valid scene, and the bounds.
    pub fn validate(&self, joints: usize) -> Result<()> {
        let out = |what: &str, detail: String| LoinkError::OutOfRange {
            what: format!("the chain's collision {what}"),
            detail,
        };
        for (what, margin) in [
            ("self margin", self.self_margin),
            ("scene margin", self.scene_margin),
        ] {
            if !(margin.is_finite() && margin > 0.0 && margin <= 1.0) {
                return Err(out(what, format!("{margin} m (must be in (0, 1])")));
            }
        }
        let spheres: usize = self.bodies.iter().map(|b| b.spheres.len()).sum();
        if spheres > MAX_SPHERES {
            return Err(out("spheres", format!("{spheres} (at most {MAX_SPHERES})")));
        }
        if self.pairs.len() > MAX_PAIRS {
            return Err(out(
                "pairs",
                format!("{} (at most {MAX_PAIRS})", self.pairs.len()),
            ));
        }
        for body in &self.bodies {
            if body.segment > joints {
                return Err(out(
                    "body",
                    format!(
                        "'{}' rides on segment {} of a chain of {joints} joints",
                        body.name, body.segment
                    ),
                ));
            }
            for sphere in &body.spheres {
                crate::error::ensure_finite(
                    &format!("a sphere of '{}'", body.name),
                    &sphere.centre,
                )?;
                if !(sphere.radius.is_finite() && sphere.radius > 0.0 && sphere.radius < 10.0) {
                    return Err(out(
                        "sphere",
                        format!(
                            "radius {} m on '{}' (must be in (0, 10))",
                            sphere.radius, body.name
                        ),
                    ));
                }
            }
        }
        for &[a, b] in &self.pairs {
            if a == b || a >= self.bodies.len() || b >= self.bodies.len() {
                return Err(out(
                    "pair",
                    format!("[{a}, {b}] (two distinct bodies of {})", self.bodies.len()),
                ));
            }
        }
        self.scene.validate()?;
        for name in self.scene.ignored_links() {
            if !self.bodies.iter().any(|b| b.name == name) {
                return Err(out(
                    "scene",
                    format!("an object lets '{name}' touch it, but no body has that name"),
                ));
            }
        }
        Ok(())
    }

    /// The index of the body named `name`.
    pub fn body(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }
}
