//! The duplicate arena: a candidate agent against a baseline on the same walls, seat by seat
//! (`taisim arena`, `taisim.arena`, and the training script through it).
//!
//! Every wall (one seeded deal, its dealer and round wind drawn as the environments draw
//! them: [`DealContext::drawn`]) is played five times: with the candidate in seat E, S, W and
//! N in turn (the baseline in the other three), and once by four baselines. The candidate's
//! points in a seat minus the baseline's points in the same seat on the same wall cancel the
//! luck of the tiles; a wall's statistic is the mean of its four seats' differences, and the
//! walls are independent, so the 95% interval is the normal one over the walls' statistics.
//!
//! With a *field* ([`Arena::with_field`]) the other three seats are played by a third agent
//! instead of the baseline: every wall is played eight times, the candidate and the baseline
//! each in every seat against the field, and the statistic is their difference in the same
//! seat on the same wall, both against the same field. Two settings of one agent (two search
//! configurations) are then measured head to head where each will play, among greedy players
//! say, and the walls where they play alike add exactly nothing.
//! Points are the variant's own settlement, worked out by the scorer's model
//! ([`taisim_score::score_deal`]).
//!
//! Everything is counted in integers (points, wins, deal-ins), so the totals, and the JSON
//! made from them, do not depend on the thread count or on the order the walls finish.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;
use taisim_agents::{
    play_deal, renew_bots, AgentParseError, AgentSpec, BotFault, BotStderr, BuiltinAgent,
    ExecSettings, Policy, PolicyAgent, PolicyError,
};
use taisim_score::{score_deal, Variant, VariantError};
use taisim_sim::{deal_seed, ActionList, Deal, DealContext, Outcome, Seat};

use crate::error::EngineError;
use crate::pool::ThreadCountError;
use crate::progress::{Progress, ProgressMode};

/// Which side of the match an agent plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    Candidate,
    Baseline,
    Field,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Candidate => "candidate",
            Side::Baseline => "baseline",
            Side::Field => "field",
        })
    }
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A side's name names no agent (or names four: a side is one agent).
    #[error("{side}: {source}")]
    AgentName {
        side: Side,
        #[source]
        source: AgentParseError,
    },
    /// A side's agent cannot be built (a policy file missing or refused).
    #[error("{side} {spec}: {source}")]
    Agent {
        side: Side,
        /// Boxed: a tuned search's name is large next to the other errors.
        spec: Box<AgentSpec>,
        #[source]
        source: PolicyError,
    },
    /// The variant asked for cannot be used.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// No walls to play.
    #[error("the number of deals must be at least 1")]
    NoDeals,
    /// A thread count outside 1 to [`MAX_THREADS`](crate::MAX_THREADS).
    #[error(transparent)]
    Threads(#[from] ThreadCountError),
    /// The machine refused the worker threads.
    #[error("cannot start {threads} worker threads: {source}")]
    Pool {
        threads: usize,
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// An outside player (`exec:`) failed on a wall: the match stops, naming the bot, the
    /// wall and what it sent.
    #[error("wall {wall} (deal seed {seed}): {fault}")]
    Bot {
        wall: u64,
        seed: u64,
        #[source]
        fault: Box<BotFault>,
    },
    /// The match was stopped from outside ([`Arena::cancelled_by`]) before its last wall.
    #[error("interrupted: the match stopped before all its walls were played")]
    Interrupted,
    /// A wall the engine or the scorer rejected: a bug, reported with the wall to replay.
    #[error("wall {wall} (deal seed {seed}): {source}")]
    Wall {
        wall: u64,
        seed: u64,
        #[source]
        source: EngineError,
    },
}

/// One side of a match: an agent as `--agents` names one (`greedy`, `search:64`,
/// `policy:PATH`, …), or a policy already in memory (one a trainer exported without writing
/// a file), which the report names by the SHA-256 of its file's bytes.
#[derive(Clone, Debug)]
pub enum Contender<'a> {
    Named(&'a str),
    Policy {
        policy: Arc<Policy>,
        /// The policy file's bytes it was read from, hashed into its name.
        bytes: &'a [u8],
    },
}

impl Contender<'_> {
    /// The name an in-memory policy of these file bytes goes by in the report:
    /// `policy:<memory sha256:…>`, the first 16 hex digits of the bytes' SHA-256.
    pub fn memory_name(bytes: &[u8]) -> String {
        format!("policy:<memory sha256:{}>", &crate::sha256_hex(bytes)[..16])
    }
}

/// A match ready to play: both sides' agents built for the variant, which was parsed once,
/// each with the name the report gives it.
pub struct Arena {
    candidate: Entrant,
    baseline: Entrant,
    /// The other three seats' agent when it is not the baseline ([`Arena::with_field`]).
    field: Option<Entrant>,
    variant: Arc<Variant>,
    /// Set from outside to stop the match ([`Arena::cancelled_by`]).
    cancel: Option<Arc<AtomicBool>>,
}

