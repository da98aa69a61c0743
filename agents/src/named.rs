//! Agents by name: the `--agents` syntax and one enum over the built-ins.

use core::fmt;
use core::str::FromStr;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, Seat, View};

use crate::agent::{Agent, RandomAgent};
use crate::exec::{BotFault, ExecAgent, ExecSettings};
use crate::greedy::{DefensiveAgent, GreedyAgent};
use crate::minimum::Minimum;
use crate::policy::{Policy, PolicyAgent, PolicyError};
use crate::search::{
    Draws, OwnPolicy, RolloutPolicy, Schedule, SearchAgent, SearchConfig, SearchDecision, Wins,
    PLAIN_LATE_DISCARDS,
};
use crate::value::ValueAgent;

/// The names [`AgentSpec`] accepts, as error messages list them.
pub const KNOWN_AGENTS: [&str; 11] = [
    "random",
    "greedy",
    "defensive",
    "value",
    "trained",
    "policy:PATH",
    "search",
    "search:N",
    "search:N:SETTING=VALUE",
    "search:SETTING=VALUE",
    "exec:COMMAND",
];

/// The names of [`KNOWN_AGENTS`] that play inside taisim, as a list for messages: every one
/// but `exec:COMMAND`, for the places that serve an agent as a bot (a bot of its own cannot
/// be served).
pub fn builtin_agent_names() -> String {
    KNOWN_AGENTS
        .iter()
        .filter(|a| !a.starts_with("exec:"))
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// A built-in agent as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AgentSpec {
    Random,
    Greedy,
    Defensive,
    /// Greedy that weighs its ready and one-from-ready discards by the variant's table
    /// ([`ValueAgent`]).
    Value,
    /// The policy shipped in the build (`agents/policies/trained.safetensors`).
    Trained,
    /// `policy:PATH`: weights from a trainer's file.
    Policy(PathBuf),
    /// `search`, `search:N` or `search:N:SETTING=VALUE...`: the sampling player with `N`
    /// determinizations a decision ([`SearchConfig::DEFAULT_DETERMINIZATIONS`] for plain
    /// `search`, tuned as [`SearchSpec::DEFAULT`]), its tuning as named.
    Search(SearchSpec),
    /// `exec:COMMAND`: a program outside taisim speaking the JSON-lines protocol
    /// (`docs/protocol.md`), run through the shell.
    Exec(String),
}

/// An agent name or list that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgentParseError {
    #[error("unknown agent {name:?}; known agents: {}", KNOWN_AGENTS.join(", "))]
    Unknown { name: String },
    #[error("agent \"policy:\" needs a weights file path, as in policy:weights.safetensors")]
    MissingPolicyPath,
    #[error("agent \"search:\" takes a whole number of determinizations from 1 to {max}, as in search:256, or settings of plain search, as in search:threads=4; got {0:?}", max = SearchConfig::MAX_DETERMINIZATIONS)]
    SearchBudget(String),
    #[error("search setting {0:?} is not SETTING=VALUE with a known setting; known: {known} (as in search:2048:indifference=0.05)", known = SEARCH_SETTINGS.join(", "))]
    SearchSetting(String),
    /// A known setting with a value it cannot take: the setting, what it takes and the value.
    #[error("search setting {0}")]
    SearchSettingValue(String),
    /// A setting named twice: the later value would silently win.
    #[error("search setting {0:?} is given twice; give each setting once")]
    SearchSettingTwice(String),
    #[error("agent \"exec:\" needs a command, as in exec:python3 examples/bots/random_bot.py")]
    MissingCommand,
    #[error("expected one agent name for all seats or four comma-separated names in seat order E,S,W,N; got {0}")]
    WrongCount(usize),
    /// A list that splits into a count of names other than 1 or 4 and names an `exec:`
    /// command: most likely a comma inside the command.
    #[error("expected one agent name for all seats or four comma-separated names in seat order E,S,W,N; got {0}: a comma inside an exec: command splits it too (put such a command in a script)")]
    CommaInCommand(usize),
}

impl FromStr for AgentSpec {
    type Err = AgentParseError;

