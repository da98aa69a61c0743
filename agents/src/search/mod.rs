//! `search`: information-set Monte Carlo over the engine.
//!
//! At each decision with a real choice the agent samples determinizations of what its seat
//! cannot see ([`View::redeal`]) from its [belief](Belief) about the other seats' hands, plays
//! every candidate action forward on the same determinizations (common random numbers) with
//! greedy play in every seat to the end of the deal, scores each end with the variant's own
//! scoring and settlement, and plays the action of highest expected points.
//!
//! Candidates. At a turn a prior keeps the actions worth searching: every action that is not
//! a discard (kongs), the discards that leave the least shanten, greedy's own choice, and, when a screen
//! of [`SCREEN_FILLS`] fills shows some kept discard dealing in often enough
//! ([`DANGER_TO_DEFEND`]), the [`SAFE_CANDIDATES`] safest discards too. Every action offered
//! on another seat's discard (claims and passing) is a candidate.
//!
//! Rollouts are shared out by racing ([`Schedule::Racing`], the default): every candidate is
//! played on the first determinizations, then, doubling the count each round, only those whose
//! paired advantage over greedy's choice (the *default*) is not clearly below a gain worth
//! having; a decision stops as soon as the default alone is left (most decisions: greedy's
//! choice is clearly as good as any), else at the budget. Plain `search` ([`SearchConfig::plain`])
//! deems smaller gains worth having late in the deal, where rollouts are short. Sequential halving
//! ([`Schedule::Halving`]) is the alternative. The default is always kept, and the search plays
//! another action only when its advantage over the default, paired on the same
//! determinizations, exceeds [`SearchConfig::margin`] standard errors: a noisy estimate then
//! falls back on a sound heuristic instead of a lucky one.
//!
//! A win offered is searched like any other decision, the win being the default
//! ([`Wins::Search`]): greedy takes every win, but a ready hand early in a deal may be worth
//! more when it lets a discard go by for a self-draw (paid by all three) or plays on for a
//! dearer hand, and the variant's table says by how much (`wins=take` takes every win
//! unsearched). A win robbing a kong or a flower (搶槓, 七搶一) is searched too; only a flower
//! robbed while the flowers first dealt are still being replaced is taken unsearched, that
//! decision not one the view can be redealt at. A decision with one legal action is not
//! searched.
//!
//! The default and the searching seat's own later play in the rollouts are greedy's unless
//! `own=value` names the [value agent](crate::value::ValueAgent) ([`OwnPolicy`]), which weighs
//! its waits by the variant's table; the other seats play greedy either way, as the belief
//! models them.
//!
//! A rollout's live draws come off the sampled wall's live end ([`Draws::Wall`], the default)
//! or, with `draws=seat`, off the wall dealt out by seat at the decision ([`Draws::BySeat`]):
//! then a claim in one candidate's rollout does not hand every later draw to another seat than
//! in the default's, and the paired advantages are a third less noisy (the same estimates in
//! expectation, every draw being uniform over the undrawn tiles either way).
//!
//! The agent decides on its view alone: the determinizations are drawn from the view (the
//! redealt deal is built from the view's public part and the sampled hidden part), and its
//! generator is seeded from the deal's seed, its seat and the public state, so two deals that
//! differ only in what the seat cannot see get the same decision and the same estimates
//! (tested). It allocates nothing per decision or rollout: its scratch is sized when built.
//!
//! With [`SearchConfig::threads`] above 1 a decision's rollouts are played on that many
//! threads: the calling thread draws each round's fills in order and hands each out as soon
//! as it is drawn (each thread has its own rollout scratch), then plays fills too; the points
//! come back with their place in the draw and are tallied in that order, so the decision
//! and its estimates are those of one thread (tested). The threads are started for each
//! round (scoped threads: nothing outlives a decision); the round's hand-out allocates a
//! little (a channel's blocks), never per rollout.

mod belief;
mod estimate;
mod pool;
mod rollout;
mod stake;
mod true_hands;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use arrayvec::ArrayVec;
use rand_pcg::Pcg64Mcg;
use taisim_score::Variant;
use taisim_sim::algo::{self, Discards};
use taisim_sim::{
    deal_seed, rng_from_seed, splitmix64, Action, ActionList, Deal, Fill, Seat, Tile, TileSet, View,
};

