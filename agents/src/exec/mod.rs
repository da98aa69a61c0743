//! `exec:COMMAND`: a player outside taisim, a program that speaks the JSON-lines protocol
//! ([`crate::protocol`], `docs/protocol.md`) on its standard input and output.
//!
//! One process serves every seat and deal its agents are given: the seats of one table that
//! name the same command share it (each message names its deal and seat), and a clone of an
//! agent shares its process too, so a batch of environments talks to one bot. A parallel
//! run gives each worker's table processes of its own ([`renew_bots`]), which is what keeps a
//! deterministic bot's run byte-identical on any thread count.
//!
//! A bot is reported, not trusted. The first fault (it cannot be started, exits, sends no
//! hello, does not answer within [`ExecSettings::decision_timeout`], sends something that is
//! not JSON, an answer that is not one of the legal actions, a line it was not asked for;
//! or the table is stopped from outside while it waits for the bot, [`ExecAgent::cancel_on`])
//! ends its process and is kept: [`Agent::fault`] then returns it, and until the caller
//! stops the agent answers every decision with the first legal action, so the caller's loop
//! finishes the deal without a panic and discards it.
//!
//! A bot runs in a process group of its own, which is killed when its last agent is dropped
//! and, in a program that calls [`end_bots_with_process`], when the program is ended by a
//! signal.

mod groups;
mod pipe;
mod session;

use core::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, Seat, View};

pub use groups::end_bots_with_process;
pub use pipe::{BotStderr, MAX_LINE};
use session::Session;

use crate::agent::Agent;
use crate::named::BuiltinAgent;

/// How the table runs a bot.
#[derive(Clone, Debug, PartialEq)]
pub struct ExecSettings {
    /// How long a bot may take over one decision (reading what it was sent and answering).
    pub decision_timeout: Duration,
    /// How long it may take to start and send its hello.
    pub start_timeout: Duration,
    pub stderr: BotStderr,
    /// The stakes (`base`, `per_tai`) of the payments its deals end with; the variant's when
    /// `None`.
    pub stakes: Option<(i64, i64)>,
    /// The SHA-256 of the variant file as the table's run records it, sent with each deal's
    /// start (`variant_sha256`), so that a bot that finds its rules by the variant's name can
    /// tell a file that keeps a shipped name from the shipped one; `None`: not sent.
    pub variant_sha256: Option<String>,
}

impl ExecSettings {
    /// The default per-decision timeout: generous for a program that searches, short enough
    /// that a hung bot is reported before anyone wonders.
    pub const DEFAULT_DECISION_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default start-up timeout (an interpreter importing a deep-learning library takes
    /// seconds).
    pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(60);

    /// The shortest per-decision timeout, in seconds: a millisecond. Less is no time to
    /// answer in, and a fault would report it as "0 s".
    pub const MIN_TIMEOUT_SECONDS: f64 = 0.001;
    /// The longest, in seconds: a day.
    pub const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

    /// `seconds` as a per-decision timeout, or why it cannot be one (the CLI's
    /// `--bot-timeout` and Python's `bot_timeout` alike).
    pub fn checked_timeout(seconds: f64) -> Result<ExecSettings, String> {
        if (Self::MIN_TIMEOUT_SECONDS..=Self::MAX_TIMEOUT_SECONDS).contains(&seconds) {
            Ok(ExecSettings::with_timeout(seconds))
        } else {
            Err(format!(
                "a bot timeout is {} to {} seconds; got {seconds}",
                Self::MIN_TIMEOUT_SECONDS,
                Self::MAX_TIMEOUT_SECONDS
            ))
        }
    }

    /// The defaults with a per-decision timeout of `seconds` (the start-up timeout is never
    /// shorter).
    pub fn with_timeout(seconds: f64) -> ExecSettings {
        let decision = Duration::from_secs_f64(seconds);
        ExecSettings {
            decision_timeout: decision,
            start_timeout: decision.max(Self::DEFAULT_START_TIMEOUT),
            ..ExecSettings::default()
        }
    }
}

impl Default for ExecSettings {
    fn default() -> ExecSettings {
        ExecSettings {
            decision_timeout: Self::DEFAULT_DECISION_TIMEOUT,
            start_timeout: Self::DEFAULT_START_TIMEOUT,
            stderr: BotStderr::Inherit,
            stakes: None,
            variant_sha256: None,
        }
    }
}

/// What went wrong with a bot.
#[derive(Clone, Debug, PartialEq)]
pub enum FaultKind {
    /// The process could not be started.
    Start(String),
    /// It exited (with this status, when known) or closed its output.
    Exited(Option<String>),
    /// Nothing came within the timeout.
    Timeout { seconds: f64, waiting_for: String },
    /// The hello was missing or wrong.
    Handshake(String),
    /// A line that is not JSON.
    NotJson(String),
    /// JSON that is not an answer.
    BadAnswer(String),
    /// An answer naming no legal action.
    Illegal(String),
    /// A line sent before the table asked for the decision: a second answer to an earlier
    /// request, or a line no request asked for.
    Unasked,
    /// A line still unread once the bot's input was closed at the end of its work: it
    /// answered no request, and every answer after it was taken for the next request's.
    LeftOver,
    /// The table stopped waiting for it, asked to from outside (Ctrl-C in Python:
    /// [`ExecAgent::cancel_on`]), and ended it.
    Cancelled { waiting_for: String },
    /// Reading or writing the pipes failed, or the agent was driven wrongly.
    Io(String),
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::Start(e) => write!(f, "cannot be started: {e}"),
            FaultKind::Exited(Some(status)) => write!(f, "exited ({status})"),
            FaultKind::Exited(None) => write!(f, "closed its output"),
            FaultKind::Timeout {
                seconds,
                waiting_for,
            } => write!(
                f,
                "sent nothing within {seconds} s while the table waited for {waiting_for} (does it flush its output after each line?)"
            ),
            FaultKind::Handshake(why) => write!(f, "failed the handshake: {why}"),
            FaultKind::NotJson(e) => write!(f, "sent a line that is not JSON ({e})"),
            FaultKind::BadAnswer(why) => write!(f, "sent something that is not an answer: {why}"),
            FaultKind::Illegal(why) => write!(f, "answered an action that is not legal: {why}"),
            FaultKind::Unasked => write!(
                f,
                "sent a line before it was asked for that decision (a bot answers each request once, and sends nothing else after its hello)"
            ),
            FaultKind::LeftOver => write!(
                f,
                "left a line unread when its work ended: one answer more than the requests it was sent (a second answer to a request, read as the next request's answer, puts every answer after it a decision out of step; echo each request's \"step\" in the answer to have it caught at once)"
            ),
            FaultKind::Cancelled { waiting_for } => write!(
                f,
                "was ended: the table was stopped (Ctrl-C) while it waited for {waiting_for}, so an answer still to come could not be told from the next one's; start the table again for a new process"
            ),
            FaultKind::Io(e) => write!(f, "{e}"),
        }
    }
}

