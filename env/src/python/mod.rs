//! The Python extension `taisim._native`: thin pyo3 wrappers over the Rust crates. The
//! Gymnasium and PettingZoo classes are written in Python on top of these
//! (`env/python/taisim/`), so this layer only converts types and errors.
//!
//! - `single.rs`, `aec.rs`, `vec_env.rs`: the three environment classes, `config.rs` what they
//!   share, `render.rs` the table as text;
//! - `scoring.rs`: `score_json`, `score_many_json`;
//! - `harness.rs`: `simulate`, `arena`, `compare`; `decisions.rs`: `load_decisions`;
//! - `bot.rs`: a table rebuilt from a seat's protocol messages, for bots written in Python;
//! - `policy.rs`: a policy file's scores and bytes, for exporting from PyTorch;
//! - `errors.rs`: the exception classes, and the one mapping of every Rust error kind to
//!   them. Errors cross the boundary as Python exceptions, never as panics.

mod aec;
mod bot;
mod config;
mod decisions;
mod errors;
mod harness;
mod interrupt;
mod policy;
mod render;
mod review;
mod scoring;
mod single;
mod vec_env;

use pyo3::prelude::*;
use taisim_agents::space::index_name;

use crate::{ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_VERSION, OBS_WIDTH};
use errors::IllegalActionError;

/// The name of an action index (`discard_5m`, `pung`, …); any int outside the action space
/// raises `IllegalActionError` saying so.
#[pyfunction]
fn action_name(index: &Bound<'_, PyAny>) -> PyResult<String> {
    let index = config::action_arg(index)?;
    index_name(index).ok_or_else(|| {
        IllegalActionError::new_err(format!(
            "action {index} is out of range: {}",
            crate::single::action_space_words()
        ))
    })
}

/// The rows of observation layout `version` as `(name, meaning)` pairs, from the layout's
/// own offsets (`taisim_agents::obs_names`); a version this build does not know raises
/// `taisim.UsageError` naming the ones it does.
#[pyfunction]
fn obs_rows(version: u32) -> PyResult<Vec<(String, String)>> {
    let rows = taisim_agents::obs_names::obs_rows(version).ok_or_else(|| {
        errors::usage(format!(
            "observation version {version} is not one this build knows (1 to {OBS_VERSION})"
        ))
    })?;
    Ok(rows.into_iter().map(|r| (r.name, r.meaning)).collect())
}

/// The names of the scalar row's columns.
#[pyfunction]
fn obs_scalar_columns() -> Vec<String> {
    taisim_agents::obs_names::scalar_columns().to_vec()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<single::PyEnv>()?;
    m.add_class::<aec::PyAec>()?;
    m.add_class::<vec_env::PyVecEnv>()?;
    m.add_class::<bot::PyBotTable>()?;
    m.add_function(wrap_pyfunction!(action_name, m)?)?;
    m.add_function(wrap_pyfunction!(obs_rows, m)?)?;
    m.add_function(wrap_pyfunction!(obs_scalar_columns, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::score_json, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::score_many_json, m)?)?;
    m.add_function(wrap_pyfunction!(harness::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(harness::arena, m)?)?;
    m.add_function(wrap_pyfunction!(harness::compare_json, m)?)?;
    m.add_function(wrap_pyfunction!(harness::replay_jsonl, m)?)?;
    m.add_function(wrap_pyfunction!(harness::review_json, m)?)?;
    m.add_function(wrap_pyfunction!(policy::policy_logits, m)?)?;
    m.add_function(wrap_pyfunction!(policy::policy_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(policy::trained_policy_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(decisions::load_decisions, m)?)?;
    errors::register(m)?;
    m.add("ACTION_SPACE_SIZE", ACTION_SPACE_SIZE)?;
    m.add("PASS_ACTION", taisim_agents::space::PASS)?;
    m.add("OBS_SHAPE", (OBS_CHANNELS, OBS_WIDTH))?;
    m.add("OBS_VERSION", OBS_VERSION)?;
    m.add(
        "OLDEST_POLICY_OBS_VERSION",
        taisim_agents::OLDEST_POLICY_OBS_VERSION,
    )?;
    m.add("MAX_NUM_ENVS", vec_env::MAX_NUM_ENVS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
