//! A link's collision geometry loaded: each shape as a parry3d shape at its pose in the link's
//! frame (what the fit is graded against), and points on its surface (what the spheres must
//! cover). Mesh files are found from the URDF's `filename` (`package://PKG/…`, `file://…` or a
//! relative path) under the URDF's directory and the `--mesh-dir` roots.

use std::path::{Path, PathBuf};

use loink::problem::chain::urdf::geometry::{Geometry, Shape};
use loink::problem::chain::Frame;
use parry3d_f64::math::{Mat3 as DMat3, Pose, Rot3, Vec3 as DVec3};
use parry3d_f64::query::PointQuery;
use parry3d_f64::shape::{Ball, Cuboid, Cylinder, TriMesh, TriMeshFlags};

/// Largest mesh file read (bytes).
pub const MAX_MESH_BYTES: u64 = 64 * 1024 * 1024;
/// Spacing of the points sampled on a surface (m).
const SPACING: f64 = 0.008;

/// One shape ready to query.
pub enum Solid {
    /// A closed triangle mesh (pseudo-normals computed: inside/outside is reliable).
    Mesh(Box<TriMesh>),
    /// A box.
    Box(Cuboid),
    /// A cylinder about z.
    Cylinder(Cylinder),
    /// A ball.
    Ball(Ball),
}

/// A link's geometry: its shapes at their poses, the points on their surfaces, and which of
/// those points are mesh vertices.
pub struct LinkGeometry {
    /// Each shape and its pose in the link's frame.
    pub solids: Vec<(Pose, Solid)>,
    /// Points on the surfaces, in the link's frame.
    pub points: Vec<[f64; 3]>,
    /// How many of the first `points` are mesh vertices (the rest are samples).
    pub vertices: usize,
}

impl LinkGeometry {
    /// The signed distance of p from the union of the shapes: negative inside one.
    pub fn signed_distance(&self, p: [f64; 3]) -> f64 {
        let point = DVec3::from_array(p);
        let mut best = f64::INFINITY;
        for (pose, solid) in &self.solids {
            let projection = match solid {
                Solid::Mesh(s) => s.project_point(pose, point, true),
                Solid::Box(s) => s.project_point(pose, point, true),
                Solid::Cylinder(s) => s.project_point(pose, point, true),
                Solid::Ball(s) => s.project_point(pose, point, true),
            };
            let d = (projection.point - point).length();
            if projection.is_inside {
                return -d;
            }
            best = best.min(d);
        }
        best
    }
}

/// The pose of a URDF frame as parry's.
fn pose(frame: &Frame) -> Pose {
    let r = frame.rotation;
    let matrix = DMat3::from_cols(
        DVec3::new(r[0], r[3], r[6]),
        DVec3::new(r[1], r[4], r[7]),
        DVec3::new(r[2], r[5], r[8]),
    );
    Pose::from_parts(DVec3::from_array(frame.xyz), Rot3::from_mat3(&matrix))
}