use crate::agent::Agent;
use crate::greedy::GreedyAgent;
use crate::knowledge::{hand_rules, sets_needed};
use crate::minimum::Minimum;
use crate::value::ValueAgent;
pub use belief::{Belief, BeliefModel};
pub use true_hands::TrueHands;

/// Plays `deal` to its end with `policy` in every seat and returns `seat`'s points under
/// `variant`'s own settlement: one rollout, as the search plays them (what its benchmark
/// times), but for the memo of hands that the search's rollouts share (a lone rollout meets
/// no hand twice). Allocates nothing.
pub fn rollout(deal: &mut Deal, seat: Seat, variant: &Variant, policy: RolloutPolicy) -> i64 {
    Rollout::with_memo(policy, 0, Minimum::of(variant)).finish(deal, seat, variant)
}

/// A source of determinizations: fills of what a seat cannot see. The search agent's own is
/// its [`Belief`]; a test or a study may give another to [`SearchAgent::decide_with`].
pub trait Sampler {
    /// Called once per decision before the samples, with the decision's generator.
    fn prepare(&mut self, view: &View<'_>, rng: &mut Pcg64Mcg);
    /// One fill of what `view`'s seat cannot see, or `None` to skip a sample.
    fn sample(&mut self, view: &View<'_>, rng: &mut Pcg64Mcg) -> Option<&Fill>;
}

impl Sampler for Belief {
    fn prepare(&mut self, view: &View<'_>, _rng: &mut Pcg64Mcg) {
        Belief::prepare(self, view)
    }

    fn sample(&mut self, view: &View<'_>, rng: &mut Pcg64Mcg) -> Option<&Fill> {
        Belief::sample(self, view, rng)
    }
}
pub use estimate::MAX_CANDIDATES;
use estimate::{halve, Candidate, Candidates};
use rollout::Rollout;
pub use rollout::RolloutPolicy;
pub use stake::{stake, stake_ratio, STAKE_DEALS};

/// How hard the search works.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Determinizations a decision may sample: the most rollouts an action that survives the
    /// culling gets (the agent's name carries it: `search:256`).
    pub determinizations: u32,
    /// Standard errors by which another action's paired advantage over the default (its own
    /// policy's choice, [`OwnPolicy`]) must exceed zero for the search to play it.
    pub margin: f64,
    /// How the other seats' concealed tiles are sampled.
    pub belief: BeliefModel,
    /// The policy of every seat in the rollouts.
    pub rollout: RolloutPolicy,
    /// Search only the turn actions a prior keeps (see `turn_candidates`); off, every legal
    /// action is searched (the review of a deal does that).
    pub prune: bool,
    /// How the determinizations are shared out among the candidates.
    pub schedule: Schedule,
    /// How the rollouts' walls are drawn.
    pub draws: Draws,
    /// The policy of the searching seat: its default action and its own play in the
    /// rollouts.
    pub own: OwnPolicy,
    /// Whether a win offered is taken at once or searched against the other legal actions.
    pub wins: Wins,
    /// Threads a decision's rollouts are played on (1 to [`SearchConfig::MAX_THREADS`]). The
    /// determinizations are still drawn one after another from the decision's generator,
    /// and each one's points are tallied in the order drawn, so the decision and every
    /// estimate are the same on any number of threads.
    pub threads: u32,
}

/// What the search does with a win it is offered (a discard it may win on, or a self-drawn
/// winning hand).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wins {
    /// Taken at once, as greedy takes it.
    Take,
    /// Searched like any other decision, the win being the default action: let go only when
    /// another action (passing a discard for a self-draw, or playing on for a dearer hand) is
    /// worth clearly more under the variant's own table.
    Search,
}

/// Who plays the searching seat outside the search's own choice: the *default* action, which
/// every candidate is measured against and which the search falls back on, and the seat's
/// own later decisions in every rollout. The other seats are played by the rollout policy
/// ([`RolloutPolicy`]) either way, as the belief models them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OwnPolicy {
    /// Greedy, as the other seats.
    Greedy,
    /// The [`ValueAgent`]: greedy with its ready and one-from-ready ties broken by the
    /// variant's table at the decision; in the rollouts, where it plays thousands of times a
    /// decision, only its ready ties (its one-away weighing tries every draw and would cost
    /// the search several times its budget).
    Value,
}

