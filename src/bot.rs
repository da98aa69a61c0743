//! `taisim bot AGENT`: a built-in agent as a player outside the table, speaking the JSON-lines
//! protocol on standard input and output (`docs/protocol.md`). Each deal and seat it is sent
//! is rebuilt from its messages ([`Mirror`]) and the agent decides on the rebuilt deal, which
//! shows the seat exactly what the table's shows it: `exec:taisim bot greedy` plays as
//! `greedy` does, to the byte.
//!
//! Anything it cannot follow (a line that is not JSON or not UTF-8, a message it cannot read,
//! a deal it cannot rebuild, a request whose legal actions differ from the rebuilt deal's) is
//! bad input: an error on its standard error naming the line, and exit status 2. Reading or
//! writing its pipes failing is exit status 1. Either way the table reports the bot's exit as
//! its fault.

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::Arc;

use serde_json::Value;
use taisim_agents::protocol::{read_action, Event, Message, Mirror, PROTOCOL_VERSION};
use taisim_agents::{builtin_agent_names, Agent, AgentParseError, AgentSpec, BuiltinAgent};
use taisim_datasets::RunVariant;
use taisim_score::Variant;
use taisim_sim::{ActionList, Seat};

use crate::failure::{CliError, Failure};
use crate::input::{read_line, without_ending, Line, MAX_LINE};

#[derive(clap::Args)]
pub struct BotArgs {
    /// The agent that decides: random, greedy, defensive, value, trained, policy:PATH, search,
    /// search:N, search:N:SETTING=VALUE, search:SETTING=VALUE.
    agent: String,
    /// The variant file of deals whose variant is not a shipped one (the start message names
    /// the variant; a shipped name is found by itself).
    #[arg(long)]
    variant: Option<String>,
}

/// One deal and seat it plays.
struct Seated {
    mirror: Mirror,
    agent: BuiltinAgent,
}

/// Standard input sent what cannot be followed: the input's fault (exit 2).
fn refuse(message: String) -> Failure {
    Failure::from(CliError::Input(format!("taisim bot: {message}")))
}

/// Reading or writing a pipe failed, which is not the input's fault (exit 1).
/// A request's deal number: every message to a bot names its deal (docs/protocol.md), and a
/// missing or malformed one taken as deal 0 would be blamed on a deal that never started.
fn deal_of(v: &Value) -> Result<u64, String> {
    match v.get("deal") {
        Some(d) => d
            .as_u64()
            .ok_or_else(|| format!("\"deal\" is {d}, not a whole number")),
        None => Err("a request without its deal (\"deal\")".into()),
    }
}

fn broken(what: &str, e: io::Error) -> Failure {
    Failure::from(CliError::Io(io::Error::new(
        e.kind(),
        format!("taisim bot: {what}: {e}"),
    )))
}

