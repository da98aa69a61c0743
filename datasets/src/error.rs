//! What can stop a run, a replay, a report, a load or an arena, one kind per cause, each
//! keeping the error underneath as its source: the user's (a bad argument, a variant or agent
//! that cannot be used, a directory that cannot take the run), the machine's (I/O, threads),
//! a damaged run directory's, or taisim's own (an engine error, with the deal to replay). The
//! command line maps the kinds to exit codes and the Python package to exception classes,
//! each in one place.

use std::path::{Path, PathBuf};

use taisim_agents::{AgentParseError, PolicyError};
use taisim_score::{ScoreError, SettleError, VariantError};
use taisim_sim::{RulesError, Seat};

use crate::pool::ThreadCountError;
use crate::table::QuantizeError;

/// A command of the harness that could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// Bad arguments, or an output directory that cannot be used as asked: nothing was
    /// written.
    #[error("{0}")]
    Usage(String),
    /// The variant asked for cannot be used: unknown, unreadable, or refused by its checks
    /// (the file, key and line are named).
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// An agent name that names no agent.
    #[error(transparent)]
    AgentName(#[from] AgentParseError),
    /// An agent that cannot be built: a policy file missing, unreadable or refused.
    #[error(transparent)]
    Agent(#[from] PolicyError),
    /// A run without an action log whose agents cannot be built again to replay a deal.
    #[error(
        "the run has no action log and its agents cannot be rebuilt to play the deal again: {0}"
    )]
    Unreplayable(#[source] PolicyError),
    /// Stakes the variant's settlement cannot pay exactly.
    #[error(transparent)]
    Stakes(#[from] SettleError),
    /// A thread count outside 1 to [`MAX_THREADS`](crate::MAX_THREADS).
    #[error(transparent)]
    ThreadCount(#[from] ThreadCountError),
    /// Reading or writing a file failed. Parts already complete stay intact.
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Encoding or decoding Parquet (or its Arrow columns) failed.
    #[error("{action} {}: {source}", path.display())]
    Parquet {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A run directory whose files do not agree with its manifest or their schema.
    #[error("{}: {message}", path.display())]
    Corrupt { path: PathBuf, message: String },
    /// The machine refused the worker threads a command needs.
    #[error("cannot start {threads} worker threads: {source}")]
    Threads {
        threads: usize,
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// The run was stopped from outside ([`RunOptions::cancel`](crate::RunOptions::cancel)):
    /// the parts complete so far are recorded, and `resume` finishes the run.
    #[error("interrupted: the parts complete so far are kept; resume the run to finish it")]
    Interrupted,
    /// An outside player (`exec:`) failed during a deal: the deal is not written, and the
    /// parts already complete stay intact, so `--resume` finishes the run once the bot is
    /// fixed. Its standard error is kept in the run's `bots/` directory.
    #[error("deal {deal_id} (seed {seed}): {fault}")]
    Bot {
        deal_id: u64,
        seed: u64,
        #[source]
        fault: Box<taisim_agents::BotFault>,
    },
    /// The engine or scoring rejected a deal it produced itself: a bug, reported with the
    /// deal so it can be replayed.
    #[error("deal {deal_id} (seed {seed}): {source}")]
    Engine {
        deal_id: u64,
        seed: u64,
        #[source]
        source: EngineError,
    },
}

/// What went wrong inside one deal ([`HarnessError::Engine`]): never the user's doing.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The deal could not be dealt under the run's rules.
    #[error(transparent)]
    Deal(#[from] RulesError),
    /// Scoring or settling the finished deal failed.
    #[error("scoring the deal: {0}")]
    Score(#[from] ScoreError),
    /// A seat the deal names a winner holds no winning hand.
    #[error("seat {0} won but has no winning hand")]
    NoWinningHand(Seat),
    /// The deal's payments do not sum to zero.
    #[error("payments sum to {0}, not zero")]
    NotConserved(i64),
    /// A decision the engine refused while a deal was told again.
    #[error("decision {step}: {source}")]
    Illegal {
        step: u32,
        #[source]
        source: taisim_sim::IllegalAction,
    },
    /// An observation the decisions table cannot store.
    #[error(transparent)]
    Observation(#[from] QuantizeError),
}

impl HarnessError {
    /// An engine error in deal `deal_id`, seeded `seed`.
    pub fn engine(deal_id: u64, seed: u64) -> impl Fn(EngineError) -> HarnessError {
        move |source| HarnessError::Engine {
            deal_id,
            seed,
            source,
        }
    }

    pub(crate) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| {
            // `taisim_score::file` refuses a path that is not a regular file, or is larger
            // than its kind may be, as `InvalidInput`: what is at the path is wrong, not the
            // machine. So is a file where the path needs a directory (`NotADirectory`).
            if matches!(
                source.kind(),
                std::io::ErrorKind::InvalidInput | std::io::ErrorKind::NotADirectory
            ) {
                return HarnessError::Usage(format!("{action} {}: {source}", path.display()));
            }
            HarnessError::Io {
                action,
                path,
                source,
            }
        }
    }

    pub(crate) fn parquet<E: std::error::Error + Send + Sync + 'static>(
        action: &'static str,
        path: &Path,
    ) -> impl FnOnce(E) -> Self {
        let path = path.to_path_buf();
        move |e| HarnessError::Parquet {
            action,
            path,
            source: Box::new(e),
        }
    }
}
