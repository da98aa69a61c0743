//! The environments: lockstep determinism, masks that match the engine's legal actions,
//! illegal actions that change nothing, rewards, the AEC protocol, and VecEnv's independence
//! from the thread count.

use ndarray::Array2;
use taisim_agents::space::{index_action, is_responding};
use taisim_env::{
    action_to_index, index_to_action, stream_deal, win_loss, AecConfig, AecEnv, Env, EnvConfig,
    EnvError, Reward, RewardError, VecEnv, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH,
};
use taisim_sim::{
    bounded, deal_seed, rng_from_seed, ActionList, Deal, DealContext, Outcome, Rules, Seat, Wind,
};

/// A uniformly random legal index of `mask`.
fn pick(mask: &[u8], rng: &mut rand_pcg::Pcg64Mcg) -> usize {
    let n = mask.iter().filter(|&&m| m == 1).count() as u32;
    let k = bounded(rng, n) as usize;
    mask.iter()
        .enumerate()
        .filter(|(_, &m)| m == 1)
        .nth(k)
        .unwrap()
        .0
}

/// The mask agrees with the deal's legal actions, both ways.
fn check_mask(deal: &Deal, mask: &[u8]) {
    assert!(mask.iter().all(|&m| m <= 1));
    let mut legal = ActionList::new();
    deal.legal_actions(&mut legal);
    assert_eq!(
        mask.iter().filter(|&&m| m == 1).count(),
        legal.len(),
        "one index per legal action"
    );
    for &a in &legal {
        let i = action_to_index(a, deal).expect("legal actions have indices");
        assert_eq!(mask[i], 1, "{a} legal but masked out");
        assert_eq!(index_to_action(i, deal), Some(a));
    }
    for (i, &m) in mask.iter().enumerate() {
        if m == 1 {
            let a = index_to_action(i, deal).unwrap();
            assert!(legal.contains(&a), "index {i} ({a}) is not legal");
            let responding = is_responding(deal);
            assert_eq!(index_action(i, deal.tile_on_offer(), responding), Some(a));
        }
    }
}

#[test]
fn lockstep_same_seed_same_everything() {
    for opponents in ["random", "greedy", "defensive,random,greedy,random"] {
        let config = EnvConfig::with_opponents(opponents).unwrap();
        let mut a = Env::new(&config).unwrap();
        let mut b = Env::new(&config).unwrap();
        let mut rng = rng_from_seed(42);
        let mut steps = 0;
        for episode in 0..20u64 {
            let oa = a.reset(episode);
            let (obs, mask) = (oa.obs.to_owned(), *oa.mask);
            let ob = b.reset(episode);
            assert_eq!(obs, ob.obs);
            assert_eq!(&mask, ob.mask);
            let mut mask = mask;
            loop {
                let action = pick(&mask, &mut rng);
                let sa = a.step(action).unwrap();
                let (obs, m, ra, ta, ia) = (
                    sa.observation.obs.to_owned(),
                    *sa.observation.mask,
                    sa.reward,
                    sa.terminated,
                    sa.info,
                );
                let sb = b.step(action).unwrap();
                assert_eq!(obs, sb.observation.obs);
                assert_eq!(&m, sb.observation.mask);
                assert_eq!((ra, ta, ia), (sb.reward, sb.terminated, sb.info));
                steps += 1;
                if ta {
                    break;
                }
                mask = m;
            }
        }
        assert!(steps > 200, "{opponents}: {steps}");
    }
}

#[test]
fn masks_match_the_legal_actions() {
    for seat in Seat::ALL {
        let config = EnvConfig {
            seat,
            ..EnvConfig::with_opponents("random").unwrap()
        };
        let mut env = Env::new(&config).unwrap();
        let mut rng = rng_from_seed(seat as u64);
        let mut decisions = [0u32; 2];
        for episode in 0..150 {
            let mut mask = *env.reset(episode).mask;
            loop {
                assert!(mask.contains(&1), "an all-zero mask while running");
                assert_eq!(env.deal().to_act(), Some(seat));
                check_mask(env.deal(), &mask);
                decisions[env.is_responding() as usize] += 1;
                let step = env.step(pick(&mask, &mut rng)).unwrap();
                assert!(!step.truncated);
                let (next, reward, terminated, info) = (
                    *step.observation.mask,
                    step.reward,
                    step.terminated,
                    step.info,
                );
                if terminated {
                    assert!(next.iter().all(|&m| m == 0));
                    assert!(env.deal().is_over());
                    assert_eq!(info.result, env.deal().result().copied());
                    assert_eq!(reward, win_loss(env.deal())[seat as usize]);
                    break;
                }
                mask = next;
            }
        }
        assert!(decisions[0] > 1000 && decisions[1] > 100, "{decisions:?}");
    }
}

