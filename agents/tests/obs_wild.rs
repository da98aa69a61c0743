//! Observation version 2: the wild row (得牌), under taizhou and the Taiwanese variants (the
//! refusal of a policy file trained on version 1 is in `policy.rs`).

use ndarray::Array2;
use taisim_agents::obs::channel;
use taisim_agents::{
    encode, encode_slice, obs_shape, Agent, ObsEncoder, RandomAgent, OBS_CHANNELS, OBS_LEN,
    OBS_VERSION, OBS_WIDTH,
};
use taisim_sim::{ActionList, Deal, DealContext, Rules, Seat, Tile};

#[test]
fn version_two_adds_one_row_to_version_one() {
    assert_eq!(obs_shape(2), Some([60, 34]));
    assert_eq!(obs_shape(1), Some([59, 34]));
    assert_eq!(channel::WILD, 59);
    // Version 3 appends its rows after the wild row (obs_efficiency.rs), version 4 one more
    // (obs_claims.rs).
    assert_eq!(OBS_VERSION, 4);
    assert_eq!(obs_shape(5), None);
    assert_eq!(obs_shape(OBS_VERSION), Some([OBS_CHANNELS, OBS_WIDTH]));
}

/// Plays random deals under `rules`, encoding every seat at every step (in full, into a
/// strided buffer, and incrementally), and checks the wild row against the deal.
fn check_wild_row(rules: Rules, deals: u64) -> u32 {
    let mut legal = ActionList::new();
    let mut agent = RandomAgent::new();
    let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
    let mut fresh = vec![0f32; OBS_LEN];
    let mut incremental = vec![0f32; OBS_LEN];
    let mut encoder = ObsEncoder::new();
    let mut checked = 0;
    for seed in 0..deals {
        let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
        encoder.forget();
        agent.reset(seed, Seat::East);
        while let Some(actor) = deal.to_act() {
            for seat in Seat::ALL {
                let view = deal.view(seat);
                encode(&view, obs.view_mut()).unwrap();
                assert!(obs.iter().all(|&v| (0.0..=1.0).contains(&v)));
                let wild_row = obs.row(channel::WILD).to_vec();
                for t in Tile::ALL {
                    assert_eq!(
                        wild_row[t.index()],
                        (deal.wild() == Some(t)) as u8 as f32,
                        "seed {seed} {t}"
                    );
                }
                // The turned-up indicator is a visible copy.
                if let Some(w) = deal.wild() {
                    assert!(obs[[channel::VISIBLE, w.index()]] >= 0.25);
                }
                encode_slice(&view, &mut fresh);
                encoder.encode_slice(&view, &mut incremental);
                assert_eq!(fresh, incremental);
                assert_eq!(&fresh[..], obs.as_slice().unwrap());
                checked += 1;
            }
            deal.legal_actions(&mut legal);
            let a = agent.act(&deal.view(actor), &legal);
            deal.play(a).unwrap();
        }
    }
    checked
}

#[test]
fn the_wild_row_marks_the_wild_kind() {
    assert!(check_wild_row(Rules::TAIZHOU, 100) > 10_000);
}

#[test]
fn the_wild_row_is_zero_without_a_wild() {
    assert!(check_wild_row(Rules::TAIWAN16, 30) > 3_000);
}
