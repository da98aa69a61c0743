//! Deal logs in the bot protocol's vocabulary (`docs/protocol.md`, "Deal logs"): a deal of a
//! run told as events with every seat's view merged, each decision between them, one JSON
//! object a line (`taisim replay RUN DEAL --json`); and the check of a log against the deal
//! its seed deals (`taisim replay --log FILE`), which re-plays the logged decisions and
//! compares every event the engine then tells with the log's, naming the first that differs.

use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

use taisim_agents::protocol::{end_event, start_event, step_events, Event, Message, Start};
use taisim_agents::{build_agents, index_to_action, see_step, Agent};
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, Seat};

use crate::error::EngineError;
use crate::error::HarnessError;
use crate::replay::{find, Recorded};
use crate::spec::{sha256_hex, RunSpec};

/// A deal told as log messages, with what was played.
pub struct DealLog {
    pub deal_id: u64,
    pub messages: Vec<Message>,
    /// The variant it was played under.
    pub variant: Arc<Variant>,
    /// Each decision: the deal before it (the seat to act decides) and the action played.
    pub decisions: Vec<(Deal, Action)>,
    /// The finished deal.
    pub deal: Deal,
}

impl DealLog {
    /// The log as JSON lines, each ending in a newline.
    pub fn to_jsonl(&self) -> String {
        let mut s = String::with_capacity(self.messages.len() * 90);
        for m in &self.messages {
            m.write_json(&mut s);
            s.push('\n');
        }
        s
    }
}

/// How the stakes and name of a deal's variant are told in its log.
pub struct LogHeader<'a> {
    pub deal_id: u64,
    pub variant: &'a Arc<Variant>,
    /// The variant file's SHA-256 (checked when the log is read back).
    pub sha256: &'a str,
    pub base: i64,
    pub per_tai: i64,
}

/// Plays `deal` from its start to its end, each decision chosen by `decide` (given the deal
/// and the seat to act), and tells it as a log.
pub fn tell_deal(
    mut deal: Deal,
    header: &LogHeader<'_>,
    mut decide: impl FnMut(&Deal, Seat) -> Result<Action, HarnessError>,
) -> Result<DealLog, HarnessError> {
    let seed = deal.seed();
    let engine = HarnessError::engine(header.deal_id, seed);
    let v = header.variant;
    let mut events = vec![start_event(
        &deal,
        v.name(),
        Some(header.sha256),
        Some((header.base, header.per_tai)),
    )];
    let mut decisions = Vec::new();
    while let Some(seat) = deal.to_act() {
        let action = decide(&deal, seat)?;
        let before = deal.clone();
        deal.play(action).map_err(|source| {
            engine(EngineError::Illegal {
                step: u32::from(before.steps()) + 1,
                source,
            })
        })?;
        step_events(&before, action, &deal, &mut events);
        decisions.push((before, action));
    }
    events.push(
        end_event(&deal, v, header.base, header.per_tai)
            .map_err(|e| engine(EngineError::Score(e)))?,
    );
    Ok(DealLog {
        deal_id: header.deal_id,
        messages: events
            .into_iter()
            .map(|event| Message {
                deal: header.deal_id,
                seat: None,
                event,
            })
            .collect(),
        variant: Arc::clone(v),
        decisions,
        deal,
    })
}

/// Deal `deal_id` of the run in `out` as a log: played back from its action log when the run
/// recorded one, else by its agents again; the payments checked against the deals table.
pub fn deal_log(out: &Path, deal_id: u64) -> Result<DealLog, HarnessError> {
    let (spec, rec) = find(out, deal_id)?;
    log_of(out, &spec, deal_id, &rec)
}

