//! `taisim compare RUN_A RUN_B`: two runs of the same walls (the same seed, unit and deals,
//! checked deal by deal, under variants whose rules build the same wall from a seed),
//! compared pair by pair: how often a deal's outcome changed, and the
//! paired difference (B − A) with its 95% interval of every rate, of tai, payment and points
//! per win and per deal, of each seat's results and of every pattern's share of wins. It says
//! which agents played and whether each responds to the scoring table (yes, no, or unknown
//! for an outside bot), since agents that do not respond play every deal alike under two
//! tables of the same engine rules, and the comparison then only scores the same play twice.
//! That claim is also checked against the deals: where any deal's outcome or winners differ,
//! play differed, and the comparison never says otherwise.
//!
//! A comparison reads both runs once, a part of each at a time, folding each pair of deals
//! into integer sums ([`paired`]), so a run compared with itself gives differences of exactly
//! 0 with intervals of width 0.

mod deals;
mod json;
pub mod paired;
mod render;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use taisim_score::{PatternId, RuleChange, Variant};
use taisim_sim::{DealContext, Rules, Wall};

use crate::error::HarnessError;
use crate::fingerprint::PlayFingerprint;
use crate::read::Run;
use crate::report::Proportion;
use crate::spec::{stake_unit, RecordedSpec, Unit};
use deals::{DealCursor, DealRecord};
pub use paired::{PairedMean, PairedRatio};

/// Why two runs cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A run could not be read (not a run directory, a damaged file, …).
    #[error(transparent)]
    Run(#[from] HarnessError),
    /// The runs were not played on the same walls: their seeds, units or deals differ, or
    /// their variants shuffle and break other walls from one seed.
    #[error("{} and {} were not played on the same walls: {why}; {advice}", a.display(), b.display())]
    DifferentWalls {
        a: PathBuf,
        b: PathBuf,
        why: String,
        /// What to do instead.
        advice: &'static str,
    },
}

/// What to do about runs of another seed, count or unit.
const SAME_SEED: &str =
    "compare two runs simulated with the same --seed and the same --deals (deals mode)";

/// What to do about two variants whose walls differ: no seed gives them the same walls.
const OTHER_WALLS: &str = "pairs of unrelated deals say nothing of the rules, so the comparison (whose every interval is of the deals' paired differences) is refused; compare the two runs' reports (taisim report RUN) instead";

/// Deals whose walls are checked, each built under both variants' rules by the engine
/// itself. A wall is a function of the seed, the dealer and the rules' tile set and dice
/// alone: rules that build one deal's wall alike build every one alike, and rules that
/// differ there give 64 walls alike only by a coincidence of chance below 10^-100.
const WALLS_CHECKED: u64 = 64;

/// How to compare.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Read every part file whole and check its SHA-256 against its manifest.
    pub verify_checksums: bool,
}

impl Default for CompareOptions {
    fn default() -> CompareOptions {
        CompareOptions {
            verify_checksums: true,
        }
    }
}

/// One of the two runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    pub dir: PathBuf,
    pub spec: RecordedSpec,
    /// Its manifest's format (`taisim-run/1` runs have no variant column in wins and tai).
    pub format: String,
    /// Its readability warnings (missing shards, unrecorded files).
    pub warnings: Vec<String>,
    /// Wins counted.
    pub wins: u64,
    /// How its agents played its first deal, as its manifest records it.
    pub play: Option<PlayFingerprint>,
    /// Its variant scores points (胡數 × 2^台), which `per_tai` pays for.
    pub points: bool,
    /// Its variant sets a minimum (起胡), below which the agents that take every win let
    /// one go (false where the variant could not be read).
    pub minimum: bool,
}

impl Side {
    /// Its settlement: `base 0 + 1 per tai` (`per point (胡)` under a points variant).
    pub fn stakes(&self) -> String {
        format!(
            "base {} + {} per {}",
            self.spec.base,
            self.spec.per_tai,
            stake_unit(self.points)
        )
    }

    /// Whether the agent of each seat responds to the scoring table: `None` where taisim
    /// cannot know (an outside bot, told the variant's name). Under a variant with a minimum
    /// (起胡) the agents that take every win let a win below it go, which the table decides
    /// ([`taisim_agents::AgentSpec::responds_to_scoring_under`]); where the variant could not be read they
    /// are taken to ignore it, as under a variant without one.
    pub fn responds(&self) -> [Option<bool>; 4] {
        self.spec
            .agents
            .each_ref()
            .map(|a| a.responds_to_scoring_under(self.minimum))
    }
}

