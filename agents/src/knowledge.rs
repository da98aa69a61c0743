//! What a seat can infer from its view: which tiles it has seen, which are safe against an
//! opponent, how far its hand is from ready. Shared by the agents and the observation
//! encoder so that both count the same way.

use taisim_sim::algo::{self, HandRules, Wild};
use taisim_sim::{Hand, Seat, Tile, TileSet, View};

/// Position of `seat` relative to `viewer` in turn order: 0 the viewer, 1 the next seat
/// (下家, who may chow the viewer's discards), 2 across, 3 the previous seat (上家).
#[inline]
pub const fn relative(seat: Seat, viewer: Seat) -> usize {
    seat.distance_from(viewer) as usize
}

/// Sets the viewer's concealed tiles must still form.
#[inline]
pub fn sets_needed(view: &View<'_>) -> u8 {
    view.rules().sets - view.own_melds().len() as u8
}

/// What the hand algorithms judge the viewer's hand by, for a concealed part that must form
/// `sets` sets: the deal's special hands and its wilds. The deal judges every hand the same
/// way (its waits, wins and ready checks), so an agent measuring shanten or ukeire with these
/// rules counts a wild as the deal will (tested against [`View::waits`]).
///
/// The wild is the deal's 得牌 as shared/rules/README.md ("taizhou: readings the project
/// adopts", 得牌 and 白板) reads it: the turned-up kind's other copies are wild, 白板 stands
/// for that kind's face, every set and the pair hold a real tile.
#[inline]
pub fn hand_rules(view: &View<'_>, sets: u8) -> HandRules {
    let rules = HandRules::new(sets, view.rules().special);
    match view.wild() {
        Some(kind) => rules.with_wild(Wild::taizhou(kind, true)),
        None => rules,
    }
}

/// The viewer's shanten under the deal's [`hand_rules`].
#[inline]
pub fn shanten(view: &View<'_>, hand: &Hand, sets: u8) -> i8 {
    algo::shanten(hand, hand_rules(view, sets))
}

/// A claim of a discard, by the shape it takes from the hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A chow of the offered tile with the two held tiles beside it: `lowest` begins the run.
    Chow {
        lowest: Tile,
    },
    Pung,
    Kong,
}

impl Claim {
    /// The claims that take the offered tile `offer` into a set, in the action space's
    /// order (chows by the offer's place in the run, then pung, then kong), each as its
    /// [`Claim`] or `None` where the shape cannot exist (a chow of an honor, or one reaching
    /// past 1 or 9).
    pub fn shapes(offer: Tile) -> [Option<Claim>; 5] {
        let chow = |k: u8| {
            let r = offer.rank();
            (!offer.is_honor() && r > k && r - k <= 7).then(|| Claim::Chow {
                lowest: Tile::new(offer.to_u8() - k),
            })
        };
        [
            chow(0),
            chow(1),
            chow(2),
            Some(Claim::Pung),
            Some(Claim::Kong),
        ]
    }

    /// The concealed tiles left after the claim of `offer` from `hand`, or `None` where the
    /// hand lacks the tiles the claim takes.
    pub fn leaves(self, hand: &Hand, offer: Tile) -> Option<Hand> {
        let mut after = *hand;
        let counts = hand.counts();
        match self {
            Claim::Kong if counts[offer.index()] >= 3 => after.remove_n(offer, 3),
            Claim::Pung if counts[offer.index()] >= 2 => after.remove_n(offer, 2),
            Claim::Chow { lowest } => {
                for t in taisim_sim::chow_tiles(lowest) {
                    if t != offer {
                        if counts[t.index()] == 0 {
                            return None;
                        }
                        after.remove(t);
                    }
                }
            }
            _ => return None,
        }
        Some(after)
    }
}

/// Copies of each kind lying face up for every seat to see: the river's unclaimed discards,
/// exposed melds and the wild indicator (the viewer's own hand and concealed kongs left
/// out). A kind at 0 is still 生张 (taizhou.md 「危险牌」: a dragon nobody has played yet).
#[inline]
pub fn shown_counts(view: &View<'_>) -> [u8; Tile::NUM] {
    let mut shown = view.seen_counts();
    for (s, h) in shown.iter_mut().zip(view.hand().counts()) {
        *s -= h;
    }
    for m in view.own_melds() {
        if m.kind() == taisim_sim::MeldKind::ConcealedKong {
            shown[m.tile().index()] -= 4;
        }
    }
    shown
}

/// Copies of each kind the viewer can see: its own hand, every meld face up (its own
/// concealed kongs included, other seats' hidden), and the discards still lying in the river
/// (a claimed discard lies in a meld and is counted there). At most 4 each. The deal keeps
/// the face-up part as it goes ([`View::seen_counts`]).
#[inline]
pub fn visible_counts(view: &View<'_>) -> [u8; Tile::NUM] {
    let seen = view.seen_counts();
    debug_assert!(seen.iter().all(|&n| n <= 4), "{seen:?}");
    seen
}

/// Copies of each kind the viewer has not seen (`4 - visible`).
#[inline]
pub fn unseen_counts(view: &View<'_>) -> [u8; Tile::NUM] {
    visible_counts(view).map(|n| 4u8.saturating_sub(n))
}

/// The river index of each seat's last discard, by seat.
pub fn last_discards(view: &View<'_>) -> [Option<usize>; 4] {
    let mut last = [None; 4];
    for (i, d) in view.discards().iter().enumerate() {
        last[d.seat() as usize] = Some(i);
    }
    last
}

/// Kinds discarded (by anyone) after `opponent`'s last discard: the opponent passed each of
/// them, and under 過水 a seat that passes a winning tile may not win on a discard until its
/// own next discard, so none of them can win now. Empty if the opponent has not discarded.
pub fn discarded_since(view: &View<'_>, last: Option<usize>) -> TileSet {
    let Some(last) = last else {
        return TileSet::EMPTY;
    };
    let mut set = TileSet::EMPTY;
    for d in &view.discards()[last + 1..] {
        set.insert(d.tile());
    }
    set
}

/// Kinds that are safe to discard against `opponent`: [`discarded_since`] its last discard,
/// plus honors whose four copies the viewer can all see (an honor can only be waited on as a
/// pair or triplet, which needs a copy in the waiting hand). A numbered kind seen four times
/// is not counted: it may still complete a run wait.
pub fn safe_against(
    view: &View<'_>,
    opponent: Seat,
    last: &[Option<usize>; 4],
    visible: &[u8; Tile::NUM],
) -> TileSet {
    let mut safe = discarded_since(view, last[opponent as usize]);
    for t in Tile::ALL[27..].iter() {
        if visible[t.index()] >= 4 {
            safe.insert(*t);
        }
    }
    safe
}

/// Whether `opponent` looks ready from the outside: three or more sets laid down, a declared
/// ready hand, or the wall nearly drawn (`drawable <= few_tiles`, when every hand has had
/// many draws to get ready).
pub fn looks_ready(view: &View<'_>, opponent: Seat, few_tiles: u8) -> bool {
    view.melds(opponent).count() >= 3
        || view.declared_ready(opponent)
        || view.drawable() <= few_tiles
}
