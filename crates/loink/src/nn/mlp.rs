//! Small fully connected network: hidden layers h = tanh(W h + b), the last layer linear.
//! Used for the surrogate's heads M(ỹ) and b(ỹ).

use ndarray::{Array1, Array2};
use rand::Rng;

use super::linalg::mat_vec;
use crate::error::{ensure_finite, ensure_len, LoinkError, Result};

/// A dense layer out = W in + b.
#[derive(Debug, Clone, PartialEq)]
pub struct Dense {
    w: Array2<f64>,
    b: Array1<f64>,
    w_flat: Vec<f64>,
}

impl Dense {
    /// Checks W (out × in) against b (out) and finiteness.
    pub fn new(w: Array2<f64>, b: Array1<f64>) -> Result<Self> {
        if w.nrows() != b.len() || w.ncols() == 0 || b.is_empty() {
            return Err(LoinkError::Dimension {
                what: "dense layer W rows".into(),
                expected: b.len(),
                got: w.nrows(),
            });
        }
        ensure_finite(
            "dense layer",
            &w.iter().chain(b.iter()).copied().collect::<Vec<_>>(),
        )?;
        let w_flat = w.iter().copied().collect();
        Ok(Self { w, b, w_flat })
    }
    /// Input size.
    pub fn inputs(&self) -> usize {
        self.w.ncols()
    }
    /// Output size.
    pub fn outputs(&self) -> usize {
        self.w.nrows()
    }
    /// W.
    pub fn w(&self) -> &Array2<f64> {
        &self.w
    }
    /// b.
    pub fn b(&self) -> &Array1<f64> {
        &self.b
    }
    /// out = W input + b, without allocating (slices of the layer's sizes).
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    #[cfg_attr(not(target_arch = "x86_64"), inline)]
    pub(crate) fn apply(&self, input: &[f64], out: &mut [f64]) {
        mat_vec(&self.w_flat, self.inputs(), input, out);
        for (o, b) in out.iter_mut().zip(self.b.iter()) {
            *o += b;
        }
    }
}

/// tanh MLP with a linear output layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Mlp {
    layers: Vec<Dense>,
}

impl Mlp {
    /// Chains the layers, checking that each one's input matches the previous output.
    pub fn new(layers: Vec<Dense>) -> Result<Self> {
        if layers.is_empty() {
            return Err(LoinkError::OutOfRange {
                what: "MLP".into(),
                detail: "no layers".into(),
            });
        }
        for pair in layers.windows(2) {
            if pair[1].inputs() != pair[0].outputs() {
                return Err(LoinkError::Dimension {
                    what: "MLP layer input".into(),
                    expected: pair[0].outputs(),
                    got: pair[1].inputs(),
                });
            }
        }
        Ok(Self { layers })
    }

    /// A random MLP `inputs → hidden… → outputs` with Glorot-uniform weights and zero biases.
    pub fn random<G: Rng>(
        inputs: usize,
        hidden: &[usize],
        outputs: usize,
        rng: &mut G,
    ) -> Result<Self> {
        let mut sizes = vec![inputs];
        sizes.extend_from_slice(hidden);
        sizes.push(outputs);
        let layers = sizes
            .windows(2)
            .map(|w| {
                let limit = (6.0 / (w[0] + w[1]) as f64).sqrt();
                let weights =
                    Array2::from_shape_fn((w[1], w[0]), |_| rng.random_range(-limit..limit));
                Dense::new(weights, Array1::zeros(w[1]))
            })
            .collect::<Result<Vec<_>>>()?;
        Self::new(layers)
    }

    /// Input size.
    pub fn inputs(&self) -> usize {
        self.layers[0].inputs()
    }
    /// Output size.
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

    /// The network's output, checked.
    pub fn forward(&self, input: &[f64]) -> Result<Vec<f64>> {
        ensure_len("MLP input", input, self.inputs())?;
        ensure_finite("MLP input", input)?;
        let mut h = input.to_vec();
        let last = self.layers.len() - 1;
        for (k, layer) in self.layers.iter().enumerate() {
            let mut out = vec![0.0; layer.outputs()];
            layer.apply(&h, &mut out);
            if k < last {
                out.iter_mut().for_each(|o| *o = o.tanh());
            }
            h = out;
        }
        Ok(h)
    }
}