pub(crate) fn log_of(
    out: &Path,
    spec: &RunSpec,
    deal_id: u64,
    rec: &Recorded,
) -> Result<DealLog, HarnessError> {
    let variant = Arc::clone(spec.variant.variant());
    let deal =
        Deal::new(variant.rules(), rec.seed, rec.context).map_err(|e| HarnessError::Corrupt {
            path: out.to_path_buf(),
            message: format!("the run's rules are invalid: {e}"),
        })?;
    let header = LogHeader {
        deal_id,
        variant: &variant,
        sha256: &spec.variant.record().sha256,
        base: spec.base,
        per_tai: spec.per_tai,
    };
    let corrupt = |message: String| HarnessError::Corrupt {
        path: out.to_path_buf(),
        message: format!("deal {deal_id}: {message}"),
    };
    let log = match &rec.actions {
        Some(actions) => {
            let mut next = actions.iter().enumerate();
            let mut legal = ActionList::new();
            let log = tell_deal(deal, &header, |d, _| {
                let (i, &index) = next.next().ok_or_else(|| {
                    corrupt("the recorded decisions stop before the deal ends".into())
                })?;
                let action = index_to_action(index as usize, d).ok_or_else(|| {
                    corrupt(format!(
                        "recorded decision {} ({index}) is not an action here",
                        i + 1
                    ))
                })?;
                d.legal_actions(&mut legal);
                if !legal.contains(&action) {
                    return Err(corrupt(format!(
                        "recorded decision {} ({action}) is illegal here",
                        i + 1
                    )));
                }
                Ok(action)
            })?;
            if next.next().is_some() {
                return Err(corrupt(
                    "recorded decisions come after the deal ended".into(),
                ));
            }
            log
        }
        None => {
            let mut agents =
                build_agents(&spec.agents, &variant).map_err(HarnessError::Unreplayable)?;
            for s in taisim_sim::Wind::ALL {
                agents[s as usize].reset(rec.seed, s);
            }
            let watching = agents.iter().any(Agent::sees_steps);
            let mut legal = ActionList::new();
            let log = tell_deal(deal, &header, |d, seat| {
                let a = agents[seat as usize].act_in(d, seat, &mut legal);
                if watching {
                    see_step(&mut agents, d, Some(a));
                }
                Ok(a)
            })?;
            if watching {
                see_step(&mut agents, &log.deal, None);
                if let Some(fault) = taisim_agents::exec::first_fault(&agents) {
                    return Err(HarnessError::Bot {
                        deal_id,
                        seed: rec.seed,
                        fault: Box::new(fault),
                    });
                }
            }
            log
        }
    };
    match log.messages.last().map(|m| &m.event) {
        Some(Event::End(e)) => rec.check(out, deal_id, &log.deal, e.payments.0)?,
        _ => return Err(corrupt("the log does not end with the deal's end".into())),
    }
    Ok(log)
}

/// What [`write_run_log`] wrote, and of how much of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLogWritten {
    /// Deals written.
    pub deals: u64,
    /// Parts the run's manifests record: only their deals are written.
    pub parts: usize,
    /// Parts in the whole run, all shards together: more than `parts` while a shard is
    /// missing, still running or was killed.
    pub parts_in_run: u64,
}

/// Every deal of the run in `out`, in order of deal id, as one log (each deal's lines after
/// the last's); returns how many deals were written, of how many parts of the run.
pub fn write_run_log(out: &Path, w: &mut dyn Write) -> Result<RunLogWritten, HarnessError> {
    use arrow_array::UInt64Array;
    let run = crate::read::Run::open(out)?;
    let spec = crate::resume::replay_spec(out, run.spec().shard)?;
    if !spec.log_actions {
        crate::replay::check_play(&spec, run.play(), "the run's deals")?;
    }
    let columns = crate::replay::deal_columns(spec.log_actions);
    let mut n = 0;
    for part in &run.parts {
        let file = run.open_part(part, crate::table::Table::Deals)?;
        let path = file.path().to_path_buf();
        for batch in file.batches(&columns, crate::read::READ_BATCH_ROWS)? {
            let batch = batch?;
            let ids = crate::read::column::<UInt64Array>(&batch, "deal_id", &path)?;
            for (row, &id) in ids.values().iter().enumerate() {
                let rec = crate::replay::recorded(&batch, row, &path)?;
                let log = log_of(out, &spec, id, &rec)?;
                w.write_all(log.to_jsonl().as_bytes())
                    .map_err(|source| HarnessError::Io {
                        action: "cannot write",
                        path: "stdout".into(),
                        source,
                    })?;
                n += 1;
            }
        }
    }
    Ok(RunLogWritten {
        deals: n,
        parts: run.parts.len(),
        parts_in_run: run.parts_in_run(),
    })
}

