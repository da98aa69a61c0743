//! The environments under the `taizhou` variant (taizhou.md, read by shared/rules/README.md
//! "taizhou: readings the project adopts"): single-agent, AEC and vectorised episodes play
//! to the end, the observation's wild row shows the deal's wild (as `Info::wild` reports
//! it), and the points reward is the deal's all-pairs settlement from
//! `taisim_score::score_deal` (全包 included), zero-sum.

use std::sync::Arc;

use ndarray::Array2;
use rand_pcg::Pcg64Mcg;
use taisim_env::obs::channel;
use taisim_env::{
    AecConfig, AecEnv, Env, EnvConfig, RewardKind, VecEnv, ACTION_SPACE_SIZE, OBS_CHANNELS,
    OBS_WIDTH,
};
use taisim_score::{score_deal, SettlementModel, Variant};
use taisim_sim::{bounded, rng_from_seed, Deal, Outcome, Tile};

fn taizhou() -> Variant {
    Variant::builtin("taizhou").unwrap()
}

fn pick(rng: &mut Pcg64Mcg, mask: &[u8]) -> usize {
    let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
    legal[bounded(rng, legal.len() as u32) as usize]
}

/// The wild row of an observation: the one kind it marks, if any.
fn wild_in(obs: &[f32]) -> Option<Tile> {
    let row = &obs[channel::WILD * OBS_WIDTH..(channel::WILD + 1) * OBS_WIDTH];
    let marked: Vec<Tile> = Tile::ALL
        .into_iter()
        .filter(|t| row[t.index()] == 1.0)
        .collect();
    assert!(row.iter().all(|&v| v == 0.0 || v == 1.0) && marked.len() <= 1);
    marked.first().copied()
}

/// The points reward of a finished deal, recomputed: `score_deal`'s payments.
fn settled(deal: &Deal, variant: &Variant) -> [f32; 4] {
    let st = variant.settlement();
    score_deal(deal, variant, st.base, st.per_tai)
        .unwrap()
        .payments
        .0
        .map(|p| p as f32)
}

#[test]
fn the_variant_settles_among_all_pairs() {
    let v = taizhou();
    assert_eq!(v.settlement().model, SettlementModel::AllPairs);
    assert!(v.rules().has_wild());
}

/// Greedy opponents and a random learner; every step's wild row against `Info::wild`, and
/// at the end the rewards against the reward function recomputed from the deal.
fn single_agent_episodes(kind: RewardKind) {
    let variant = taizhou();
    let config = EnvConfig {
        opponents: taisim_agents::parse_agents("greedy").unwrap(),
        ..EnvConfig::from_variant(variant.clone(), kind)
    };
    let reward = kind.under(&Arc::new(variant.clone()));
    let mut env = Env::new(&config).unwrap();
    let mut rng = rng_from_seed(12);
    let (mut paid, mut draws) = (0, 0);
    for seed in 0..150 {
        let first = env.reset(seed);
        assert_eq!(first.obs.shape(), &[OBS_CHANNELS, OBS_WIDTH]);
        let shown = wild_in(first.obs.as_slice().unwrap());
        let mut mask = *first.mask;
        let wild = env.info().wild;
        assert!(wild.is_some());
        assert_eq!(wild, env.deal().wild());
        assert_eq!(shown, wild);
        loop {
            let step = env.step(pick(&mut rng, &mask)).unwrap();
            assert_eq!(step.info.wild, wild);
            assert_eq!(wild_in(step.observation.obs.as_slice().unwrap()), wild);
            mask = *step.observation.mask;
            if step.terminated {
                let r = step.info.rewards;
                let mine = step.reward;
                assert_eq!(r, reward.rewards(env.deal()).unwrap(), "seed {seed}");
                if kind == RewardKind::Points {
                    assert_eq!(r, settled(env.deal(), &variant), "seed {seed}");
                    assert_eq!(r.iter().sum::<f32>(), 0.0, "seed {seed}: {r:?}");
                }
                assert_eq!(mine, r[env.seat() as usize]);
                let result = env.deal().result().unwrap();
                if result.outcome == Outcome::ExhaustiveDraw {
                    // README: an exhaustive draw settles nothing.
                    assert_eq!(r, [0.0; 4]);
                    draws += 1;
                } else {
                    assert!(r.iter().any(|&x| x != 0.0), "seed {seed}: a win pays");
                    paid += 1;
                }
                break;
            }
        }
    }
    assert!(paid >= 50, "{paid} paid deals, {draws} draws");
}

