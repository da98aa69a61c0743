//! What can stop a run, split by who must act: the user (bad arguments, exit status 2) or
//! the machine (I/O, exit status 1).

use std::path::{Path, PathBuf};

/// A run that could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// Bad arguments or an output directory that cannot be used as asked: nothing was
    /// written.
    #[error("{0}")]
    Usage(String),
    /// Reading or writing a file failed. Parts already complete stay intact.
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Encoding or decoding Parquet failed.
    #[error("{action} {}: {message}", path.display())]
    Parquet {
        action: &'static str,
        path: PathBuf,
        message: String,
    },
    /// A run directory whose files do not agree with its manifest.
    #[error("{}: {message}", path.display())]
    Corrupt { path: PathBuf, message: String },
    /// The machine refused a resource (worker threads) the run needs.
    #[error("{0}")]
    System(String),
    /// An outside player (`exec:`) failed during a deal: the deal is not written, and the
    /// parts already complete stay intact, so `--resume` finishes the run once the bot is
    /// fixed. Its standard error is kept in the run's `bots/` directory.
    #[error("deal {deal_id} (seed {seed}): {fault}")]
    Bot {
        deal_id: u64,
        seed: u64,
        fault: Box<taisim_agents::BotFault>,
    },
    /// The engine or scoring rejected a deal it produced itself: a bug, reported with the
    /// deal so it can be replayed.
    #[error("deal {deal_id} (seed {seed}): {message}")]
    Engine {
        deal_id: u64,
        seed: u64,
        message: String,
    },
}

impl HarnessError {
    /// The process exit status the command line uses: 2 for the user's mistakes, 1 for
    /// everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            HarnessError::Usage(_) => 2,
            _ => 1,
        }
    }

    pub(crate) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| {
            // `taisim_score::file` refuses a path that is not a regular file, or is larger
            // than its kind may be, as `InvalidInput`: what is at the path is wrong, not the
            // machine.
            if source.kind() == std::io::ErrorKind::InvalidInput {
                return HarnessError::Usage(format!("{action} {}: {source}", path.display()));
            }
            HarnessError::Io {
                action,
                path,
                source,
            }
        }
    }

    pub(crate) fn parquet<E: std::fmt::Display>(
        action: &'static str,
        path: &Path,
    ) -> impl FnOnce(E) -> Self {
        let path = path.to_path_buf();
        move |e| HarnessError::Parquet {
            action,
            path,
            message: e.to_string(),
        }
    }
}