    fn from_str(s: &str) -> Result<AgentSpec, AgentParseError> {
        let s = s.trim();
        match s {
            "random" => Ok(AgentSpec::Random),
            "greedy" => Ok(AgentSpec::Greedy),
            "defensive" => Ok(AgentSpec::Defensive),
            "value" => Ok(AgentSpec::Value),
            "trained" => Ok(AgentSpec::Trained),
            "search" => Ok(AgentSpec::Search(SearchSpec::DEFAULT)),
            _ if s.starts_with("search:") => s["search:".len()..].parse().map(AgentSpec::Search),
            _ if s.starts_with("exec:") => match s["exec:".len()..].trim() {
                "" => Err(AgentParseError::MissingCommand),
                command => Ok(AgentSpec::Exec(command.to_string())),
            },
            _ => match s.strip_prefix("policy:") {
                Some("") => Err(AgentParseError::MissingPolicyPath),
                Some(path) => Ok(AgentSpec::Policy(PathBuf::from(path))),
                None => Err(AgentParseError::Unknown {
                    name: s.to_string(),
                }),
            },
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::Defensive => f.write_str("defensive"),
            AgentSpec::Value => f.write_str("value"),
            AgentSpec::Trained => f.write_str("trained"),
            AgentSpec::Policy(path) => write!(f, "policy:{}", path.display()),
            AgentSpec::Search(spec) if *spec == SearchSpec::DEFAULT => f.write_str("search"),
            AgentSpec::Search(spec) => write!(f, "search:{spec}"),
            AgentSpec::Exec(command) => write!(f, "exec:{command}"),
        }
    }
}

impl AgentSpec {
    /// The name with every setting spelled out: plain `search` as its tuned settings
    /// (`search:2048:indifference=0.05:…`, which a later taisim may tune otherwise); any
    /// other agent as it prints.
    pub fn in_full(&self) -> String {
        match self {
            AgentSpec::Search(spec) => format!("search:{spec}"),
            other => other.to_string(),
        }
    }

    /// The agent as a run records it: without the settings that change only how fast it
    /// plays, never what (a search's `threads`: the same decisions on any number). A run's
    /// files, manifest and fingerprint are then the same bytes whatever threads played it,
    /// and a run may be resumed or sharded on a machine with another number of cores.
    pub fn recorded(&self) -> AgentSpec {
        match self {
            AgentSpec::Search(spec) => AgentSpec::Search(SearchSpec {
                threads: None,
                ..*spec
            }),
            other => other.clone(),
        }
    }

    /// Whether the agent's play depends on the variant's scoring table (its patterns, tai
    /// and settlement), so that a change to the table can change how it plays: `Some(true)`
    /// or `Some(false)` where taisim knows, `None` where it cannot. `search` does: it plays
    /// the action of highest expected points, scored under the variant it plays; so does
    /// `value`, which weighs its waits by what the table pays. Greedy, defensive, random,
    /// trained and `policy:PATH` do not: they choose by hand shape and safety, by chance or
    /// by a policy's weights, whose observation holds the engine's rules but no tai, so on
    /// the same walls under the same engine rules they play every deal the same whatever the
    /// table, and a comparison of two tables then only scores the same play twice. An outside
    /// bot (`exec:`) is told the variant's name in its hello and may play by it; what it does
    /// with it taisim cannot know, so neither answer would be true of every bot. This is the
    /// answer under a variant without a minimum (起胡); see
    /// [`AgentSpec::responds_to_scoring_under`].
    pub const fn responds_to_scoring(&self) -> Option<bool> {
        match self {
            AgentSpec::Search(_) | AgentSpec::Value => Some(true),
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::Defensive
            | AgentSpec::Trained
            | AgentSpec::Policy(_) => Some(false),
            AgentSpec::Exec(_) => None,
        }
    }

    /// [`AgentSpec::responds_to_scoring`] under a variant that sets a minimum (起胡) when
    /// `minimum`: greedy, defensive and the policies (which leave wins to greedy) let a win
    /// below it go, and the table decides which wins those are, so there they respond.
    /// Random plays by chance under any table.
    pub const fn responds_to_scoring_under(&self, minimum: bool) -> Option<bool> {
        match self {
            AgentSpec::Greedy
            | AgentSpec::Defensive
            | AgentSpec::Trained
            | AgentSpec::Policy(_)
                if minimum =>
            {
                Some(true)
            }
            _ => self.responds_to_scoring(),
        }
    }

    /// Whether a decision of the agent costs thousands of times what the engine's own
    /// agents' do: the search (tens of milliseconds: it plays thousands of rollouts) and an
    /// outside bot (a round trip to another process, whose cost taisim cannot know). A run
    /// seating one is cut into small parts by default, so that every thread has parts to
    /// play (a part is the unit a thread plays).
    pub const fn plays_slowly(&self) -> bool {
        match self {
            AgentSpec::Search(_) | AgentSpec::Exec(_) => true,
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::Defensive
            | AgentSpec::Value
            | AgentSpec::Trained
            | AgentSpec::Policy(_) => false,
        }
    }

    /// Builds the agent for deals of `variant` (reading the weights file of a policy; the
    /// search scores its rollouts under the variant).
    pub fn build(&self, variant: &Arc<Variant>) -> Result<BuiltinAgent, PolicyError> {
        self.build_with(variant, &ExecSettings::default())
    }