/// A played match: its report (what `taisim arena --json` prints) and how it ran.
#[derive(Debug)]
pub struct ArenaRun {
    pub report: ArenaReport,
    pub seconds: f64,
    pub threads: usize,
}

impl Arena {
    /// A match of the agent `candidate` against the agent `baseline` (each one name, as
    /// `--agents` spells one: `greedy`, `trained`, `policy:PATH`, …) under the variant
    /// `variant` (a shipped name or a file's path).
    pub fn new(candidate: &str, baseline: &str, variant: &str) -> Result<Arena, ArenaError> {
        let variant = Arc::new(Variant::by_name_or_path(variant)?);
        Arena::with_variant(candidate, baseline, variant)
    }

    /// [`Arena::new`] under a variant already loaded.
    pub fn with_variant(
        candidate: &str,
        baseline: &str,
        variant: Arc<Variant>,
    ) -> Result<Arena, ArenaError> {
        Arena::with_settings(candidate, baseline, variant, &ExecSettings::default())
    }

    /// [`Arena::with_variant`], `exec:` agents run with `bots` (their per-decision timeout).
    pub fn with_settings(
        candidate: &str,
        baseline: &str,
        variant: Arc<Variant>,
        bots: &ExecSettings,
    ) -> Result<Arena, ArenaError> {
        Arena::of(
            Contender::Named(candidate),
            Contender::Named(baseline),
            variant,
            bots,
        )
    }

    /// A match of any two contenders (a named agent or a policy in memory) under a variant
    /// already loaded, `exec:` agents run with `bots` (their per-decision timeout).
    pub fn of(
        candidate: Contender<'_>,
        baseline: Contender<'_>,
        variant: Arc<Variant>,
        bots: &ExecSettings,
    ) -> Result<Arena, ArenaError> {
        Ok(Arena {
            candidate: build_side(Side::Candidate, candidate, &variant, bots)?,
            baseline: build_side(Side::Baseline, baseline, &variant, bots)?,
            field: None,
            variant,
            cancel: None,
        })
    }

    /// The same match, stopped once `flag` is set: a search side's decision under way ends at
    /// once, so does a wait for an `exec:` side's bot (which is ended), every worker stops
    /// before the next table it would play, and the match ends in
    /// [`ArenaError::Interrupted`] with nothing reported. What Ctrl-C sets in Python's
    /// `taisim.arena`, where a match of the search runs for hours.
    pub fn cancelled_by(mut self, flag: Arc<AtomicBool>) -> Arena {
        // A search stops its decision too, so that a table under way ends in moments even
        // at a budget of minutes a decision; what it then plays is never reported.
        for entrant in [
            Some(&mut self.candidate),
            Some(&mut self.baseline),
            self.field.as_mut(),
        ]
        .into_iter()
        .flatten()
        {
            entrant.agent.cancel_on(&flag);
        }
        self.cancel = Some(flag);
        self
    }

    /// The same match with `field` in the other three seats around both the candidate and
    /// the baseline (see the module documentation), `exec:` agents run with `bots`. A field
    /// of the baseline's own name is the plain match (five tables a wall, not eight).
    pub fn with_field(
        mut self,
        field: Contender<'_>,
        bots: &ExecSettings,
    ) -> Result<Arena, ArenaError> {
        let field = build_side(Side::Field, field, &self.variant, bots)?;
        self.field = (field.name != self.baseline.name).then_some(field);
        Ok(self)
    }

    /// The report of the walls in `tally`, dealt from `seed`, with the sides' names.
    fn report(&self, tally: &Tally, seed: u64) -> ArenaReport {
        ArenaReport {
            candidate_in_full: self.candidate.in_full.clone(),
            baseline_in_full: self.baseline.in_full.clone(),
            field_in_full: self.field.as_ref().and_then(|f| f.in_full.clone()),
            ..ArenaReport::new(
                tally,
                &self.candidate.name,
                &self.baseline.name,
                self.field(),
                self.variant.name(),
                seed,
            )
        }
    }

    /// The other three seats' agent's name, when it is not the baseline.
    pub fn field(&self) -> Option<&str> {
        self.field.as_ref().map(|f| f.name.as_str())
    }

    /// The variant the walls are dealt and settled under.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// Plays `deals` walls from `seed` on `threads` worker threads (1 to
    /// [`MAX_THREADS`](crate::MAX_THREADS); `None` for every core; never more than the walls
    /// to play). The report does not depend on the thread count.
    pub fn play(
        &self,
        deals: u64,
        seed: u64,
        threads: Option<usize>,
    ) -> Result<ArenaRun, ArenaError> {
        self.play_showing(deals, seed, threads, ProgressMode::Quiet)
    }