impl OwnPolicy {
    /// The policy as the `own` setting names it (`greedy`, `value`).
    pub const fn name(self) -> &'static str {
        match self {
            OwnPolicy::Greedy => "greedy",
            OwnPolicy::Value => "value",
        }
    }
}

/// How the live draws of a rollout come off its (sampled) wall. Every draw is uniform over
/// the undrawn tiles either way, so each candidate's estimate is the same in expectation;
/// what differs is how alike the candidates' rollouts on one determinization stay.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Draws {
    /// From the live end, as the table draws: a claim that skips a seat hands every later
    /// draw to another seat than in a continuation without it.
    Wall,
    /// Dealt out by seat at the decision ([`Deal::split_wall_by_seat`]): each seat draws down
    /// its own column, so continuations that claim differently deal each seat the same tiles.
    BySeat,
}

/// How a decision's determinizations are shared out among its candidates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Schedule {
    /// Sequential halving: all candidates on the first share, the better half by mean on twice
    /// as many, and so on, the survivors on the whole budget.
    Halving,
    /// Racing: every candidate on the first `first` determinizations, then, doubling the count
    /// each round, those whose paired advantage over the default is not `cull` standard errors
    /// below `indifference` points (a gain too small to be worth the rollouts); the decision
    /// stops as soon as only the default is left (most decisions: greedy's choice is clearly
    /// as good as any), else at the budget. The indifference is in points at taiwan16's
    /// stakes: under another variant it is scaled by the variant's [`stake_ratio`] (taizhou's
    /// all-pairs settlement moves a seat's points about 28 times as far), so that it means
    /// the same gain under every settlement.
    ///
    /// `opening`, when set, is the indifference while fewer than `opening_discards` discards
    /// lie on the table ([`OPENING_DISCARDS`] unless named): the opening's decisions cost the
    /// most (their rollouts are the longest, and they raced to the budget more often: the
    /// first 8 discards took 43% of the default's time on development seed 10, the next 8
    /// another 27%) and its small gains are worth the least (an indifference of 0.05 gained
    /// nothing over 0.2 before 16 discards, and +0.028 a seat and deal after them; the
    /// default's departures before 8 discards gained +0.012 a seat and deal of its +0.114).
    Racing {
        first: u32,
        cull: f64,
        indifference: f64,
        opening: Option<f64>,
        opening_discards: u32,
    },
}

/// Discards on the table (four turns of each seat) before which the racing reads its
/// `opening` indifference, unless its name sets `opening_discards`.
pub const OPENING_DISCARDS: u32 = 16;

/// Fills sampled to screen a turn's discards for danger.
pub const SCREEN_FILLS: u32 = 32;
/// Discards kept for their safety beyond those of least shanten.
pub const SAFE_CANDIDATES: usize = 2;
/// The share of fills in which some kept discard deals in, from which safer discards are
/// searched too.
pub const DANGER_TO_DEFEND: f64 = 0.05;

impl SearchConfig {
    /// The budget of plain `search`.
    pub const DEFAULT_DETERMINIZATIONS: u32 = 2048;
    /// The most determinizations a name may ask for.
    pub const MAX_DETERMINIZATIONS: u32 = 1 << 20;

    /// The most threads a decision may play its rollouts on.
    pub const MAX_THREADS: u32 = 256;

    /// The racing's indifference of `search:N`, in points at taiwan16's stakes.
    pub const INDIFFERENCE: f64 = 0.2;

    /// The indifference of plain `search` once [`PLAIN_LATE_DISCARDS`] discards lie on the
    /// table; before, it races at `search:N`'s [`SearchConfig::INDIFFERENCE`].
    pub const PLAIN_LATE_INDIFFERENCE: f64 = 0.05;

    /// The configuration of `search:N`.
    pub const fn with_budget(determinizations: u32) -> SearchConfig {
        SearchConfig {
            determinizations,
            margin: 1.0,
            belief: BeliefModel::Play,
            rollout: RolloutPolicy::Greedy,
            prune: true,
            schedule: Schedule::Racing {
                first: 64,
                cull: 1.5,
                indifference: SearchConfig::INDIFFERENCE,
                opening: None,
                opening_discards: OPENING_DISCARDS,
            },
            draws: Draws::Wall,
            own: OwnPolicy::Greedy,
            wins: Wins::Search,
            threads: 1,
        }
    }