    /// [`AgentSpec::build`], an `exec:` agent run with `settings`.
    pub fn build_with(
        &self,
        variant: &Arc<Variant>,
        settings: &ExecSettings,
    ) -> Result<BuiltinAgent, PolicyError> {
        Ok(match self {
            AgentSpec::Random => BuiltinAgent::Random(RandomAgent::new()),
            AgentSpec::Greedy => {
                BuiltinAgent::Greedy(GreedyAgent::with_minimum(Minimum::of_shared(variant)))
            }
            AgentSpec::Defensive => {
                BuiltinAgent::Defensive(DefensiveAgent::new().for_variant(variant))
            }
            AgentSpec::Value => BuiltinAgent::Value(ValueAgent::new(Arc::clone(variant))),
            AgentSpec::Trained => {
                BuiltinAgent::Policy(PolicyAgent::trained()?.for_variant(variant))
            }
            AgentSpec::Policy(path) => BuiltinAgent::Policy(
                PolicyAgent::new(Arc::new(Policy::load(path)?)).for_variant(variant),
            ),
            AgentSpec::Search(spec) => BuiltinAgent::Search(Box::new(
                SearchAgent::new(Arc::clone(variant), spec.config())
                    .with_name(format!("search:{spec}")),
            )),
            AgentSpec::Exec(command) => BuiltinAgent::Exec(ExecAgent::new(
                command,
                Arc::clone(variant),
                settings.clone(),
            )),
        })
    }
}

/// The settings a search agent's name may change, as `search:N:SETTING=VALUE` names them.
///
/// The first eight are in the order the `search_truth` example reads them positionally; a
/// new setting goes at the end.
pub const SEARCH_SETTINGS: [&str; 11] = [
    "margin",
    "first",
    "indifference",
    "prune",
    "rollout",
    "draws",
    "opening",
    "opening_discards",
    "own",
    "wins",
    "threads",
];

/// A search agent as named: its budget and the settings its name changes from
/// [`SearchConfig::with_budget`]'s, so that a configuration tuned on development seeds can be
/// played by `simulate`, `arena` and the Python package exactly as tuned. The real-valued
/// settings are kept as the bits of the `f64` read, so that a name compares and hashes as
/// itself and prints back as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SearchSpec {
    pub determinizations: u32,
    /// Standard errors another action's advantage must exceed ([`SearchConfig::margin`]).
    margin: Option<u64>,
    /// The racing's first round, in determinizations.
    first: Option<u32>,
    /// The gain, in points, the racing deems worth its rollouts.
    indifference: Option<u64>,
    /// Whether the prior prunes the turn's candidates (`prune=prior`) or not (`prune=all`).
    prune: Option<bool>,
    /// The rollouts' policy (`rollout=greedy` or `rollout=fast`).
    rollout: Option<RolloutPolicy>,
    /// How the rollouts' walls are drawn (`draws=seat` or `draws=wall`).
    draws: Option<Draws>,
    /// The racing's indifference in the deal's opening (see [`Schedule::Racing`]).
    opening: Option<u64>,
    /// Discards on the table that end the opening ([`OPENING_DISCARDS`](crate::search::OPENING_DISCARDS) unless
    /// named).
    opening_discards: Option<u32>,
    /// The searching seat's own policy (`own=greedy` or `own=value`).
    own: Option<OwnPolicy>,
    /// Whether a win offered is taken (`wins=take`) or searched (`wins=search`).
    wins: Option<Wins>,
    /// Threads a decision's rollouts are played on ([`SearchConfig::threads`]): the same
    /// play on any number.
    threads: Option<u32>,
}

impl SearchSpec {
    /// Plain `search`, as tuned ([`SearchConfig::plain`]): its name in full is
    /// `search:2048:indifference=0.05:opening=0.2:opening_discards=32`.
    pub const DEFAULT: SearchSpec = {
        let mut spec = SearchSpec::with_budget(SearchConfig::DEFAULT_DETERMINIZATIONS);
        spec.indifference = Some(SearchConfig::PLAIN_LATE_INDIFFERENCE.to_bits());
        spec.opening = Some(SearchConfig::INDIFFERENCE.to_bits());
        spec.opening_discards = Some(PLAIN_LATE_DISCARDS);
        spec
    };

    /// `search:N`, untuned.
    pub const fn with_budget(determinizations: u32) -> SearchSpec {
        SearchSpec {
            determinizations,
            margin: None,
            first: None,
            indifference: None,
            prune: None,
            rollout: None,
            draws: None,
            opening: None,
            opening_discards: None,
            own: None,
            wins: None,
            threads: None,
        }
    }

