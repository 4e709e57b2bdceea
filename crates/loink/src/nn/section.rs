//! The section head σ(ỹ) ≈ G⁻¹([ỹ; 0]): a small ReLU network distilled from G (`loink distill`)
//! that starts the inverse inside its basin.
//!
//! The section y ↦ G⁻¹([ỹ; 0]) is one continuous, single-valued function (G is a bijection), so
//! a regression fits it without the averaging trap of fitting joints to targets directly. It is
//! piecewise linear, like G, hence ReLU units. The head only proposes: the inverse starts every
//! monotone layer at the forward pass of σ(ỹ) ([`super::BiLipNet::seed_warm_starts`]) and runs
//! under the same stopping rule, so the answer and its certificate are the inverse's own; a
//! poor guess costs iterations, never accuracy.

#[cfg(target_arch = "x86_64")]
use super::linalg::add_columns;
use super::linalg::{axpy, relu_listing_active};
use super::mlp::Dense;
use crate::error::{LoinkError, Result};

/// The activation a section head's file declares.
pub const SECTION_ACTIVATION: &str = "relu";
/// Most hidden layers a section head may have.
pub const MAX_SECTION_LAYERS: usize = 4;

/// A ReLU network ỹ (m) → x̃ (n): hidden layers h = max(W h + b, 0), the last layer linear.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionHead {
    layers: Vec<Dense>,
    /// Each layer's W by columns (Wᵀ row-major) and its b: a product adds the columns of the
    /// inputs that are not zero only, and about half of a ReLU layer's outputs are zero.
    columns: Vec<(Vec<f64>, Vec<f64>)>,
    widest: usize,
}

/// Work buffers of a [`SectionHead`] prediction (two hidden vectors and the list of the units
/// taking part), reused across calls.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SectionWork {
    a: Vec<f64>,
    b: Vec<f64>,
    /// The inputs of the layer being applied that take part (a hidden layer's active units).
    listed: Vec<usize>,
}

impl SectionHead {
    /// Chains the layers, checking that each one's input matches the previous output and that
    /// there are 1 to [`MAX_SECTION_LAYERS`] hidden layers.
    pub fn new(layers: Vec<Dense>) -> Result<Self> {
        if !(2..=MAX_SECTION_LAYERS + 1).contains(&layers.len()) {
            return Err(LoinkError::OutOfRange {
                what: "section head".into(),
                detail: format!(
                    "{} layers (need 1 to {MAX_SECTION_LAYERS} hidden layers and the output)",
                    layers.len()
                ),
            });
        }
        for pair in layers.windows(2) {
            if pair[1].inputs() != pair[0].outputs() {
                return Err(LoinkError::Dimension {
                    what: "section head layer input".into(),
                    expected: pair[0].outputs(),
                    got: pair[1].inputs(),
                });
            }
        }
        // The buffers hold every layer's input and output, the head's own input among them.
        let widest = layers
            .iter()
            .map(|layer| layer.inputs().max(layer.outputs()))
            .max()
            .unwrap_or(0);
        let columns = layers
            .iter()
            .map(|layer| {
                let w_columns = layer.w().t().iter().copied().collect();
                (w_columns, layer.b().to_vec())
            })
            .collect();
        Ok(Self {
            layers,
            columns,
            widest,
        })
    }

    /// Input size m.
    pub fn inputs(&self) -> usize {
        self.layers[0].inputs()
    }
    /// Output size n.
    pub fn outputs(&self) -> usize {
        self.layers[self.layers.len() - 1].outputs()
    }
    /// Hidden widths.
    pub fn hidden(&self) -> Vec<usize> {
        self.layers[..self.layers.len() - 1]
            .iter()
            .map(Dense::outputs)
            .collect()
    }
    /// The layers.
    pub fn layers(&self) -> &[Dense] {
        &self.layers
    }

    /// Buffers sized for this head.
    pub fn new_work(&self) -> SectionWork {
        SectionWork {
            a: vec![0.0; self.widest],
            b: vec![0.0; self.widest],
            listed: vec![0; self.widest],
        }
    }

    /// σ(ỹ) into `out` without allocating; false (nothing written) when the slices do not fit.
    pub fn predict_into(&self, y_tilde: &[f64], work: &mut SectionWork, out: &mut [f64]) -> bool {
        if y_tilde.len() != self.inputs()
            || out.len() != self.outputs()
            || work.a.len() < self.widest
            || work.b.len() < self.widest
            || work.listed.len() < self.widest
        {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        if super::simd::wide() {
            // SAFETY: the CPU reports AVX2 and FMA, all the wide build needs.
            unsafe { self.predict_wide(y_tilde, work, out) };
            return true;
        }
        self.predict_checked(y_tilde, work, out);
        true
    }

    /// [`Self::predict_checked`] compiled with AVX2 and FMA ([`super::simd`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn predict_wide(&self, y_tilde: &[f64], work: &mut SectionWork, out: &mut [f64]) {
        self.predict_checked(y_tilde, work, out);
    }

