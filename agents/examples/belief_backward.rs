//! How much of the danger a seat runs does the public play reveal, read exactly? A study of
//! the posterior of the other seats' concealed hands given their whole play, under the true
//! model of that play (greedy in every other seat, as in the arena). Not an agent: about a
//! second a decision.
//!
//! **The weight of a hand.** For a hand now `A`, a seat's history runs backwards from it:
//! before a discard `d` the seat drew into, it held `A + d` less the tile drawn, which may
//! have been any of those tiles, each as likely under a shuffled wall. A backward particle
//! filter draws those tiles, each in proportion to how well the history before it agrees (up
//! to the previous draw), and checks at every step that greedy, holding that hand, would have
//! done what the seat did: its discard, its claim, and its answer to every other seat's
//! discard, seen only through how the offer was resolved (nobody claimed: it passed; another
//! claim won: it wanted nothing higher); a win is never let go. Each disagreement costs a
//! factor `EPS` (environment variable, default 0.02). Greedy's rules are copied for raw
//! hands, and the copy is checked against every decision the real seats make (the report's
//! first line counts those that differ). The target is
//!
//!   `P(A) ∝ Π_k 1 / undrawn_k! · Π_seats Σ_histories[agree · 1 / Π_k first_k!]`
//!
//! (a shuffled wall gives each assignment of kinds to places the probability
//! `Π_k 1 / undrawn_k!` up to a constant; a history is the sequence of kinds drawn, each
//! sequence one assignment of kinds to the draws' places, and its first hand fills its 16
//! places in `16! / Π_k first_k!` ways). The copies of a kind drawn are counted by the first
//! hand's factor alone: weighing the kind drawn by its copies held as well (as the thirtieth
//! session's build did) counts them twice, and favours hands whose draws made pairs.
//!
//! **The chain.** Pseudo-marginal Metropolis over the three hands now, STEPS rounds of one
//! move a seat and then 64 samples STEPS / 64 rounds apart. A move swaps a held copy for an
//! undrawn one, those near the hand's other tiles favoured by BETA (0: uniform; the Hastings
//! ratio corrects for it). It starts from a fill of the shipped belief, and from the second
//! of the viewer's turns of a deal from its own hands of the turn before, carried over each
//! seat's play since; or, with `START=truth`, from the true hands (see `start_at_truth`).
//!
//! **Its health.** The report gives the mean `log Z` of the true hands, of a shipped fill and
//! of the chain's samples: both the estimates the chain holds (which run high: a
//! pseudo-marginal chain lingers where its estimate came out high) and fresh ones. Two
//! comparisons:
//! - a chain started from a fill and one started from the truth have the same target, so at
//!   equilibrium their samples' fresh estimates, and their predictions, agree;
//! - the true hands are a sample of the exact posterior, which is the target only as `EPS`
//!   goes to 0: with `EPS` above 0 the target also holds hands that disagree with the play,
//!   and its samples score below the truth.
//!
//! **The predictors**, at each of seat E's turns of greedy self-play, against the truth: which
//! of E's held kinds some other seat waits on, and whether each is ready. The shipped belief
//! (64 fills); the chain; the shipped fills with the seats taken apart, and reweighed by
//! `Z^0.5` and `Z^1` (which, without the fills' own density, counts the play the belief
//! already read twice). Turns after a kong or a flower on offer are left out (a kong's draws
//! are not modelled).
//!
//! `[START=truth] [EPS=0.02] cargo run --release -p taisim-agents --example belief_backward -- DEALS STEPS PARTICLES [FIRST_DEAL [BETA]]`

use std::sync::Arc;

use rand_core::RngCore;
use rand_pcg::Pcg64Mcg;
use taisim_agents::knowledge::hand_rules;
use taisim_agents::search::{Belief, BeliefModel};
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::algo::{self, Discards, HandRules};
use taisim_sim::{
    bounded, chow_tiles, rng_from_seed, Action, ActionList, Deal, DealContext, Hand, Seat, Tile,
    TileSet, View,
};

const ALL_KINDS: TileSet = TileSet((1u64 << Tile::NUM) - 1);

/// The predictors compared, in the order of the report.
const NAMES: [&str; 5] = [
    "shipped belief",
    "backward chain",
    "shipped, seats apart",
    "shipped reweighed ^0.5",
    "shipped reweighed ^1",
];

/// Whether the chain starts from the true hands (`START=truth`): they are a sample of its
/// target, so the chain is at equilibrium from its first step, and its samples are exact
/// posterior samples, if correlated with the truth at first (the report gives how far they
/// moved from it). A measure of what the exact posterior predicts, never a belief.
fn start_at_truth() -> bool {
    std::env::var("START").is_ok_and(|v| v == "truth")
}

fn eps() -> f64 {
    std::env::var("EPS").map_or(0.02, |v| v.parse().unwrap())
}

fn uniform(rng: &mut impl RngCore) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

fn priority(a: Action) -> u8 {
    match a {
        Action::Win => 3,
        Action::Kong | Action::Pung => 2,
        Action::Chow(_) => 1,
        _ => 0,
    }
}

/// Greedy's turn decision on a raw hand (no kongs): a win, or the kind discarded.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum TurnChoice {
    Win,
    Discard(Tile),
}

