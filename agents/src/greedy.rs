//! The greedy and defensive agents: shanten first, then ukeire, then (for the defensive one)
//! safety against opponents that look ready and, under a deal with a wild (taizhou), against
//! the 全包 of dealing in with a fresh dragon.
//!
//! Shanten and ukeire are measured under the deal's own [`hand_rules`], so a wild held counts
//! for whatever it may stand for; a wild is discarded only when every other choice is worse
//! by the agent's measure.

use arrayvec::ArrayVec;
use taisim_score::Variant;
use taisim_sim::algo;
use taisim_sim::{Action, ActionList, Deal, Hand, LegalSet, Seat, Tile, TileSet, View};

use crate::agent::Agent;
use crate::efficiency::{connectivity, ukeire_under};
use crate::hand_memo::{DiscardFacts, HandMemo};
use crate::knowledge::{
    hand_rules, last_discards, looks_ready, safe_against, sets_needed, shown_counts, unseen_counts,
    visible_counts, Claim,
};
use crate::minimum::Minimum;

/// Wins whenever it can (but below the variant's minimum, 起胡, where it has one: see
/// [`Minimum`]); on its turn plays the discard (or kong) that leaves the lowest
/// shanten, breaking ties by ukeire (the unseen tiles that would lower it) and preferring a
/// ready declaration (天聽/地聽 score tai), then a kong (an extra draw), then a plain discard;
/// claims a discard only when the claim lowers its shanten; robs kongs and flowers always.
/// Among candidates equal by all of that, it keeps a wild (得牌) rather than discard it.
/// Deterministic: it draws no random numbers.
#[derive(Clone, Debug, Default)]
pub struct GreedyAgent {
    minimum: Minimum,
}

impl GreedyAgent {
    /// Greedy for a variant without a minimum: every win is declared.
    pub const fn new() -> GreedyAgent {
        GreedyAgent {
            minimum: Minimum::NONE,
        }
    }

    /// Greedy for deals of `variant`: a win below its minimum is let go.
    pub fn for_variant(variant: &Variant) -> GreedyAgent {
        GreedyAgent {
            minimum: Minimum::of(variant),
        }
    }

    /// Greedy weighing the wins offered against `minimum`.
    pub const fn with_minimum(minimum: Minimum) -> GreedyAgent {
        GreedyAgent { minimum }
    }
}

impl Agent for GreedyAgent {
    fn reset(&mut self, _seed: u64, _seat: Seat) {}

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        decide(
            view,
            &legal.iter().copied().collect(),
            &self.minimum,
            |_| Defense::NONE,
        )
    }

    /// [`Agent::act`] on the packed legal actions, which rank by kind sets without a list.
    fn act_in(&mut self, deal: &Deal, seat: Seat, _scratch: &mut ActionList) -> Action {
        decide(&deal.view(seat), &deal.legal(), &self.minimum, |_| {
            Defense::NONE
        })
    }

    fn name(&self) -> &str {
        "greedy"
    }
}

/// What a turn decision defends against: the safe-tile sets of the opponents that look
/// ready, and the kinds whose discard risks a 全包 while the hand it leaves is not ready.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Defense {
    pub(crate) threats: ArrayVec<TileSet, 3>,
    pub(crate) fresh_dragons: TileSet,
}

impl Defense {
    /// Greedy's: nothing.
    pub(crate) const NONE: Defense = Defense {
        threats: ArrayVec::new_const(),
        fresh_dragons: TileSet::EMPTY,
    };
}

