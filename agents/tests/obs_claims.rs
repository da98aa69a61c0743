//! Observation version 4: the claim row (64), checked for every seat answering a discard at
//! every step of seeded deals of every shipped variant against the shanten recomputed from
//! the hand by hand, and against greedy's own claims, which it decides by the same measure
//! (greedy claims exactly when some legal claim shows one step nearer ready). Seats play
//! greedy and random by turns, so claims of every kind are offered.

use taisim_agents::knowledge::{hand_rules, sets_needed};
use taisim_agents::obs::channel;
use taisim_agents::space::{action_index, CHOW, KONG, PUNG};
use taisim_agents::{
    encode_slice, obs_shape, Agent, GreedyAgent, RandomAgent, OBS_CHANNELS, OBS_LEN, OBS_VERSION,
    OBS_WIDTH,
};
use taisim_score::Variant;
use taisim_sim::algo;
use taisim_sim::{chow_tiles, Action, ActionList, Deal, DealContext, Hand, Seat, Tile};

#[test]
fn version_four_appends_the_claim_row_to_version_three() {
    assert_eq!(OBS_VERSION, 4);
    assert_eq!(obs_shape(4), Some([65, 34]));
    assert_eq!(obs_shape(3), Some([64, 34]));
    assert_eq!(channel::CLAIM_AFTER, 64);
    assert_eq!(OBS_CHANNELS, 65);
    // Columns follow the action space from CHOW.
    assert_eq!([PUNG - CHOW, KONG - CHOW], [3, 4]);
}

/// The concealed tiles a claim leaves, written out tile by tile, or `None` where the hand
/// lacks one.
fn leaves(hand: &Hand, offer: Tile, column: usize) -> Option<Hand> {
    let mut after = *hand;
    let take: Vec<Tile> = match column {
        0..=2 => {
            if offer.is_honor() || offer.rank() <= column as u8 || offer.rank() - column as u8 > 7 {
                return None;
            }
            chow_tiles(Tile::new(offer.to_u8() - column as u8))
                .into_iter()
                .filter(|&t| t != offer)
                .collect()
        }
        3 => vec![offer; 2],
        _ => vec![offer; 3],
    };
    for t in take {
        if after.count(t) == 0 {
            return None;
        }
        after.remove(t);
    }
    Some(after)
}

#[test]
fn the_claim_row_is_each_claims_shanten_and_greedy_claims_by_it() {
    let mut legal = ActionList::new();
    let mut obs = vec![0f32; OBS_LEN];
    let row = channel::CLAIM_AFTER * OBS_WIDTH;
    for name in Variant::names() {
        let rules = Variant::builtin(name).unwrap().rules();
        let (mut offers, mut claims, mut shapes) = (0u32, 0u32, [0u32; 5]);
        for seed in 0..150 {
            let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
            let mut random = RandomAgent::new();
            random.reset(seed, Seat::North);
            while let Some(actor) = deal.to_act() {
                deal.legal_actions(&mut legal);
                for seat in Seat::ALL {
                    let view = deal.view(seat);
                    encode_slice(&view, &mut obs);
                    let claim_row = &obs[row..row + OBS_WIDTH];
                    let Some(offer) = view.discard_on_offer() else {
                        assert!(
                            claim_row.iter().all(|&v| v == 0.0),
                            "{name} {seed} {seat:?}"
                        );
                        continue;
                    };
                    assert!(claim_row[5..].iter().all(|&v| v == 0.0));
                    // The deal's own hand rules (special hands, wild), as obs_efficiency.rs
                    // recomputes by them.
                    let sets = sets_needed(&view);
                    let now = algo::shanten(view.hand(), hand_rules(&view, sets));
                    for (c, &v) in claim_row[..5].iter().enumerate() {
                        let want = leaves(view.hand(), offer, c).map_or(0.0, |after| {
                            let sh = algo::shanten(&after, hand_rules(&view, sets - 1));
                            (sh - now + 2).clamp(1, 4) as f32 / 4.0
                        });
                        assert_eq!(v, want, "{name} seed {seed} {seat:?} column {c}");
                        shapes[c] += (v > 0.0) as u32;
                    }
                    if seat != actor {
                        continue;
                    }
                    offers += 1;
                    // Greedy (no win on offer) claims iff a legal claim brings it nearer.
                    if legal.iter().any(|a| a.is_win()) {
                        continue;
                    }
                    let nearer = legal.iter().any(|&a| {
                        action_index(a, Some(offer)).is_some_and(|i| {
                            (CHOW..=KONG).contains(&i) && claim_row[i - CHOW] == 0.25
                        })
                    });
                    let chosen = GreedyAgent::new().act(&view, &legal);
                    assert_eq!(
                        chosen != Action::Pass,
                        nearer,
                        "{name} seed {seed} {seat:?}"
                    );
                    claims += nearer as u32;
                }
                let view = deal.view(actor);
                let action = if actor as usize % 2 == 0 {
                    GreedyAgent::new().act(&view, &legal)
                } else {
                    random.act(&view, &legal)
                };
                deal.play(action).unwrap();
            }
        }
        // The check saw what it checks: offers answered, greedy claims, every shape held.
        assert!(
            offers > 1000 && claims > 50,
            "{name}: {offers} offers, {claims} claims"
        );
        let chows = shapes[0] + shapes[1] + shapes[2];
        assert!(
            shapes[3] > 100 && shapes[4] > 5 && (chows > 100 || name == "taizhou"),
            "{name}: {shapes:?}"
        );
    }
}
