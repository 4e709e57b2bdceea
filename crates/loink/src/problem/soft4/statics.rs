//! The soft arm's steady state and forward map (docs/soft-arm.md, "The simulator"): the strains
//! ξ(φ) from one 3 × 3 solve A ξ = b, the constant-strain backbone's tip, and the end effector.

use super::super::sketch::{Sketch, Stroke};

/// Largest twist of a rod: 200° (rad).
pub const PHI_MAX: f64 = 200.0 * std::f64::consts::PI / 180.0;

/// The arm's identified parameters (docs/soft-arm.md's table).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Rod length l (m).
    pub length: f64,
    /// Rigid proximal cap l_pc (m).
    pub proximal_cap: f64,
    /// Rigid distal cap l_dc (m).
    pub distal_cap: f64,
    /// Platform height h_p (m).
    pub platform: f64,
    /// Rod offsets r_j from the centre line (m).
    pub offsets: [f64; 4],
    /// Bending, shear and axial stiffness S_b (N m²), S_sh (N), S_a (N).
    pub stiffness: [f64; 3],
    /// Bend–shear coupling S_bsh (N m).
    pub coupling: f64,
    /// Stiffness change per unit twist strain C_b, C_sh, C_a.
    pub stiffening: [f64; 3],
    /// Rest elongation per unit twist strain C_ε (m).
    pub elongation: f64,
}

/// The FPU arm of the paper's soft-robot experiment, with this project's rod offsets.
pub const PARAMS: Params = Params {
    length: 0.059,
    proximal_cap: 0.025,
    distal_cap: 0.014,
    platform: 0.012,
    offsets: [-0.036, -0.012, 0.012, 0.036],
    stiffness: [5.71346377e-4, 5.91462074e-1, 5.66472469],
    coupling: 4.48419541e-3,
    stiffening: [-9.67560524e-6, -4.75687961e-4, 1.508165e-2],
    elongation: 9.84819e-3,
};

/// The steady-state strains ξ = (κ, σ_sh, σ_a) at twists φ: A ξ = b with
/// A = Σ_j B_jᵀ S_j B_j and b = Σ_j B_jᵀ S_j ρ_j (A is symmetric positive definite on the box).
pub fn strains(p: &Params, phi: &[f64]) -> [f64; 3] {
    let mut a = [[0.0; 3]; 3];
    let mut b = [0.0; 3];
    for (j, &r) in p.offsets.iter().enumerate() {
        let u = phi.get(j).copied().unwrap_or(0.0) / p.length;
        let sb = p.stiffness[0] + p.stiffening[0] * u;
        let ssh = p.stiffness[1] + p.stiffening[1] * u;
        let sa = p.stiffness[2] + p.stiffening[2] * u;
        let rest_axial = 1.0 + p.elongation * u;
        // B = [[1, 0, 0], [0, 1, 0], [r, 0, 1]]; S = [[sb, sbsh, 0], [sbsh, ssh, 0], [0, 0, sa]].
        // Bᵀ S B and Bᵀ S ρ, written out.
        a[0][0] += sb + r * r * sa;
        a[0][1] += p.coupling;
        a[0][2] += r * sa;
        a[1][1] += ssh;
        a[2][2] += sa;
        b[0] += r * sa * rest_axial;
        b[2] += sa * rest_axial;
    }
    a[1][0] = a[0][1];
    a[2][0] = a[0][2];
    solve3(a, b)
}

/// x with A x = b by Cramer's rule (A 3 × 3, well conditioned here).
fn solve3(a: [[f64; 3]; 3], b: [f64; 3]) -> [f64; 3] {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(a);
    let mut x = [0.0; 3];
    for (c, xc) in x.iter_mut().enumerate() {
        let mut m = a;
        for r in 0..3 {
            m[r][c] = b[r];
        }
        *xc = det(m) / d;
    }
    x
}

/// ∫₀^s (cos κt, sin κt) dt for the backbone at arc length s (the series near κs = 0).
fn integrals(kappa: f64, s: f64) -> (f64, f64) {
    let theta = kappa * s;
    if theta.abs() < 1e-4 {
        (
            s * (1.0 - theta * theta / 6.0),
            s * (theta / 2.0 - theta * theta * theta / 24.0),
        )
    } else {
        (theta.sin() / kappa, (1.0 - theta.cos()) / kappa)
    }
}

/// The backbone point at arc length s ∈ [0, l] (above the proximal cap).
fn backbone(p: &Params, xi: [f64; 3], s: f64) -> [f64; 2] {
    let [kappa, shear, axial] = xi;
    let (c, sn) = integrals(kappa, s);
    [
        shear * c - axial * sn,
        p.proximal_cap + shear * sn + axial * c,
    ]
}

