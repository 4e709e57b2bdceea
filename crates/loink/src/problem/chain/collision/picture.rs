//! The collision model as a view draws it: the scene's boxes and, at a posture, every sphere
//! placed, the links that overlap something and the clearance in words.

use super::placed::{Layout, Placed};
use super::CollisionSpec;
use crate::problem::chain::SerialChain;
use crate::problem::collision_picture::{CollisionPicture, Obstacle, PlacedSphere};

/// The scene's boxes of a chain (none without a collision model).
pub fn obstacles(chain: &SerialChain) -> Vec<Obstacle> {
    chain
        .chain()
        .collision
        .as_ref()
        .map_or_else(Vec::new, |spec| {
            spec.scene
                .boxes
                .iter()
                .map(|b| Obstacle {
                    name: b.name.clone(),
                    centre: b.centre,
                    size: b.size,
                })
                .collect()
        })
}

/// The collision model of a chain at q (None without one, or for a q of the wrong size).
pub fn picture(chain: &SerialChain, q: &[f64]) -> Option<CollisionPicture> {
    let (spec, layout) = (chain.chain().collision.as_ref()?, chain.collision_layout()?);
    if q.len() != chain.variables.len() || q.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let placed = layout.place(&super::cost::segment_frames(chain, q));
    let spheres = layout
        .spheres
        .iter()
        .zip(&placed.centres)
        .map(|(s, &centre)| PlacedSphere {
            centre,
            radius: s.radius,
            link: s.body,
        })
        .collect();
    let overlapping = overlapping(&placed, layout, spec);
    let links = spec
        .bodies
        .iter()
        .zip(overlapping)
        .map(|(b, o)| (b.name.clone(), o))
        .collect();
    let clearance = placed
        .clearance(layout, spec)
        .map(|c| (c.distance, c.contact.to_string()));
    Some(CollisionPicture {
        spheres,
        links,
        clearance,
    })
}

/// Each body: whether one of its spheres overlaps a sphere of another body it is checked
/// against, or a scene object it may not touch.
fn overlapping(placed: &Placed, layout: &Layout, spec: &CollisionSpec) -> Vec<bool> {
    let mut hit = vec![false; spec.bodies.len()];
    for &pair in &layout.self_pairs {
        if placed.pair_distance(layout, pair).0 < 0.0 {
            hit[layout.spheres[pair[0] as usize].body] = true;
            hit[layout.spheres[pair[1] as usize].body] = true;
        }
    }
    let objects: Vec<_> = spec.scene.objects().collect();
    for &pair in &layout.scene_pairs {
        if placed.scene_distance(layout, &objects, pair).0 < 0.0 {
            hit[layout.spheres[pair.0 as usize].body] = true;
        }
    }
    hit
}
