//! The policy agent: a file round trip, version and shape checks, and hand-written weights
//! whose argmax legal action is known in advance.

use std::sync::Arc;

use taisim_agents::obs::channel;
use taisim_agents::space::{DISCARD, PASS};
use taisim_agents::{
    action_index, parse_agents, Agent, AgentSpec, BuiltinAgent, Layer, Policy, PolicyAgent,
    PolicyError, ACTION_SPACE_SIZE, OBS_LEN, OBS_WIDTH,
};
use taisim_sim::{Action, ActionList, Deal, DealContext, Rules, Seat, Tile};

/// Linear weights scoring `discard t` as `t + 1` when the hand holds `t` (through the
/// observation's first hand row) and every other action at −1000.
fn highest_kind_policy() -> Policy {
    let mut w = vec![0f32; ACTION_SPACE_SIZE * OBS_LEN];
    let mut b = vec![-1000f32; ACTION_SPACE_SIZE];
    for t in 0..34 {
        w[(DISCARD + t) * OBS_LEN + channel::HAND * OBS_WIDTH + t] = (t + 1) as f32;
        b[DISCARD + t] = 0.0;
    }
    Policy::linear(w, b).unwrap()
}

/// A two-layer MLP: the hidden layer copies "holds at least one of t" (34 units), the output
/// scores `discard t` as `34 - t`: the lowest kind held.
fn lowest_kind_mlp() -> Policy {
    let mut w1 = vec![0f32; 34 * OBS_LEN];
    for t in 0..34 {
        w1[t * OBS_LEN + channel::HAND * OBS_WIDTH + t] = 1.0;
    }
    let mut w2 = vec![0f32; ACTION_SPACE_SIZE * 34];
    let mut b2 = vec![-1000f32; ACTION_SPACE_SIZE];
    for t in 0..34 {
        w2[(DISCARD + t) * 34 + t] = (34 - t) as f32;
        b2[DISCARD + t] = 0.0;
    }
    Policy::new(vec![
        Layer::new(OBS_LEN, 34, w1, vec![0.0; 34]),
        Layer::new(34, ACTION_SPACE_SIZE, w2, b2),
    ])
    .unwrap()
}

/// The expected choice, computed from the hand directly: the best-scoring legal action,
/// ties to the lowest index.
fn expected(deal: &Deal, seat: Seat, legal: &ActionList, score: impl Fn(Tile) -> f32) -> Action {
    let offer = deal.tile_on_offer();
    let s = |a: Action| match a {
        Action::Discard(t) if deal.hand(seat).count(t) > 0 => score(t),
        _ => -1000.0,
    };
    let mut best = legal[0];
    for &a in legal.iter() {
        let (sa, sb) = (s(a), s(best));
        if sa > sb || (sa == sb && action_index(a, offer) < action_index(best, offer)) {
            best = a;
        }
    }
    best
}

fn check_policy(policy: Policy, score: impl Fn(Tile) -> f32 + Copy) {
    let mut agent = PolicyAgent::new(Arc::new(policy));
    let mut legal = ActionList::new();
    let mut turns = 0;
    let mut answers = 0;
    for seed in 0..20 {
        let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let a = agent.act(&deal.view(seat), &legal);
            assert_eq!(a, expected(&deal, seat, &legal, score), "seed {seed}");
            if legal.contains(&Action::Pass) {
                answers += 1;
            } else {
                turns += 1;
            }
            deal.play(a).unwrap();
        }
    }
    assert!(
        turns > 500 && answers > 20,
        "{turns} turns, {answers} answers"
    );
}

#[test]
fn linear_policy_plays_the_argmax_legal_action() {
    check_policy(highest_kind_policy(), |t| (t.index() + 1) as f32);
}

#[test]
fn mlp_policy_plays_the_argmax_legal_action() {
    check_policy(lowest_kind_mlp(), |t| (34 - t.index()) as f32);
}

#[test]
fn full_scores_agree_with_the_agent() {
    let policy = lowest_kind_mlp();
    let deal = Deal::new(Rules::TAIWAN16, 3, DealContext::FIRST).unwrap();
    let seat = deal.to_act().unwrap();
    let mut obs = vec![0f32; OBS_LEN];
    taisim_agents::encode_slice(&deal.view(seat), &mut obs);
    let mut scores = vec![0f32; ACTION_SPACE_SIZE];
    let mut scratch = policy.scratch();
    policy.scores(&obs, &mut scratch, &mut scores);
    for t in Tile::ALL {
        let want = if deal.hand(seat).count(t) > 0 {
            (34 - t.index()) as f32
        } else {
            0.0
        };
        assert_eq!(scores[DISCARD + t.index()], want);
    }
    assert_eq!(scores[PASS], -1000.0);
}

#[test]
fn save_load_round_trip_and_by_name() {
    let policy = lowest_kind_mlp();
    let path = std::env::temp_dir().join(format!("taisim-policy-{}.json", std::process::id()));
    policy.save(&path).unwrap();
    let loaded = Policy::load(&path).unwrap();
    assert_eq!(loaded, policy);
    let spec = format!("policy:{}", path.display());
    let specs = parse_agents(&format!("{spec},random,random,random")).unwrap();
    assert_eq!(specs[0], AgentSpec::Policy(path.clone()));
    let agent = specs[0].build().unwrap();
    assert!(matches!(&agent, BuiltinAgent::Policy(p) if **p.policy() == policy));
    assert_eq!(agent.name(), "policy");
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        AgentSpec::Policy(path).build(),
        Err(PolicyError::Io { .. })
    ));
}

#[test]
fn files_for_another_layout_are_refused() {
    let text = highest_kind_policy().to_json();
    let v2 = "\"obs_version\":2";
    assert!(text.contains(v2));
    match Policy::from_json(&text.replace(v2, "\"obs_version\":3")) {
        Err(PolicyError::ObsVersion {
            found: 3,
            expected: 2,
        }) => {}
        other => panic!("{other:?}"),
    }
    let fmt = "\"format\":\"taisim-policy\"";
    assert!(matches!(
        Policy::from_json(&text.replace(fmt, "\"format\":\"other\"")),
        Err(PolicyError::Format(_))
    ));
    assert!(matches!(
        Policy::from_json("{\"format\": 1}"),
        Err(PolicyError::Json(_))
    ));
    // Shapes: a wrong input width, a wrong output width, a weight count that does not fit.
    let bad_in = Policy::new(vec![Layer::new(
        10,
        ACTION_SPACE_SIZE,
        vec![0.0; 1440],
        vec![0.0; 144],
    )]);
    assert!(matches!(
        bad_in,
        Err(PolicyError::LayerShape { layer: 0, .. })
    ));
    let bad_out = Policy::new(vec![Layer::new(
        OBS_LEN,
        3,
        vec![0.0; 3 * OBS_LEN],
        vec![0.0; 3],
    )]);
    assert!(matches!(
        bad_out,
        Err(PolicyError::ActionSpace { found: 3, .. })
    ));
    let bad_w = Policy::linear(vec![0.0; 5], vec![0.0; ACTION_SPACE_SIZE]);
    assert!(matches!(bad_w, Err(PolicyError::LayerShape { .. })));
    let mut w = vec![0.0; ACTION_SPACE_SIZE * OBS_LEN];
    w[7] = f32::NAN;
    assert!(matches!(
        Policy::linear(w, vec![0.0; ACTION_SPACE_SIZE]),
        Err(PolicyError::NotFinite { layer: 0 })
    ));
    assert!(matches!(Policy::new(vec![]), Err(PolicyError::NoLayers)));
}
