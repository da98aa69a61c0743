//! The policy agent: a safetensors file round trip, version, shape and dtype checks, and hand-written weights
//! whose argmax legal action is known in advance.

use std::sync::Arc;

use safetensors::tensor::TensorView;
use safetensors::Dtype;

use taisim_agents::obs::channel;
use taisim_agents::space::{DISCARD, PASS};
use taisim_agents::{
    action_index, parse_agents, Agent, AgentSpec, BuiltinAgent, Layer, Policy, PolicyAgent,
    PolicyError, ACTION_SPACE_SIZE, OBS_LEN, OBS_VERSION, OBS_WIDTH,
};
use taisim_sim::{Action, ActionList, Deal, DealContext, Rules, Seat, Tile};

#[path = "support/policy_files.rs"]
mod policy_files;
use policy_files::{file, metadata, zero_linear};

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
    let path =
        std::env::temp_dir().join(format!("taisim-policy-{}.safetensors", std::process::id()));
    policy.save(&path).unwrap();
    let loaded = Policy::load(&path).unwrap();
    assert_eq!(loaded, policy);
    let spec = format!("policy:{}", path.display());
    let specs = parse_agents(&format!("{spec},random,random,random")).unwrap();
    assert_eq!(specs[0], AgentSpec::Policy(path.clone()));
    let variant = std::sync::Arc::new(taisim_score::Variant::builtin("taiwan16").unwrap());
    let agent = specs[0].build(&variant).unwrap();
    assert!(matches!(&agent, BuiltinAgent::Policy(p) if **p.policy() == policy));
    assert_eq!(agent.name(), "policy");
    std::fs::remove_file(&path).unwrap();
    let err = AgentSpec::Policy(path).build(&variant).unwrap_err();
    assert!(
        matches!(err, PolicyError::Io { writing: false, .. }),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("cannot read policy file"),
        "{err}"
    );
}

#[test]
fn an_unreadable_policy_file_is_named_in_its_error() {
    let path = std::env::temp_dir().join(format!("taisim-garbage-{}.bin", std::process::id()));
    std::fs::write(&path, b"garbage").unwrap();
    let e = Policy::load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    let message = e.to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(
        matches!(&e, PolicyError::InFile { source, .. } if matches!(**source, PolicyError::NotSafetensors(_))),
        "{e:?}"
    );
}

fn err(bytes: &[u8]) -> PolicyError {
    Policy::from_bytes(bytes).unwrap_err()
}

#[test]
fn a_file_written_outside_taisim_loads() {
    let policy = Policy::from_bytes(&file(&zero_linear(), metadata(1))).unwrap();
    assert_eq!(policy.layers().len(), 1);
    assert_eq!(Policy::from_bytes(&policy.to_bytes()).unwrap(), policy);
}