/// The per-deal figures compared, in the order shown: key, label, and whether it is a rate
/// (a 0/1 per deal, shown in percent).
pub const PER_DEAL: [(&str, &str, bool); 8] = [
    ("won", "won (at least one winner)", true),
    ("self_draw", "self-draw win (自摸)", true),
    ("discard", "discard win (放槍, 搶槓)", true),
    ("deal_in", "won on a seat's tile (deal-in)", true),
    ("exhaustive_draw", "exhaustive draw (流局)", true),
    ("several_winners", "several winners (一砲多響)", true),
    ("tai_per_deal", "tai per deal (draws 0)", false),
    ("points_per_deal", "points per deal (draws 0)", false),
];

/// The per-win figures compared: key, label, and whether it is a share (shown in percent).
pub const PER_WIN: [(&str, &str, bool); 4] = [
    ("tai_per_win", "tai per win", false),
    ("payment_per_win", "payment per win", false),
    ("self_drawn_share", "self-drawn share of wins", true),
    ("points_per_win", "points per win", false),
];

/// One seat's paired figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatDiff {
    /// The seat won the deal (0/1).
    pub win: PairedMean,
    /// A winner took the seat's tile (0/1).
    pub deal_in: PairedMean,
    /// Its net payment.
    pub pay: PairedMean,
}

/// One pattern's share of wins in each run, paired.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternDiff {
    pub pattern: PatternId,
    /// Wins counting it over wins, deal by deal.
    pub share: PairedRatio,
}

/// Two runs of the same walls, compared deal by deal.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub a: Side,
    pub b: Side,
    /// Deals paired.
    pub deals: u64,
    /// Deals whose outcome differs.
    pub outcome_changed: Proportion,
    /// Deals whose outcome or winners differ.
    pub result_changed: Proportion,
    /// Deals by A's outcome (rows) and B's (columns), in the order of the deals table's
    /// `outcome` values (self_draw, discard, flower_win, exhaustive_draw).
    pub crosstab: [[u64; 4]; 4],
    /// [`PER_DEAL`]'s figures, in its order (`points_per_deal` only when both runs have
    /// points).
    pub per_deal: Vec<PairedMean>,
    /// [`PER_WIN`]'s figures, in its order.
    pub per_win: Vec<PairedRatio>,
    /// Both runs' wins tables have the points model's columns.
    pub points: bool,
    /// E S W N.
    pub seats: [SeatDiff; 4],
    /// Every pattern counted in either run, in catalogue order.
    pub patterns: Vec<PatternDiff>,
    /// Whether the two variants' engine rules are the same (`None` when a run's variant
    /// file could not be read).
    pub same_engine_rules: Option<bool>,
    /// The engine rules that differ, by key, A's value to B's (empty when they are the same
    /// or unknown).
    pub rule_changes: Vec<RuleChange>,
    /// The scoring-table keys that differ (scoring, tai, points, settlement, patterns), by
    /// key, A's value to B's ([`Variant::table_changes`]; `None` when a run's variant file
    /// could not be read).
    pub table_changes: Option<Vec<RuleChange>>,
}

/// What the folding keeps: every sum, before they become a [`Comparison`].
struct Fold {
    deals: u64,
    outcome_changed: u64,
    result_changed: u64,
    crosstab: [[u64; 4]; 4],
    per_deal: [PairedMean; PER_DEAL.len()],
    per_win: [PairedRatio; PER_WIN.len()],
    seats: [SeatDiff; 4],
    /// Per pattern, only the numerators' sums (the denominators, wins, are shared).
    patterns: Vec<Option<PairedRatio>>,
    wins: PairedRatio,
}

impl Fold {
    fn new() -> Fold {
        Fold {
            deals: 0,
            outcome_changed: 0,
            result_changed: 0,
            crosstab: [[0; 4]; 4],
            per_deal: Default::default(),
            per_win: Default::default(),
            seats: Default::default(),
            patterns: vec![None; PatternId::COUNT],
            wins: PairedRatio::default(),
        }
    }

