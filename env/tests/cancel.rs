//! The cancel flag (Python's Ctrl-C): a reset or step stopped by it abandons its deal and
//! says so, a flag never set changes nothing, and a hung `exec:` bot's wait ends on it
//! instead of running out its timeout.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use taisim_agents::FaultKind;
use taisim_env::{Env, EnvConfig, EnvError, VecEnv};

/// Opponents cheap enough for a test that still search (and so take the flag).
const SEARCH: &str = "search:16";

fn first_legal(mask: &[u8]) -> usize {
    mask.iter().position(|&m| m == 1).unwrap()
}

/// The learner's observations and rewards over `deals` deals from `seed`, first legal action
/// each step.
fn trajectory(env: &mut Env, seed: u64, deals: u64) -> Vec<(Vec<f32>, f32)> {
    let mut out = Vec::new();
    for d in 0..deals {
        let obs = env.reset(seed + d);
        out.push((obs.obs.iter().copied().collect(), 0.0));
        loop {
            let a = first_legal(env.action_mask());
            let step = env.step(a).unwrap();
            out.push((step.observation.obs.iter().copied().collect(), step.reward));
            if step.terminated {
                break;
            }
        }
    }
    out
}

#[test]
fn only_slow_opponents_take_the_flag() {
    for (opponents, slow) in [
        ("greedy", false),
        ("random", false),
        ("value", false),
        (SEARCH, true),
        ("greedy,search,greedy,greedy", true),
        ("exec:cat", true),
    ] {
        let env = Env::new(&EnvConfig::with_opponents(opponents).unwrap()).unwrap();
        assert_eq!(env.opponents_take_time(), slow, "{opponents}");
    }
    // The learner's own seat is not an opponent.
    let mut config = EnvConfig::with_opponents("search,greedy,greedy,greedy").unwrap();
    config.seat = taisim_sim::Seat::East;
    let env = Env::new(&config).unwrap();
    assert!(!env.opponents_take_time());
}

#[test]
fn a_flag_never_set_changes_nothing() {
    let config = EnvConfig::with_opponents(SEARCH).unwrap();
    let mut plain = Env::new(&config).unwrap();
    let mut flagged = Env::new(&config).unwrap();
    flagged.cancel_on(&Arc::new(AtomicBool::new(false)));
    assert_eq!(trajectory(&mut plain, 5, 2), trajectory(&mut flagged, 5, 2));
}

#[test]
fn a_cancelled_step_abandons_the_deal_and_a_reset_plays_on() {
    let config = EnvConfig::with_opponents(SEARCH).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let mut env = Env::new(&config).unwrap();
    env.cancel_on(&flag);
    let mut reference = Env::new(&config).unwrap();

    env.reset(11);
    let a = first_legal(env.action_mask());
    reference.reset(11);
    flag.store(true, Ordering::Relaxed);
    // The learner's action is played; the next seat to decide is an opponent, and the flag
    // stops the deal there.
    assert!(matches!(env.step(a), Err(EnvError::Cancelled)));
    assert!(env.was_cancelled());
    assert!(!env.is_running());
    assert!(env.action_mask().iter().all(|&m| m == 0));
    assert!(matches!(env.step(a), Err(EnvError::NeedsReset)));

    // A reset with the flag still set deals, and stops before the first decision, whoever's.
    env.reset(12);
    assert!(env.was_cancelled() && !env.is_running());
    // Cleared, the same deals are played as by an environment never stopped.
    flag.store(false, Ordering::Relaxed);
    assert_eq!(
        trajectory(&mut env, 20, 2),
        trajectory(&mut reference, 20, 2)
    );
}

