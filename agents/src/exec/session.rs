//! One bot process speaking the protocol: the handshake, the deals it serves (each seat's
//! view of each, told as the deal goes), the decisions it is asked for, and the first fault,
//! which ends it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use serde_json::Value;
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, Seat, SeatSet};

use super::pipe::{Pipe, PipeError};
use super::{BotFault, ExecSettings, FaultKind};
use crate::protocol::json::Obj;
use crate::protocol::{
    end_event, start_event, step_events, write_request, Event, Message, PROTOCOL_VERSION,
};

/// The most deals one process has open at once before the oldest is given up as abandoned
/// (a caller that never finished them): bounds the table's memory, not a bot's.
const MAX_OPEN_DEALS: usize = 4096;

/// A deal this process serves one or more seats of.
struct OpenDeal {
    seed: u64,
    /// Its number for the bot (`"deal"`): 1, 2, … in the order the process met them.
    number: u64,
    seats: SeatSet,
    /// The agent handles playing it, with their seats (one a seat).
    members: ArrayVec<(u64, Seat), 4>,
    started: bool,
    /// The deal before the action about to be played, and that action: told once the
    /// action's effects are known (at the next call).
    pending: Option<(Box<Deal>, Action)>,
}

enum State {
    NotStarted,
    Running(Pipe),
    Failed(Box<BotFault>),
}

pub(crate) struct Session {
    pub(super) command: String,
    pub(super) settings: ExecSettings,
    variant: Arc<Variant>,
    state: State,
    /// The name the bot gave in its hello.
    name: Option<String>,
    deals: Vec<OpenDeal>,
    next_deal: u64,
    /// Lines waiting to be sent (events are sent with the next request, or at a deal's end).
    out: String,
    events: Vec<Event>,
    /// Set from outside to stop a wait for the bot ([`Session::cancel_on`]).
    cancel: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("command", &self.command)
            .field("name", &self.name)
            .field("open_deals", &self.deals.len())
            .finish()
    }
}

impl Drop for Session {
    /// Ends the bot as a close does; what it left unread is no one's to report any more.
    fn drop(&mut self) {
        let _ = self.close_checked();
    }
}

impl Session {
    pub fn new(command: String, variant: Arc<Variant>, settings: ExecSettings) -> Session {
        Session {
            command,
            settings,
            variant,
            state: State::NotStarted,
            name: None,
            deals: Vec::new(),
            next_deal: 1,
            out: String::with_capacity(4096),
            events: Vec::with_capacity(16),
            cancel: None,
        }
    }

    /// A session for the same bot with other settings, not started, stopped by the same
    /// cancel flag as this one.
    pub fn renewed(&self, settings: ExecSettings) -> Session {
        let mut s = Session::new(self.command.clone(), self.variant(), settings);
        s.cancel = self.cancel.clone();
        s
    }

    /// Once `flag` is set, a wait for the bot (its hello, an answer, room in its input)
    /// stops, and the bot is ended with [`FaultKind::Cancelled`]: what it would have
    /// answered can no longer be told from the next answer.
    pub fn cancel_on(&mut self, flag: &Arc<AtomicBool>) {
        self.cancel = Some(Arc::clone(flag));
        if let State::Running(pipe) = &mut self.state {
            pipe.cancel_on(self.cancel.clone());
        }
    }

    pub fn variant(&self) -> Arc<Variant> {
        Arc::clone(&self.variant)
    }

    /// Records that the agent was asked through `Agent::act`, which cannot tell it the deal.
    pub fn fail_unsupported(&mut self) {
        if self.fault().is_none() {
            self.fail(None, None, None, None, FaultKind::Io(
                "an exec: agent answers through Agent::act_in, which tells it the deal; Agent::act was called".into(),
            ));
        }
    }