    /// The configuration of plain `search`: `search:2048`, whose racing deems a gain of 0.05
    /// points worth its rollouts from [`PLAIN_LATE_DISCARDS`] discards on (its name in full:
    /// `search:2048:indifference=0.05:opening=0.2:opening_discards=32`). Late in the deal the
    /// rollouts are short, so the small indifference costs little (1.04 to 1.10 times the time
    /// of `search:2048`), and the small departures it lets through there gain: +0.011 ± 0.003
    /// a seat and deal over `search:2048`, paired decision by decision on four development
    /// seeds (1093 to 1096; BENCHMARKS.md, twenty-fourth and twenty-fifth sessions). Earlier, where the
    /// rollouts are long, the small indifference cost twice the time for no gain.
    pub const fn plain() -> SearchConfig {
        let mut config = SearchConfig::with_budget(SearchConfig::DEFAULT_DETERMINIZATIONS);
        if let Schedule::Racing {
            indifference,
            opening,
            opening_discards,
            ..
        } = &mut config.schedule
        {
            *opening = Some(*indifference);
            *indifference = SearchConfig::PLAIN_LATE_INDIFFERENCE;
            *opening_discards = PLAIN_LATE_DISCARDS;
        }
        config
    }

    /// Whether the search keeps only the prior's candidates at the decision `view` faces:
    /// at a turn, when `prune` is on. Every action offered on another seat's discard is a
    /// candidate either way, so there a pruning search is the search of every action.
    pub fn prunes_at(&self, view: &View<'_>) -> bool {
        self.prune && view.tile_on_offer().is_none()
    }
}

/// Discards on the table (eight turns of each seat) from which plain `search` races at
/// [`SearchConfig::PLAIN_LATE_INDIFFERENCE`].
pub const PLAIN_LATE_DISCARDS: u32 = 32;

/// Plain `search` ([`SearchConfig::plain`]).
impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig::plain()
    }
}

/// One action's estimate at a searched decision.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ActionEstimate {
    pub action: Action,
    /// Determinizations it was played on (fewer for actions culled early).
    pub rollouts: u32,
    /// Mean points of the seat at the end of the deal.
    pub mean: f64,
    /// The standard error of `mean`.
    pub std_error: f64,
    /// Mean points more than the default action on the same determinizations.
    pub advantage: f64,
    /// The standard error of `advantage`.
    pub advantage_error: f64,
}

/// What the search worked out at its last decision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchDecision {
    /// Every legal action's estimate, in the engine's order; empty when the decision was not
    /// searched (one legal action, or a win taken unsearched: under `wins=take`, or one
    /// robbing a flower while the flowers first dealt are replaced).
    pub estimates: ArrayVec<ActionEstimate, MAX_CANDIDATES>,
    /// The searching seat's own policy's choice ([`OwnPolicy`]: greedy's unless named).
    pub default: Option<Action>,
    /// The action of highest mean among those played on every determinization.
    pub best: Option<Action>,
    /// What the agent played.
    pub chosen: Option<Action>,
    /// Determinizations sampled.
    pub determinizations: u32,
}

/// The search agent (see the module documentation).
#[derive(Clone, Debug)]
pub struct SearchAgent {
    /// `search:N`, as the command line names it.
    name: String,
    seed: u64,
    seat: Seat,
    belief: Belief,
    search: Search,
}

/// The search proper, apart from where its determinizations come from.
#[derive(Clone, Debug)]
struct Search {
    variant: Arc<Variant>,
    config: SearchConfig,
    /// The variant's [`stake_ratio`]: the racing's indifference is in points at taiwan16's
    /// stakes, and this many times as many under the variant.
    stakes: f64,
    rollout: Rollout,
    /// The rollouts of the threads beside the caller's (`threads` − 1 of them), with the
    /// round's fills and points (see [`Search::play_round`]).
    helpers: Vec<Rollout>,
    round: Round,
    /// The searching seat's default policy when it is not greedy ([`OwnPolicy::Value`]).
    value: Option<ValueAgent>,
    /// Greedy under the variant: the default action when `value` is not.
    greedy: GreedyAgent,
    candidates: Candidates,
    decision: SearchDecision,
    /// Set from outside to end the decision under way ([`SearchAgent::cancelled_by`]).
    cancel: Option<Arc<AtomicBool>>,
}

