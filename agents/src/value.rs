//! The value agent: greedy that reads the scoring table where a hand's worth is in reach.
//!
//! Greedy lets go of the discard that leaves the least shanten and breaks ties by ukeire, so it
//! plays the same under every table. Once its hand is ready or one tile from ready, the value
//! agent breaks the same ties by what the hand is worth: the expected payment of the waits it
//! keeps, scored and settled by the variant's own table. A closed wait (崁張) pays a tai a
//! two-sided wait does not, a wait on a dragon may make a pung, a flush's last tile is worth
//! more than a stray's; greedy counts only the tiles. Elsewhere it plays greedy's move: the
//! shanten first, claims when they lower it (staying concealed for 門清 was measured and loses
//! far more wins than it gains tai), wins always.
//!
//! The expected payment of a ready hand is, over the kinds it waits on, the unseen copies of
//! each times what winning on it pays the seat: a quarter of the time by self-draw (greedy's
//! share of self-drawn wins is 24%), else on a discard from each of the other three seats
//! alike. One tile from ready, a discard is worth, over every kind it might draw, that kind's
//! unseen copies times the best ready hand the draw allows. Every figure is a whole number of
//! the variant's points (the four settlements summed), so decisions are exact and the same on
//! every machine.

use std::sync::Arc;

use taisim_score::{score, try_settle, Ready, Variant, WinInput, DISCARDS_READ};
use taisim_sim::algo::{self, Discards, HandRules};
use taisim_sim::{Action, ActionList, Deal, Hand, LegalSet, Seat, Tile, TileSet, View, WinContext};

use crate::agent::Agent;
use crate::greedy::{choose_claim, choose_turn};
use crate::knowledge::{hand_rules, sets_needed, unseen_counts};
use crate::minimum::Minimum;

/// Greedy with its ties of least shanten broken by the hand's expected payment under the
/// variant's table once the hand is ready or one from ready (see the module documentation).
/// Deterministic: it draws no random numbers.
#[derive(Clone, Debug)]
pub struct ValueAgent {
    variant: Arc<Variant>,
    /// The variant's minimum (起胡): a win below it is let go, as greedy lets it go.
    minimum: Minimum,
    reach: i8,
    /// Scratch: the worths and waits worked out in the current winning context (allocated
    /// once, with the agent).
    memo: Box<Memo>,
}

/// The shanten up to which the `value` agent weighs its discards by payment: ready (0) and
/// one from ready (1). Two from ready the best ready hands lie two draws away, about 34 times
/// the work of one away for every discard, and few of them are reached.
pub const VALUE_SHANTEN: i8 = 1;

impl ValueAgent {
    /// A value agent reading `variant`'s scoring table and settlement.
    pub fn new(variant: Arc<Variant>) -> ValueAgent {
        ValueAgent::with_reach(variant, VALUE_SHANTEN)
    }

    /// A value agent that weighs its discards by payment only up to `reach` from ready (0:
    /// only the waits of a ready hand, several times cheaper than one away, which tries
    /// every draw), playing greedy's move farther out.
    pub fn with_reach(variant: Arc<Variant>, reach: i8) -> ValueAgent {
        ValueAgent {
            minimum: Minimum::of_shared(&variant),
            variant,
            reach,
            memo: Box::new(Memo::new()),
        }
    }

    /// The value agent's choice for the seat of `view`, from the legal actions `legal`.
    pub fn decide(&mut self, view: &View<'_>, legal: &LegalSet) -> Action {
        if let Some(win) = self.minimum.winning_action(view, legal) {
            return win;
        }
        if legal.contains(Action::Pass) {
            return choose_claim(view, legal);
        }
        let greedy = choose_turn(view, legal, &[], TileSet::EMPTY);
        let (Action::Discard(kept) | Action::DiscardReady(kept)) = greedy else {
            // A kong ranked first: greedy's, as are the other turn actions.
            return greedy;
        };
        let hand = view.hand();
        let rules = hand_rules(view, sets_needed(view));
        let (least, tied) = Discards::new(hand, rules).least();
        let tied = tied.0 & (legal.discards().0 | legal.ready().0);
        if least > self.reach || tied.count_ones() < 2 {
            return greedy;
        }
        let table = Table::new(&self.variant, view, rules);
        let memo = &mut *self.memo;
        memo.enter(&table.input, rules);
        let mut worth = |t: Tile| {
            let mut after = *hand;
            after.remove(t);
            if least <= 0 {
                table.ready_worth(&after, &table.unseen, memo)
            } else {
                table.one_away_worth(&after, memo)
            }
        };
        // Greedy's own discard unless another is worth strictly more; of equal worths, the
        // first kind.
        let mut best = (worth(kept), kept);
        for t in TileSet(tied) {
            if t != kept {
                let w = worth(t);
                if w > best.0 {
                    best = (w, t);
                }
            }
        }
        match best.1 {
            t if t == kept => greedy,
            t if legal.ready().contains(t) => Action::DiscardReady(t),
            t => Action::Discard(t),
        }
    }
}

