//! Policies with a per-kind head (`mlp_kinds`): the scores against the head's formula
//! computed here by definition, the agent against the argmax of those scores, the file round
//! trip, the older-layout prefix, and every misshapen head refused by name.

use std::sync::Arc;

use taisim_agents::{
    action_index, Agent, GreedyAgent, Layer, Policy, PolicyAgent, PolicyError, ACTION_SPACE_SIZE,
    KIND_BLOCKS, OBS_CHANNELS, OBS_LEN, OBS_VERSION, OBS_WIDTH,
};
use taisim_sim::{ActionList, Deal, DealContext, Rules};

#[path = "support/policy_files.rs"]
mod policy_files;
use policy_files::{metadata, zero_linear, Tensor};

const HIDDEN: usize = 8;
const TRUNK: usize = 24;

/// `n` weights in [-1, 1], from a seeded generator.
fn draw(rng: &mut rand_pcg::Pcg64Mcg, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| taisim_sim::bounded(rng, 2001) as f32 / 1000.0 - 1.0)
        .collect()
}

/// The parts of a kinds policy over `rows` observation rows: trunk layers, head input,
/// context and output.
struct Parts {
    trunk: Vec<Layer>,
    input: Layer,
    context: Vec<f32>,
    output: Layer,
}

fn parts(seed: u64, rows: usize) -> Parts {
    let mut rng = taisim_sim::rng_from_seed(seed);
    let inputs = rows * OBS_WIDTH;
    let trunk = vec![
        Layer::new(
            inputs,
            TRUNK,
            draw(&mut rng, TRUNK * inputs),
            draw(&mut rng, TRUNK),
        ),
        Layer::new(
            TRUNK,
            ACTION_SPACE_SIZE,
            draw(&mut rng, ACTION_SPACE_SIZE * TRUNK),
            draw(&mut rng, ACTION_SPACE_SIZE),
        ),
    ];
    let input = Layer::new(
        2 * rows,
        HIDDEN,
        draw(&mut rng, HIDDEN * 2 * rows),
        draw(&mut rng, HIDDEN),
    );
    let context = draw(&mut rng, HIDDEN * TRUNK);
    let output = Layer::new(HIDDEN, 4, draw(&mut rng, 4 * HIDDEN), draw(&mut rng, 4));
    Parts {
        trunk,
        input,
        context,
        output,
    }
}

fn build(p: &Parts, version: u32) -> Result<Policy, PolicyError> {
    Policy::for_obs_version(p.trunk.clone(), version)?.with_kind_head(
        p.input.clone(),
        [HIDDEN, TRUNK],
        p.context.clone(),
        p.output.clone(),
    )
}

fn dense(l: &Layer, x: &[f64], relu: bool) -> Vec<f64> {
    (0..l.outputs)
        .map(|r| {
            let w = &l.weights[r * l.inputs..(r + 1) * l.inputs];
            let y = l.bias[r] as f64 + w.iter().zip(x).map(|(&w, &v)| w as f64 * v).sum::<f64>();
            if relu {
                y.max(0.0)
            } else {
                y
            }
        })
        .collect()
}

/// The module docs' formula, in f64, from the parts rather than the loaded policy.
fn reference(p: &Parts, rows: usize, obs: &[f32]) -> Vec<f64> {
    let x: Vec<f64> = obs[..rows * OBS_WIDTH].iter().map(|&v| v as f64).collect();
    let h = dense(&p.trunk[0], &x, true);
    let mut out = dense(&p.trunk[1], &h, false);
    let context: Vec<f64> = (0..HIDDEN)
        .map(|i| {
            (0..TRUNK)
                .map(|j| p.context[i * TRUNK + j] as f64 * h[j])
                .sum()
        })
        .collect();
    for k in 0..OBS_WIDTH {
        let mut column: Vec<f64> = (0..rows).map(|r| x[r * OBS_WIDTH + k]).collect();
        for r in 0..rows {
            let max = (0..OBS_WIDTH)
                .map(|j| x[r * OBS_WIDTH + j])
                .fold(f64::NEG_INFINITY, f64::max);
            column.push(x[r * OBS_WIDTH + k] - max);
        }
        let z: Vec<f64> = dense(&p.input, &column, false)
            .iter()
            .zip(&context)
            .map(|(a, c)| (a + c).max(0.0))
            .collect();
        for (b, s) in dense(&p.output, &z, false).iter().enumerate() {
            out[KIND_BLOCKS[b] + k] += s;
        }
    }
    out
}