impl SearchAgent {
    /// A search agent playing under `variant`'s scoring and settlement.
    pub fn new(variant: Arc<Variant>, config: SearchConfig) -> SearchAgent {
        let (value, own) = match config.own {
            OwnPolicy::Greedy => (None, None),
            OwnPolicy::Value => (
                Some(ValueAgent::new(Arc::clone(&variant))),
                Some(ValueAgent::with_reach(Arc::clone(&variant), 0)),
            ),
        };
        let minimum = Minimum::of_shared(&variant);
        let greedy = GreedyAgent::with_minimum(minimum.clone());
        SearchAgent {
            name: format!("search:{}", config.determinizations),
            seed: 0,
            seat: Seat::East,
            belief: Belief::new(config.belief),
            search: Search {
                stakes: stake_ratio(&variant),
                variant,
                config,
                helpers: (1..config.threads.clamp(1, SearchConfig::MAX_THREADS))
                    .map(|_| Rollout::new(config.rollout, own.clone(), minimum.clone()))
                    .collect(),
                rollout: Rollout::new(config.rollout, own, minimum),
                round: Round::default(),
                value,
                greedy,
                candidates: Candidates::new(),
                decision: SearchDecision::default(),
                cancel: None,
            },
        }
    }

    /// The same agent, whose decisions stop drawing determinizations once `flag` is set: the
    /// decision under way ends at its next fill, on what it has played so far (its default
    /// when nothing beat it yet), and so does every decision after. For a caller that
    /// discards what it decides once it sets the flag (a review stopped by Ctrl-C); a
    /// decision with the flag never set is the same as without it.
    pub fn cancelled_by(mut self, flag: Arc<AtomicBool>) -> SearchAgent {
        self.cancel_on(flag);
        self
    }

    /// [`SearchAgent::cancelled_by`] on an agent in place.
    pub fn cancel_on(&mut self, flag: Arc<AtomicBool>) {
        self.search.cancel = Some(flag);
    }

    /// The agent named `name` (as its tuned name reads: `search:2048:indifference=0.05`).
    pub fn with_name(mut self, name: String) -> SearchAgent {
        self.name = name;
        self
    }

    pub const fn config(&self) -> &SearchConfig {
        &self.search.config
    }

    /// What the search worked out at its last decision (for a review of its reasons).
    pub fn last_decision(&self) -> &SearchDecision {
        &self.search.decision
    }

    /// Decides as [`Agent::act`] does, with its determinizations drawn from `sampler` instead
    /// of the agent's belief.
    pub fn decide_with(
        &mut self,
        view: &View<'_>,
        legal: &ActionList,
        sampler: &mut impl Sampler,
    ) -> Action {
        let rng = self.decision_rng(view);
        self.search.decide(view, legal, sampler, rng)
    }

    /// The generator of one decision: the deal's seed, the seat and the public state, so a
    /// decision depends on nothing the seat cannot see (not even the count of the hidden
    /// answers other seats gave to offers).
    fn decision_rng(&self, view: &View<'_>) -> Pcg64Mcg {
        let hand = view.hand().packed();
        let offer = view.tile_on_offer().map_or(0xff, |t| t.to_u8() as u64);
        let mut key = splitmix64(hand as u64 ^ splitmix64((hand >> 64) as u64));
        key ^= splitmix64(
            (view.discards().len() as u64) << 16 | (view.tiles_left() as u64) << 8 | offer,
        );
        rng_from_seed(deal_seed(self.seed, key ^ (0x5ea7_c400 + self.seat as u64)))
    }
}

impl Search {
    fn cancelled(&self) -> bool {
        is_set(self.cancel.as_deref())
    }

    fn decide(
        &mut self,
        view: &View<'_>,
        legal: &ActionList,
        sampler: &mut impl Sampler,
        rng: Pcg64Mcg,
    ) -> Action {
        self.decision = SearchDecision::default();
        // Greedy and the value agent alike take the first win the variant's minimum (起胡)
        // admits, so the default is a win exactly when there is one to take.
        let default = match &mut self.value {
            Some(value) => value.act(view, legal),
            None => self.greedy.act(view, legal),
        };
        self.rollout.set_own_seat(view.seat());
        for r in &mut self.helpers {
            r.set_own_seat(view.seat());
        }
        self.decision.default = Some(default);
        // `wins=take` takes the default's win unsearched. A flower robbed while the flowers
        // first dealt are replaced (七搶一 before the first turn) is not a decision the view
        // can be redealt at: the default (that win) is played.
        let unsearched = (default.is_win() && self.config.wins == Wins::Take)
            || legal.len() == 1
            || !view.can_redeal();
        let chosen = if unsearched {
            default
        } else {
            self.search(view, legal, default, sampler, rng)
        };
        self.decision.chosen = Some(chosen);
        chosen
    }