/// One decision's reading of the table: the seat's context and the unseen copies.
struct Table<'a> {
    variant: &'a Variant,
    /// The winning input of the seat's hand, but for the hand (empty) and the winning tile.
    input: WinInput,
    rules: HandRules,
    unseen: [u8; Tile::NUM],
    /// The kinds with an unseen copy: the draws one away may make.
    unseen_kinds: TileSet,
}

impl<'a> Table<'a> {
    fn new(variant: &'a Variant, view: &View<'_>, rules: HandRules) -> Table<'a> {
        let me = view.seat();
        let ctx = view.context();
        let input = WinInput {
            seat: me,
            dealer: ctx.dealer,
            round_wind: ctx.round_wind,
            streak: ctx.streak,
            hand: Hand::EMPTY,
            melds: view.own_melds().iter().copied().collect(),
            flowers: view.flowers(me),
            win_tile: None,
            discarder: None,
            context: WinContext::default(),
            ready: Ready::None,
            last_copy: false,
            // Counts from DISCARDS_READ up score alike: clamped, the context (the memo's key)
            // stays the same from one turn to the next once the early-win window is past.
            discards: Some(view.discards().len().min(usize::from(DISCARDS_READ)) as u8),
            late_fresh_discard: false,
            wild: view.wild(),
        };
        let unseen = unseen_counts(view);
        let unseen_kinds = Tile::ALL
            .into_iter()
            .filter(|k| unseen[k.index()] > 0)
            .fold(TileSet::EMPTY, TileSet::with);
        Table {
            variant,
            input,
            rules,
            unseen,
            unseen_kinds,
        }
    }

    /// Four times the expected payment of winning on `tile` with `hand` (the tile included):
    /// a self-draw once, and a discard from each other seat once.
    fn win_worth(&self, hand: &Hand, tile: Tile) -> i64 {
        let mut input = self.input.clone();
        input.hand = *hand;
        input.win_tile = Some(tile);
        win_worth(&input, self.variant)
    }

    /// Four times the expected payment of the ready hand `ready`, weighted by the copies of
    /// each kind it waits on in `unseen`.
    fn ready_worth(&self, ready: &Hand, unseen: &[u8; Tile::NUM], memo: &mut Memo) -> i64 {
        let key = ready.packed();
        let waits = memo.get_or(key | Memo::WAITS, || {
            algo::waits(ready, self.rules).0 as i64
        });
        let mut total = 0;
        for w in TileSet(waits as u64) {
            let copies = unseen[w.index()];
            if copies > 0 {
                let mut won = *ready;
                won.add(w);
                let key = won.packed() | (w.index() as u128) << Memo::TILE_SHIFT;
                total += i64::from(copies) * memo.get_or(key, || self.win_worth(&won, w));
            }
        }
        total
    }

    /// Four times the expected payment one draw away: over every kind the hand `after` may
    /// draw, its unseen copies times the worth of the best ready hand the draw allows.
    fn one_away_worth(&self, after: &Hand, memo: &mut Memo) -> i64 {
        // A draw leaves a ready hand after some discard exactly when it lowers the shanten.
        let mut total = 0;
        for k in algo::improving_kinds(after, self.rules, 1, self.unseen_kinds) {
            let copies = self.unseen[k.index()];
            let mut drawn = *after;
            drawn.add(k);
            let (least, ready) = Discards::new(&drawn, self.rules).least();
            if least > 0 {
                continue;
            }
            // The drawn copy is no longer unseen.
            let mut unseen = self.unseen;
            unseen[k.index()] -= 1;
            let best = ready
                .iter()
                .map(|t| {
                    let mut hand = drawn;
                    hand.remove(t);
                    self.ready_worth(&hand, &unseen, memo)
                })
                .max()
                .unwrap_or(0);
            total += i64::from(copies) * best;
        }
        total
    }
}