    /// Ends the bot (its queued lines sent, its input closed, waited for briefly, then its
    /// process group killed) and returns its fault: one found before, or a line it left
    /// unread. Every line it wrote before it ended is still in the pipe, and each line
    /// after its hello answers one request, so a line left over answered none: a second
    /// answer that was read as the next request's, and every answer after it was a decision
    /// out of step. A bot that keeps to the protocol leaves nothing. The session can be
    /// started again after.
    pub fn close_checked(&mut self) -> Option<BotFault> {
        if let State::Running(pipe) = &mut self.state {
            // Whatever is still queued (a deal's end) is sent, briefly: the bot may want it.
            if !self.out.is_empty() {
                let _ = pipe.send(
                    self.out.as_bytes(),
                    Instant::now() + Duration::from_millis(500),
                );
                self.out.clear();
            }
            pipe.close(Duration::from_secs(2));
            match pipe.unread() {
                Some(line) => {
                    let line = line.to_vec();
                    let deal = self.deals.last().map(|d| d.number);
                    self.fail(None, deal, None, Some(&line), FaultKind::LeftOver);
                }
                None => {
                    self.state = State::NotStarted;
                    self.deals.clear();
                }
            }
        }
        self.fault().cloned()
    }

    pub fn label(&self) -> String {
        format!("exec:{}", self.command)
    }

    pub fn fault(&self) -> Option<&BotFault> {
        match &self.state {
            State::Failed(f) => Some(f),
            _ => None,
        }
    }

    fn fail(
        &mut self,
        seat: Option<Seat>,
        deal: Option<u64>,
        step: Option<u16>,
        sent: Option<&[u8]>,
        kind: FaultKind,
    ) {
        if let State::Running(pipe) = &mut self.state {
            pipe.kill();
        }
        self.out.clear();
        self.state = State::Failed(Box::new(BotFault {
            bot: self.label(),
            name: self.name.clone(),
            seat,
            deal,
            step,
            sent: sent.map(shown),
            kind,
        }));
    }

    /// Agent handle `handle` takes seat `seat` in the deal seeded `seed` on this process.
    pub fn join(&mut self, seed: u64, seat: Seat, handle: u64) {
        if self.fault().is_some() {
            return;
        }
        // The handle leaves a deal it was in that never ended (its caller reset mid-deal, or
        // dealt the same seed again): that deal cannot go on, and the bot is told to forget
        // it, seat by seat.
        if let Some(i) = self.deal_of(handle) {
            let d = self.deals.remove(i);
            if d.started {
                for (_, s) in &d.members {
                    let mut o = Obj::new(&mut self.out);
                    o.str("type", "abort").num("deal", d.number).name("seat", s);
                    o.end();
                    self.out.push('\n');
                }
            }
        }
        match self
            .deals
            .iter_mut()
            .find(|d| d.seed == seed && !d.started && !d.seats.contains(seat))
        {
            Some(d) => {
                d.seats.insert(seat);
                d.members.push((handle, seat));
            }
            None => {
                if self.deals.len() >= MAX_OPEN_DEALS {
                    self.deals.remove(0);
                }
                self.deals.push(OpenDeal {
                    seed,
                    number: self.next_deal,
                    seats: SeatSet::single(seat),
                    members: [(handle, seat)].into_iter().collect(),
                    started: false,
                    pending: None,
                });
                self.next_deal += 1;
            }
        }
    }

    /// The open deal agent handle `handle` plays in.
    fn deal_of(&self, handle: u64) -> Option<usize> {
        self.deals
            .iter()
            .position(|d| d.members.iter().any(|&(h, _)| h == handle))
    }

