//! The search's belief about what its seat cannot see: how the other seats' concealed tiles
//! are sampled for a determinization.
//!
//! Dealt uniformly from the unseen tiles ([`BeliefModel::Uniform`]), the other hands look like
//! fresh deals: five or six tiles from ready, however long the deal has run. Real hands are
//! not like that: every seat has drawn and discarded for many turns to bring its hand nearer
//! to complete, and what it did in sight of the table rules many hands out. The default
//! model ([`BeliefModel::Play`]) samples each hand as such a player would hold it:
//!
//! - **Proposal.** A hand of the seat's size is dealt at random from the unseen tiles, then
//!   improved for as many draws as the seat has had (its discards so far): each draw takes a
//!   random unseen tile and lets go of the tile whose discard leaves the least shanten (the
//!   least connected one among equals), returning it to the unseen pool. The result holds the
//!   shanten a seat that far into the deal holds, and shapes like a real hand's.
//! - **Weight**, from the seat's play in sight of the viewer, under the model that it plays as
//!   the rollout policy does (it always takes a win, and lets go of the tile that leaves the
//!   least shanten):
//!   - a seat that declared ready holds a ready hand, locked since its declaration;
//!   - the hand does not win on any tile offered to the seat since its hand last changed (every
//!     other seat's discard since its own last one, every tile it drew and let go since a
//!     ready declaration, and the tile on offer now when a seat asked before the viewer would
//!     have won it alone);
//!   - its last discard left the least shanten its hand then allowed (each step short of it
//!     multiplies the weight by [`MISPLAY`]).
//!
//!   A proposal is accepted with probability equal to its weight (rejection sampling); after
//!   [`ATTEMPTS`] proposals the heaviest is kept.
//!
//! Face-down kongs take a kind with all four copies unseen; the wall is the rest, shuffled.
//! Every tile a fill places is unseen by the viewer, so every fill is a legal deal (tested).

use arrayvec::ArrayVec;
use rand_core::RngCore;
use rand_pcg::Pcg64Mcg;
use taisim_sim::algo::{self, Discards, HandRules};
use taisim_sim::{bounded, Fill, Hand, Seat, Tile, TileSet, Unseen, View, WallTile};

use crate::efficiency::connectivity;
use crate::knowledge::hand_rules;

use super::pool::{nth, Pool};

/// How the other seats' concealed tiles are sampled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BeliefModel {
    /// Uniformly from the unseen tiles (a naive sampler, for comparison).
    Uniform,
    /// As a player that has been playing this deal would hold them (see the module
    /// documentation).
    Play,
}

/// Proposals drawn for a seat before the heaviest one is kept.
pub const ATTEMPTS: u32 = 24;
/// The factor a proposal's weight takes for each step of shanten its seat's last discard
/// gave away.
pub const MISPLAY: f64 = 0.05;
/// The most draws a proposal simulates beyond the seat's turns while looking for the ready
/// hand a declared seat must hold.
const READY_EXTRA_DRAWS: u32 = 16;
/// Discards a proposal's weight looks back on.
pub const RECENT: usize = 4;

/// What the viewer knows of another seat's play, worked out once per decision.
#[derive(Clone, Debug, Default)]
struct Opponent {
    seat: Option<Seat>,
    /// Concealed tiles held and the sets they must form.
    size: u8,
    rules_sets: u8,
    /// Draws the seat has had to shape its hand.
    turns: u32,
    /// It declared ready: its hand is ready and has not changed since.
    ready: bool,
    /// Kinds the hand cannot wait on (see the module documentation).
    passed: TileSet,
    /// The seat's latest discards, the last first, back to (not past) a turn that began
    /// with a claim or a ready declaration: each was chosen from the hand of that turn, which
    /// the weight rebuilds backwards from the sampled hand.
    recent: ArrayVec<Tile, RECENT>,
}

/// The sampler and its scratch.
#[derive(Clone, Debug)]
pub struct Belief {
    model: BeliefModel,
    unseen: Option<Unseen>,
    opponents: [Opponent; 3],
    rules: Option<HandRules>,
    fill: Fill,
}

impl Belief {
    pub fn new(model: BeliefModel) -> Belief {
        Belief {
            model,
            unseen: None,
            opponents: Default::default(),
            rules: None,
            fill: Fill::default(),
        }
    }

