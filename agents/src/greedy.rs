//! The greedy and defensive agents: shanten first, then ukeire, then (for the defensive one)
//! safety against opponents that look ready.

use arrayvec::ArrayVec;
use taisim_sim::algo::{shanten_with, SpecialHands};
use taisim_sim::{Action, ActionList, Hand, Seat, Tile, TileSet, View};

use crate::agent::Agent;
use crate::knowledge::{
    last_discards, looks_ready, safe_against, sets_needed, unseen_counts, visible_counts,
};

/// Wins whenever it can; on its turn plays the discard (or kong) that leaves the lowest
/// shanten, breaking ties by ukeire (the unseen tiles that would lower it) and preferring a
/// ready declaration (天聽/地聽 score tai), then a kong (an extra draw), then a plain discard;
/// claims a discard only when the claim lowers its shanten; robs kongs and flowers always.
/// Deterministic: it draws no random numbers.
#[derive(Clone, Debug, Default)]
pub struct GreedyAgent;

impl GreedyAgent {
    pub fn new() -> GreedyAgent {
        GreedyAgent
    }
}

impl Agent for GreedyAgent {
    fn reset(&mut self, _seed: u64, _seat: Seat) {}

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        if let Some(win) = winning_action(legal) {
            return win;
        }
        if legal.contains(&Action::Pass) {
            return choose_claim(view, legal);
        }
        choose_turn(view, legal, &[])
    }

    fn name(&self) -> &str {
        "greedy"
    }
}

/// Greedy, except that when an opponent looks ready (three or more sets laid down, a declared
/// ready hand, or few tiles left to draw) while its own hand is far from ready, it discards
/// tiles safe against the threatening opponents first (see
/// [`safe_against`](crate::knowledge::safe_against)), and only among equally safe tiles by
/// shanten and ukeire.
#[derive(Clone, Debug)]
pub struct DefensiveAgent {
    few_tiles: u8,
    far_shanten: i8,
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
        if shanten_with(hand, sets_needed(view), view.rules().special) < self.far_shanten {
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
}

impl Default for DefensiveAgent {
    fn default() -> DefensiveAgent {
        DefensiveAgent::new()
    }
}

impl Agent for DefensiveAgent {
    fn reset(&mut self, _seed: u64, _seat: Seat) {}

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        if let Some(win) = winning_action(legal) {
            return win;
        }
        if legal.contains(&Action::Pass) {
            return choose_claim(view, legal);
        }
        let threats = self.threats(view);
        choose_turn(view, legal, &threats)
    }

    fn name(&self) -> &str {
        "defensive"
    }
}

/// The first winning action offered, if any.
#[inline]
fn winning_action(legal: &ActionList) -> Option<Action> {
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Win | Action::SelfDrawWin | Action::FlowerWin))
}

/// The unseen copies of the kinds that lower the shanten of `hand` (a waiting-form hand of
/// `3 * sets + 1` tiles whose shanten is `shanten`).
pub fn ukeire(
    hand: &Hand,
    sets: u8,
    shanten: i8,
    unseen: &[u8; Tile::NUM],
    special: SpecialHands,
) -> u32 {
    let mut total = 0;
    let mut kinds = may_improve(hand, special);
    while kinds != 0 {
        let t = Tile::new(kinds.trailing_zeros() as u8);
        kinds &= kinds - 1;
        let n = unseen[t.index()];
        if n == 0 || hand.count(t) >= 4 {
            continue;
        }
        let mut h = *hand;
        h.add(t);
        if shanten_with(&h, sets, special) < shanten {
            total += n as u32;
        }
    }
    total
}

/// The kinds whose draw can lower the shanten of `hand`, as a kind bitset. A drawn tile that
/// is neither held nor within two ranks of a held tile of its suit joins no set with the
/// hand, and a pair of it would need a second added tile where a held leftover needs one,
/// so it cannot help the regular form or eight pairs; 十三么 also wants every orphan kind,
/// held or not. Skipping the rest saves about a third of the shanten calls. The exception is
/// a hand holding some kind four times, whose leftover may have no copy left to pair: then
/// every kind is tried.
fn may_improve(hand: &Hand, special: SpecialHands) -> u64 {
    const RANKS: u64 = 0x1ff;
    const ALL_KINDS: u64 = (1 << Tile::NUM) - 1;
    if !hand.fours().is_empty() {
        return ALL_KINDS;
    }
    let held = hand.kinds().0;
    let mut near = held & !((1 << 27) - 1);
    for suit in 0..3 {
        let f = (held >> (9 * suit)) & RANKS;
        near |= ((f | f << 1 | f << 2 | f >> 1 | f >> 2) & RANKS) << (9 * suit);
    }
    if special.thirteen_orphans {
        near |= ORPHAN_KINDS;
    }
    near
}

