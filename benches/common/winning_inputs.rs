//! The scoring workload shared by `benches/score.rs` and `examples/score_profile.rs`: the
//! winning hands of seeded deals played by a policy that takes any win and otherwise discards
//! to the lowest shanten.

use taisim_score::{Variant, WinInput};
use taisim_sim::algo::{shanten, HandRules};
use taisim_sim::{bounded, rng_from_seed, Action, ActionList, Deal, DealContext, Wind};

/// Winning inputs from deals played under `variant`'s rules.
pub fn winning_inputs(variant: &Variant, want: usize) -> Vec<WinInput> {
    let mut out = Vec::new();
    let mut actions = ActionList::new();
    let mut seed = 0u64;
    while out.len() < want {
        let context = DealContext {
            round_wind: Wind::East,
            dealer: Wind::new(seed as u8),
            streak: (seed % 3) as u8,
        };
        let mut deal = Deal::new(variant.rules(), seed, context).unwrap();
        let mut rng = rng_from_seed(seed);
        while !deal.is_over() {
            deal.legal_actions(&mut actions);
            let win = actions
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Win | Action::SelfDrawWin));
            let a = win.unwrap_or_else(|| {
                let seat = deal.to_act().unwrap();
                let sets = deal.rules().sets - deal.melds(seat).len() as u8;
                let discards = actions.iter().filter_map(|&a| match a {
                    Action::Discard(t) => {
                        let mut h = *deal.hand(seat);
                        h.remove(t);
                        Some((shanten(&h, HandRules::regular(sets)), a))
                    }
                    _ => None,
                });
                discards
                    .min_by_key(|&(s, _)| s)
                    .map(|(_, a)| a)
                    .unwrap_or_else(|| actions[bounded(&mut rng, actions.len() as u32) as usize])
            });
            deal.play(a).unwrap();
        }
        let result = deal.result().unwrap();
        for seat in result.winners.iter() {
            if let Some(input) = WinInput::from_deal(&deal, seat) {
                if !input.context.flower_win {
                    out.push(input);
                }
            }
        }
        seed += 1;
    }
    out.truncate(want);
    out
}