#[test]
fn illegal_actions_change_nothing() {
    let mut env = Env::new(&EnvConfig::default()).unwrap();
    assert!(matches!(env.step(0), Err(EnvError::NeedsReset)));
    let mut rng = rng_from_seed(7);
    let mut tried = 0;
    for episode in 0..30 {
        env.reset(episode);
        loop {
            let mask = *env.action_mask();
            let before_obs = env.observation().obs.to_owned();
            let before_deal = format!("{:?}", env.deal());
            for bad in [
                mask.iter().position(|&m| m == 0).unwrap(),
                ACTION_SPACE_SIZE,
                usize::MAX,
            ] {
                let err = env.step(bad).unwrap_err();
                let msg = err.to_string();
                let EnvError::IllegalAction { index, legal, .. } = &err else {
                    panic!("{err}")
                };
                assert_eq!(*index, bad);
                assert!(msg.contains("not legal") && !legal.is_empty(), "{msg}");
                tried += 1;
            }
            assert_eq!(env.observation().obs, before_obs);
            assert_eq!(env.action_mask(), &mask);
            assert_eq!(format!("{:?}", env.deal()), before_deal);
            if env.step(pick(&mask, &mut rng)).unwrap().terminated {
                break;
            }
        }
        assert!(matches!(env.step(0), Err(EnvError::NeedsReset)));
    }
    assert!(tried > 500);
    let msg = {
        env.reset(3);
        let bad = env.action_mask().iter().position(|&m| m == 0).unwrap();
        env.step(bad).unwrap_err().to_string()
    };
    // The message names the action and lists the legal ones by index and name.
    assert!(msg.contains("discard_") || msg.contains("pass"), "{msg}");
    // Out of range, it names the last index: "0..144" reads as if 144 were in the space.
    let msg = env.step(ACTION_SPACE_SIZE).unwrap_err().to_string();
    assert!(
        msg.contains(&format!(
            "out of range: the action space is 0 to {}",
            ACTION_SPACE_SIZE - 1
        )),
        "{msg}"
    );
}

#[test]
fn caller_buffers_get_the_same_values() {
    let mut env = Env::new(&EnvConfig::default()).unwrap();
    let mut twin = Env::new(&EnvConfig::default()).unwrap();
    let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
    let mut mask = [0u8; ACTION_SPACE_SIZE];
    let mut rng = rng_from_seed(1);
    let info = env.reset_into(9, obs.view_mut(), &mut mask).unwrap();
    let first = twin.reset(9);
    assert_eq!(first.obs, obs);
    assert_eq!(first.mask, &mask);
    assert_eq!(info.deal_seed, 9);
    loop {
        let a = pick(&mask, &mut rng);
        let t = env.step_into(a, obs.view_mut(), &mut mask).unwrap();
        let s = twin.step(a).unwrap();
        assert_eq!(s.observation.obs, obs);
        assert_eq!((s.reward, s.terminated), (t.reward, t.terminated));
        if t.terminated {
            break;
        }
    }
    let mut short = [0u8; 3];
    env.reset(1);
    assert!(matches!(
        env.step_into(0, obs.view_mut(), &mut short),
        Err(EnvError::MaskLength(3))
    ));
    let mut wrong = Array2::<f32>::zeros((3, 3));
    assert!(env.observe_into(wrong.view_mut()).is_err());
}