/// 1m 9m 1p 9p 1s 9s and the seven honors.
const ORPHAN_KINDS: u64 = 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | 0x7f << 27;

/// A candidate on the seat's turn, ranked by `(danger, shanten, -ukeire, preference)`.
struct Candidate {
    action: Action,
    after: Hand,
    sets: u8,
    danger: u8,
    shanten: i8,
    /// Computed only when two candidates tie on danger and shanten.
    ukeire: Option<u32>,
    /// 0 ready declaration, 1 kong, 2 plain discard.
    preference: u8,
}

/// The turn decision: a discard, ready declaration or kong from `legal` (which holds no
/// winning action). `threats` are the safe-tile sets of opponents to defend against; a
/// discard's danger is the number of them it is not safe against.
pub(crate) fn choose_turn(view: &View<'_>, legal: &ActionList, threats: &[TileSet]) -> Action {
    let hand = view.hand();
    let sets = sets_needed(view);
    let rules = view.rules();
    let danger = |t: Tile| threats.iter().filter(|safe| !safe.contains(t)).count() as u8;
    let mut unseen: Option<[u8; Tile::NUM]> = None;
    let mut best: Option<Candidate> = None;
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
            // The fourth tile joins the pung meld: the concealed part keeps its sets.
            Action::AddedKong(t) => {
                after.remove(t);
                (sets, 1, Some(t))
            }
            _ => continue,
        };
        let mut cand = Candidate {
            action,
            after,
            sets,
            danger: exposed.map_or(0, danger),
            shanten: shanten_with(&after, sets, rules.special),
            ukeire: None,
            preference,
        };
        let Some(b) = best.as_mut() else {
            best = Some(cand);
            continue;
        };
        let coarse = (cand.danger, cand.shanten).cmp(&(b.danger, b.shanten));
        let better = match coarse {
            core::cmp::Ordering::Less => true,
            core::cmp::Ordering::Greater => false,
            core::cmp::Ordering::Equal => {
                let unseen = unseen.get_or_insert_with(|| unseen_counts(view));
                let bu = *b.ukeire.get_or_insert_with(|| {
                    ukeire(&b.after, b.sets, b.shanten, unseen, rules.special)
                });
                let cu = ukeire(&cand.after, cand.sets, cand.shanten, unseen, rules.special);
                cand.ukeire = Some(cu);
                (core::cmp::Reverse(cu), cand.preference) < (core::cmp::Reverse(bu), b.preference)
            }
        };
        if better {
            *b = cand;
        }
    }
    best.map_or(legal[0], |b| b.action)
}

/// The answer to a discard, kong or flower on offer (no winning action in `legal`): the claim
/// that lowers shanten most (a kong before a pung before a chow on equal shanten), or pass.
pub(crate) fn choose_claim(view: &View<'_>, legal: &ActionList) -> Action {
    let Some(offer) = view.tile_on_offer() else {
        return Action::Pass;
    };
    let hand = view.hand();
    let sets = sets_needed(view);
    let special = view.rules().special;
    let now = shanten_with(hand, sets, special);
    let mut best: Option<(i8, u8, Action)> = None;
    for &action in legal {
        let mut after = *hand;
        let preference = match action {
            Action::Kong => {
                after.remove_n(offer, 3);
                0
            }
            Action::Pung => {
                after.remove_n(offer, 2);
                1
            }
            Action::Chow(lowest) => {
                for k in 0..3 {
                    let t = Tile::new(lowest.to_u8() + k);
                    if t != offer {
                        after.remove(t);
                    }
                }
                2
            }
            _ => continue,
        };
        // The claimed set becomes a meld: one set fewer to form from the concealed tiles.
        let sh = shanten_with(&after, sets - 1, special);
        if sh < now && best.is_none_or(|(bs, bp, _)| (sh, preference) < (bs, bp)) {
            best = Some((sh, preference, action));
        }
    }
    best.map_or(Action::Pass, |(_, _, a)| a)
}