/// The worths and waits worked out in one winning context, by hand: the paths to a ready hand
/// cross (discarding `a` then drawing and discarding `b` leaves what discarding `b` first
/// does), a ready seat meets the hand it kept last turn again, and scoring a win is most of
/// the agent's cost. A worth depends on the hand, the winning tile and the context (the
/// seat, dealer, winds, melds, flowers, discard count clamped to [`DISCARDS_READ`], wild and
/// sets needed): the memo keeps the context its entries belong to, and a decision in another
/// one begins a new generation. Open addressing over a fixed array, a few probes long: an
/// entry belongs to the generation it carries, so a new generation clears nothing, and a
/// key that finds no free slot in its probes takes its first (the memo is scratch: a worth
/// forgotten is worked out again, the same).
#[derive(Clone, Debug)]
struct Memo {
    generation: u32,
    /// The winning context of this generation's entries.
    context: Option<(WinInput, HandRules)>,
    slots: [Slot; Memo::SLOTS],
}

#[derive(Copy, Clone, Debug)]
struct Slot {
    key: u128,
    generation: u32,
    value: i64,
}

impl Memo {
    /// Enough for the ready hands of a decision one from ready and some turns after it: about
    /// ten tied discards, ten improving draws each, a few ready discards and waits each. A
    /// power of two (the hash's top bits index it).
    const SLOTS: usize = 1024;
    /// Slots a key may take from its hash's: past them it evicts the first.
    const PROBES: usize = 8;
    /// A hand's packed counts fill bits 0..102; a winning tile's kind is kept above them.
    const TILE_SHIFT: u32 = 102;
    /// Marks a ready hand's waits rather than a win's worth.
    const WAITS: u128 = 1 << 127;

    fn new() -> Memo {
        Memo {
            generation: 1,
            context: None,
            slots: [Slot {
                key: 0,
                generation: 0,
                value: 0,
            }; Memo::SLOTS],
        }
    }

    /// Keeps the entries of `input`'s context (its hand and winning tile aside) under
    /// `rules`, and forgets every other: a new generation begins when the context changes.
    fn enter(&mut self, input: &WinInput, rules: HandRules) {
        if self
            .context
            .as_ref()
            .is_some_and(|(i, r)| i == input && *r == rules)
        {
            return;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Once in four billion contexts the generations wrap: clear for real.
            for slot in &mut self.slots {
                slot.generation = 0;
            }
            self.generation = 1;
        }
        self.context = Some((input.clone(), rules));
    }

    /// The value kept under `key` in this generation, or `work()` kept there.
    fn get_or(&mut self, key: u128, work: impl FnOnce() -> i64) -> i64 {
        let hash = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let home = (hash >> (64 - Memo::SLOTS.trailing_zeros())) as usize;
        let mut free = home;
        for p in 0..Memo::PROBES {
            let i = (home + p) % Memo::SLOTS;
            let slot = self.slots[i];
            if slot.generation != self.generation {
                free = i;
                break;
            }
            if slot.key == key {
                return slot.value;
            }
        }
        let value = work();
        self.slots[free] = Slot {
            key,
            generation: self.generation,
            value,
        };
        value
    }
}