/// Greedy's turn: win if it can, else the discard of least shanten, then most ukeire over
/// what the seat has not seen, the first kind among equals.
fn greedy_turn(hand: &Hand, rules: HandRules, public: &[u8; Tile::NUM]) -> TurnChoice {
    if algo::is_win(hand, rules) {
        return TurnChoice::Win;
    }
    let d = Discards::new(hand, rules);
    let (_, tied) = d.least();
    if tied.0.count_ones() == 1 {
        return TurnChoice::Discard(tied.iter().next().unwrap());
    }
    let improving = d.improving_kinds(tied, ALL_KINDS);
    let mut best: Option<(u32, Tile)> = None;
    for t in tied.iter() {
        let uke: u32 = improving[t.index()]
            .iter()
            .map(|k| 4u32.saturating_sub((public[k.index()] + hand.count(k)) as u32))
            .sum();
        if best.is_none_or(|(b, _)| uke > b) {
            best = Some((uke, t));
        }
    }
    TurnChoice::Discard(best.unwrap().1)
}

/// Greedy's answer to an offer of `t` (a win, the claim that lowers shanten most, or pass).
fn greedy_answer(hand: &Hand, rules: HandRules, t: Tile, may_chow: bool, locked: bool) -> Action {
    let mut with = *hand;
    with.add(t);
    if algo::is_win(&with, rules) {
        return Action::Win;
    }
    if locked {
        return Action::Pass;
    }
    let now = algo::shanten(hand, rules);
    let less = rules.with_sets(rules.sets - 1);
    let mut best: Option<(i8, u8, Action)> = None;
    let mut consider = |after: Hand, pref: u8, a: Action| {
        let sh = algo::shanten(&after, less);
        if sh < now && best.is_none_or(|(bs, bp, _)| (sh, pref) < (bs, bp)) {
            best = Some((sh, pref, a));
        }
    };
    if hand.count(t) >= 3 {
        let mut after = *hand;
        after.remove_n(t, 3);
        consider(after, 0, Action::Kong);
    }
    if hand.count(t) >= 2 {
        let mut after = *hand;
        after.remove_n(t, 2);
        consider(after, 1, Action::Pung);
    }
    if may_chow && !t.is_honor() {
        let n = t.rank();
        // The legal list offers the chows from the highest run down; the first wins a tie.
        for lo in (n.saturating_sub(2).max(1)..=n.min(7)).rev() {
            let low = Tile::numbered(t.suit(), lo);
            let run = chow_tiles(low);
            let mut after = *hand;
            let mut ok = true;
            for r in run {
                if r != t {
                    if after.count(r) == 0 {
                        ok = false;
                        break;
                    }
                    after.remove(r);
                }
            }
            if ok {
                consider(after, 2, Action::Chow(low));
            }
        }
    }
    best.map_or(Action::Pass, |(_, _, a)| a)
}

/// What the viewer saw of one other seat's play, in order.
#[derive(Clone, Debug)]
enum Event {
    /// Its turn: it let go of `d` (`ready`: with a declaration), having drawn a tile first
    /// (`drawn`) or after a claim; `public`: the copies face up then, by kind.
    Turn {
        drawn: bool,
        d: Tile,
        ready: bool,
        locked: bool,
        sets: u8,
        public: [u8; Tile::NUM],
    },
    /// Another seat let go of `t`; the offer was resolved by `outcome` (the claim that won).
    Offer {
        t: Tile,
        may_chow: bool,
        locked: bool,
        sets: u8,
        outcome: Option<(Seat, Action)>,
    },
}

/// The tiles a claim of `t` takes from the hand.
fn from_hand(a: Action, t: Tile) -> Hand {
    let mut h = Hand::EMPTY;
    match a {
        Action::Pung => h.add_n(t, 2),
        Action::Kong => h.add_n(t, 3),
        Action::Chow(lo) => {
            for r in chow_tiles(lo) {
                if r != t {
                    h.add(r);
                }
            }
        }
        _ => {}
    }
    h
}

/// The backward particle filter of one seat's history, and its scratch.
struct Backward {
    particles: usize,
    special: taisim_sim::algo::SpecialHands,
    hands: Vec<Hand>,
    weights: Vec<f64>,
}

impl Backward {
    fn rules(&self, sets: u8) -> HandRules {
        HandRules::new(sets, self.special)
    }

    /// Undoes one event that asks no choice of the tile drawn, from the hand after it to the
    /// hand before it; the disagreements it finds. A drawn turn not locked is undone only up
    /// to its choice: `h` becomes the hand it chose from (the tile drawn still in it), and
    /// `true` says so.
    fn undo(&self, seat: Seat, ev: &Event, h: &mut Hand) -> (u32, bool) {
        match ev {
            Event::Offer {
                t,
                may_chow,
                locked,
                sets,
                outcome,
            } => {
                let g = greedy_answer(h, self.rules(*sets), *t, *may_chow, *locked);
                let ok = match *outcome {
                    Some((c, a)) if c == seat => g == a,
                    Some((_, a)) => g == Action::Pass || priority(g) < priority(a),
                    None => g == Action::Pass,
                };
                if let Some((c, a)) = *outcome {
                    if c == seat {
                        // Before the claim the hand held the claimed set's tiles.
                        for r in from_hand(a, *t).tiles() {
                            h.add(r);
                        }
                    }
                }
                (!ok as u32, false)
            }
            Event::Turn {
                drawn,
                d,
                ready,
                locked,
                sets,
                public,
            } => {
                let rules = self.rules(*sets);
                h.add(*d);
                if *locked {
                    // A locked hand lets go of what it drew, and did not win on it.
                    let won = algo::is_win(h, rules);
                    h.remove(*d);
                    return (won as u32, false);
                }
                let mut miss = (greedy_turn(h, rules, public) != TurnChoice::Discard(*d)) as u32;
                if *ready {
                    let mut after = *h;
                    after.remove(*d);
                    miss += (algo::shanten(&after, rules) != 0) as u32;
                }
                (miss, *drawn)
            }
        }
    }

