//! The regular win check and regular waits, by the win table.

use super::tables::{win_table, WinTable, CODE_PAIR, CODE_SETS};
use crate::hand::{Hand, POW5};
use crate::tile::{Suit, Tile, TileSet};

/// Each group's code mapped to a nibble count: sets-only adds 1 to the low nibble, a pair
/// group adds 1 to the next, a group that splits neither way lands in the third. A hand is a
/// regular win exactly when the sum is three sets-only groups and one pair group.
#[inline(always)]
fn weight(code: u32) -> u32 {
    1 << (4 * code)
}

const WIN_SUM: u32 = 3 * (1 << (4 * CODE_SETS)) + (1 << (4 * CODE_PAIR));

#[inline(always)]
fn codes(table: &WinTable, keys: [u32; 4]) -> [u32; 4] {
    [
        table.suit(keys[0]),
        table.suit(keys[1]),
        table.suit(keys[2]),
        table.honor(keys[3]),
    ]
}

#[inline]
pub(crate) fn is_win(hand: &Hand, sets: u8) -> bool {
    let c = codes(win_table(), hand.keys());
    let sum = weight(c[0]) + weight(c[1]) + weight(c[2]) + weight(c[3]);
    sum == WIN_SUM && hand.len() == 3 * sets as usize + 2
}

/// Regular waits of a `3 * sets + 1` hand: only a group whose three partners already split
/// into sets (and, between them, at most one pair) can take the winning tile, and within it a
/// rank wins if the group's key plus that rank has the missing code.
pub(crate) fn waits(hand: &Hand, sets: u8) -> TileSet {
    let mut out = TileSet::EMPTY;
    if hand.len() != 3 * sets as usize + 1 {
        return out;
    }
    let table = win_table();
    let keys = hand.keys();
    let c = codes(table, keys);
    let w = [weight(c[0]), weight(c[1]), weight(c[2]), weight(c[3])];
    let total = w[0] + w[1] + w[2] + w[3];
    for suit in Suit::ALL {
        let g = suit as usize;
        let need = match WIN_SUM.wrapping_sub(total - w[g]) {
            x if x == weight(CODE_SETS) => CODE_SETS,
            x if x == weight(CODE_PAIR) => CODE_PAIR,
            _ => continue,
        };
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