/// The greedy decision: a win if offered (one `minimum` admits), else the best claim or pass
/// when answering an offer, else the best turn action against what `defense(view)` gives.
#[inline]
fn decide(
    view: &View<'_>,
    legal: &LegalSet,
    minimum: &Minimum,
    defense: impl FnOnce(&View<'_>) -> Defense,
) -> Action {
    if let Some(win) = minimum.winning_action(view, legal) {
        return win;
    }
    if legal.contains(Action::Pass) {
        return choose_claim(view, legal);
    }
    let defense = defense(view);
    choose_turn(view, legal, &defense.threats, defense.fresh_dragons)
}

/// Greedy, except that when an opponent looks ready (three or more sets laid down, a declared
/// ready hand, or few tiles left to draw) while its own hand is far from ready, it discards
/// tiles safe against the threatening opponents first (see
/// [`safe_against`](crate::knowledge::safe_against)), and only among equally safe tiles by
/// shanten and ukeire.
///
/// Under a deal with a wild indicator (taizhou) it also avoids the 全包 of taizhou.md
/// 「全包情况」 2 and 3: a player who is not ready and deals in with a 中/發/白 nobody has
/// played yet (生张; the 危险牌 of 「危险牌」) pays for the whole table. So it never discards
/// such a dragon ([`DefensiveAgent::fresh_dragons`]) when the hand the discard leaves is not
/// ready, unless every discard is one; this comes before the threats and shanten. A dragon
/// with a copy face up (the wild indicator counts) is no longer fresh. While its hand is
/// ready it defends as on the Taiwanese variants.
#[derive(Clone, Debug)]
pub struct DefensiveAgent {
    few_tiles: u8,
    far_shanten: i8,
    minimum: Minimum,
}

impl DefensiveAgent {
    /// Drawable tiles at or below which every opponent is treated as ready.
    pub const FEW_TILES: u8 = 12;
    /// Own shanten at or above which the hand is too far from ready to race.
    pub const FAR_SHANTEN: i8 = 2;

    pub fn new() -> DefensiveAgent {
        DefensiveAgent::with_thresholds(Self::FEW_TILES, Self::FAR_SHANTEN)
    }

    /// A defensive agent with its own thresholds (see [`DefensiveAgent::FEW_TILES`] and
    /// [`DefensiveAgent::FAR_SHANTEN`]).
    pub fn with_thresholds(few_tiles: u8, far_shanten: i8) -> DefensiveAgent {
        DefensiveAgent {
            few_tiles,
            far_shanten,
            minimum: Minimum::NONE,
        }
    }

    /// The agent for deals of `variant`: a win below its minimum (起胡) is let go.
    pub fn for_variant(self, variant: &Variant) -> DefensiveAgent {
        DefensiveAgent {
            minimum: Minimum::of(variant),
            ..self
        }
    }

    /// The safe-tile sets of the opponents that look ready, when the own hand is far enough
    /// from ready to fold; empty otherwise.
    pub fn threats(&self, view: &View<'_>) -> ArrayVec<TileSet, 3> {
        let mut threats = ArrayVec::new();
        let me = view.seat();
        let threatened = (1..4).any(|k| looks_ready(view, me.add(k), self.few_tiles));
        if !threatened {
            return threats;
        }
        let hand = view.hand();
        if algo::shanten(hand, hand_rules(view, sets_needed(view))) < self.far_shanten {
            return threats;
        }
        let last = last_discards(view);
        let visible = visible_counts(view);
        for k in 1..4 {
            let opponent = me.add(k);
            if looks_ready(view, opponent, self.few_tiles) {
                threats.push(safe_against(view, opponent, &last, &visible));
            }
        }
        threats
    }

    /// The dragons (中 發 白) none of whose copies lies face up yet (生张), under a deal with
    /// a wild indicator, whose variant (taizhou) makes a player who is not ready and deals
    /// in with one pay for everyone (taizhou.md 「全包情况」 2); empty under the other rules.
    pub fn fresh_dragons(&self, view: &View<'_>) -> TileSet {
        let mut fresh = TileSet::EMPTY;
        if view.rules().has_wild() {
            let shown = shown_counts(view);
            for t in [Tile::WHITE, Tile::GREEN, Tile::RED] {
                if shown[t.index()] == 0 {
                    fresh.insert(t);
                }
            }
        }
        fresh
    }

    fn defense(&self, view: &View<'_>) -> Defense {
        Defense {
            threats: self.threats(view),
            fresh_dragons: self.fresh_dragons(view),
        }
    }
}

impl Default for DefensiveAgent {
    fn default() -> DefensiveAgent {
        DefensiveAgent::new()
    }
}

impl Agent for DefensiveAgent {
    fn reset(&mut self, _seed: u64, _seat: Seat) {}

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        decide(view, &legal.iter().copied().collect(), &self.minimum, |v| {
            self.defense(v)
        })
    }

    fn act_in(&mut self, deal: &Deal, seat: Seat, _scratch: &mut ActionList) -> Action {
        decide(&deal.view(seat), &deal.legal(), &self.minimum, |v| {
            self.defense(v)
        })
    }

    fn name(&self) -> &str {
        "defensive"
    }
}