    /// `action` is about to be played on `deal` (`None`: the deal is over).
    pub fn see(&mut self, deal: &Deal, action: Option<Action>, handle: u64) {
        if self.fault().is_some() {
            return;
        }
        let Some(i) = self
            .deal_of(handle)
            .filter(|&i| self.deals[i].seed == deal.seed())
        else {
            return;
        };
        if let (Some((before, _)), Some(_)) = (&self.deals[i].pending, action) {
            if before.steps() == deal.steps() {
                return; // another seat of this process already saw this step
            }
        }
        self.tell(i, deal);
        match action {
            Some(a) => {
                if let Some(d) = self.deals.get_mut(i) {
                    d.pending = Some((Box::new(deal.clone()), a));
                }
            }
            None => {
                if deal.is_over() && !self.out.is_empty() {
                    let deadline = Instant::now() + self.settings.decision_timeout;
                    let _ = self.flush(None, None, None, deadline);
                }
            }
        }
    }

    /// Queues, for every seat this process serves in open deal `i`, what it has not yet been
    /// told of `deal`: the start, the effects of the pending action, the end (which closes
    /// the deal).
    fn tell(&mut self, i: usize, deal: &Deal) {
        let d = &mut self.deals[i];
        self.events.clear();
        if !d.started {
            d.started = true;
            self.events.push(start_event(
                deal,
                self.variant.name(),
                self.settings.variant_sha256.as_deref(),
                None,
            ));
        }
        if let Some((before, action)) = d.pending.take() {
            if before.steps() < deal.steps() {
                step_events(&before, action, deal, &mut self.events);
            }
        }
        let over = deal.is_over();
        if over {
            let (base, per_tai) = self.settings.stakes.unwrap_or((
                self.variant.settlement().base,
                self.variant.settlement().per_tai,
            ));
            // Scoring a deal the engine produced cannot fail for the variant that ruled it
            // (tested over every variant); were it to, the bot is told no end rather than a
            // wrong one.
            if let Ok(e) = end_event(deal, &self.variant, base, per_tai) {
                self.events.push(e);
            }
        }
        let number = d.number;
        let seats = d.seats;
        for e in &self.events {
            for s in seats.iter() {
                if let Some(seen) = e.seen_by(s) {
                    Message {
                        deal: number,
                        seat: Some(s),
                        event: seen,
                    }
                    .write_json(&mut self.out);
                    self.out.push('\n');
                }
            }
        }
        if over {
            self.deals.remove(i);
        }
    }

    /// Starts the bot and exchanges hellos, if not done yet.
    fn ensure_running(&mut self) -> bool {
        match self.state {
            State::Running(_) => return true,
            State::Failed(_) => return false,
            State::NotStarted => {}
        }
        let mut pipe = match Pipe::spawn(&self.command, &self.settings.stderr) {
            Ok(p) => p,
            Err(e) => {
                self.fail(None, None, None, None, FaultKind::Start(e.to_string()));
                return false;
            }
        };
        pipe.cancel_on(self.cancel.clone());
        let mut hello = String::new();
        let mut o = Obj::new(&mut hello);
        o.str("type", "hello")
            .num("protocol", PROTOCOL_VERSION)
            .str("table", "taisim")
            .str("version", env!("CARGO_PKG_VERSION"))
            .str("variant", self.variant.name());
        o.end();
        hello.push('\n');
        let deadline = Instant::now() + self.settings.start_timeout;
        let answer = pipe
            .send(hello.as_bytes(), deadline)
            .and_then(|()| next_line(&mut pipe, deadline).map(<[u8]>::to_vec));
        self.state = State::Running(pipe);
        let line = match answer {
            Ok(line) => line,
            Err(e) => {
                let kind = self.pipe_fault(e, "its hello", self.settings.start_timeout);
                self.fail(None, None, None, None, kind);
                return false;
            }
        };
        match read_hello(&line) {
            Ok(name) => {
                self.name = Some(name);
                true
            }
            Err(why) => {
                self.fail(None, None, None, Some(&line), FaultKind::Handshake(why));
                false
            }
        }
    }

