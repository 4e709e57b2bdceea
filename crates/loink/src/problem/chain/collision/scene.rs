//! The static scene a chain works in: half-spaces (a table top, a wall) and axis-aligned boxes (a
//! shelf board), each with its signed distance φ (negative inside) and that distance's gradient.
//!
//! A scene file is TOML (read by the CLI; a model file stores the same fields as JSON):
//!
//! ```toml
//! [[half_space]]
//! name = "table"
//! normal = [0, 0, 1]   # outward: the solid is where normal · x < offset
//! offset = 0.0
//! touch = ["panda_link0"]   # links that may touch it (the robot stands on it)
//!
//! [[box]]
//! name = "shelf"
//! centre = [0.60, 0.0, 0.45]
//! size = [0.6, 1.2, 0.03]
//! ```

use serde::{Deserialize, Serialize};

use crate::error::{LoinkError, Result};

/// Largest coordinate or size a scene accepts (m): far beyond any robot's reach.
pub const MAX_EXTENT: f64 = 1000.0;
/// Most objects of a scene.
pub const MAX_OBJECTS: usize = 256;

/// The solid {x : n · x < offset}, n its unit outward normal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HalfSpace {
    /// Its name in readouts.
    pub name: String,
    /// The unit outward normal n.
    pub normal: [f64; 3],
    /// Where its surface lies along n (m).
    pub offset: f64,
    /// Links that may touch it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touch: Vec<String>,
}

/// An axis-aligned box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cuboid {
    /// Its name in readouts.
    pub name: String,
    /// Its centre (m).
    pub centre: [f64; 3],
    /// Its full sizes along x, y and z (m, each > 0).
    pub size: [f64; 3],
    /// Links that may touch it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touch: Vec<String>,
}

/// The scene: its half-spaces and boxes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// The half-spaces.
    #[serde(rename = "half_space", default, skip_serializing_if = "Vec::is_empty")]
    pub half_spaces: Vec<HalfSpace>,
    /// The boxes.
    #[serde(rename = "box", default, skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<Cuboid>,
}

/// One object of a scene, whichever its shape.
#[derive(Debug, Clone, Copy)]
pub enum Object<'a> {
    /// A half-space.
    HalfSpace(&'a HalfSpace),
    /// A box.
    Box(&'a Cuboid),
}

impl<'a> Object<'a> {
    /// Its name.
    pub fn name(&self) -> &'a str {
        match self {
            Object::HalfSpace(h) => &h.name,
            Object::Box(b) => &b.name,
        }
    }

    /// The links that may touch it.
    pub fn touch(&self) -> &'a [String] {
        match self {
            Object::HalfSpace(h) => &h.touch,
            Object::Box(b) => &b.touch,
        }
    }

    /// φ(p), the signed distance of point p from its surface (negative inside), and ∇φ(p).
    pub fn distance(&self, p: [f64; 3]) -> (f64, [f64; 3]) {
        match self {
            Object::HalfSpace(h) => {
                let n = h.normal;
                (n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - h.offset, n)
            }
            Object::Box(b) => box_distance(b, p),
        }
    }
}

/// The signed distance of p from an axis-aligned box and its gradient: outside, the distance to
/// the nearest point; inside, minus the depth below the nearest face.
fn box_distance(cuboid: &Cuboid, p: [f64; 3]) -> (f64, [f64; 3]) {
    let mut local = [0.0; 3];
    let mut excess = [0.0; 3];
    for i in 0..3 {
        local[i] = p[i] - cuboid.centre[i];
        excess[i] = local[i].abs() - 0.5 * cuboid.size[i];
    }
    let sign = |v: f64| if v < 0.0 { -1.0 } else { 1.0 };
    let outside = excess.map(|e| e.max(0.0));
    let out_norm =
        (outside[0] * outside[0] + outside[1] * outside[1] + outside[2] * outside[2]).sqrt();
    if out_norm > 0.0 {
        let mut grad = [0.0; 3];
        for i in 0..3 {
            grad[i] = outside[i] / out_norm * sign(local[i]);
        }
        return (out_norm, grad);
    }
    let k = (0..3)
        .max_by(|&a, &b| excess[a].total_cmp(&excess[b]))
        .unwrap_or(0);
    let mut grad = [0.0; 3];
    grad[k] = sign(local[k]);
    (excess[k], grad)
}