/// A bot's fault, with where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct BotFault {
    /// `exec:COMMAND`.
    pub bot: String,
    /// The name it gave in its hello.
    pub name: Option<String>,
    /// The seat it was deciding for.
    pub seat: Option<Seat>,
    /// The deal's number in the bot's messages.
    pub deal: Option<u64>,
    /// The decision's step (counted from 1 in the deal).
    pub step: Option<u16>,
    /// The line it sent, when that line was the fault (at most 200 characters).
    pub sent: Option<String>,
    pub kind: FaultKind,
}

impl fmt::Display for BotFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bot {}", self.bot)?;
        if let Some(name) = &self.name {
            write!(f, " ({name:?})")?;
        }
        let mut at = Vec::new();
        if let Some(s) = self.seat {
            at.push(format!("seat {s}"));
        }
        if let Some(d) = self.deal {
            at.push(format!("its deal {d}"));
        }
        if let Some(s) = self.step {
            at.push(format!("decision {s}"));
        }
        if !at.is_empty() {
            write!(f, " at {}", at.join(", "))?;
        }
        write!(f, " {}", self.kind)?;
        if let Some(sent) = &self.sent {
            write!(f, "; it sent: {sent}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BotFault {}

/// One seat's handle on a bot process (see the module documentation).
pub struct ExecAgent {
    name: String,
    session: Arc<Mutex<Session>>,
    /// This handle's own number: the process tells apart the seats of different tables
    /// (a batch's environments) by it, since each has a seat E.
    id: u64,
}

/// Numbers for [`ExecAgent`] handles.
static HANDLES: AtomicU64 = AtomicU64::new(1);

impl Clone for ExecAgent {
    /// The same process, a handle of its own (a seat at another table).
    fn clone(&self) -> ExecAgent {
        ExecAgent {
            name: self.name.clone(),
            session: Arc::clone(&self.session),
            id: HANDLES.fetch_add(1, Ordering::Relaxed),
        }
    }
}

impl fmt::Debug for ExecAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExecAgent")
            .field("name", &self.name)
            .finish()
    }
}

impl ExecAgent {
    /// An agent for `command` (run through the shell) in deals of `variant`. The process is
    /// started when it is first needed.
    pub fn new(command: &str, variant: Arc<Variant>, settings: ExecSettings) -> ExecAgent {
        ExecAgent {
            name: format!("exec:{command}"),
            session: Arc::new(Mutex::new(Session::new(
                command.to_string(),
                variant,
                settings,
            ))),
            id: HANDLES.fetch_add(1, Ordering::Relaxed),
        }
    }