    /// Undoes events backwards from `i` (exclusive) to the next choice or the start: the
    /// disagreements, and the index of the choice's event (`None`: the start reached).
    fn segment(
        &self,
        seat: Seat,
        events: &[Event],
        mut i: usize,
        h: &mut Hand,
    ) -> (u32, Option<usize>) {
        let mut miss = 0;
        while i > 0 {
            i -= 1;
            let (m, choice) = self.undo(seat, &events[i], h);
            miss += m;
            if choice {
                return (miss, Some(i));
            }
        }
        (miss, None)
    }

    /// An unbiased estimate of the weight of `seat`'s histories ending in `now`, its log:
    /// `Σ_histories[EPS^disagreements / Π_k first_k!]` (see the module documentation). Each
    /// kind drawn is chosen in proportion to how well the history before it agrees, up to the
    /// previous draw (a fully adapted backward particle filter, resampled when its weights
    /// collapse).
    fn log_z(&mut self, seat: Seat, now: &Hand, events: &[Event], rng: &mut Pcg64Mcg) -> f64 {
        let ln_eps = eps().ln();
        let n = self.particles;
        self.hands.clear();
        self.weights.clear();
        let mut at = None;
        for _ in 0..n {
            let mut h = *now;
            let (m, choice) = self.segment(seat, events, events.len(), &mut h);
            self.hands.push(h);
            self.weights.push(m as f64 * ln_eps);
            at = choice;
        }
        // With a draw to choose, the first hand's factor is taken in the earliest draw's
        // lookahead; without one, at the end.
        let drew = at.is_some();
        let mut log_z = 0.0;
        while let Some(j) = at {
            let mut next_at = None;
            let mut hands = std::mem::take(&mut self.hands);
            let mut weights = std::mem::take(&mut self.weights);
            for (h, w) in hands.iter_mut().zip(&mut weights) {
                // Each kind the tile drawn may have been, weighed by how the history agrees
                // back to the previous choice (in logs first: with a small EPS the factors
                // may underflow).
                let mut log_weight = [f64::NEG_INFINITY; Tile::NUM];
                let mut before_of = [Hand::EMPTY; Tile::NUM];
                for x in h.kinds().iter() {
                    let mut before = *h;
                    before.remove(x);
                    let (m, choice) = self.segment(seat, events, j, &mut before);
                    let mut lw = m as f64 * ln_eps;
                    if choice.is_none() {
                        lw += ln_first_factor(&before);
                    }
                    log_weight[x.index()] = lw;
                    before_of[x.index()] = before;
                    next_at = choice;
                }
                let top = log_weight.iter().cloned().fold(f64::MIN, f64::max);
                let weight = log_weight.map(|lw| (lw - top).exp());
                let total: f64 = weight.iter().sum();
                *w += top + total.ln();
                if let Some(x) = pick(&weight, total, rng) {
                    *h = before_of[x.index()];
                }
            }
            self.hands = hands;
            self.weights = weights;
            at = next_at;
            // Resample when the weights have collapsed.
            let max = self.weights.iter().cloned().fold(f64::MIN, f64::max);
            let lin: Vec<f64> = self.weights.iter().map(|w| (w - max).exp()).collect();
            let sum: f64 = lin.iter().sum();
            let ess = sum * sum / lin.iter().map(|w| w * w).sum::<f64>();
            if ess < n as f64 / 2.0 {
                log_z += max + (sum / n as f64).ln();
                let step = sum / n as f64;
                let mut u = uniform(rng) * step;
                let mut acc = 0.0;
                let mut next = Vec::with_capacity(n);
                for (k, w) in lin.iter().enumerate() {
                    acc += w;
                    while next.len() < n && u < acc {
                        next.push(self.hands[k]);
                        u += step;
                    }
                }
                while next.len() < n {
                    next.push(*next.last().unwrap());
                }
                self.hands = next;
                self.weights.fill(0.0);
            }
        }
        if !drew {
            for (h, w) in self.hands.iter().zip(&mut self.weights) {
                *w += ln_first_factor(h);
            }
        }
        let max = self.weights.iter().cloned().fold(f64::MIN, f64::max);
        let sum: f64 = self.weights.iter().map(|w| (w - max).exp()).sum();
        log_z + max + (sum / n as f64).ln()
    }
}