    fn pipe_fault(&mut self, e: PipeError, waiting_for: &str, timeout: Duration) -> FaultKind {
        match e {
            PipeError::Timeout => FaultKind::Timeout {
                seconds: timeout.as_secs_f64(),
                waiting_for: waiting_for.to_string(),
            },
            PipeError::TooLong => FaultKind::BadAnswer(format!(
                "a line longer than {} bytes",
                super::pipe::MAX_LINE
            )),
            PipeError::Closed => {
                let status = match &mut self.state {
                    State::Running(p) => p.exit_status(Duration::from_millis(500)),
                    _ => None,
                };
                FaultKind::Exited(status.map(exit_said))
            }
            PipeError::Cancelled => FaultKind::Cancelled {
                waiting_for: waiting_for.to_string(),
            },
            PipeError::Io(e) => FaultKind::Io(e.to_string()),
        }
    }

    /// Sends what is queued.
    fn flush(
        &mut self,
        seat: Option<Seat>,
        deal: Option<u64>,
        step: Option<u16>,
        deadline: Instant,
    ) -> bool {
        if !self.ensure_running() {
            return false;
        }
        let State::Running(pipe) = &mut self.state else {
            return false;
        };
        let sent = pipe.send(self.out.as_bytes(), deadline);
        self.out.clear();
        if let Err(e) = sent {
            let kind = self.pipe_fault(
                e,
                "it to read what the table sent",
                self.settings.decision_timeout,
            );
            self.fail(seat, deal, step, None, kind);
            return false;
        }
        true
    }

    /// Asks the bot for `seat`'s decision in `deal`, whose legal actions are `legal`: the
    /// index of its answer in `legal`, or `None` after a fault.
    pub fn act(
        &mut self,
        deal: &Deal,
        seat: Seat,
        legal: &ActionList,
        handle: u64,
    ) -> Option<usize> {
        if self.fault().is_some() {
            return None;
        }
        let Some(i) = self.deal_of(handle).filter(|&i| {
            let d = &self.deals[i];
            d.seed == deal.seed() && d.members.contains(&(handle, seat))
        }) else {
            self.fail(
                Some(seat),
                None,
                None,
                None,
                FaultKind::Io(
                    "asked to decide in a deal it was not reset for (Agent::reset must come first)"
                        .into(),
                ),
            );
            return None;
        };
        self.tell(i, deal);
        let number = self.deals.get(i).map(|d| d.number);
        let step = deal.steps() + 1;
        if !self.ensure_running() {
            return None;
        }
        // Any line waiting now was sent before this request was written, so it answers no
        // request: a second answer to the last one, or a line never asked for. Taken as this
        // request's answer, it would put every later answer a decision out of step. A line
        // that arrives after the request is written cannot be told from the answer, so a
        // second answer sent a little late is caught at the bot's next request instead: the
        // first moment it is certainly unasked. The look does not wait, so a bot that keeps
        // to the protocol loses no time to it.
        if let State::Running(pipe) = &mut self.state {
            if let Some(line) = pipe.unread() {
                let line = line.to_vec();
                self.fail(
                    Some(seat),
                    number,
                    Some(step),
                    Some(&line),
                    FaultKind::Unasked,
                );
                return None;
            }
        }
        write_request(&mut self.out, number.unwrap_or(0), deal, seat, legal);
        self.out.push('\n');
        let deadline = Instant::now() + self.settings.decision_timeout;
        if !self.flush(Some(seat), number, Some(step), deadline) {
            return None;
        }
        let State::Running(pipe) = &mut self.state else {
            return None;
        };
        let line = match next_line(pipe, deadline) {
            Ok(line) => line.to_vec(),
            Err(e) => {
                let kind = self.pipe_fault(e, "its answer", self.settings.decision_timeout);
                self.fail(Some(seat), number, Some(step), None, kind);
                return None;
            }
        };
        match read_answer(&line, number.unwrap_or(0), seat, step, legal.len()) {
            Ok(id) => Some(id),
            Err(kind) => {
                self.fail(Some(seat), number, Some(step), Some(&line), kind);
                None
            }
        }
    }
}