    /// [`Arena::play`], showing its progress in walls on stderr as `progress` says (a match
    /// of the search runs for minutes to hours).
    pub fn play_showing(
        &self,
        deals: u64,
        seed: u64,
        threads: Option<usize>,
        progress: ProgressMode,
    ) -> Result<ArenaRun, ArenaError> {
        if deals == 0 {
            return Err(ArenaError::NoDeals);
        }
        crate::pool::check_threads(threads)?;
        let threads = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(usize::try_from(deals).unwrap_or(usize::MAX));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|source| ArenaError::Pool { threads, source })?;
        taisim_sim::algo::warm_up();
        let start = Instant::now();
        let progress = Progress::new(progress, deals, 0, "walls");
        let tally = play_walls(
            Sides {
                candidate: &self.candidate.agent,
                baseline: &self.baseline.agent,
                field: self.field.as_ref().map(|f| &f.agent),
            },
            &self.variant,
            deals,
            seed,
            &pool,
            &progress,
            self.cancel.as_deref(),
        );
        progress.finish();
        let tally = tally?;
        let seconds = start.elapsed().as_secs_f64();
        let report = self.report(&tally, seed);
        Ok(ArenaRun {
            report,
            seconds,
            threads: pool.current_num_threads(),
        })
    }
}

/// A side's agent, with the names the report gives it.
struct Entrant {
    /// As named (`search`, `greedy`, a policy in memory by its bytes' hash).
    name: String,
    /// Its settings spelled out ([`AgentSpec::in_full`]) where the name does not say them
    /// (plain `search`, which a later taisim may tune otherwise); `None` when it does.
    in_full: Option<String>,
    agent: BuiltinAgent,
}

/// The agent for `side` of a match, with the names the report gives it.
fn build_side(
    side: Side,
    who: Contender<'_>,
    variant: &Arc<Variant>,
    bots: &ExecSettings,
) -> Result<Entrant, ArenaError> {
    match who {
        Contender::Named(name) => {
            let spec: AgentSpec = name
                .parse()
                .map_err(|source| ArenaError::AgentName { side, source })?;
            let agent = spec
                .build_with(variant, bots)
                .map_err(|source| ArenaError::Agent {
                    side,
                    spec: Box::new(spec.clone()),
                    source,
                })?;
            let (name, in_full) = (spec.to_string(), spec.in_full());
            Ok(Entrant {
                in_full: (in_full != name).then_some(in_full),
                name,
                agent,
            })
        }
        Contender::Policy { policy, bytes } => Ok(Entrant {
            name: Contender::memory_name(bytes),
            in_full: None,
            agent: BuiltinAgent::Policy(PolicyAgent::new(policy).for_variant(variant)),
        }),
    }
}

/// One side's results over the seat-deals it played.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SideTally {
    /// Seat-deals played (four per wall).
    pub seats: u64,
    pub points: i64,
    pub wins: u64,
    pub self_draws: u64,
    /// Wins off this seat's discard (robbed kongs included).
    pub deal_ins: u64,
}

impl SideTally {
    fn add(&mut self, deal: &Deal, seat: Seat, points: i64) {
        let result = deal.result().expect("a played deal is over");
        self.seats += 1;
        self.points += points;
        if result.winners.contains(seat) {
            self.wins += 1;
            self.self_draws += (result.outcome == Outcome::SelfDraw) as u64;
        }
        self.deal_ins += (result.outcome == Outcome::Discard && result.payer == Some(seat)) as u64;
    }

    fn merge(&mut self, o: &SideTally) {
        self.seats += o.seats;
        self.points += o.points;
        self.wins += o.wins;
        self.self_draws += o.self_draws;
        self.deal_ins += o.deal_ins;
    }
}

/// The exact totals of a set of walls.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub walls: u64,
    /// Σ over walls of the wall's summed difference (its four seats, candidate minus
    /// baseline).
    pub diff_sum: i128,
    /// Σ over walls of the square of that sum.
    pub diff_sq_sum: i128,
    pub candidate: SideTally,
    pub baseline: SideTally,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.walls += o.walls;
        self.diff_sum += o.diff_sum;
        self.diff_sq_sum += o.diff_sq_sum;
        self.candidate.merge(&o.candidate);
        self.baseline.merge(&o.baseline);
        self
    }
}

/// The agents of a match: the other seats are the field's, the baseline's when there is none.
#[derive(Clone, Copy)]
struct Sides<'a> {
    candidate: &'a BuiltinAgent,
    baseline: &'a BuiltinAgent,
    field: Option<&'a BuiltinAgent>,
}

/// One worker's agents: the field (the baseline when there is none) in every seat, and the
/// candidate, and with a field the baseline, waiting to be swapped into one.
struct Table {
    seats: [BuiltinAgent; 4],
    candidate: BuiltinAgent,
    /// The baseline against a field; `None` when the baseline is the field.
    baseline: Option<BuiltinAgent>,
    legal: ActionList,
}

impl Table {
    /// Ends the table's outside players, returning the first fault of any
    /// ([`taisim_agents::exec::close_bots`]).
    fn close_bots(&self) -> Option<BotFault> {
        let sides = std::iter::once(&self.candidate).chain(self.baseline.as_ref());
        taisim_agents::exec::close_bots(self.seats.iter().chain(sides))
    }

