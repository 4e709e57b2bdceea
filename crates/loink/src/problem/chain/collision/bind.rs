//! A spheres file and its URDF made a chain's [`CollisionSpec`]: each link below the chain's base
//! rides on the segment of the deepest chain joint above it, its spheres carried into that
//! segment's frame (joints off the chain at 0 within their limits, held joints at their value);
//! every pair of bodies is checked except pairs on one rigid segment and the file's skipped pairs.

use std::collections::HashMap;

use super::spheres_file::SpheresFile;
use super::{Body, CollisionSpec, Scene, Sphere};
use crate::error::{LoinkError, Result};
use crate::problem::chain::urdf::geometry;
use crate::problem::chain::SerialChain;

/// The collision spec of `chain` (read from `urdf`) with the spheres of `spheres`, the scene
/// `scene` and the two margins (m).
pub fn collision_spec(
    chain: &SerialChain,
    urdf: &[u8],
    spheres: &SpheresFile,
    scene: Scene,
    self_margin: f64,
    scene_margin: f64,
) -> Result<CollisionSpec> {
    let spec = chain.chain();
    let q0 = vec![0.0; chain.joint_names().count()];
    let mut values: HashMap<String, f64> = spec
        .held
        .iter()
        .map(|h| (h.name.clone(), h.value))
        .collect();
    let moving: Vec<String> = spec.joints.iter().map(|j| j.name.clone()).collect();
    let frames = super::cost::segment_frames(chain, &q0);
    for joint in &spec.joints {
        // A joint following another sits at its offset when the variables are 0.
        let offset = joint.mimic.as_ref().map_or(0.0, |m| m.offset);
        values.insert(joint.name.clone(), offset);
    }
    let placed = geometry::links_below(urdf, &spec.base, &values, &moving)?;
    let by_link: HashMap<&str, &geometry::PlacedLink> =
        placed.iter().map(|p| (p.link.as_str(), p)).collect();
    let mut bodies = Vec::new();
    for link in &spheres.links {
        let Some(at) = by_link.get(link.link.as_str()) else {
            continue;
        };
        let segment = match &at.segment_joint {
            None => 0,
            Some(joint) => moving.iter().position(|m| m == joint).map_or(0, |i| i + 1),
        };
        let seg = &frames[segment];
        let to_segment = |p: [f64; 3]| {
            let world = at.frame.apply(p);
            let d = [
                world[0] - seg.xyz[0],
                world[1] - seg.xyz[1],
                world[2] - seg.xyz[2],
            ];
            let r = &seg.rotation;
            [
                r[0] * d[0] + r[3] * d[1] + r[6] * d[2],
                r[1] * d[0] + r[4] * d[1] + r[7] * d[2],
                r[2] * d[0] + r[5] * d[1] + r[8] * d[2],
            ]
        };
        bodies.push(Body {
            name: link.link.clone(),
            segment,
            spheres: link
                .spheres
                .iter()
                .map(|s| Sphere {
                    centre: to_segment(s.centre),
                    radius: s.radius,
                })
                .collect(),
        });
    }
    if bodies.is_empty() {
        return Err(LoinkError::RobotFile(format!(
            "no link of the spheres file lies below the base '{}'",
            spec.base
        )));
    }
    let mut pairs = Vec::new();
    for a in 0..bodies.len() {
        for b in a + 1..bodies.len() {
            let (ba, bb) = (&bodies[a], &bodies[b]);
            if ba.segment != bb.segment && !spheres.skips(&ba.name, &bb.name) {
                pairs.push([a, b]);
            }
        }
    }
    let source = format!(
        "spheres fitted to {}'s collision geometry ({})",
        spheres.urdf.file, spheres.method
    );
    let spec = CollisionSpec {
        source,
        bodies,
        pairs,
        scene,
        self_margin,
        scene_margin,
    };
    spec.validate(chain.chain().joints.len())?;
    Ok(spec)
}