pub fn bot(args: &BotArgs) -> Result<(), Failure> {
    let spec: AgentSpec = args.agent.parse().map_err(|e| match e {
        // The list of every agent would offer `exec:COMMAND`, which this command refuses.
        AgentParseError::Unknown { name } => Failure::from(CliError::Usage(format!(
            "unknown agent {name:?}; taisim bot plays a built-in agent: {}",
            builtin_agent_names()
        ))),
        e => Failure::from(e),
    })?;
    if matches!(spec, AgentSpec::Exec(_)) {
        return Err(Failure::from(CliError::Usage(
            "taisim bot plays a built-in agent; an exec: agent is a bot already".to_string(),
        )));
    }
    let given = match &args.variant {
        Some(v) => Some((
            Arc::new(
                Variant::by_name_or_path(v).map_err(|e| CliError::flag("--variant")(e.into()))?,
            ),
            RunVariant::recorded_sha256(v),
        )),
        None => None,
    };
    // An agent that cannot be built (a policy file that does not read) is a bad argument,
    // refused before the hello, not blamed on a line of the table's input later.
    let checked = match &given {
        Some((v, _)) => Arc::clone(v),
        None => Arc::new(
            Variant::builtin(Variant::DEFAULT).map_err(|e| CliError::Usage(e.to_string()))?,
        ),
    };
    spec.build(&checked)
        .map_err(|e| Failure::from(CliError::from(e)))?;
    // One agent built per variant, cloned for each seat of each deal (a policy's weights are
    // shared, not read again), with the SHA-256 a run records of the variant's file.
    let mut built: HashMap<String, (Arc<Variant>, BuiltinAgent, Option<String>)> = HashMap::new();
    let mut seated: HashMap<(u64, Seat), Seated> = HashMap::new();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut legal = ActionList::new();
    let mut hello = false;
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    for n in 1.. {
        match read_line(&mut input, &mut bytes).map_err(|e| broken("reading standard input", e))? {
            Line::End => break,
            Line::TooLong => {
                return Err(refuse(format!(
                    "line {n}: longer than {} bytes (the protocol's bound: 1 MiB)",
                    MAX_LINE
                )))
            }
            Line::Read => {}
        }
        let line = std::str::from_utf8(without_ending(&bytes))
            .map_err(|_| refuse(format!("line {n}: not UTF-8 text")))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = |why: String| refuse(format!("line {n}: {why}"));
        let v: Value = serde_json::from_str(line).map_err(|e| at(format!("not JSON: {e}")))?;
        let kind = v.get("type").and_then(Value::as_str).unwrap_or_default();
        match kind {
            "hello" if hello => return Err(at("a second hello".into())),
            "hello" => {
                if v.get("protocol").and_then(Value::as_u64) != Some(PROTOCOL_VERSION as u64) {
                    return Err(at(format!(
                        "the table speaks protocol {}, this bot {PROTOCOL_VERSION}",
                        v.get("protocol").unwrap_or(&Value::Null)
                    )));
                }
                // Written field by field: docs/protocol.md puts `type` first in every message,
                // where a JSON map would sort it after `name`.
                let name = serde_json::Value::from(format!("taisim bot {spec}"));
                writeln!(
                    out,
                    r#"{{"type":"hello","protocol":{PROTOCOL_VERSION},"name":{name}}}"#
                )
                .and_then(|()| out.flush())
                .map_err(|e| broken("writing standard output", e))?;
                hello = true;
            }
            _ if !hello => return Err(at("the table's first message must be its hello".into())),
            "act" => {
                let deal = deal_of(&v).map_err(at)?;
                let seat = match v.get("seat") {
                    None => return Err(at("a request without its seat".into())),
                    Some(s) => s
                        .as_str()
                        .and_then(|s| crate::replay::parse_seat(s).ok())
                        .ok_or_else(|| at(format!("\"seat\" is {s}, not one of E S W N")))?,
                };
                let s = seated.get_mut(&(deal, seat)).ok_or_else(|| {
                    at(format!(
                        "a request for deal {deal} seat {seat}, which never started (or has ended)"
                    ))
                })?;
                let rebuilt = s.mirror.decide_now().map_err(|e| at(e.to_string()))?;
                // The request's actions, in its order, must be the rebuilt deal's.
                let asked = v
                    .get("legal")
                    .and_then(Value::as_array)
                    .ok_or_else(|| at("a request without its legal actions".into()))?;
                rebuilt.legal_actions(&mut legal);
                let mut ids = Vec::with_capacity(asked.len());
                for (i, a) in asked.iter().enumerate() {
                    let action =
                        read_action(a).map_err(|e| at(format!("legal action {i}: {e}")))?;
                    if legal.get(i) != Some(&action) {
                        return Err(at(format!(
                            "the table offers {action} as action {i}; the rebuilt deal does not"
                        )));
                    }
                    ids.push(a.get("id").and_then(Value::as_u64).unwrap_or(i as u64));
                }
                if ids.len() != legal.len() {
                    return Err(at(
                        "the table offers fewer actions than the rebuilt deal".into()
                    ));
                }
                let choice = s.agent.act_in(rebuilt, seat, &mut legal);
                let i = legal
                    .iter()
                    .position(|&a| a == choice)
                    .expect("an agent chooses a legal action");
                s.mirror.answered(choice);
                // The request's step echoed: a table that checks it can tie each answer to
                // its request.
                let answer = match v.get("step").and_then(Value::as_u64) {
                    Some(step) => format!("{{\"id\":{},\"step\":{step}}}", ids[i]),
                    None => format!("{{\"id\":{}}}", ids[i]),
                };
                writeln!(out, "{answer}")
                    .and_then(|()| out.flush())
                    .map_err(|e| broken("writing standard output", e))?;
            }
            "abort" => {
                let deal = deal_of(&v).map_err(at)?;
                if let Some(seat) = v
                    .get("seat")
                    .and_then(Value::as_str)
                    .and_then(|s| crate::replay::parse_seat(s).ok())
                {
                    seated.remove(&(deal, seat));
                }
            }
            _ => {
                let m = Message::from_value(&v).map_err(|e| at(e.to_string()))?;
                let seat = m
                    .seat
                    .ok_or_else(|| at("a message to a bot names its seat".into()))?;
                match m.event {
                    Event::Start(start) => {
                        let (variant, prototype, sha256) = match built.get(&start.variant) {
                            Some(b) => b.clone(),
                            None => {
                                let (variant, sha256) = match &given {
                                    Some((v, sha256)) if v.name() == start.variant => {
                                        (Arc::clone(v), sha256.clone())
                                    }
                                    _ => {
                                        let v = Variant::builtin(&start.variant).map_err(|e| {
                                            at(format!("{e}; give the variant file with --variant"))
                                        })?;
                                        let sha256 = RunVariant::recorded_sha256(&start.variant);
                                        (Arc::new(v), sha256)
                                    }
                                };
                                let agent = spec.build(&variant).map_err(|e| at(e.to_string()))?;
                                let b = (variant, agent, sha256);
                                built.insert(start.variant.clone(), b.clone());
                                b
                            }
                        };
                        start
                            .check_variant_file(sha256.as_deref())
                            .map_err(|e| at(format!("{e} with --variant")))?;
                        let mirror =
                            Mirror::new(&start, seat, &variant).map_err(|e| at(e.to_string()))?;
                        let mut agent = prototype;
                        agent.reset(start.seed, seat);
                        if seated.contains_key(&(m.deal, seat)) {
                            return Err(at(format!(
                                "deal {} seat {seat} starts again before it ended",
                                m.deal
                            )));
                        }
                        seated.insert((m.deal, seat), Seated { mirror, agent });
                    }
                    Event::End(_) => {
                        seated.remove(&(m.deal, seat));
                    }
                    event => {
                        let s = seated.get_mut(&(m.deal, seat)).ok_or_else(|| {
                            at(format!(
                                "a {} for deal {} seat {seat}, which never started (or has ended)",
                                event.kind(),
                                m.deal
                            ))
                        })?;
                        s.mirror.tell(event);
                    }
                }
            }
        }
    }
    Ok(())
}