    fn session(&self) -> MutexGuard<'_, Session> {
        // Nothing panics while holding the lock; a poisoned lock still holds a valid session.
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The command it runs.
    pub fn command(&self) -> &str {
        &self.name["exec:".len()..]
    }

    /// Whether two agents talk to the same process.
    pub fn shares_process(&self, other: &ExecAgent) -> bool {
        Arc::ptr_eq(&self.session, &other.session)
    }

    /// Stops the table's waits for its process once `flag` is set (Ctrl-C in Python): the
    /// process is ended with [`FaultKind::Cancelled`] instead of being waited for up to its
    /// timeout. Every handle on the process is stopped by it.
    pub fn cancel_on(&mut self, flag: &Arc<AtomicBool>) {
        self.session().cancel_on(flag);
    }

    /// The first fault of its process, if any.
    pub fn fault(&self) -> Option<BotFault> {
        self.session().fault().cloned()
    }
}

impl Agent for ExecAgent {
    fn reset(&mut self, seed: u64, seat: Seat) {
        self.session().join(seed, seat, self.id);
    }

    /// An outside bot is told the deal event by event, which a view alone cannot give: it
    /// answers through [`Agent::act_in`] (every loop of taisim calls that). Called directly,
    /// it records a fault and answers the first legal action.
    fn act(&mut self, _view: &View<'_>, legal: &ActionList) -> Action {
        self.session().fail_unsupported();
        legal[0]
    }

    fn act_in(&mut self, deal: &Deal, seat: Seat, scratch: &mut ActionList) -> Action {
        deal.legal_actions(scratch);
        match self.session().act(deal, seat, scratch, self.id) {
            Some(i) => scratch[i],
            None => scratch[0],
        }
    }

    fn sees_steps(&self) -> bool {
        true
    }

    fn see(&mut self, deal: &Deal, action: Option<Action>) {
        self.session().see(deal, action, self.id);
    }

    fn fault(&self) -> Option<BotFault> {
        ExecAgent::fault(self)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// Gives the `exec:` agents among `agents` new processes of their own (started when first
/// needed): agents that shared a process share one new process, and `stderr` says where each
/// new process's standard error goes, given the indices in `agents` of the agents it serves.
/// A parallel run calls it for each worker's table; agents that are not `exec:` are left as
/// they are.
pub fn renew_bots(agents: &mut [BuiltinAgent], stderr: impl Fn(&[usize]) -> BotStderr) {
    let mut done = vec![false; agents.len()];
    for i in 0..agents.len() {
        if done[i] {
            continue;
        }
        let BuiltinAgent::Exec(first) = &agents[i] else {
            continue;
        };
        let first = first.clone();
        let group: Vec<usize> = (i..agents.len())
            .filter(|&j| matches!(&agents[j], BuiltinAgent::Exec(a) if a.shares_process(&first)))
            .collect();
        let session = {
            let old = first.session();
            let mut settings = old.settings.clone();
            settings.stderr = stderr(&group);
            old.renewed(settings)
        };
        let session = Arc::new(Mutex::new(session));
        for &j in &group {
            done[j] = true;
            if let BuiltinAgent::Exec(a) = &mut agents[j] {
                a.session = Arc::clone(&session);
            }
        }
    }
}

/// Ends the processes of the `exec:` agents among `agents`, each once however many seats it
/// serves, and returns the first fault of any: one found before, or a line a bot left unread
/// ([`FaultKind::LeftOver`]), which the deals it played cannot be trusted past. A run calls it
/// before it writes a part its bots played; what is dropped unclosed is ended unchecked.
pub fn close_bots<'a>(agents: impl IntoIterator<Item = &'a BuiltinAgent>) -> Option<BotFault> {
    let mut closed: Vec<&Arc<Mutex<Session>>> = Vec::new();
    let mut fault = None;
    for agent in agents {
        let BuiltinAgent::Exec(a) = agent else {
            continue;
        };
        if closed.iter().any(|s| Arc::ptr_eq(s, &a.session)) {
            continue;
        }
        closed.push(&a.session);
        // Nothing panics while holding the lock; a poisoned one still holds a valid session.
        let found = a
            .session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .close_checked();
        fault = fault.or(found);
    }
    fault
}

/// The first fault of any of `agents`' bots.
pub fn first_fault<A: Agent>(agents: &[A]) -> Option<BotFault> {
    agents.iter().find_map(Agent::fault)
}

/// The seats of `indices` as letters (`ESWN`), for naming a bot's files.
pub fn seat_letters(indices: &[usize]) -> String {
    indices
        .iter()
        .filter_map(|&i| taisim_sim::Wind::ALL.get(i))
        .map(|s| s.char())
        .collect()
}
