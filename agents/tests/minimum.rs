//! A variant's minimum (起胡) in the agents' play: under taiwan16-2015 (起胡 4,
//! taiwan16-2015-table.txt:7) greedy, defensive and value let a win below it go, where before
//! they declared it and were fined (詐胡, :33); that is the only change to their play, and
//! under the variants without a minimum nothing changes.

use std::sync::Arc;

use taisim_agents::value::{win_worth, ValueAgent};
use taisim_agents::{Agent, BuiltinAgent, DefensiveAgent, GreedyAgent, Minimum};
use taisim_score::{score, score_deal, Variant, WinInput};
use taisim_sim::{deal_seed, ActionList, Deal, DealContext, Wind};

fn context(i: u64) -> DealContext {
    DealContext {
        round_wind: Wind::new((i / 4 % 4) as u8),
        dealer: Wind::new((i % 4) as u8),
        streak: (i % 3) as u8,
    }
}

/// The agents as a variant's deals build them, beside the same agents blind to its minimum.
fn pairs(variant: &Arc<Variant>) -> Vec<(BuiltinAgent, BuiltinAgent)> {
    vec![
        (
            BuiltinAgent::Greedy(GreedyAgent::new()),
            BuiltinAgent::Greedy(GreedyAgent::for_variant(variant)),
        ),
        (
            BuiltinAgent::Defensive(DefensiveAgent::new()),
            BuiltinAgent::Defensive(DefensiveAgent::new().for_variant(variant)),
        ),
    ]
}

/// Plays `deals` deals of `variant` with each pair's second agent in every seat, asking the
/// first (blind to the minimum) at every decision. Returns how many decisions they parted
/// on, having checked that at each the blind agent declared a win that scores below the
/// minimum, and that no deal ended in a win below it.
fn parted(variant: &Arc<Variant>, deals: u64) -> u32 {
    let mut legal = ActionList::new();
    let mut parted = 0;
    for (mut blind, mut agent) in pairs(variant) {
        for i in 0..deals {
            let mut deal = Deal::new(variant.rules(), deal_seed(71, i), context(i)).unwrap();
            while let Some(s) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let view = deal.view(s);
                let (was, now) = (blind.act(&view, &legal), agent.act(&view, &legal));
                if was != now {
                    let name = variant.name();
                    assert!(
                        was.is_win() && !now.is_win(),
                        "{name} deal {i}: {was} → {now}"
                    );
                    let input = WinInput::offered(&view, was).unwrap();
                    let scored = score(&input, variant).unwrap();
                    assert!(!scored.meets_minimum, "{name} deal {i}: {was} let go");
                    assert!(!Minimum::of(variant).admits(&view, was));
                    parted += 1;
                }
                deal.play(now).unwrap();
            }
            let st = variant.settlement();
            let scored = score_deal(&deal, variant, st.base, st.per_tai).unwrap();
            assert!(
                scored.wins.iter().all(|(_, s)| s.meets_minimum),
                "{} deal {i}: a win below the minimum declared",
                variant.name()
            );
        }
    }
    parted
}

#[test]
fn wins_below_the_minimum_are_let_go_and_nothing_else_changes() {
    let variant = Arc::new(Variant::builtin("taiwan16-2015").unwrap());
    assert_eq!(variant.min_tai(), 4);
    let n = parted(&variant, 400);
    assert!(n > 50, "{n} wins let go");
}

#[test]
fn without_a_minimum_play_is_unchanged() {
    for name in ["taiwan16", "taiwan16-house", "mahjongtime", "taizhou"] {
        let variant = Arc::new(Variant::builtin(name).unwrap());
        assert_eq!(variant.min_tai(), 0);
        assert!(!Minimum::of(&variant).is_set());
        assert_eq!(parted(&variant, 200), 0, "{name}");
    }
}

/// The value agent, which reads the table for its discards, lets the same wins go; and it
/// weighs a wait by what winning on it pays, so a win below the minimum, never declared, is
/// worth nothing to it (never the fine).
#[test]
fn the_value_agent_lets_a_win_below_the_minimum_go() {
    let variant = Arc::new(Variant::builtin("taiwan16-2015").unwrap());
    let mut agent = ValueAgent::new(Arc::clone(&variant));
    let mut legal = ActionList::new();
    let (mut offered, mut let_go, mut worthless) = (0, 0, 0);
    for i in 0..300 {
        let mut deal = Deal::new(variant.rules(), deal_seed(73, i), context(i)).unwrap();
        while let Some(s) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(s);
            let a = agent.act(&view, &legal);
            if let Some(&win) = legal.iter().find(|a| a.is_win()) {
                offered += 1;
                let below = !Minimum::of(&variant).admits(&view, win);
                assert_eq!(a.is_win(), !below, "deal {i}");
                let_go += u32::from(below);
                let input = WinInput::offered(&view, win).unwrap();
                let worth = win_worth(&input, &variant);
                assert!(worth >= 0, "deal {i}: {win} worth {worth}");
                worthless += u32::from(below && worth == 0);
            }
            deal.play(a).unwrap();
        }
    }
    assert!(let_go > 5 && offered > let_go, "{let_go} of {offered}");
    assert!(worthless > 0, "no win below the minimum however it is won");
}
