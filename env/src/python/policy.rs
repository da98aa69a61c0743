//! `taisim._native.policy_logits`: a policy file's scores for a batch of observations, as the
//! Rust policy agent computes them, so that Python can check an export against the module
//! it came from; and `policy_bytes`, the one writer of policy files (the Rust agent's own).

use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use taisim_agents::{Decides, Layer, Policy, ACTION_SPACE_SIZE, OBS_LEN};

use super::errors;

/// The shipped policy's name where a policy file's path is taken.
const TRAINED: &str = "trained";

/// The bytes of the policy built into this build (`trained`), for reading it back into
/// torch (`taisim.torch_policy.load_policy("trained")`).
#[pyfunction]
pub fn trained_policy_bytes(py: Python<'_>) -> Bound<'_, PyBytes> {
    PyBytes::new(py, taisim_agents::TRAINED_POLICY)
}

/// The policy file's bytes for `layers` (`(weight [outputs, inputs], bias [outputs])` float32
/// pairs), written as the Rust side writes them: the same weights always give the same bytes.
/// Layers that do not chain from the observation to the action space raise
/// `taisim.PolicyError` (a `ValueError`).
/// `kinds`, when given, is a per-kind head: `(input weight [hidden, 2 × rows], input bias,
/// context weight [hidden, last layer's inputs], output weight [4, hidden], output bias)`.
/// `greedy_margin`, when given, makes it a residual policy over greedy (the agent plays
/// greedy's choice unless another legal action scores more than that many points above it).
/// `decides`, when given, names the decisions the policy makes (`"all"`, `"turns"` or
/// `"offers"`); greedy makes the others.
#[pyfunction]
#[pyo3(signature = (layers, kinds=None, greedy_margin=None, decides=None))]
pub fn policy_bytes<'py>(
    py: Python<'py>,
    layers: Vec<(PyReadonlyArray2<'py, f32>, PyReadonlyArray1<'py, f32>)>,
    kinds: Option<KindTensors<'py>>,
    greedy_margin: Option<f32>,
    decides: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let layers = layers.iter().map(|(w, b)| layer(w, b)).collect();
    let err = errors::policy;
    let mut policy = Policy::new(layers).map_err(err)?;
    if let Some((input_w, input_b, context, output_w, output_b)) = kinds {
        let context = context.as_array();
        let shape = [context.shape()[0], context.shape()[1]];
        policy = policy
            .with_kind_head(
                layer(&input_w, &input_b),
                shape,
                context.iter().copied().collect(),
                layer(&output_w, &output_b),
            )
            .map_err(err)?;
    }
    if let Some(margin) = greedy_margin {
        policy = policy.with_greedy_margin(margin).map_err(err)?;
    }
    if let Some(decides) = decides {
        policy = policy.with_decides(decides.parse::<Decides>().map_err(err)?);
    }
    Ok(PyBytes::new(py, &policy.to_bytes()))
}

/// A dense layer from its weight (`[outputs, inputs]`) and bias arrays.
fn layer(w: &PyReadonlyArray2<'_, f32>, b: &PyReadonlyArray1<'_, f32>) -> Layer {
    let (w, b) = (w.as_array(), b.as_array());
    Layer::new(
        w.shape()[1],
        w.shape()[0],
        w.iter().copied().collect(),
        b.iter().copied().collect(),
    )
}

/// A per-kind head's arrays, as `policy_bytes` takes them.
type KindTensors<'py> = (
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray1<'py, f32>,
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray1<'py, f32>,
);

/// Loads the policy file at `path` (`"trained"`: the shipped policy, as the agent of that
/// name plays it) and scores every action for each observation of `obs` (float32, shape
/// `(n, OBS_CHANNELS, OBS_WIDTH)` or `(n, OBS_LEN)`); returns `(n, ACTION_SPACE_SIZE)`
/// float32. A bad file raises `taisim.PolicyError`, a bad shape or a NaN or infinite value
/// `taisim.UsageError` (both `ValueError`s), naming the problem.
#[pyfunction]
pub fn policy_logits<'py>(
    py: Python<'py>,
    path: &str,
    obs: PyReadonlyArrayDyn<'py, f32>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    // The name every other entry point gives the shipped policy (`load_policy`, `arena`,
    // `Env(opponents=...)`); a file of that name is `./trained`.
    let policy = if path == TRAINED {
        taisim_agents::trained_policy().map_err(errors::policy)?
    } else {
        Arc::new(Policy::load(path).map_err(errors::policy)?)
    };
    let obs = obs.as_array();
    let shape = obs.shape();
    let n = shape.first().copied().unwrap_or(0);
    let per_row: usize = shape.iter().skip(1).product();
    if shape.len() < 2 || per_row != OBS_LEN {
        return Err(errors::usage(format!(
            "observations have shape {shape:?}; expected (n, {OBS_LEN}) values per row"
        )));
    }
    let flat: Vec<f32> = obs.iter().copied().collect();
    // A NaN or infinite input scores as if it were a number (ReLU drops a NaN), so a
    // broken observation would pass for a real one.
    if let Some(at) = flat.iter().position(|v| !v.is_finite()) {
        return Err(errors::usage(format!(
            "observation {} holds {} (value {} of its {OBS_LEN}): observations are finite",
            at / OBS_LEN,
            flat[at],
            at % OBS_LEN
        )));
    }
    let mut out = Array2::<f32>::zeros((n, ACTION_SPACE_SIZE));
    let mut scratch = policy.scratch();
    for (row, mut dst) in flat.chunks_exact(OBS_LEN).zip(out.rows_mut()) {
        let dst = dst
            .as_slice_mut()
            .expect("a fresh standard-layout array has contiguous rows");
        policy.scores(row, &mut scratch, dst);
    }
    Ok(out.into_pyarray(py))
}
