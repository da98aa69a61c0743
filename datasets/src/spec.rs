//! What a run plays: the variant, deals or full games, how many, the seed, the agents, the
//! shard. Everything that decides the rows, and nothing that does not (threads, progress).

use core::fmt;
use core::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use taisim_agents::{parse_agents, AgentSpec};
use taisim_score::Variant;
use taisim_sim::Seat;

use crate::error::HarnessError;
use crate::table::DecisionSeats;

/// Independent deals, or full games (four rounds with dealer continuation).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Deal i is the first deal of a game (East round, E deals), seeded from (run seed, i).
    Deals,
    /// Game g is seeded from (run seed, g); its deal j from (game seed, j).
    Games,
}

impl Unit {
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Deals => "deals",
            Unit::Games => "games",
        }
    }

    /// Units per part when the user does not say: about 65,000 deals either way, so a part
    /// is a few MB in memory and one row group of the deals table.
    pub const fn default_part_size(self) -> u64 {
        match self {
            Unit::Deals => 65_536,
            Unit::Games => 2_048,
        }
    }

    /// The default part size of a run seating an agent that plays slowly (the search, an
    /// outside bot; [`AgentSpec::plays_slowly`]), or labelled by the search
    /// ([`RunSpec::default_part_size`]).
    pub const fn slow_part_size(self) -> u64 {
        match self {
            Unit::Deals => 64,
            // About 20 deals a game.
            Unit::Games => 4,
        }
    }
}

/// `--shard K/N`: the K-th (1-based) of N disjoint ranges of parts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    pub const fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Whether `1 <= index <= count`; a shard read from a file may break it.
    pub const fn is_valid(self) -> bool {
        self.index >= 1 && self.index <= self.count
    }

    /// The parts `[first, end)` of `parts` this shard plays: contiguous, disjoint across the
    /// shards, and covering all of them. An invalid shard (see [`Shard::is_valid`]) plays
    /// none rather than dividing by zero.
    pub const fn parts(self, parts: u64) -> (u64, u64) {
        if !self.is_valid() {
            return (0, 0);
        }
        let k = (self.index - 1) as u128;
        let n = self.count as u128;
        // In u128: `k * parts` overflows u64 for runs of more than 2^32 parts' worth.
        let p = parts as u128;
        ((k * p / n) as u64, ((k + 1) * p / n) as u64)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("a shard is K/N with 1 <= K <= N (as in 3/8), not {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a run's records (the manifest, the journal, every part's footer) say of its variant:
/// its name, where it was read from, and its text's SHA-256. A spec read back from a record
/// names its variant so ([`RecordedSpec`]) until the variant is read again and checked
/// against the hash ([`crate::recorded_spec`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantRecord {
    /// The name inside the file (`taiwan16`, …).
    pub name: String,
    /// `builtin:NAME` or the path it was read from.
    pub origin: String,
    /// SHA-256 of the TOML text, hex.
    pub sha256: String,
}

/// The first line of a run's `variant.toml` when the variant asked for extends another.
pub const RESOLVED_HEADER: &str =
    "# Resolved from a variant file that extends another: its base with its changes laid \
     over (taisim variant show FILE --diff prints the changes alone).\n";

/// The variant a run plays: parsed and validated once, where the run is asked for, and then
/// handed to every stage as this object (the agents, the engine's rules, the scorer, the
/// rows), with its exact text (copied into the run directory) and its record (for the
/// manifest, which it serializes as).
#[derive(Clone)]
pub struct RunVariant {
    record: VariantRecord,
    text: Arc<str>,
    variant: Arc<Variant>,
}

impl RunVariant {
    /// A shipped variant by name, or else a TOML file by path ([`Variant::find`], the one
    /// lookup of names and paths), parsed.
    pub fn by_name_or_path(name: &str) -> Result<RunVariant, HarnessError> {
        let found = Variant::find(name)?;
        RunVariant::from_text(found.text, found.origin)
    }

    /// Parses a variant's TOML text, read from `origin` (`builtin:NAME` or a path).
    pub fn from_text(
        text: impl Into<Arc<str>>,
        origin: String,
    ) -> Result<RunVariant, HarnessError> {
        let text: Arc<str> = text.into();
        let variant = Variant::from_toml_str(&text, &origin)?;
        // A file that extends another does not stand alone (its base may change, or be out
        // of reach of the run directory): the run keeps the variant it resolves to.
        let text: Arc<str> = if Variant::text_extends(&text) {
            format!("{RESOLVED_HEADER}{}", variant.to_toml()).into()
        } else {
            text
        };
        Ok(RunVariant {
            record: VariantRecord {
                name: variant.name().to_string(),
                origin,
                sha256: sha256_hex(text.as_bytes()),
            },
            text,
            variant: Arc::new(variant),
        })
    }

    /// The SHA-256 a run records of the variant `name` finds (a shipped name, or else a
    /// file's path), as [`RunVariant::by_name_or_path`] reads it; `None` when it does not read.
    /// A bot compares it with the one a table sends with each deal.
    pub fn recorded_sha256(name: &str) -> Option<String> {
        RunVariant::by_name_or_path(name)
            .ok()
            .map(|v| v.record.sha256)
    }

    /// The variant itself, shared.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// What the run's records say of it.
    pub fn record(&self) -> &VariantRecord {
        &self.record
    }

    /// The name inside the file.
    pub fn name(&self) -> &str {
        &self.record.name
    }

    /// The TOML text it was parsed from, byte for byte; for a file that extends another,
    /// the whole variant it resolves to ([`RESOLVED_HEADER`] and [`Variant::to_toml`]).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Debug for RunVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunVariant")
            .field("record", &self.record)
            .finish_non_exhaustive()
    }
}