    fn add(&mut self, a: &DealRecord, b: &DealRecord) {
        use taisim_sim::Outcome;
        let outcome = |d: &DealRecord| crate::table::OUTCOMES[d.outcome];
        self.deals += 1;
        self.outcome_changed += (a.outcome != b.outcome) as u64;
        self.result_changed += (a.outcome != b.outcome || a.winners != b.winners) as u64;
        self.crosstab[a.outcome][b.outcome] += 1;
        let per_deal = |d: &DealRecord| -> [i64; PER_DEAL.len()] {
            [
                (d.winners != 0) as i64,
                (outcome(d) == Outcome::SelfDraw) as i64,
                (outcome(d) == Outcome::Discard) as i64,
                d.discarder.is_some() as i64,
                (outcome(d) == Outcome::ExhaustiveDraw) as i64,
                (d.winners.count_ones() > 1) as i64,
                d.total_tai as i64,
                i64::try_from(d.points).unwrap_or(i64::MAX),
            ]
        };
        let (fa, fb) = (per_deal(a), per_deal(b));
        for (m, (x, y)) in self.per_deal.iter_mut().zip(fa.into_iter().zip(fb)) {
            m.add(x, y);
        }
        let per_win = |d: &DealRecord| -> [(i64, i64); PER_WIN.len()] {
            let w = d.wins as i64;
            [
                (d.win_tai as i64, w),
                (d.win_payment, w),
                (d.self_drawn as i64, w),
                (i64::try_from(d.points).unwrap_or(i64::MAX), w),
            ]
        };
        let (wa, wb) = (per_win(a), per_win(b));
        for (r, (x, y)) in self.per_win.iter_mut().zip(wa.into_iter().zip(wb)) {
            r.add(x, y);
        }
        for (s, seat) in self.seats.iter_mut().enumerate() {
            let won = |d: &DealRecord| (d.winners >> s & 1) as i64;
            let paid = |d: &DealRecord| (d.discarder == Some(s)) as i64;
            seat.win.add(won(a), won(b));
            seat.deal_in.add(paid(a), paid(b));
            seat.pay.add(a.pays[s], b.pays[s]);
        }
        // A pattern's sums change only in deals that count it; the wins' sums (shared by
        // every pattern) are added once.
        self.wins.add((0, a.wins as i64), (0, b.wins as i64));
        let count = |d: &DealRecord, p: PatternId| {
            d.patterns
                .iter()
                .find(|(q, _)| *q == p)
                .map_or(0, |(_, n)| *n as i64)
        };
        let mut seen: Vec<PatternId> = a.patterns.iter().map(|(p, _)| *p).collect();
        seen.extend(b.patterns.iter().map(|(p, _)| *p));
        seen.sort_unstable();
        seen.dedup();
        for p in seen {
            self.patterns[p.index()]
                .get_or_insert_with(PairedRatio::default)
                .add_numerator((count(a, p), a.wins as i64), (count(b, p), b.wins as i64));
        }
    }

    fn finish(
        self,
        a: Side,
        b: Side,
        points: bool,
        variants: &[Option<Arc<Variant>>; 2],
    ) -> Comparison {
        let (same_engine_rules, rule_changes, table_changes) = match variants {
            [Some(x), Some(y)] => {
                let changes = x.rule_changes(y);
                (Some(changes.is_empty()), changes, Some(x.table_changes(y)))
            }
            _ => (None, Vec::new(), None),
        };
        let patterns = PatternId::ALL
            .iter()
            .zip(self.patterns)
            .filter_map(|(&pattern, sums)| {
                Some(PatternDiff {
                    pattern,
                    share: sums?.with_denominators(&self.wins),
                })
            })
            .collect();
        let mut per_deal = self.per_deal.to_vec();
        if !points {
            per_deal.pop();
        }
        let mut per_win = self.per_win.to_vec();
        if !points {
            per_win.pop();
        }
        Comparison {
            a,
            b,
            deals: self.deals,
            outcome_changed: Proportion::new(self.outcome_changed, self.deals),
            result_changed: Proportion::new(self.result_changed, self.deals),
            crosstab: self.crosstab,
            per_deal,
            per_win,
            points,
            seats: self.seats,
            patterns,
            same_engine_rules,
            rule_changes,
            table_changes,
        }
    }
}

