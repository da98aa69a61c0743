//! The regular win check and regular waits, by the win table.

use super::tables::{win_table, WinTable, CODE_NONE, CODE_PAIR, CODE_SETS};
use crate::hand::{Hand, POW5};
use crate::tile::{Suit, Tile, TileSet};

// The sums below count on these values.
const _: () = assert!(CODE_SETS == 0 && CODE_PAIR == 1 && CODE_NONE == 2);

#[inline(always)]
fn codes(table: &WinTable, keys: [u32; 4]) -> [u32; 4] {
    [
        table.suit(keys[0]),
        table.suit(keys[1]),
        table.suit(keys[2]),
        table.honor(keys[3]),
    ]
}

/// A hand is a regular win exactly when three groups split into sets only (code 0) and one
/// into sets plus a pair (code 1). Codes are 0, 1 or 2, so that is the same as the four codes
/// summing to 1: a group that splits neither way (2) alone overshoots, and so do two pair
/// groups.
#[inline]
pub(crate) fn is_win(hand: &Hand, sets: u8) -> bool {
    let c = codes(win_table(), hand.keys());
    c[0] + c[1] + c[2] + c[3] == 1 && hand.len() == 3 * sets as usize + 2
}

/// Regular waits of a `3 * sets + 1` hand: only a group whose three partners' codes sum to at
/// most 1 (all sets-only, or sets-only bar one pair group) can take the winning tile, and
/// within it a rank wins if the group's key plus that rank has the code that brings the sum
/// to exactly 1.
#[inline]
pub(crate) fn waits(hand: &Hand, sets: u8) -> TileSet {
    if hand.len() != 3 * sets as usize + 1 {
        return TileSet::EMPTY;
    }
    let table = win_table();
    let keys = hand.keys();
    let c = codes(table, keys);
    let total = c[0] + c[1] + c[2] + c[3];
    // No code exceeds 2, so from 4 up every group's partners sum to 2 or more. Most hands
    // of a deal in progress are far from ready and stop here, after four loads; the engine
    // asks at every discard, so this part is inlined and the rest is not.
    if total >= 4 {
        return TileSet::EMPTY;
    }
    waits_in_groups(hand, table)
}

#[inline(never)]
fn waits_in_groups(hand: &Hand, table: &WinTable) -> TileSet {
    let keys = hand.keys();
    // Looked up again rather than passed: handing the codes over would spill them on every
    // call, and this part runs for few.
    let c = codes(table, keys);
    let total = c[0] + c[1] + c[2] + c[3];
    let mut out = TileSet::EMPTY;
    for suit in Suit::ALL {
        let g = suit as usize;
        let rest = total - c[g];
        if rest > 1 {
            continue;
        }
        let need = 1 - rest;
        for r in 0..suit.len() {
            let tile = Tile::ALL[(suit.first() + r) as usize];
            if hand.count(tile) >= 4 {
                continue;
            }
            let key = keys[g] + POW5[r as usize];
            let code = if suit == Suit::Honor {
                table.honor(key)
            } else {
                table.suit(key)
            };
            if code == need {
                out.insert(tile);
            }
        }
    }
    out
}