    /// Plays wall `wall` five times (eight against a field) into `tally`, unless `cancel` is
    /// set before one of its tables.
    fn wall(
        &mut self,
        variant: &Variant,
        seed: u64,
        wall: u64,
        tally: &mut Tally,
        cancel: Option<&AtomicBool>,
    ) -> Result<(), ArenaError> {
        let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled() {
            return Err(ArenaError::Interrupted);
        }
        let wall_seed = deal_seed(seed, wall);
        let context = DealContext::drawn(wall_seed);
        let fail = |failure: WallFailure| match failure {
            // A bot whose wait the flag ended (FaultKind::Cancelled) failed because the
            // match was stopped: what the match reports is the stop.
            WallFailure::Bot(_) if cancelled() => ArenaError::Interrupted,
            WallFailure::Engine(source) => ArenaError::Wall {
                wall,
                seed: wall_seed,
                source,
            },
            WallFailure::Bot(fault) => ArenaError::Bot {
                wall,
                seed: wall_seed,
                fault,
            },
        };
        // Without a field, one table of four baselines is every seat's reference.
        let reference = match self.baseline {
            None => Some(
                play_table(
                    &mut self.seats,
                    &mut self.legal,
                    variant,
                    wall_seed,
                    context,
                )
                .map_err(fail)?,
            ),
            Some(_) => None,
        };
        // The wall played with `agent` in `seat` and the field in the others.
        let mut seated = |agent: &mut BuiltinAgent, seat: Seat| {
            if cancelled() {
                return Err(ArenaError::Interrupted);
            }
            let (seats, legal) = (&mut self.seats, &mut self.legal);
            play_seated(seats, agent, seat, legal, variant, wall_seed, context).map_err(fail)
        };
        let mut diff: i128 = 0;
        for seat in Seat::ALL {
            let s = seat as usize;
            let base_points = match (&reference, &mut self.baseline) {
                (Some((deal, points)), _) => {
                    tally.baseline.add(deal, seat, points[s]);
                    points[s]
                }
                (None, Some(baseline)) => {
                    let (deal, points) = seated(baseline, seat)?;
                    tally.baseline.add(&deal, seat, points[s]);
                    points[s]
                }
                (None, None) => unreachable!("a table without a field plays the reference"),
            };
            let (deal, points) = seated(&mut self.candidate, seat)?;
            tally.candidate.add(&deal, seat, points[s]);
            diff += i128::from(points[s]) - i128::from(base_points);
        }
        tally.walls += 1;
        tally.diff_sum += diff;
        tally.diff_sq_sum += diff * diff;
        Ok(())
    }
}

/// Plays the wall seeded `seed` with `seats` and returns each seat's points: the variant's
/// own settlement, through the scorer's model.
fn play_table(
    seats: &mut [BuiltinAgent; 4],
    legal: &mut ActionList,
    variant: &Variant,
    seed: u64,
    context: DealContext,
) -> Result<(Deal, [i64; 4]), WallFailure> {
    let rules = variant.rules();
    let mut deal = Deal::new(rules, seed, context).map_err(EngineError::from)?;
    play_deal(&mut deal, seats, legal);
    if let Some(fault) = taisim_agents::exec::first_fault(seats) {
        return Err(WallFailure::Bot(Box::new(fault)));
    }
    let st = variant.settlement();
    let scored = score_deal(&deal, variant, st.base, st.per_tai).map_err(EngineError::from)?;
    Ok((deal, scored.payments.0))
}

/// [`play_table`] with `agent` in `seat` in place of its agent, which is put back after.
fn play_seated(
    seats: &mut [BuiltinAgent; 4],
    agent: &mut BuiltinAgent,
    seat: Seat,
    legal: &mut ActionList,
    variant: &Variant,
    seed: u64,
    context: DealContext,
) -> Result<(Deal, [i64; 4]), WallFailure> {
    std::mem::swap(&mut seats[seat as usize], agent);
    let played = play_table(seats, legal, variant, seed, context);
    std::mem::swap(&mut seats[seat as usize], agent);
    played
}

/// Why a wall could not be played.
enum WallFailure {
    Engine(EngineError),
    Bot(Box<BotFault>),
}

impl From<EngineError> for WallFailure {
    fn from(e: EngineError) -> WallFailure {
        WallFailure::Engine(e)
    }
}

/// The most walls a work item (the unit rayon hands out) holds: enough that cloning the
/// agents for it costs nothing next to playing it.
const CHUNK: u64 = 256;
/// Work items each thread gets at least, when there are walls enough: with fewer, a run of
/// an expensive agent (the search plays a wall in seconds) leaves threads idle, and one of a
/// few hundred walls would play on a single thread.
const ITEMS_PER_THREAD: u64 = 4;

/// Walls per work item for `walls` walls on `threads` threads. The totals are exact integer
/// sums, so they are the same however the walls are cut.
fn walls_per_item(walls: u64, threads: usize) -> u64 {
    walls
        .div_ceil(threads.max(1) as u64 * ITEMS_PER_THREAD)
        .clamp(1, CHUNK)
}