/// Two variants are the same when their records and texts are.
impl PartialEq for RunVariant {
    fn eq(&self, other: &RunVariant) -> bool {
        self.record == other.record && self.text == other.text
    }
}

impl Eq for RunVariant {}

/// As its record: what a manifest and a part's footer hold of it.
impl Serialize for RunVariant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.record.serialize(s)
    }
}

/// What a spec's variant slot holds: a loaded [`RunVariant`], or a [`VariantRecord`] read back
/// from a record. Either says what the records say of it.
pub trait SpecVariant {
    fn record(&self) -> &VariantRecord;
}

impl SpecVariant for VariantRecord {
    fn record(&self) -> &VariantRecord {
        self
    }
}

impl SpecVariant for RunVariant {
    fn record(&self) -> &VariantRecord {
        &self.record
    }
}

/// Lower-case hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The first 12 hex digits of a SHA-256, as messages and reports abbreviate it (the whole
/// text if it is shorter, or is not hex).
pub fn short_sha256(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// A game stops after this many deals even if the dealer keeps the deal (it never does in
/// practice: that needs tens of thousands of dealer wins or draws in a row). The bound keeps
/// `deal_in_game` a `u16` and the deal ids of different games apart.
pub const MAX_DEALS_PER_GAME: u64 = 1 << 16;

/// The deal id of deal `j` of game `g`.
pub const fn game_deal_id(game: u64, j: u64) -> u64 {
    game * MAX_DEALS_PER_GAME + j
}

/// Part files are numbered with five digits.
pub const MAX_PARTS: u64 = 99_999;

/// Everything that decides a run's rows: the variant it plays ([`RunVariant`], parsed
/// once), or as a record names it ([`RecordedSpec`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSpec<V = RunVariant> {
    pub variant: V,
    pub unit: Unit,
    /// Deals or games in the whole run (all shards).
    pub count: u64,
    pub seed: u64,
    /// Seat order E, S, W, N, as `--agents` spells them.
    #[serde(with = "agent_names")]
    pub agents: [AgentSpec; 4],
    /// Units per part file.
    pub part_size: u64,
    pub shard: Shard,
    /// Record each deal's decisions in the deals table's `actions` column.
    pub log_actions: bool,
    /// Settlement: each payment is `base + tai × per_tai`.
    pub base: i64,
    pub per_tai: i64,
    /// The seats whose decisions go to the decisions table; `None`: no such table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisions: Option<DecisionSeats>,
    /// A search agent (`search:N`) that labels every recorded decision with its estimates
    /// and its choice, while the seats play their own agents' actions (DAgger's expert).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "label_name")]
    pub label_with: Option<AgentSpec>,
}

