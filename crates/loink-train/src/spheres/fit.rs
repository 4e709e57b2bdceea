//! Spheres that cover a link: the surface points split into k groups (slabs along the points'
//! principal axis, or k-means from a farthest-point start, whichever bulges less), each group
//! enclosed by a near-minimal ball (Bădoiu–Clarkson iterations, then grown to its farthest
//! point, so every point is inside by construction). k grows until the bulge outside the
//! geometry is below the goal.

use loink::problem::chain::collision::spheres_file::Fit;
use loink::problem::chain::collision::Sphere;

use super::shapes::{fibonacci, LinkGeometry};

/// Points on each sphere's surface where the bulge is measured.
const BULGE_SAMPLES: usize = 400;

/// The fewest spheres (at most `max_spheres`) whose bulge is at most `goal` (m), and their fit;
/// the best of `max_spheres` when none reaches it.
pub fn fit_link(geometry: &LinkGeometry, goal: f64, max_spheres: usize) -> (Vec<Sphere>, Fit) {
    let mut best: Option<(Vec<Sphere>, Fit)> = None;
    for k in 1..=max_spheres.max(1) {
        let candidates = [slabs(&geometry.points, k), kmeans(&geometry.points, k)];
        for groups in candidates {
            let spheres: Vec<Sphere> = groups
                .iter()
                .filter(|g| !g.is_empty())
                .map(|g| enclose(g))
                .collect();
            let fit = grade(geometry, &spheres);
            if best.as_ref().is_none_or(|(_, b)| fit.bulge_m < b.bulge_m) {
                best = Some((spheres, fit));
            }
        }
        if best.as_ref().is_some_and(|(_, b)| b.bulge_m <= goal) {
            break;
        }
    }
    best.unwrap_or_default()
}

/// The fit of `spheres` to a link: the share of its mesh vertices (all its surface points when
/// it has none) inside a sphere, and the largest distance of the union's surface outside the
/// geometry.
pub fn grade(geometry: &LinkGeometry, spheres: &[Sphere]) -> Fit {
    let checked = if geometry.vertices > 0 {
        &geometry.points[..geometry.vertices]
    } else {
        &geometry.points[..]
    };
    let inside = checked
        .iter()
        .filter(|p| {
            spheres
                .iter()
                .any(|s| distance(**p, s.centre) <= s.radius * (1.0 + 1e-9) + 1e-12)
        })
        .count();
    let mut bulge: f64 = 0.0;
    let directions = fibonacci(BULGE_SAMPLES);
    for (i, s) in spheres.iter().enumerate() {
        for d in &directions {
            let p = [0, 1, 2].map(|k| s.centre[k] + s.radius * d[k]);
            let covered = spheres
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && distance(p, o.centre) < o.radius);
            if !covered {
                bulge = bulge.max(geometry.signed_distance(p));
            }
        }
    }
    Fit {
        points: checked.len(),
        inside: if checked.is_empty() {
            1.0
        } else {
            inside as f64 / checked.len() as f64
        },
        bulge_m: bulge,
    }
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// A ball holding every point: Bădoiu–Clarkson steps towards the farthest point, then the
/// radius to the farthest point.
fn enclose(points: &[[f64; 3]]) -> Sphere {
    let n = points.len() as f64;
    let mut c = [0, 1, 2].map(|k| points.iter().map(|p| p[k]).sum::<f64>() / n);
    let farthest = |c: [f64; 3]| {
        points
            .iter()
            .copied()
            .max_by(|a, b| distance(*a, c).total_cmp(&distance(*b, c)))
            .unwrap_or(c)
    };
    for step in 1..=200 {
        let f = farthest(c);
        let t = 1.0 / (step as f64 + 1.0);
        c = [0, 1, 2].map(|k| c[k] + (f[k] - c[k]) * t);
    }
    let radius = distance(farthest(c), c).max(1e-4);
    Sphere { centre: c, radius }
}

/// The points in k slabs of equal length along their principal axis.
fn slabs(points: &[[f64; 3]], k: usize) -> Vec<Vec<[f64; 3]>> {
    let axis = principal_axis(points);
    let t: Vec<f64> = points
        .iter()
        .map(|p| p[0] * axis[0] + p[1] * axis[1] + p[2] * axis[2])
        .collect();
    let (lo, hi) = t
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let width = ((hi - lo) / k as f64).max(1e-12);
    let mut groups = vec![Vec::new(); k];
    for (p, v) in points.iter().zip(&t) {
        let i = (((v - lo) / width) as usize).min(k - 1);
        groups[i].push(*p);
    }
    groups
}

/// k-means (Lloyd, 30 rounds) from a farthest-point start: deterministic.
fn kmeans(points: &[[f64; 3]], k: usize) -> Vec<Vec<[f64; 3]>> {
    let n = points.len() as f64;
    let mean = [0, 1, 2].map(|d| points.iter().map(|p| p[d]).sum::<f64>() / n);
    let mut centres = Vec::with_capacity(k);
    let first = points
        .iter()
        .copied()
        .max_by(|a, b| distance(*a, mean).total_cmp(&distance(*b, mean)))
        .unwrap_or(mean);
    centres.push(first);
    while centres.len() < k {
        let next = points
            .iter()
            .copied()
            .max_by(|a, b| {
                let da = centres
                    .iter()
                    .map(|c| distance(*a, *c))
                    .fold(f64::INFINITY, f64::min);
                let db = centres
                    .iter()
                    .map(|c| distance(*b, *c))
                    .fold(f64::INFINITY, f64::min);
                da.total_cmp(&db)
            })
            .unwrap_or(mean);
        centres.push(next);
    }
    let mut groups = vec![Vec::new(); k];
    for _ in 0..30 {
        groups.iter_mut().for_each(Vec::clear);
        for p in points {
            let i = (0..k)
                .min_by(|&a, &b| distance(*p, centres[a]).total_cmp(&distance(*p, centres[b])))
                .unwrap_or(0);
            groups[i].push(*p);
        }
        for (c, g) in centres.iter_mut().zip(&groups) {
            if !g.is_empty() {
                let m = g.len() as f64;
                *c = [0, 1, 2].map(|d| g.iter().map(|p| p[d]).sum::<f64>() / m);
            }
        }
    }
    groups
}

/// The direction of the points' largest spread (power iteration on their covariance).
fn principal_axis(points: &[[f64; 3]]) -> [f64; 3] {
    let n = points.len().max(1) as f64;
    let mean = [0, 1, 2].map(|d| points.iter().map(|p| p[d]).sum::<f64>() / n);
    let mut cov = [[0.0; 3]; 3];
    for p in points {
        for i in 0..3 {
            for j in 0..3 {
                cov[i][j] += (p[i] - mean[i]) * (p[j] - mean[j]) / n;
            }
        }
    }
    let mut v = [0.577, 0.577, 0.577];
    for _ in 0..100 {
        let w = [0, 1, 2].map(|i| cov[i][0] * v[0] + cov[i][1] * v[1] + cov[i][2] * v[2]);
        let norm = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt();
        if norm < 1e-15 {
            return [1.0, 0.0, 0.0];
        }
        v = w.map(|x| x / norm);
    }
    v
}