    /// Works out, from the view, what every sample of this decision shares.
    pub fn prepare(&mut self, view: &View<'_>) {
        let unseen = view.unseen();
        self.unseen = Some(unseen);
        self.rules = Some(hand_rules(view, 0));
        let me = view.seat();
        let discards = view.discards();
        let offer = view.discard_on_offer();
        let multiple = view.rules().multiple_winners;
        // The seat whose discard is on offer, when the viewer answers one, or whose kong it
        // may rob (搶槓): the seats asked before the viewer could not win on the tile.
        let kong = view.kong_on_offer();
        let (offered, offerer) = match (offer, kong) {
            (Some(t), _) => (Some(t), discards.last().map(|d| d.seat())),
            (None, Some((declarer, _))) => (view.tile_on_offer(), Some(declarer)),
            (None, None) => (None, None),
        };
        let wild = view.wild();
        let dead_wild = |t: Tile| Some(t) == wild && !view.rules().wilds_in_claims;
        for (k, slot) in self.opponents.iter_mut().enumerate() {
            let seat = me.add(k as u8 + 1);
            let melds = view.melds(seat).count() as u8;
            let own: ArrayVec<usize, 136> = discards
                .iter()
                .enumerate()
                .filter(|(_, d)| d.seat() == seat)
                .map(|(i, _)| i)
                .collect();
            let declared = own
                .iter()
                .copied()
                .find(|&i| discards[i].is_ready_declaration());
            let last = own.last().copied();
            // Since when the hand has not changed, and whose tiles since then it saw go by.
            let since = declared.or(last);
            let mut passed = TileSet::EMPTY;
            if let Some(start) = since {
                // Its own discard then: the hand it held just before was not complete (it
                // would have won), so the hand left does not wait on that tile.
                passed.insert(discards[start].tile());
                let end = discards.len() - usize::from(offer.is_some());
                for d in discards.get(start + 1..end).unwrap_or(&[]) {
                    if (d.seat() != seat || declared.is_some()) && !dead_wild(d.tile()) {
                        passed.insert(d.tile());
                    }
                }
            }
            if let (Some(t), Some(from)) = (offered, offerer) {
                // Asked before the viewer and not the winner alone (it would have won).
                let before = seat.distance_from(from) < me.distance_from(from);
                if before && from != seat && !multiple && !dead_wild(t) {
                    passed.insert(t);
                }
            }
            // A concealed kong being declared is a set of its own, its tiles on show.
            let declaring = u8::from(kong == Some((seat, true)));
            *slot = Opponent {
                seat: Some(seat),
                size: unseen.hand_sizes[seat],
                rules_sets: view.rules().sets - melds - declaring,
                turns: match declared {
                    Some(i) => own.iter().filter(|&&j| j <= i).count() as u32,
                    None => own.len() as u32,
                },
                ready: declared.is_some(),
                passed,
                recent: match declared {
                    Some(_) => ArrayVec::new(),
                    None => own
                        .iter()
                        .rev()
                        .take(RECENT)
                        .scan(true, |open, &i| {
                            // A turn that began with a claim ends the look back after it.
                            let this = open.then_some(discards[i].tile());
                            *open = !(i > 0 && discards[i - 1].is_claimed());
                            this
                        })
                        .collect(),
                },
            };
        }
    }

    /// A fill of what the viewer cannot see (the fill is the sampler's scratch); `None` when
    /// the unseen tiles admit none (a face-down kong with no kind left: never in a real deal).
    pub fn sample(&mut self, view: &View<'_>, rng: &mut Pcg64Mcg) -> Option<&Fill> {
        let unseen = self.unseen.unwrap_or_else(|| view.unseen());
        match self.model {
            BeliefModel::Uniform => {
                self.fill = Fill::shuffled(&unseen, rng)?;
            }
            BeliefModel::Play => self.sample_play(&unseen, rng)?,
        }
        Some(&self.fill)
    }