/// What a run's `per_tai` pays for, as headers name it: a tai, or under a points variant a
/// point of the hand's value (its 胡數 doubled by each 台), which taizhou.toml calls 胡.
pub const fn stake_unit(points: bool) -> &'static str {
    if points {
        "point (胡)"
    } else {
        "tai"
    }
}

/// A spec as a manifest, a journal or a part's footer records it: the variant named by its
/// [`VariantRecord`], not yet read.
pub type RecordedSpec = RunSpec<VariantRecord>;

impl<V: SpecVariant> RunSpec<V> {
    /// The part size of a new run that asks for none: the unit's default; a 32nd of it with
    /// the decisions table (a part is held in memory until it is written, and a decision row
    /// is about 2 KB: 65,536 deals of about 40 rows each would take gigabytes per worker);
    /// and at most [`Unit::slow_part_size`] when a seat or the labeller plays slowly (a
    /// default part would be the whole run, played on one thread: a search deal takes about
    /// a second, a labelled one tens, so parts of a minute or two of one core's play keep
    /// every thread busy).
    pub fn default_part_size(&self) -> u64 {
        let mut size = self.unit.default_part_size();
        if self.decisions.is_some() {
            size /= 32;
        }
        let slow = self
            .agents
            .iter()
            .chain(&self.label_with)
            .any(AgentSpec::plays_slowly);
        if slow {
            size = size.min(self.unit.slow_part_size());
        }
        size
    }

    /// Checks what the argument types cannot. The messages name the setting, not a
    /// command-line flag: the Python bindings show them too.
    pub fn validate(&self) -> Result<(), HarnessError> {
        self.problem()
            .map_or(Ok(()), |p| Err(HarnessError::Usage(p)))
    }

    /// What makes the spec unplayable, if anything: a user's bad request, or (in a
    /// manifest read back) a damaged file.
    pub fn problem(&self) -> Option<String> {
        if self.count == 0 {
            return Some(format!(
                "the number of {} must be at least 1",
                self.unit.name()
            ));
        }
        // deal_id = g × 65536 + j must fit in 64 bits.
        if self.unit == Unit::Games && self.count > u64::MAX / MAX_DEALS_PER_GAME {
            return Some(format!(
                "{} games are more than deal ids can number (at most {})",
                self.count,
                u64::MAX / MAX_DEALS_PER_GAME
            ));
        }
        if self.part_size == 0 {
            return Some("the part size must be at least 1".into());
        }
        if !self.shard.is_valid() {
            return Some(format!("shard {} is not K/N with 1 <= K <= N", self.shard));
        }
        if let Some(labeller) = &self.label_with {
            if !matches!(labeller, AgentSpec::Search(_)) {
                return Some(format!(
                    "the labeller (--label-with, label_with) must be a search agent (search or search:N, or a tuned search:N:SETTING=VALUE or search:SETTING=VALUE), not {labeller}: its labels are a search's estimates"
                ));
            }
            if self.decisions.is_none() {
                return Some(
                    "a labeller (--label-with, label_with) labels the decisions table: record decisions too (--decisions, decisions)"
                        .into(),
                );
            }
        }
        // Out of these bounds a settlement could overflow; a record holding such stakes was
        // edited, as no run could have played them.
        if let Err(e) = taisim_score::check_stake_bounds(self.base, self.per_tai) {
            return Some(e.to_string());
        }
        if self.parts() > MAX_PARTS {
            return Some(format!(
                "{} {} in parts of {} make {} parts, more than the {MAX_PARTS} that five-digit part numbers allow; raise the part size to at least {}",
                self.count,
                self.unit.name(),
                self.part_size,
                self.parts(),
                self.count.div_ceil(MAX_PARTS)
            ));
        }
        None
    }

    /// Part files in the whole run (0 for a part size of 0, which [`RunSpec::validate`]
    /// refuses).
    pub const fn parts(&self) -> u64 {
        match self.part_size {
            0 => 0,
            size => self.count.div_ceil(size),
        }
    }

