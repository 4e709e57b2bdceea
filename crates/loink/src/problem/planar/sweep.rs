//! The self-motion sweep shared by the reference solver (`solvers::reference::planar`) and
//! [`super::reach`]: the last three links of a chain are
//! parameterised by φ (the absolute angle of the last link); the joints before them (the
//! *prefix*) are held fixed. For each φ the wrist w = y − l_n (cos φ, sin φ) leaves a two-link
//! problem with two closed-form elbow branches, so the self-motion set of a three-link arm is
//! swept exactly by one φ grid per branch (planar3.md).

use super::two_link::Branch;
use super::PlanarArm;
use crate::problem::limits::wrap_into;
use crate::problem::Problem;

/// Largest jump (rad, max-norm over the swept joints) between neighbouring samples that still
/// counts as the same continuous piece (a 2π re-wrap is a jump, not a path).
pub(crate) const CONTINUITY: f64 = 1.0;

/// Golden-section / zoom tolerance in φ (and in prefix angles), radians.
pub(crate) const ANGLE_TOL: f64 = 1e-10;

/// One evaluated point of the self-motion set.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sample {
    /// The last three joint angles.
    pub q3: [f64; 3],
    /// J(q) (infinite when infeasible and the cost was not asked for).
    pub cost: f64,
    /// The wrist two-link problem has a solution at this φ.
    pub exists: bool,
    /// It exists and all joints lie inside their limits.
    pub feasible: bool,
}

/// A chain with its prefix fixed: evaluates the self-motion set over φ.
pub(crate) struct Chain<'a> {
    problem: &'a Problem,
    target: [f64; 2],
    /// Full joint vector buffer: prefix, then the three swept joints.
    q: Vec<f64>,
    prefix_len: usize,
    base: [f64; 2],
    base_angle: f64,
    lengths: [f64; 3],
    lower: [f64; 3],
    upper: [f64; 3],
    prefix_feasible: bool,
}

impl<'a> Chain<'a> {
    /// `arm` (the problem's) must have at least three joints and `prefix` exactly dof − 3
    /// entries.
    pub fn new(arm: &PlanarArm, problem: &'a Problem, target: [f64; 2], prefix: &[f64]) -> Self {
        let n = arm.dof();
        let k = n - 3;
        let (mut x, mut y, mut s) = (0.0, 0.0, 0.0);
        for (&l, &qi) in arm.lengths()[..k].iter().zip(prefix) {
            s += qi;
            x += l * s.cos();
            y += l * s.sin();
        }
        let limits = arm.limits();
        let mut q = vec![0.0; n];
        q[..k].copy_from_slice(prefix);
        let pick = |v: &[f64]| [v[k], v[k + 1], v[k + 2]];
        Self {
            problem,
            target,
            q,
            prefix_len: k,
            base: [x, y],
            base_angle: s,
            lengths: pick(arm.lengths()),
            lower: pick(limits.lower()),
            upper: pick(limits.upper()),
            prefix_feasible: prefix
                .iter()
                .enumerate()
                .all(|(i, &v)| v >= limits.lower()[i] && v <= limits.upper()[i]),
        }
    }

    /// The φ range [s + Σ lower, s + Σ upper] that contains every feasible point.
    pub fn phi_range(&self) -> (f64, f64) {
        (
            self.base_angle + self.lower.iter().sum::<f64>(),
            self.base_angle + self.upper.iter().sum::<f64>(),
        )
    }

