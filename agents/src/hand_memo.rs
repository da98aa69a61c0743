//! A cache of what greedy's turn decision reads of a hand: the shanten left by discarding each
//! kind held, and the kinds whose draw would then lower it. The search's rollouts play greedy
//! in every seat, and its candidates are played on the same determinizations, so the other
//! seats meet the same hands again and again (about two turn decisions in five, measured on
//! taiwan16's default search); those facts are the bulk of a rollout's cost and depend on the
//! hand and its rules alone, never on what the seat has seen. The decision weighs them by its
//! own unseen counts each time, so a memoized decision is the decision.

use taisim_sim::algo::{Discards, HandRules};
use taisim_sim::{Hand, Tile, TileSet};

use crate::efficiency::{discard_ukeire, improving_weight, may_improve};

/// The most kinds a hand holds at a turn: 3 × 5 sets + 2 tiles (the 16-tile form with the
/// drawn tile), each at worst a kind of its own. A hand holding more is not memoized.
const MAX_KINDS: usize = 17;

/// What greedy's turn decision reads of one hand under one set of hand rules.
#[derive(Clone, Debug)]
pub(crate) struct HandFacts {
    /// The hand's per-group keys ([`Hand::keys`]), which fix its counts; `None` marks an
    /// empty slot.
    keys: Option<[u32; 4]>,
    rules: HandRules,
    /// The kinds held.
    held: u64,
    /// By kind: the shanten of the hand less one copy; `i8::MAX` for a kind not held.
    shanten: [i8; Tile::NUM],
    /// The kinds whose discard leaves the least of `shanten`.
    at_least: u64,
    /// By kind held: its rank among the kinds held, where its `improving` sits (a table,
    /// as this machine's baseline x86-64 has no popcount instruction).
    rank: [u8; Tile::NUM],
    /// The held kinds whose `improving` is filled.
    known: u64,
    /// By rank of the kind discarded: the kinds of [`may_improve`] whose draw lowers the shanten of the hand less
    /// one copy (all of them, drawable or not: the unseen counts weigh them at use).
    improving: [u64; MAX_KINDS],
}

impl HandFacts {
    const EMPTY: HandFacts = HandFacts {
        keys: None,
        rules: HandRules::regular(0),
        held: 0,
        shanten: [i8::MAX; Tile::NUM],
        at_least: 0,
        rank: [0; Tile::NUM],
        known: 0,
        improving: [0; MAX_KINDS],
    };

    /// Fills the facts of `hand` (holding at most [`MAX_KINDS`] kinds): every discard's
    /// shanten, and the improving kinds of the discards that leave the least of it when more
    /// than one does (the ties greedy's ukeire breaks, nearly always the ones asked for).
    fn fill(&mut self, hand: &Hand, rules: HandRules) {
        let discards = Discards::new(hand, rules);
        self.keys = Some(hand.keys());
        self.rules = rules;
        self.held = hand.kinds().0;
        self.shanten = [i8::MAX; Tile::NUM];
        let mut least = i8::MAX;
        let mut at_least = 0u64;
        for (rank, t) in hand.kinds().iter().enumerate() {
            let s = discards.shanten(t);
            self.shanten[t.index()] = s;
            self.rank[t.index()] = rank as u8;
            if s < least {
                least = s;
                at_least = 0;
            }
            if s == least {
                at_least |= 1 << t.index();
            }
        }
        self.at_least = at_least;
        self.known = 0;
        if at_least.count_ones() > 1 {
            self.learn(hand, &discards, at_least);
        }
    }

    /// Fills `improving` for the held kinds of `which`.
    fn learn(&mut self, hand: &Hand, discards: &Discards<'_>, which: u64) {
        let kinds = TileSet(may_improve(hand, self.rules));
        let improving = discards.improving_kinds(TileSet(which), kinds);
        for t in TileSet(which & self.held) {
            self.improving[self.rank[t.index()] as usize] = improving[t.index()].0;
        }
        self.known |= which & self.held;
    }

    /// The shanten of the hand less one `t`; `i8::MAX` for a kind it does not hold (as
    /// [`Discards::shanten`]).
    pub(crate) fn shanten(&self, t: Tile) -> i8 {
        self.shanten[t.index()]
    }