    fn search(
        &mut self,
        view: &View<'_>,
        legal: &ActionList,
        default: Action,
        sampler: &mut impl Sampler,
        mut rng: Pcg64Mcg,
    ) -> Action {
        sampler.prepare(view, &mut rng);
        self.candidates.clear();
        let keep = if self.config.prunes_at(view) {
            self.turn_candidates(view, legal, default, sampler, &mut rng)
        } else {
            u64::MAX
        };
        for (i, &a) in legal.iter().enumerate() {
            let mut c = Candidate::new(a);
            c.alive = keep >> i.min(63) & 1 == 1 || a == default;
            self.candidates.push(c);
        }
        let default_index = self
            .candidates
            .iter()
            .position(|c| c.action == default)
            .expect("greedy chooses a legal action");
        let total = self.config.determinizations.max(1);
        let mut done = 0u32;
        match self.config.schedule {
            Schedule::Halving => {
                // Rounds enough to bring the candidates down to two.
                let alive = self.candidates.iter().filter(|c| c.alive).count();
                let rounds = (usize::BITS - (alive.max(2) - 1).leading_zeros()).max(1);
                for round in 0..rounds {
                    let upto = (total >> (rounds - 1 - round)).max(1).max(done);
                    self.play_round(view, default_index, sampler, &mut rng, upto - done);
                    done = upto;
                    if self.cancelled() {
                        break;
                    }
                    if round + 1 < rounds {
                        halve(&mut self.candidates, default_index);
                    }
                }
            }
            Schedule::Racing {
                first,
                cull,
                indifference,
                opening,
                opening_discards,
            } => {
                let indifference = match opening {
                    Some(x) if view.discards().len() < opening_discards as usize => x,
                    _ => indifference,
                };
                let mut upto = first.clamp(1, total);
                loop {
                    self.play_round(view, default_index, sampler, &mut rng, upto - done);
                    done = upto;
                    // A challenger clearly worse than the default is dropped.
                    for (i, c) in self.candidates.iter_mut().enumerate() {
                        if i != default_index
                            && c.alive
                            && c.advantage() + cull * c.advantage_error()
                                < indifference * self.stakes
                        {
                            c.alive = false;
                        }
                    }
                    let contenders = self.candidates.iter().filter(|c| c.alive).count();
                    if contenders <= 1 || done >= total || self.cancelled() {
                        break;
                    }
                    upto = (2 * done).min(total);
                }
            }
        }
        // The best of the candidates played on every determinization, against the default.
        let best = self
            .candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.alive)
            .max_by(|(i, a), (j, b)| a.mean().total_cmp(&b.mean()).then(j.cmp(i)))
            .map(|(i, _)| i)
            .expect("the default survives");
        let b = &self.candidates[best];
        let chosen = if best != default_index
            && b.advantage() > self.config.margin * b.advantage_error()
            && b.advantage() > 0.0
        {
            b.action
        } else {
            default
        };
        self.decision.determinizations = done;
        self.decision.best = Some(b.action);
        self.decision.estimates = self
            .candidates
            .iter()
            .map(|c| ActionEstimate {
                action: c.action,
                rollouts: c.n,
                mean: c.mean(),
                std_error: c.std_error(),
                advantage: c.advantage(),
                advantage_error: c.advantage_error(),
            })
            .collect();
        chosen
    }

    /// The turn actions worth searching, as bits by position in the legal list: every kong,
    /// every discard (plain or declaring ready) that leaves the least shanten, and, when the
    /// others look dangerous, the [`SAFE_CANDIDATES`] discards least likely to deal in by the
    /// sampler's fills (a screening of [`SCREEN_FILLS`] of them).
    fn turn_candidates(
        &mut self,
        view: &View<'_>,
        legal: &ActionList,
        default: Action,
        sampler: &mut impl Sampler,
        rng: &mut Pcg64Mcg,
    ) -> u64 {
        let hand = view.hand();
        let rules = hand_rules(view, sets_needed(view));
        let discards = Discards::new(hand, rules);
        let (least, _) = discards.least();
        let mut danger = [0u32; Tile::NUM];
        let mut screened = 0u32;
        for _ in 0..SCREEN_FILLS {
            let Some(fill) = sampler.sample(view, rng) else {
                continue;
            };
            screened += 1;
            let mut any = 0u64;
            for k in 1..4u8 {
                let o = view.seat().add(k);
                let sets = view.rules().sets - view.melds(o).count() as u8;
                any |= algo::waits(&fill.hands[o], rules.with_sets(sets)).0;
            }
            for t in TileSet(any) {
                danger[t.index()] += 1;
            }
        }
        let mut keep = 0u64;
        let mut others: ArrayVec<(u32, usize), MAX_CANDIDATES> = ArrayVec::new();
        let mut kept_danger = 0;
        let mut index = 0;
        let mut visit = |a: Action| {
            let i = index;
            index += 1;
            let tile = match a {
                Action::Discard(t) | Action::DiscardReady(t) => t,
                _ => {
                    keep |= 1 << i.min(63);
                    return;
                }
            };
            if discards.shanten(tile) == least || a == default {
                keep |= 1 << i.min(63);
                kept_danger = kept_danger.max(danger[tile.index()]);
            } else {
                others.push((danger[tile.index()], i));
            }
        };
        for &a in legal.iter() {
            visit(a);
        }
        if screened > 0 && kept_danger as f64 >= DANGER_TO_DEFEND * screened as f64 {
            others.sort_unstable();
            for &(d, i) in others.iter().take(SAFE_CANDIDATES) {
                if d < kept_danger {
                    keep |= 1 << i.min(63);
                }
            }
        }
        keep
    }

    /// Samples `count` determinizations and plays every live candidate on each, tallying
    /// their points in the order drawn. On one thread each is played as soon as drawn; on
    /// more, the calling thread draws them in order (the sampler and the generator are one
    /// stream) and hands each out as drawn to the threads, each with its own rollout scratch,
    /// then plays them too, and the points are tallied in the order drawn once all are in:
    /// the same points in the same order as on one thread.
    fn play_round(
        &mut self,
        view: &View<'_>,
        default_index: usize,
        sampler: &mut impl Sampler,
        rng: &mut Pcg64Mcg,
        count: u32,
    ) {
        let live: ArrayVec<Option<Action>, MAX_CANDIDATES> = self
            .candidates
            .iter()
            .map(|c| c.alive.then_some(c.action))
            .collect();
        let play = Play {
            view,
            variant: &self.variant,
            draws: self.config.draws,
            live: &live,
            default_index,
        };
        let width = live.len();
        if self.helpers.is_empty() {
            let mut row = [0.0; MAX_CANDIDATES];
            for _ in 0..count {
                if self.cancelled() {
                    break;
                }
                let Some(fill) = sampler.sample(view, rng) else {
                    continue;
                };
                if play.fill(&mut self.rollout, fill, &mut row[..width]) {
                    tally(&mut self.candidates, &row[..width], default_index);
                }
            }
            return;
        }
        // The calling thread draws the fills in order and hands each to the helpers as soon
        // as it is drawn, so that rollouts start while the fills are still being drawn; then
        // it plays fills too. Each row comes back with its fill's place in the draw, and the
        // rows are tallied in that order once all are in.
        let (work, queue) = mpsc::channel::<(usize, Fill)>();
        let queue = Mutex::new(queue);
        let (rows, results) = mpsc::channel::<(usize, Option<[f64; MAX_CANDIDATES]>)>();
        let play = &play;
        let rollout = &mut self.rollout;
        let helpers = &mut self.helpers;
        let cancel = self.cancel.as_deref();
        let mut drawn = 0;
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let (queue, rows) = (&queue, rows.clone());
                scope.spawn(move || play.take(helper, queue, &rows));
            }
            for _ in 0..count {
                if is_set(cancel) {
                    break;
                }
                if let Some(fill) = sampler.sample(view, rng) {
                    // The receivers live until the scope ends: a send cannot fail.
                    work.send((drawn, fill.clone())).ok();
                    drawn += 1;
                }
            }
            drop(work);
            play.take(rollout, &queue, &rows);
        });
        drop(rows);
        let round = &mut self.round;
        round.points.clear();
        round.points.resize(drawn * width, 0.0);
        round.played.clear();
        round.played.resize(drawn, false);
        for (k, row) in results.try_iter() {
            if let Some(row) = row {
                round.points[k * width..(k + 1) * width].copy_from_slice(&row[..width]);
                round.played[k] = true;
            }
        }
        for (row, &done) in round.points.chunks(width).zip(&round.played) {
            if done {
                tally(&mut self.candidates, row, default_index);
            }
        }
    }
}