    /// The units `[first, end)` of part `p`.
    pub fn part_units(&self, p: u64) -> (u64, u64) {
        let first = p.saturating_mul(self.part_size).min(self.count);
        (first, first.saturating_add(self.part_size).min(self.count))
    }

    /// The parts this shard plays.
    pub fn shard_parts(&self) -> std::ops::Range<u64> {
        let (a, b) = self.shard.parts(self.parts());
        a..b
    }

    /// What part `p`'s footer records of it ([`PartOrigin`]).
    pub fn part_origin(&self, p: u64) -> PartOrigin {
        let (first, end) = self.part_units(p);
        PartOrigin {
            format: PART_ORIGIN_FORMAT.to_string(),
            variant: self.variant.record().name.clone(),
            variant_sha256: self.variant.record().sha256.clone(),
            unit: self.unit,
            count: self.count,
            seed: self.seed,
            agents: self.agents.each_ref().map(AgentSpec::recorded),
            part_size: self.part_size,
            log_actions: self.log_actions,
            base: self.base,
            per_tai: self.per_tai,
            decisions: self.decisions,
            label_with: self.label_with.as_ref().map(AgentSpec::recorded),
            part: p,
            units: [first, end],
        }
    }

    /// Whether the decisions table carries search labels: decisions are recorded, and a
    /// labeller is given or some recorded seat is played by a search agent.
    pub fn search_labels(&self) -> bool {
        let Some(seats) = self.decisions else {
            return false;
        };
        self.label_with.is_some()
            || Seat::ALL.iter().any(|&s| {
                seats.contains(s) && matches!(self.agents[s as usize], AgentSpec::Search(_))
            })
    }

    /// Whether an outside program (`exec:`) plays a seat.
    pub fn seats_bots(&self) -> bool {
        self.agents.iter().any(|a| matches!(a, AgentSpec::Exec(_)))
    }

    /// The agents as `--agents` spells them.
    pub fn agents_arg(&self) -> String {
        let names: Vec<String> = self.agents.iter().map(|a| a.to_string()).collect();
        names.join(",")
    }

    /// The spec as its records hold it: each agent as a run records it
    /// ([`AgentSpec::recorded`]: a search's threads left out, as the rows do not depend on
    /// them).
    pub fn record(&self) -> RecordedSpec {
        let mut record = self.with_variant(self.variant.record().clone());
        record.agents = record.agents.each_ref().map(AgentSpec::recorded);
        record.label_with = record.label_with.as_ref().map(AgentSpec::recorded);
        record
    }
}

impl<V> RunSpec<V> {
    /// The same spec with `variant` in its variant's place.
    pub fn with_variant<W>(&self, variant: W) -> RunSpec<W> {
        RunSpec {
            variant,
            unit: self.unit,
            count: self.count,
            seed: self.seed,
            agents: self.agents.clone(),
            part_size: self.part_size,
            shard: self.shard,
            log_actions: self.log_actions,
            base: self.base,
            per_tai: self.per_tai,
            decisions: self.decisions,
            label_with: self.label_with.clone(),
        }
    }
}

/// The key of every part file's footer that records the run it belongs to ([`PartOrigin`]).
pub const PART_ORIGIN_KEY: &str = "taisim.part";

/// The format of [`PartOrigin`]; bumped when a field changes meaning or the part's columns
/// change. `taisim-part/2` (issue 25): the wins and tai files have a `variant` column; a part
/// of `taisim-part/1` belongs to a run this taisim reads but does not resume.
pub const PART_ORIGIN_FORMAT: &str = "taisim-part/2";

/// What every part file's footer records of the run that wrote it (key [`PART_ORIGIN_KEY`]):
/// everything of the spec that decides its rows, and which part it is. Not the shard (it
/// says only who played the part: a sharded run's files are the unsharded run's) nor where
/// the variant was read from (its hash is here). With it a run directory that lost its
/// manifest can still be resumed, and a file of another run is told from the run's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartOrigin {
    pub format: String,
    pub variant: String,
    pub variant_sha256: String,
    pub unit: Unit,
    pub count: u64,
    pub seed: u64,
    #[serde(with = "agent_names")]
    pub agents: [AgentSpec; 4],
    pub part_size: u64,
    pub log_actions: bool,
    pub base: i64,
    pub per_tai: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisions: Option<DecisionSeats>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "label_name")]
    pub label_with: Option<AgentSpec>,
    /// The part, and the units `[first, end)` it holds.
    pub part: u64,
    pub units: [u64; 2],
}