/// The end effector y: the backbone's tip plus R(θ)(0, l_dc + h_p), θ = κ l.
pub fn end_effector(p: &Params, xi: [f64; 3]) -> [f64; 2] {
    let tip = backbone(p, xi, p.length);
    let theta = xi[0] * p.length;
    let reach = p.distal_cap + p.platform;
    [tip[0] - reach * theta.sin(), tip[1] + reach * theta.cos()]
}

/// The arm at twists φ as it is: the base, each rod bent along the backbone's arc (offset by
/// r_j across it), the platform, the end effector.
pub fn sketch(p: &Params, phi: &[f64]) -> Sketch {
    let xi = strains(p, phi);
    let theta_at = |s: f64| xi[0] * s;
    let across = |s: f64, r: f64| {
        let c = backbone(p, xi, s);
        let t = theta_at(s);
        [c[0] + r * t.cos(), c[1] + r * t.sin()]
    };
    let half = p.offsets[3] + 0.008;
    let mut parts = vec![(
        Stroke::Base,
        vec![
            [-half, 0.0],
            [half, 0.0],
            [half, p.proximal_cap],
            [-half, p.proximal_cap],
            [-half, 0.0],
        ],
    )];
    for &r in &p.offsets {
        let pts = (0..=16)
            .map(|k| across(p.length * k as f64 / 16.0, r))
            .collect();
        parts.push((Stroke::Rod, pts));
    }
    let theta = theta_at(p.length);
    let tip = backbone(p, xi, p.length);
    let (c, s) = (theta.cos(), theta.sin());
    let at = |dx: f64, dy: f64| [tip[0] + dx * c - dy * s, tip[1] + dx * s + dy * c];
    let top = p.distal_cap + p.platform;
    parts.push((
        Stroke::Plate,
        vec![
            at(-half, 0.0),
            at(half, 0.0),
            at(half, top),
            at(-half, top),
            at(-half, 0.0),
        ],
    ));
    super::shapes(parts, end_effector(p, xi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deg(d: [f64; 4]) -> [f64; 4] {
        d.map(f64::to_radians)
    }

    /// docs/soft-arm.md's twelve-digit table: ξ and y to 1e-9.
    #[test]
    fn reproduces_the_reference_table() {
        let rows: [([f64; 4], [f64; 3], [f64; 2]); 4] = [
            (
                [200.0, 200.0, 0.0, 0.0],
                [-9.17626916176, 0.0712657988409, 1.29651837384],
                [0.0376072049199, 0.118983049542],
            ),
            (
                [200.0, 0.0, 0.0, 0.0],
                [-6.96369526041, 0.0534311601055, 1.15272215998],
                [0.0272247104125, 0.114310974986],
            ),
            (
                [100.0, 100.0, 100.0, 100.0],
                [0.0, 0.0, 1.29132769638],
                [0.0, 0.127188334086],
            ),
            (
                [37.0, 151.0, 12.0, 180.0],
                [3.4155741844, -0.0264941409874, 1.28558518029],
                [-0.0143734231101, 0.12565407972],
            ),
        ];
        for (phi, xi_want, y_want) in rows {
            let xi = strains(&PARAMS, &deg(phi));
            for k in 0..3 {
                let scale = xi_want[k].abs().max(1.0);
                assert!(
                    (xi[k] - xi_want[k]).abs() <= 1e-9 * scale,
                    "{phi:?}: ξ {xi:?}"
                );
            }
            let y = end_effector(&PARAMS, xi);
            for k in 0..2 {
                assert!((y[k] - y_want[k]).abs() <= 1e-9, "{phi:?}: y {y:?}");
            }
        }
    }

    #[test]
    fn rest_and_full_twist_match_the_short_table() {
        let rest = end_effector(&PARAMS, strains(&PARAMS, &[0.0; 4]));
        assert!(rest[0].abs() < 1e-15 && (rest[1] - 0.110).abs() < 1e-15);
        let full = end_effector(&PARAMS, strains(&PARAMS, &[PHI_MAX; 4]));
        assert!(
            full[0].abs() < 1e-12 && (full[1] - 0.14438).abs() < 5e-6,
            "{full:?}"
        );
    }

    #[test]
    fn the_sketch_ends_at_the_end_effector() {
        let phi = deg([37.0, 151.0, 12.0, 180.0]);
        let sketch = sketch(&PARAMS, &phi);
        let y = end_effector(&PARAMS, strains(&PARAMS, &phi));
        assert!(sketch.shapes.iter().any(|s| matches!(
            s,
            super::super::super::sketch::Shape::Dot { at, .. } if *at == y
        )));
    }
}
