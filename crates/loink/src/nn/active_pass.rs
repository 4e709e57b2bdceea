//! The forward pass of a monotone layer that lists its active units: the kernel under the
//! Newton inverse's every step and under the pass that seeds it. Where the widths are known
//! (the input width n, the usual block sizes) the sums run in registers on fixed-size rows;
//! every sum is the one [`MonotoneLayer::forward_with`] computes, added in the same order, so
//! both give the same bits (the tests below check it).

#[cfg(target_arch = "x86_64")]
use super::linalg::add_columns;
use super::linalg::{axpy, relu_listing_active};
use super::monotone::{ActiveSet, MonotoneLayer};
use super::widths::{by_width, ByWidth};

impl MonotoneLayer {
    /// F(x) into `out` as [`Self::forward_with`], also listing the active units in `active`.
    /// The V products run over the active units of the block before only (most units are
    /// off), which is what makes a Newton step cheap. The buffers must fit the layer (callers
    /// check their state once per solve).
    // Inlined into each build of its x86-64 callers (the wide one among them); one copy
    // elsewhere, where the page's download counts.
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    #[cfg_attr(not(target_arch = "x86_64"), inline)]
    pub(crate) fn forward_active(
        &self,
        x: &[f64],
        z: &mut [f64],
        active: &mut ActiveSet,
        out: &mut [f64],
    ) {
        self.pre_activation(x, z);
        let ActiveSet { units, ends } = active;
        let mut count = 0;
        let mut begin = 0;
        for (k, block_end) in ends.iter_mut().enumerate().take(self.hidden.len()) {
            let (start, end) = (self.offsets[k], self.offsets[k + 1]);
            let (before, rest) = z.split_at_mut(start);
            let block = &mut rest[..end - start];
            if k > 0 {
                let (vk, prev) = (&self.v_cols[k - 1], self.offsets[k - 1]);
                let rows = block.len();
                let terms = units[begin..count]
                    .iter()
                    .map(|&l| (before[l], &vk[(l - prev) * rows..(l - prev + 1) * rows]));
                // The usual block sizes accumulate in registers on x86-64; the page's wasm adds
                // whole columns (less code, the same sums).
                match rows {
                    #[cfg(target_arch = "x86_64")]
                    16 => add_columns::<16>(block, terms),
                    #[cfg(target_arch = "x86_64")]
                    32 => add_columns::<32>(block, terms),
                    _ => terms.for_each(|(a, column)| axpy(a, column, block)),
                }
            }
            begin = count;
            count = relu_listing_active(block, start, units, count);
            *block_end = count;
        }
        // A set with room for more blocks (shared across layers) ends where this layer does.
        for e in ends.iter_mut().skip(self.hidden.len()) {
            *e = count;
        }
        // Fixed-size rows where the width has a kernel of its own (`super::widths`).
        struct Output<'a> {
            layer: &'a MonotoneLayer,
            x: &'a [f64],
            z: &'a [f64],
            units: &'a [usize],
            out: &'a mut [f64],
        }
        impl ByWidth for Output<'_> {
            type Output = ();
            #[inline(always)]
            fn fixed<const N: usize>(self) {
                self.layer
                    .output_fixed::<N>(self.x, self.z, self.units, self.out)
            }
            #[inline(always)]
            fn any(self) {
                let Output {
                    layer,
                    x,
                    z,
                    units,
                    out,
                } = self;
                let n = layer.n;
                for j in 0..n {
                    out[j] = layer.mu * x[j] + layer.b_out_flat[j];
                }
                for &i in units {
                    let w = layer.out_scale * z[i];
                    for (o, &sij) in out.iter_mut().zip(&layer.s_flat[i * n..(i + 1) * n]) {
                        *o += w * sij;
                    }
                }
            }
        }
        let units = &units[..count];
        by_width(
            self.n,
            Output {
                layer: self,
                x,
                z,
                units,
                out,
            },
        );
    }

    /// z = b_h + √(2γ) S x: in one pass over the units for widths 2, 3 and 6 (the planar arms,
    /// the Panda's position), by columns for the others; the same sum in the same order.
    #[inline(always)]
    fn pre_activation(&self, x: &[f64], z: &mut [f64]) {
        let total = self.hidden_total();
        let col = |j: usize| &self.s_in_cols[j * total..(j + 1) * total];
        let b = &self.b_hidden_flat[..total];
        match *x {
            [x0, x1] => {
                for (((zi, &bi), &a), &c) in z.iter_mut().zip(b).zip(col(0)).zip(col(1)) {
                    *zi = bi + a * x0 + c * x1;
                }
            }
            [x0, x1, x2] => {
                let cols = col(0).iter().zip(col(1)).zip(col(2));
                for ((zi, &bi), ((&a, &c), &d)) in z.iter_mut().zip(b).zip(cols) {
                    *zi = bi + a * x0 + c * x1 + d * x2;
                }
            }
            #[cfg(feature = "spatial")]
            [x0, x1, x2, x3, x4, x5] => {
                let cols = (col(0), col(1), col(2), col(3), col(4), col(5));
                for (i, (zi, &bi)) in z.iter_mut().zip(b).enumerate() {
                    *zi = bi
                        + cols.0[i] * x0
                        + cols.1[i] * x1
                        + cols.2[i] * x2
                        + cols.3[i] * x3
                        + cols.4[i] * x4
                        + cols.5[i] * x5;
                }
            }
            _ => {
                z.copy_from_slice(b);
                for (j, &xj) in x.iter().enumerate() {
                    axpy(xj, col(j), z);
                }
            }
        }
    }

    /// out = μ_l x + √(γ/2) Σ_i z_i S_i + b_y over the active units i, width `N` fixed.
    #[inline(always)]
    fn output_fixed<const N: usize>(&self, x: &[f64], z: &[f64], units: &[usize], out: &mut [f64]) {
        let mut acc = [0.0; N];
        for (c, a) in acc.iter_mut().enumerate() {
            *a = self.mu * x[c] + self.b_out_flat[c];
        }
        for &i in units {
            let w = self.out_scale * z[i];
            let row = &self.s_flat[i * N..(i + 1) * N];
            for c in 0..N {
                acc[c] += w * row[c];
            }
        }
        out[..N].copy_from_slice(&acc);
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::monotone::{ActiveSet, MonotoneLayer};

    /// The pass gives F(x) and z with the bits of the plain forward pass, and lists exactly the
    /// units with z > 0 in order: on every fixed input width, on the block sizes held in
    /// registers (16, 32), on others, and on blocks wider than one 64-unit mask.
    #[test]
    fn lists_the_active_units_and_rounds_like_the_plain_pass() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let shapes: [&[usize]; 4] = [&[16, 16, 16], &[32, 32, 32, 32], &[24, 40, 9], &[70, 65]];
        for n in 2..=9 {
            for hidden in shapes {
                let layer = MonotoneLayer::random(n, hidden, 0.3, 4.0, &mut rng).unwrap();
                let total = layer.hidden_total();
                for _ in 0..10 {
                    let x: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
                    let (mut z_plain, mut out_plain) = (vec![0.0; total], vec![0.0; n]);
                    layer.forward_with(&x, &mut z_plain, &mut out_plain);
                    let (mut z, mut out) = (vec![0.0; total], vec![0.0; n]);
                    let mut active = ActiveSet::new(total, hidden.len());
                    layer.forward_active(&x, &mut z, &mut active, &mut out);
                    let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&out), bits(&out_plain), "n {n}, blocks {hidden:?}");
                    assert_eq!(bits(&z), bits(&z_plain), "n {n}, blocks {hidden:?}");
                    let on: Vec<usize> = (0..total).filter(|&i| z_plain[i] > 0.0).collect();
                    assert_eq!(active.units(), &on[..], "n {n}, blocks {hidden:?}");
                    assert!(
                        !on.is_empty() && on.len() < total,
                        "a pattern worth testing"
                    );
                }
            }
        }
    }
}
