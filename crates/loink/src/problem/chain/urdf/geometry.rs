//! What a URDF says of its links' shapes and of which links may touch: each link's
//! `<collision>` elements (a mesh file, a box, a cylinder, a sphere, each at its origin), every
//! link's frame below a base at given joint values, the links a joint connects, and the pairs an
//! SRDF's `<disable_collisions>` lets touch.

use std::collections::HashMap;

use roxmltree::{Document, Node};

use super::super::frame::Frame;
use super::attributes::{movable, origin, triple};
use super::joints::motion;
use super::{bad, child_link, document};
use crate::error::Result;

/// Most collision elements a file may hold (a bound on hostile files).
pub const MAX_SHAPES: usize = 4096;

/// One collision shape's geometry, in its own frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    /// A mesh file as the URDF names it (often `package://…`), and its scale.
    Mesh {
        /// The `filename` attribute.
        filename: String,
        /// The `scale` attribute (1 1 1 when absent).
        scale: [f64; 3],
    },
    /// A box of these full sizes, centred.
    Box {
        /// Sizes along x, y, z (m).
        size: [f64; 3],
    },
    /// A cylinder about z, centred.
    Cylinder {
        /// Radius (m).
        radius: f64,
        /// Length along z (m).
        length: f64,
    },
    /// A ball, centred.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
}

/// A collision shape: its geometry at its origin in the link's frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// The shape's frame in the link's frame.
    pub origin: Frame,
    /// Its geometry.
    pub geometry: Geometry,
}

/// A link's collision shapes.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkShapes {
    /// The link's name.
    pub link: String,
    /// Its shapes, in file order.
    pub shapes: Vec<Shape>,
}

/// Every link's collision shapes, links without any left out, in file order.
pub fn collision_shapes(bytes: &[u8]) -> Result<Vec<LinkShapes>> {
    let text = document::text(bytes)?;
    let doc = Document::parse(&text).map_err(|e| bad(format!("not XML ({e})")))?;
    let robot = document::robot(&doc)?;
    let mut out = Vec::new();
    let mut count = 0;
    for link in robot
        .children()
        .filter(|n| document::own(&robot, n, "link"))
    {
        let name = link.attribute("name").unwrap_or("(unnamed)");
        let mut shapes = Vec::new();
        for collision in link.children().filter(|n| n.has_tag_name("collision")) {
            count += 1;
            if count > MAX_SHAPES {
                return Err(bad(format!("more than {MAX_SHAPES} <collision> elements")));
            }
            let what = format!("link '{name}' collision");
            let geometry = collision
                .children()
                .find(|n| n.has_tag_name("geometry"))
                .and_then(|g| g.children().find(Node::is_element))
                .ok_or_else(|| bad(format!("{what} has no <geometry>")))?;
            shapes.push(Shape {
                origin: origin(&collision, &what)?,
                geometry: read_geometry(&geometry, &what)?,
            });
        }
        if !shapes.is_empty() {
            out.push(LinkShapes {
                link: name.to_string(),
                shapes,
            });
        }
    }
    Ok(out)
}

/// One `<geometry>` child read, sizes checked finite and positive.
fn read_geometry(node: &Node, what: &str) -> Result<Geometry> {
    let number = |key: &str| -> Result<f64> {
        let text = node.attribute(key).unwrap_or("");
        match text.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
            _ => Err(bad(format!(
                "{what} has <{} {key}=\"{text}\"> (a positive number expected)",
                node.tag_name().name()
            ))),
        }
    };
    let positive = |values: [f64; 3], key: &str| -> Result<[f64; 3]> {
        if values.iter().all(|v| *v > 0.0) {
            Ok(values)
        } else {
            Err(bad(format!(
                "{what} has a {key} that is not positive: {values:?}"
            )))
        }
    };
    Ok(match node.tag_name().name() {
        "mesh" => {
            let filename = node
                .attribute("filename")
                .filter(|f| !f.trim().is_empty())
                .ok_or_else(|| bad(format!("{what} has a <mesh> without a filename")))?;
            let scale = match node.attribute("scale") {
                Some(text) => positive(triple(Some(text), what, "mesh scale")?, "mesh scale")?,
                None => [1.0; 3],
            };
            Geometry::Mesh {
                filename: filename.trim().to_string(),
                scale,
            }
        }
        "box" => Geometry::Box {
            size: positive(
                triple(node.attribute("size"), what, "box size")?,
                "box size",
            )?,
        },
        "cylinder" => Geometry::Cylinder {
            radius: number("radius")?,
            length: number("length")?,
        },
        "sphere" => Geometry::Sphere {
            radius: number("radius")?,
        },
        other => return Err(bad(format!("{what} has an unknown geometry <{other}>"))),
    })
}