#[test]
fn single_agent_episodes_under_taizhou() {
    single_agent_episodes(RewardKind::WinLoss);
}

#[test]
fn single_agent_episodes_pay_the_all_pairs_settlement() {
    single_agent_episodes(RewardKind::Points);
}

/// Every seat played at random through the AEC API; the cumulative rewards against the
/// reward function recomputed from the deal.
fn aec_episodes(kind: RewardKind) {
    let variant = taizhou();
    let mut aec = AecEnv::new(AecConfig::from_variant(variant.clone(), kind)).unwrap();
    let reward = kind.under(&Arc::new(variant.clone()));
    let mut rng = rng_from_seed(5);
    let mut obs = Array2::zeros((OBS_CHANNELS, OBS_WIDTH));
    let mut mask = [0u8; ACTION_SPACE_SIZE];
    let mut paid = 0;
    for seed in 0..60 {
        aec.reset(seed);
        let wild = aec.deal().wild();
        assert!(wild.is_some());
        // Each agent's rewards as `last()` hands them over (the last at its dead step).
        let mut total = [0f32; 4];
        while let Some(agent) = aec.agent_selection() {
            let last = aec.last(obs.view_mut(), &mut mask).unwrap();
            total[agent as usize] += last.reward;
            assert_eq!(wild_in(obs.as_slice().unwrap()), wild, "seat {agent:?}");
            let action = if last.terminated || last.truncated {
                None
            } else {
                Some(pick(&mut rng, &mask))
            };
            aec.step(action).unwrap();
        }
        assert_eq!(total, reward.rewards(aec.deal()).unwrap(), "seed {seed}");
        if kind == RewardKind::Points {
            assert_eq!(total.iter().sum::<f32>(), 0.0);
            assert_eq!(total, settled(aec.deal(), &variant));
        }
        paid += total.iter().any(|&x| x != 0.0) as u32;
    }
    assert!(paid > 0, "random play still wins some deals");
}

#[test]
fn aec_episodes_under_taizhou() {
    aec_episodes(RewardKind::WinLoss);
}

#[test]
fn aec_episodes_pay_the_all_pairs_settlement() {
    aec_episodes(RewardKind::Points);
}

/// Eight environments stepped together, random learners against greedy opponents.
fn vectorised_episodes(kind: RewardKind) {
    let variant = taizhou();
    let config = EnvConfig {
        opponents: taisim_agents::parse_agents("greedy").unwrap(),
        ..EnvConfig::from_variant(variant, kind)
    };
    let n = 8;
    let mut envs = VecEnv::new(n, &config).unwrap();
    let mut rng = rng_from_seed(8);
    envs.reset(21);
    let mut ended = 0;
    for _ in 0..400 {
        let masks = envs.masks().to_owned();
        let actions: Vec<usize> = (0..n)
            .map(|i| pick(&mut rng, masks.row(i).as_slice().unwrap()))
            .collect();
        envs.step(&actions).unwrap();
        let obs = envs.observations().to_owned();
        for i in 0..n {
            let info = envs.info(i);
            if envs.terminated()[i] {
                ended += 1;
                assert_eq!(envs.rewards()[i], info.rewards[info.seat as usize]);
                if kind == RewardKind::Points {
                    assert_eq!(info.rewards.iter().sum::<f32>(), 0.0);
                }
            } else {
                // A running environment shows its deal's wild.
                let o = obs.index_axis(ndarray::Axis(0), i);
                assert!(info.wild.is_some());
                assert_eq!(wild_in(o.as_slice().unwrap()), info.wild);
            }
        }
    }
    assert!(ended >= 20, "{ended} deals ended");
}

#[test]
fn vectorised_episodes_under_taizhou() {
    vectorised_episodes(RewardKind::WinLoss);
}

#[test]
fn vectorised_episodes_pay_the_all_pairs_settlement() {
    vectorised_episodes(RewardKind::Points);
}