#[test]
fn rewards_and_the_points_hook() {
    // Points: the settlement of the deal under the variant, zero-sum, nonzero for wins.
    let variant = taisim_score::Variant::builtin("taiwan16").unwrap();
    assert_eq!(
        Reward::by_name("points", &variant),
        Ok(Reward::points(variant.clone()))
    );
    assert!(matches!(
        Reward::by_name("score", &variant),
        Err(RewardError::Unknown(_))
    ));
    let points = Reward::points(variant);
    let mut legal = ActionList::new();
    let mut agents = taisim_agents::build_agents(
        &taisim_agents::parse_agents("greedy").unwrap(),
        &std::sync::Arc::new(taisim_score::Variant::builtin("taiwan16").unwrap()),
    )
    .unwrap();
    let mut paid = 0;
    for seed in 0..200 {
        let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        assert_eq!(points.rewards(&deal), Ok([0.0; 4]));
        taisim_agents::play_deal(&mut deal, &mut agents, &mut legal);
        let r = points.rewards(&deal).unwrap();
        assert_eq!(r.iter().sum::<f32>(), 0.0, "seed {seed}: {r:?}");
        let res = deal.result().unwrap();
        if res.winners.is_empty() {
            assert_eq!(r, [0.0; 4]);
        } else {
            // taiwan16 pays base 0 + 1 per tai: a win of no tai (and no dealer) pays 0.
            for w in res.winners.iter() {
                assert!(
                    r[w as usize] >= 0.0,
                    "seed {seed}: a winner never pays: {r:?}"
                );
                paid += (r[w as usize] > 0.0) as u32;
            }
        }
    }
    assert!(paid > 50);

    // WinLoss over played deals: winners +1, payers −1, zero-sum only on discard wins.
    let mut outcomes = [0; 4];
    for seed in 0..300 {
        let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        assert_eq!(Reward::WinLoss.rewards(&deal), Ok([0.0; 4]));
        taisim_agents::play_deal(&mut deal, &mut agents, &mut legal);
        let r = Reward::WinLoss.rewards(&deal).unwrap();
        let res = deal.result().unwrap();
        match res.outcome {
            Outcome::ExhaustiveDraw => assert_eq!(r, [0.0; 4]),
            Outcome::Discard => {
                assert_eq!(r[res.payer.unwrap() as usize], -1.0);
                assert_eq!(r.iter().sum::<f32>(), res.winners.len() as f32 - 1.0);
            }
            Outcome::SelfDraw | Outcome::FlowerWin if res.payer.is_none() => {
                assert_eq!(r.iter().sum::<f32>(), -2.0);
            }
            _ => {}
        }
        for w in res.winners.iter() {
            assert_eq!(r[w as usize], 1.0);
        }
        outcomes[match res.outcome {
            Outcome::SelfDraw => 0,
            Outcome::Discard => 1,
            Outcome::FlowerWin => 2,
            Outcome::ExhaustiveDraw => 3,
        }] += 1;
    }
    assert!(
        outcomes[0] > 0 && outcomes[1] > 0 && outcomes[3] > 0,
        "{outcomes:?}"
    );
}

#[test]
fn aec_follows_the_pettingzoo_protocol() {
    let mut env = AecEnv::new(AecConfig::default()).unwrap();
    assert_eq!(env.agent_selection(), None);
    let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
    let mut mask = [0u8; ACTION_SPACE_SIZE];
    let mut rng = rng_from_seed(3);
    let mut lockstep = AecEnv::new(AecConfig::default()).unwrap();
    let mut obs2 = obs.clone();
    let mut mask2 = mask;
    for seed in 0..100 {
        env.reset(seed);
        lockstep.reset(seed);
        let mut totals = [0f32; 4];
        let mut dead = 0;
        while let Some(agent) = env.agent_selection() {
            let last = env.last(obs.view_mut(), &mut mask).unwrap();
            let last2 = lockstep.last(obs2.view_mut(), &mut mask2).unwrap();
            assert_eq!((last, &obs, mask), (last2, &obs2, mask2));
            assert_eq!(last.agent, agent);
            totals[agent as usize] += last.reward;
            if last.terminated {
                assert!(mask.iter().all(|&m| m == 0));
                assert!(
                    env.step(Some(0)).is_err(),
                    "a terminated agent takes no action"
                );
                env.step(None).unwrap();
                lockstep.step(None).unwrap();
                assert_eq!(env.rewards(), [0.0; 4], "a dead step earns nothing");
                dead += 1;
                continue;
            }
            assert_eq!(env.deal().to_act(), Some(agent));
            check_mask(env.deal(), &mask);
            // Other seats see no legal action.
            let mut other = [0u8; ACTION_SPACE_SIZE];
            env.observe(agent.next(), obs2.view_mut(), &mut other)
                .unwrap();
            assert!(other.iter().all(|&m| m == 0));
            assert!(matches!(
                env.step(None),
                Err(EnvError::ActionRequired { .. })
            ));
            let bad = mask.iter().position(|&m| m == 0).unwrap();
            assert!(matches!(
                env.step(Some(bad)),
                Err(EnvError::IllegalAction { .. })
            ));
            let a = pick(&mask, &mut rng);
            env.step(Some(a)).unwrap();
            lockstep.step(Some(a)).unwrap();
        }
        assert_eq!(dead, 4, "every agent leaves by a dead step");
        assert!(env.agents().is_empty());
        assert_eq!(env.terminations(), [true; 4]);
        assert_eq!(
            totals,
            win_loss(env.deal()),
            "each agent saw its reward once"
        );
    }
}