/// What the two runs' specs say that makes their walls differ, if anything.
fn walls_differ(a: &Run, b: &Run) -> Option<String> {
    let (sa, sb) = (a.spec(), b.spec());
    if sa.unit != sb.unit {
        return Some(format!(
            "A plays {}, B plays {}",
            sa.unit.name(),
            sb.unit.name()
        ));
    }
    if sa.unit == Unit::Games {
        return Some(
            "they are runs of full games (--games), whose deals depend on how the earlier deals of each game went, so two variants' games do not play the same deals".into(),
        );
    }
    if sa.seed != sb.seed {
        return Some(format!("A's seed is {}, B's is {}", sa.seed, sb.seed));
    }
    if sa.count != sb.count {
        return Some(format!("A has {} deals, B has {}", sa.count, sb.count));
    }
    let units = |r: &Run| -> Vec<[u64; 2]> { r.parts.iter().map(|p| p.units).collect() };
    let covered = |r: &Run| -> u64 { r.parts.iter().map(|p| p.units[1] - p.units[0]).sum() };
    if covered(a) != covered(b) || (sa.part_size == sb.part_size && units(a) != units(b)) {
        return Some(format!(
            "A's manifests record {} of its deals, B's {} (a run still running, or a shard missing): compare complete runs",
            covered(a),
            covered(b)
        ));
    }
    None
}

/// Why deal `d` (paired, the same id and seed in both runs) was dealt from other walls in
/// the two runs, if it was: the engine's own wall ([`Wall::new`]) of its seed under each
/// variant's rules, compared, so that what a wall depends on is known in one place, the
/// engine. `None` also when a variant could not be read (the header says so).
fn other_walls(a: &Run, b: &Run, rules: &[Option<Rules>; 2], d: &DealRecord) -> Option<String> {
    let [Some(ra), Some(rb)] = rules else {
        return None;
    };
    // Every deal of a --deals run is dealt as a game's first; only those are paired.
    let dealer = DealContext::FIRST.dealer;
    if Wall::new(d.seed, dealer, ra) == Wall::new(d.seed, dealer, rb) {
        return None;
    }
    let procedure = |run: &Run, r: &Rules| {
        let key = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
        format!(
            "{} shuffles {} tiles (tiles = {:?}) and breaks the wall by dice = {:?}",
            run.spec().variant.name,
            r.wall_size(),
            key(serde_json::json!(r.procedure.tiles)),
            key(serde_json::json!(r.procedure.dice)),
        )
    };
    Some(format!(
        "A's variant {}, B's {}: the same seed gives the two variants other walls (deal {}'s differ), so no deal of B replays a deal of A",
        procedure(a, ra),
        procedure(b, rb),
        d.deal_id
    ))
}

/// What is said of agents whose response to the scoring table taisim cannot know.
fn unknown_phrase(unknown: &[String]) -> String {
    format!(
        "whether {} {} to it is unknown (an outside bot is told the variant's name and may play by it; taisim cannot know)",
        unknown.join(", "),
        if unknown.len() == 1 { "responds" } else { "respond" }
    )
}

/// The variant a run recorded (read from its `variant.toml`).
fn recorded_variant(run: &Run) -> Option<Arc<Variant>> {
    crate::resume::recorded_variant(&run.dir, &run.spec().variant)
        .ok()
        .map(|v| Arc::clone(v.variant()))
}