/// Loads one link's shapes (`urdf_dir` and `roots`: where mesh files are looked for).
pub fn load(shapes: &[Shape], urdf_dir: &Path, roots: &[PathBuf]) -> Result<LinkGeometry, String> {
    let mut geometry = LinkGeometry {
        solids: Vec::new(),
        points: Vec::new(),
        vertices: 0,
    };
    let mut vertices = Vec::new();
    let mut samples = Vec::new();
    for shape in shapes {
        let at = |p: [f64; 3]| shape.origin.apply(p);
        let solid = match &shape.geometry {
            Geometry::Mesh { filename, scale } => {
                let path = find_mesh(filename, urdf_dir, roots)?;
                let (points, triangles) = read_stl(&path)?;
                let points: Vec<[f64; 3]> = points
                    .iter()
                    .map(|p| [p[0] * scale[0], p[1] * scale[1], p[2] * scale[2]])
                    .collect();
                vertices.extend(points.iter().map(|&p| at(p)));
                for t in &triangles {
                    sample_triangle(
                        [
                            points[t[0] as usize],
                            points[t[1] as usize],
                            points[t[2] as usize],
                        ],
                        &mut |p| samples.push(at(p)),
                    );
                }
                let mesh = TriMesh::with_flags(
                    points.iter().map(|p| DVec3::from_array(*p)).collect(),
                    triangles,
                    TriMeshFlags::ORIENTED | TriMeshFlags::MERGE_DUPLICATE_VERTICES,
                )
                .map_err(|e| format!("mesh {}: {e:?}", path.display()))?;
                Solid::Mesh(Box::new(mesh))
            }
            Geometry::Box { size } => {
                let h = size.map(|s| s / 2.0);
                for corner in 0..8 {
                    let sign = |bit: usize| if corner >> bit & 1 == 1 { 1.0 } else { -1.0 };
                    vertices.push(at([sign(0) * h[0], sign(1) * h[1], sign(2) * h[2]]));
                }
                sample_box(h, &mut |p| samples.push(at(p)));
                Solid::Box(Cuboid::new(DVec3::from_array(h)))
            }
            Geometry::Cylinder { radius, length } => {
                sample_cylinder(*radius, *length, &mut |p| samples.push(at(p)));
                Solid::Cylinder(Cylinder::new(length / 2.0, *radius))
            }
            Geometry::Sphere { radius } => {
                sample_ball(*radius, &mut |p| samples.push(at(p)));
                Solid::Ball(Ball::new(*radius))
            }
        };
        // parry's cylinder runs along y; URDF's along z.
        let mut placed = pose(&shape.origin);
        if matches!(solid, Solid::Cylinder(_)) {
            placed *= Pose::from_parts(
                DVec3::ZERO,
                Rot3::from_rotation_x(std::f64::consts::FRAC_PI_2),
            );
        }
        geometry.solids.push((placed, solid));
    }
    geometry.vertices = vertices.len();
    geometry.points = vertices;
    geometry.points.extend(samples);
    Ok(geometry)
}

/// Where a mesh `filename` lives: `package://PKG/rest` or a relative path tried under each root
/// (the URDF's directory first) as given, then with leading directories dropped one at a time.
pub fn find_mesh(filename: &str, urdf_dir: &Path, roots: &[PathBuf]) -> Result<PathBuf, String> {
    let rest = filename
        .strip_prefix("package://")
        .or_else(|| filename.strip_prefix("file://"))
        .unwrap_or(filename);
    if !rest.to_ascii_lowercase().ends_with(".stl") {
        return Err(format!(
            "mesh '{filename}': only STL collision meshes are read (convert it, or give the link a box, cylinder or sphere)"
        ));
    }
    let absolute = Path::new(rest);
    if absolute.is_absolute() && absolute.is_file() {
        return Ok(absolute.to_path_buf());
    }
    let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
    let mut searched = Vec::new();
    for root in std::iter::once(&urdf_dir.to_path_buf()).chain(roots) {
        for skip in 0..parts.len() {
            let candidate = parts[skip..]
                .iter()
                .fold(root.clone(), |p, part| p.join(part));
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
        searched.push(root.display().to_string());
    }
    Err(format!(
        "mesh file '{filename}' not found (looked under {}; add its directory with --mesh-dir)",
        searched.join(", ")
    ))
}

/// An STL file's vertices and triangles.
#[allow(clippy::type_complexity)]
fn read_stl(path: &Path) -> Result<(Vec<[f64; 3]>, Vec<[u32; 3]>), String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("mesh {}: {e}", path.display()))?
        .len();
    if size > MAX_MESH_BYTES {
        return Err(format!(
            "mesh {}: {size} bytes (at most {MAX_MESH_BYTES})",
            path.display()
        ));
    }
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("mesh {}: {e}", path.display()))?;
    let mesh = stl_io::read_stl(&mut file)
        .map_err(|e| format!("mesh {}: not an STL file ({e})", path.display()))?;
    let points: Vec<[f64; 3]> = mesh
        .vertices
        .iter()
        .map(|v| [v[0] as f64, v[1] as f64, v[2] as f64])
        .collect();
    if points.iter().flatten().any(|v| !v.is_finite()) {
        return Err(format!("mesh {}: a vertex is not finite", path.display()));
    }
    let triangles: Vec<[u32; 3]> = mesh
        .faces
        .iter()
        .map(|f| f.vertices.map(|i| i as u32))
        .collect();
    if triangles.is_empty() {
        return Err(format!("mesh {}: no triangles", path.display()));
    }
    Ok((points, triangles))
}