    /// The prediction on slices that fit.
    #[inline(always)]
    fn predict_checked(&self, y_tilde: &[f64], work: &mut SectionWork, out: &mut [f64]) {
        let last = self.layers.len() - 1;
        let SectionWork { a, b, listed } = work;
        let mut width = y_tilde.len();
        a[..width].copy_from_slice(y_tilde);
        // Every entry of ỹ takes part; after a hidden layer, its active units only.
        let mut count = width;
        for (j, unit) in listed[..width].iter_mut().enumerate() {
            *unit = j;
        }
        for (k, layer) in self.columns.iter().enumerate() {
            let rows = layer.1.len();
            let result = if k == last { &mut *out } else { &mut b[..rows] };
            Self::apply(layer, &a[..width], &listed[..count], result);
            if k < last {
                count = relu_listing_active(&mut b[..rows], 0, listed, 0);
                std::mem::swap(a, b);
                width = rows;
            }
        }
    }

    /// out = b + Σ_j input_j W[:, j] over the listed inputs j (in order).
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    #[cfg_attr(not(target_arch = "x86_64"), inline)]
    fn apply(
        (columns, bias): &(Vec<f64>, Vec<f64>),
        input: &[f64],
        listed: &[usize],
        out: &mut [f64],
    ) {
        let rows = out.len();
        out.copy_from_slice(&bias[..rows]);
        let column = |j: usize, from: usize, to: usize| &columns[j * rows + from..j * rows + to];
        #[allow(unused_mut)]
        let mut from = 0;
        // 32 rows at a time in registers on x86-64; the page's wasm adds whole columns (less
        // code, the same sums).
        #[cfg(target_arch = "x86_64")]
        while rows - from >= 32 {
            let terms = listed
                .iter()
                .map(|&j| (input[j], column(j, from, from + 32)));
            add_columns::<32>(&mut out[from..], terms);
            from += 32;
        }
        if from < rows {
            for &j in listed {
                axpy(input[j], column(j, from, rows), &mut out[from..]);
            }
        }
    }

    /// σ(ỹ), checked (dimension and finiteness).
    pub fn predict(&self, y_tilde: &[f64]) -> Result<Vec<f64>> {
        crate::error::ensure_len("section head input", y_tilde, self.inputs())?;
        crate::error::ensure_finite("section head input", y_tilde)?;
        let mut out = vec![0.0; self.outputs()];
        self.predict_into(y_tilde, &mut self.new_work(), &mut out);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{array, Array1};

    use super::*;

    fn head() -> SectionHead {
        let hidden = Dense::new(
            array![[1.0, -1.0], [0.5, 2.0]],
            Array1::from(vec![0.0, -1.0]),
        );
        let output = Dense::new(
            array![[1.0, 1.0], [2.0, 0.0], [0.0, -1.0]],
            Array1::from(vec![0.1, 0.2, 0.3]),
        );
        SectionHead::new(vec![hidden.unwrap(), output.unwrap()]).unwrap()
    }

    #[test]
    fn predicts_a_relu_network() {
        // Hidden: max([1 − 2, 0.5 + 4 − 1], 0) = [0, 3.5]; output: [3.6, 0.2, −3.2].
        let out = head().predict(&[1.0, 2.0]).unwrap();
        let expected = [3.6, 0.2, -3.2];
        for (o, e) in out.iter().zip(expected) {
            assert!((o - e).abs() < 1e-12, "{out:?}");
        }
    }

    /// A wide head (several 32-row groups and a remainder, inputs with zeros among them)
    /// predicts what the dense products W h + b give.
    #[test]
    fn skipping_zero_inputs_predicts_the_dense_network() {
        let layer = |rows: usize, cols: usize, salt: f64| {
            let w = ndarray::Array2::from_shape_fn((rows, cols), |(i, j)| {
                ((i * cols + j) as f64 * 0.61 + salt).sin()
            });
            let b = Array1::from_shape_fn(rows, |i| (i as f64 * 0.3 + salt).cos() * 0.5);
            Dense::new(w, b).unwrap()
        };
        let layers = vec![layer(70, 3, 0.1), layer(40, 70, 0.2), layer(6, 40, 0.3)];
        let head = SectionHead::new(layers.clone()).unwrap();
        for y in [[0.5, -1.0, 0.0], [0.0, 0.0, 0.0], [2.0, 1.5, -0.7]] {
            let mut h = y.to_vec();
            for (k, layer) in layers.iter().enumerate() {
                let mut next = layer.w().dot(&Array1::from(h.clone())) + layer.b();
                if k + 1 < layers.len() {
                    next.mapv_inplace(|v| v.max(0.0));
                }
                h = next.to_vec();
            }
            let out = head.predict(&y).unwrap();
            assert!(h.iter().filter(|&&v| v != 0.0).count() > 0);
            for (o, e) in out.iter().zip(&h) {
                assert!((o - e).abs() <= 1e-12 * (1.0 + e.abs()), "{out:?} vs {h:?}");
            }
        }
    }

    #[test]
    fn refuses_misfits() {
        let h = head();
        assert!(h.predict(&[1.0]).is_err());
        assert!(h.predict(&[f64::NAN, 0.0]).is_err());
        let mut out = [0.0; 2];
        assert!(!h.predict_into(&[1.0, 2.0], &mut h.new_work(), &mut out));
        let one = Dense::new(array![[1.0, 1.0]], Array1::from(vec![0.0])).unwrap();
        assert!(SectionHead::new(vec![one]).is_err());
    }
}
