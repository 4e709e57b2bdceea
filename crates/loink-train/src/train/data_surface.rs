//! Data-surface weighting (`loink train --data-surface N`), the model-free counterpart of
//! optimal-surface resampling ([`super::surface`]): the one-shot answer x₀ = G⁻¹([ỹ; 0]) is read
//! on the learned optimal surface z = 0, so that is where G₁'s task fit matters. Instead of
//! inverting the network and replaying the preimages through the forward map (which a learner
//! that has only a data file cannot do), every epoch after the warm-up finds the N training rows
//! the current network maps nearest that surface (smallest ‖G₂(x̃)‖) and adds them to the epoch
//! a second time, their task error weighted by `--surface-task-weight`. The rows keep the data
//! file's own labels: no simulator call.

use burn::tensor::{Tensor, TensorData};

use super::data::NormalisedSet;
use super::model::{cpu_device, LoinkNet};

/// Rows pushed through the network at once.
const CHUNK: usize = 8_192;

/// The indices of the `count` rows of `set` with the smallest ‖G₂(x̃)‖ under `net` (in row
/// order); all rows when the latent is empty or `count` covers them.
pub fn nearest_rows(net: &LoinkNet, set: &NormalisedSet, count: usize) -> Vec<usize> {
    let (n, m) = (set.dof, set.task_dim);
    if count >= set.len() || n == m {
        return (0..set.len()).collect();
    }
    let device = cpu_device();
    let mut norms = Vec::with_capacity(set.len());
    for start in (0..set.len()).step_by(CHUNK) {
        let rows = CHUNK.min(set.len() - start);
        let x = Tensor::<2>::from_data(
            TensorData::new(set.x[n * start..n * (start + rows)].to_vec(), [rows, n]),
            &device,
        );
        let latent = net.bilipnet(x).narrow(1, m, n - m);
        norms.extend(super::cayley::values(&latent.square().sum_dim(1)));
    }
    let mut ranked: Vec<usize> = (0..set.len()).collect();
    ranked.sort_by(|&a, &b| norms[a].total_cmp(&norms[b]));
    ranked.truncate(count);
    ranked.sort_unstable();
    ranked
}

/// The rows of `set` at `indices`.
pub fn rows(set: &NormalisedSet, indices: &[usize]) -> NormalisedSet {
    let (n, m) = (set.dof, set.task_dim);
    let mut out = NormalisedSet {
        dof: n,
        task_dim: m,
        x: Vec::with_capacity(n * indices.len()),
        y: Vec::with_capacity(m * indices.len()),
        cost: Vec::with_capacity(indices.len()),
    };
    for &i in indices {
        out.x.extend_from_slice(&set.x[n * i..n * (i + 1)]);
        out.y.extend_from_slice(&set.y[m * i..m * (i + 1)]);
        out.cost.push(set.cost[i]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::model::Architecture;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_rows_nearest_the_surface_are_the_smallest_latents() {
        let arch = Architecture::small(4, 2);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let net = LoinkNet::new(&arch, &mut rng, &cpu_device());
        let len = 20_000;
        let x: Vec<f32> = (0..4 * len)
            .map(|k| ((k * 7919) % 2001) as f32 / 1000.0 - 1.0)
            .collect();
        let set = NormalisedSet {
            dof: 4,
            task_dim: 2,
            x,
            y: vec![0.0; 2 * len],
            cost: vec![0.0; len],
        };
        let picked = nearest_rows(&net, &set, 500);
        assert_eq!(picked.len(), 500);
        let latent = |i: usize| {
            let x = Tensor::<2>::from_data(
                TensorData::new(set.x[4 * i..4 * i + 4].to_vec(), [1, 4]),
                &cpu_device(),
            );
            super::super::cayley::values(&net.bilipnet(x).narrow(1, 2, 2).square().sum())[0]
        };
        let worst_picked = picked.iter().map(|&i| latent(i)).fold(0.0f64, f64::max);
        let outside = (0..len).filter(|i| !picked.contains(i)).take(300);
        assert!(outside.map(latent).all(|z| z >= worst_picked - 1e-5));
        let near = rows(&set, &picked);
        assert_eq!(near.len(), 500);
        let mut order: Vec<usize> = (0..len).collect();
        let mixed = crate::train::surface::mix_rows(&set, &near, &mut order, &mut rng);
        assert_eq!(mixed.len(), len + 500);
        assert_eq!(order.len(), len);
        assert!(order.iter().filter(|&&i| i >= len).count() == 500);
    }
}