/// Plays deals of taiwan16 and taizhou with greedy, calling `check` with each observation,
/// view and legal list. Returns the decisions seen.
fn each_decision(mut check: impl FnMut(&[f32], &taisim_sim::View<'_>, &ActionList)) -> usize {
    let mut legal = ActionList::new();
    let mut greedy = GreedyAgent::new();
    let mut obs = vec![0f32; OBS_LEN];
    let mut seen = 0;
    for rules in [Rules::TAIWAN16, Rules::TAIZHOU] {
        for seed in 0..4 {
            let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
            while let Some(seat) = deal.to_act() {
                let view = deal.view(seat);
                taisim_agents::encode_slice(&view, &mut obs);
                deal.legal_actions(&mut legal);
                check(&obs, &view, &legal);
                let a = greedy.act(&view, &legal);
                deal.play(a).unwrap();
                seen += 1;
            }
        }
    }
    seen
}

#[test]
fn scores_follow_the_head_formula() {
    let p = parts(5, OBS_CHANNELS);
    let policy = build(&p, OBS_VERSION).unwrap();
    let mut scratch = policy.scratch();
    let mut out = vec![0f32; ACTION_SPACE_SIZE];
    let seen = each_decision(|obs, _, _| {
        policy.scores(obs, &mut scratch, &mut out);
        for (i, (a, b)) in out.iter().zip(reference(&p, OBS_CHANNELS, obs)).enumerate() {
            assert!(
                (*a as f64 - b).abs() < 1e-3 * (1.0 + b.abs()),
                "action {i}: {a} vs {b}"
            );
        }
    });
    assert!(seen > 200, "{seen}");
}

#[test]
fn the_agent_plays_the_best_scoring_legal_action() {
    let policy = Arc::new(build(&parts(6, OBS_CHANNELS), OBS_VERSION).unwrap());
    let mut agent = PolicyAgent::new(policy.clone());
    let mut scratch = policy.scratch();
    let mut out = vec![0f32; ACTION_SPACE_SIZE];
    let mut discards = 0;
    each_decision(|obs, view, legal| {
        policy.scores(obs, &mut scratch, &mut out);
        let offer = view.tile_on_offer();
        let index = |a| action_index(a, offer).unwrap();
        let mut best = legal[0];
        for &a in legal.iter() {
            let (sa, sb) = (out[index(a)], out[index(best)]);
            if sa > sb || (sa == sb && index(a) < index(best)) {
                best = a;
            }
        }
        let chosen = agent.act(view, legal);
        assert_eq!(chosen, best);
        discards += usize::from(index(chosen) < 68);
    });
    assert!(discards > 100, "{discards}");
}

#[test]
fn round_trip_keeps_the_head_and_the_bytes() {
    let policy = build(&parts(7, OBS_CHANNELS), OBS_VERSION).unwrap();
    let bytes = policy.to_bytes();
    let loaded = Policy::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, policy);
    assert!(loaded.kind_head().is_some());
    assert_eq!(loaded.to_bytes(), bytes);
    let (_, header) = safetensors::SafeTensors::read_metadata(&bytes).unwrap();
    let meta = header.metadata().as_ref().unwrap();
    assert_eq!(meta["architecture"], "mlp_kinds");
    // Without the head the same trunk is a plain MLP file again.
    let plain = Policy::new(parts(7, OBS_CHANNELS).trunk).unwrap();
    let (_, header) = safetensors::SafeTensors::read_metadata(&plain.to_bytes()).unwrap();
    assert_eq!(header.metadata().as_ref().unwrap()["architecture"], "mlp");
}

/// A version-2 kinds policy reads the first 60 rows of each column and of the rows' maxima:
/// it scores exactly as the same weights padded with zeros for the rows version 3 appends.
#[test]
fn an_older_layout_reads_the_first_rows() {
    let rows = 60;
    let old = parts(8, rows);
    let old_policy = build(&old, 2).unwrap();
    assert_eq!(
        Policy::from_bytes(&old_policy.to_bytes()).unwrap(),
        old_policy
    );
    let mut new = parts(8, OBS_CHANNELS);
    let mut first = vec![0f32; TRUNK * OBS_LEN];
    for r in 0..TRUNK {
        first[r * OBS_LEN..r * OBS_LEN + rows * OBS_WIDTH].copy_from_slice(
            &old.trunk[0].weights[r * rows * OBS_WIDTH..(r + 1) * rows * OBS_WIDTH],
        );
    }
    new.trunk[0] = Layer::new(OBS_LEN, TRUNK, first, old.trunk[0].bias.clone());
    new.trunk[1] = old.trunk[1].clone();
    let mut input = vec![0f32; HIDDEN * 2 * OBS_CHANNELS];
    for i in 0..HIDDEN {
        let from = &old.input.weights[i * 2 * rows..(i + 1) * 2 * rows];
        let to = &mut input[i * 2 * OBS_CHANNELS..(i + 1) * 2 * OBS_CHANNELS];
        to[..rows].copy_from_slice(&from[..rows]);
        to[OBS_CHANNELS..OBS_CHANNELS + rows].copy_from_slice(&from[rows..]);
    }
    new.input = Layer::new(2 * OBS_CHANNELS, HIDDEN, input, old.input.bias.clone());
    new.context = old.context.clone();
    new.output = old.output.clone();
    let new_policy = build(&new, OBS_VERSION).unwrap();
    let (mut a, mut b) = (old_policy.scratch(), new_policy.scratch());
    let (mut sa, mut sb) = (vec![0f32; ACTION_SPACE_SIZE], vec![0f32; ACTION_SPACE_SIZE]);
    each_decision(|obs, _, _| {
        old_policy.scores(obs, &mut a, &mut sa);
        new_policy.scores(obs, &mut b, &mut sb);
        assert_eq!(sa, sb);
    });
}

