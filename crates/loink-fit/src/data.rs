//! Training data D = {(x_i, y_i = p(x_i), J_i = J(x_i))} (loink-math.md §4) and its normalisation.
//!
//! Configurations are drawn inside the joint limits, either i.i.d. uniform or from a scrambled
//! Halton sequence (low discrepancy; each dimension's radical inverse uses a seeded random digit
//! permutation). All randomness comes from one seeded ChaCha8 stream.

use loink::artifact::Normalisation;
use loink::problem::{JointLimits, Problem};
use loink::regressor::RegressorNormalisation;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How configurations are drawn inside the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Sampler {
    /// i.i.d. uniform in the joint box.
    Uniform,
    /// Scrambled Halton (low discrepancy).
    Halton,
}

/// Samples in raw units: x (rad), y (m), J.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    /// Joint dimension n.
    pub dof: usize,
    /// Task dimension m.
    pub task_dim: usize,
    /// Row-major configurations (len · n).
    pub x: Vec<f64>,
    /// Row-major tasks (len · m).
    pub y: Vec<f64>,
    /// Costs (len).
    pub cost: Vec<f64>,
}

impl Samples {
    /// No rows yet, room for `rows` of n joints and m task coordinates.
    pub fn with_capacity(dof: usize, task_dim: usize, rows: usize) -> Samples {
        Samples {
            dof,
            task_dim,
            x: Vec::with_capacity(rows * dof),
            y: Vec::with_capacity(rows * task_dim),
            cost: Vec::with_capacity(rows),
        }
    }

    /// Appends `other`'s rows (the same dimensions).
    pub fn append(&mut self, other: Samples) {
        self.x.extend(other.x);
        self.y.extend(other.y);
        self.cost.extend(other.cost);
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.cost.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.cost.is_empty()
    }
    /// The samples at `indices`, in that order.
    pub fn subset(&self, indices: &[usize]) -> Samples {
        let (n, m) = (self.dof, self.task_dim);
        let mut out = Samples::with_capacity(n, m, indices.len());
        for &i in indices {
            out.x.extend_from_slice(&self.x[i * n..(i + 1) * n]);
            out.y.extend_from_slice(&self.y[i * m..(i + 1) * m]);
            out.cost.push(self.cost[i]);
        }
        out
    }
}

const PRIMES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Radical inverse of `index` in `base` with a digit permutation (scrambling).
fn scrambled_radical_inverse(mut index: u64, base: u64, permutation: &[u64]) -> f64 {
    let inv_base = 1.0 / base as f64;
    let mut factor = inv_base;
    let mut value = 0.0;
    // Enough digits for f64 resolution; permuting trailing zeros too keeps points off the grid.
    for _ in 0..(64.0 / (base as f64).log2()).ceil() as usize {
        let digit = index % base;
        value += permutation[digit as usize] as f64 * factor;
        index /= base;
        factor *= inv_base;
        if factor < 1e-17 {
            break;
        }
    }
    value.min(1.0 - f64::EPSILON)
}

/// Unit-cube points u ∈ [0, 1)^n, `count` of them.
fn unit_points(sampler: Sampler, count: usize, dim: usize, rng: &mut ChaCha8Rng) -> Vec<f64> {
    match sampler {
        Sampler::Uniform => (0..count * dim).map(|_| rng.random::<f64>()).collect(),
        Sampler::Halton => {
            assert!(
                dim <= PRIMES.len(),
                "Halton sampler supports up to {} joints",
                PRIMES.len()
            );
            let permutations: Vec<Vec<u64>> = PRIMES[..dim]
                .iter()
                .map(|&b| {
                    let mut p: Vec<u64> = (0..b).collect();
                    p.shuffle(rng);
                    p
                })
                .collect();
            let offset: u64 = rng.random_range(0..1 << 20);
            let mut out = Vec::with_capacity(count * dim);
            for i in 0..count as u64 {
                for (d, perm) in permutations.iter().enumerate() {
                    out.push(scrambled_radical_inverse(i + offset, PRIMES[d], perm));
                }
            }
            out
        }
    }
}

/// Draws `count` configurations inside the limits and labels them by FK and the cost.
pub fn sample(problem: &Problem, sampler: Sampler, count: usize, rng: &mut ChaCha8Rng) -> Samples {
    sample_in(problem, problem.limits(), sampler, count, rng)
}