/// The same weights give the same bytes, every time: the header's metadata is in key order,
/// not the order of a `HashMap` that changes between calls (and between processes).
#[test]
fn the_same_policy_is_written_to_the_same_bytes() {
    let policy = lowest_kind_mlp();
    let first = policy.to_bytes();
    for _ in 0..32 {
        assert_eq!(policy.to_bytes(), first);
    }
    let len = u64::from_le_bytes(first[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&first[8..8 + len]).unwrap();
    let text = std::str::from_utf8(&first[8..8 + len]).unwrap();
    let keys: Vec<&str> = header["__metadata__"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let at = |k: &str| text.find(&format!("\"{k}\":\"")).unwrap();
    let mut in_file = keys.clone();
    in_file.sort_by_key(|k| at(k));
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(in_file, sorted, "{text}");
    assert_eq!(Policy::from_bytes(&first).unwrap(), policy);
}

/// The shipped policy (`trained`) loads, for this build's observation layout, and its file is
/// exactly what the writer gives for its weights (written by `taisim.export_policy`, not
/// edited by hand).
#[test]
fn the_shipped_policy_loads_and_is_in_the_writers_form() {
    let policy = taisim_agents::trained_policy().unwrap();
    assert_eq!(policy.to_bytes(), taisim_agents::TRAINED_POLICY);
    let sizes: Vec<(usize, usize)> = policy
        .layers()
        .iter()
        .map(|l| (l.inputs, l.outputs))
        .collect();
    // Trained on version 4, the current layout: every row, the claim row included.
    assert_eq!(policy.obs_version(), 4);
    let v4 = taisim_agents::policy_inputs(4).unwrap();
    assert_eq!(v4, 65 * OBS_WIDTH);
    assert_eq!(sizes, [(v4, 256), (256, 256), (256, ACTION_SPACE_SIZE)]);
    // With a per-kind head of 64 over every row of that layout.
    let head = policy.kind_head().expect("trained has a per-kind head");
    assert_eq!((head.rows(), head.hidden()), (65, 64));
    // A student of the search's turns: greedy answers what is on offer.
    assert_eq!(policy.decides(), taisim_agents::Decides::Turns);
    assert_eq!(policy.greedy_margin(), None);
    let agent = PolicyAgent::trained().unwrap();
    assert_eq!(agent.name(), "trained");
    assert!(Arc::ptr_eq(agent.policy(), &policy), "parsed once, shared");
}

#[test]
fn files_for_another_layout_are_refused() {
    let with = |key: &str, value: &str| {
        let mut meta = metadata(1);
        meta.insert(key.to_string(), value.to_string());
        file(&zero_linear(), meta)
    };
    // A file for layout 1 (before the wild row) is refused, naming both versions.
    let e = err(&with("obs_version", "1"));
    assert!(
        matches!(e, PolicyError::ObsVersion { found: 1, expected } if expected == OBS_VERSION),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(
        message.contains("version 1") && message.contains(&format!("version {OBS_VERSION}")),
        "{message}"
    );
    let other = (OBS_VERSION + 1).to_string();
    match err(&with("obs_version", &other)) {
        PolicyError::ObsVersion { found, expected } => {
            assert_eq!((found, expected), (OBS_VERSION + 1, OBS_VERSION))
        }
        other => panic!("{other:?}"),
    }
    assert!(err(&with("obs_version", &other))
        .to_string()
        .contains("observation version"));
    assert!(matches!(err(&with("format", "other")), PolicyError::Format(f) if f == "other"));
    assert!(matches!(
        err(&with("action_space", "143")),
        PolicyError::ActionSpace { found: 143, .. }
    ));
    assert!(matches!(
        err(&with("activation", "tanh")),
        PolicyError::Metadata {
            key: "activation",
            ..
        }
    ));
    assert!(matches!(
        err(&with("layers", "two")),
        PolicyError::Metadata { key: "layers", .. }
    ));
    assert!(matches!(
        err(&with("layers", "0")),
        PolicyError::Metadata { key: "layers", .. }
    ));
    // The metadata says two layers, the file holds one.
    assert!(matches!(
        err(&with("layers", "2")),
        PolicyError::MissingTensor(name) if name == "layers.1.weight"
    ));
    let mut meta = metadata(1);
    meta.remove("obs_version");
    assert!(matches!(
        err(&file(&zero_linear(), meta)),
        PolicyError::MissingKey("obs_version")
    ));
    let mut extra = zero_linear();
    extra.push(("value.weight", vec![1], vec![0.0]));
    assert!(matches!(
        err(&file(&extra, metadata(1))),
        PolicyError::ExtraTensor(name, 1) if name == "value.weight"
    ));
    // A weight stored transposed (PyTorch's layout is [outputs, inputs]).
    let mut transposed = zero_linear();
    transposed[0].1 = vec![OBS_LEN, ACTION_SPACE_SIZE];
    assert!(matches!(
        err(&file(&transposed, metadata(1))),
        PolicyError::LayerShape { layer: 0, .. }
    ));
    let mut bias = zero_linear();
    bias[1] = ("layers.0.bias", vec![1, ACTION_SPACE_SIZE], vec![0.0; 144]);
    assert!(matches!(
        err(&file(&bias, metadata(1))),
        PolicyError::LayerShape { layer: 0, .. }
    ));
    let mut nan = zero_linear();
    nan[1].2[5] = f32::NAN;
    assert!(matches!(
        err(&file(&nan, metadata(1))),
        PolicyError::NotFinite { layer: 0 }
    ));
    // Half precision is refused by name, not misread.
    let half = vec![0u8; 2 * ACTION_SPACE_SIZE];
    let views = [
        (
            "layers.0.weight",
            TensorView::new(
                Dtype::F32,
                vec![ACTION_SPACE_SIZE, OBS_LEN],
                &[0u8; 4 * ACTION_SPACE_SIZE * OBS_LEN],
            )
            .unwrap(),
        ),
        (
            "layers.0.bias",
            TensorView::new(Dtype::F16, vec![ACTION_SPACE_SIZE], &half).unwrap(),
        ),
    ];
    let bytes = safetensors::serialize(views, Some(metadata(1))).unwrap();
    assert!(matches!(
        err(&bytes),
        PolicyError::Dtype { name, found } if name == "layers.0.bias" && found == "F16"
    ));
}

#[test]
fn not_a_policy_file_is_named() {
    assert!(matches!(err(b""), PolicyError::NotSafetensors(_)));
    assert!(matches!(
        err(b"hello world, not tensors"),
        PolicyError::NotSafetensors(_)
    ));
    let good = file(&zero_linear(), metadata(1));
    assert!(matches!(
        err(&good[..good.len() - 1]),
        PolicyError::NotSafetensors(_)
    ));
    // The JSON format of earlier versions: refused with how to convert.
    let json = br#"{"format": "taisim-policy", "obs_version": 1, "layers": []}"#;
    let e = err(json);
    assert!(matches!(e, PolicyError::JsonFile));
    assert!(e.to_string().contains("convert_json_policy"), "{e}");
}

#[test]
fn layer_shapes_are_checked() {
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

/// A seeded MLP of three layers with weights of every sign: `scores` (sparse first layer)
/// against a dense forward pass in f64 written out here, on observations of many decisions.
#[test]
fn scores_match_a_dense_forward_pass() {
    let mut rng = taisim_sim::rng_from_seed(77);
    let mut draw = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| taisim_sim::bounded(&mut rng, 2001) as f32 / 1000.0 - 1.0)
            .collect()
    };
    let widths = [OBS_LEN, 40, 24, ACTION_SPACE_SIZE];
    let layers: Vec<Layer> = widths
        .windows(2)
        .map(|w| Layer::new(w[0], w[1], draw(w[0] * w[1]), draw(w[1])))
        .collect();
    let policy = Policy::new(layers.clone()).unwrap();
    let mut obs = vec![0f32; OBS_LEN];
    let mut scratch = policy.scratch();
    let mut out = vec![0f32; ACTION_SPACE_SIZE];
    let mut legal = ActionList::new();
    let mut checked = 0;
    for seed in 0..5 {
        let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        while let Some(seat) = deal.to_act() {
            taisim_agents::encode_slice(&deal.view(seat), &mut obs);
            policy.scores(&obs, &mut scratch, &mut out);
            let mut x: Vec<f64> = obs.iter().map(|&v| v as f64).collect();
            for (i, l) in layers.iter().enumerate() {
                x = (0..l.outputs)
                    .map(|r| {
                        let row = &l.weights[r * l.inputs..(r + 1) * l.inputs];
                        let y = l.bias[r] as f64
                            + row.iter().zip(&x).map(|(&w, &v)| w as f64 * v).sum::<f64>();
                        if i + 1 < layers.len() {
                            y.max(0.0)
                        } else {
                            y
                        }
                    })
                    .collect();
            }
            for (a, b) in out.iter().zip(&x) {
                assert!((*a as f64 - b).abs() < 1e-3 * (1.0 + b.abs()), "{a} vs {b}");
            }
            checked += 1;
            deal.legal_actions(&mut legal);
            deal.play(legal[0]).unwrap();
        }
    }
    assert!(checked > 100);
}

/// A policy trained on version 2 (60 rows) loads, keeps its version when written again, and
/// scores a current observation exactly as the same weights padded with zeros for the rows
/// version 3 appends: it reads the first rows and nothing else. A file whose version and
/// input width disagree is refused, naming the layer.
#[test]
fn a_version_2_policy_reads_the_first_rows_of_the_current_observation() {
    let v2 = 60 * OBS_WIDTH;
    assert_eq!(taisim_agents::policy_inputs(2), Some(v2));
    assert_eq!(taisim_agents::policy_inputs(OBS_VERSION), Some(OBS_LEN));
    assert_eq!(taisim_agents::policy_inputs(1), None);
    assert_eq!(taisim_agents::policy_inputs(OBS_VERSION + 1), None);
    let hidden = 8;
    // Weights that are not zero anywhere, so every input of the prefix counts.
    let weight = |n: usize, salt: usize| -> Vec<f32> {
        (0..n)
            .map(|i| (((i * 7919 + salt) % 23) as f32 - 11.0) / 64.0)
            .collect()
    };
    let first = weight(hidden * v2, 1);
    let bias0 = weight(hidden, 2);
    let last = weight(ACTION_SPACE_SIZE * hidden, 3);
    let bias1 = weight(ACTION_SPACE_SIZE, 4);
    let mut meta = metadata(2);
    meta.insert("obs_version".to_string(), "2".to_string());
    let bytes = file(
        &[
            ("layers.0.weight", vec![hidden, v2], first.clone()),
            ("layers.0.bias", vec![hidden], bias0.clone()),
            (
                "layers.1.weight",
                vec![ACTION_SPACE_SIZE, hidden],
                last.clone(),
            ),
            ("layers.1.bias", vec![ACTION_SPACE_SIZE], bias1.clone()),
        ],
        meta.clone(),
    );
    let old = Policy::from_bytes(&bytes).unwrap();
    assert_eq!(old.obs_version(), 2);
    let again = Policy::from_bytes(&old.to_bytes()).unwrap();
    assert_eq!(again, old);
    assert_eq!(again.obs_version(), 2);

    // The same weights over the current layout, zero on the appended rows.
    let mut padded = vec![0f32; hidden * OBS_LEN];
    for r in 0..hidden {
        padded[r * OBS_LEN..r * OBS_LEN + v2].copy_from_slice(&first[r * v2..(r + 1) * v2]);
    }
    let new = Policy::new(vec![
        Layer::new(OBS_LEN, hidden, padded, bias0),
        Layer::new(hidden, ACTION_SPACE_SIZE, last, bias1),
    ])
    .unwrap();
    assert_eq!(new.obs_version(), OBS_VERSION);
    let rules = taisim_sim::Rules::TAIZHOU;
    let mut deal = Deal::new(rules, 11, DealContext::FIRST).unwrap();
    let mut legal = ActionList::new();
    let mut greedy = taisim_agents::GreedyAgent::new();
    let mut obs = vec![0f32; OBS_LEN];
    let (mut a, mut b) = (old.scratch(), new.scratch());
    let (mut sa, mut sb) = (vec![0f32; ACTION_SPACE_SIZE], vec![0f32; ACTION_SPACE_SIZE]);
    let mut steps = 0;
    while let Some(seat) = deal.to_act() {
        let view = deal.view(seat);
        taisim_agents::encode_slice(&view, &mut obs);
        old.scores(&obs, &mut a, &mut sa);
        new.scores(&obs, &mut b, &mut sb);
        assert_eq!(sa, sb, "step {steps}");
        let mut old_agent = PolicyAgent::new(Arc::new(old.clone()));
        let mut new_agent = PolicyAgent::new(Arc::new(new.clone()));
        deal.legal_actions(&mut legal);
        assert_eq!(old_agent.act(&view, &legal), new_agent.act(&view, &legal));
        let action = greedy.act(&view, &legal);
        deal.play(action).unwrap();
        steps += 1;
    }
    assert!(steps > 40, "{steps}");

    // Version 2 with the current width, or the current version with version 2's: refused.
    let refused = |version: &str, width: usize| {
        let mut meta = metadata(1);
        meta.insert("obs_version".to_string(), version.to_string());
        let tensors = vec![
            (
                "layers.0.weight",
                vec![ACTION_SPACE_SIZE, width],
                vec![0.0; ACTION_SPACE_SIZE * width],
            ),
            (
                "layers.0.bias",
                vec![ACTION_SPACE_SIZE],
                vec![0.0; ACTION_SPACE_SIZE],
            ),
        ];
        err(&file(&tensors, meta))
    };
    let current = OBS_VERSION.to_string();
    for (version, width) in [("2", OBS_LEN), (current.as_str(), v2)] {
        match refused(version, width) {
            PolicyError::LayerShape { layer: 0, problem } => {
                assert!(
                    problem.contains(&format!("takes {width} inputs")),
                    "{problem}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
}

/// A residual policy (`greedy_margin` m) plays greedy's choice unless the best-scoring legal
/// action scores more than m above it, and always a win greedy takes: checked decision by
/// decision against greedy and the plain argmax, with a margin that lets some deviations
/// through and one that lets none.
#[test]
fn a_residual_policy_leaves_greedy_only_by_more_than_its_margin() {
    use taisim_agents::GreedyAgent;
    let score = |t: Tile| (t.index() + 1) as f32;
    for margin in [5.0f32, 1e6] {
        let policy = highest_kind_policy().with_greedy_margin(margin).unwrap();
        let policy = Policy::from_bytes(&policy.to_bytes()).unwrap();
        assert_eq!(policy.greedy_margin(), Some(margin));
        let mut agent = PolicyAgent::new(Arc::new(policy));
        let mut legal = ActionList::new();
        let (mut deviations, mut kept, mut wins) = (0, 0, 0);
        for seed in 0..60 {
            let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
            while let Some(seat) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let view = deal.view(seat);
                let greedy = GreedyAgent::new().act(&view, &legal);
                let best = expected(&deal, seat, &legal, score);
                let s = |a: Action| match a {
                    Action::Discard(t) if deal.hand(seat).count(t) > 0 => score(t),
                    _ => -1000.0,
                };
                let win = greedy.is_win();
                wins += usize::from(win);
                let want = if !win && s(best) - s(greedy) > margin {
                    deviations += 1;
                    best
                } else {
                    kept += usize::from(best != greedy);
                    greedy
                };
                let a = agent.act(&view, &legal);
                assert_eq!(a, want, "seed {seed}, margin {margin}");
                deal.play(a).unwrap();
            }
        }
        // Every win greedy takes is taken, though a discard scores above it.
        assert!(wins > 5, "{wins} wins");
        if margin < 100.0 {
            assert!(
                deviations > 50 && kept > 50,
                "{deviations} deviations, {kept} kept"
            );
        } else {
            assert_eq!(deviations, 0);
        }
    }
}

#[test]
fn a_greedy_margin_must_be_a_finite_number_at_least_zero() {
    for bad in [-0.5f32, f32::NAN, f32::INFINITY] {
        let e = highest_kind_policy().with_greedy_margin(bad).unwrap_err();
        assert!(
            matches!(
                e,
                PolicyError::Metadata {
                    key: "greedy_margin",
                    ..
                }
            ),
            "{e:?}"
        );
    }
    let mut meta = metadata(1);
    meta.insert("greedy_margin".to_string(), "half a point".to_string());
    let e = Policy::from_bytes(&file(&zero_linear(), meta)).unwrap_err();
    assert!(e.to_string().contains("greedy_margin"), "{e}");
    let mut meta = metadata(1);
    meta.insert("greedy_margin".to_string(), "-1".to_string());
    assert!(Policy::from_bytes(&file(&zero_linear(), meta)).is_err());
    let mut meta = metadata(1);
    meta.insert("greedy_margin".to_string(), "0.25".to_string());
    let p = Policy::from_bytes(&file(&zero_linear(), meta)).unwrap();
    assert_eq!(p.greedy_margin(), Some(0.25));
    assert_eq!(Policy::from_bytes(&p.to_bytes()).unwrap(), p);
}

/// A policy that decides only turns plays greedy's answer at every offer, and one that
/// decides only offers plays greedy's turns; at the decisions it does make it plays as the
/// same network deciding everything. Checked decision by decision, through a file.
#[test]
fn a_policy_decides_only_what_it_names() {
    use taisim_agents::{Decides, GreedyAgent};
    let everything = Arc::new(highest_kind_policy());
    for decides in Decides::ALL {
        let policy = highest_kind_policy().with_decides(decides);
        let policy = Policy::from_bytes(&policy.to_bytes()).unwrap();
        assert_eq!(policy.decides(), decides);
        let mut agent = PolicyAgent::new(Arc::new(policy));
        let mut network = PolicyAgent::new(everything.clone());
        let mut legal = ActionList::new();
        let (mut turns, mut offers, mut greedy_differs) = (0, 0, 0);
        for seed in 0..40 {
            let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
            while let Some(seat) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let view = deal.view(seat);
                let offer = legal.contains(&Action::Pass);
                let (greedy, own) = (
                    GreedyAgent::new().act(&view, &legal),
                    network.act(&view, &legal),
                );
                greedy_differs += usize::from(greedy != own);
                let network_decides = match decides {
                    Decides::All => true,
                    Decides::Turns => !offer,
                    Decides::Offers => offer,
                };
                let want = if network_decides { own } else { greedy };
                let a = agent.act(&view, &legal);
                assert_eq!(a, want, "{decides}, seed {seed}, offer {offer}");
                turns += usize::from(!offer);
                offers += usize::from(offer);
                deal.play(a).unwrap();
            }
        }
        // The network and greedy differ often enough, at turns and offers, to tell them apart.
        assert!(
            turns > 500 && offers > 200 && greedy_differs > 300,
            "{turns} turns, {offers} offers, {greedy_differs} differing"
        );
    }
}

#[test]
fn decides_is_all_turns_or_offers_and_all_is_not_written() {
    use taisim_agents::Decides;
    let mut meta = metadata(1);
    meta.insert("decides".to_string(), "claims".to_string());
    let e = Policy::from_bytes(&file(&zero_linear(), meta)).unwrap_err();
    assert!(
        e.to_string().contains("decides") && e.to_string().contains("all, turns or offers"),
        "{e}"
    );
    let mut meta = metadata(1);
    meta.insert("decides".to_string(), "turns".to_string());
    let p = Policy::from_bytes(&file(&zero_linear(), meta)).unwrap();
    assert_eq!(p.decides(), Decides::Turns);
    // A policy deciding everything writes no key: the file an earlier build wrote.
    let plain = Policy::from_bytes(&file(&zero_linear(), metadata(1))).unwrap();
    assert_eq!(plain.decides(), Decides::All);
    let header = safetensors::SafeTensors::read_metadata(&plain.to_bytes())
        .unwrap()
        .1;
    assert!(!header.metadata().as_ref().unwrap().contains_key("decides"));
    let header = safetensors::SafeTensors::read_metadata(&p.to_bytes())
        .unwrap()
        .1;
    assert_eq!(header.metadata().as_ref().unwrap()["decides"], "turns");
}