/// A file of a linear trunk and the head tensors given, under `architecture`.
fn file(architecture: &str, head: &[Tensor]) -> Vec<u8> {
    let mut tensors = zero_linear();
    tensors.extend(head.iter().cloned());
    let mut meta = metadata(1);
    meta.insert("architecture".to_string(), architecture.to_string());
    policy_files::file(&tensors, meta)
}

/// A well-formed head for a linear trunk (whose last layer reads the observation itself),
/// with `change` applied to the tensor of that name.
fn head(change: Option<Tensor>) -> Vec<Tensor> {
    let mut tensors = vec![
        (
            "kinds.input.weight",
            vec![HIDDEN, 2 * OBS_CHANNELS],
            vec![0.5; HIDDEN * 2 * OBS_CHANNELS],
        ),
        ("kinds.input.bias", vec![HIDDEN], vec![0.0; HIDDEN]),
        (
            "kinds.context.weight",
            vec![HIDDEN, OBS_LEN],
            vec![0.0; HIDDEN * OBS_LEN],
        ),
        (
            "kinds.output.weight",
            vec![4, HIDDEN],
            vec![1.0; 4 * HIDDEN],
        ),
        ("kinds.output.bias", vec![4], vec![0.0; 4]),
    ];
    if let Some((name, shape, values)) = change {
        let t = tensors.iter_mut().find(|t| t.0 == name).unwrap();
        t.1 = shape;
        t.2 = values;
    }
    tensors
}

/// The refusal's message (a policy's `Debug` is its every weight: never printed).
fn refusal(bytes: &[u8]) -> String {
    match Policy::from_bytes(bytes) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn misshapen_heads_are_refused_by_name() {
    let good = Policy::from_bytes(&file("mlp_kinds", &head(None))).unwrap();
    assert_eq!(good.kind_head().unwrap().rows(), OBS_CHANNELS);

    let cases: [(Option<Tensor>, &str); 6] = [
        // Transposed: the right number of weights in the wrong shape.
        (
            Some((
                "kinds.context.weight",
                vec![OBS_LEN, HIDDEN],
                vec![0.0; HIDDEN * OBS_LEN],
            )),
            &format!("the context weight has shape [{OBS_LEN}, 8], expected [8, {OBS_LEN}]"),
        ),
        (
            Some((
                "kinds.input.weight",
                vec![HIDDEN, OBS_CHANNELS],
                vec![0.0; HIDDEN * OBS_CHANNELS],
            )),
            &format!("takes {OBS_CHANNELS} values, expected {}", 2 * OBS_CHANNELS),
        ),
        (
            Some((
                "kinds.context.weight",
                vec![HIDDEN, 10],
                vec![0.0; HIDDEN * 10],
            )),
            &format!("the context weight has shape [8, 10], expected [8, {OBS_LEN}]"),
        ),
        (
            Some((
                "kinds.output.weight",
                vec![3, HIDDEN],
                vec![0.0; 3 * HIDDEN],
            )),
            "expected 4 × 8",
        ),
        (
            Some(("kinds.output.bias", vec![4], vec![0.0, f32::NAN, 0.0, 0.0])),
            "NaN",
        ),
        (
            Some(("kinds.input.bias", vec![2, 4], vec![0.0; 8])),
            "kinds.input.bias has shape [2, 4], expected [8]",
        ),
    ];
    for (change, want) in cases {
        let message = refusal(&file("mlp_kinds", &head(change)));
        assert!(
            message.starts_with("per-kind head:") && message.contains(want),
            "{message}"
        );
    }

    let mut missing = head(None);
    missing.retain(|t| t.0 != "kinds.output.bias");
    assert_eq!(
        refusal(&file("mlp_kinds", &missing)),
        "policy file has no tensor \"kinds.output.bias\""
    );
    // Head tensors in a plain MLP file, and an architecture nobody knows.
    let message = refusal(&file("mlp", &head(None)));
    assert!(
        message.starts_with("policy file holds tensor \"kinds.") && message.contains("not a layer"),
        "{message}"
    );
    assert_eq!(
        refusal(&file("conv", &[])),
        "policy file metadata architecture is \"conv\", expected \"mlp\" or \"mlp_kinds\""
    );
}