/// [`sample`] inside `region` (a sub-box of the limits: one chart's training data), and inside
/// the kind's useful domain: points outside it are drawn again (in further batches of the same
/// sampler), so a kind without a domain draws exactly one batch of `count`.
pub fn sample_in(
    problem: &Problem,
    region: &JointLimits,
    sampler: Sampler,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Samples {
    let (n, m) = (problem.dof(), problem.task_dim());
    let limits = region;
    let domain = problem.capabilities().domain;
    let mut x = Vec::with_capacity(count * n);
    let mut y = Vec::with_capacity(count * m);
    let mut cost = Vec::with_capacity(count);
    let mut y_row = vec![0.0; m];
    let mut drawn = 0usize;
    while cost.len() < count && drawn < count.saturating_mul(loink::problem::MAX_DRAWS) {
        let batch = if drawn == 0 {
            count
        } else {
            (count - cost.len()).saturating_mul(8).min(1 << 20)
        };
        drawn += batch;
        for row in unit_points(sampler, batch, n, rng).chunks(n) {
            let q = limits.at_unit(row);
            if cost.len() == count || domain.is_some_and(|d| !d.contains(&q)) {
                continue;
            }
            problem.position_into(&q, &mut y_row);
            y.extend_from_slice(&y_row);
            cost.push(problem.cost().value(&q));
            x.extend(q);
        }
    }
    Samples {
        dof: n,
        task_dim: m,
        x,
        y,
        cost,
    }
}

/// The normalisation of the artifact: x̃ = x − mid-range (scale 1: radians stay radians, so the
/// Lipschitz bounds keep their meaning), ỹ_k = (y_k − mean_k)/(σ·s_k) with s_k the task space's
/// scale of coordinate k (1 for a metre, 1/L for a radian of orientation) and σ one common
/// spread, the RMS of (y_k − mean_k)/s_k over every coordinate — so ỹ-distances stay
/// proportional to the task's weighed units (metres for a point) — and J̃ standardised.
pub fn normalisation(problem: &Problem, data: &Samples) -> Normalisation {
    normalisation_in(problem.limits(), &problem.task().scales(), data)
}

/// [`normalisation`] of data drawn in `region` (x̃ centred on the region's mid-range), with the
/// task coordinates' scales `scales`.
pub fn normalisation_in(region: &JointLimits, scales: &[f64], data: &Samples) -> Normalisation {
    let n = data.dof;
    let m = data.task_dim;
    let len = data.len().max(1) as f64;
    let limits = region;
    let y_mean: Vec<f64> = (0..m)
        .map(|j| data.y.iter().skip(j).step_by(m).sum::<f64>() / len)
        .collect();
    let y_var = data
        .y
        .chunks(m)
        .map(|y| {
            y.iter()
                .zip(&y_mean)
                .zip(scales)
                .map(|((v, c), s)| ((v - c) / s).powi(2))
                .sum::<f64>()
        })
        .sum::<f64>()
        / (len * m as f64);
    let cost_mean = data.cost.iter().sum::<f64>() / len;
    let cost_var = data
        .cost
        .iter()
        .map(|c| (c - cost_mean).powi(2))
        .sum::<f64>()
        / len;
    Normalisation {
        x_shift: limits.centres(),
        x_scale: vec![1.0; n],
        y_shift: y_mean,
        y_scale: scales.iter().map(|s| y_var.sqrt().max(1e-12) * s).collect(),
        cost_shift: cost_mean,
        cost_scale: cost_var.sqrt().max(1e-12),
    }
}

/// The baselines' normalisation (the flow's and the regressors'): ỹ standardised per
/// coordinate over the training rows, x̃ = (x − centre) / half-width of the box.
pub fn standardisation(problem: &Problem, rows: &Samples) -> RegressorNormalisation {
    let m = rows.task_dim;
    let len = rows.len().max(1) as f64;
    let mean: Vec<f64> = (0..m)
        .map(|j| rows.y.iter().skip(j).step_by(m).sum::<f64>() / len)
        .collect();
    let scale = (0..m)
        .map(|j| {
            let var = rows
                .y
                .iter()
                .skip(j)
                .step_by(m)
                .map(|v| (v - mean[j]).powi(2))
                .sum::<f64>()
                / len;
            var.sqrt().max(1e-12)
        })
        .collect();
    let limits = problem.limits();
    RegressorNormalisation {
        y_shift: mean,
        y_scale: scale,
        x_shift: limits.centres(),
        x_scale: (0..limits.len()).map(|i| limits.half_width(i)).collect(),
    }
}

/// The rows as f32 (ỹ, x̃) under a [`standardisation`].
pub fn standardised(rows: &Samples, norm: &RegressorNormalisation) -> (Vec<f32>, Vec<f32>) {
    let (n, m) = (rows.dof, rows.task_dim);
    let y = rows
        .y
        .iter()
        .enumerate()
        .map(|(k, v)| ((v - norm.y_shift[k % m]) / norm.y_scale[k % m]) as f32)
        .collect();
    let x = rows
        .x
        .iter()
        .enumerate()
        .map(|(k, v)| ((v - norm.x_shift[k % n]) / norm.x_scale[k % n]) as f32)
        .collect();
    (y, x)
}

/// Normalised samples in f32, ready to be batched into tensors.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalisedSet {
    /// n.
    pub dof: usize,
    /// m.
    pub task_dim: usize,
    /// x̃ rows.
    pub x: Vec<f32>,
    /// ỹ rows.
    pub y: Vec<f32>,
    /// J̃.
    pub cost: Vec<f32>,
}