    /// Evaluates both branches at φ (`[ElbowUp, ElbowDown]`), sharing the trigonometry: one
    /// sin_cos, one acos and two atan2 per φ. The cost is computed for infeasible points only
    /// when `always_cost` (the landscape panel draws them); otherwise it is +∞ there.
    pub fn eval_both(&mut self, phi: f64, always_cost: bool) -> [Sample; 2] {
        let (sin, cos) = phi.sin_cos();
        let [la, lb, lc] = self.lengths;
        let w = [
            self.target[0] - lc * cos - self.base[0],
            self.target[1] - lc * sin - self.base[1],
        ];
        let r2 = w[0] * w[0] + w[1] * w[1];
        let cos_b = (r2 - la * la - lb * lb) / (2.0 * la * lb);
        let exists = (-1.0..=1.0).contains(&cos_b);
        let cos_b = cos_b.clamp(-1.0, 1.0);
        let rel = cos_b.acos();
        let sin_rel = (1.0 - cos_b * cos_b).max(0.0).sqrt();
        let towards = w[1].atan2(w[0]);
        let beta = (lb * sin_rel).atan2(la + lb * cos_b);
        // ElbowUp: relative angle −rel, first link at towards + β; ElbowDown: +rel, towards − β.
        [(-rel, beta), (rel, -beta)].map(|(rel_b, offset)| {
            self.finish(
                phi,
                towards + offset - self.base_angle,
                rel_b,
                exists,
                always_cost,
            )
        })
    }

    fn finish(&mut self, phi: f64, qa: f64, qb: f64, exists: bool, always_cost: bool) -> Sample {
        let qa = wrap_into(qa, self.lower[0], self.upper[0]);
        let qb = wrap_into(qb, self.lower[1], self.upper[1]);
        let qc = phi - self.base_angle - qa - qb;
        let q3 = [qa, qb, qc];
        let feasible = exists
            && self.prefix_feasible
            && (0..3).all(|i| q3[i] >= self.lower[i] && q3[i] <= self.upper[i]);
        let cost = if feasible || always_cost {
            self.q[self.prefix_len..].copy_from_slice(&q3);
            self.problem.cost().value(&self.q)
        } else {
            f64::INFINITY
        };
        Sample {
            q3,
            cost,
            exists,
            feasible,
        }
    }

    /// Evaluates one branch at φ (see [`Self::eval_both`]).
    pub fn eval(&mut self, phi: f64, branch: Branch, always_cost: bool) -> Sample {
        let [up, down] = self.eval_both(phi, always_cost);
        match branch {
            Branch::ElbowUp => up,
            Branch::ElbowDown => down,
        }
    }

    /// The full joint vector for φ on `branch`.
    pub fn q_at(&mut self, phi: f64, branch: Branch) -> Vec<f64> {
        let s = self.eval(phi, branch, true);
        self.q[self.prefix_len..].copy_from_slice(&s.q3);
        self.q.clone()
    }

    /// Cost if feasible, +∞ otherwise (the objective of the zoom).
    pub fn objective(&mut self, phi: f64, branch: Branch) -> f64 {
        let s = self.eval(phi, branch, false);
        if s.feasible {
            s.cost
        } else {
            f64::INFINITY
        }
    }
}

/// A sampled sweep: `phis[k]` and, per branch, `samples[b][k]` (b indexes [`Branch::BOTH`]).
pub(crate) struct Sweep {
    pub phis: Vec<f64>,
    pub samples: [Vec<Sample>; 2],
}

/// Samples `count` (≥ 2) equally spaced φ over the chain's range, both branches.
pub(crate) fn sweep(chain: &mut Chain, count: usize, always_cost: bool) -> Sweep {
    let count = count.max(2);
    let (lo, hi) = chain.phi_range();
    let step = (hi - lo) / (count - 1) as f64;
    let phis: Vec<f64> = (0..count).map(|k| lo + step * k as f64).collect();
    let mut samples = [Vec::with_capacity(count), Vec::with_capacity(count)];
    for &phi in &phis {
        let [up, down] = chain.eval_both(phi, always_cost);
        samples[0].push(up);
        samples[1].push(down);
    }
    Sweep { phis, samples }
}

fn close(a: &Sample, b: &Sample) -> bool {
    (0..3).all(|i| (a.q3[i] - b.q3[i]).abs() < CONTINUITY)
}

/// A node of the sweep graph: (branch index, φ index).
pub(crate) type Node = (usize, usize);

impl Sweep {
    fn node(&self, (b, k): Node) -> &Sample {
        &self.samples[b][k]
    }