/// The chain's hands of the last evaluation carried forward over each seat's events since:
/// each tile drawn sampled from the tiles left in proportion to how greedy, holding it, agrees
/// with the discard. A seat whose play does not fit its carried hand takes its hand from
/// `fallback` (a fill of the shipped belief), and all of them do if the hands together do not
/// fit what the viewer has not seen.
fn advance(
    back: &Backward,
    carry: Carry,
    events: &[Vec<Event>; 4],
    unseen: &[u8],
    fallback: &[Hand],
    rng: &mut Pcg64Mcg,
) -> Vec<Hand> {
    let Carry {
        hands: old,
        seen,
        opponents,
    } = carry;
    let eps = eps();
    // The tiles the carried hands may draw: what the viewer has not seen, and what the
    // opponents showed since.
    let mut pool = [0u8; Tile::NUM];
    pool.copy_from_slice(&unseen[..Tile::NUM]);
    for &o in &opponents {
        let s = o as usize;
        for ev in &events[s][seen[s]..] {
            match ev {
                Event::Offer {
                    t,
                    outcome: Some((c, a)),
                    ..
                } if *c == o => {
                    for r in from_hand(*a, *t).tiles() {
                        pool[r.index()] += 1;
                    }
                }
                Event::Turn { d, .. } => pool[d.index()] += 1,
                _ => {}
            }
        }
    }
    let mut hands = old;
    for (j, &o) in opponents.iter().enumerate() {
        let s = o as usize;
        let mut ok = true;
        'events: for ev in &events[s][seen[s]..] {
            match ev {
                Event::Offer {
                    t,
                    outcome: Some((c, a)),
                    ..
                } if *c == o => {
                    for r in from_hand(*a, *t).tiles() {
                        if hands[j].count(r) == 0 {
                            ok = false;
                            break 'events;
                        }
                        hands[j].remove(r);
                    }
                }
                Event::Offer { .. } => {}
                Event::Turn {
                    drawn,
                    d,
                    locked,
                    sets,
                    public,
                    ..
                } => {
                    if *drawn && !*locked {
                        let mut left = [0f64; Tile::NUM];
                        let mut total = 0.0;
                        for t in Tile::ALL {
                            let c = pool[t.index()].saturating_sub(hands_count(&hands, t));
                            if c == 0 {
                                continue;
                            }
                            let mut with = hands[j];
                            with.add(t);
                            let agrees = greedy_turn(&with, back.rules(*sets), public)
                                == TurnChoice::Discard(*d);
                            left[t.index()] = c as f64 * if agrees { 1.0 } else { eps };
                            total += left[t.index()];
                        }
                        match pick(&left, total, rng) {
                            Some(x) => hands[j].add(x),
                            None => {
                                ok = false;
                                break 'events;
                            }
                        }
                    }
                    if *locked && *drawn {
                        continue;
                    }
                    if hands[j].count(*d) == 0 {
                        ok = false;
                        break 'events;
                    }
                    hands[j].remove(*d);
                    pool[d.index()] -= 1;
                }
            }
        }
        if !ok || hands[j].len() != fallback[j].len() {
            hands[j] = fallback[j];
        }
    }
    // The hands together must fit what the viewer has not seen.
    let fits = Tile::ALL
        .iter()
        .all(|&t| hands_count(&hands, t) <= unseen[t.index()]);
    if fits {
        hands
    } else {
        fallback.to_vec()
    }
}

/// A kind drawn in proportion to `weights` (which add up to `total`), `None` if none has
/// weight.
fn pick(weights: &[f64; Tile::NUM], total: f64, rng: &mut Pcg64Mcg) -> Option<Tile> {
    let mut u = uniform(rng) * total;
    let mut x = None;
    for t in Tile::ALL {
        let w = weights[t.index()];
        if w > 0.0 {
            x = Some(t);
            if u < w {
                break;
            }
            u -= w;
        }
    }
    x
}

fn hands_count(hands: &[Hand], t: Tile) -> u8 {
    hands.iter().map(|h| h.count(t)).sum()
}

fn ln_fact(n: u32) -> f64 {
    (1..=n).map(|k| (k as f64).ln()).sum()
}

/// `ln (1 / Π_k first_k!)`: the first hand's factor (see the module documentation).
fn ln_first_factor(first: &Hand) -> f64 {
    -first
        .counts()
        .iter()
        .map(|&c| ln_fact(c as u32))
        .sum::<f64>()
}

/// A seat's shanten and waits, its melds counted.
fn measure(view: &View<'_>, seat: Seat, hand: &Hand) -> (i8, u64) {
    let rules = hand_rules(view, view.rules().sets - view.melds(seat).count() as u8);
    (algo::shanten(hand, rules), algo::waits(hand, rules).0)
}

/// The chain's hands at an evaluation, carried to the next one.
struct Carry {
    hands: Vec<Hand>,
    /// Each seat's events at the time.
    seen: [usize; 4],
    opponents: Vec<Seat>,
}

/// The other seats' play as the viewer saw it, recorded as it happens.
#[derive(Default)]
struct Record {
    events: [Vec<Event>; 4],
    /// The open offer: its discarder, and each other seat's event for it.
    offer: Option<(Seat, [usize; 4])>,
    /// A kong or a flower on offer: the rest of the deal is left out.
    kong: bool,
}

impl Record {
    /// Records `a`, played by `seat` (before it is played), and checks greedy's copy on the
    /// truth of every other seat's decision.
    fn note(&mut self, deal: &Deal, me: Seat, seat: Seat, a: Action, t: &mut Tallies) {
        let special = deal.rules().special;
        if seat != me {
            let view = deal.view(seat);
            let sets = view.rules().sets - view.own_melds().len() as u8;
            let rules = HandRules::new(sets, special);
            let locked = deal.ready_declaration(seat).is_some();
            if let Some(offered) = deal.tile_on_offer() {
                let (from, _) = self.offer.expect("an answer follows a discard");
                let g = greedy_answer(deal.hand(seat), rules, offered, from.add(1) == seat, locked);
                t.replica_offers += 1;
                t.replica_offer_miss += (g != a) as u64;
            } else {
                let mut public = view.seen_counts();
                for x in deal.hand(seat).tiles() {
                    public[x.index()] -= 1;
                }
                match a {
                    Action::Discard(d) | Action::DiscardReady(d) => {
                        if !locked {
                            t.replica_turns += 1;
                            let g = greedy_turn(deal.hand(seat), rules, &public);
                            t.replica_turn_miss += (g != TurnChoice::Discard(d)) as u64;
                        }
                        self.events[seat as usize].push(Event::Turn {
                            drawn: deal.drawn_tile().is_some(),
                            d,
                            ready: matches!(a, Action::DiscardReady(_)),
                            locked,
                            sets,
                            public,
                        });
                    }
                    Action::SelfDrawWin | Action::FlowerWin => {}
                    _ => self.kong = true,
                }
            }
        }
        // A discard opens an offer; each other seat's event records how it was resolved.
        if let Action::Discard(offered) | Action::DiscardReady(offered) = a {
            let mut at = [usize::MAX; 4];
            for o in Seat::ALL {
                if o != seat && o != me {
                    let view = deal.view(o);
                    at[o as usize] = self.events[o as usize].len();
                    self.events[o as usize].push(Event::Offer {
                        t: offered,
                        may_chow: seat.add(1) == o,
                        locked: deal.ready_declaration(o).is_some(),
                        sets: view.rules().sets - view.own_melds().len() as u8,
                        outcome: None,
                    });
                }
            }
            self.offer = Some((seat, at));
        } else if deal.tile_on_offer().is_some() && a != Action::Pass {
            let (_, at) = self.offer.expect("a claim follows a discard");
            for o in Seat::ALL {
                let Some(Event::Offer { outcome, .. }) =
                    self.events[o as usize].get_mut(at[o as usize])
                else {
                    continue;
                };
                if outcome.is_none_or(|(_, b)| priority(a) > priority(b)) {
                    *outcome = Some((seat, a));
                }
            }
            if a == Action::Kong {
                self.kong = true;
            }
        }
    }
}