    /// The configuration the name asks for.
    pub fn config(&self) -> SearchConfig {
        let mut config = SearchConfig::with_budget(self.determinizations);
        if let Some(m) = self.margin {
            config.margin = f64::from_bits(m);
        }
        if let Some(p) = self.prune {
            config.prune = p;
        }
        if let Some(r) = self.rollout {
            config.rollout = r;
        }
        if let Some(d) = self.draws {
            config.draws = d;
        }
        if let Some(o) = self.own {
            config.own = o;
        }
        if let Some(w) = self.wins {
            config.wins = w;
        }
        if let Some(t) = self.threads {
            config.threads = t;
        }
        if let Schedule::Racing {
            first,
            indifference,
            opening,
            opening_discards,
            ..
        } = &mut config.schedule
        {
            if let Some(x) = self.opening {
                *opening = Some(f64::from_bits(x));
            }
            if let Some(n) = self.opening_discards {
                *opening_discards = n;
            }
            if let Some(f) = self.first {
                *first = f;
            }
            if let Some(x) = self.indifference {
                *indifference = f64::from_bits(x);
            }
        }
        config
    }

    fn set(&mut self, setting: &str) -> Result<(), AgentParseError> {
        let unknown = || AgentParseError::SearchSetting(setting.to_string());
        let (name, value) = setting.split_once('=').ok_or_else(unknown)?;
        let bad = |setting: &str, problem: &str| {
            AgentParseError::SearchSettingValue(format!("{setting}: {problem}; got {value:?}"))
        };
        let points = |setting: &str, problem: &str| {
            value
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .map(f64::to_bits)
                .ok_or_else(|| bad(setting, problem))
        };
        // A whole number from 1 to `most`.
        let count = |setting: &str, most: u32, problem: &str| {
            value
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=most).contains(n))
                .ok_or_else(|| bad(setting, problem))
        };
        match name {
            "margin" => {
                self.margin = Some(points("margin", "standard errors, a number 0 or more")?)
            }
            "indifference" => {
                self.indifference = Some(points("indifference", "points, a number 0 or more")?)
            }
            "opening" => self.opening = Some(points("opening", "points, a number 0 or more")?),
            "opening_discards" => {
                self.opening_discards = Some(
                    value
                        .parse::<u32>()
                        .map_err(|_| bad("opening_discards", "a whole number of discards"))?,
                )
            }
            "first" => {
                self.first = Some(count(
                    "first",
                    SearchConfig::MAX_DETERMINIZATIONS,
                    "a whole number of determinizations from 1 to 2^20",
                )?)
            }
            "prune" => {
                self.prune = Some(match value {
                    "prior" => true,
                    "all" => false,
                    _ => return Err(bad("prune", "prior or all")),
                })
            }
            "rollout" => {
                self.rollout = Some(match value {
                    "greedy" => RolloutPolicy::Greedy,
                    "fast" => RolloutPolicy::Fast,
                    _ => return Err(bad("rollout", "greedy or fast")),
                })
            }
            "own" => {
                self.own = Some(match value {
                    "greedy" => OwnPolicy::Greedy,
                    "value" => OwnPolicy::Value,
                    _ => return Err(bad("own", "greedy or value")),
                })
            }
            "wins" => {
                self.wins = Some(match value {
                    "take" => Wins::Take,
                    "search" => Wins::Search,
                    _ => return Err(bad("wins", "take or search")),
                })
            }
            "threads" => {
                self.threads = Some(count(
                    "threads",
                    SearchConfig::MAX_THREADS,
                    "a whole number of threads from 1 to 256",
                )?)
            }
            "draws" => {
                self.draws = Some(match value {
                    "seat" => Draws::BySeat,
                    "wall" => Draws::Wall,
                    _ => return Err(bad("draws", "seat or wall")),
                })
            }
            _ => return Err(unknown()),
        }
        Ok(())
    }
}

/// `N` or `N:SETTING=VALUE:...`, what follows `search:`; or `SETTING=VALUE:...`, plain
/// `search` with those settings changed (`search:threads=4`).
impl FromStr for SearchSpec {
    type Err = AgentParseError;

    fn from_str(s: &str) -> Result<SearchSpec, AgentParseError> {
        let mut parts = s.split(':').peekable();
        let first = parts.peek().copied().unwrap_or_default();
        let mut spec = if first.contains('=') {
            SearchSpec::DEFAULT
        } else {
            parts.next();
            match first.parse::<u32>() {
                Ok(n) if (1..=SearchConfig::MAX_DETERMINIZATIONS).contains(&n) => {
                    SearchSpec::with_budget(n)
                }
                _ => return Err(AgentParseError::SearchBudget(first.to_string())),
            }
        };
        let mut named: Vec<&str> = Vec::new();
        for setting in parts {
            let name = setting.split_once('=').map_or(setting, |(name, _)| name);
            if named.contains(&name) {
                return Err(AgentParseError::SearchSettingTwice(name.to_string()));
            }
            named.push(name);
            spec.set(setting)?;
        }
        Ok(spec)
    }
}

