//! `taisim.bot`'s native half: a Python bot's seats and deals, each rebuilt from the table's
//! messages ([`Mirror`]), with the observation and mask `taisim.Env` would give at each
//! decision, and any built-in agent's choice there. The Python half (`taisim/bot.py`) reads
//! and writes the lines.

use std::collections::HashMap;
use std::sync::Arc;

use ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use serde_json::Value;
use taisim_agents::protocol::{read_action, Event, Message, Mirror};
use taisim_agents::{
    action_index, builtin_agent_names, encode, write_mask, Agent, AgentParseError, AgentSpec,
    BuiltinAgent, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH,
};
use taisim_datasets::RunVariant;
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Seat, Wind};

use super::errors::{self, IllegalActionError, ProtocolError};

/// An observation and its mask, as numpy arrays.
type ObsMask<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<i8>>);

/// One deal and seat the bot plays.
struct Seated {
    mirror: Mirror,
    variant: Arc<Variant>,
    seed: u64,
    /// The open request: its ids and actions, in its order.
    request: Option<(Vec<u64>, ActionList)>,
    /// Built-in agents asked at this seat, by name.
    agents: HashMap<String, BuiltinAgent>,
}

/// See the module documentation.
#[pyclass(name = "NativeBotTable", unsendable)]
pub struct PyBotTable {
    /// The variant file given, and the SHA-256 a run records of it.
    given: Option<(Arc<Variant>, Option<String>)>,
    /// Shipped variants found by name, with theirs.
    variants: HashMap<String, (Arc<Variant>, Option<String>)>,
    seated: HashMap<(u64, Seat), Seated>,
}

/// A line the table sent that cannot be followed.
fn bad(e: impl std::fmt::Display) -> PyErr {
    ProtocolError::new_err(e.to_string())
}

/// The `"deal"` field of a line: a whole number ≥ 0, which every message to a bot carries.
fn deal_field(v: &Value) -> PyResult<u64> {
    match v.get("deal") {
        Some(d) => d.as_u64().ok_or_else(|| {
            bad(format!(
                "the line's \"deal\" is {d}, not a whole number ≥ 0"
            ))
        }),
        None => Err(bad("the line has no \"deal\"")),
    }
}

/// The built-in agent named `agent`, as a bot plays it: a name of no agent is an
/// `AgentError` listing the agents a bot can play (not `exec:COMMAND`, a bot of its own),
/// an `exec:` agent a `UsageError`.
fn builtin_spec(agent: &str) -> PyResult<AgentSpec> {
    let spec: AgentSpec = agent.parse().map_err(|e| match e {
        AgentParseError::Unknown { name } => errors::AgentError::new_err(format!(
            "unknown agent {name:?}; a bot plays a built-in agent: {}",
            builtin_agent_names()
        )),
        e => errors::agent(e),
    })?;
    if matches!(spec, AgentSpec::Exec(_)) {
        return Err(errors::usage("an exec: agent cannot answer inside a bot"));
    }
    Ok(spec)
}

fn seat_of(s: &str) -> PyResult<Seat> {
    let mut c = s.chars();
    match (c.next().and_then(Wind::from_char), c.next()) {
        (Some(w), None) => Ok(w),
        _ => Err(bad(format!("{s:?} is not a seat"))),
    }
}

impl PyBotTable {
    fn seat_mut(&mut self, deal: u64, seat: &str) -> PyResult<&mut Seated> {
        let seat = seat_of(seat)?;
        self.seated
            .get_mut(&(deal, seat))
            .ok_or_else(|| errors::usage(format!("no deal {deal} at seat {seat}")))
    }

    /// The variant a deal's start names, and the SHA-256 a run records of its file.
    fn variant(&mut self, name: &str) -> PyResult<(Arc<Variant>, Option<String>)> {
        if let Some(v) = self.given.as_ref().filter(|(v, _)| v.name() == name) {
            return Ok(v.clone());
        }
        if let Some(v) = self.variants.get(name) {
            return Ok(v.clone());
        }
        let v = Arc::new(Variant::builtin(name).map_err(|e| {
            super::errors::VariantError::new_err(format!(
                "{e}; give the variant file as NativeBotTable(variant=PATH)"
            ))
        })?);
        let found = (v, RunVariant::recorded_sha256(name));
        self.variants.insert(name.to_string(), found.clone());
        Ok(found)
    }
}

impl Seated {
    /// The open request's actions; a usage error when no decision is open.
    fn open_actions(&self) -> PyResult<&ActionList> {
        self.request
            .as_ref()
            .map(|(_, actions)| actions)
            .ok_or_else(|| errors::usage("no decision is open"))
    }
}

