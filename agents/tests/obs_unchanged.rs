//! Observation version 3 is a contract: shipped policies read it. A digest of every value
//! encoded for every seat at every step of seeded deals of every shipped variant, pinned to
//! what the encoder wrote before its hand-efficiency rows were made cheaper (2026-11-24), so
//! that a faster path that moves any value by a single bit fails here, in any variant
//! (taizhou's wild, the special hands of the others). Version 4 only appends its claim row:
//! the digest of the first 64 rows (version 3's layout) is still the one pinned then, and
//! the whole observation's is pinned beside it.
//!
//! The deals follow from the engine and the greedy and random agents too: a change there
//! that moves a digest is re-pinned from the failure's left-hand side, after checking with
//! the encoder as it was (`git stash`) that the observations themselves did not move.

use taisim_agents::{
    encode_slice, obs_shape, Agent, GreedyAgent, ObsEncoder, RandomAgent, OBS_LEN, OBS_WIDTH,
};
use taisim_score::Variant;
use taisim_sim::{ActionList, Deal, DealContext, Seat};

/// FNV-1a over the values' bits of version 3's rows and of the whole observation, and how
/// many observations went in.
fn digest(name: &str, deals: u64) -> (u64, u64, u64) {
    let v3 = obs_shape(3).unwrap()[0] * OBS_WIDTH;
    let rules = Variant::builtin(name).unwrap().rules();
    let mut legal = ActionList::new();
    let mut obs = vec![0f32; OBS_LEN];
    let mut incremental = vec![0f32; OBS_LEN];
    let (mut hash, mut count) = (0xcbf2_9ce4_8422_2325u64, 0u64);
    let mut whole = hash;
    for seed in 0..deals {
        let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
        // Greedy seats reach the low shanten a random seat rarely does; random seats make
        // the claims and odd hands greedy would not.
        let mut greedy = GreedyAgent::new();
        let mut random = RandomAgent::new();
        random.reset(seed, Seat::South);
        let mut encoders: Vec<ObsEncoder> = Seat::ALL.iter().map(|_| ObsEncoder::new()).collect();
        while let Some(actor) = deal.to_act() {
            for seat in Seat::ALL {
                let view = deal.view(seat);
                encode_slice(&view, &mut obs);
                encoders[seat as usize].encode_slice(&view, &mut incremental);
                assert!(obs == incremental, "{name} seed {seed} {seat:?}");
                for (i, v) in obs.iter().enumerate() {
                    let bits = u64::from(v.to_bits());
                    if i < v3 {
                        hash = (hash ^ bits).wrapping_mul(0x0100_0000_01b3);
                    }
                    whole = (whole ^ bits).wrapping_mul(0x0100_0000_01b3);
                }
                count += 1;
            }
            deal.legal_actions(&mut legal);
            let view = deal.view(actor);
            let action = if actor as usize % 2 == 0 {
                greedy.act(&view, &legal)
            } else {
                random.act(&view, &legal)
            };
            deal.play(action).unwrap();
        }
    }
    (hash, whole, count)
}

#[test]
fn observations_of_seeded_deals_are_unchanged() {
    let (mut got, mut got_whole) = (Vec::new(), Vec::new());
    for name in Variant::names() {
        let (hash, whole, count) = digest(name, 200);
        got.push(format!("{name} {hash:#018x} {count}"));
        got_whole.push(format!("{name} {whole:#018x} {count}"));
    }
    assert_eq!(got.join("\n"), EXPECTED.trim(), "version 3's rows moved");
    assert_eq!(got_whole.join("\n"), EXPECTED_V4.trim(), "version 4 moved");
}

/// `variant digest observations`, from the encoder before the faster efficiency rows.
const EXPECTED: &str = "
taiwan16 0x9808e2c1e37070b9 45456
taiwan16-house 0x9808e2c1e37070b9 45456
taiwan16-2015 0xc2a3dd647e3a90dd 48432
mahjongtime 0x1c0beb7342d47a05 46336
taizhou 0xa109cc98a599a051 32056
";

/// `variant digest observations` of the whole version-4 observation, from its first encoder
/// (2026-11-28).
const EXPECTED_V4: &str = "
taiwan16 0x4d968c1b918c0809 45456
taiwan16-house 0x4d968c1b918c0809 45456
taiwan16-2015 0x381fcf498ccb9e7d 48432
mahjongtime 0xd17d8b4cac2894e5 46336
taizhou 0x23e5d0c89ec54d51 32056
";