/// What follows `search:` (the settings in a fixed order, each once).
impl fmt::Display for SearchSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.determinizations)?;
        if let Some(m) = self.margin {
            write!(f, ":margin={}", f64::from_bits(m))?;
        }
        if let Some(x) = self.first {
            write!(f, ":first={x}")?;
        }
        if let Some(x) = self.indifference {
            write!(f, ":indifference={}", f64::from_bits(x))?;
        }
        if let Some(x) = self.opening {
            write!(f, ":opening={}", f64::from_bits(x))?;
        }
        if let Some(n) = self.opening_discards {
            write!(f, ":opening_discards={n}")?;
        }
        if let Some(o) = self.own {
            write!(f, ":own={}", o.name())?;
        }
        if let Some(p) = self.prune {
            f.write_str(if p { ":prune=prior" } else { ":prune=all" })?;
        }
        if let Some(r) = self.rollout {
            f.write_str(match r {
                RolloutPolicy::Greedy => ":rollout=greedy",
                RolloutPolicy::Fast => ":rollout=fast",
            })?;
        }
        if let Some(d) = self.draws {
            f.write_str(match d {
                Draws::BySeat => ":draws=seat",
                Draws::Wall => ":draws=wall",
            })?;
        }
        if let Some(w) = self.wins {
            f.write_str(match w {
                Wins::Take => ":wins=take",
                Wins::Search => ":wins=search",
            })?;
        }
        if let Some(t) = self.threads {
            write!(f, ":threads={t}")?;
        }
        Ok(())
    }
}

/// Parses `--agents`: one name for all four seats, or four comma-separated names in seat
/// order E, S, W, N.
pub fn parse_agents(s: &str) -> Result<[AgentSpec; 4], AgentParseError> {
    let names: Vec<&str> = s.split(',').collect();
    match names.len() {
        1 => {
            let spec: AgentSpec = names[0].parse()?;
            Ok([spec.clone(), spec.clone(), spec.clone(), spec])
        }
        4 => Ok([
            names[0].parse()?,
            names[1].parse()?,
            names[2].parse()?,
            names[3].parse()?,
        ]),
        n if s.contains("exec:") => Err(AgentParseError::CommaInCommand(n)),
        n => Err(AgentParseError::WrongCount(n)),
    }
}

/// Builds the four agents of a parsed `--agents` for deals of `variant`, loading each
/// distinct policy file once (the weights are shared between seats).
pub fn build_agents(
    specs: &[AgentSpec; 4],
    variant: &Arc<Variant>,
) -> Result<[BuiltinAgent; 4], PolicyError> {
    build_agents_with(specs, variant, &ExecSettings::default())
}

/// [`build_agents`], `exec:` agents run with `settings`. Seats that name the same command
/// share one process (it serves all of them, each message naming its seat).
pub fn build_agents_with(
    specs: &[AgentSpec; 4],
    variant: &Arc<Variant>,
    settings: &ExecSettings,
) -> Result<[BuiltinAgent; 4], PolicyError> {
    let mut built: Vec<BuiltinAgent> = Vec::with_capacity(4);
    for (i, spec) in specs.iter().enumerate() {
        let same = specs[..i].iter().position(|s| s == spec);
        built.push(match same {
            Some(j) => built[j].clone(),
            None => spec.build_with(variant, settings)?,
        });
    }
    Ok(built
        .try_into()
        .unwrap_or_else(|_| unreachable!("four specs")))
}

/// Any built-in agent, dispatched without a box (cloneable, so a batch of environments can
/// copy one set of opponents; a policy's weights are shared, not copied).
#[derive(Clone, Debug)]
pub enum BuiltinAgent {
    Random(RandomAgent),
    Greedy(GreedyAgent),
    Defensive(DefensiveAgent),
    Value(ValueAgent),
    Policy(PolicyAgent),
    /// Boxed: its scratch is large next to the other agents.
    Search(Box<SearchAgent>),
    /// A program outside taisim (see [`crate::exec`]).
    Exec(ExecAgent),
}

impl BuiltinAgent {
    /// Whether a decision may take long: a search's, or an `exec:` bot's (a process outside
    /// taisim, waited for up to its timeout).
    pub fn may_take_long(&self) -> bool {
        matches!(self, BuiltinAgent::Search(_) | BuiltinAgent::Exec(_))
    }

    /// Stops a search's decisions once `flag` is set ([`SearchAgent::cancel_on`]), and an
    /// `exec:` bot's waits ([`ExecAgent::cancel_on`], which ends the bot); the other agents
    /// decide at once anyway.
    pub fn cancel_on(&mut self, flag: &Arc<AtomicBool>) {
        match self {
            BuiltinAgent::Search(a) => a.cancel_on(Arc::clone(flag)),
            BuiltinAgent::Exec(a) => a.cancel_on(flag),
            _ => {}
        }
    }

