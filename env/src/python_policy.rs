//! `taisim._native.policy_logits`: a policy file's scores for a batch of observations, as the
//! Rust policy agent computes them, so that Python can check an export against the module
//! it came from.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use taisim_agents::{Policy, ACTION_SPACE_SIZE, OBS_LEN};

/// Loads the policy file at `path` and scores every action for each observation of `obs`
/// (float32, shape `(n, OBS_CHANNELS, OBS_WIDTH)` or `(n, OBS_LEN)`); returns `(n,
/// ACTION_SPACE_SIZE)` float32. A bad file or shape raises `ValueError` naming the problem.
#[pyfunction]
pub fn policy_logits<'py>(
    py: Python<'py>,
    path: &str,
    obs: PyReadonlyArrayDyn<'py, f32>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let policy = Policy::load(path).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let obs = obs.as_array();
    let shape = obs.shape();
    let n = shape.first().copied().unwrap_or(0);
    let per_row: usize = shape.iter().skip(1).product();
    if shape.len() < 2 || per_row != OBS_LEN {
        return Err(PyValueError::new_err(format!(
            "observations have shape {shape:?}; expected (n, {OBS_LEN}) values per row"
        )));
    }
    let flat: Vec<f32> = obs.iter().copied().collect();
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