impl Comparison {
    /// Compares the runs in `a` and `b`.
    pub fn from_runs(
        a: &Path,
        b: &Path,
        options: &CompareOptions,
    ) -> Result<Comparison, CompareError> {
        let (run_a, run_b) = (Run::open(a)?, Run::open(b)?);
        let differ = |why: String, advice| CompareError::DifferentWalls {
            a: a.to_path_buf(),
            b: b.to_path_buf(),
            why,
            advice,
        };
        if let Some(why) = walls_differ(&run_a, &run_b) {
            return Err(differ(why, SAME_SEED));
        }
        let variants = [recorded_variant(&run_a), recorded_variant(&run_b)];
        let rules = variants.each_ref().map(|v| v.as_ref().map(|v| v.rules()));
        let mut fold = Fold::new();
        let mut ca = DealCursor::new(&run_a, options.verify_checksums);
        let mut cb = DealCursor::new(&run_b, options.verify_checksums);
        let mut points = true;
        loop {
            match (ca.next()?, cb.next()?) {
                (None, None) => break,
                (Some(d), None) | (None, Some(d)) => {
                    return Err(differ(
                        format!(
                            "only one run has deal {} (their part files hold different deals)",
                            d.deal_id
                        ),
                        SAME_SEED,
                    ))
                }
                (Some(x), Some(y)) => {
                    if x.deal_id != y.deal_id {
                        return Err(differ(
                            format!(
                                "deal {} of A is paired with deal {} of B",
                                x.deal_id, y.deal_id
                            ),
                            SAME_SEED,
                        ));
                    }
                    if x.seed != y.seed {
                        return Err(differ(
                            format!(
                                "deal {} has seed {} in A and {} in B",
                                x.deal_id, x.seed, y.seed
                            ),
                            SAME_SEED,
                        ));
                    }
                    if fold.deals < WALLS_CHECKED {
                        if let Some(why) = other_walls(&run_a, &run_b, &rules, &x) {
                            return Err(differ(why, OTHER_WALLS));
                        }
                    }
                    points &= ca.points && cb.points;
                    fold.add(&x, &y);
                }
            }
        }
        let side = |run: &Run, wins: i128, points: bool, variant: &Option<Arc<Variant>>| Side {
            minimum: variant.as_ref().is_some_and(|v| v.min_tai() > 0),
            dir: run.dir.clone(),
            spec: run.spec().clone(),
            format: run.manifests[0].format.clone(),
            warnings: run.warnings.clone(),
            wins: wins as u64,
            play: run.play().cloned(),
            points,
        };
        if fold.deals == 0 {
            // Every figure is a mean over the pairs: over none it is no figure at all.
            return Err(CompareError::Run(HarnessError::Usage(format!(
                "{} and {} record no deal yet (no part of either is recorded): nothing to compare",
                a.display(),
                b.display()
            ))));
        }
        let (wins_a, wins_b) = (fold.wins.den[0], fold.wins.den[1]);
        Ok(fold.finish(
            side(&run_a, wins_a, ca.points, &variants[0]),
            side(&run_b, wins_b, cb.points, &variants[1]),
            points,
            &variants,
        ))
    }

    /// What the agents' response to the scoring table means for the comparison, if anything
    /// needs saying. What the agents declare (yes, no, unknown) is checked against the deals:
    /// a deal whose outcome or winners differ was played otherwise, so every deal is said to
    /// have been played the same only when every agent is known not to respond, the engine
    /// rules and the agents are the same, and no deal's result says otherwise.
    fn response_warning(&self, agents_differ: bool) -> Option<String> {
        let (ra, rb) = (self.a.responds(), self.b.responds());
        let responses: Vec<(&str, String, Option<bool>)> = [("A", &self.a, ra), ("B", &self.b, rb)]
            .into_iter()
            .flat_map(|(run, side, r)| {
                side.spec
                    .agents
                    .iter()
                    .zip(r)
                    .map(move |(a, r)| (run, a.to_string(), r))
            })
            .collect();
        // The agents of both runs whose response is `want`, each named once. An agent that
        // responds in one run and not in the other (greedy, where only one variant sets a
        // minimum) is named with its run.
        let named = |want: Option<bool>| -> Vec<String> {
            let mut names: Vec<String> = responses
                .iter()
                .filter(|(_, _, r)| *r == want)
                .map(|(run, name, _)| {
                    let mixed = responses.iter().any(|(_, n, r)| n == name && *r != want);
                    if mixed {
                        format!("{name} in {run}")
                    } else {
                        name.clone()
                    }
                })
                .collect();
            names.sort();
            names.dedup();
            names
        };
        let (ignoring, unknown) = (named(Some(false)), named(None));
        let verb = |names: &[String], one: &'static str, many: &'static str| {
            if names.len() == 1 {
                one
            } else {
                many
            }
        };
        let changed = self.result_changed.k;
        let some_respond = ra.iter().chain(&rb).any(|r| *r == Some(true));
        if some_respond {
            let mut parts = Vec::new();
            if !ignoring.is_empty() {
                parts.push(format!(
                    "{} {} not respond to the scoring table: only the seats played by an agent that responds (search, value; under a variant with a minimum, 起胡, every agent that would take a win below it) change how they play with it (the others change only as the deal around them does)",
                    ignoring.join(", "),
                    verb(&ignoring, "does", "do")
                ));
            }
            if !unknown.is_empty() {
                parts.push(unknown_phrase(&unknown));
            }
            return (!parts.is_empty()).then(|| parts.join("; "));
        }
        const ADVICE: &str = "play value (greedy that weighs its waits by the table, a fifth of its speed) or search (as in --agents search:64,greedy,greedy,greedy) to see players respond";
        let differed = format!(
            "{} of the {} deals' outcome or winners differ, so play differed there",
            crate::report::render::count(changed),
            crate::report::render::count(self.deals)
        );
        if unknown.is_empty() {
            let play = match self.same_engine_rules {
                Some(true) if agents_differ => {
                    "the two variants have the same engine rules, but the runs' agents differ, so play differs through the agents, never through the tables".to_string()
                }
                // Agents that declare they ignore the table, under the same engine rules,
                // cannot change a deal's result: one that changed says a declaration is wrong.
                Some(true) if changed > 0 => format!(
                    "the two variants have the same engine rules, yet {differed}, which agents that ignore the table cannot cause: one of their declarations is wrong"
                ),
                Some(true) => "the two variants have the same engine rules, so every deal was played the same in both runs and only the scoring of the same play differs".to_string(),
                Some(false) => "the two variants' engine rules differ, so play differs through the rules alone, never through the tables".to_string(),
                None => "play differs only where the engine rules do".to_string(),
            };
            return Some(format!(
                "no agent here responds to the scoring table ({} {} by the hand and the rules, not by tai): {play}; {ADVICE}",
                ignoring.join(", "),
                verb(&ignoring, "plays", "play")
            ));
        }
        let mut out = format!(
            "no agent here is known to respond to the scoring table: {}",
            unknown_phrase(&unknown)
        );
        if !ignoring.is_empty() {
            out.push_str(&format!(
                "; {} {} by the hand and the rules, not by tai",
                ignoring.join(", "),
                verb(&ignoring, "plays", "play")
            ));
        }
        out.push_str(&if changed > 0 {
            format!("; {differed}")
        } else {
            "; no deal's outcome or winners differ, which does not show that every deal was played the same".to_string()
        });
        Some(out)
    }

