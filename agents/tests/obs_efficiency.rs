//! Observation version 3: the hand-efficiency rows (60..64), checked against shanten and
//! ukeire recomputed from scratch for every discard (one shanten query per discard and per
//! drawn kind), under every shipped variant's hand rules (taizhou's wild, the special hands),
//! and against the greedy agent's own choices, which rank by the same measure.

use taisim_agents::knowledge::{hand_rules, sets_needed, unseen_counts};
use taisim_agents::obs::{channel, UKEIRE_SCALE};
use taisim_agents::{
    encode_slice, obs_shape, Agent, GreedyAgent, RandomAgent, OBS_CHANNELS, OBS_LEN, OBS_VERSION,
    OBS_WIDTH,
};
use taisim_score::Variant;
use taisim_sim::algo::{self, HandRules};
use taisim_sim::{Action, ActionList, Deal, DealContext, Hand, Seat, Tile, View};

#[test]
fn version_three_appends_four_rows_to_version_two() {
    // Version 4 appends the claim row after them (obs_claims.rs).
    assert_eq!(OBS_VERSION, 4);
    assert_eq!(obs_shape(3), Some([64, 34]));
    assert_eq!(obs_shape(2), Some([60, 34]));
    assert_eq!(OBS_CHANNELS, 65);
    assert_eq!(
        [
            channel::BEST_DISCARD,
            channel::SHANTEN_AFTER,
            channel::UKEIRE_AFTER,
            channel::SHANTEN
        ],
        [60, 61, 62, 63]
    );
}

/// The unseen copies of every kind whose draw lowers `shanten(hand)`, one query per kind.
fn reference_ukeire(hand: &Hand, rules: HandRules, unseen: &[u8; Tile::NUM]) -> u32 {
    let shanten = algo::shanten(hand, rules);
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

/// Rows 60..64 of `obs`, recomputed from `view` by definition.
fn check_rows(view: &View<'_>, obs: &[f32], what: &str) -> bool {
    let row = |c: usize| &obs[c * OBS_WIDTH..(c + 1) * OBS_WIDTH];
    let hand = view.hand();
    let sets = sets_needed(view);
    let rules = hand_rules(view, sets);
    let mut want = [[0f32; OBS_WIDTH]; 4];
    let turn = hand.len() == 3 * sets as usize + 2;
    if turn {
        let unseen = unseen_counts(view);
        let after = |t: Tile| {
            let mut h = *hand;
            h.remove(t);
            h
        };
        let best = hand
            .kinds()
            .iter()
            .map(|t| algo::shanten(&after(t), rules))
            .min()
            .unwrap();
        for t in hand.kinds() {
            let left = after(t);
            let sh = algo::shanten(&left, rules);
            let i = t.index();
            want[0][i] = (sh == best) as u8 as f32;
            want[1][i] = ((sh - best).min(4)) as f32 / 4.0;
            // Ukeire only for the discards at the least shanten.
            if sh == best {
                want[2][i] = reference_ukeire(&left, rules, &unseen).min(UKEIRE_SCALE) as f32
                    / UKEIRE_SCALE as f32;
            }
        }
        want[3][best.clamp(0, 33) as usize] = 1.0;
    } else if hand.len() == 3 * sets as usize + 1 {
        want[3][algo::shanten(hand, rules).clamp(0, 33) as usize] = 1.0;
    }
    for (k, want) in want.iter().enumerate() {
        assert_eq!(
            row(channel::BEST_DISCARD + k),
            &want[..],
            "{what}: row {} for {hand:?}",
            channel::BEST_DISCARD + k
        );
    }
    turn
}

/// Plays deals of `variant` with greedy and random seats, encoding every seat at every step,
/// checking the efficiency rows, and at each greedy discard that the discard it chose is one
/// of the least shanten with the most ukeire among those (its ranking, with no defence).
fn check_variant(name: &str, deals: u64) -> (u32, u32) {
    let rules = Variant::builtin(name).unwrap().rules();
    let mut legal = ActionList::new();
    let mut obs = vec![0f32; OBS_LEN];
    let (mut turns, mut greedy_discards) = (0, 0);
    for seed in 0..deals {
        let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
        let mut greedy = GreedyAgent::new();
        let mut random = RandomAgent::new();
        random.reset(seed, Seat::South);
        while let Some(actor) = deal.to_act() {
            for seat in Seat::ALL {
                let view = deal.view(seat);
                encode_slice(&view, &mut obs);
                if check_rows(&view, &obs, &format!("{name} seed {seed} {seat:?}")) {
                    turns += 1;
                }
            }
            deal.legal_actions(&mut legal);
            let view = deal.view(actor);
            let action = if actor as usize % 2 == 0 {
                let a = greedy.act(&view, &legal);
                if let Action::Discard(t) | Action::DiscardReady(t) = a {
                    encode_slice(&view, &mut obs);
                    let at = |c: usize, t: Tile| obs[c * OBS_WIDTH + t.index()];
                    // The kinds it may discard (a ready hand, say, discards what it draws).
                    let kinds: Vec<Tile> = legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Discard(t) | Action::DiscardReady(t) => Some(*t),
                            _ => None,
                        })
                        .collect();
                    let least = kinds
                        .iter()
                        .map(|&k| at(channel::SHANTEN_AFTER, k))
                        .fold(1.0, f32::min);
                    let most = kinds
                        .iter()
                        .filter(|&&k| at(channel::SHANTEN_AFTER, k) == least)
                        .map(|&k| at(channel::UKEIRE_AFTER, k))
                        .fold(0.0, f32::max);
                    let what = format!("{name} seed {seed} {a:?} {legal:?}");
                    assert_eq!(at(channel::SHANTEN_AFTER, t), least, "{what}");
                    if least < 1.0 && most < 1.0 {
                        assert_eq!(at(channel::UKEIRE_AFTER, t), most, "{what}");
                    }
                    greedy_discards += 1;
                }
                a
            } else {
                random.act(&view, &legal)
            };
            deal.play(action).unwrap();
        }
    }
    (turns, greedy_discards)
}

#[test]
fn efficiency_rows_are_shanten_and_ukeire_after_each_discard() {
    for name in Variant::names() {
        let deals = if name == "taizhou" { 25 } else { 15 };
        let (turns, discards) = check_variant(name, deals);
        assert!(turns > 300 && discards > 100, "{name}: {turns} {discards}");
    }
}
