//! The spheres placed at q: every sphere's centre in the base frame, the distances the terms
//! hinge on, and the clearance a readout or a benchmark reports (the smallest of them, with the
//! two things it separates).

use super::scene::Object;
use super::CollisionSpec;
use crate::problem::chain::frame::Frame;

/// One sphere of the flattened list: its body, segment, local centre and radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Flat {
    pub(crate) body: usize,
    pub(crate) segment: usize,
    pub(crate) centre: [f64; 3],
    pub(crate) radius: f64,
}

/// A spec flattened for evaluation: the spheres in one list, and every sphere pair the `self`
/// term checks and every (sphere, object) pair the `scene` term checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub(crate) spheres: Vec<Flat>,
    pub(crate) self_pairs: Vec<[u32; 2]>,
    pub(crate) scene_pairs: Vec<(u32, u32)>,
    pub(crate) segments: usize,
    /// Each body's bounding ball (segment, centre in its frame, radius), for culling.
    pub(crate) bounds: Vec<Flat>,
    /// The self pairs by body pair: the two bodies and the range of `self_pairs` they hold.
    pub(crate) self_groups: Vec<(u32, u32, std::ops::Range<usize>)>,
    /// The scene pairs by (body, object): the range of `scene_pairs` they hold.
    pub(crate) scene_groups: Vec<(u32, u32, std::ops::Range<usize>)>,
}

impl Layout {
    /// The flattened form of a validated spec on a chain of `joints` movable joints.
    pub fn new(spec: &CollisionSpec, joints: usize) -> Layout {
        let mut spheres = Vec::new();
        let mut first = Vec::with_capacity(spec.bodies.len() + 1);
        for (b, body) in spec.bodies.iter().enumerate() {
            first.push(spheres.len() as u32);
            spheres.extend(body.spheres.iter().map(|s| Flat {
                body: b,
                segment: body.segment,
                centre: s.centre,
                radius: s.radius,
            }));
        }
        first.push(spheres.len() as u32);
        let mut self_pairs = Vec::new();
        let mut self_groups = Vec::new();
        for &[a, b] in &spec.pairs {
            let start = self_pairs.len();
            for i in first[a]..first[a + 1] {
                for j in first[b]..first[b + 1] {
                    self_pairs.push([i, j]);
                }
            }
            self_groups.push((a as u32, b as u32, start..self_pairs.len()));
        }
        let mut scene_pairs = Vec::new();
        let mut scene_groups = Vec::new();
        for (k, object) in spec.scene.objects().enumerate() {
            for (b, body) in spec.bodies.iter().enumerate() {
                if object.touch().contains(&body.name) {
                    continue;
                }
                let start = scene_pairs.len();
                scene_pairs.extend((first[b]..first[b + 1]).map(|i| (i, k as u32)));
                scene_groups.push((b as u32, k as u32, start..scene_pairs.len()));
            }
        }
        let bounds = spec
            .bodies
            .iter()
            .enumerate()
            .map(|(b, body)| bounding(b, body))
            .collect();
        Layout {
            spheres,
            self_pairs,
            scene_pairs,
            segments: joints + 1,
            bounds,
            self_groups,
            scene_groups,
        }
    }

    /// Sphere pairs the `self` term checks.
    pub fn self_pair_count(&self) -> usize {
        self.self_pairs.len()
    }

    /// The spheres' centres at the segment frames `frames` (one per segment).
    pub fn place(&self, frames: &[Frame]) -> Placed {
        Placed {
            centres: self
                .spheres
                .iter()
                .map(|s| frames[s.segment].apply(s.centre))
                .collect(),
            bounds: self
                .bounds
                .iter()
                .map(|s| frames[s.segment].apply(s.centre))
                .collect(),
        }
    }

    /// The self pairs that may lie closer than `within` (m): those of the body pairs whose
    /// bounding balls do.
    pub(crate) fn near_self_pairs<'a>(
        &'a self,
        placed: &'a Placed,
        within: f64,
    ) -> impl Iterator<Item = [u32; 2]> + 'a {
        self.self_groups
            .iter()
            .filter(move |(a, b, _)| {
                let (pa, pb) = (placed.bounds[*a as usize], placed.bounds[*b as usize]);
                let d =
                    ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2) + (pa[2] - pb[2]).powi(2))
                        .sqrt();
                d - self.bounds[*a as usize].radius - self.bounds[*b as usize].radius < within
            })
            .flat_map(move |(_, _, range)| self.self_pairs[range.clone()].iter().copied())
    }

    /// The scene pairs that may lie closer than `within` (m).
    pub(crate) fn near_scene_pairs<'a>(
        &'a self,
        placed: &'a Placed,
        objects: &'a [Object],
        within: f64,
    ) -> impl Iterator<Item = (u32, u32)> + 'a {
        self.scene_groups
            .iter()
            .filter(move |(b, k, _)| {
                let (phi, _) = objects[*k as usize].distance(placed.bounds[*b as usize]);
                phi - self.bounds[*b as usize].radius < within
            })
            .flat_map(move |(_, _, range)| self.scene_pairs[range.clone()].iter().copied())
    }
}

