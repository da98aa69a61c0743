//! Perft: counting the distinct legal action sequences from a position, the engine's
//! regression fixture (as chess engines count move paths).

use crate::action::ActionList;
use crate::deal::Deal;

/// The number of distinct legal action sequences of length `depth` from `deal`, a sequence
/// that ends the deal earlier counting once.
pub fn perft(deal: &Deal, depth: u32) -> u64 {
    if depth == 0 || deal.is_over() {
        return 1;
    }
    let mut actions = ActionList::new();
    deal.legal_actions(&mut actions);
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|&a| {
            let mut child = deal.clone();
            child.play_unchecked(a);
            perft(&child, depth - 1)
        })
        .sum()
}