impl Scene {
    /// Every object, half-spaces first.
    pub fn objects(&self) -> impl Iterator<Item = Object<'_>> {
        self.half_spaces
            .iter()
            .map(Object::HalfSpace)
            .chain(self.boxes.iter().map(Object::Box))
    }

    /// Whether the scene holds nothing.
    pub fn is_empty(&self) -> bool {
        self.half_spaces.is_empty() && self.boxes.is_empty()
    }

    /// Every link name some object lets touch it.
    pub fn ignored_links(&self) -> impl Iterator<Item = &str> {
        self.objects()
            .flat_map(|o| o.touch().iter().map(String::as_str))
    }

    /// The scene with every half-space's normal scaled to unit length (a file may give any
    /// non-zero normal), validated.
    pub fn normalised(mut self) -> Result<Self> {
        for h in &mut self.half_spaces {
            let norm = crate::problem::chain::frame::length(h.normal);
            if norm.is_finite() && norm > 1e-9 {
                h.normal = h.normal.map(|v| v / norm);
                h.offset /= norm;
            }
        }
        self.validate()?;
        Ok(self)
    }

    /// Checks every object: a name, finite numbers within [`MAX_EXTENT`], unit normals,
    /// positive sizes, distinct names, at most [`MAX_OBJECTS`].
    pub fn validate(&self) -> Result<()> {
        let out = |what: String, detail: String| LoinkError::OutOfRange { what, detail };
        let count = self.half_spaces.len() + self.boxes.len();
        if count > MAX_OBJECTS {
            return Err(out(
                "the scene".into(),
                format!("{count} objects (at most {MAX_OBJECTS})"),
            ));
        }
        let mut names = std::collections::HashSet::new();
        for object in self.objects() {
            let name = object.name();
            if name.trim().is_empty() || name.len() > 64 {
                return Err(out(
                    "a scene object's name".into(),
                    format!("'{name}' (1 to 64 characters)"),
                ));
            }
            if !names.insert(name) {
                return Err(out(
                    "the scene".into(),
                    format!("two objects are named '{name}'"),
                ));
            }
            let what = |part: &str| format!("{part} of scene object '{name}'");
            let within = |part: &str, values: &[f64]| -> Result<()> {
                crate::error::ensure_finite(&what(part), values)?;
                match values.iter().find(|v| v.abs() > MAX_EXTENT) {
                    Some(v) => Err(out(what(part), format!("{v} (|value| ≤ {MAX_EXTENT} m)"))),
                    None => Ok(()),
                }
            };
            match object {
                Object::HalfSpace(h) => {
                    within("normal", &h.normal)?;
                    within("offset", &[h.offset])?;
                    let norm = crate::problem::chain::frame::length(h.normal);
                    if (norm - 1.0).abs() > 1e-9 {
                        return Err(out(
                            what("normal"),
                            format!("length {norm} (a unit vector; a scene file may give any non-zero one)"),
                        ));
                    }
                }
                Object::Box(b) => {
                    within("centre", &b.centre)?;
                    within("size", &b.size)?;
                    if let Some(s) = b.size.iter().find(|s| **s <= 0.0) {
                        return Err(out(what("size"), format!("{s} m (every size > 0)")));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shelf() -> Cuboid {
        Cuboid {
            name: "shelf".into(),
            centre: [0.6, 0.0, 0.45],
            size: [0.6, 1.2, 0.03],
            touch: vec![],
        }
    }

    #[test]
    fn box_distance_is_signed_and_its_gradient_matches_differences() {
        let b = shelf();
        let object = Object::Box(&b);
        let (above, g) = object.distance([0.6, 0.0, 0.5]);
        assert!((above - 0.035).abs() < 1e-12 && g == [0.0, 0.0, 1.0]);
        let (inside, _) = object.distance([0.6, 0.0, 0.45]);
        assert!((inside + 0.015).abs() < 1e-12);
        for p in [
            [1.0, 0.7, 0.6],
            [0.2, -0.1, 0.44],
            [0.61, 0.3, 0.46],
            [0.9, 0.0, 0.3],
        ] {
            let (_, g) = object.distance(p);
            for i in 0..3 {
                let h = 1e-7;
                let (mut a, mut b2) = (p, p);
                a[i] += h;
                b2[i] -= h;
                let fd = (object.distance(a).0 - object.distance(b2).0) / (2.0 * h);
                assert!((fd - g[i]).abs() < 1e-5, "{p:?} axis {i}: {fd} vs {}", g[i]);
            }
        }
    }

    #[test]
    fn bad_objects_are_refused_by_name() {
        let mut scene = Scene {
            boxes: vec![shelf()],
            ..Scene::default()
        };
        assert!(scene.validate().is_ok());
        scene.boxes[0].size[1] = -1.0;
        let e = scene.validate().unwrap_err().to_string();
        assert!(e.contains("shelf") && e.contains("size"), "{e}");
        scene.boxes[0].size[1] = f64::NAN;
        assert!(scene.validate().is_err());
        let table = Scene {
            half_spaces: vec![HalfSpace {
                name: "table".into(),
                normal: [0.0, 0.0, 2.0],
                offset: 0.0,
                touch: vec![],
            }],
            ..Scene::default()
        };
        assert!(
            table.validate().is_err(),
            "a non-unit normal in a stored scene"
        );
        let fixed = table.normalised().unwrap();
        assert_eq!(fixed.half_spaces[0].normal, [0.0, 0.0, 1.0]);
        let zero = Scene {
            half_spaces: vec![HalfSpace {
                name: "floor".into(),
                normal: [0.0; 3],
                offset: 0.0,
                touch: vec![],
            }],
            ..Scene::default()
        };
        assert!(zero.normalised().is_err());
    }
}