impl PartOrigin {
    /// The footer's text: compact JSON, the same bytes for the same part.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a part origin serialises")
    }

    /// What the footer says of the variant (where it was read from is not recorded).
    pub fn variant_record(&self) -> VariantRecord {
        VariantRecord {
            name: self.variant.clone(),
            origin: String::new(),
            sha256: self.variant_sha256.clone(),
        }
    }

    /// The spec of the run that wrote the part, as shard `shard` with `variant` (whose hash
    /// the caller has checked against [`PartOrigin::variant_sha256`]).
    pub fn spec<V>(&self, variant: V, shard: Shard) -> RunSpec<V> {
        RunSpec {
            variant,
            unit: self.unit,
            count: self.count,
            seed: self.seed,
            agents: self.agents.clone(),
            part_size: self.part_size,
            shard,
            log_actions: self.log_actions,
            base: self.base,
            per_tai: self.per_tai,
            decisions: self.decisions,
            label_with: self.label_with.clone(),
        }
    }

    /// Whether two parts belong to one run (they may be different parts of it).
    pub fn same_run(&self, other: &PartOrigin) -> bool {
        PartOrigin {
            part: other.part,
            units: other.units,
            ..self.clone()
        } == *other
    }

    /// Why this footer, read from a file that should hold part `p` of `spec`, is not that
    /// part's: another run's (the first field that differs, `spec`'s side told as `ours`,
    /// "this run has") or another part of the same run; `None` when it is the part's. The
    /// format is the caller's to judge: a resume takes only this taisim's, a reader an older
    /// run's older footers too. Both ask this one question, so a file a resume would refuse
    /// as another run's is never counted by a report as the run's own.
    pub(crate) fn mismatch<V: SpecVariant>(
        &self,
        spec: &RunSpec<V>,
        p: u64,
        ours: &str,
    ) -> Option<String> {
        let expected = PartOrigin {
            format: self.format.clone(),
            ..spec.part_origin(p)
        };
        if *self == expected {
            return None;
        }
        if !self.same_run(&expected) {
            let theirs = self.spec(self.variant_record(), spec.shard);
            return Some(spec_difference(&theirs, spec, ["the file has", ours]));
        }
        Some(format!(
            "it holds part {} (units {:?}), not part {p} (units {:?})",
            self.part, self.units, expected.units
        ))
    }
}

/// Whether two specs describe the same rows: everything but where the variant was read from
/// (its name and hash are compared, not its text).
pub(crate) fn same_run<A: SpecVariant, B: SpecVariant>(a: &RunSpec<A>, b: &RunSpec<B>) -> bool {
    let plain = |s: RecordedSpec| RunSpec {
        variant: VariantRecord {
            origin: String::new(),
            ..s.variant
        },
        ..s
    };
    plain(a.record()) == plain(b.record())
}

/// The first field two specs disagree on, for an error message: "seed: the run has 42, the
/// command asks for 77" (`has` and `asks` name the two sides).
pub(crate) fn spec_difference<A: SpecVariant, B: SpecVariant>(
    a: &RunSpec<A>,
    b: &RunSpec<B>,
    [has, asks]: [&str; 2],
) -> String {
    let (a, b) = (&a.record(), &b.record());
    let seats = |d: Option<DecisionSeats>| d.map_or("none".to_string(), |d| d.to_string());
    let (va, vb) = (a.variant.record(), b.variant.record());
    let labeller = |l: &Option<AgentSpec>| l.as_ref().map_or("none".to_string(), |l| l.to_string());
    let fields: [(&str, String, String); 11] = [
        (
            "variant",
            format!("{} ({}…)", va.name, short_sha256(&va.sha256)),
            format!("{} ({}…)", vb.name, short_sha256(&vb.sha256)),
        ),
        ("unit", a.unit.name().into(), b.unit.name().into()),
        ("count", a.count.to_string(), b.count.to_string()),
        ("seed", a.seed.to_string(), b.seed.to_string()),
        ("agents", a.agents_arg(), b.agents_arg()),
        (
            "part size",
            a.part_size.to_string(),
            b.part_size.to_string(),
        ),
        ("shard", a.shard.to_string(), b.shard.to_string()),
        (
            "log actions",
            a.log_actions.to_string(),
            b.log_actions.to_string(),
        ),
        (
            "base/per tai",
            format!("{}/{}", a.base, a.per_tai),
            format!("{}/{}", b.base, b.per_tai),
        ),
        ("decisions", seats(a.decisions), seats(b.decisions)),
        ("labeller", labeller(&a.label_with), labeller(&b.label_with)),
    ];
    fields
        .iter()
        .find(|(_, x, y)| x != y)
        .map(|(name, x, y)| format!("{name}: {has} {x}, {asks} {y}"))
        .unwrap_or_else(|| "the variant text".into())
}