/// What a turn action leaves in the concealed hand: one tile fewer of a kind (a discard,
/// ready declaration or added kong, which all leave the same hand), or four fewer (a
/// concealed kong).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Leaves {
    One(Tile),
    Four(Tile),
}

impl Leaves {
    /// The hand left and the sets its concealed part must still form.
    fn apply(self, hand: &Hand, sets: u8) -> (Hand, u8) {
        let mut after = *hand;
        match self {
            Leaves::One(t) => {
                after.remove(t);
                (after, sets)
            }
            // The kong becomes a meld: one set fewer to form.
            Leaves::Four(t) => {
                after.remove_n(t, 4);
                (after, sets - 1)
            }
        }
    }
}

/// A turn action's place in the ranking: what it leaves, its preference (0 ready
/// declaration, 1 kong, 2 plain discard) and the tile it exposes to a ron, if any.
fn turn_candidate(action: Action, rob_concealed_kong: bool) -> Option<(Leaves, u8, Option<Tile>)> {
    Some(match action {
        Action::Discard(t) => (Leaves::One(t), 2, Some(t)),
        Action::DiscardReady(t) => (Leaves::One(t), 0, Some(t)),
        Action::ConcealedKong(t) => (Leaves::Four(t), 1, rob_concealed_kong.then_some(t)),
        // The fourth tile joins the pung meld: the concealed part keeps its sets.
        Action::AddedKong(t) => (Leaves::One(t), 1, Some(t)),
        _ => return None,
    })
}

/// The turn decision: a discard, ready declaration or kong from `legal` (which holds no
/// winning action). `threats` are the safe-tile sets of opponents to defend against; a
/// discard's danger is the number of them it is not safe against. A discard of a kind in
/// `fresh_dragons` is a risk when the hand it leaves is not ready (shanten above 0).
///
/// Candidates rank by `(risk, danger, shanten, -ukeire, wild, preference)`, where `wild` is
/// whether the candidate gives up a wild, the first in `legal` order winning a tie. Two
/// passes: the first finds the least `(danger, shanten)`, the shanten of every one-tile
/// discard coming from one [`Discards`](taisim_sim::algo::Discards) scan of the hand; the second breaks ties at it by
/// ukeire, computed only when the tied candidates leave at least two distinct hands, and once
/// per hand.
pub(crate) fn choose_turn(
    view: &View<'_>,
    legal: &LegalSet,
    threats: &[TileSet],
    fresh_dragons: TileSet,
) -> Action {
    choose_turn_by(view, legal, threats, fresh_dragons, Ties::Ukeire, None)
}

/// How [`choose_turn_by`] breaks a tie of least shanten.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ties {
    /// The most ukeire: greedy's own rule.
    Ukeire,
    /// The least connected tile let go (see [`connectivity`](crate::efficiency::connectivity)):
    /// about what ukeire picks, for a fraction of its cost (the search's fast rollouts).
    Connectivity,
}

