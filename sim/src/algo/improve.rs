//! The kinds whose draw lowers a hand's shanten (the ukeire scan), without a full shanten
//! query per kind.
//!
//! Adding one tile changes one group's key, so of the man-pin and sou-honor halves that a
//! regular shanten query combines, one stays fixed over the whole scan of a group: its row
//! of lacks is looked up once and only the changed half is reloaded per kind.
//!
//! Every form's distance (tiles lacking) drops by at most one when a tile is added, so a
//! form can lower the hand's shanten only if it already achieves the hand's lack; the
//! others are skipped outright. Special forms are rarely that close and are then checked
//! kind by kind with their exact distances.

use super::special;
use super::tables::{distance_table, Row};
use super::SpecialHands;
use crate::hand::{Hand, POW5};
use crate::tile::TileSet;

/// Kinds of `kinds` (held fewer than four times) whose addition lowers the regular
/// distance of `hand` below `lack`.
fn regular(hand: &Hand, sets: usize, lack: u8, kinds: u64) -> u64 {
    let table = distance_table();
    let keys = hand.keys();
    let man = table.suit_slot(keys[0]);
    let pin = table.suit_slot(keys[1]);
    let sou = table.suit_slot(keys[2]);
    let honor = table.honor_slot(keys[3]);
    let man_pin = table.man_pin(man, pin);
    let sou_honor = table.sou_honor(sou, honor);
    // The regular distance drops by at most one per tile: unless it is the lack already,
    // no kind brings it below.
    if table.lack(sets, man_pin, sou_honor) > lack {
        return 0;
    }
    // One group at a time: the kinds of `bits` (ranks of the group at bit `shift`) whose
    // added tile, giving the half `half(pow)`, brings the lack against the fixed half
    // (its `row`) below `lack`.
    #[inline(always)]
    fn scan(bits: u64, shift: u32, row: Row<'_>, lack: u8, half: impl Fn(u32) -> usize) -> u64 {
        let mut out = 0;
        let mut bits = bits;
        while bits != 0 {
            let r = bits.trailing_zeros();
            bits &= bits - 1;
            out |= u64::from(row.lack(half(POW5[r as usize])) < lack) << (shift + r);
        }
        out
    }
    let with_sou_honor = table.lack_row(sets, sou_honor);
    let with_man_pin = table.lack_row(sets, man_pin);
    scan(kinds & 0x1ff, 0, with_sou_honor, lack, |pow| {
        table.man_pin(table.suit_slot(keys[0] + pow), pin)
    }) | scan((kinds >> 9) & 0x1ff, 9, with_sou_honor, lack, |pow| {
        table.man_pin(man, table.suit_slot(keys[1] + pow))
    }) | scan((kinds >> 18) & 0x1ff, 18, with_man_pin, lack, |pow| {
        table.sou_honor(table.suit_slot(keys[2] + pow), honor)
    }) | scan((kinds >> 27) & 0x7f, 27, with_man_pin, lack, |pow| {
        table.sou_honor(sou, table.honor_slot(keys[3] + pow))
    })
}

/// See [`super::improving_kinds`].
pub(crate) fn improving_kinds(
    hand: &Hand,
    sets: u8,
    special: SpecialHands,
    shanten: i8,
    kinds: TileSet,
) -> TileSet {
    // A complete hand (or a corrupt shanten) has nothing to lower.
    if shanten < 0 {
        return TileSet::EMPTY;
    }
    let lack = (shanten + 1) as u8;
    let kinds = kinds.0 & !hand.fours().0 & ((1 << 34) - 1);
    let mut out = regular(hand, sets.min(5) as usize, lack, kinds);
    // The special forms apply to the hand with the drawn tile.
    if sets == 5 && (hand.len() == 15 || hand.len() == 16) {
        // Each form's lower bound drops by at most one per tile too.
        if special.eight_pairs && special::eight_pairs_lower_bound(hand) <= lack {
            out |= eight_pairs(hand, lack) & kinds;
        }
        if special.thirteen_orphans && special::missing_orphans(hand) <= lack {
            out |= thirteen_orphans(hand, lack) & kinds;
        }
    }
    TileSet(out)
}

/// The kinds whose draw brings 八對's distance below `lack`. The distance depends only on
/// how many kinds the hand holds 0, 1, 2, 3 and 4 times, so drawing any kind held `c` times
/// has the same effect: four cases decide every kind.
fn eight_pairs(hand: &Hand, lack: u8) -> u64 {
    let mut classes = [0u8; 5];
    let mut held = [0u64; 4];
    for (k, c) in hand.counts().into_iter().enumerate() {
        classes[c as usize] += 1;
        if c < 4 {
            held[c as usize] |= 1 << k;
        }
    }
    let mut out = 0;
    for (c, &kinds) in held.iter().enumerate() {
        if kinds != 0 {
            let mut after = classes;
            after[c] -= 1;
            after[c + 1] += 1;
            if special::eight_pairs_distance_of_classes(&after) < lack {
                out |= kinds;
            }
        }
    }
    out
}

/// The kinds whose draw brings 十三么's distance below `lack`, where the hand's own distance
/// is at least `lack`.
///
/// The distance is the least `|T - hand|` over the targets `T` (the thirteen orphans, one
/// extra set, one orphan paired), so drawing `t` lowers it exactly when some target at the
/// least distance wants more copies of `t` than the hand holds. One pass over the targets
/// of [`special::thirteen_orphans_distance`] finds the least distance and the union of
/// those kinds.
pub(super) fn thirteen_orphans(hand: &Hand, lack: u8) -> u64 {
    let mut least = (u8::MAX, 0);
    special::orphan_targets(hand, |t| {
        // The pair is free on an orphan with a spare copy; else it costs one, on any
        // pairable orphan (each then wants one more copy than the hand holds).
        if t.spare & t.pairable != 0 {
            special::keep_least(&mut least, t.cost, t.short);
        } else if t.pairable != 0 {
            special::keep_least(&mut least, t.cost + 1, t.short | t.pairable);
        }
    });
    let (least, union) = least;
    debug_assert_eq!(least, special::thirteen_orphans_distance(hand));
    if least == lack {
        union
    } else {
        0
    }
}
