//! The observation tensor against the deal it encodes, recomputed here from the deal.

use ndarray::{s, Array2};
use taisim_agents::knowledge::{discarded_since, last_discards, visible_counts};
use taisim_agents::obs::{channel, scalar};
use taisim_agents::{
    encode, encode_slice, obs_shape, Agent, ObsEncoder, RandomAgent, OBS_CHANNELS, OBS_LEN,
    OBS_VERSION, OBS_WIDTH,
};
use taisim_sim::{
    bounded, rng_from_seed, ActionList, Deal, DealContext, MeldKind, Rules, Seat, Tile, View,
};

#[test]
fn shapes_are_versioned() {
    assert_eq!(obs_shape(OBS_VERSION), Some([OBS_CHANNELS, OBS_WIDTH]));
    assert_eq!(obs_shape(0), None);
    assert_eq!(obs_shape(OBS_VERSION + 1), None);
    let deal = Deal::new(Rules::TAIWAN16, 0, DealContext::FIRST).unwrap();
    let mut wrong = Array2::<f32>::zeros((OBS_CHANNELS - 1, OBS_WIDTH));
    let err = encode(&deal.view(Seat::East), wrong.view_mut()).unwrap_err();
    assert_eq!(err.found, [OBS_CHANNELS - 1, OBS_WIDTH]);
}

#[test]
fn dealer_streak_is_scaled_and_capped() {
    let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
    for (streak, expected) in [(0, 0.0), (3, 0.375), (8, 1.0), (12, 1.0), (255, 1.0)] {
        let context = DealContext {
            streak,
            ..DealContext::FIRST
        };
        let deal = Deal::new(Rules::TAIWAN16, 5, context).unwrap();
        encode(&deal.view(Seat::South), obs.view_mut()).unwrap();
        assert_eq!(
            obs[[channel::SCALARS, scalar::STREAK]],
            expected,
            "streak {streak}"
        );
    }
}

/// Copies the viewer can see, walked out of the view: its hand, every meld face up (its own
/// concealed kongs included), the discards not claimed.
fn seen_by_walking(view: &View<'_>) -> [u8; Tile::NUM] {
    let mut seen = view.hand().counts();
    for seat in Seat::ALL {
        for m in view.melds(seat) {
            let Some(t) = m.tile else { continue };
            match m.kind {
                MeldKind::Chow => (0..3).for_each(|k| seen[t.index() + k] += 1),
                kind => seen[t.index()] += kind.len(),
            }
        }
    }
    for d in view.discards().iter().filter(|d| !d.is_claimed()) {
        seen[d.tile().index()] += 1;
    }
    seen
}

fn row(obs: &Array2<f32>, c: usize) -> Vec<f32> {
    obs.row(c).to_vec()
}