#[derive(Default)]
struct Score {
    logloss: f64,
    ready_ll: f64,
}

/// Everything the study counts.
#[derive(Default)]
struct Tallies {
    scores: [Score; NAMES.len()],
    kinds: f64,
    dangerous: f64,
    ready_n: f64,
    ready_true: f64,
    /// By phase: kinds, then each predictor's log loss.
    by_phase: [[f64; NAMES.len() + 1]; 4],
    /// By phase: opponents, truly ready, then each predictor's mean readiness.
    ready_mean: [[f64; NAMES.len() + 2]; 4],
    replica_turns: u64,
    replica_turn_miss: u64,
    replica_offers: u64,
    replica_offer_miss: u64,
    proposed: u64,
    accepted: u64,
    truth_log_z: f64,
    fill_log_z: f64,
    truth_n: u64,
    sample_log_z: f64,
    sample_n: u64,
    sample_fresh_log_z: f64,
    skipped: u64,
    warm_used: u64,
    /// Tiles of a hand not in the true hand, summed: the chain's samples', a shipped fill's.
    sample_moved: f64,
    fill_moved: f64,
}

/// Predicted danger of each kind and readiness of each opponent, by predictor.
struct Predictions {
    danger: [[f64; Tile::NUM]; NAMES.len()],
    ready: [[f64; 3]; NAMES.len()],
}

struct Study {
    back: Backward,
    belief: Belief,
    rng: Pcg64Mcg,
    steps: usize,
    samples: usize,
    beta: f64,
    t: Tallies,
}

impl Study {
    /// Every predictor at the viewer's turn, scored against the truth; the chain's hands are
    /// carried in `warm` from one evaluation to the next.
    fn evaluate(&mut self, deal: &Deal, me: Seat, rec: &Record, warm: &mut Option<Carry>) {
        let view = deal.view(me);
        let opponents: Vec<Seat> = (1..4u8).map(|k| me.add(k)).collect();
        let n = self.samples;
        let mut p = Predictions {
            danger: [[0.0; Tile::NUM]; NAMES.len()],
            ready: [[0.0; 3]; NAMES.len()],
        };
        // The shipped belief, n fills.
        self.belief.prepare(&view);
        let mut fills = Vec::with_capacity(n);
        let mut counts = [0u32; Tile::NUM];
        let mut ready_count = [0u32; 3];
        for _ in 0..n {
            let fill = self.belief.sample(&view, &mut self.rng).unwrap().clone();
            let mut any = 0u64;
            for (j, &o) in opponents.iter().enumerate() {
                let (s, w) = measure(&view, o, &fill.hands[o]);
                any |= w;
                ready_count[j] += (s <= 0) as u32;
            }
            for x in TileSet(any).iter() {
                counts[x.index()] += 1;
            }
            fills.push(fill);
        }
        smoothed(&counts, n as f64, &mut p.danger[0]);
        smoothed(&ready_count, n as f64, &mut p.ready[0]);
        // The chain starts from the first fill, or from its hands of the last evaluation, or
        // from the truth.
        let unseen = view.unseen();
        let truth: Vec<Hand> = opponents.iter().map(|&o| *deal.hand(o)).collect();
        let mut hands: Vec<Hand> = opponents.iter().map(|&o| fills[0].hands[o]).collect();
        for (f, t) in hands.iter().zip(&truth) {
            self.t.fill_moved += moved(f, t) as f64;
        }
        if start_at_truth() {
            hands.clone_from(&truth);
        } else if let Some(carry) = warm.take() {
            let advanced = advance(
                &self.back,
                carry,
                &rec.events,
                &unseen.counts,
                &hands,
                &mut self.rng,
            );
            self.t.warm_used += advanced.iter().zip(&hands).filter(|(a, b)| a != b).count() as u64;
            hands = advanced;
        }
        for (&o, t) in opponents.iter().zip(&truth) {
            let events = &rec.events[o as usize];
            self.t.truth_log_z += self.back.log_z(o, t, events, &mut self.rng);
            self.t.fill_log_z += self
                .back
                .log_z(o, &fills[0].hands[o], events, &mut self.rng);
            self.t.truth_n += 1;
        }
        self.reweigh(&view, &opponents, &fills, rec, &mut p);
        self.chain(&view, &opponents, &mut hands, &truth, rec, &mut p);
        *warm = Some(Carry {
            hands,
            seen: [0, 1, 2, 3].map(|s| rec.events[s].len()),
            opponents: opponents.clone(),
        });
        self.score(deal, &view, &opponents, &p);
    }

