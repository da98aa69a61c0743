//! Why a command failed, and the exit status that says so: the one place where the error
//! kinds of the libraries and of the command line become exit codes. 2: the user must act
//! (a bad argument, a file that is not what it should be); 1: the machine failed (a full
//! disk, a thread that would not start) or taisim did (an engine error, reported with the
//! deal to replay).

use taisim_agents::{AgentParseError, BotFault, PolicyError};
use taisim_datasets::{ArenaError, CompareError, EngineError, HarnessError, LogError};
use taisim_score::{RequestError, VariantError};
use taisim_sim::ParseError;

/// A failed command: what went wrong, kept as its kind.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// What the command line asks cannot be done as given: flags that do not go together,
    /// input given twice. Nothing was read or written.
    #[error("{0}")]
    Usage(String),
    /// A flag's value met an error: `--candidate: unknown agent "x"; …`.
    #[error("{flag}: {source}")]
    Flag {
        flag: String,
        #[source]
        source: Box<CliError>,
    },
    #[error(transparent)]
    Harness(#[from] HarnessError),
    #[error(transparent)]
    Arena(#[from] ArenaError),
    #[error(transparent)]
    Compare(#[from] CompareError),
    #[error(transparent)]
    Request(#[from] RequestError),
    #[error(transparent)]
    Variant(#[from] VariantError),
    #[error(transparent)]
    Agent(#[from] AgentParseError),
    #[error(transparent)]
    Policy(#[from] PolicyError),
    /// Tiles or flowers given on the command line that do not parse.
    #[error(transparent)]
    Tiles(#[from] ParseError),
    /// Standard input could not be read, or is not what the command reads.
    #[error("{0}")]
    Input(String),
    /// Reading or writing a stream failed (not standard output, which `output` watches).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A deal log that does not check out (or cannot be read).
    #[error(transparent)]
    Log(#[from] LogError),
    /// An outside player (`exec:`) failed.
    #[error(transparent)]
    Bot(#[from] Box<BotFault>),
    /// A table and the events it was told disagree (`taisim play`): a bug. (What the other
    /// end of the protocol sends `taisim bot` is its input.)
    #[error("{0}")]
    Protocol(String),
    /// A deal the engine or the scorer rejected although taisim produced it: a bug.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// A message for the user about what they asked: a usage error (exit 2).
impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::Usage(message)
    }
}

impl CliError {
    /// `source` as the error of flag `flag`.
    pub fn flag(flag: impl Into<String>) -> impl FnOnce(CliError) -> CliError {
        let flag = flag.into();
        move |source| CliError::Flag {
            flag,
            source: Box::new(source),
        }
    }

    /// The exit status: 2 for what the user must fix, 1 for the rest.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_)
            | CliError::Request(_)
            | CliError::Variant(_)
            | CliError::Agent(_)
            | CliError::Policy(_)
            | CliError::Tiles(_)
            | CliError::Input(_) => 2,
            CliError::Flag { source, .. } => source.exit_code(),
            CliError::Harness(e) => harness_code(e),
            CliError::Compare(e) => match e {
                CompareError::Run(e) => harness_code(e),
                CompareError::DifferentWalls { .. } => 2,
            },
            CliError::Arena(e) => match e {
                ArenaError::AgentName { .. }
                | ArenaError::Agent { .. }
                | ArenaError::Variant(_)
                | ArenaError::NoDeals
                | ArenaError::Threads(_) => 2,
                ArenaError::Pool { .. }
                | ArenaError::Bot { .. }
                | ArenaError::Wall { .. }
                | ArenaError::Interrupted => 1,
            },
            CliError::Log(e) => e.exit_code(),
            CliError::Io(_) | CliError::Bot(_) | CliError::Protocol(_) | CliError::Engine(_) => 1,
        }
    }
}

/// The exit status of a harness error: 2 for what the user must fix, 1 for the rest.
fn harness_code(e: &HarnessError) -> u8 {
    match e {
        HarnessError::Usage(_)
        | HarnessError::Variant(_)
        | HarnessError::AgentName(_)
        | HarnessError::Agent(_)
        | HarnessError::Unreplayable(_)
        | HarnessError::Stakes(_)
        | HarnessError::ThreadCount(_) => 2,
        HarnessError::Io { .. }
        | HarnessError::Parquet { .. }
        | HarnessError::Corrupt { .. }
        | HarnessError::Threads { .. }
        | HarnessError::Bot { .. }
        | HarnessError::Engine { .. }
        // Ctrl-C or SIGTERM during `simulate` (src/interrupt.rs).
        | HarnessError::Interrupted => 1,
    }
}

/// Why a command failed, and what the user may do next.
#[derive(Debug)]
pub struct Failure {
    /// Boxed: commands return it in their `Result`, which stays small.
    pub error: Box<CliError>,
    /// Printed after the message.
    pub advice: Option<String>,
}

impl Failure {
    pub fn exit_code(&self) -> u8 {
        self.error.exit_code()
    }
}

impl<E: Into<CliError>> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure {
            error: Box::new(e.into()),
            advice: None,
        }
    }
}