impl NormalisedSet {
    /// Applies `norm` to `data`.
    pub fn new(data: &Samples, norm: &Normalisation) -> Self {
        let (n, m) = (data.dof, data.task_dim);
        let x = data
            .x
            .iter()
            .enumerate()
            .map(|(k, &v)| ((v - norm.x_shift[k % n]) / norm.x_scale[k % n]) as f32)
            .collect();
        let y = data
            .y
            .iter()
            .enumerate()
            .map(|(k, &v)| ((v - norm.y_shift[k % m]) / norm.y_scale[k % m]) as f32)
            .collect();
        let cost = data
            .cost
            .iter()
            .map(|&c| ((c - norm.cost_shift) / norm.cost_scale) as f32)
            .collect();
        Self {
            dof: n,
            task_dim: m,
            x,
            y,
            cost,
        }
    }
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.cost.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.cost.is_empty()
    }
    /// These rows followed by `more`'s (same n and m).
    pub fn concat(&self, more: &NormalisedSet) -> NormalisedSet {
        debug_assert_eq!((self.dof, self.task_dim), (more.dof, more.task_dim));
        let join = |a: &[f32], b: &[f32]| [a, b].concat();
        NormalisedSet {
            dof: self.dof,
            task_dim: self.task_dim,
            x: join(&self.x, &more.x),
            y: join(&self.y, &more.y),
            cost: join(&self.cost, &more.cost),
        }
    }
}

/// Splits indices 0..len into (train, validation) after a seeded shuffle.
pub fn split(len: usize, val_frac: f64, rng: &mut ChaCha8Rng) -> (Vec<usize>, Vec<usize>) {
    let mut idx: Vec<usize> = (0..len).collect();
    idx.shuffle(rng);
    let n_val = ((len as f64 * val_frac).round() as usize).min(len.saturating_sub(1));
    let val = idx.split_off(len - n_val);
    (idx, val)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn samples_stay_inside_limits_and_match_fk() {
        let problem = Problem::preset("planar3").unwrap();
        for sampler in [Sampler::Uniform, Sampler::Halton] {
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            let s = sample(&problem, sampler, 500, &mut rng);
            assert_eq!(s.len(), 500);
            let limits = problem.limits();
            for (i, q) in s.x.chunks(3).enumerate() {
                assert!(limits.margin(q) >= 0.0);
                let p = problem.position(q);
                assert_eq!(&s.y[2 * i..2 * i + 2], &p[..]);
                assert_eq!(s.cost[i], problem.cost().value(q));
            }
        }
    }

    #[test]
    fn halton_covers_the_box_more_evenly_than_uniform() {
        // Star-discrepancy proxy: worst deviation of box counts on a 8³ grid.
        let problem = Problem::preset("planar3").unwrap();
        let worst = |sampler| {
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            let s = sample(&problem, sampler, 4096, &mut rng);
            let limits = problem.limits();
            let mut counts = vec![0usize; 512];
            for q in s.x.chunks(3) {
                let cell: usize = (0..3)
                    .map(|i| {
                        let t =
                            (q[i] - limits.lower()[i]) / (limits.upper()[i] - limits.lower()[i]);
                        ((t * 8.0) as usize).min(7) * 8usize.pow(i as u32)
                    })
                    .sum();
                counts[cell] += 1;
            }
            counts
                .iter()
                .map(|&c| (c as f64 - 8.0).abs())
                .fold(0.0, f64::max)
        };
        assert!(worst(Sampler::Halton) < worst(Sampler::Uniform));
    }

    #[test]
    fn same_seed_same_data() {
        let problem = Problem::preset("planar3").unwrap();
        let a = sample(
            &problem,
            Sampler::Halton,
            100,
            &mut ChaCha8Rng::seed_from_u64(1),
        );
        let b = sample(
            &problem,
            Sampler::Halton,
            100,
            &mut ChaCha8Rng::seed_from_u64(1),
        );
        assert_eq!(a, b);
    }
}