    /// The shipped fills reweighed by their histories' agreement `Z^tau`, each seat on its
    /// own: tau 0 is the shipped belief with the seats independent. (Without the fills' own
    /// density, which is unknown, this counts the belief's own view of the play twice.)
    fn reweigh(
        &mut self,
        view: &View<'_>,
        opponents: &[Seat],
        fills: &[taisim_sim::Fill],
        rec: &Record,
        p: &mut Predictions,
    ) {
        let lz: Vec<[f64; 3]> = fills
            .iter()
            .map(|f| {
                [0, 1, 2].map(|j| {
                    let o = opponents[j];
                    self.back
                        .log_z(o, &f.hands[o], &rec.events[o as usize], &mut self.rng)
                })
            })
            .collect();
        for (m, tau) in [(2usize, 0.0f64), (3, 0.5), (4, 1.0)] {
            let mut none = [1.0f64; Tile::NUM];
            for (j, &o) in opponents.iter().enumerate() {
                let max = lz.iter().map(|l| l[j]).fold(f64::MIN, f64::max);
                let w: Vec<f64> = lz.iter().map(|l| (tau * (l[j] - max)).exp()).collect();
                let total: f64 = w.iter().sum();
                let ess = total * total / w.iter().map(|x| x * x).sum::<f64>();
                let mut waits_on = [0.0f64; Tile::NUM];
                let mut ready = 0.0;
                for (f, wi) in fills.iter().zip(&w) {
                    let (sh, wt) = measure(view, o, &f.hands[o]);
                    ready += wi * (sh <= 0) as u8 as f64;
                    for x in TileSet(wt).iter() {
                        waits_on[x.index()] += wi;
                    }
                }
                // Smoothed as the counts are, with the sample's effective size.
                for (none, &on) in none.iter_mut().zip(&waits_on) {
                    *none *= 1.0 - (on / total * ess + 0.5 / 3.0) / (ess + 1.0);
                }
                p.ready[m][j] = (ready / total * ess + 0.5) / (ess + 1.0);
            }
            p.danger[m] = none.map(|q| 1.0 - q);
        }
    }

    /// Pseudo-marginal Metropolis over the opponents' hands now: `steps` rounds of one move a
    /// seat, then `samples` samples `steps / samples` rounds apart; how far each sample is
    /// from the `truth` is tallied.
    fn chain(
        &mut self,
        view: &View<'_>,
        opponents: &[Seat],
        hands: &mut [Hand],
        truth: &[Hand],
        rec: &Record,
        p: &mut Predictions,
    ) {
        let unseen = view.unseen().counts;
        let n = self.samples;
        let beta = self.beta;
        let mut undrawn = [0u8; Tile::NUM];
        for x in Tile::ALL {
            undrawn[x.index()] = unseen[x.index()] - hands_count(hands, x);
        }
        let mut log_z: Vec<f64> = opponents
            .iter()
            .zip(hands.iter())
            .map(|(&o, h)| {
                self.back
                    .log_z(o, h, &rec.events[o as usize], &mut self.rng)
            })
            .collect();
        let mut counts = [0u32; Tile::NUM];
        let mut ready_count = [0u32; 3];
        let spacing = (self.steps / n).max(1);
        let rounds = self.steps + n * spacing;
        let mut taken = 0u32;
        for m in 0..rounds {
            for (j, &o) in opponents.iter().enumerate() {
                let h = hands[j];
                let held: Vec<Tile> = h.tiles().collect();
                let out = held[bounded(&mut self.rng, held.len() as u32) as usize];
                // The tile put in: an undrawn copy, those near the hand's other tiles
                // favoured by `beta` (the Hastings ratio below corrects for it).
                let mut base = h;
                base.remove(out);
                let near = |x: Tile| -> f64 { 1.0 + beta * near_held(x, &base) as u8 as f64 };
                let weights = |w: &[u8; Tile::NUM]| -> [f64; Tile::NUM] {
                    Tile::ALL.map(|x| w[x.index()] as f64 * near(x))
                };
                let g = weights(&undrawn);
                let total: f64 = g.iter().sum();
                if total <= 0.0 {
                    continue;
                }
                let into = pick(&g, total, &mut self.rng).expect("an undrawn tile");
                if into == out {
                    continue;
                }
                self.t.proposed += 1;
                let mut next = base;
                next.add(into);
                let lz = self
                    .back
                    .log_z(o, &next, &rec.events[o as usize], &mut self.rng);
                let mut after = undrawn;
                after[out.index()] += 1;
                after[into.index()] -= 1;
                let total_after: f64 = weights(&after).iter().sum();
                // The target's ratio (see the module documentation) with the proposal's
                // odds: a held copy out, an undrawn copy in.
                let a_out = h.count(out) as f64;
                let a_in = h.count(into) as f64;
                let log_ratio = lz - log_z[j] + (a_in + 1.0).ln() - a_out.ln() + near(out).ln()
                    - near(into).ln()
                    + total.ln()
                    - total_after.ln();
                if log_ratio >= 0.0 || uniform(&mut self.rng) < log_ratio.exp() {
                    hands[j] = next;
                    log_z[j] = lz;
                    undrawn = after;
                    self.t.accepted += 1;
                }
            }
            if m >= self.steps && (m - self.steps) % spacing == spacing - 1 {
                taken += 1;
                self.t.sample_log_z += log_z.iter().sum::<f64>();
                self.t.sample_n += 3;
                // A fresh estimate too: the chain keeps estimates it accepted, which run high
                // (a pseudo-marginal chain favours lucky ones); a fresh one is distributed as
                // the truth's at equilibrium.
                for (&o, h) in opponents.iter().zip(hands.iter()) {
                    self.t.sample_fresh_log_z +=
                        self.back
                            .log_z(o, h, &rec.events[o as usize], &mut self.rng);
                }
                for (h, t) in hands.iter().zip(truth) {
                    self.t.sample_moved += moved(h, t) as f64;
                }
                let mut any = 0u64;
                for (j, &o) in opponents.iter().enumerate() {
                    let (s, w) = measure(view, o, &hands[j]);
                    any |= w;
                    ready_count[j] += (s <= 0) as u32;
                }
                for x in TileSet(any).iter() {
                    counts[x.index()] += 1;
                }
            }
        }
        let taken = taken as f64;
        smoothed(&counts, taken, &mut p.danger[1]);
        smoothed(&ready_count, taken, &mut p.ready[1]);
    }

