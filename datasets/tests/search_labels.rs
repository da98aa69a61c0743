//! Search labels in the decisions table: every labelled row recomputed by running the search
//! agent on the same state, the labeller's (`label_with`) rows too while the seats play their
//! own actions, the same files on one thread and two, and the settings refused by name.

use std::path::Path;
use std::sync::Arc;

use taisim_agents::search::{SearchAgent, SearchConfig};
use taisim_agents::{
    action_to_index, build_agents, parse_agents, play_deal_with, Agent, ACTION_SPACE_SIZE,
};
use taisim_datasets::{
    load_decisions, part_path, simulate, Decisions, HarnessError, RunOptions, RunRequest, Table,
};
use taisim_score::Variant;
use taisim_sim::{deal_seed, ActionList, Deal, DealContext};

const SEED: u64 = 5;
const BUDGET: u32 = 24;

fn run(out: &Path, agents: &str, label_with: Option<&str>, threads: usize) -> Decisions {
    let spec = RunRequest {
        deals: Some(6),
        seed: Some(SEED),
        agents: Some(agents.into()),
        part_size: Some(4),
        decisions: Some("all".parse().unwrap()),
        label_with: label_with.map(str::to_string),
        ..RunRequest::default()
    }
    .spec(out, false)
    .unwrap();
    let options = RunOptions {
        threads: Some(threads),
        ..RunOptions::default()
    };
    simulate(&spec, out, &options).unwrap();
    load_decisions(out, None).unwrap()
}

/// Whether two loads are the same, field by field (NaN labels compared by their bits), without
/// printing megabytes of arrays when they are not.
fn same(a: &Decisions, b: &Decisions) -> Result<(), &'static str> {
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let checks = [
        (a.rows == b.rows, "rows"),
        (a.obs == b.obs, "obs"),
        (a.mask == b.mask, "mask"),
        (a.action == b.action, "action"),
        (a.reward == b.reward, "reward"),
        (a.seat == b.seat, "seat"),
        (a.deal == b.deal, "deal"),
        (a.step == b.step, "step"),
        (a.search.is_some() == b.search.is_some(), "labelled"),
    ];
    if let Some((_, what)) = checks.iter().find(|(ok, _)| !ok) {
        return Err(what);
    }
    if let (Some(x), Some(y)) = (&a.search, &b.search) {
        let labels = [
            (x.action == y.action, "search_action"),
            (bits(&x.mean) == bits(&y.mean), "search_mean"),
            (bits(&x.advantage) == bits(&y.advantage), "search_advantage"),
            (x.rollouts == y.rollouts, "search_rollouts"),
        ];
        if let Some((_, what)) = labels.iter().find(|(ok, _)| !ok) {
            return Err(what);
        }
    }
    Ok(())
}

/// Plays the run's deals again with `agents` and, at every recorded row, runs a fresh
/// `search:BUDGET` on the same state: the row's labels must be what it works out, and the row's
/// `search_action` its choice. Rows at `unlabelled` seats must carry no labels. Returns the
/// rows checked with estimates.
fn recompute(d: &Decisions, agents: &str, unlabelled: &[u8]) -> usize {
    let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
    let labels = d.search.as_ref().expect("a labelled table");
    assert_eq!(labels.action.len(), d.rows);
    for v in [&labels.mean, &labels.advantage] {
        assert_eq!(v.len(), d.rows * ACTION_SPACE_SIZE);
    }
    assert_eq!(labels.rollouts.len(), d.rows * ACTION_SPACE_SIZE);
    let mut expert = SearchAgent::new(Arc::clone(&variant), SearchConfig::with_budget(BUDGET));
    let mut row = 0;
    let mut estimated = 0;
    for deal_id in 0..6u64 {
        let mut players = build_agents(&parse_agents(agents).unwrap(), &variant).unwrap();
        let seed = deal_seed(SEED, deal_id);
        let mut deal = Deal::new(variant.rules(), seed, DealContext::FIRST).unwrap();
        let mut step = 0u32;
        let mut legal = ActionList::new();
        play_deal_with(
            &mut deal,
            &mut players,
            &mut ActionList::new(),
            |deal, action| {
                let here = row < d.rows && d.deal[row] == deal_id && d.step[row] == step;
                step += 1;
                if !here {
                    return;
                }
                let seat = deal.to_act().unwrap();
                assert_eq!(d.seat[row], seat as u8);
                assert_eq!(
                    d.action[row],
                    action_to_index(action, deal).unwrap() as i64,
                    "the seat plays its own agent's action (row {row})"
                );
                let at = row * ACTION_SPACE_SIZE;
                let mean = &labels.mean[at..at + ACTION_SPACE_SIZE];
                let advantage = &labels.advantage[at..at + ACTION_SPACE_SIZE];
                let rollouts = &labels.rollouts[at..at + ACTION_SPACE_SIZE];
                if unlabelled.contains(&(seat as u8)) {
                    assert_eq!(labels.action[row], -1, "row {row}");
                    assert!(mean.iter().chain(advantage).all(|v| v.is_nan()));
                    assert!(rollouts.iter().all(|&r| r == 0));
                    row += 1;
                    return;
                }
                expert.reset(seed, seat);
                deal.legal_actions(&mut legal);
                let chosen = expert.act(&deal.view(seat), &legal);
                let decision = expert.last_decision();
                assert_eq!(
                    labels.action[row],
                    action_to_index(chosen, deal).unwrap() as i64,
                    "row {row}: the search's choice"
                );
                let mut expected_mean = [f32::NAN; ACTION_SPACE_SIZE];
                let mut expected_advantage = [f32::NAN; ACTION_SPACE_SIZE];
                let mut expected_rollouts = [0u32; ACTION_SPACE_SIZE];
                for e in decision.estimates.iter().filter(|e| e.rollouts > 0) {
                    let i = action_to_index(e.action, deal).unwrap();
                    expected_mean[i] = e.mean as f32;
                    expected_advantage[i] = e.advantage as f32;
                    expected_rollouts[i] = e.rollouts;
                    // Only legal actions are estimated.
                    assert_eq!(
                        d.mask[at + i],
                        1,
                        "row {row}: index {i} estimated but illegal"
                    );
                }
                let same =
                    |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
                assert!(same(mean, &expected_mean), "row {row}: means");
                assert!(
                    same(advantage, &expected_advantage),
                    "row {row}: advantages"
                );
                assert_eq!(rollouts, &expected_rollouts[..], "row {row}: rollouts");
                if !decision.estimates.is_empty() {
                    estimated += 1;
                    // The default (greedy's choice) was played on every determinization and is
                    // its own baseline.
                    let default = action_to_index(decision.default.unwrap(), deal).unwrap();
                    assert_eq!(rollouts[default], decision.determinizations);
                    assert_eq!(advantage[default], 0.0);
                }
                row += 1;
            },
        );
    }
    assert_eq!(row, d.rows, "every row was reached by replaying the deals");
    estimated
}

