//! `exec:` opponents in the environments: a bot process plays the other seats of an `Env`
//! and of every environment of a `VecEnv`, and a bot that fails is an `EnvError::Bot`
//! naming it, never a panic.

use std::path::Path;

use taisim_env::{Env, EnvConfig, EnvError, VecEnv};

fn random_bot() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bots/random_bot.py");
    format!("exec:python3 {}", script.display())
}

fn first_legal(mask: &[u8]) -> usize {
    mask.iter().position(|&m| m == 1).unwrap()
}

#[test]
fn an_env_plays_against_a_bot() {
    let config = EnvConfig::with_opponents(&random_bot()).unwrap();
    let mut env = Env::new(&config).unwrap();
    let mut ends = 0;
    for seed in 0..5 {
        let mut obs = env.reset(seed);
        loop {
            let a = first_legal(obs.mask);
            let step = env.step(a).unwrap();
            if step.terminated {
                ends += 1;
                break;
            }
            obs = step.observation;
        }
    }
    assert_eq!(ends, 5);
}

#[test]
fn a_vec_env_shares_one_bot_process() {
    let config = EnvConfig::with_opponents(&random_bot()).unwrap();
    let mut envs = VecEnv::with_threads(8, &config, 2).unwrap();
    envs.reset(3);
    let mut actions = vec![0usize; 8];
    for _ in 0..200 {
        for (i, a) in actions.iter_mut().enumerate() {
            *a = envs
                .masks()
                .row(i)
                .iter()
                .position(|&m| m == 1)
                .unwrap_or(0);
        }
        envs.step(&actions).unwrap();
    }
}

#[test]
fn a_failing_bot_is_an_error_naming_it() {
    let config = EnvConfig::with_opponents("exec:echo not-a-bot").unwrap();
    let mut env = Env::new(&config).unwrap();
    let obs = env.reset(1);
    let a = obs.mask.iter().position(|&m| m == 1).unwrap_or(0);
    match env.step(a) {
        Err(EnvError::Bot(f)) => {
            let text = f.to_string();
            assert!(text.contains("exec:echo not-a-bot"), "{text}");
            assert!(text.contains("not-a-bot"), "{text}");
        }
        other => panic!("expected a bot error, got {:?}", other.map(|s| s.reward)),
    }
}
