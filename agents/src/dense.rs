//! Dense layers and the two products the policy agent and its per-kind head compute with:
//! the arithmetic below both, so neither imports the other for it.

/// One dense layer: `y = W x + b`, `W` row-major `outputs × inputs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub inputs: usize,
    pub outputs: usize,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
}

impl Layer {
    /// A layer from its weights (row-major `outputs × inputs`) and bias.
    pub fn new(inputs: usize, outputs: usize, weights: Vec<f32>, bias: Vec<f32>) -> Layer {
        Layer {
            inputs,
            outputs,
            weights,
            bias,
        }
    }

    /// Output `row` for input `x`.
    #[inline]
    pub(crate) fn row(&self, row: usize, x: &[f32]) -> f32 {
        let w = &self.weights[row * self.inputs..(row + 1) * self.inputs];
        // Four accumulators let the compiler vectorise without reassociating one sum.
        let mut acc = [0f32; 4];
        let mut chunks = w.chunks_exact(4).zip(x.chunks_exact(4));
        for (w4, x4) in &mut chunks {
            for k in 0..4 {
                acc[k] += w4[k] * x4[k];
            }
        }
        let tail: f32 = w[w.len() / 4 * 4..]
            .iter()
            .zip(&x[x.len() / 4 * 4..])
            .map(|(a, b)| a * b)
            .sum();
        self.bias[row] + (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
    }
}

/// `weights` (row-major `outputs × inputs`) transposed: `inputs` columns of `outputs` values.
pub(crate) fn transposed(weights: &[f32], outputs: usize, inputs: usize) -> Vec<f32> {
    let mut t = vec![0f32; inputs * outputs];
    for r in 0..outputs {
        for c in 0..inputs {
            t[c * outputs + r] = weights[r * inputs + c];
        }
    }
    t
}

/// Adds `x · column` to `dst` for each input `x` that is not zero, `columns` holding one
/// column of `dst.len()` weights per input ([`transposed`]): a layer's product that costs
/// only the set inputs, as an observation (5% set) or a ReLU output often has few.
#[inline]
pub(crate) fn add_set_columns(
    dst: &mut [f32],
    inputs: impl IntoIterator<Item = f32>,
    columns: &[f32],
) {
    for (x, column) in inputs.into_iter().zip(columns.chunks_exact(dst.len())) {
        if x != 0.0 {
            for (d, w) in dst.iter_mut().zip(column) {
                *d += x * w;
            }
        }
    }
}
