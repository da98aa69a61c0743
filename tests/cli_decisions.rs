//! `taisim simulate --decisions` run as the real binary: each row holds exactly the
//! observation, mask and action of its decision (replayed from the deal's seed), the stored
//! numerators give back the encoder's `f32` bit for bit, and the table is the same on one
//! and two threads and after a resume.

use std::path::Path;

use taisim_agents::{
    build_agents, encode_slice, parse_agents, play_deal_with, write_mask, ACTION_SPACE_SIZE,
    OBS_LEN,
};
use taisim_datasets::{load_decisions, obs_scale, DecisionSeats};
use taisim_score::{score_deal, Variant};
use taisim_sim::{deal_seed, ActionList, Deal, DealContext};

mod support;
use support::{stderr, taisim};

fn simulate(out: &Path, extra: &[&str]) {
    let o = taisim(
        &[
            &[
                "simulate",
                "--deals",
                "600",
                "--seed",
                "21",
                "--agents",
                "greedy,random,defensive,greedy",
                "--part-size",
                "250",
                "--decisions",
                "all",
                "--quiet",
                "--out",
                out.to_str().unwrap(),
            ][..],
            extra,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// What the deal showed at one decision with a real choice.
struct Seen {
    step: u32,
    seat: u8,
    obs: Vec<f32>,
    mask: Vec<u8>,
    action: usize,
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap()
}

/// Every decision with a real choice of every seat is a row, and each row is what the
/// deal replayed from its seed shows at that step: the observation (numerators × scale,
/// bit for bit), the legal mask, the action and the seat's settlement.
#[test]
fn rows_replay_from_the_seed_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    simulate(&out, &[]);
    let d = load_decisions(&out, None).unwrap();
    assert_eq!(
        d.rows as u64,
        manifest(&out)["rows"]["decisions"].as_u64().unwrap()
    );
    assert_eq!(d.obs.len(), d.rows * OBS_LEN);
    assert_eq!(d.mask.len(), d.rows * ACTION_SPACE_SIZE);

    let variant = Variant::builtin("taiwan16").unwrap();
    let specs = parse_agents("greedy,random,defensive,greedy").unwrap();
    let scale = obs_scale();
    let mut row = 0;
    let mut checked_cells = 0u64;
    for deal_id in 0..600u64 {
        let mut agents = build_agents(&specs, &std::sync::Arc::new(variant.clone())).unwrap();
        let seed = deal_seed(21, deal_id);
        let mut deal = Deal::new(variant.rules(), seed, DealContext::FIRST).unwrap();
        // What the deal showed at each decision with a real choice.
        let mut expected: Vec<Seen> = Vec::new();
        let mut step = 0u32;
        let mut legal = ActionList::new();
        play_deal_with(&mut deal, &mut agents, &mut ActionList::new(), |d, a| {
            let seat = d.to_act().unwrap();
            d.legal_actions(&mut legal);
            let mut mask = vec![0u8; ACTION_SPACE_SIZE];
            if write_mask(&legal, d.tile_on_offer(), &mut mask) > 1 {
                let mut obs = vec![0f32; OBS_LEN];
                encode_slice(&d.view(seat), &mut obs);
                let index = taisim_agents::action_to_index(a, d).unwrap();
                expected.push(Seen {
                    step,
                    seat: seat as u8,
                    obs,
                    mask,
                    action: index,
                });
            }
            step += 1;
        });
        let st = variant.settlement();
        let pay = score_deal(&deal, &variant, st.base, st.per_tai)
            .unwrap()
            .payments
            .0;
        for Seen {
            step,
            seat,
            obs,
            mask,
            action,
        } in expected
        {
            assert_eq!(d.deal[row], deal_id);
            assert_eq!(d.step[row], step, "deal {deal_id}");
            assert_eq!(d.seat[row], seat);
            assert_eq!(d.action[row], action as i64);
            assert_eq!(d.reward[row], pay[seat as usize] as f32);
            assert_eq!(
                &d.mask[row * ACTION_SPACE_SIZE..][..ACTION_SPACE_SIZE],
                &mask[..]
            );
            let nums = &d.obs[row * OBS_LEN..][..OBS_LEN];
            for (i, (&v, &k)) in obs.iter().zip(nums).enumerate() {
                let back = k as f32 * scale[i];
                assert_eq!(
                    back.to_bits(),
                    v.to_bits(),
                    "deal {deal_id} step {step} cell {i}: {k} × {} ≠ {v}",
                    scale[i]
                );
                checked_cells += (v != 0.0) as u64;
            }
            row += 1;
        }
    }
    assert_eq!(row, d.rows, "no row beyond the replayed decisions");
    assert!(d.rows > 20_000, "{} rows", d.rows);
    assert!(checked_cells > 1_000_000, "{checked_cells} nonzero cells");
    // Rewards are settlement points: zero-sum per deal over the seats, so some are negative.
    assert!(d.reward.iter().any(|&r| r < 0.0) && d.reward.iter().any(|&r| r > 0.0));

    let east = load_decisions(&out, Some("E".parse().unwrap())).unwrap();
    assert!(east.rows > 0 && east.seat.iter().all(|&s| s == 0));
    let all_east = d.seat.iter().filter(|&&s| s == 0).count();
    assert_eq!(east.rows, all_east);
}

#[test]
fn the_table_is_the_same_on_one_and_two_threads_and_after_a_resume() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    simulate(&one, &["--threads", "1"]);
    simulate(&two, &["--threads", "2"]);
    let (m1, m2) = (manifest(&one), manifest(&two));
    let sums = |m: &serde_json::Value| -> Vec<serde_json::Value> {
        m["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["decisions"]["sha256"].clone())
            .collect()
    };
    assert_eq!(sums(&m1), sums(&m2));
    assert_eq!(sums(&m1).len(), 3);
    assert!(sums(&m1).iter().all(|s| s.is_string()));

    // A lost decisions file is played again on resume, to the same bytes.
    std::fs::remove_file(two.join("decisions").join("part-00001.parquet")).unwrap();
    let o = taisim(&[
        "simulate",
        "--resume",
        "--quiet",
        "--out",
        two.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(sums(&m1), sums(&manifest(&two)));

    // Resuming with other decision seats is refused by name.
    let o = taisim(&[
        "simulate",
        "--resume",
        "--quiet",
        "--decisions",
        "E",
        "--out",
        two.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("decisions"), "{}", stderr(&o));
}

#[test]
fn chosen_seats_only_and_bad_seat_lists_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ew");
    let o = taisim(&[
        "simulate",
        "--deals",
        "200",
        "--agents",
        "random",
        "--decisions",
        "E,W",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let d = load_decisions(&out, None).unwrap();
    assert!(d.rows > 0);
    assert!(d.seat.iter().all(|&s| s == 0 || s == 2));
    assert!(d.seat.contains(&2));
    assert_eq!(manifest(&out)["spec"]["decisions"], "E,W");

    for bad in ["X", "E,E", "", "E;S"] {
        let o = taisim(&["simulate", "--deals", "10", "--decisions", bad, "--quiet"]);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
    assert_eq!("all".parse::<DecisionSeats>(), Ok(DecisionSeats::ALL));
    assert_eq!("N,E".parse::<DecisionSeats>().unwrap().to_string(), "E,N");
}

#[test]
fn loading_names_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let err = load_decisions(&dir.path().join("nothing"), None).unwrap_err();
    assert!(err.to_string().contains("nothing"), "{err}");

    let plain = dir.path().join("plain");
    let o = taisim(&[
        "simulate",
        "--deals",
        "20",
        "--quiet",
        "--out",
        plain.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = load_decisions(&plain, None).unwrap_err();
    assert!(err.to_string().contains("no decisions table"), "{err}");

    let out = dir.path().join("cut");
    simulate(&out, &[]);
    let part = out.join("decisions").join("part-00000.parquet");
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(&part, &bytes[..bytes.len() / 2]).unwrap();
    let err = load_decisions(&out, None).unwrap_err();
    assert!(err.to_string().contains("part-00000"), "{err}");
}

#[test]
fn the_schema_describes_the_decisions_table() {
    let o = taisim(&["simulate", "--schema"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("decisions/part-NNNNN.parquet"), "{text}");
    for column in [
        "obs ",
        "mask ",
        "action ",
        "reward ",
        "obs_version ",
        "search_action ",
        "search_mean ",
        "search_advantage ",
        "search_rollouts ",
    ] {
        assert!(text.contains(column), "{column}");
    }
    assert!(text.contains("--label-with"), "{text}");
}

/// `--label-with search:N` labels the recorded decisions of other agents and is recorded in
/// the manifest (a resume keeps it, another labeller is refused naming it); a labeller that
/// is not a search, or without `--decisions`, is refused with exit 2 before anything runs.
#[test]
fn a_labeller_labels_the_decisions_and_is_part_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("labelled");
    let args = |label: &'static str| -> Vec<String> {
        [
            "simulate",
            "--deals",
            "3",
            "--agents",
            "greedy,random,greedy,trained",
            "--decisions",
            "E,N",
            "--label-with",
            label,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |extra: &[&str], label| {
        let mut a = args(label);
        a.extend(extra.iter().map(|s| s.to_string()));
        taisim(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(&[], "search:16");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(manifest(&out)["spec"]["label_with"], "search:16");
    let d = load_decisions(&out, None).unwrap();
    let labels = d.search.as_ref().expect("labelled");
    assert!(d.rows > 10 && labels.action.iter().all(|&a| a >= 0));
    assert!(labels.rollouts.contains(&16));

    let o = run(&["--resume"], "search:16");
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["--resume"], "search:32");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("labeller"), "{}", stderr(&o));

    for (extra, needle) in [
        (
            &["--label-with", "greedy", "--decisions", "all"][..],
            "search or search:N",
        ),
        (&["--label-with", "search:8"][..], "record decisions too"),
        (
            &["--label-with", "search:x", "--decisions", "all"][..],
            "search:",
        ),
    ] {
        let mut a = vec!["simulate", "--deals", "2", "--quiet"];
        a.extend(extra);
        let o = taisim(&a);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{extra:?}: {}", stderr(&o));
    }
}