/// `map_deals` (what `VecEnv.review` runs its searches through) hands `f` every environment's
/// deal once, in order, whichever way the batch is threaded: the caller alone (1), the global
/// pool's width (`new`), or a pool of another width (2 or 3).
#[test]
fn map_deals_sees_every_deal_in_order_on_any_thread_count() {
    const N: usize = 23;
    let config = EnvConfig::with_opponents("greedy").unwrap();
    let mut batches = vec![
        VecEnv::with_threads(N, &config, 1).unwrap(),
        VecEnv::new(N, &config).unwrap(),
        VecEnv::with_threads(N, &config, 2).unwrap(),
        VecEnv::with_threads(N, &config, 3).unwrap(),
    ];
    let mut rng = rng_from_seed(4);
    for envs in &mut batches {
        assert!(!envs.is_started());
        envs.reset(9);
        assert!(envs.is_started() && envs.seat() == Seat::East);
    }
    for _ in 0..30 {
        let actions: Vec<usize> = (0..N)
            .map(|i| pick(batches[0].masks().row(i).as_slice().unwrap(), &mut rng))
            .collect();
        for envs in &mut batches {
            envs.step(&actions).unwrap();
        }
        // What a review needs of each deal: its seed, its step and the seat to act.
        let seen = |envs: &VecEnv| envs.map_deals(|d| (d.seed(), d.steps(), d.to_act()));
        let first = seen(&batches[0]);
        let expected: Vec<_> = (0..N)
            .map(|i| {
                let d = batches[0].deal(i);
                (d.seed(), d.steps(), d.to_act())
            })
            .collect();
        assert_eq!(first, expected);
        assert!(first.iter().all(|&(_, _, seat)| seat == Some(Seat::East)));
        for envs in &batches[1..] {
            assert_eq!(seen(envs), first);
        }
    }
}

#[test]
fn vec_env_is_independent_of_threads_and_matches_single_envs() {
    // The batch is stepped on the calling thread alone (1), halved between the caller and a
    // pool of the global pool's width (`new`), and cut between the caller and the batch's
    // own workers (any other width: 2 or 3, whichever is not the machine's).
    const N: usize = 40;
    let config = EnvConfig::with_opponents("random,greedy,random,defensive").unwrap();
    let mut one = VecEnv::with_threads(N, &config, 1).unwrap();
    let mut others = vec![
        VecEnv::new(N, &config).unwrap(),
        VecEnv::with_threads(N, &config, 2).unwrap(),
        VecEnv::with_threads(N, &config, 3).unwrap(),
    ];
    assert!(one.step(&[0; N]).is_err(), "step before reset");
    one.reset(5);
    for two in &mut others {
        assert_eq!(two.reset(5).obs, one.observations());
    }
    // Environment 3 replays as a single environment reset with its stream, then going on
    // with the stream's next deal at each end.
    let mut single = Env::new(&config).unwrap();
    let stream = deal_seed(5, 3);
    single.reset(stream);
    assert_eq!(single.info().deal_seed, stream_deal(stream, 0));
    let mut rng = rng_from_seed(11);
    let mut actions = [0usize; N];
    let mut resets = 0;
    for _ in 0..400 {
        for two in &others {
            assert_eq!(one.observations(), two.observations());
            assert_eq!(one.masks(), two.masks());
        }
        assert_eq!(
            one.observations().index_axis(ndarray::Axis(0), 3),
            single.observation().obs
        );
        assert_eq!(one.masks().row(3).as_slice().unwrap(), single.action_mask());
        for (i, a) in actions.iter_mut().enumerate() {
            *a = pick(one.masks().row(i).as_slice().unwrap(), &mut rng);
        }
        let a = one.step(&actions).unwrap();
        let (r1, t1, tr1) = (
            a.rewards.to_owned(),
            a.terminated.to_owned(),
            a.truncated.to_owned(),
        );
        for two in &mut others {
            let b = two.step(&actions).unwrap();
            assert_eq!(r1, b.rewards);
            assert_eq!(t1, b.terminated);
            assert_eq!(tr1, b.truncated);
        }
        let s = single.step(actions[3]).unwrap();
        assert_eq!((s.reward, s.terminated), (r1[3], t1[3]));
        assert_eq!(one.info(3), &s.info);
        if s.terminated {
            single.reset_next();
        }
        for i in 0..N {
            assert!(
                one.masks().row(i).iter().any(|&m| m == 1),
                "auto-reset left a live mask"
            );
            for two in &others {
                assert_eq!(one.info(i), two.info(i));
            }
        }
        resets += t1.iter().filter(|&&t| t).count();
    }
    assert!(resets > 60, "{resets} auto-resets");
    // An illegal action anywhere steps nothing.
    let before = one.observations().to_owned();
    for (i, a) in actions.iter_mut().enumerate() {
        *a = pick(one.masks().row(i).as_slice().unwrap(), &mut rng);
    }
    actions[7] = one.masks().row(7).iter().position(|&m| m == 0).unwrap();
    let err = one.step(&actions).unwrap_err();
    assert_eq!(err.env, 7);
    assert_eq!(one.observations(), before);
    assert!(one.step(&actions[..3]).is_err());
}