/// A link below the base, placed: its frame in the base frame and the last joint on its path
/// from the base that `moves` names (`None`: only fixed or other joints lie between).
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedLink {
    /// The link's name.
    pub link: String,
    /// Its frame in the base frame at the given joint values.
    pub frame: Frame,
    /// The deepest joint on its path that is one of the chain's movable joints.
    pub segment_joint: Option<String>,
}

/// Every link below `base` (the base itself first) at joint values `values` (a joint not named
/// there sits at 0, clamped into its limits), with the deepest of the `moving` joints on its
/// path.
pub fn links_below(
    bytes: &[u8],
    base: &str,
    values: &HashMap<String, f64>,
    moving: &[String],
) -> Result<Vec<PlacedLink>> {
    let text = document::text(bytes)?;
    let doc = Document::parse(&text).map_err(|e| bad(format!("not XML ({e})")))?;
    let robot = document::robot(&doc)?;
    let mut by_parent: HashMap<&str, Vec<Node>> = HashMap::new();
    for joint in robot
        .children()
        .filter(|n| document::own(&robot, n, "joint"))
    {
        by_parent
            .entry(child_link(&joint, "parent")?)
            .or_default()
            .push(joint);
    }
    let mut out = vec![PlacedLink {
        link: base.to_string(),
        frame: Frame::IDENTITY,
        segment_joint: None,
    }];
    let mut stack = vec![(base.to_string(), Frame::IDENTITY, None::<String>)];
    while let Some((link, frame, segment)) = stack.pop() {
        if out.len() > MAX_SHAPES * 4 {
            return Err(bad("too many links below the base".into()));
        }
        for joint in by_parent.get(link.as_str()).into_iter().flatten() {
            let name = joint.attribute("name").unwrap_or("(unnamed)");
            let child = child_link(joint, "child")?;
            if out.iter().any(|p| p.link == child) {
                return Err(bad(format!(
                    "the joints form a cycle through link '{child}'"
                )));
            }
            let mut at = frame.then(&origin(joint, name)?);
            if let Some((joint_type, axis, (lo, hi))) = movable(joint, name)? {
                let value = values.get(name).copied().unwrap_or(0.0_f64.clamp(lo, hi));
                at = at.then(&motion(joint_type, axis, value));
            }
            let segment = if moving.iter().any(|m| m == name) {
                Some(name.to_string())
            } else {
                segment.clone()
            };
            out.push(PlacedLink {
                link: child.to_string(),
                frame: at,
                segment_joint: segment.clone(),
            });
            stack.push((child.to_string(), at, segment));
        }
    }
    Ok(out)
}

/// The (parent, child) links of every joint.
pub fn joined_links(bytes: &[u8]) -> Result<Vec<(String, String)>> {
    let text = document::text(bytes)?;
    let doc = Document::parse(&text).map_err(|e| bad(format!("not XML ({e})")))?;
    let robot = document::robot(&doc)?;
    robot
        .children()
        .filter(|n| document::own(&robot, n, "joint"))
        .map(|j| {
            Ok((
                child_link(&j, "parent")?.to_string(),
                child_link(&j, "child")?.to_string(),
            ))
        })
        .collect()
}

/// The link pairs an SRDF's `<disable_collisions link1 link2>` elements name.
pub fn srdf_disabled_pairs(bytes: &[u8]) -> Result<Vec<(String, String)>> {
    let text = document::text(bytes)?;
    let doc = Document::parse(&text).map_err(|e| bad(format!("SRDF: not XML ({e})")))?;
    let robot = doc.root_element();
    if robot.tag_name().name() != "robot" {
        return Err(bad(format!(
            "SRDF: the root element is <{}>, not <robot>",
            robot.tag_name().name()
        )));
    }
    robot
        .children()
        .filter(|n| n.has_tag_name("disable_collisions"))
        .map(|n| match (n.attribute("link1"), n.attribute("link2")) {
            (Some(a), Some(b)) => Ok((a.to_string(), b.to_string())),
            _ => Err(bad(
                "SRDF: a <disable_collisions> without link1 and link2".into()
            )),
        })
        .collect()
}
