//! The one place the library's error kinds become Python exceptions, each a class users can
//! catch by kind (exported from `taisim`): bad input is a `ValueError` subclass, failed I/O an
//! `OSError` (the subclass for its kind: `FileNotFoundError`, `PermissionError`, …), a bug
//! in taisim `taisim.EngineError` and an outside player's failure `taisim.BotError` (both
//! `RuntimeError`s). A wrong argument type stays pyo3's `TypeError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use taisim_agents::{AgentParseError, BotFault, PolicyError as AgentPolicyError};
use taisim_datasets::{ArenaError, HarnessError};
use taisim_score::{RequestError, SettleError, VariantError as ScoreVariantError};

use crate::{EnvError, VecEnvError};

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
    ProtocolError,
    PyValueError,
    "A line of the bot protocol that cannot be followed: not JSON, not a message, or a deal that cannot be rebuilt from its messages."
);
create_exception!(
    taisim,
    BotError,
    PyRuntimeError,
    "An outside player (exec:) that failed: it exited, hung past its timeout, or answered what the protocol does not allow (its standard error is kept)."
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
    m.add("BotError", py.get_type::<BotError>())?;
    m.add("ProtocolError", py.get_type::<ProtocolError>())?;
    Ok(())
}

/// An error of an argument the call cannot use (numpy's refusal of an array's layout or a
/// second borrow of it included).
pub(super) fn usage(e: impl std::fmt::Display) -> PyErr {
    UsageError::new_err(e.to_string())
}

/// A call that reads an environment's deal before its first `reset()`, while the engine
/// holds a placeholder no one dealt.
pub(super) fn not_dealt() -> PyErr {
    usage("no deal yet: call reset() first")
}

/// A bug in taisim: what the library returned does not fit what it promised (an array of
/// another shape than its row count gives).
pub(super) fn bug(e: impl std::fmt::Display) -> PyErr {
    EngineError::new_err(e.to_string())
}

pub(super) fn variant(e: ScoreVariantError) -> PyErr {
    variant_kind(&e, e.to_string())
}

/// A variant error as its class, with `message` (which may name where it arose): an
/// `OSError` where the machine failed to read the file, else a `VariantError`.
fn variant_kind(e: &ScoreVariantError, message: String) -> PyErr {
    match e.io_kind().filter(|&kind| machine_failed(kind)) {
        Some(kind) => io(kind, message),
        None => VariantError::new_err(message),
    }
}

pub(super) fn agent(e: AgentParseError) -> PyErr {
    AgentError::new_err(e.to_string())
}

pub(super) fn policy(e: AgentPolicyError) -> PyErr {
    policy_kind(&e, e.to_string())
}

/// A policy error as its class, with `message` (which may name the side or seat it was
/// built for): an `OSError` where the machine failed to read the file (a missing file is
/// `FileNotFoundError`), else a `PolicyError`.
fn policy_kind(e: &AgentPolicyError, message: String) -> PyErr {
    match e {
        AgentPolicyError::Io { source, .. } if machine_failed(source.kind()) => {
            io(source.kind(), message)
        }
        _ => PolicyError::new_err(message),
    }
}

/// Whether an I/O error of `kind` is the machine's (a missing file, a refused permission, a
/// failed disk) rather than what is at the path being wrong: not a regular file, too large
/// (`InvalidInput`) or not text (`InvalidData`), which are bad input.
fn machine_failed(kind: std::io::ErrorKind) -> bool {
    !matches!(
        kind,
        std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData
    )
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
        HarnessError::Usage(_) | HarnessError::ThreadCount(_) => UsageError::new_err(message),
        HarnessError::Variant(e) => variant_kind(&e, message),
        HarnessError::AgentName(_) => AgentError::new_err(message),
        HarnessError::Agent(e) | HarnessError::Unreplayable(e) => policy_kind(&e, message),
        HarnessError::Stakes(_) => StakesError::new_err(message),
        HarnessError::Io { source, .. } => io(source.kind(), message),
        HarnessError::Corrupt { .. } => CorruptRunError::new_err(message),
        // Reading a part's Parquet failed: the file is damaged. Writing one failed: a bug.
        HarnessError::Parquet { action, .. } if action.starts_with("cannot read") => {
            CorruptRunError::new_err(message)
        }
        HarnessError::Parquet { .. } | HarnessError::Engine { .. } => EngineError::new_err(message),
        HarnessError::Bot { .. } => BotError::new_err(message),
        HarnessError::Threads { .. } => PyRuntimeError::new_err(message),
        HarnessError::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(message),
    }
}

pub(super) fn arena(e: ArenaError) -> PyErr {
    let message = e.to_string();
    match e {
        ArenaError::AgentName { .. } => AgentError::new_err(message),
        ArenaError::Agent { source, .. } => policy_kind(&source, message),
        ArenaError::Variant(e) => variant_kind(&e, message),
        ArenaError::NoDeals | ArenaError::Threads(_) => UsageError::new_err(message),
        ArenaError::Pool { .. } => PyRuntimeError::new_err(message),
        ArenaError::Wall { .. } => EngineError::new_err(message),
        ArenaError::Bot { .. } => BotError::new_err(message),
        ArenaError::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(message),
    }
}

/// An outside player's fault.
pub(super) fn bot(fault: Box<BotFault>) -> PyErr {
    BotError::new_err(fault.to_string())
}

/// An outside player's fault in environment `i` of a batch.
pub(super) fn bot_in(i: usize, fault: BotFault) -> PyErr {
    BotError::new_err(format!("environment {i}: {fault}"))
}

/// `taisim.ResetNeeded`: a `UsageError` as the other calls that need a deal raise, and a
/// `RuntimeError` as a step before a reset was first raised. A class of two bases is defined
/// in Python (`taisim/_seed.py`); a plain `RuntimeError` only if that module cannot load.
fn reset_needed(message: String) -> PyErr {
    Python::with_gil(|py| {
        let class = py
            .import("taisim._seed")
            .and_then(|m| m.getattr("ResetNeeded"))
            .and_then(|c| Ok(c.downcast_into::<pyo3::types::PyType>()?));
        match class {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

/// A batch's error, named by its environment, as the class of its kind.
pub(super) fn vec_env(e: VecEnvError) -> PyErr {
    let message = e.to_string();
    env_kind(e.source, message)
}

pub(super) fn env(e: EnvError) -> PyErr {
    let message = e.to_string();
    env_kind(e, message)
}

fn env_kind(e: EnvError, message: String) -> PyErr {
    match e {
        // A call out of order: the environment's state, not an argument.
        EnvError::NeedsReset => reset_needed(message),
        EnvError::IllegalAction { .. }
        | EnvError::DeadStepExpected { .. }
        | EnvError::ActionRequired { .. } => IllegalActionError::new_err(message),
        EnvError::AgentName(_) => AgentError::new_err(message),
        EnvError::Policy(e) => policy_kind(&e, message),
        EnvError::ObsShape(_) => PolicyError::new_err(message),
        EnvError::Rules(_) => VariantError::new_err(message),
        EnvError::Reward(_) | EnvError::MaskLength(_) | EnvError::Streams { .. } => {
            UsageError::new_err(message)
        }
        EnvError::Bot(_) => BotError::new_err(message),
        // Only Ctrl-C sets an environment's cancel flag from Python.
        EnvError::Cancelled => pyo3::exceptions::PyKeyboardInterrupt::new_err(message),
    }
}