/// Plays `walls` walls from `seed` on the threads of `pool`: the exact totals, the same on any
/// number of threads.
pub fn play_arena(
    candidate: &BuiltinAgent,
    baseline: &BuiltinAgent,
    variant: &Variant,
    walls: u64,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> Result<Tally, ArenaError> {
    let quiet = Progress::new(ProgressMode::Quiet, walls, 0, "walls");
    let sides = Sides {
        candidate,
        baseline,
        field: None,
    };
    play_walls(sides, variant, walls, seed, pool, &quiet, None)
}

/// [`play_arena`], each wall counted on `progress` when played, stopped with
/// [`ArenaError::Interrupted`] before any table once `cancel` is set.
fn play_walls(
    sides: Sides<'_>,
    variant: &Variant,
    walls: u64,
    seed: u64,
    pool: &rayon::ThreadPool,
    progress: &Progress,
    cancel: Option<&AtomicBool>,
) -> Result<Tally, ArenaError> {
    let chunk = walls_per_item(walls, pool.current_num_threads());
    let chunks = walls.div_ceil(chunk);
    pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let others = sides.field.unwrap_or(sides.baseline);
                let mut table = Table {
                    seats: [
                        others.clone(),
                        others.clone(),
                        others.clone(),
                        others.clone(),
                    ],
                    candidate: sides.candidate.clone(),
                    baseline: sides.field.map(|_| sides.baseline.clone()),
                    legal: ActionList::new(),
                };
                // A work item's outside players get processes of their own.
                renew_bots(&mut table.seats, |_| BotStderr::Inherit);
                renew_bots(std::slice::from_mut(&mut table.candidate), |_| {
                    BotStderr::Inherit
                });
                if let Some(baseline) = &mut table.baseline {
                    renew_bots(std::slice::from_mut(baseline), |_| BotStderr::Inherit);
                }
                let mut tally = Tally::default();
                let last = ((c + 1) * chunk).min(walls);
                for wall in c * chunk..last {
                    table.wall(variant, seed, wall, &mut tally, cancel)?;
                    progress.advance(1);
                }
                // A bot found out of step as it is closed voids the walls it played.
                if let Some(fault) = table.close_bots() {
                    return Err(ArenaError::Bot {
                        wall: last - 1,
                        seed: deal_seed(seed, last - 1),
                        fault: Box::new(fault),
                    });
                }
                Ok(tally)
            })
            .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))
    })
}

/// Rates of one side, per seat-deal.
#[derive(Serialize, Debug, PartialEq)]
pub struct SideReport {
    pub points_per_deal: f64,
    pub win_rate: f64,
    pub self_draw_rate: f64,
    pub deal_in_rate: f64,
}

impl SideReport {
    fn of(t: &SideTally) -> SideReport {
        let per = |n: f64| n / t.seats.max(1) as f64;
        SideReport {
            points_per_deal: per(t.points as f64),
            win_rate: per(t.wins as f64),
            self_draw_rate: per(t.self_draws as f64),
            deal_in_rate: per(t.deal_ins as f64),
        }
    }
}