/// A search agent at a recorded seat labels its own rows with what it worked out; the
/// other seats' rows carry no labels; one thread and two write the same files.
#[test]
fn a_search_agents_rows_carry_its_estimates() {
    let dir = tempfile::tempdir().unwrap();
    let agents = format!("search:{BUDGET},greedy,random,search:{BUDGET}");
    let one = run(&dir.path().join("one"), &agents, None, 1);
    let two = run(&dir.path().join("two"), &agents, None, 2);
    assert_eq!(same(&one, &two), Ok(()));
    for p in 0..2 {
        let read = |run: &str| std::fs::read(part_path(&dir.path().join(run), Table::Decisions, p));
        assert_eq!(read("one").unwrap(), read("two").unwrap(), "part {p}");
    }
    let estimated = recompute(&one, &agents, &[1, 2]);
    assert!(estimated > 20, "{estimated} rows with estimates");

    // Keeping some seats keeps their rows' labels with them.
    let out = dir.path().join("one");
    let some = load_decisions(&out, Some("S,N".parse().unwrap())).unwrap();
    let (all, labels) = (&one, one.search.as_ref().unwrap());
    let kept: Vec<usize> = (0..all.rows).filter(|&i| all.seat[i] % 2 == 1).collect();
    assert_eq!(some.rows, kept.len());
    let picked = |v: &[f32]| -> Vec<u32> {
        kept.iter()
            .flat_map(|&i| &v[i * ACTION_SPACE_SIZE..(i + 1) * ACTION_SPACE_SIZE])
            .map(|x| x.to_bits())
            .collect()
    };
    let got = some.search.as_ref().unwrap();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&got.mean), picked(&labels.mean));
    assert_eq!(bits(&got.advantage), picked(&labels.advantage));
    let actions: Vec<i64> = kept.iter().map(|&i| labels.action[i]).collect();
    assert_eq!(got.action, actions);
    assert!(got.action.iter().any(|&a| a >= 0) && got.action.contains(&-1));
}

/// `label_with`: every recorded row labelled by the search while each seat plays its own
/// agent's action (the rows other than the labels are those of the same run unlabelled).
#[test]
fn a_labeller_labels_the_states_other_agents_reach() {
    let dir = tempfile::tempdir().unwrap();
    let agents = "trained,greedy,random,defensive";
    let label = format!("search:{BUDGET}");
    let labelled = run(&dir.path().join("one"), agents, Some(&label), 1);
    let two = run(&dir.path().join("two"), agents, Some(&label), 2);
    assert_eq!(same(&labelled, &two), Ok(()));
    let plain = run(&dir.path().join("plain"), agents, None, 2);
    assert!(plain.search.is_none());
    let unlabelled = Decisions {
        search: None,
        ..labelled.clone()
    };
    assert_eq!(same(&unlabelled, &plain), Ok(()));
    let estimated = recompute(&labelled, agents, &[]);
    assert!(estimated > 50, "{estimated} rows with estimates");
    let labels = labelled.search.as_ref().unwrap();
    assert!(labels.action.iter().all(|&a| a >= 0));
    // The labeller disagrees with the seats somewhere: the labels are its own.
    assert!(labels
        .action
        .iter()
        .zip(&labelled.action)
        .any(|(s, a)| s != a));
}

#[test]
fn a_labeller_must_be_a_search_and_needs_decisions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let ask = |label: &str, decisions: bool| {
        RunRequest {
            deals: Some(2),
            decisions: decisions.then(|| "all".parse().unwrap()),
            label_with: Some(label.into()),
            ..RunRequest::default()
        }
        .spec(&out, false)
        .unwrap_err()
    };
    let e = ask("greedy", true);
    assert!(matches!(e, HarnessError::Usage(_)), "{e:?}");
    assert!(e.to_string().contains("search or search:N"), "{e}");
    let e = ask("search:8", false);
    assert!(e.to_string().contains("record decisions too"), "{e}");
    let e = ask("search:0", true);
    assert!(e.to_string().contains("search:"), "{e}");
    assert!(!out.exists(), "nothing is written for a refused run");
}