    fn sample_play(&mut self, unseen: &Unseen, rng: &mut Pcg64Mcg) -> Option<()> {
        let rules = self.rules.expect("prepared");
        let fill = &mut self.fill;
        fill.hands = Default::default();
        for k in &mut fill.kongs.0 {
            k.clear();
        }
        fill.wall.clear();
        let mut pool = Pool::from_unseen(&unseen.counts);
        for o in &self.opponents {
            let seat = o.seat.expect("prepared");
            for _ in 0..unseen.hidden_kongs[seat] {
                fill.kongs[seat].push(pool.take_four(rng)?);
            }
        }
        // The seats in a random order, so that none gets the first pick of the pool.
        let mut order = [0usize, 1, 2];
        for i in (1..3).rev() {
            order.swap(i, bounded(rng, i as u32 + 1) as usize);
        }
        for &k in &order {
            let o = &self.opponents[k];
            let seat = o.seat.expect("prepared");
            let rules = rules.with_sets(o.rules_sets);
            let mut accepted = None;
            let mut heaviest: Option<(f64, Hand)> = None;
            for _ in 0..ATTEMPTS {
                let hand = propose(o, rules, &mut pool, rng);
                let w = weight(o, &hand, rules, rng);
                if w > 0.0 && uniform(rng) < w {
                    accepted = Some(hand);
                    break;
                }
                pool.put_back(&hand);
                if heaviest.is_none_or(|(hw, _)| w > hw) {
                    heaviest = Some((w, hand));
                }
            }
            let hand = match accepted {
                Some(hand) => hand,
                None => {
                    // Every proposal went back: the pool is as before, the heaviest's tiles in it.
                    let (_, hand) = heaviest.expect("at least one proposal");
                    pool.take_hand(&hand);
                    hand
                }
            };
            fill.hands[seat] = hand;
        }
        for t in Tile::ALL {
            for _ in 0..pool.count(t) {
                fill.wall.push(WallTile::tile(t));
            }
        }
        for (i, &n) in unseen.counts[Tile::NUM..].iter().enumerate() {
            for _ in 0..n {
                fill.wall
                    .push(WallTile::flower(taisim_sim::Flower::new(i as u8)));
            }
        }
        fill.shuffle_wall(rng);
        Some(())
    }
}

/// A proposal for seat `o` (see the module documentation), its tiles taken from `pool`.
fn propose(o: &Opponent, rules: HandRules, pool: &mut Pool, rng: &mut Pcg64Mcg) -> Hand {
    let mut hand = Hand::EMPTY;
    for _ in 0..o.size {
        if let Some(t) = pool.draw(rng) {
            hand.add(t);
        }
    }
    let mut turns = o.turns;
    let mut extra = 0;
    loop {
        if turns == 0 {
            if !o.ready || extra >= READY_EXTRA_DRAWS || algo::shanten(&hand, rules) <= 0 {
                break;
            }
            extra += 1;
        } else {
            turns -= 1;
        }
        let Some(t) = pool.draw(rng) else { break };
        hand.add(t);
        let out = least_useful(&hand, rules);
        hand.remove(out);
        pool.put(out);
    }
    hand
}

/// The tile whose discard leaves the least shanten, the least connected among those (the
/// first in kind order among equals).
fn least_useful(hand: &Hand, rules: HandRules) -> Tile {
    let (_, at_least) = Discards::new(hand, rules).least();
    // Connectivity only where it decides: it was a tenth of the belief's instructions when
    // worked out for every kind held.
    let mut best = (u32::MAX, Tile::new(0));
    for t in at_least {
        let c = connectivity(hand, t);
        if c < best.0 {
            best = (c, t);
        }
    }
    best.1
}

/// The weight of a proposal (see the module documentation), in `0..=1`.
fn weight(o: &Opponent, hand: &Hand, rules: HandRules, rng: &mut impl RngCore) -> f64 {
    let shanten = algo::shanten(hand, rules);
    if o.ready && shanten > 0 {
        return 0.0;
    }
    if shanten <= 0 && algo::waits(hand, rules).0 & o.passed.0 != 0 {
        return 0.0;
    }
    // Backwards through the latest discards: the hand of each turn is the hand after it plus
    // its discard, and the hand after the turn before is that less the tile drawn in it (a
    // tile of it taken at random: the draw is unseen).
    let mut w = 1.0;
    let mut after = *hand;
    for &d in &o.recent {
        if after.count(d) == 4 {
            return 0.0;
        }
        let mut turn = after;
        turn.add(d);
        w *= discard_likelihood(&turn, d, rules);
        let drawn = nth(&turn, bounded(rng, turn.len() as u32) as usize);
        after = turn;
        after.remove(drawn);
    }
    w
}

/// How likely a player of the rollout policy's kind lets go of `d` from `turn`: 1 for a tile
/// whose discard leaves the least shanten, [`MISPLAY`] a step above.
fn discard_likelihood(turn: &Hand, d: Tile, rules: HandRules) -> f64 {
    let discards = Discards::new(turn, rules);
    let (least, _) = discards.least();
    MISPLAY.powi((discards.shanten(d) - least) as i32)
}

/// A uniform draw in `[0, 1)`.
fn uniform(rng: &mut impl RngCore) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}