    /// Log losses against the truth: some opponent waits on each held kind; each is ready.
    fn score(&mut self, deal: &Deal, view: &View<'_>, opponents: &[Seat], p: &Predictions) {
        let t = &mut self.t;
        let phase = (view.discards().len() / 16).min(3);
        let mut truth = 0u64;
        for (j, &o) in opponents.iter().enumerate() {
            let (s, w) = measure(view, o, deal.hand(o));
            truth |= w;
            let y = (s <= 0) as u8 as f64;
            let row = &mut t.ready_mean[phase];
            row[0] += 1.0;
            row[1] += y;
            for m in 0..NAMES.len() {
                row[m + 2] += p.ready[m][j];
            }
            t.ready_n += 1.0;
            t.ready_true += y;
            for (m, s) in t.scores.iter_mut().enumerate() {
                let q = p.ready[m][j].clamp(1e-4, 1.0 - 1e-4);
                s.ready_ll -= y * q.ln() + (1.0 - y) * (1.0 - q).ln();
            }
        }
        for x in view.hand().kinds().iter() {
            let y = (truth >> x.index() & 1) as f64;
            t.kinds += 1.0;
            t.dangerous += y;
            t.by_phase[phase][0] += 1.0;
            for (m, s) in t.scores.iter_mut().enumerate() {
                let q = p.danger[m][x.index()].clamp(1e-4, 1.0 - 1e-4);
                let ll = -(y * q.ln() + (1.0 - y) * (1.0 - q).ln());
                s.logloss += ll;
                t.by_phase[phase][m + 1] += ll;
            }
        }
    }
}

/// The tiles of `h` that `truth` does not hold (as many as the other way round: the sizes
/// are equal).
fn moved(h: &Hand, truth: &Hand) -> u32 {
    Tile::ALL
        .iter()
        .map(|&x| h.count(x).saturating_sub(truth.count(x)) as u32)
        .sum()
}

/// Frequencies out of `n` samples, each with half a count added (so none is 0 or 1).
fn smoothed(counts: &[u32], n: f64, out: &mut [f64]) {
    for (p, &c) in out.iter_mut().zip(counts) {
        *p = (c as f64 + 0.5) / (n + 1.0);
    }
}

