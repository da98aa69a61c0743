//! Scoring from Python: `taisim.score` and `taisim.score_many`, JSON in and out, each variant
//! parsed once per process.

use std::sync::Mutex;

use pyo3::prelude::*;
use taisim_score::{RequestError, VariantCache};

use super::errors;

/// The variants `score_json` and `score_many_json` have parsed, kept for the process.
static VARIANTS: Mutex<Option<VariantCache>> = Mutex::new(None);

fn with_variants<T>(f: impl FnOnce(&mut VariantCache) -> T) -> T {
    // A panic cannot happen while the lock is held (scoring returns errors), but a poisoned
    // cache is still a valid cache.
    let mut guard = VARIANTS.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(VariantCache::new))
}

/// Scores a JSON request (the fields of `taisim score --json`) and returns the JSON answer.
/// Each variant is parsed once per process.
#[pyfunction]
pub(super) fn score_json(py: Python<'_>, request: &str) -> PyResult<String> {
    py.allow_threads(|| with_variants(|cache| cache.score_json(request)))
        .map_err(errors::request)
}

/// Scores many JSON requests: per request `(True, answer, "")` or `(False, error message,
/// the name of its exception class)`.
#[pyfunction]
pub(super) fn score_many_json(
    py: Python<'_>,
    requests: Vec<String>,
) -> Vec<(bool, String, &'static str)> {
    py.allow_threads(|| {
        with_variants(|cache| {
            requests
                .iter()
                .map(|r| match cache.score_json(r) {
                    Ok(answer) => (true, answer, ""),
                    Err(e @ RequestError::Variant(_)) => (false, e.to_string(), "VariantError"),
                    Err(e) => (false, e.to_string(), "ScoreRequestError"),
                })
                .collect()
        })
    })
}