    /// For each held kind `d` of `which`, at index `d`: the `unseen` copies of the kinds
    /// whose draw lowers the shanten of `hand` less one `d` (as [`discard_ukeire`]); 0 at the
    /// other indices. `hand` and `rules` are the ones the facts are of.
    pub(crate) fn discard_ukeire(
        &mut self,
        hand: &Hand,
        which: TileSet,
        unseen: &[u8; Tile::NUM],
    ) -> [u32; Tile::NUM] {
        debug_assert_eq!(self.keys, Some(hand.keys()));
        let missing = which.0 & self.held & !self.known;
        if missing != 0 {
            self.learn(hand, &Discards::new(hand, self.rules), missing);
        }
        let mut out = [0u32; Tile::NUM];
        let weigh = improving_weight(unseen);
        for t in TileSet(which.0 & self.held) {
            out[t.index()] = weigh(self.improving[self.rank[t.index()] as usize]);
        }
        out
    }
}

/// A direct-mapped cache of [`HandFacts`], sized once: the search's rollouts own one, so a
/// rollout allocates nothing.
#[derive(Clone, Debug)]
pub(crate) struct HandMemo {
    slots: Box<[HandFacts]>,
    /// Lookups answered from the cache, so a test can tell that it is used.
    #[cfg(test)]
    hits: u64,
}

impl HandMemo {
    /// Slots of the rollouts' memo: 2,048 of 248 bytes, half a MiB a search agent. On
    /// taiwan16's `search:2048:indifference=0.05` about a third of the rollouts' turn
    /// decisions found their hand (32% at 2,048 slots; 36%, 39% and 44% of hands had been
    /// met before among the last 1,024, 4,096 and 65,536 slots' worth).
    pub(crate) const SLOTS: usize = 2048;

    /// A memo of `slots` entries, a power of two, or none at all (0: every hand is scanned,
    /// and nothing is allocated).
    pub(crate) fn new(slots: usize) -> HandMemo {
        assert!(slots == 0 || slots.is_power_of_two(), "{slots} slots");
        HandMemo {
            slots: vec![HandFacts::EMPTY; slots].into_boxed_slice(),
            #[cfg(test)]
            hits: 0,
        }
    }