/// A bot's exit status as a fault says it: with what the shell's own codes for a command
/// it could not run mean (POSIX 2.8.2), since the shell's message went to the bot's standard
/// error, which may be a file.
fn exit_said(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(127) if cfg!(unix) => format!("{status}: the shell found no such command"),
        Some(126) if cfg!(unix) => {
            format!(
                "{status}: the shell found the command but could not run it (is it executable?)"
            )
        }
        _ => status.to_string(),
    }
}

/// The next line that is not blank.
fn next_line(pipe: &mut Pipe, deadline: Instant) -> Result<&[u8], PipeError> {
    pipe.read_line(deadline)
}

/// What a bot sent, as a fault quotes it: at most 200 characters.
fn shown(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let mut s: String = text.chars().take(200).collect();
    if text.chars().nth(200).is_some() {
        s.push('…');
    }
    s
}

fn read_hello(line: &[u8]) -> Result<String, String> {
    let v: Value =
        serde_json::from_slice(line).map_err(|e| format!("its hello is not JSON ({e})"))?;
    let o = v.as_object().ok_or("its hello is not a JSON object")?;
    if o.get("type").and_then(Value::as_str) != Some("hello") {
        return Err("the first line a bot sends must be its hello: {\"type\": \"hello\", \"protocol\": 1, \"name\": …}".into());
    }
    match o.get("protocol").and_then(Value::as_u64) {
        Some(v) if v == PROTOCOL_VERSION as u64 => {}
        Some(v) => {
            return Err(format!(
                "it speaks protocol {v}; this taisim speaks protocol {PROTOCOL_VERSION}"
            ))
        }
        None => return Err("its hello has no \"protocol\" version number".into()),
    }
    match o.get("name").and_then(Value::as_str) {
        Some(n) if !n.trim().is_empty() => Ok(n.chars().take(100).collect()),
        _ => Err("its hello does not name the bot (\"name\": a non-empty string)".into()),
    }
}