/// Four times the expected payment to the winner of `input` (its hand and winning tile set):
/// the payment of a self-draw plus those of a discard from each of the other three seats, by
/// the variant's scoring and settlement. A hand the table cannot score pays 0, and so does a
/// win below the variant's minimum (起胡): the agents let it go ([`Minimum`]), so it is never
/// fined, and the hand plays on.
pub fn win_worth(input: &WinInput, variant: &Variant) -> i64 {
    let me = input.seat;
    let stakes = variant.settlement();
    let settled = |input: &WinInput, scored: &taisim_score::Score| {
        if !scored.meets_minimum {
            return 0;
        }
        try_settle(scored, input, variant, stakes.base, stakes.per_tai).map_or(0, |pay| pay[me])
    };
    let mut input = input.clone();
    input.discarder = None;
    input.context.self_draw = true;
    let mut total = score(&input, variant).map_or(0, |s| settled(&input, &s));
    // Who discarded the winning tile changes who pays (the dealer's tai), not the hand's
    // score: one scoring, three settlements.
    input.context.self_draw = false;
    input.discarder = Some(me.add(1));
    // A discard win counts its winning discard among the discards made (scoring refuses 0):
    // the dealer weighing its waits before the deal's first discard scores them after one,
    // which every table reads as it reads none (mahjongtime's first five).
    input.discards = input.discards.map(|d| d.max(1));
    if let Ok(scored) = score(&input, variant) {
        for k in 1..4 {
            input.discarder = Some(me.add(k));
            total += settled(&input, &scored);
        }
    }
    total
}