/// A ball around every sphere of a body (centred on their mean).
fn bounding(index: usize, body: &super::Body) -> Flat {
    let n = body.spheres.len().max(1) as f64;
    let centre = [0, 1, 2].map(|k| body.spheres.iter().map(|s| s.centre[k]).sum::<f64>() / n);
    let radius = body
        .spheres
        .iter()
        .map(|s| {
            let d = [0, 1, 2].map(|k| s.centre[k] - centre[k]);
            (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() + s.radius
        })
        .fold(0.0, f64::max);
    Flat {
        body: index,
        segment: body.segment,
        centre,
        radius,
    }
}

/// The spheres' centres at some q, in the base frame, in [`Layout`] order.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// One centre per sphere.
    pub centres: Vec<[f64; 3]>,
    /// One centre per body's bounding ball.
    pub bounds: Vec<[f64; 3]>,
}

/// What the smallest distance separates: two bodies, or a body and a scene object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contact {
    /// Two links of the robot.
    Bodies(String, String),
    /// A link and a scene object.
    Scene(String, String),
}

impl std::fmt::Display for Contact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contact::Bodies(a, b) => write!(f, "{a} and {b}"),
            Contact::Scene(a, b) => write!(f, "{a} and the {b}"),
        }
    }
}

/// The smallest signed sphere distance of a posture and what it separates (negative: they
/// overlap by that much).
#[derive(Debug, Clone, PartialEq)]
pub struct Clearance {
    /// The distance (m).
    pub distance: f64,
    /// Between what.
    pub contact: Contact,
}

impl Clearance {
    /// Whether nothing overlaps.
    pub fn is_clear(&self) -> bool {
        self.distance > 0.0
    }
}

impl Placed {
    /// d = |p_a − p_b| − r_a − r_b of self pair `pair`, and the unit direction from b to a.
    pub(crate) fn pair_distance(&self, layout: &Layout, pair: [u32; 2]) -> (f64, [f64; 3]) {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        let (pa, pb) = (self.centres[a], self.centres[b]);
        let v = [pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]];
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let dir = if len > 0.0 {
            v.map(|x| x / len)
        } else {
            [0.0; 3]
        };
        (
            len - layout.spheres[a].radius - layout.spheres[b].radius,
            dir,
        )
    }

    /// d = φ(p) − r of a (sphere, object) pair and ∇φ(p).
    pub(crate) fn scene_distance(
        &self,
        layout: &Layout,
        objects: &[Object],
        pair: (u32, u32),
    ) -> (f64, [f64; 3]) {
        let i = pair.0 as usize;
        let (phi, grad) = objects[pair.1 as usize].distance(self.centres[i]);
        (phi - layout.spheres[i].radius, grad)
    }

    /// The clearance over every checked pair (`None` when nothing is checked).
    pub fn clearance(&self, layout: &Layout, spec: &CollisionSpec) -> Option<Clearance> {
        let objects: Vec<Object> = spec.scene.objects().collect();
        let body = |i: u32| spec.bodies[layout.spheres[i as usize].body].name.clone();
        let mut best: Option<(f64, Contact)> = None;
        let mut keep = |d: f64, contact: &dyn Fn() -> Contact| {
            if best.as_ref().is_none_or(|(b, _)| d < *b) {
                best = Some((d, contact()));
            }
        };
        for &pair in &layout.self_pairs {
            let (d, _) = self.pair_distance(layout, pair);
            keep(d, &|| Contact::Bodies(body(pair[0]), body(pair[1])));
        }
        for &pair in &layout.scene_pairs {
            let (d, _) = self.scene_distance(layout, &objects, pair);
            keep(d, &|| {
                Contact::Scene(body(pair.0), objects[pair.1 as usize].name().to_string())
            });
        }
        best.map(|(distance, contact)| Clearance { distance, contact })
    }
}