/// What `taisim arena --json` prints.
#[derive(Serialize, Debug, PartialEq)]
pub struct ArenaReport {
    pub candidate: String,
    pub baseline: String,
    /// The other three seats' agent, when it is not the baseline (absent from the JSON then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub variant: String,
    pub seed: u64,
    /// Walls played (each five times, eight against a field).
    pub deals: u64,
    pub deals_played: u64,
    /// Mean over walls of the candidate's points minus the baseline's in the same seat on
    /// the same wall (each wall the mean of its four seats), both against the same others.
    pub mean_diff: f64,
    /// The standard error of `mean_diff`; `None` with a single wall.
    pub std_error: Option<f64>,
    pub ci95_low: Option<f64>,
    pub ci95_high: Option<f64>,
    pub candidate_stats: SideReport,
    pub baseline_stats: SideReport,
    /// Each side's settings spelled out where its name does not say them (plain `search`
    /// as `search:2048:indifference=0.05:…`, which a later taisim may tune otherwise);
    /// absent from the JSON when the name says it all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidate_in_full: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_in_full: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_in_full: Option<String>,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl ArenaReport {
    /// The report as `taisim arena --json` prints it: one JSON object, fields in their
    /// declared order (what Python's `taisim.arena` returns too).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report serialises")
    }

    /// The report of the tally `t`, played against `field` when it is not the baseline
    /// (eight tables a wall, not five).
    pub fn new(
        t: &Tally,
        candidate: &str,
        baseline: &str,
        field: Option<&str>,
        variant: &str,
        seed: u64,
    ) -> ArenaReport {
        let n = t.walls;
        // A wall's statistic is its summed difference / 4.
        let mean_diff = t.diff_sum as f64 / (4 * n.max(1)) as f64;
        // The sample variance of the walls' statistics, from exact integer sums:
        // (n Σx² − (Σx)²) / (16 n (n − 1)), x a wall's summed difference.
        let std_error = (n >= 2).then(|| {
            let n128 = i128::from(n);
            let num = n128 * t.diff_sq_sum - t.diff_sum * t.diff_sum;
            let var = num as f64 / (16.0 * n as f64 * (n - 1) as f64);
            (var / n as f64).sqrt()
        });
        ArenaReport {
            candidate: candidate.to_string(),
            baseline: baseline.to_string(),
            field: field.map(str::to_string),
            variant: variant.to_string(),
            seed,
            deals: n,
            deals_played: if field.is_some() { 8 } else { 5 } * n,
            mean_diff,
            std_error,
            ci95_low: std_error.map(|se| mean_diff - Z95 * se),
            ci95_high: std_error.map(|se| mean_diff + Z95 * se),
            candidate_stats: SideReport::of(&t.candidate),
            baseline_stats: SideReport::of(&t.baseline),
            candidate_in_full: None,
            baseline_in_full: None,
            field_in_full: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interval from exact sums matches one computed wall by wall.
    #[test]
    fn interval_matches_a_direct_computation() {
        let walls: [i128; 6] = [12, -40, 7, 0, 33, -5];
        let t = Tally {
            walls: walls.len() as u64,
            diff_sum: walls.iter().sum(),
            diff_sq_sum: walls.iter().map(|x| x * x).sum(),
            ..Tally::default()
        };
        let r = ArenaReport::new(&t, "greedy", "random", None, "taiwan16", 0);
        let xs: Vec<f64> = walls.iter().map(|&x| x as f64 / 4.0).collect();
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let se = (var / n).sqrt();
        assert!((r.mean_diff - mean).abs() < 1e-12);
        assert!((r.std_error.unwrap() - se).abs() < 1e-12);
        assert!((r.ci95_low.unwrap() - (mean - Z95 * se)).abs() < 1e-12);
        assert!((r.ci95_high.unwrap() - (mean + Z95 * se)).abs() < 1e-12);
        let one = Tally {
            walls: 1,
            diff_sum: 8,
            diff_sq_sum: 64,
            ..Tally::default()
        };
        let r = ArenaReport::new(&one, "greedy", "random", None, "taiwan16", 0);
        assert_eq!((r.mean_diff, r.ci95_low, r.ci95_high), (2.0, None, None));
    }

    /// A match cancelled before it starts plays nothing; one cancelled from another thread
    /// while it runs (a billion walls of a search that takes hours a decision) stops with
    /// [`ArenaError::Interrupted`]; a flag never set leaves the report as it was.
    #[test]
    fn a_cancelled_match_stops() {
        let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
        let duel = || Arena::with_variant("value", "greedy", Arc::clone(&variant)).unwrap();
        let early = duel().cancelled_by(Arc::new(AtomicBool::new(true)));
        assert!(matches!(
            early.play(10, 3, Some(2)),
            Err(ArenaError::Interrupted)
        ));

        let flag = Arc::new(AtomicBool::new(false));
        let unset = duel().cancelled_by(Arc::clone(&flag));
        let plain = duel().play(30, 3, Some(2)).unwrap().report;
        assert_eq!(unset.play(30, 3, Some(2)).unwrap().report, plain);

        // A search that races every action to the end at the largest budget: hours a decision.
        let huge = format!(
            "search:{}:indifference=0",
            taisim_agents::search::SearchConfig::MAX_DETERMINIZATIONS
        );
        let long = Arena::with_variant(&huge, "greedy", Arc::clone(&variant))
            .unwrap()
            .cancelled_by(Arc::clone(&flag));
        let setter = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        });
        let got = long.play(1_000_000_000, 3, Some(2));
        setter.join().unwrap();
        assert!(matches!(got, Err(ArenaError::Interrupted)), "{got:?}");
    }

    /// A match stopped while it waits for an `exec:` side's bot (one that never says hello:
    /// its 60 s start-up timeout far away) ends in [`ArenaError::Interrupted`], not in the
    /// bot's fault: the flag ended the wait, and the bot with it.
    #[test]
    fn a_match_stopped_while_a_bot_is_awaited_is_interrupted() {
        let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
        let marker =
            std::env::temp_dir().join(format!("taisim-arena-cancel-{}", std::process::id()));
        let _ = std::fs::remove_file(&marker);
        let bot = format!("exec:touch {} && sleep 600", marker.display());
        let flag = Arc::new(AtomicBool::new(false));
        let arena = Arena::with_variant(&bot, "greedy", Arc::clone(&variant))
            .unwrap()
            .cancelled_by(Arc::clone(&flag));
        let setter = {
            let marker = marker.clone();
            std::thread::spawn(move || {
                let give_up = std::time::Instant::now() + std::time::Duration::from_secs(120);
                while !marker.exists() && std::time::Instant::now() < give_up {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                flag.store(true, Ordering::Relaxed);
            })
        };
        let got = arena.play(4, 3, Some(1));
        setter.join().unwrap();
        let _ = std::fs::remove_file(&marker);
        assert!(matches!(got, Err(ArenaError::Interrupted)), "{got:?}");
    }

    /// A policy given in memory plays exactly as the same policy by name, and is named by
    /// its bytes' hash; a search agent plays the same match on one thread and on two (it
    /// seeds every decision from the deal).
    #[test]
    fn a_policy_in_memory_and_the_search_play_as_named() {
        let variant = Arc::new(Variant::builtin("taizhou").unwrap());
        let bytes = taisim_agents::TRAINED_POLICY;
        let policy = Arc::new(Policy::from_bytes(bytes).unwrap());
        let memory = Contender::Policy { policy, bytes };
        let by_bytes = Arena::of(
            memory,
            Contender::Named("greedy"),
            Arc::clone(&variant),
            &ExecSettings::default(),
        )
        .unwrap()
        .play(40, 3, Some(1))
        .unwrap()
        .report;
        let by_name = Arena::with_variant("trained", "greedy", Arc::clone(&variant))
            .unwrap()
            .play(40, 3, Some(1))
            .unwrap()
            .report;
        let name = Contender::memory_name(bytes);
        assert!(
            name.starts_with("policy:<memory sha256:") && name.len() == 39,
            "{name}"
        );
        assert_eq!(by_bytes.candidate, name);
        assert_eq!(
            ArenaReport {
                candidate: "trained".into(),
                ..by_bytes
            },
            by_name
        );
        let search = Arena::with_variant("search:4", "greedy", variant).unwrap();
        let one = search.play(6, 11, Some(1)).unwrap().report;
        let two = search.play(6, 11, Some(2)).unwrap();
        // Six walls are work enough for two threads (they were one item of 256 walls).
        assert_eq!(two.threads, 2);
        let two = two.report;
        assert_eq!(one, two);
        assert_eq!(one.candidate, "search:4");
        // The name says search:4's settings; plain search's are spelled out beside it.
        assert_eq!(one.candidate_in_full, None);
        assert!(!one.to_json().contains("in_full"), "{}", one.to_json());
        let plain = Arena::with_variant("search", "search:4", Arc::clone(search.variant()))
            .unwrap()
            .with_field(Contender::Named("search"), &ExecSettings::default())
            .unwrap();
        let plain = plain.report(&Tally::default(), 0);
        assert_eq!(plain.candidate, "search");
        assert_eq!(
            plain.candidate_in_full.as_deref(),
            Some("search:2048:indifference=0.05:opening=0.2:opening_discards=32")
        );
        assert_eq!(plain.baseline_in_full, None);
        assert_eq!(plain.field_in_full, plain.candidate_in_full);
        assert!(plain.to_json().contains(
            r#""candidate_in_full":"search:2048:indifference=0.05:opening=0.2:opening_discards=32""#
        ));
    }

    #[test]
    fn every_thread_gets_work_items_and_no_item_is_larger_than_a_chunk() {
        for threads in [1usize, 2, 3, 16] {
            for walls in [1u64, 2, 6, 200, 2_000, 20_000, 1 << 20] {
                let per = walls_per_item(walls, threads);
                let items = walls.div_ceil(per);
                assert!(
                    (1..=CHUNK).contains(&per),
                    "{walls} walls, {threads} threads"
                );
                // Every thread gets an item, and items are as small as four a thread needs.
                let why = format!("{walls} walls on {threads} threads: {items} items of {per}");
                assert!(items >= (threads as u64).min(walls), "{why}");
                assert!(
                    per * threads as u64 * ITEMS_PER_THREAD
                        < walls + threads as u64 * ITEMS_PER_THREAD
                        || per == 1,
                    "{why}"
                );
            }
        }
        // The search's 200-wall runs used to be one item of 256 walls, played on one thread.
        assert_eq!(walls_per_item(200, 2), 25);
        assert_eq!(walls_per_item(20_000, 2), CHUNK);
    }

    /// The tallies are exact integer sums: cut into items of any size, the walls give the
    /// same totals.
    #[test]
    fn the_tally_is_the_same_on_any_number_of_threads() {
        let variant = Arc::new(Variant::builtin(Variant::DEFAULT).unwrap());
        let candidate = AgentSpec::Random.build(&variant).unwrap();
        let baseline = AgentSpec::Greedy.build(&variant).unwrap();
        let tallies: Vec<Tally> = [1, 2, 3]
            .iter()
            .map(|&n| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap();
                play_arena(&candidate, &baseline, &variant, 37, 5, &pool).unwrap()
            })
            .collect();
        assert_eq!(tallies[0].walls, 37);
        assert_ne!(tallies[0].diff_sum, 0, "random and greedy play differently");
        assert_eq!(tallies[0], tallies[1]);
        assert_eq!(tallies[0], tallies[2]);
    }

    #[test]
    fn progress_counts_every_wall() {
        let variant = Arc::new(Variant::builtin(Variant::DEFAULT).unwrap());
        let greedy = AgentSpec::Greedy.build(&variant).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let progress = Progress::new(ProgressMode::Quiet, 21, 0, "walls");
        let sides = Sides {
            candidate: &greedy,
            baseline: &greedy,
            field: None,
        };
        let tally = play_walls(sides, &variant, 21, 3, &pool, &progress, None).unwrap();
        assert_eq!((tally.walls, progress.done()), (21, 21));
    }

    /// Against a field, a match is the difference of the two plain matches against that
    /// field, to the point: the candidate's tally is its own against the field, the
    /// baseline's is the baseline's as a candidate against the field, and every wall's
    /// difference (so its square) is theirs subtracted, under the default variant and taizhou.
    /// Swapping the two sides negates it. A field named as the baseline is the plain match.
    #[test]
    fn a_match_against_a_field_is_two_matches_against_it_subtracted() {
        const WALLS: u64 = 8;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let quiet = || Progress::new(ProgressMode::Quiet, WALLS, 0, "walls");
        for name in [Variant::DEFAULT, "taizhou"] {
            let variant = Arc::new(Variant::builtin(name).unwrap());
            let [a, b, f] = ["value", "random", "greedy"]
                .map(|n| n.parse::<AgentSpec>().unwrap().build(&variant).unwrap());
            let against = |candidate, baseline, walls| {
                let sides = Sides {
                    candidate,
                    baseline,
                    field: Some(&f),
                };
                play_walls(sides, &variant, walls, 4, &pool, &quiet(), None).unwrap()
            };
            let both = against(&a, &b, WALLS);
            let a_f = play_arena(&a, &f, &variant, WALLS, 4, &pool).unwrap();
            let b_f = play_arena(&b, &f, &variant, WALLS, 4, &pool).unwrap();
            assert_eq!(both.walls, WALLS);
            assert_eq!(both.candidate, a_f.candidate, "{name}");
            assert_eq!(both.baseline, b_f.candidate, "{name}");
            assert_eq!(both.diff_sum, a_f.diff_sum - b_f.diff_sum, "{name}");
            assert_ne!(both.diff_sum, 0, "{name}: value and random play alike");
            // Each wall's difference, from the runs of its first k walls.
            let cumulative = |walls| {
                let a_f = play_arena(&a, &f, &variant, walls, 4, &pool).unwrap();
                let b_f = play_arena(&b, &f, &variant, walls, 4, &pool).unwrap();
                a_f.diff_sum - b_f.diff_sum
            };
            let mut squares = 0;
            let mut before = 0;
            for k in 1..=WALLS {
                let now = cumulative(k);
                squares += (now - before) * (now - before);
                before = now;
            }
            assert_eq!(both.diff_sq_sum, squares, "{name}");
            let swapped = against(&b, &a, WALLS);
            assert_eq!(
                (swapped.diff_sum, swapped.diff_sq_sum),
                (-both.diff_sum, both.diff_sq_sum)
            );
            assert_eq!(
                (swapped.candidate, swapped.baseline),
                (both.baseline, both.candidate)
            );
        }
        let settings = ExecSettings::default();
        let arena = |field: &str| {
            Arena::with_variant(
                "value",
                "random",
                Arc::new(Variant::builtin("taiwan16").unwrap()),
            )
            .unwrap()
            .with_field(Contender::Named(field), &settings)
            .unwrap()
        };
        let plain = Arena::with_variant(
            "value",
            "random",
            Arc::new(Variant::builtin("taiwan16").unwrap()),
        )
        .unwrap()
        .play(5, 2, Some(1))
        .unwrap()
        .report;
        let by_name = arena("random");
        assert_eq!(by_name.field(), None);
        assert_eq!(by_name.play(5, 2, Some(1)).unwrap().report, plain);
        let greedy = arena("greedy").play(5, 2, Some(1)).unwrap().report;
        assert_eq!(greedy.field.as_deref(), Some("greedy"));
        assert_eq!((greedy.deals, greedy.deals_played), (5, 40));
        assert!(greedy
            .to_json()
            .contains(r#""baseline":"random","field":"greedy","#));
        assert!(!plain.to_json().contains("field"));
        let unknown = Arena::with_variant(
            "value",
            "random",
            Arc::new(Variant::builtin("taiwan16").unwrap()),
        )
        .unwrap()
        .with_field(Contender::Named("greedier"), &settings);
        assert!(matches!(
            unknown,
            Err(ArenaError::AgentName {
                side: Side::Field,
                ..
            })
        ));
    }

    /// Points are zero-sum on every table, so the reference table's points sum to zero and
    /// each side's tallies count four seats a wall.
    #[test]
    fn tallies_count_every_seat_and_conserve_points() {
        let variant = Arc::new(Variant::builtin(Variant::DEFAULT).unwrap());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let same = AgentSpec::Greedy.build(&variant).unwrap();
        let t = play_arena(&same, &same, &variant, 300, 9, &pool).unwrap();
        assert_eq!(t.walls, 300);
        assert_eq!(t.candidate.seats, 1200);
        assert_eq!(t.baseline.seats, 1200);
        assert_eq!(t.baseline.points, 0, "the reference tables are zero-sum");
        // The same agent in the candidate's chair plays the same deals.
        assert_eq!(t.candidate, t.baseline);
        assert_eq!((t.diff_sum, t.diff_sq_sum), (0, 0));
        assert!(t.baseline.wins > 0 && t.baseline.deal_ins > 0 && t.baseline.self_draws > 0);
    }
}