impl Agent for ValueAgent {
    fn reset(&mut self, _seed: u64, _seat: Seat) {}

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        self.decide(view, &legal.iter().copied().collect())
    }

    fn act_in(&mut self, deal: &Deal, seat: Seat, _scratch: &mut ActionList) -> Action {
        self.decide(&deal.view(seat), &deal.legal())
    }

    fn name(&self) -> &str {
        "value"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_deals::for_each_turn;
    use crate::GreedyAgent;

    /// The contract spelled out with one hand query per tile: the kinds a ready hand wins
    /// on, each kind's shanten, the ready hands a draw allows.
    struct Reference<'a> {
        table: Table<'a>,
    }

    impl Reference<'_> {
        fn ready_worth(&self, ready: &Hand, unseen: &[u8; Tile::NUM]) -> i64 {
            Tile::ALL
                .into_iter()
                .filter(|&w| unseen[w.index()] > 0 && ready.count(w) < 4)
                .filter_map(|w| {
                    let mut won = *ready;
                    won.add(w);
                    algo::is_win(&won, self.table.rules)
                        .then(|| i64::from(unseen[w.index()]) * self.table.win_worth(&won, w))
                })
                .sum()
        }

        fn one_away_worth(&self, after: &Hand) -> i64 {
            let unseen = self.table.unseen;
            let mut total = 0;
            for k in Tile::ALL {
                if unseen[k.index()] == 0 || after.count(k) >= 4 {
                    continue;
                }
                let mut drawn = *after;
                drawn.add(k);
                let mut left = unseen;
                left[k.index()] -= 1;
                let best = Tile::ALL
                    .into_iter()
                    .filter(|&d| drawn.count(d) > 0)
                    .filter_map(|d| {
                        let mut hand = drawn;
                        hand.remove(d);
                        (algo::shanten(&hand, self.table.rules) <= 0)
                            .then(|| self.ready_worth(&hand, &left))
                    })
                    .max();
                total += i64::from(unseen[k.index()]) * best.unwrap_or(0);
            }
            total
        }
    }

    /// At every turn of deals of each shipped variant: greedy's move where the hand is two
    /// or more from ready or no two discards tie at the least shanten, else the tied discard
    /// worth the most by the reference (greedy's own unless another is worth strictly more,
    /// then the first such kind), declared ready where greedy would declare.
    #[test]
    fn the_value_agent_plays_the_discard_worth_the_most() {
        let mut departures = 0;
        let mut weighed = 0;
        let turns = for_each_turn(24, |name, seed, view, packed, legal| {
            let variant = Arc::new(Variant::builtin(name).unwrap());
            let mut agent = ValueAgent::new(Arc::clone(&variant));
            let got = agent.decide(view, packed);
            let greedy = GreedyAgent::new().act(view, legal);
            let hand = view.hand();
            let rules = hand_rules(view, sets_needed(view));
            let shanten_after = |t: Tile| {
                let mut after = *hand;
                after.remove(t);
                algo::shanten(&after, rules)
            };
            let held: Vec<Tile> = Tile::ALL
                .into_iter()
                .filter(|&t| hand.count(t) > 0)
                .collect();
            let least = held.iter().map(|&t| shanten_after(t)).min().unwrap();
            let discardable = packed.discards().0 | packed.ready().0;
            let tied: Vec<Tile> = held
                .iter()
                .copied()
                .filter(|&t| shanten_after(t) == least && discardable >> t.index() & 1 == 1)
                .collect();
            let kept = match greedy {
                Action::Discard(t) | Action::DiscardReady(t) => t,
                _ => {
                    assert_eq!(got, greedy, "{name} seed {seed}: a kong is greedy's");
                    return;
                }
            };
            if least > VALUE_SHANTEN || tied.len() < 2 {
                assert_eq!(got, greedy, "{name} seed {seed} {hand:?}");
                return;
            }
            weighed += 1;
            let mut table = Table::new(&variant, view, rules);
            // The count as it is, not clamped as the agent keys its memo by.
            table.input.discards = Some(view.discards().len().min(255) as u8);
            let reference = Reference { table };
            let worth = |t: Tile| {
                let mut after = *hand;
                after.remove(t);
                if least <= 0 {
                    reference.ready_worth(&after, &reference.table.unseen)
                } else {
                    reference.one_away_worth(&after)
                }
            };
            let mut best = (worth(kept), kept);
            for &t in &tied {
                if worth(t) > best.0 {
                    best = (worth(t), t);
                }
            }
            let want = if best.1 == kept {
                greedy
            } else if legal.contains(&Action::DiscardReady(best.1)) {
                Action::DiscardReady(best.1)
            } else {
                Action::Discard(best.1)
            };
            departures += usize::from(want != greedy);
            assert_eq!(got, want, "{name} seed {seed} {hand:?} {tied:?}");
        });
        assert!(turns > 2_000, "{turns} turns");
        assert!(
            weighed > 300 && departures > 20,
            "{weighed} weighed, {departures} departures"
        );
    }

    /// The memo kept from one decision to the next changes no decision: one agent for each
    /// seat of each variant, playing every turn of its seat through the deals one after
    /// another (its winning context changing with melds, flowers and deals), decides at every
    /// turn as a fresh agent does.
    #[test]
    fn the_memo_kept_across_decisions_changes_no_decision() {
        let mut kept: std::collections::HashMap<(String, Seat), ValueAgent> = Default::default();
        let mut weighed = 0;
        for_each_turn(24, |name, seed, view, packed, _| {
            let variant = Arc::new(Variant::builtin(name).unwrap());
            let agent = kept
                .entry((name.to_string(), view.seat()))
                .or_insert_with(|| ValueAgent::new(Arc::clone(&variant)));
            let got = agent.decide(view, packed);
            let fresh = ValueAgent::new(variant).decide(view, packed);
            assert_eq!(got, fresh, "{name} seed {seed} {:?}", view.hand());
            let rules = hand_rules(view, sets_needed(view));
            weighed += usize::from(Discards::new(view.hand(), rules).least().0 <= VALUE_SHANTEN);
        });
        assert!(weighed > 1_000, "{weighed} turns one from ready or nearer");
    }

    /// The worth of a win is its payment by self-draw plus its payments on each other seat's
    /// discard, each as `taisim score` and the settlement give it.
    #[test]
    fn a_win_is_worth_its_four_payments() {
        let variant = Variant::builtin("taiwan16").unwrap();
        // South (not the dealer) wins on 5p in the middle of 46p: 崁張.
        let hand = taisim_sim::parse_hand("123m456m123s456pEEE77s").unwrap();
        let five = taisim_sim::parse_tiles("5p").unwrap()[0];
        let input = WinInput::new(Seat::South, hand, five, false);
        let stakes = variant.settlement();
        let pay = |self_draw: bool, discarder: Option<Seat>| {
            let mut i = input.clone();
            i.context.self_draw = self_draw;
            i.discarder = discarder;
            let s = score(&i, &variant).unwrap();
            assert!(s.has(taisim_score::PatternId::from_id("closed_wait").unwrap()));
            taisim_score::settle(&s, &i, &variant, stakes.base, stakes.per_tai)[Seat::South]
        };
        let want = pay(true, None)
            + pay(false, Some(Seat::West))
            + pay(false, Some(Seat::North))
            + pay(false, Some(Seat::East));
        assert_eq!(win_worth(&input, &variant), want);
        // The dealer's tai: East's discard pays more than West's.
        assert!(pay(false, Some(Seat::East)) > pay(false, Some(Seat::West)));
    }
}