    /// Whether the runs settle at other stakes (`--base`, `--per-tai`).
    pub fn stakes_differ(&self) -> bool {
        let stakes = |s: &Side| (s.spec.base, s.spec.per_tai);
        stakes(&self.a) != stakes(&self.b)
    }

    /// The warnings a reader must see first: agents that ignore the scoring table, agents,
    /// stakes or variants that differ or not, incomplete runs.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let agents = |s: &Side| {
            s.spec
                .agents
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
        };
        let (names_a, names_b) = (agents(&self.a), agents(&self.b));
        let agents_differ = names_a != names_b
            || matches!((&self.a.play, &self.b.play), (Some(pa), Some(pb)) if pa.agents != pb.agents);
        out.extend(self.response_warning(agents_differ));
        if names_a != names_b {
            out.push(format!(
                "the runs' agents differ (A: {}; B: {}): the differences mix the players with the rules",
                names_a.join(","),
                names_b.join(",")
            ));
        } else if let (Some(pa), Some(pb)) = (&self.a.play, &self.b.play) {
            // Agents named alike are set alike only if their settings in full agree: plain
            // `search` is tuned anew by some taisim versions.
            if pa.agents != pb.agents {
                out.push(format!(
                    "the runs' agents are named alike but set otherwise (A: {}; B: {}): the taisims that made them tune them differently, so the differences mix the players with the rules",
                    pa.agents.join(","),
                    pb.agents.join(",")
                ));
            }
        }
        // What the runs were asked to play otherwise: the variant, the stakes, the agents.
        // The attribution names each that differs and never one that does not.
        let (va, vb) = (&self.a.spec.variant, &self.b.spec.variant);
        let stakes_differ = self.stakes_differ();
        if va.sha256 == vb.sha256 {
            let mut causes = Vec::new();
            if stakes_differ {
                causes.push(format!(
                    "the stakes (A: {}; B: {})",
                    self.a.stakes(),
                    self.b.stakes()
                ));
            }
            if agents_differ {
                causes.push("the agents".to_string());
            }
            out.push(if causes.is_empty() {
                format!(
                    "both runs play the same variant ({}) with the same stakes and agents on the same walls: nothing they were asked to play differs",
                    va.name
                )
            } else {
                format!(
                    "both runs play the same variant ({}): any difference comes from {}",
                    va.name,
                    causes.join(" and ")
                )
            });
        } else if stakes_differ {
            out.push(format!(
                "the runs' stakes differ (A: {}; B: {}): payments (and the play of agents that weigh them) mix the stakes with the rules",
                self.a.stakes(),
                self.b.stakes()
            ));
        }
        for (label, side) in [("A", &self.a), ("B", &self.b)] {
            for w in &side.warnings {
                out.push(format!("run {label} ({}): {w}", side.dir.display()));
            }
        }
        out
    }
}