/// Points on a triangle, at most [`SPACING`] apart.
fn sample_triangle(t: [[f64; 3]; 3], out: &mut impl FnMut([f64; 3])) {
    let edge = |a: [f64; 3], b: [f64; 3]| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    let longest = edge(t[0], t[1]).max(edge(t[1], t[2])).max(edge(t[0], t[2]));
    let steps = ((longest / SPACING).ceil() as usize).clamp(1, 200);
    for i in 0..=steps {
        for j in 0..=steps - i {
            let (u, v) = (i as f64 / steps as f64, j as f64 / steps as f64);
            let w = 1.0 - u - v;
            out(std::array::from_fn(|k| {
                w * t[0][k] + u * t[1][k] + v * t[2][k]
            }));
        }
    }
}

/// Points on a box's faces (half-extents h).
fn sample_box(h: [f64; 3], out: &mut impl FnMut([f64; 3])) {
    for axis in 0..3 {
        let (a, b) = ((axis + 1) % 3, (axis + 2) % 3);
        let na = ((2.0 * h[a] / SPACING).ceil() as usize).clamp(1, 200);
        let nb = ((2.0 * h[b] / SPACING).ceil() as usize).clamp(1, 200);
        for side in [-1.0, 1.0] {
            for i in 0..=na {
                for j in 0..=nb {
                    let mut p = [0.0; 3];
                    p[axis] = side * h[axis];
                    p[a] = -h[a] + 2.0 * h[a] * i as f64 / na as f64;
                    p[b] = -h[b] + 2.0 * h[b] * j as f64 / nb as f64;
                    out(p);
                }
            }
        }
    }
}

/// Points on a cylinder about z: its side and its caps.
fn sample_cylinder(radius: f64, length: f64, out: &mut impl FnMut([f64; 3])) {
    let around = ((std::f64::consts::TAU * radius / SPACING).ceil() as usize).clamp(8, 400);
    let along = ((length / SPACING).ceil() as usize).clamp(1, 400);
    let rings = ((radius / SPACING).ceil() as usize).clamp(1, 100);
    for k in 0..around {
        let (s, c) = (std::f64::consts::TAU * k as f64 / around as f64).sin_cos();
        for i in 0..=along {
            out([
                radius * c,
                radius * s,
                -length / 2.0 + length * i as f64 / along as f64,
            ]);
        }
        for ring in 1..rings {
            let r = radius * ring as f64 / rings as f64;
            for z in [-length / 2.0, length / 2.0] {
                out([r * c, r * s, z]);
            }
        }
    }
    out([0.0, 0.0, -length / 2.0]);
    out([0.0, 0.0, length / 2.0]);
}

/// Points on a ball (a Fibonacci lattice).
fn sample_ball(radius: f64, out: &mut impl FnMut([f64; 3])) {
    let count = ((4.0 * std::f64::consts::PI * radius * radius / (SPACING * SPACING)).ceil()
        as usize)
        .clamp(16, 4000);
    for p in fibonacci(count) {
        out(p.map(|v| v * radius));
    }
}

/// `count` nearly even unit vectors (a Fibonacci lattice).
pub fn fibonacci(count: usize) -> Vec<[f64; 3]> {
    let golden = std::f64::consts::PI * (3.0 - 5.0_f64.sqrt());
    (0..count)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / count as f64;
            let r = (1.0 - z * z).sqrt();
            let (s, c) = (golden * i as f64).sin_cos();
            [r * c, r * s, z]
        })
        .collect()
}