/// What a log that checked out holds.
#[derive(Clone, Debug)]
pub struct Verified {
    pub deal_id: u64,
    pub events: usize,
    pub start: Start,
    pub payments: [i64; 4],
    pub outcome: &'static str,
}

/// Why a log was refused.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("line {line}: {why}")]
    Unreadable { line: usize, why: String },
    #[error("line {line} (deal {deal}): the log has\n  {logged}\nbut the deal its seed deals gives\n  {actual}")]
    Differs {
        line: usize,
        deal: u64,
        logged: String,
        actual: String,
    },
    #[error("line {line} (deal {deal}): the log ends here, but the deal goes on with\n  {actual}")]
    Missing {
        line: usize,
        deal: u64,
        actual: String,
    },
    #[error("line {line} (deal {deal}): {why}")]
    Refused { line: usize, deal: u64, why: String },
}

impl LogError {
    /// A log that does not check out is bad input (exit status 2); only a failed read is the
    /// machine's.
    pub fn exit_code(&self) -> u8 {
        match self {
            LogError::Io { .. } => 1,
            _ => 2,
        }
    }
}

/// The variant a log's start names: a shipped variant whose file has the logged SHA-256, or
/// `given` (a variant file the caller read), which must have it too.
fn log_variant(
    start: &Start,
    given: Option<&(Arc<Variant>, String)>,
) -> Result<(Arc<Variant>, String), String> {
    if let Some((v, sha)) = given {
        if v.name() != start.variant {
            return Err(format!(
                "the log's deal was played under variant {:?}; --variant gives {:?}",
                start.variant,
                v.name()
            ));
        }
        if let Some(logged) = &start.variant_sha256 {
            if logged != sha {
                return Err(format!(
                    "the log's variant file has SHA-256 {logged}; the --variant file has {sha}"
                ));
            }
        }
        return Ok((Arc::clone(v), sha.clone()));
    }
    let text = Variant::builtin_text(&start.variant).ok_or_else(|| {
        format!(
            "the log's variant {:?} is not a shipped one: give its file with --variant",
            start.variant
        )
    })?;
    let sha = sha256_hex(text.as_bytes());
    if let Some(logged) = &start.variant_sha256 {
        if *logged != sha {
            return Err(format!(
                "the log's variant {:?} had SHA-256 {logged}, this taisim ships one with {sha}: give the log's variant file with --variant",
                start.variant
            ));
        }
    }
    let v = Variant::builtin(&start.variant).map_err(|e| e.to_string())?;
    Ok((Arc::new(v), sha))
}

/// Checks a log read from `reader` (named `path` in errors): each deal is dealt from its
/// start's seed, context and variant, its logged decisions are played, and every event the
/// engine then tells must equal the log's next line. `given` is a variant file for logs of a
/// variant that is not shipped. Returns each deal's summary, and the deals themselves.
pub fn verify_log(
    reader: impl BufRead,
    path: &str,
    given: Option<&(Arc<Variant>, String)>,
) -> Result<Vec<(Verified, DealLog)>, LogError> {
    let mut lines = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|source| LogError::Io {
            path: path.to_string(),
            source,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let m = Message::from_json(&line).map_err(|e| LogError::Unreadable {
            line: i + 1,
            why: e.to_string(),
        })?;
        lines.push((i + 1, m, line));
    }
    if lines.is_empty() {
        return Err(LogError::Unreadable {
            line: 1,
            why: "the log is empty".into(),
        });
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let (verified, log, used) = verify_deal(&lines[k..], given)?;
        out.push((verified, log));
        k += used;
    }
    Ok(out)
}