/// Greedy's decision with its ties of least shanten broken by `tie`, its turn decisions
/// reading their hands' facts through `memo` when given (the same decision, for less), and
/// its wins those `minimum` admits.
#[inline]
pub(crate) fn decide_by(
    view: &View<'_>,
    legal: &LegalSet,
    tie: Ties,
    memo: Option<&mut HandMemo>,
    minimum: &Minimum,
) -> Action {
    if let Some(win) = minimum.winning_action(view, legal) {
        return win;
    }
    if legal.contains(Action::Pass) {
        return choose_claim(view, legal);
    }
    choose_turn_by(view, legal, &[], TileSet::EMPTY, tie, memo)
}

/// [`choose_turn`] with its ties of least shanten broken by `tie`, reading the hand's facts
/// through `memo` when given.
pub(crate) fn choose_turn_by(
    view: &View<'_>,
    legal: &LegalSet,
    threats: &[TileSet],
    fresh_dragons: TileSet,
    tie: Ties,
    memo: Option<&mut HandMemo>,
) -> Action {
    let hand = view.hand();
    let sets = sets_needed(view);
    let rules = view.rules();
    let hand_rules = hand_rules(view, sets);
    let mut discards = DiscardFacts::new(hand, hand_rules, memo);
    let wild = hand_rules.wild.map(|w| w.kind());

    // Pass 1: the kinds the candidates leave one tile fewer of, and four fewer of. Candidates
    // that leave the same hand (a discard and a ready declaration of one kind, say) expose
    // the same tile and so share their `(danger, shanten)`: ranking kinds rather than actions
    // decides it once per hand, where a per-action pass redid it for each.
    let mut one = legal.discards().0 | legal.ready().0;
    let mut four = 0u64;
    for &action in legal.head() {
        if let Some((leaves, _, _)) = turn_candidate(action, rules.rob_concealed_kong) {
            match leaves {
                Leaves::One(t) => one |= 1 << t.index(),
                Leaves::Four(t) => four |= 1 << t.index(),
            }
        }
    }
    if one | four == 0 {
        return legal.get(0);
    }
    // The least rank `(risk, danger, shanten)`, as one integer in the same order, and the
    // kinds at it. Danger is at most 3 (one per opponent).
    let danger = |t: Tile| threats.iter().filter(|safe| !safe.contains(t)).count() as u16;
    let rank = |danger: u16, shanten: i8| danger << 8 | (shanten as u8 ^ 0x80) as u16;
    let risk = |t: Tile, shanten: i8| ((fresh_dragons.contains(t) && shanten > 0) as u16) << 12;
    let mut best = u16::MAX;
    let mut tied_one = 0u64;
    match discards.least_of(one) {
        // With no danger and no risk the rank is the shanten, whose least the memo holds.
        Some((least, tied)) if threats.is_empty() && fresh_dragons.is_empty() => {
            best = rank(0, least);
            tied_one = tied;
        }
        _ => {
            for t in TileSet(one) {
                let shanten = discards.shanten(t);
                let r = risk(t, shanten) | rank(danger(t), shanten);
                if r < best {
                    best = r;
                    tied_one = 0;
                }
                if r == best {
                    tied_one |= 1 << t.index();
                }
            }
        }
    }
    let mut tied_four = 0u64;
    for t in TileSet(four) {
        let (after, sets) = Leaves::Four(t).apply(hand, sets);
        let exposed_danger = if rules.rob_concealed_kong {
            danger(t)
        } else {
            0
        };
        let r = rank(
            exposed_danger,
            algo::shanten(&after, hand_rules.with_sets(sets)),
        );
        if r < best {
            best = r;
            tied_one = 0;
            tied_four = 0;
        }
        if r == best {
            tied_four |= 1 << t.index();
        }
    }
    // Ukeire can separate the tied candidates only if they leave at least two hands.
    let distinct = tied_one.count_ones() + tied_four.count_ones() > 1;

    // Pass 2: among the candidates at the least rank, the most ukeire, then the preferred
    // kind of action, then the first. Candidates leaving the same hand share their ukeire.
    let mut uke_one = [0u32; Tile::NUM];
    let mut unseen = [0u8; Tile::NUM];
    if distinct {
        match tie {
            Ties::Ukeire => {
                unseen = unseen_counts(view);
                uke_one = discards.discard_ukeire(hand, TileSet(tied_one), &unseen);
            }
            Ties::Connectivity => {
                for t in TileSet(tied_one) {
                    uke_one[t.index()] = 64 - connectivity(hand, t).min(64);
                }
            }
        }
    }
    let shanten = (best as u8 ^ 0x80) as i8;
    let gives_up_wild =
        |leaves: Leaves| matches!(leaves, Leaves::One(t) | Leaves::Four(t) if Some(t) == wild);
    // The tied candidates in `legal` order: the kongs among the actions before the
    // discards, then the tied discards, then the tied ready declarations.
    let kongs = legal
        .head()
        .iter()
        .filter_map(|&a| turn_candidate(a, rules.rob_concealed_kong).map(|c| (a, c.0, c.1)));
    let discards = TileSet(legal.discards().0 & tied_one)
        .iter()
        .map(|t| (Action::Discard(t), Leaves::One(t), 2));
    let ready = TileSet(legal.ready().0 & tied_one)
        .iter()
        .map(|t| (Action::DiscardReady(t), Leaves::One(t), 0));
    // `(-ukeire, gives up a wild, preference)`: the tie-breaks after `(danger, shanten)`.
    type TieBreak = (core::cmp::Reverse<u32>, bool, u8);
    let mut chosen: Option<(TieBreak, Action)> = None;
    for (action, leaves, preference) in kongs.chain(discards).chain(ready) {
        let ukeire = match leaves {
            Leaves::One(t) if tied_one >> t.index() & 1 == 0 => continue,
            Leaves::Four(t) if tied_four >> t.index() & 1 == 0 => continue,
            _ if !distinct => 0,
            Leaves::One(t) => uke_one[t.index()],
            Leaves::Four(_) if tie == Ties::Connectivity => 0,
            Leaves::Four(_) => {
                let (after, sets) = leaves.apply(hand, sets);
                ukeire_under(&after, hand_rules.with_sets(sets), shanten, &unseen)
            }
        };
        let key = (
            core::cmp::Reverse(ukeire),
            gives_up_wild(leaves),
            preference,
        );
        if chosen.is_none_or(|(k, _)| key < k) {
            chosen = Some((key, action));
        }
    }
    chosen.map_or(legal.get(0), |(_, a)| a)
}