/// `reset_streams` names each environment's stream: `reset(s)` is `reset_streams` of
/// `deal_seed(s, i)`, an environment given a stream plays alike at any place in a batch, and a
/// wrong count is an error that leaves the batch as it was.
#[test]
fn vec_env_reset_streams() {
    const N: usize = 6;
    let config = EnvConfig::with_opponents("greedy").unwrap();
    let mut by_seed = VecEnv::new(N, &config).unwrap();
    let mut by_streams = VecEnv::new(N, &config).unwrap();
    let mut reversed = VecEnv::with_threads(N, &config, 1).unwrap();
    let streams: Vec<u64> = (0..N as u64).map(|i| deal_seed(8, i)).collect();
    let back: Vec<u64> = streams.iter().rev().copied().collect();
    by_seed.reset(8);
    by_streams.reset_streams(&streams).unwrap();
    reversed.reset_streams(&back).unwrap();
    let mut rng = rng_from_seed(3);
    let mut actions = [0usize; N];
    let mut resets = 0;
    for _ in 0..300 {
        assert_eq!(by_seed.observations(), by_streams.observations());
        for (i, a) in actions.iter_mut().enumerate() {
            assert_eq!(
                by_streams.observations().index_axis(ndarray::Axis(0), i),
                reversed
                    .observations()
                    .index_axis(ndarray::Axis(0), N - 1 - i)
            );
            *a = pick(by_streams.masks().row(i).as_slice().unwrap(), &mut rng);
        }
        let mut mirrored = actions;
        mirrored.reverse();
        let a = by_seed.step(&actions).unwrap().rewards.to_owned();
        let b = by_streams.step(&actions).unwrap().terminated.to_owned();
        let c = reversed.step(&mirrored).unwrap().rewards.to_owned();
        assert_eq!(a.to_vec(), c.iter().rev().copied().collect::<Vec<_>>());
        resets += b.iter().filter(|&&t| t).count();
    }
    assert!(resets > 10, "{resets} auto-resets");
    let before = by_streams.observations().to_owned();
    let err = by_streams.reset_streams(&streams[..N - 1]).unwrap_err();
    assert!(
        matches!(
            err,
            EnvError::Streams {
                given: 5,
                num_envs: N
            }
        ),
        "{err}"
    );
    assert_eq!(by_streams.observations(), before);
}

#[test]
fn dealer_and_round_wind_vary_unless_fixed() {
    let mut env = Env::new(&EnvConfig::default()).unwrap();
    let mut dealers = [0; 4];
    for seed in 0..200 {
        env.reset(seed);
        dealers[env.info().context.dealer as usize] += 1;
        assert_eq!(env.deal().context(), &env.info().context);
    }
    assert!(dealers.iter().all(|&n| n > 20), "{dealers:?}");
    let fixed = EnvConfig {
        context: Some(DealContext::FIRST),
        seat: Wind::South,
        ..EnvConfig::default()
    };
    let mut env = Env::new(&fixed).unwrap();
    for seed in 0..50 {
        env.reset(seed);
        assert_eq!(env.info().context, DealContext::FIRST);
        assert_eq!(env.deal().to_act(), Some(Wind::South));
    }
}

