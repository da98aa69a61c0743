//! The JSON-lines protocol taisim speaks with players outside it (`exec:COMMAND`), and the
//! vocabulary of its deal logs (`taisim replay --json`). `docs/protocol.md` is the
//! reference: one JSON object per line; the table tells a seat the deal as that seat sees it
//! ([`Event::seen_by`]), asks for a decision with the legal actions numbered, and reads back
//! one of the numbers.
//!
//! A deal log is the same events with every seat's view merged (the omniscient view: every
//! drawn tile named, every hand at the start) and each seat's decisions between them. The
//! [narrator](step_events) works the events out from the deal before and after each
//! decision, so one function tells bots, writes logs and checks them.

mod event;
pub(crate) mod json;
mod mirror;
mod narrate;
mod table;

pub use event::{
    action_json, read_action, write_request, End, Event, Message, PatternLine, Start, WinLine,
    PROTOCOL_VERSION,
};
pub use json::ReadError;
pub use mirror::{Mirror, MirrorError};
pub use narrate::{bot_seed, end_event, end_event_scored, start_event, step_events};
pub use table::{Inconsistent, SeenDiscard, SeenMeld, TableState};