/// `runs/20261122-073015`: the default output directory, by UTC start time (sortable). A
/// run started in the same second as one before it takes the first free name of
/// `runs/20261122-073015-2`, `-3`, …, not the earlier run's directory, which it would refuse
/// as not empty. (Two runs started in the same instant may still pick one name; the second
/// is then refused by the run's lock, naming the directory.)
pub fn default_out_dir() -> std::path::PathBuf {
    let now = chrono::Utc::now();
    let base = std::path::Path::new("runs").join(now.format("%Y%m%d-%H%M%S").to_string());
    let taken = |p: &std::path::Path| std::fs::symlink_metadata(p).is_ok();
    if !taken(&base) {
        return base;
    }
    (2u32..)
        .map(|n| {
            let mut name = base.clone().into_os_string();
            name.push(format!("-{n}"));
            std::path::PathBuf::from(name)
        })
        .find(|p| !taken(p))
        .unwrap_or(base)
}

/// An optional agent as its name (`search:256`), as runs record it ([`AgentSpec::recorded`]).
mod label_name {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(agent: &Option<AgentSpec>, s: S) -> Result<S::Ok, S::Error> {
        agent
            .as_ref()
            .map(|a| a.recorded().to_string())
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<AgentSpec>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|name| {
                name.parse::<AgentSpec>()
                    .map(|a| a.recorded())
                    .map_err(serde::de::Error::custom)
            })
            .transpose()
    }
}