    /// What a search agent worked out at its last decision; `None` for the other agents.
    pub fn search_decision(&self) -> Option<&SearchDecision> {
        match self {
            BuiltinAgent::Search(a) => Some(a.last_decision()),
            _ => None,
        }
    }
}

impl Agent for BuiltinAgent {
    fn reset(&mut self, seed: u64, seat: Seat) {
        match self {
            BuiltinAgent::Random(a) => a.reset(seed, seat),
            BuiltinAgent::Greedy(a) => a.reset(seed, seat),
            BuiltinAgent::Defensive(a) => a.reset(seed, seat),
            BuiltinAgent::Value(a) => a.reset(seed, seat),
            BuiltinAgent::Policy(a) => a.reset(seed, seat),
            BuiltinAgent::Search(a) => a.reset(seed, seat),
            BuiltinAgent::Exec(a) => a.reset(seed, seat),
        }
    }

    #[inline]
    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        match self {
            BuiltinAgent::Random(a) => a.act(view, legal),
            BuiltinAgent::Greedy(a) => a.act(view, legal),
            BuiltinAgent::Defensive(a) => a.act(view, legal),
            BuiltinAgent::Value(a) => a.act(view, legal),
            BuiltinAgent::Policy(a) => a.act(view, legal),
            BuiltinAgent::Search(a) => a.act(view, legal),
            BuiltinAgent::Exec(a) => a.act(view, legal),
        }
    }

    #[inline]
    fn act_in(&mut self, deal: &Deal, seat: Seat, scratch: &mut ActionList) -> Action {
        match self {
            BuiltinAgent::Random(a) => a.act_in(deal, seat, scratch),
            BuiltinAgent::Greedy(a) => a.act_in(deal, seat, scratch),
            BuiltinAgent::Defensive(a) => a.act_in(deal, seat, scratch),
            BuiltinAgent::Value(a) => a.act_in(deal, seat, scratch),
            BuiltinAgent::Policy(a) => a.act_in(deal, seat, scratch),
            BuiltinAgent::Search(a) => a.act_in(deal, seat, scratch),
            BuiltinAgent::Exec(a) => a.act_in(deal, seat, scratch),
        }
    }

    fn sees_steps(&self) -> bool {
        matches!(self, BuiltinAgent::Exec(_))
    }

    fn see(&mut self, deal: &Deal, action: Option<Action>) {
        if let BuiltinAgent::Exec(a) = self {
            a.see(deal, action);
        }
    }

    fn fault(&self) -> Option<BotFault> {
        match self {
            BuiltinAgent::Exec(a) => a.fault(),
            _ => None,
        }
    }

    fn name(&self) -> &str {
        match self {
            BuiltinAgent::Random(a) => a.name(),
            BuiltinAgent::Greedy(a) => a.name(),
            BuiltinAgent::Defensive(a) => a.name(),
            BuiltinAgent::Value(a) => a.name(),
            BuiltinAgent::Policy(a) => a.name(),
            BuiltinAgent::Search(a) => a.name(),
            BuiltinAgent::Exec(a) => a.name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_name_or_four() {
        let all = parse_agents("greedy").unwrap();
        assert!(all.iter().all(|s| *s == AgentSpec::Greedy));
        let four = parse_agents("random, greedy,defensive,policy:w/x.safetensors").unwrap();
        assert_eq!(
            four,
            [
                AgentSpec::Random,
                AgentSpec::Greedy,
                AgentSpec::Defensive,
                AgentSpec::Policy(PathBuf::from("w/x.safetensors"))
            ]
        );
        assert!(parse_agents("trained")
            .unwrap()
            .iter()
            .all(|s| *s == AgentSpec::Trained));
        for spec in four.iter().chain([&AgentSpec::Trained]) {
            assert_eq!(spec.to_string().parse::<AgentSpec>().as_ref(), Ok(spec));
        }
    }

    #[test]
    fn errors_name_the_problem_and_the_known_agents() {
        let err = parse_agents("greedy,smart,random,random").unwrap_err();
        assert_eq!(
            err,
            AgentParseError::Unknown {
                name: "smart".into()
            }
        );
        let msg = err.to_string();
        for known in KNOWN_AGENTS {
            assert!(msg.contains(known), "{msg}");
        }
        assert_eq!(
            parse_agents("random,random").unwrap_err(),
            AgentParseError::WrongCount(2)
        );
        let err = parse_agents("exec:./bot --seats=E,S").unwrap_err();
        assert_eq!(err, AgentParseError::CommaInCommand(2));
        assert!(
            err.to_string().contains("comma inside an exec: command"),
            "{err}"
        );
        assert_eq!(
            parse_agents("policy:").unwrap_err(),
            AgentParseError::MissingPolicyPath
        );
        assert!(matches!(
            parse_agents("").unwrap_err(),
            AgentParseError::Unknown { .. }
        ));
    }

    #[test]
    fn a_tuned_search_gets_the_settings_its_name_gives_and_prints_back_as_written() {
        let plain: AgentSpec = "search".parse().unwrap();
        // Plain `search` is tuned; its settings in full name the same agent.
        let in_full: AgentSpec = "search:2048:indifference=0.05:opening=0.2:opening_discards=32"
            .parse()
            .unwrap();
        assert_eq!(plain, in_full);
        assert_eq!(in_full.to_string(), "search");
        assert_ne!(plain, "search:2048".parse().unwrap());
        assert_eq!(plain.to_string(), "search");
        let AgentSpec::Search(spec) = &plain else {
            panic!("{plain:?}")
        };
        assert_eq!(spec.config(), SearchConfig::default());
        // Settings without a budget change plain `search`'s, which its name then spells out.
        let threaded: AgentSpec = "search:threads=4".parse().unwrap();
        assert_eq!(
            threaded.to_string(),
            "search:2048:indifference=0.05:opening=0.2:opening_discards=32:threads=4"
        );
        let AgentSpec::Search(t) = &threaded else {
            panic!("{threaded:?}")
        };
        assert_eq!(
            t.config(),
            SearchConfig {
                threads: 4,
                ..SearchConfig::default()
            }
        );
        // A run records it as plain `search`: threads change how fast it plays, not what.
        assert_eq!(threaded.recorded(), plain);
        assert_eq!(threaded.recorded().to_string(), "search");
        for (name, recorded) in [
            ("search:256:threads=2", "search:256"),
            ("search:64:own=value:threads=3", "search:64:own=value"),
            ("search:64:own=value", "search:64:own=value"),
            ("greedy", "greedy"),
            ("policy:w.safetensors", "policy:w.safetensors"),
        ] {
            let agent: AgentSpec = name.parse().unwrap();
            assert_eq!(agent.recorded().to_string(), recorded, "{name}");
        }
        let late: AgentSpec = "search:opening_discards=24:margin=2".parse().unwrap();
        assert_eq!(
            late.to_string(),
            "search:2048:margin=2:indifference=0.05:opening=0.2:opening_discards=24"
        );
        assert_eq!(
            spec.config().schedule,
            Schedule::Racing {
                first: 64,
                cull: 1.5,
                indifference: 0.05,
                opening: Some(0.2),
                opening_discards: 32,
            }
        );
        // `search:2048` is the untuned budget: 0.2 throughout.
        let AgentSpec::Search(budget) = "search:2048".parse().unwrap() else {
            unreachable!()
        };
        assert_eq!(budget.config(), SearchConfig::with_budget(2048));

        let name =
            "search:512:margin=0.5:first=32:indifference=0.05:opening=0.2:opening_discards=8:own=value:prune=all:rollout=fast:draws=seat:wins=take:threads=3";
        let tuned: AgentSpec = name.parse().unwrap();
        assert_eq!(tuned.to_string(), name);
        let AgentSpec::Search(spec) = &tuned else {
            panic!("{tuned:?}")
        };
        let config = spec.config();
        assert_eq!(config.determinizations, 512);
        assert_eq!(config.margin, 0.5);
        assert!(!config.prune);
        assert_eq!(config.rollout, RolloutPolicy::Fast);
        assert_eq!(config.draws, Draws::BySeat);
        assert_eq!(config.own, OwnPolicy::Value);
        assert_eq!(config.wins, Wins::Take);
        assert_eq!(config.threads, 3);
        assert_eq!(
            config.schedule,
            Schedule::Racing {
                first: 32,
                cull: 1.5,
                indifference: 0.05,
                opening: Some(0.2),
                opening_discards: 8,
            }
        );
        // Settings in another order name the same agent, printed in the fixed order.
        let reordered: AgentSpec =
            "search:512:threads=3:wins=take:draws=seat:own=value:opening_discards=8:opening=0.2:rollout=fast:prune=all:indifference=0.05:first=32:margin=0.5"
                .parse()
                .unwrap();
        assert_eq!(reordered, tuned);
        assert_eq!(reordered.to_string(), name);
        // One setting, the others as `search:N` has them.
        let one: AgentSpec = "search:2048:indifference=0.1".parse().unwrap();
        let AgentSpec::Search(spec) = &one else {
            panic!("{one:?}")
        };
        let expected = SearchConfig {
            schedule: Schedule::Racing {
                first: 64,
                cull: 1.5,
                indifference: 0.1,
                opening: None,
                opening_discards: 16,
            },
            ..SearchConfig::with_budget(2048)
        };
        assert_eq!(spec.config(), expected);
        // A tuned agent is named as tuned (the arena and the datasets show its name).
        let agent = one
            .build(&Arc::new(Variant::builtin("taiwan16").unwrap()))
            .unwrap();
        assert_eq!(agent.name(), "search:2048:indifference=0.1");
        let untuned: AgentSpec = "search:2048".parse().unwrap();
        let untuned = untuned
            .build(&Arc::new(Variant::builtin("taiwan16").unwrap()))
            .unwrap();
        assert_eq!(untuned.name(), "search:2048");
        // Plain `search` is named in full where its settings matter (a run's agents).
        let plain = plain
            .build(&Arc::new(Variant::builtin("taiwan16").unwrap()))
            .unwrap();
        assert_eq!(
            plain.name(),
            "search:2048:indifference=0.05:opening=0.2:opening_discards=32"
        );
        // `in_full` names each agent as it is built: plain `search` with its settings.
        let plain_spec: AgentSpec = "search".parse().unwrap();
        assert_eq!(plain_spec.in_full(), plain.name());
        assert_eq!(one.in_full(), "search:2048:indifference=0.1");
        let policy: AgentSpec = "policy:w.safetensors".parse().unwrap();
        assert_eq!(policy.in_full(), "policy:w.safetensors");
        assert_eq!(AgentSpec::Greedy.in_full(), "greedy");
        // Four seats, one of them tuned: the settings' colons do not split the list.
        let four = parse_agents("search:64:prune=all,greedy,greedy,greedy").unwrap();
        assert_eq!(four[0].to_string(), "search:64:prune=all");
        // The rollout policy named as the default's is kept in the name, and plays as it.
        let greedy: AgentSpec = "search:64:rollout=greedy".parse().unwrap();
        assert_eq!(greedy.to_string(), "search:64:rollout=greedy");
        let AgentSpec::Search(spec) = &greedy else {
            panic!("{greedy:?}")
        };
        assert_eq!(spec.config(), SearchConfig::with_budget(64));
        // Either way of drawing the rollouts' walls can be named.
        let wall: AgentSpec = "search:64:draws=wall".parse().unwrap();
        assert_eq!(wall.to_string(), "search:64:draws=wall");
        let AgentSpec::Search(spec) = &wall else {
            panic!("{wall:?}")
        };
        assert_eq!(spec.config().draws, Draws::Wall);
        // The seat's own policy named as the default's plays as the default.
        let own: AgentSpec = "search:64:own=greedy".parse().unwrap();
        assert_eq!(own.to_string(), "search:64:own=greedy");
        let AgentSpec::Search(spec) = &own else {
            panic!("{own:?}")
        };
        assert_eq!(spec.config(), SearchConfig::with_budget(64));
    }

    #[test]
    fn a_bad_search_setting_is_named() {
        for (name, expected) in [
            ("search:64:speed=3", "search setting \"speed=3\""),
            ("search:64:", "search setting \"\""),
            ("search:64:margin", "search setting \"margin\""),
            ("search:64:margin=-1", "search setting margin"),
            ("search:64:margin=nan", "search setting margin"),
            ("search:64:indifference=x", "search setting indifference"),
            ("search:64:opening=-0.1", "search setting opening"),
            (
                "search:64:opening_discards=-1",
                "search setting opening_discards: a whole number",
            ),
            ("search:64:first=0", "search setting first"),
            ("search:64:prune=some", "search setting prune: prior or all"),
            ("search:64:own=smart", "search setting own: greedy or value"),
            (
                "search:64:wins=never",
                "search setting wins: take or search",
            ),
            (
                "search:64:rollout=smart",
                "search setting rollout: greedy or fast",
            ),
            (
                "search:64:draws=front",
                "search setting draws: seat or wall",
            ),
            (
                "search:64:threads=0",
                "search setting threads: a whole number",
            ),
            ("search:64:threads=257", "from 1 to 256"),
            ("search:64:threads=two", "search setting threads"),
            ("search:0:prune=all", "whole number of determinizations"),
            ("search:threads", "whole number of determinizations"),
            ("search:threads=4:256", "search setting \"256\""),
            (
                "search:16:indifference=0.1:indifference=0.2",
                "search setting \"indifference\" is given twice",
            ),
            (
                "search:own=value:threads=2:own=greedy",
                "search setting \"own\" is given twice",
            ),
        ] {
            let err = name.parse::<AgentSpec>().unwrap_err().to_string();
            assert!(err.contains(expected), "{name}: {err}");
        }
        let err = "search:64:speed=3"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        for setting in SEARCH_SETTINGS {
            assert!(err.contains(setting), "{err}");
        }
    }
}