/// Whether the hand holds `x` or a suited tile within two of it.
fn near_held(x: Tile, hand: &Hand) -> bool {
    hand.count(x) > 0
        || (!x.is_honor()
            && (1..=2u8).any(|d| {
                let r = x.rank();
                (r > d && hand.count(Tile::numbered(x.suit(), r - d)) > 0)
                    || (r + d <= 9 && hand.count(Tile::numbered(x.suit(), r + d)) > 0)
            }))
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).map_or(default, |s| {
        s.parse()
            .unwrap_or_else(|_| panic!("argument {i} ({s}) is not a number"))
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = arg(&args, 1, 10);
    let steps: usize = arg(&args, 2, 500);
    let particles: usize = arg(&args, 3, 16);
    let first: u64 = arg(&args, 4, 5000);
    let beta: f64 = arg(&args, 5, 0.0);
    let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
    let rules = variant.rules();
    let me = Seat::East;
    let mut study = Study {
        back: Backward {
            particles,
            special: rules.special,
            hands: Vec::new(),
            weights: Vec::new(),
        },
        belief: Belief::new(BeliefModel::Play),
        rng: rng_from_seed(11),
        steps,
        samples: 64,
        beta,
        t: Tallies::default(),
    };
    let mut greedy = GreedyAgent::new();
    let mut legal = ActionList::new();
    let started = std::time::Instant::now();
    for i in 0..deals {
        let mut deal = Deal::new(rules, first + i, DealContext::FIRST).unwrap();
        let mut rec = Record::default();
        let mut warm = None;
        while let Some(seat) = deal.to_act() {
            if deal.flower_on_offer().is_some() {
                rec.kong = true;
            }
            deal.legal_actions(&mut legal);
            let a = greedy.act(&deal.view(seat), &legal);
            if seat == me && deal.tile_on_offer().is_none() && legal.len() > 1 {
                if rec.kong {
                    study.t.skipped += 1;
                } else {
                    study.evaluate(&deal, me, &rec, &mut warm);
                }
            }
            rec.note(&deal, me, seat, a, &mut study.t);
            deal.play(a).unwrap();
        }
        if i % 10 == 9 {
            eprintln!("{} deals, {:.0} s", i + 1, started.elapsed().as_secs_f64());
        }
    }
    report(&study, deals, first, started.elapsed().as_secs_f64());
}

fn report(study: &Study, deals: u64, first: u64, secs: f64) {
    let t = &study.t;
    let base = t.dangerous / t.kinds;
    let base_ll = -(base * base.ln() + (1.0 - base) * (1.0 - base).ln());
    let r = t.ready_true / t.ready_n;
    println!(
        "greedy replica: turns {} ({} differ), offers {} ({} differ)",
        t.replica_turns, t.replica_turn_miss, t.replica_offers, t.replica_offer_miss
    );
    println!(
        "{deals} deals from {first}, {} steps, {} particles, beta {}, EPS {}; evaluations left out after a kong {}; warm starts {}; acceptance {:.3}; mean log Z: truth {:.2}, a shipped fill {:.2}, samples {:.2} (fresh estimates {:.2}); {secs:.0} s",
        study.steps,
        study.back.particles,
        study.beta,
        eps(),
        t.skipped,
        t.warm_used,
        t.accepted as f64 / t.proposed.max(1) as f64,
        t.truth_log_z / t.truth_n.max(1) as f64,
        t.fill_log_z / t.truth_n.max(1) as f64,
        t.sample_log_z / t.sample_n.max(1) as f64,
        t.sample_fresh_log_z / t.sample_n.max(1) as f64,
    );
    println!(
        "chain started from {}; tiles a hand away from the truth: chain samples {:.2}, a shipped fill {:.2}",
        if start_at_truth() { "the truth" } else { "a shipped fill" },
        t.sample_moved / t.sample_n.max(1) as f64,
        t.fill_moved / t.truth_n.max(1) as f64,
    );
    println!(
        "held kinds {}, {base:.4} dangerous; constant log loss {base_ll:.4}, readiness constant {:.4}",
        t.kinds,
        -(r * r.ln() + (1.0 - r) * (1.0 - r).ln())
    );
    for (name, s) in NAMES.iter().zip(&t.scores) {
        println!(
            "  {name:24} danger log loss {:.4}   readiness log loss {:.4}",
            s.logloss / t.kinds,
            s.ready_ll / t.ready_n
        );
    }
    for (p, (row, r)) in t.by_phase.iter().zip(&t.ready_mean).enumerate() {
        let n = r[0].max(1.0);
        let lls: Vec<String> = (0..NAMES.len())
            .map(|m| format!("{:.4}", row[m + 1] / row[0].max(1.0)))
            .collect();
        let rs: Vec<String> = (0..NAMES.len())
            .map(|m| format!("{:.3}", r[m + 2] / n))
            .collect();
        println!(
            "  discards {:>2}-{:<2}: {:>6} kinds, log loss {}; ready: true {:.3}, {}",
            p * 16,
            p * 16 + 15,
            row[0],
            lls.join(" "),
            r[1] / n,
            rs.join(" ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taisim_sim::{parse_hand, parse_tile};

    fn backward(particles: usize) -> Backward {
        Backward {
            particles,
            special: Variant::builtin("taiwan16").unwrap().rules().special,
            hands: Vec::new(),
            weights: Vec::new(),
        }
    }

    fn turn(d: &str) -> Event {
        Event::Turn {
            drawn: true,
            d: parse_tile(d).unwrap(),
            ready: false,
            locked: false,
            sets: 1,
            public: [0; Tile::NUM],
        }
    }

    /// `ln Σ_kinds x of h 1 / Π_k (h - x)_k!`: the first hand's factor summed over the kinds
    /// drawn into `h`.
    fn first_sum(h: &Hand) -> f64 {
        h.kinds()
            .iter()
            .map(|x| {
                let mut f = *h;
                f.remove(x);
                ln_first_factor(&f).exp()
            })
            .sum::<f64>()
    }

    fn disagreements(back: &Backward, h: &Hand, d: &str) -> i32 {
        let d = parse_tile(d).unwrap();
        (greedy_turn(h, back.rules(1), &[0; Tile::NUM]) != TurnChoice::Discard(d)) as i32
    }

    /// One draw: the filter is exact. A pair in the hand drawn into counts once, through the
    /// first hand's factor (the thirtieth session's build counted it twice).
    #[test]
    fn one_draw_sums_each_kind_drawn_once() {
        let mut back = backward(4);
        let mut rng = rng_from_seed(1);
        for (now, d) in [("112m9p", "E"), ("1m9pEC", "E"), ("111mE", "E")] {
            let a = parse_hand(now).unwrap();
            let mut h = a;
            h.add(parse_tile(d).unwrap());
            let exact = disagreements(&back, &h, d) as f64 * eps().ln() + first_sum(&h).ln();
            let got = back.log_z(Seat::South, &a, &[turn(d)], &mut rng);
            assert!(
                (got - exact).abs() < 1e-9,
                "{now} + {d}: {got} against {exact}"
            );
        }
        // Worked by hand: 11m 2m 9p E drew 1m (F = 1m 2m 9p E, 1), 2m, 9p or E (each 1/2).
        let h = parse_hand("112m9pE").unwrap();
        assert!((first_sum(&h) - 2.5).abs() < 1e-12);
    }

    /// Two draws: the filter's estimate is unbiased; with many particles it is the exact sum
    /// over both kinds drawn, each history weighed by its agreement.
    #[test]
    fn two_draws_match_the_exact_sum() {
        let mut back = backward(40_000);
        let mut rng = rng_from_seed(2);
        let (now, d1, d2) = ("1124m", "9p", "E");
        let a = parse_hand(now).unwrap();
        let ln_eps = eps().ln();
        let mut h2 = a;
        h2.add(parse_tile(d2).unwrap());
        let m2 = disagreements(&back, &h2, d2);
        let mut exact = 0.0;
        for x2 in h2.kinds().iter() {
            let mut h1 = h2;
            h1.remove(x2);
            h1.add(parse_tile(d1).unwrap());
            let m1 = disagreements(&back, &h1, d1);
            exact += ((m1 + m2) as f64 * ln_eps).exp() * first_sum(&h1);
        }
        let got = back.log_z(Seat::South, &a, &[turn(d1), turn(d2)], &mut rng);
        assert!(
            (got - exact.ln()).abs() < 0.01,
            "{got} against {}",
            exact.ln()
        );
    }
}
