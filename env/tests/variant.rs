//! Environments configured from one variant: the deals and the points reward share its rules,
//! so a 13-tile variant with the points reward plays and pays (it used to panic with "reward
//! checked when built" when the rules and the reward's variant were given apart).

use taisim_agents::Agent;
use taisim_env::{
    AecConfig, AecEnv, Env, EnvConfig, RewardKind, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH,
};
use taisim_score::Variant;
use taisim_sim::{bounded, rng_from_seed};

/// taiwan16's table on 13-tile hands without flowers.
fn thirteen_tile_variant() -> Variant {
    let text = Variant::builtin_text("taiwan16")
        .unwrap()
        .replace("name = \"taiwan16\"", "name = \"taiwan13\"")
        .replace("sets = 5", "sets = 4")
        .replace("flowers = true", "flowers = false")
        .replace("flower_wins = true", "flower_wins = false")
        // A wall without flowers names its procedure: 136 tiles, 13-tile hands dealt by fours
        // (the 13th by 跳牌), no flower replacement.
        + "\n[rules.procedure]\ntiles = \"no_flowers\"\ndealing = { per_turn = 4, turns = 3 }\nsetup = { wild_indicator = false, flower_replacement = false }\n";
    Variant::from_toml_str(&text, "taiwan13.toml").unwrap()
}

#[test]
fn a_thirteen_tile_variant_with_the_points_reward_plays_and_pays() {
    let variant = thirteen_tile_variant();
    assert_eq!(variant.rules().hand_size(), 13);
    // Greedy opponents win most deals, so the points reward is exercised on every seed run.
    let config = EnvConfig {
        opponents: taisim_agents::parse_agents("greedy").unwrap(),
        ..EnvConfig::from_variant(variant.clone(), RewardKind::Points)
    };
    assert_eq!(config.rules(), variant.rules());
    let mut env = Env::new(&config).unwrap();
    let mut rng = rng_from_seed(13);
    let mut paid = 0;
    for seed in 0..60 {
        let mut mask = *env.reset(seed).mask;
        loop {
            let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
            let pick = legal[bounded(&mut rng, legal.len() as u32) as usize];
            let step = env.step(pick).unwrap();
            mask = *step.observation.mask;
            if step.terminated || step.truncated {
                let r = step.info.rewards;
                assert_eq!(r.iter().sum::<f32>(), 0.0, "seed {seed}: {r:?}");
                paid += r.iter().any(|&x| x != 0.0) as u32;
                break;
            }
        }
    }
    assert!(paid >= 30, "{paid} deals of 60 pay");

    let mut aec = AecEnv::new(AecConfig::from_variant(
        thirteen_tile_variant(),
        RewardKind::Points,
    ))
    .unwrap();
    let mut paid = 0;
    let mut greedy = taisim_agents::GreedyAgent::new();
    for seed in 0..20 {
        aec.reset(seed);
        // Each agent's rewards as `last()` hands them over (the deal's at its dead step: the
        // cumulative rewards are cleared as each agent leaves).
        let mut total = [0f32; 4];
        while let Some(agent) = aec.agent_selection() {
            let mut obs = ndarray::Array2::zeros((OBS_CHANNELS, OBS_WIDTH));
            let mut mask = [0u8; ACTION_SPACE_SIZE];
            let last = aec.last(obs.view_mut(), &mut mask).unwrap();
            total[agent as usize] += last.reward;
            let action = if last.terminated || last.truncated {
                None
            } else if seed % 2 == 0 {
                // Greedy play on even seeds, so that deals are won and pay.
                let mut legal = taisim_sim::ActionList::new();
                aec.deal().legal_actions(&mut legal);
                let a = greedy.act(&aec.deal().view(agent), &legal);
                Some(taisim_env::action_to_index(a, aec.deal()).unwrap())
            } else {
                let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
                Some(legal[bounded(&mut rng, legal.len() as u32) as usize])
            };
            aec.step(action).unwrap();
        }
        assert_eq!(total.iter().sum::<f32>(), 0.0, "seed {seed}: {total:?}");
        paid += total.iter().any(|&x| x != 0.0) as u32;
    }
    assert!(paid > 0, "some of 20 deals pay");
}