/// What each determinization of a round scored, put back in the order drawn, kept by the
/// agent so that a round allocates only while the rounds grow past the largest one before.
#[derive(Clone, Debug, Default)]
struct Round {
    /// The points of every candidate on each fill, a row of the candidates' width a fill (0
    /// for a candidate not played).
    points: Vec<f64>,
    /// Whether each fill was played (it always fits the view: tested).
    played: Vec<bool>,
}

/// What every determinization of a round is played with: shared, read only, by the threads.
struct Play<'a, 'v> {
    view: &'a View<'v>,
    variant: &'a Variant,
    draws: Draws,
    /// Each candidate's action while it is still played, in the candidates' order.
    live: &'a [Option<Action>],
    default_index: usize,
}

impl Play<'_, '_> {
    /// Plays every live candidate on the determinization `fill` with `rollout`, writing each
    /// one's points in `row` (every one alike when the offer went elsewhere before the seat
    /// was asked); false when the fill does not fit the view (never: the belief's fills are
    /// tested to).
    fn fill(&self, rollout: &mut Rollout, fill: &Fill, row: &mut [f64]) -> bool {
        let seat = self.view.seat();
        let Ok(mut base) = self.view.redeal(fill) else {
            debug_assert!(false, "the belief's fill fits the view");
            return false;
        };
        if self.draws == Draws::BySeat {
            base.split_wall_by_seat();
        }
        if !rollout.advance_to(&mut base, seat) {
            // The offer went elsewhere before the seat was asked: every candidate ends alike.
            row.fill(rollout.finish(&mut base, seat, self.variant) as f64);
            return true;
        }
        for (slot, action) in row.iter_mut().zip(self.live) {
            *slot = match action {
                Some(a) => {
                    let mut deal = base.clone();
                    deal.play_unchecked(*a);
                    rollout.finish(&mut deal, seat, self.variant) as f64
                }
                None => 0.0,
            };
        }
        debug_assert!(
            self.live[self.default_index].is_some(),
            "the default is played"
        );
        true
    }