/// Checks the deal whose start is `lines[0]`; returns it and how many lines it took.
fn verify_deal(
    lines: &[(usize, Message, String)],
    given: Option<&(Arc<Variant>, String)>,
) -> Result<(Verified, DealLog, usize), LogError> {
    let (line, first, _) = &lines[0];
    let deal_id = first.deal;
    let refuse = |line: usize, why: String| LogError::Refused {
        line,
        deal: deal_id,
        why,
    };
    let Event::Start(start) = &first.event else {
        return Err(refuse(
            *line,
            format!(
                "a deal's log begins with its start, not a {:?} message",
                first.event.kind()
            ),
        ));
    };
    if first.seat.is_some() {
        return Err(refuse(
            *line,
            "this is a seat's view of a deal (it names a \"seat\"), not a deal log".into(),
        ));
    }
    let (variant, sha) = log_variant(start, given).map_err(|why| refuse(*line, why))?;
    let (base, per_tai) = start
        .stakes
        .unwrap_or((variant.settlement().base, variant.settlement().per_tai));
    let mut deal = Deal::new(variant.rules(), start.seed, start.context)
        .map_err(|e| refuse(*line, format!("the variant's rules are invalid: {e}")))?;
    let mut told: Vec<Message> = Vec::new();
    // Compares the engine's next message with the log's next line.
    let check = |want: Event, told: &mut Vec<Message>| -> Result<(), LogError> {
        let want = Message {
            deal: deal_id,
            seat: None,
            event: want,
        };
        let k = told.len();
        match lines.get(k) {
            Some((l, got, text))
                if *got != want || (k > 0 && matches!(got.event, Event::Start(_))) =>
            {
                Err(LogError::Differs {
                    line: *l,
                    deal: deal_id,
                    logged: text.clone(),
                    actual: want.to_json(),
                })
            }
            Some(_) => {
                told.push(want);
                Ok(())
            }
            None => Err(LogError::Missing {
                line: lines.last().map_or(0, |l| l.0) + 1,
                deal: deal_id,
                actual: want.to_json(),
            }),
        }
    };
    check(
        start_event(&deal, variant.name(), Some(&sha), Some((base, per_tai))),
        &mut told,
    )?;
    let mut decisions = Vec::new();
    let mut legal = ActionList::new();
    let mut events = Vec::new();
    while let Some(seat) = deal.to_act() {
        let step = deal.steps() + 1;
        let k = told.len();
        let action = match lines.get(k) {
            Some((_, m, _)) if !matches!(m.event, Event::Start(_)) => match m.event {
                Event::Decision { action, .. } => action,
                // Not a decision where the engine asks for one: named by the check below,
                // against the decision's own fields.
                _ => Action::Pass,
            },
            _ => {
                return Err(LogError::Missing {
                    line: lines
                        .get(k)
                        .map_or(lines.last().map_or(0, |l| l.0) + 1, |l| l.0),
                    deal: deal_id,
                    actual: format!("a decision of seat {seat} (step {step})"),
                })
            }
        };
        deal.legal_actions(&mut legal);
        if !legal.contains(&action) {
            let (l, m, text) = &lines[k];
            if let Event::Decision { .. } = m.event {
                return Err(refuse(
                    *l,
                    format!("{text}: {seat} cannot play {action} at step {step}"),
                ));
            }
            return Err(LogError::Differs {
                line: *l,
                deal: deal_id,
                logged: text.clone(),
                actual: format!("a decision of seat {seat} (step {step})"),
            });
        }
        let before = deal.clone();
        deal.play_unchecked(action);
        events.clear();
        step_events(&before, action, &deal, &mut events);
        for e in events.drain(..) {
            check(e, &mut told)?;
        }
        decisions.push((before, action));
    }
    let end = end_event(&deal, &variant, base, per_tai).map_err(|e| {
        refuse(
            *line,
            format!("the deal cannot be scored under its variant: {e}"),
        )
    })?;
    let payments = match &end {
        Event::End(e) => (e.payments.0, e.result.outcome.name()),
        _ => unreachable!("an end event"),
    };
    check(end, &mut told)?;
    let used = told.len();
    if let Some((l, m, _)) = lines.get(used) {
        if !matches!(m.event, Event::Start(_)) {
            return Err(refuse(
                *l,
                format!("a {:?} message after the deal's end", m.event.kind()),
            ));
        }
    }
    Ok((
        Verified {
            deal_id,
            events: used,
            start: (**start).clone(),
            payments: payments.0,
            outcome: payments.1,
        },
        DealLog {
            deal_id,
            messages: told,
            variant,
            decisions,
            deal,
        },
        used,
    ))
}