#[test]
fn a_cancelled_batch_must_be_reset() {
    let config = EnvConfig::with_opponents(SEARCH).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let mut envs = VecEnv::with_threads(4, &config, 2).unwrap();
    envs.cancel_on(&flag);
    assert!(envs.opponents_take_time());
    let mut reference = VecEnv::with_threads(4, &config, 2).unwrap();
    envs.reset(3);
    reference.reset(3);
    let actions: Vec<usize> = (0..4)
        .map(|i| first_legal(envs.masks().row(i).as_slice().unwrap()))
        .collect();
    flag.store(true, Ordering::Relaxed);
    let e = envs.step(&actions).map(|_| ()).unwrap_err();
    assert!(matches!(e.source, EnvError::Cancelled), "{e}");
    assert!(envs.was_cancelled());
    let e = envs.step(&actions).map(|_| ()).unwrap_err();
    assert!(matches!(e.source, EnvError::NeedsReset), "{e}");

    flag.store(false, Ordering::Relaxed);
    envs.reset(4);
    reference.reset(4);
    assert!(!envs.was_cancelled());
    for _ in 0..30 {
        assert_eq!(envs.observations(), reference.observations());
        let actions: Vec<usize> = (0..4)
            .map(|i| first_legal(reference.masks().row(i).as_slice().unwrap()))
            .collect();
        envs.step(&actions).unwrap();
        reference.step(&actions).unwrap();
    }
}

#[test]
fn a_hung_bots_hello_is_not_waited_out() {
    // The bot says it started (a file), then never says hello. The flag is set once it has
    // started, so the table is then in (or entering) its wait for the hello, whose timeout
    // (60 s) is far away: only the flag can end that wait.
    let marker = std::env::temp_dir().join(format!("taisim-cancel-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let command = format!("exec:touch {} && sleep 600", marker.display());
    let config = EnvConfig::with_opponents(&command).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let mut env = Env::new(&config).unwrap();
    env.cancel_on(&flag);

    let setter = {
        let (flag, marker) = (Arc::clone(&flag), PathBuf::from(&marker));
        std::thread::spawn(move || {
            let give_up = Instant::now() + Duration::from_secs(120);
            while !marker.exists() && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(5));
            }
            flag.store(true, Ordering::Relaxed);
        })
    };
    // The first opponent's decision starts the bot: at the reset, or at the first step.
    env.reset(1);
    if env.bot_fault().is_none() {
        let a = first_legal(env.action_mask());
        assert!(matches!(env.step(a), Err(EnvError::Bot(_))));
    }
    setter.join().unwrap();
    let _ = std::fs::remove_file(&marker);
    let fault = env.bot_fault().expect("the bot was ended");
    match &fault.kind {
        FaultKind::Cancelled { waiting_for } => assert_eq!(waiting_for, "its hello"),
        other => panic!("expected the wait to be cancelled, got {other:?}"),
    }
    let text = fault.to_string();
    assert!(text.contains("Ctrl-C"), "{text}");
}

#[test]
fn abandoning_leaves_what_a_stop_leaves() {
    // Python abandons the deal when Ctrl-C is seen just after a step ended unstopped.
    let config = EnvConfig::with_opponents("greedy").unwrap();
    let mut env = Env::new(&config).unwrap();
    env.reset(3);
    let a = first_legal(env.action_mask());
    env.abandon();
    assert!(env.was_cancelled() && !env.is_running());
    assert!(env.action_mask().iter().all(|&m| m == 0));
    assert!(matches!(env.step(a), Err(EnvError::NeedsReset)));
    let mut fresh = Env::new(&config).unwrap();
    assert_eq!(trajectory(&mut env, 3, 1), trajectory(&mut fresh, 3, 1));

    let mut envs = VecEnv::with_threads(3, &config, 1).unwrap();
    envs.reset(3);
    envs.abandon();
    assert!(envs.was_cancelled());
    let e = envs.step(&[0, 0, 0]).map(|_| ()).unwrap_err();
    assert!(matches!(e.source, EnvError::NeedsReset), "{e}");
    envs.reset(3);
    assert!(!envs.was_cancelled());
}