    /// Plays the fills `queue` hands out with `rollout` until it closes, sending each one's
    /// place in the draw and row of points (`None`: not played) to `rows`.
    fn take(
        &self,
        rollout: &mut Rollout,
        queue: &Mutex<mpsc::Receiver<(usize, Fill)>>,
        rows: &mpsc::Sender<(usize, Option<[f64; MAX_CANDIDATES]>)>,
    ) {
        let width = self.live.len();
        loop {
            // A thread that panicked holding the lock only left the queue as it was.
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
            let Ok((k, fill)) = next else {
                return;
            };
            let mut row = [0.0; MAX_CANDIDATES];
            let played = self.fill(rollout, &fill, &mut row[..width]);
            // The calling thread holds the receiver until every thread is done.
            rows.send((k, played.then_some(row))).ok();
        }
    }
}

/// Whether a cancel flag is given and set.
fn is_set(flag: Option<&AtomicBool>) -> bool {
    flag.is_some_and(|c| c.load(Ordering::Relaxed))
}

/// Adds one determinization's points (`row`, by candidate) to every live candidate's tally,
/// paired with the default's.
fn tally(candidates: &mut Candidates, row: &[f64], default_index: usize) {
    let default_points = row[default_index];
    for (c, &p) in candidates.iter_mut().zip(row) {
        if c.alive {
            c.add(p, default_points);
        }
    }
}

impl Agent for SearchAgent {
    fn reset(&mut self, seed: u64, seat: Seat) {
        self.seed = seed;
        self.seat = seat;
    }

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        let rng = self.decision_rng(view);
        self.search.decide(view, legal, &mut self.belief, rng)
    }

    fn name(&self) -> &str {
        &self.name
    }
}