/// `[AgentSpec; 4]` as four strings, as runs record them ([`AgentSpec::recorded`]).
mod agent_names {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(agents: &[AgentSpec; 4], s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<String> = agents.iter().map(|a| a.recorded().to_string()).collect();
        names.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[AgentSpec; 4], D::Error> {
        let names: Vec<String> = Vec::deserialize(d)?;
        if names.len() != 4 {
            return Err(serde::de::Error::custom(format!(
                "expected four agents, got {}",
                names.len()
            )));
        }
        // A record written before runs left a search's threads out compares as one since.
        let agents = parse_agents(&names.join(",")).map_err(serde::de::Error::custom)?;
        Ok(agents.each_ref().map(AgentSpec::recorded))
    }
}

/// For the crate's unit tests to vary: 1,000 deals of taiwan16 by `agents` (as `--agents`
/// spells them), seed 0, in parts of 100, one point a tai.
#[cfg(test)]
pub(crate) fn test_spec(agents: &str) -> RunSpec {
    RunSpec {
        variant: RunVariant::by_name_or_path("taiwan16").unwrap(),
        unit: Unit::Deals,
        count: 1000,
        seed: 0,
        agents: parse_agents(agents).unwrap(),
        part_size: 100,
        shard: Shard::WHOLE,
        log_actions: false,
        base: 0,
        per_tai: 1,
        decisions: None,
        label_with: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_parts() {
        for parts in [0u64, 1, 5, 16, 17, 1000] {
            for n in 1..=9u32 {
                let mut next = 0;
                for k in 1..=n {
                    let (a, b) = Shard { index: k, count: n }.parts(parts);
                    assert_eq!(a, next, "shards are contiguous");
                    assert!(b >= a);
                    next = b;
                }
                assert_eq!(next, parts, "shards cover every part");
            }
        }
    }

    fn sample() -> RunSpec {
        test_spec("greedy")
    }

    /// Values a damaged manifest may hold: each is named, and the arithmetic on them
    /// neither divides by zero nor overflows.
    #[test]
    fn impossible_specs_are_named_and_never_divide_by_zero() {
        assert_eq!(sample().problem(), None);
        let cases: [(RunSpec, &str); 6] = [
            (
                RunSpec {
                    part_size: 0,
                    ..sample()
                },
                "part size",
            ),
            (
                RunSpec {
                    count: 0,
                    ..sample()
                },
                "at least 1",
            ),
            (
                RunSpec {
                    shard: Shard { index: 1, count: 0 },
                    ..sample()
                },
                "shard 1/0",
            ),
            (
                RunSpec {
                    shard: Shard { index: 0, count: 2 },
                    ..sample()
                },
                "shard 0/2",
            ),
            (
                RunSpec {
                    shard: Shard { index: 3, count: 2 },
                    ..sample()
                },
                "shard 3/2",
            ),
            (
                RunSpec {
                    unit: Unit::Games,
                    count: u64::MAX,
                    ..sample()
                },
                "deal ids",
            ),
        ];
        for (spec, needle) in cases {
            let problem = spec.problem().expect(needle);
            assert!(problem.contains(needle), "{problem}");
            // What the reader computes before it would look at the problem.
            let _ = (spec.parts(), spec.shard_parts(), spec.part_units(3));
        }
        let too_many = RunSpec {
            part_size: 1,
            count: MAX_PARTS + 1,
            ..sample()
        };
        assert!(too_many.problem().unwrap().contains("at least 2"));
        let huge = RunSpec {
            count: u64::MAX,
            part_size: u64::MAX / 2 + 1,
            ..sample()
        };
        assert_eq!(huge.parts(), 2);
        assert_eq!(huge.part_units(1), (u64::MAX / 2 + 1, u64::MAX));
        assert_eq!(huge.part_units(7), (u64::MAX, u64::MAX));
    }

    /// A search's threads change how fast it plays, never what: a run's records (its spec,
    /// its parts' footers) are the same bytes on any number, a record naming them (as runs
    /// recorded them before) reads as one that does not, and only play tells runs apart.
    #[test]
    fn a_searchs_threads_are_not_part_of_the_run() {
        let labelled = |agents: &str, labeller: &str| RunSpec {
            label_with: Some(labeller.parse().unwrap()),
            ..test_spec(agents)
        };
        let one = labelled("search:4,greedy,greedy,greedy", "search:8");
        let threaded = labelled(
            "search:4:threads=2,greedy,greedy,greedy",
            "search:8:threads=3",
        );
        assert!(same_run(&one, &threaded));
        let json = |spec: &RunSpec| serde_json::to_value(spec.record()).unwrap();
        assert_eq!(json(&one), json(&threaded));
        assert_eq!(
            one.part_origin(3).to_json(),
            threaded.part_origin(3).to_json()
        );
        assert_eq!(
            threaded.agents_arg(),
            "search:4:threads=2,greedy,greedy,greedy"
        );

        let mut older = json(&one);
        older["agents"][0] = "search:4:threads=2".into();
        older["label_with"] = "search:8:threads=3".into();
        let read: RecordedSpec = serde_json::from_value(older).unwrap();
        assert!(same_run(&read, &one));
        assert_eq!(read.agents, one.record().agents);
        let mut older_footer = serde_json::to_value(one.part_origin(3)).unwrap();
        older_footer["agents"][0] = "search:4:threads=2".into();
        let footer: PartOrigin = serde_json::from_value(older_footer).unwrap();
        assert_eq!(footer, one.part_origin(3));

        let other = labelled("search:8:threads=2,greedy,greedy,greedy", "search:8");
        assert!(!same_run(&one, &other));
        assert_eq!(
            spec_difference(&one, &other, ["the run has", "the command asks for"]),
            "agents: the run has search:4,greedy,greedy,greedy, the command asks for search:8,greedy,greedy,greedy"
        );
    }

    #[test]
    fn shard_syntax() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/4", "5/4", "1/0", "3", "a/b", "1/2/3"] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("K/N"), "{err}");
        }
    }
}
