//! The one place the library's error kinds become Python exceptions, each a class users can
//! catch by kind (exported from `taisim`): bad input is a `ValueError` subclass, failed I/O an
//! `OSError` (the subclass for its kind: `FileNotFoundError`, `PermissionError`, …), a bug
//! in taisim `taisim.EngineError` (a `RuntimeError`). A wrong argument type stays pyo3's
//! `TypeError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use taisim_agents::{AgentParseError, PolicyError as AgentPolicyError};
use taisim_datasets::{ArenaError, HarnessError};
use taisim_score::{RequestError, SettleError, VariantError as ScoreVariantError};

use crate::EnvError;

create_exception!(
    taisim,
    UsageError,
    PyValueError,
    "An argument, or a directory, that the call cannot use as given (nothing was written)."
);
create_exception!(
    taisim,
    VariantError,
    PyValueError,
    "A variant that cannot be used: unknown, unreadable, or refused by its checks (the file, key and line are named)."
);
create_exception!(
    taisim,
    AgentError,
    PyValueError,
    "A name that names no agent (the known ones are listed)."
);
create_exception!(
    taisim,
    PolicyError,
    PyValueError,
    "A policy that cannot be loaded, built or exported: a file missing, unreadable or refused, or layers that do not fit."
);
create_exception!(
    taisim,
    StakesError,
    PyValueError,
    "Stakes (base, per_tai) that the variant's settlement cannot pay exactly."
);
create_exception!(
    taisim,
    ScoreRequestError,
    PyValueError,
    "A score request that cannot be scored: a field that is not what it must be, or an impossible win."
);
create_exception!(
    taisim,
    IllegalActionError,
    PyValueError,
    "An action that is out of range or not legal now (the legal ones are named)."
);
create_exception!(
    taisim,
    CorruptRunError,
    PyValueError,
    "A run directory whose files do not agree with its manifest or their schema."
);
create_exception!(
    taisim,
    EngineError,
    PyRuntimeError,
    "A bug in taisim: a deal the engine or the scorer rejected although it produced it (reported with the deal to replay), or a result that does not fit its promise."
);

/// Adds every class to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("UsageError", py.get_type::<UsageError>())?;
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("AgentError", py.get_type::<AgentError>())?;
    m.add("PolicyError", py.get_type::<PolicyError>())?;
    m.add("StakesError", py.get_type::<StakesError>())?;
    m.add("ScoreRequestError", py.get_type::<ScoreRequestError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("CorruptRunError", py.get_type::<CorruptRunError>())?;
    m.add("EngineError", py.get_type::<EngineError>())?;
    Ok(())
}

/// An error of an argument the call cannot use (numpy's refusal of an array's layout or a
/// second borrow of it included).
pub(super) fn usage(e: impl std::fmt::Display) -> PyErr {
    UsageError::new_err(e.to_string())
}

/// A bug in taisim: what the library returned does not fit what it promised (an array of
/// another shape than its row count gives).
pub(super) fn bug(e: impl std::fmt::Display) -> PyErr {
    EngineError::new_err(e.to_string())
}

pub(super) fn variant(e: ScoreVariantError) -> PyErr {
    VariantError::new_err(e.to_string())
}

pub(super) fn agent(e: AgentParseError) -> PyErr {
    AgentError::new_err(e.to_string())
}

pub(super) fn policy(e: AgentPolicyError) -> PyErr {
    PolicyError::new_err(e.to_string())
}

pub(super) fn stakes(e: SettleError) -> PyErr {
    StakesError::new_err(e.to_string())
}

pub(super) fn request(e: RequestError) -> PyErr {
    match e {
        RequestError::Variant(e) => variant(e),
        e => ScoreRequestError::new_err(e.to_string()),
    }
}

/// An I/O error as the `OSError` subclass of its kind, with the message naming the file.
fn io(kind: std::io::ErrorKind, message: String) -> PyErr {
    PyErr::from(std::io::Error::new(kind, message))
}

pub(super) fn harness(e: HarnessError) -> PyErr {
    let message = e.to_string();
    match e {
        HarnessError::Usage(_) => UsageError::new_err(message),
        HarnessError::Variant(_) => VariantError::new_err(message),
        HarnessError::AgentName(_) => AgentError::new_err(message),
        HarnessError::Agent(_) | HarnessError::Unreplayable(_) => PolicyError::new_err(message),
        HarnessError::Stakes(_) => StakesError::new_err(message),
        HarnessError::Io { source, .. } => io(source.kind(), message),
        HarnessError::Corrupt { .. } => CorruptRunError::new_err(message),
        // Reading a part's Parquet failed: the file is damaged. Writing one failed: a bug.
        HarnessError::Parquet { action, .. } if action.starts_with("cannot read") => {
            CorruptRunError::new_err(message)
        }
        HarnessError::Parquet { .. } | HarnessError::Engine { .. } => EngineError::new_err(message),
        HarnessError::Threads { .. } => PyRuntimeError::new_err(message),
    }
}

pub(super) fn arena(e: ArenaError) -> PyErr {
    let message = e.to_string();
    match e {
        ArenaError::AgentName { .. } => AgentError::new_err(message),
        ArenaError::Agent { .. } => PolicyError::new_err(message),
        ArenaError::Variant(_) => VariantError::new_err(message),
        ArenaError::NoDeals | ArenaError::Threads(_) => UsageError::new_err(message),
        ArenaError::Pool { .. } => PyRuntimeError::new_err(message),
        ArenaError::Wall { .. } => EngineError::new_err(message),
    }
}

pub(super) fn env(e: EnvError) -> PyErr {
    let message = e.to_string();
    match e {
        // A call out of order: the environment's state, not an argument.
        EnvError::NeedsReset => PyRuntimeError::new_err(message),
        EnvError::IllegalAction { .. }
        | EnvError::DeadStepExpected { .. }
        | EnvError::ActionRequired { .. } => IllegalActionError::new_err(message),
        EnvError::AgentName(_) => AgentError::new_err(message),
        EnvError::Policy(_) | EnvError::ObsShape(_) => PolicyError::new_err(message),
        EnvError::Rules(_) => VariantError::new_err(message),
        EnvError::Reward(_) | EnvError::MaskLength(_) => UsageError::new_err(message),
    }
}