    /// Feasible neighbours of a feasible node along the self-motion set: the same branch at
    /// k ± 1 when continuous, and the other branch at k when k is where the wrist problem stops
    /// existing (the two branches meet there, at a stretched or folded wrist).
    pub fn neighbours(&self, (b, k): Node) -> impl Iterator<Item = Node> + '_ {
        let count = self.phis.len();
        let here = *self.node((b, k));
        let same = [k.checked_sub(1), (k + 1 < count).then_some(k + 1)]
            .into_iter()
            .flatten()
            .map(move |j| (b, j));
        let at_edge = [k.checked_sub(1), (k + 1 < count).then_some(k + 1)]
            .into_iter()
            .flatten()
            .any(|j| !self.samples[b][j].exists);
        let junction = at_edge.then_some((1 - b, k));
        same.chain(junction).filter(move |&n| {
            let s = self.node(n);
            s.feasible && here.feasible && close(&here, s)
        })
    }

    /// Number of connected pieces of the feasible sampled set.
    pub fn pieces(&self) -> usize {
        let count = self.phis.len();
        let mut seen = [vec![false; count], vec![false; count]];
        let mut pieces = 0;
        let mut stack = Vec::new();
        for b in 0..2 {
            for k in 0..count {
                if seen[b][k] || !self.samples[b][k].feasible {
                    continue;
                }
                pieces += 1;
                seen[b][k] = true;
                stack.push((b, k));
                while let Some(node) = stack.pop() {
                    for (nb, nk) in self.neighbours(node) {
                        if !seen[nb][nk] {
                            seen[nb][nk] = true;
                            stack.push((nb, nk));
                        }
                    }
                }
            }
        }
        pieces
    }

    /// Feasible nodes whose cost is ≤ every feasible neighbour's, cheapest first.
    pub fn local_minima(&self) -> Vec<Node> {
        let mut minima: Vec<Node> = (0..2)
            .flat_map(|b| (0..self.phis.len()).map(move |k| (b, k)))
            .filter(|&n| {
                let s = self.node(n);
                s.feasible && self.neighbours(n).all(|m| s.cost <= self.node(m).cost)
            })
            .collect();
        crate::stats::sort_by_cost(&mut minima, |&a| self.node(a).cost);
        minima
    }

    /// Whether a node sits where its branch meets the other one (refine both there).
    pub fn at_junction(&self, (b, k): Node) -> bool {
        self.neighbours((b, k)).any(|(nb, _)| nb != b)
            || [k.checked_sub(1), (k + 1 < self.phis.len()).then_some(k + 1)]
                .into_iter()
                .flatten()
                .any(|j| !self.samples[b][j].exists)
    }
}

/// Golden-section search of `f` on [a, b], treating +∞ as infeasible. Returns the best point
/// evaluated (x, f(x)) including `best` (a known point, e.g. the grid sample). When both probes
/// are infeasible the interval keeps the side holding the best point found so far.
pub(crate) fn golden(
    mut f: impl FnMut(f64) -> f64,
    mut a: f64,
    mut b: f64,
    mut best: (f64, f64),
    tol: f64,
) -> (f64, f64) {
    const INV_PHI: f64 = 0.618_033_988_749_894_9;
    let consider = |x: f64, fx: f64, best: &mut (f64, f64)| {
        if fx < best.1 {
            *best = (x, fx);
        }
    };
    for x in [a, b] {
        let fx = f(x);
        consider(x, fx, &mut best);
    }
    let mut c = b - INV_PHI * (b - a);
    let mut d = a + INV_PHI * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    consider(c, fc, &mut best);
    consider(d, fd, &mut best);
    for _ in 0..200 {
        if (b - a).abs() <= tol {
            break;
        }
        let keep_left = if fc.is_finite() || fd.is_finite() {
            fc <= fd
        } else {
            best.0 <= d
        };
        if keep_left {
            b = d;
            d = c;
            fd = fc;
            c = b - INV_PHI * (b - a);
            fc = f(c);
            consider(c, fc, &mut best);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + INV_PHI * (b - a);
            fd = f(d);
            consider(d, fd, &mut best);
        }
    }
    best
}