/// Records the answer `i` (a position in the request) and returns its id.
fn answer(s: &mut Seated, i: usize) -> PyResult<u64> {
    let (ids, actions) = s
        .request
        .take()
        .ok_or_else(|| errors::usage("no decision is open at this seat"))?;
    s.mirror.answered(actions[i]);
    Ok(ids[i])
}

#[pymethods]
impl PyBotTable {
    /// `variant`: a shipped variant's name or a variant file's path, as every environment
    /// takes it (a deal's start names its variant; a shipped one is found by that name).
    #[new]
    #[pyo3(signature = (variant = None))]
    fn new(variant: Option<&str>) -> PyResult<Self> {
        let given = match variant {
            None => None,
            Some(v) => Some((
                Arc::new(Variant::by_name_or_path(v).map_err(errors::variant)?),
                RunVariant::recorded_sha256(v),
            )),
        };
        Ok(PyBotTable {
            given,
            variants: HashMap::new(),
            seated: HashMap::new(),
        })
    }

    /// Reads one line the table sent (after the hello). Returns `(deal, seat)` when the line
    /// asks that seat to decide (the rebuilt deal is then at the decision), else `None`.
    fn tell(&mut self, line: &str) -> PyResult<Option<(u64, String)>> {
        let v: Value = serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
        match v.get("type").and_then(Value::as_str) {
            Some("act") => {
                let deal = deal_field(&v)?;
                let seat_name = v
                    .get("seat")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("a request without its \"seat\""))?
                    .to_string();
                // A request for a seat no start dealt is the table's line out of order, not a
                // call of this class's methods at a deal it does not hold.
                let seat = seat_of(&seat_name)?;
                let s = self.seated.get_mut(&(deal, seat)).ok_or_else(|| {
                    bad(format!(
                        "a request for deal {deal} at seat {seat} before the deal's start"
                    ))
                })?;
                let rebuilt = s.mirror.decide_now().map_err(bad)?;
                let mut legal = ActionList::new();
                rebuilt.legal_actions(&mut legal);
                let asked = v
                    .get("legal")
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad("a request without legal actions"))?;
                // Compared before the actions one by one: an empty list has none to compare.
                if asked.len() != legal.len() {
                    return Err(bad(format!(
                        "the table offers {} actions; the rebuilt deal offers {} ({legal:?})",
                        asked.len(),
                        legal.len()
                    )));
                }
                let mut ids = Vec::with_capacity(asked.len());
                let mut actions = ActionList::new();
                for (i, a) in asked.iter().enumerate() {
                    let action = read_action(a).map_err(bad)?;
                    if legal.get(i) != Some(&action) {
                        return Err(bad(format!(
                            "the table offers {action} as action {i}; the rebuilt deal offers {legal:?}"
                        )));
                    }
                    ids.push(a.get("id").and_then(Value::as_u64).unwrap_or(i as u64));
                    actions.push(action);
                }
                s.request = Some((ids, actions));
                Ok(Some((deal, seat_name)))
            }
            Some("hello") => Ok(None),
            Some("abort") => {
                let deal = deal_field(&v)?;
                if let Some(seat) = v.get("seat").and_then(Value::as_str) {
                    self.seated.remove(&(deal, seat_of(seat)?));
                }
                Ok(None)
            }
            _ => {
                let m = Message::from_value(&v).map_err(bad)?;
                let seat = m
                    .seat
                    .ok_or_else(|| bad("a message to a bot names its seat"))?;
                match m.event {
                    Event::Start(start) => {
                        let (variant, sha256) = self.variant(&start.variant)?;
                        start
                            .check_variant_file(sha256.as_deref())
                            .map_err(|e| bad(format!("{e} (variant=PATH)")))?;
                        let mirror = Mirror::new(&start, seat, &variant).map_err(bad)?;
                        if self.seated.contains_key(&(m.deal, seat)) {
                            return Err(bad(format!(
                                "deal {} seat {seat} starts again before it ended",
                                m.deal
                            )));
                        }
                        self.seated.insert(
                            (m.deal, seat),
                            Seated {
                                mirror,
                                variant,
                                seed: start.seed,
                                request: None,
                                agents: HashMap::new(),
                            },
                        );
                    }
                    Event::End(_) => {
                        self.seated.remove(&(m.deal, seat));
                    }
                    event => {
                        let s = self.seated.get_mut(&(m.deal, seat)).ok_or_else(|| {
                            bad(format!(
                                "a {} for deal {} seat {seat}, which never started (or has ended)",
                                event.kind(),
                                m.deal
                            ))
                        })?;
                        s.mirror.tell(event);
                    }
                }
                Ok(None)
            }
        }
    }

    /// The observation (float32, `OBS_SHAPE`) and the legal-action mask (int8, one per index
    /// of the action space) at the open decision, as `taisim.Env` gives them.
    fn observe<'py>(&mut self, py: Python<'py>, deal: u64, seat: &str) -> PyResult<ObsMask<'py>> {
        let s = self.seat_mut(deal, seat)?;
        let actions = s.open_actions()?;
        let d = s.mirror.deal();
        let view = d.view(s.mirror.seat());
        let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
        encode(&view, obs.view_mut()).map_err(bad)?;
        let mut mask = [0u8; ACTION_SPACE_SIZE];
        write_mask(actions, d.tile_on_offer(), &mut mask);
        let mask: Vec<i8> = mask.iter().map(|&m| m as i8).collect();
        Ok((obs.into_pyarray(py), mask.into_pyarray(py)))
    }

    /// Answers the open decision with the action at `index` of the action space; returns the
    /// id to send. An index outside the action space or not legal raises
    /// `IllegalActionError`.
    fn answer_index(&mut self, deal: u64, seat: &str, index: &Bound<'_, PyAny>) -> PyResult<u64> {
        let index = super::config::action_arg(index)?;
        let s = self.seat_mut(deal, seat)?;
        let offer = s.mirror.deal().tile_on_offer();
        let actions = s.open_actions()?;
        let i = actions
            .iter()
            .position(|&a| action_index(a, offer) == Some(index))
            .ok_or_else(|| {
                IllegalActionError::new_err(format!("action index {index} is not legal here"))
            })?;
        answer(s, i)
    }

    /// Checks that the built-in `agent` can play at this table before any line is read: a
    /// name of no agent raises `AgentError`, an `exec:` agent `UsageError`, a policy that
    /// cannot be loaded `PolicyError` (or an `OSError`).
    fn check_agent(&self, agent: &str) -> PyResult<()> {
        let spec = builtin_spec(agent)?;
        let variant = match &self.given {
            Some((v, _)) => Arc::clone(v),
            None => Arc::new(Variant::builtin(Variant::DEFAULT).map_err(errors::variant)?),
        };
        spec.build(&variant).map_err(errors::policy)?;
        Ok(())
    }

    /// What the built-in `agent` (`greedy`, `trained`, `search:64`, …) plays at the open
    /// decision, as an index of the action space (nothing is answered).
    fn agent_choice(&mut self, deal: u64, seat: &str, agent: &str) -> PyResult<usize> {
        let i = self.agent_position(deal, seat, agent)?;
        let s = self.seat_mut(deal, seat)?;
        let offer = s.mirror.deal().tile_on_offer();
        let actions = s.open_actions()?;
        action_index(actions[i], offer)
            .ok_or_else(|| IllegalActionError::new_err("an action outside the action space"))
    }

    /// Answers the open decision with what the built-in `agent` (`greedy`, `trained`,
    /// `search:64`, …) plays there; returns the id to send.
    fn answer_agent(&mut self, deal: u64, seat: &str, agent: &str) -> PyResult<u64> {
        let i = self.agent_position(deal, seat, agent)?;
        answer(self.seat_mut(deal, seat)?, i)
    }
}

impl PyBotTable {
    /// Where in the open request the built-in `agent`'s choice lies.
    fn agent_position(&mut self, deal: u64, seat: &str, agent: &str) -> PyResult<usize> {
        let s = self.seat_mut(deal, seat)?;
        if !s.agents.contains_key(agent) {
            let spec = builtin_spec(agent)?;
            let mut built = spec.build(&s.variant).map_err(errors::policy)?;
            built.reset(s.seed, s.mirror.seat());
            s.agents.insert(agent.to_string(), built);
        }
        let d = s.mirror.deal().clone();
        let me = s.mirror.seat();
        let mut scratch = ActionList::new();
        let chosen: Action =
            s.agents
                .get_mut(agent)
                .expect("built above")
                .act_in(&d, me, &mut scratch);
        let actions = s.open_actions()?;
        // `tell` checked the request's actions are the rebuilt deal's, which the agent
        // chose among.
        actions.iter().position(|&a| a == chosen).ok_or_else(|| {
            errors::bug(format!(
                "{agent} played {chosen}, which the open request does not offer"
            ))
        })
    }
}