    /// The facts of `hand` under `rules`, from the cache or filled now; `None` for a hand of
    /// more kinds than a turn's hand can hold.
    pub(crate) fn facts(&mut self, hand: &Hand, rules: HandRules) -> Option<&mut HandFacts> {
        if self.slots.is_empty() || hand.kinds().len() as usize > MAX_KINDS {
            return None;
        }
        let keys = hand.keys();
        let wild = rules.wild.map_or(0, |w| w.kind().index() as u64 + 1);
        let mixed = (u64::from(keys[0]) ^ u64::from(keys[1]) << 21 ^ u64::from(keys[2]) << 42)
            .wrapping_add(u64::from(keys[3]) << 7 ^ u64::from(rules.sets) << 3 ^ wild << 24);
        let slot =
            (mixed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & (self.slots.len() - 1);
        let facts = &mut self.slots[slot];
        if facts.keys != Some(keys) || facts.rules != rules {
            facts.fill(hand, rules);
        } else {
            #[cfg(test)]
            {
                self.hits += 1;
            }
        }
        Some(&mut self.slots[slot])
    }
}

/// A turn decision's facts of its hand: scanned now, or from a [`HandMemo`].
// It lives on the stack for one decision; boxing the scan would allocate at every decision.
#[allow(clippy::large_enum_variant)]
pub(crate) enum DiscardFacts<'h, 'm> {
    Scanned(Discards<'h>, HandRules),
    Memo(&'m mut HandFacts),
}

impl<'h, 'm> DiscardFacts<'h, 'm> {
    /// The facts of `hand` under `rules`, from `memo` when given.
    #[inline]
    pub(crate) fn new(
        hand: &'h Hand,
        rules: HandRules,
        memo: Option<&'m mut HandMemo>,
    ) -> DiscardFacts<'h, 'm> {
        match memo.and_then(|m| m.facts(hand, rules)) {
            Some(facts) => DiscardFacts::Memo(facts),
            None => DiscardFacts::Scanned(Discards::new(hand, rules), rules),
        }
    }

    /// The least shanten a discard of a kind of `kinds` leaves, and the kinds of `kinds` that
    /// leave it, when the facts know it without a look at each kind: from the memo, when
    /// one of the kinds leaves the least of all the hand's discards (nearly always: `kinds`
    /// are the legal discards, all the kinds held but for a claim's restriction).
    #[inline]
    pub(crate) fn least_of(&self, kinds: u64) -> Option<(i8, u64)> {
        match self {
            DiscardFacts::Scanned(..) => None,
            DiscardFacts::Memo(f) => {
                let tied = f.at_least & kinds;
                (tied != 0).then(|| (f.shanten[tied.trailing_zeros() as usize], tied))
            }
        }
    }

    /// As [`Discards::shanten`].
    #[inline]
    pub(crate) fn shanten(&self, t: Tile) -> i8 {
        match self {
            DiscardFacts::Scanned(d, _) => d.shanten(t),
            DiscardFacts::Memo(f) => f.shanten(t),
        }
    }

    /// As [`discard_ukeire`] of `hand` (the facts' own).
    #[inline]
    pub(crate) fn discard_ukeire(
        &mut self,
        hand: &Hand,
        which: TileSet,
        unseen: &[u8; Tile::NUM],
    ) -> [u32; Tile::NUM] {
        match self {
            DiscardFacts::Scanned(d, rules) => discard_ukeire(hand, *rules, d, which, unseen),
            DiscardFacts::Memo(f) => f.discard_ukeire(hand, which, unseen),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::greedy::{choose_turn_by, Ties};
    use crate::knowledge::{hand_rules, sets_needed, unseen_counts};
    use crate::DefensiveAgent;
    use taisim_sim::algo::Wild;
    use taisim_sim::parse_hand;

    /// Every figure the facts give, against a fresh scan of the hand.
    fn assert_facts_match(memo: &mut HandMemo, hand: &Hand, rules: HandRules, what: &str) {
        let unseen = [3u8; Tile::NUM];
        let all = TileSet((1 << Tile::NUM) - 1);
        let scan = Discards::new(hand, rules);
        let want = discard_ukeire(hand, rules, &scan, all, &unseen);
        let facts = memo.facts(hand, rules).expect("a turn's hand");
        for t in Tile::ALL {
            assert_eq!(facts.shanten(t), scan.shanten(t), "{what}: {t:?}");
        }
        assert_eq!(facts.discard_ukeire(hand, all, &unseen), want, "{what}");
    }

    /// One hand under taizhou's wild of several kinds and under no wild, through a one-slot
    /// memo, so each lookup finds the previous rules' facts in its slot: each reads as a fresh
    /// scan under its own rules (a key without the wild would answer with the last one's).
    #[test]
    fn a_hand_is_memoized_under_its_own_rules() {
        let hand = parse_hand("1123m 456p 789s EESS CC P").expect("a hand");
        let plain = HandRules::new(5, Default::default());
        let mut memo = HandMemo::new(1);
        for round in 0..2 {
            for wild in [None, Some(Tile::EAST), Some(Tile::RED), Some(Tile::new(1))] {
                let rules = wild.map_or(plain, |w| plain.with_wild(Wild::taizhou(w, true)));
                assert_facts_match(&mut memo, &hand, rules, &format!("{wild:?} round {round}"));
            }
        }
        // The same rules twice in a row: the second lookup is answered from the memo.
        assert_facts_match(&mut memo, &hand, plain, "again");
        let hits = memo.hits;
        assert_facts_match(&mut memo, &hand, plain, "again");
        assert_eq!(memo.hits, hits + 1);
    }

    /// Every turn decision of deals under each shipped variant, with both tie-breaks, with no
    /// threats and with a defensive agent's threats forced on (whose ties are other kinds than
    /// the least shanten's, so the memo must learn more of a hand it holds): decided through
    /// a small shared memo, twice (the second from the memo), it is the decision made
    /// without one.
    #[test]
    fn memoized_turn_decisions_are_the_scanned_ones() {
        let always = DefensiveAgent::with_thresholds(u8::MAX, i8::MIN);
        let mut memo = HandMemo::new(64);
        let turns = crate::test_deals::for_each_turn(60, |name, seed, view, packed, legal| {
            let threats = [Default::default(), always.threats(view)];
            for tie in [Ties::Ukeire, Ties::Connectivity] {
                for threats in &threats {
                    let scanned = choose_turn_by(view, packed, threats, TileSet::EMPTY, tie, None);
                    for _ in 0..2 {
                        let memoized = choose_turn_by(
                            view,
                            packed,
                            threats,
                            TileSet::EMPTY,
                            tie,
                            Some(&mut memo),
                        );
                        assert_eq!(memoized, scanned, "{name} seed {seed} {legal:?}");
                    }
                }
            }
            // The memo's facts of the hand, asked of every kind, are a scan's.
            let hand = view.hand();
            let rules = hand_rules(view, sets_needed(view));
            let unseen = unseen_counts(view);
            let scan = Discards::new(hand, rules);
            let all = TileSet((1 << Tile::NUM) - 1);
            let want = discard_ukeire(hand, rules, &scan, all, &unseen);
            let facts = memo.facts(hand, rules).expect("a turn's hand");
            assert_eq!(facts.discard_ukeire(hand, all, &unseen), want);
        }) as u64;
        assert!(turns > 5_000, "{turns} turns");
        // At least the repeated lookups hit.
        assert!(memo.hits > 4 * turns, "{} hits in {turns} turns", memo.hits);
    }
}