/// Reads an answer to decision `step`: `{"id": N}`, with `"deal"`, `"seat"` and `"step"`
/// checked when given.
fn read_answer(
    line: &[u8],
    deal: u64,
    seat: Seat,
    step: u16,
    legal: usize,
) -> Result<usize, FaultKind> {
    let v: Value = serde_json::from_slice(line).map_err(|e| FaultKind::NotJson(e.to_string()))?;
    let o = v.as_object().ok_or_else(|| {
        FaultKind::BadAnswer("an answer is a JSON object such as {\"id\": 3}".into())
    })?;
    if let Some(d) = o.get("deal") {
        if d.as_u64() != Some(deal) {
            return Err(FaultKind::BadAnswer(format!(
                "it answers deal {d}, but deal {deal} was asked"
            )));
        }
    }
    if let Some(s) = o.get("seat") {
        if s.as_str() != Some(seat.to_string().as_str()) {
            return Err(FaultKind::BadAnswer(format!(
                "it answers for seat {s}, but seat {seat} was asked"
            )));
        }
    }
    // The one field that ties an answer to its request: a bot that echoes it cannot fall a
    // decision behind unnoticed (a second answer sent just after the first would otherwise
    // be taken for the next request's).
    if let Some(k) = o.get("step") {
        if k.as_u64() != Some(u64::from(step)) {
            return Err(FaultKind::BadAnswer(format!(
                "it answers decision {k}, but decision {step} was asked (a second answer to an earlier request puts every later one out of step)"
            )));
        }
    }
    let id = o.get("id").ok_or_else(|| {
        FaultKind::BadAnswer("the answer has no \"id\" (the id of one of the legal actions)".into())
    })?;
    match id.as_u64().and_then(|n| usize::try_from(n).ok()) {
        Some(n) if n < legal => Ok(n),
        // A string, or anything else that is not a number, is a malformed answer: saying it
        // is out of range would send the bot's author looking at the wrong thing.
        _ if !id.is_number() => Err(FaultKind::BadAnswer(format!(
            "its \"id\" is {id}, not a number: an id is a whole number, one of the legal actions' (0 to {})",
            legal - 1
        ))),
        // -1 or 1.0: a number, but no id at all.
        _ if id.as_u64().is_none() => Err(FaultKind::BadAnswer(format!(
            "its \"id\" is {id}, not a whole number from 0: an id is one of the legal actions' (0 to {})",
            legal - 1
        ))),
        _ => Err(FaultKind::Illegal(format!(
            "{id} is not the id of a legal action (ids 0 to {})",
            legal - 1
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every answer a bot may send to deal 4, seat S, with 3 legal actions: what it is read
    /// as, or the kind of fault and a word of its message.
    /// A line left in the pipe once the bot's input is closed answered no request: a fault
    /// at the close; a bot that left nothing closes cleanly and can be started again.
    #[cfg(unix)]
    #[test]
    fn a_line_left_unread_is_a_fault_at_the_close() {
        let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
        let settings = ExecSettings {
            stderr: super::super::BotStderr::Null,
            ..ExecSettings::default()
        };
        let hello = r#"echo '{"type":"hello","protocol":1,"name":"x"}'"#;
        let bot = |rest: &str| {
            let command = format!("{hello}; {rest}cat >/dev/null");
            Session::new(command, Arc::clone(&variant), settings.clone())
        };
        let mut clean = bot("");
        assert!(clean.ensure_running());
        assert_eq!(clean.close_checked(), None);
        assert!(clean.ensure_running(), "started again after a clean close");
        assert_eq!(clean.close_checked(), None);

        let mut left = bot(r#"echo '{"id": 0}'; "#);
        assert!(left.ensure_running());
        let fault = left.close_checked().expect("a line was left");
        assert_eq!(fault.kind, FaultKind::LeftOver);
        assert_eq!(fault.sent.as_deref(), Some(r#"{"id": 0}"#));
        assert!(fault.to_string().contains("left a line unread"), "{fault}");
    }

    #[test]
    fn answers_are_read_or_refused_by_name() {
        let ok: &[(&str, usize)] = &[
            (r#"{"id":0}"#, 0),
            (r#"{"id": 2}"#, 2),
            (r#"{"id":1,"deal":4,"seat":"S"}"#, 1),
            (r#"{"id":1,"deal":4,"seat":"S","step":3}"#, 1),
            (r#"{"seat":"S","id":2,"why":"a note, ignored"}"#, 2),
        ];
        for (line, want) in ok {
            assert_eq!(
                read_answer(line.as_bytes(), 4, Seat::South, 3, 3),
                Ok(*want),
                "{line}"
            );
        }
        let bad: &[(&str, &str)] = &[
            ("discard 5m", "not JSON"),
            ("", "not JSON"),
            ("3", "JSON object"),
            ("[3]", "JSON object"),
            (r#"{"action":"pass"}"#, "no \"id\""),
            (r#"{"id":3}"#, "ids 0 to 2"),
            (r#"{"id":-1}"#, "-1, not a whole number from 0"),
            (r#"{"id":1.0}"#, "1.0, not a whole number from 0"),
            (r#"{"id":"1"}"#, "\"1\", not a number"),
            (r#"{"id":null}"#, "null, not a number"),
            (r#"{"id":18446744073709551615}"#, "not the id"),
            (r#"{"id":1,"deal":5}"#, "answers deal 5"),
            (r#"{"id":1,"deal":"4"}"#, "answers deal"),
            (r#"{"id":1,"seat":"W"}"#, "for seat \"W\""),
            (
                r#"{"id":1,"step":2}"#,
                "answers decision 2, but decision 3 was asked",
            ),
            (r#"{"id":1,"step":"3"}"#, "answers decision \"3\""),
        ];
        for (line, want) in bad {
            let e = read_answer(line.as_bytes(), 4, Seat::South, 3, 3).unwrap_err();
            assert!(e.to_string().contains(want), "{line}: {e}");
        }
    }
}