#[test]
fn encoding_matches_the_deal() {
    let mut legal = ActionList::new();
    let mut agent = RandomAgent::new();
    let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
    // A strided buffer (every other column of a wider array) takes the stack-copy path.
    let mut wide = Array2::<f32>::zeros((OBS_CHANNELS, 2 * OBS_WIDTH));
    let mut kongs_seen = 0;
    for seed in 0..200 {
        let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        agent.reset(seed, Seat::East);
        while let Some(actor) = deal.to_act() {
            for seat in Seat::ALL {
                let view = deal.view(seat);
                encode(&view, obs.view_mut()).unwrap();
                assert!(
                    obs.iter().all(|&v| (0.0..=1.0).contains(&v)),
                    "values in [0, 1]"
                );
                // Own hand thresholds.
                for t in Tile::ALL {
                    let n = deal.hand(seat).count(t) as usize;
                    for k in 0..4 {
                        assert_eq!(obs[[channel::HAND + k, t.index()]], (n > k) as u8 as f32);
                    }
                }
                for other in Seat::ALL {
                    let r = other.distance_from(seat) as usize;
                    let melds = deal.melds(other);
                    let concealed = melds
                        .iter()
                        .filter(|m| m.kind() == MeldKind::ConcealedKong)
                        .count();
                    let ck_row = row(&obs, channel::MELDS + 4 * r + 3);
                    let scalars = row(&obs, channel::SCALARS);
                    if r == 0 {
                        assert_eq!(ck_row.iter().sum::<f32>(), concealed as f32);
                        assert_eq!(scalars[scalar::HIDDEN_KONGS], 0.0);
                    } else {
                        // Another seat's concealed kongs: counted, never shown.
                        assert!(ck_row.iter().all(|&v| v == 0.0));
                        assert_eq!(scalars[scalar::HIDDEN_KONGS + r], concealed as f32 / 5.0);
                        kongs_seen += concealed;
                    }
                    let discarded = deal.discards().iter().filter(|d| d.seat() == other).count();
                    let river = row(&obs, channel::RIVER + channel::RIVER_ROWS * r);
                    assert_eq!(river.iter().sum::<f32>(), discarded as f32 / 4.0);
                    let recent: f32 = (1..=channel::RECENT)
                        .map(|k| {
                            row(&obs, channel::RIVER + channel::RIVER_ROWS * r + k)
                                .iter()
                                .sum::<f32>()
                        })
                        .sum();
                    assert_eq!(recent, discarded.min(channel::RECENT) as f32);
                    assert_eq!(
                        scalars[scalar::READY + r],
                        deal.ready_declaration(other).is_some() as u8 as f32
                    );
                    assert_eq!(
                        scalars[scalar::HAND_LEN + r],
                        deal.hand(other).len() as f32 / 17.0
                    );
                }
                let scalars = row(&obs, channel::SCALARS);
                assert_eq!(
                    scalars[scalar::DRAWABLE],
                    (deal.drawable() as f32 / 64.0).min(1.0)
                );
                assert_eq!(
                    scalars[scalar::RIVER_LEN],
                    // The encoder's fractions are n × (1 / d), which the decisions table
                    // stores exactly (for d = 136 not always the quotient n / d).
                    deal.discards().len() as f32 * (1.0 / 136.0)
                );
                assert_eq!(scalars[scalar::STREAK], 0.0);
                // Seen copies, counted here from what the view shows, agree with the agents'
                // bookkeeping and the observation; safe kinds with the agents'.
                let visible = visible_counts(&view);
                let recount = seen_by_walking(&view);
                for t in Tile::ALL {
                    assert_eq!(visible[t.index()], recount[t.index()], "{t}");
                    assert_eq!(
                        obs[[channel::VISIBLE, t.index()]],
                        recount[t.index()] as f32 / 4.0
                    );
                }
                let last = last_discards(&view);
                for k in 1..4u8 {
                    let opponent = seat.add(k);
                    let safe = discarded_since(&view, last[opponent as usize]);
                    for t in Tile::ALL {
                        assert_eq!(
                            obs[[channel::SAFE + k as usize - 1, t.index()]],
                            safe.contains(t) as u8 as f32
                        );
                    }
                }
                let scalars = row(&obs, channel::SCALARS);
                assert_eq!(
                    scalars[scalar::TURN]
                        + scalars[scalar::RESPONDING]
                        + scalars[scalar::ROB_FLOWER],
                    (seat == actor) as u8 as f32
                );
                assert_eq!(row(&obs, channel::SEAT_WIND).iter().sum::<f32>(), 1.0);
                // The strided buffer gets the same values.
                let mut view = wide.slice_mut(s![.., ..;2]);
                encode(&deal.view(seat), view.view_mut()).unwrap();
                assert_eq!(view, obs);
            }
            deal.legal_actions(&mut legal);
            let a = agent.act(&deal.view(actor), &legal);
            deal.play(a).unwrap();
        }
    }
    assert!(kongs_seen > 0, "some deal had a hidden concealed kong");
}

/// The incremental encoder against the full one, step by step: one encoder per seat asked only
/// on that seat's decisions (so it takes in several discards at once, as an environment's
/// does) and told of each new deal, and one shared encoder asked for a random seat at every
/// step and never told (it must notice the new deal's shorter river itself).
#[test]
fn incremental_encoding_matches_full() {
    let mut legal = ActionList::new();
    let mut agent = RandomAgent::new();
    let mut per_seat: [ObsEncoder; 4] = Default::default();
    let mut shared = ObsEncoder::new();
    let mut rng = rng_from_seed(11);
    let mut full = vec![0f32; OBS_LEN];
    let mut inc = vec![0f32; OBS_LEN];
    let mut compared = 0;
    for seed in 0..300 {
        let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        agent.reset(seed, Seat::East);
        per_seat.iter_mut().for_each(ObsEncoder::forget);
        while let Some(actor) = deal.to_act() {
            let view = deal.view(actor);
            encode_slice(&view, &mut full);
            per_seat[actor as usize].encode_slice(&view, &mut inc);
            assert_eq!(
                inc,
                full,
                "seed {seed}, step {}, seat {actor}",
                deal.steps()
            );
            let other = Seat::ALL[bounded(&mut rng, 4) as usize];
            encode_slice(&deal.view(other), &mut full);
            shared.encode_slice(&deal.view(other), &mut inc);
            assert_eq!(inc, full, "shared: seed {seed}, step {}", deal.steps());
            compared += 2;
            deal.legal_actions(&mut legal);
            let a = agent.act(&deal.view(actor), &legal);
            deal.play(a).unwrap();
        }
    }
    assert!(compared > 10_000);
}