/// The answer to a discard, kong or flower on offer (no winning action in `legal`): the claim
/// that lowers shanten most (a kong before a pung before a chow on equal shanten), or pass.
pub(crate) fn choose_claim(view: &View<'_>, legal: &LegalSet) -> Action {
    let Some(offer) = view.tile_on_offer() else {
        return Action::Pass;
    };
    let hand = view.hand();
    let sets = sets_needed(view);
    let hand_rules = hand_rules(view, sets);
    let now = algo::shanten(hand, hand_rules);
    let mut best: Option<(i8, u8, Action)> = None;
    for &action in legal.head() {
        let (claim, preference) = match action {
            Action::Kong => (Claim::Kong, 0),
            Action::Pung => (Claim::Pung, 1),
            Action::Chow(lowest) => (Claim::Chow { lowest }, 2),
            _ => continue,
        };
        let Some(after) = claim.leaves(hand, offer) else {
            debug_assert!(false, "a legal claim takes tiles the hand holds");
            continue;
        };
        // The claimed set becomes a meld: one set fewer to form from the concealed tiles.
        let sh = algo::shanten(&after, hand_rules.with_sets(sets - 1));
        if sh < now && best.is_none_or(|(bs, bp, _)| (sh, preference) < (bs, bp)) {
            best = Some((sh, preference, action));
        }
    }
    best.map_or(Action::Pass, |(_, _, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use taisim_sim::algo::HandRules;

    /// The contract's ukeire, spelled out: the unseen copies of every kind whose draw lowers
    /// the shanten, one shanten query per kind.
    fn reference_ukeire(
        hand: &Hand,
        rules: HandRules,
        shanten: i8,
        unseen: &[u8; Tile::NUM],
    ) -> u32 {
        let mut total = 0;
        for t in Tile::ALL {
            if unseen[t.index()] > 0 && hand.count(t) < 4 {
                let mut h = *hand;
                h.add(t);
                if algo::shanten(&h, rules) < shanten {
                    total += unseen[t.index()] as u32;
                }
            }
        }
        total
    }

    /// A candidate's full rank: `(risk, danger, shanten, -ukeire, wild, preference)`.
    type Rank = (bool, u8, i8, core::cmp::Reverse<u32>, bool, u8);

    /// The contract's turn decision, spelled out: every candidate's full rank, the first
    /// least in `legal` order.
    fn reference_choose_turn(
        view: &View<'_>,
        legal: &ActionList,
        threats: &[TileSet],
        fresh_dragons: TileSet,
    ) -> Action {
        let hand = view.hand();
        let sets = sets_needed(view);
        let rules = view.rules();
        let unseen = unseen_counts(view);
        let wild = view.wild();
        let mut best: Option<(Rank, Action)> = None;
        for &action in legal {
            let mut after = *hand;
            let (sets, preference, exposed) = match action {
                Action::Discard(t) => {
                    after.remove(t);
                    (sets, 2, Some(t))
                }
                Action::DiscardReady(t) => {
                    after.remove(t);
                    (sets, 0, Some(t))
                }
                Action::ConcealedKong(t) => {
                    after.remove_n(t, 4);
                    (sets - 1, 1, rules.rob_concealed_kong.then_some(t))
                }
                Action::AddedKong(t) => {
                    after.remove(t);
                    (sets, 1, Some(t))
                }
                _ => continue,
            };
            let danger = exposed.map_or(0, |t| {
                threats.iter().filter(|safe| !safe.contains(t)).count() as u8
            });
            let hand_rules = crate::knowledge::hand_rules(view, sets);
            let shanten = algo::shanten(&after, hand_rules);
            let ukeire = reference_ukeire(&after, hand_rules, shanten, &unseen);
            let (risk, gives_up_wild) = match action {
                Action::Discard(t) | Action::DiscardReady(t) | Action::AddedKong(t) => {
                    (fresh_dragons.contains(t) && shanten > 0, Some(t) == wild)
                }
                Action::ConcealedKong(t) => (false, Some(t) == wild),
                _ => (false, false),
            };
            let rank = (
                risk,
                danger,
                shanten,
                core::cmp::Reverse(ukeire),
                gives_up_wild,
                preference,
            );
            if best.is_none_or(|(b, _)| rank < b) {
                best = Some((rank, action));
            }
        }
        best.map_or(legal[0], |(_, a)| a)
    }

    /// Every turn decision of deals under each shipped variant, with no threats, a defensive
    /// agent's threats and threats forced on at every turn: the fast choice is the
    /// reference's.
    #[test]
    fn choose_turn_matches_the_reference() {
        let defensive = DefensiveAgent::new();
        let always = DefensiveAgent::with_thresholds(u8::MAX, i8::MIN);
        let turns = crate::test_deals::for_each_turn(150, |name, seed, view, packed, legal| {
            let threat_sets = [
                ArrayVec::<TileSet, 3>::new(),
                defensive.threats(view),
                always.threats(view),
            ];
            let dragons = defensive.fresh_dragons(view);
            for threats in &threat_sets {
                for fresh in [TileSet::EMPTY, dragons] {
                    let fast = choose_turn(view, packed, threats, fresh);
                    let slow = reference_choose_turn(view, legal, threats, fresh);
                    assert_eq!(
                        fast, slow,
                        "{name} seed {seed} {legal:?} {threats:?} {fresh:?}"
                    );
                }
            }
        });
        assert!(turns > 10_000, "{turns} turns");
    }
}