#[test]
fn vec_env_step_into_matches_step() {
    let config = EnvConfig::with_opponents("random").unwrap();
    let mut a = VecEnv::new(6, &config).unwrap();
    let mut b = VecEnv::new(6, &config).unwrap();
    a.reset(9);
    b.reset(9);
    let mut out = vec![0f32; 6 * OBS_CHANNELS * OBS_WIDTH];
    let mut rng = rng_from_seed(9);
    for _ in 0..400 {
        let actions: Vec<usize> = (0..6)
            .map(|i| pick(a.masks().row(i).as_slice().unwrap(), &mut rng))
            .collect();
        a.step(&actions).unwrap();
        b.step_into(&actions, &mut out).unwrap();
        assert_eq!(a.observations().as_slice().unwrap(), &out[..]);
        assert_eq!(a.masks(), b.masks());
        assert_eq!(a.rewards(), b.rewards());
        assert_eq!(a.terminated(), b.terminated());
    }
    assert!(
        b.step_into(&[0; 6], &mut out[1..]).is_err(),
        "a short buffer is refused"
    );
}

/// The environment keeps river state between observations (forgotten at each reset); its
/// observations must equal a from-scratch encoding at every step, across resets.
#[test]
fn incremental_observations_match_full_encoding() {
    let mut env = Env::new(&EnvConfig::with_opponents("random").unwrap()).unwrap();
    let mut rng = rng_from_seed(21);
    let mut full = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
    let mut mask = *env.reset(0).mask;
    let mut seed = 0;
    for _ in 0..20_000 {
        env.observe_into(full.view_mut()).unwrap();
        assert_eq!(env.observation().obs, full, "seed {seed}");
        let step = env.step(pick(&mask, &mut rng)).unwrap();
        mask = if step.terminated {
            seed += 1;
            *env.reset(seed).mask
        } else {
            *step.observation.mask
        };
    }
    assert!(seed > 100, "the test crossed many resets");
}

/// The same batch stepped from the main thread, from another thread (which joins a pool of
/// its own), and from inside a rayon pool's worker (which cannot join one and splits the
/// batch on the pool it is in) gives the same observations.
#[test]
fn vec_env_steps_alike_from_any_calling_thread() {
    const N: usize = 64;
    let config = EnvConfig::with_opponents("random").unwrap();
    let run = || {
        let mut envs = VecEnv::new(N, &config).unwrap();
        envs.reset(9);
        let mut rng = rng_from_seed(2);
        let mut actions = [0usize; N];
        for _ in 0..150 {
            for (i, a) in actions.iter_mut().enumerate() {
                *a = pick(envs.masks().row(i).as_slice().unwrap(), &mut rng);
            }
            envs.step(&actions).unwrap();
        }
        (envs.observations().to_owned(), envs.masks().to_owned())
    };
    let here = run();
    let other = std::thread::scope(|s| s.spawn(run).join().unwrap());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let in_pool = pool.install(run);
    assert_eq!(here, other);
    assert_eq!(here, in_pool);
}

/// A seed starts the same stream of deals in every environment: `Env::reset(s)` then
/// `reset_next` at each end, `AecEnv::reset(s)` then `reset_next`, and a `VecEnv`
/// environment given the stream `s` through its auto-resets, each deal `stream_deal(s, k)`.
#[test]
fn a_seed_starts_one_stream_of_deals_everywhere() {
    let config = EnvConfig::with_opponents("greedy").unwrap();
    let stream = 77;
    let mut env = Env::new(&config).unwrap();
    let mut batch = VecEnv::with_threads(1, &config, 1).unwrap();
    let mut aec = AecEnv::new(AecConfig::default()).unwrap();
    env.reset(stream);
    batch.reset_streams(&[stream]).unwrap();
    aec.reset(stream);
    let mut deals = vec![env.info().deal_seed];
    assert_eq!(batch.info(0).deal_seed, deals[0]);
    assert_eq!(aec.deal().seed(), deals[0]);
    while deals.len() < 6 {
        let a = env.action_mask().iter().position(|&m| m == 1).unwrap();
        assert_eq!(batch.masks().row(0).as_slice().unwrap(), env.action_mask());
        let step = env.step(a).unwrap();
        let (terminated, seed) = (step.terminated, step.info.deal_seed);
        assert_eq!(batch.step(&[a]).unwrap().terminated[0], terminated);
        // After an auto-reset the batch reports the finished deal until its next step.
        assert_eq!(batch.info(0).deal_seed, seed);
        if terminated {
            env.reset_next();
            aec.reset_next();
            deals.push(env.info().deal_seed);
            assert_eq!(aec.deal().seed(), env.info().deal_seed);
        }
    }
    // Under taiwan16 no deal of these ends before the learner's first decision, so none
    // was skipped: the stream's deals in order.
    let expected: Vec<u64> = (0..6).map(|k| stream_deal(stream, k)).collect();
    assert_eq!(deals, expected);
}
