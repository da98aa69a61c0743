//! `taisim arena` run as the real binary: the JSON's fields, determinism over thread
//! counts, a candidate identical to its baseline scoring exactly zero, a weak candidate
//! scoring clearly below a strong one, and bad arguments exiting with status 2.

mod support;
use support::{stderr, taisim};

/// Runs `taisim arena … --json` and parses its one line.
fn arena_json(args: &[&str]) -> serde_json::Value {
    let o = taisim(&[&["arena", "--json"], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

fn f(v: &serde_json::Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} missing: {v}"))
}

#[test]
fn json_has_the_paired_statistic_and_both_sides_rates() {
    let v = arena_json(&[
        "--candidate",
        "greedy",
        "--baseline",
        "defensive",
        "--deals",
        "300",
        "--seed",
        "4",
    ]);
    assert_eq!(v["candidate"], "greedy");
    assert_eq!(v["baseline"], "defensive");
    assert_eq!(v["variant"], "taiwan16");
    assert_eq!(v["seed"], 4);
    assert_eq!(v["deals"], 300);
    assert_eq!(v["deals_played"], 1500);
    let (mean, lo, hi) = (f(&v, "mean_diff"), f(&v, "ci95_low"), f(&v, "ci95_high"));
    assert!(lo < mean && mean < hi, "{v}");
    let se = f(&v, "std_error");
    assert!((hi - lo - 2.0 * 1.959_963_984_540_054 * se).abs() < 1e-9);
    // The paired mean is the difference of the two sides' points per deal: both count the
    // same 4 × 300 seat-deals.
    let c = &v["candidate_stats"];
    let b = &v["baseline_stats"];
    assert!((mean - (f(c, "points_per_deal") - f(b, "points_per_deal"))).abs() < 1e-9);
    // Settlement is zero-sum on the baseline's own tables.
    assert!(f(b, "points_per_deal").abs() < 1e-12, "{b}");
    for side in [c, b] {
        for key in ["win_rate", "self_draw_rate", "deal_in_rate"] {
            let x = f(side, key);
            assert!((0.0..=1.0).contains(&x), "{key} {x}");
        }
        assert!(f(side, "self_draw_rate") <= f(side, "win_rate"));
        assert!(f(side, "win_rate") > 0.0);
    }
}

#[test]
fn the_same_seed_gives_the_same_json_on_one_and_two_threads() {
    let args = [
        "--candidate",
        "random",
        "--baseline",
        "greedy",
        "--deals",
        "700",
        "--seed",
        "11",
    ];
    let one = arena_json(&[&args[..], &["--threads", "1"]].concat());
    let two = arena_json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    let other = arena_json(&[&args[..6], &["--seed", "12", "--threads", "2"]].concat());
    assert_ne!(one["mean_diff"], other["mean_diff"], "the seed matters");
}

#[test]
fn a_candidate_identical_to_its_baseline_scores_exactly_zero() {
    for agent in ["greedy", "random"] {
        let v = arena_json(&[
            "--candidate",
            agent,
            "--baseline",
            agent,
            "--deals",
            "400",
            "--seed",
            "3",
            "--threads",
            "2",
        ]);
        assert_eq!(v["mean_diff"], 0.0, "{v}");
        assert_eq!(v["ci95_low"], 0.0, "{v}");
        assert_eq!(v["ci95_high"], 0.0, "{v}");
        assert_eq!(v["candidate_stats"], v["baseline_stats"]);
    }
}

#[test]
fn random_against_greedy_is_clearly_negative() {
    let v = arena_json(&[
        "--candidate",
        "random",
        "--baseline",
        "greedy",
        "--deals",
        "1000",
        "--seed",
        "1",
    ]);
    assert!(f(&v, "ci95_high") < 0.0, "{v}");
    let c = &v["candidate_stats"];
    let b = &v["baseline_stats"];
    assert!(f(c, "win_rate") < f(b, "win_rate"), "{v}");
    assert!(f(c, "deal_in_rate") > f(b, "deal_in_rate"), "{v}");
    // And the other way round.
    let w = arena_json(&[
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--deals",
        "1000",
        "--seed",
        "1",
    ]);
    assert!(f(&w, "ci95_low") > 0.0, "{w}");
}

/// The shipped policy (`trained`, built into the binary) plays every shipped variant to the
/// end, and under the variant it was trained on it clearly beats random play: a policy file
/// that was misread, or an observation encoded differently from the training's, would not.
#[test]
fn the_shipped_policy_plays_every_variant_and_beats_random() {
    for variant in [
        "taiwan16",
        "taiwan16-house",
        "taiwan16-2015",
        "mahjongtime",
        "taizhou",
    ] {
        let v = arena_json(&[
            "--candidate",
            "trained",
            "--baseline",
            "random",
            "--variant",
            variant,
            "--deals",
            "200",
            "--seed",
            "3",
        ]);
        assert_eq!(v["candidate"], "trained");
        assert_eq!(v["deals_played"], 1000, "{variant}: {v}");
        if variant == "taiwan16" {
            assert!(f(&v, "ci95_low") > 0.0, "{v}");
            let c = &v["candidate_stats"];
            assert!(
                f(c, "win_rate") > f(&v["baseline_stats"], "win_rate"),
                "{v}"
            );
        }
    }
}

#[test]
fn the_table_for_people_is_the_default() {
    let o = taisim(&[
        "arena",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--deals",
        "50",
        "--variant",
        "taiwan16-house",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    for needle in [
        "greedy (candidate) vs random (baseline), taiwan16-house",
        "50 walls × 5 = 250 deals",
        "mean_diff",
        "95% CI",
        "win rate",
        "self-draw rate",
        "deal-in rate",
    ] {
        assert!(text.contains(needle), "{needle:?} not in\n{text}");
    }
}

/// `--field`: both sides against the field, eight tables a wall; the candidate's side is
/// exactly its own match against the field, so two agents that play alike score exactly
/// zero against each other, and the table for people names the field.
#[test]
fn a_field_plays_both_sides_against_it() {
    let args = |candidate: &'static str, baseline: &'static str| {
        [
            "--candidate",
            candidate,
            "--baseline",
            baseline,
            "--deals",
            "60",
            "--seed",
            "9",
        ]
    };
    let both = arena_json(&[&args("value", "defensive")[..], &["--field", "greedy"]].concat());
    assert_eq!(both["field"], "greedy");
    assert_eq!(
        (both["deals"].as_u64(), both["deals_played"].as_u64()),
        (Some(60), Some(480))
    );
    let value = arena_json(&args("value", "greedy"));
    let defensive = arena_json(&args("defensive", "greedy"));
    assert!(value.get("field").is_none(), "{value}");
    assert_eq!(both["candidate_stats"], value["candidate_stats"]);
    assert_eq!(both["baseline_stats"], defensive["candidate_stats"]);
    let expected = f(&value, "mean_diff") - f(&defensive, "mean_diff");
    assert!((f(&both, "mean_diff") - expected).abs() < 1e-9, "{both}");
    let alike = arena_json(&[&args("greedy", "greedy")[..], &["--field", "random"]].concat());
    assert_eq!((f(&alike, "mean_diff"), f(&alike, "std_error")), (0.0, 0.0));
    let o = taisim(
        &[
            &["arena"],
            &args("value", "defensive")[..],
            &["--field", "greedy"],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("each against greedy (field)") && text.contains("60 walls × 8 = 480 deals"),
        "{text}"
    );
}

#[test]
fn bad_arguments_exit_with_status_2_and_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "not json").unwrap();
    let junk_policy = format!("policy:{}", junk.display());
    let cases: [(&[&str], &str); 9] = [
        (&["--candidate", "smart"], "unknown agent \"smart\""),
        (&["--baseline", "greedy,random"], "unknown agent"),
        (&["--candidate", "policy:"], "weights file path"),
        (
            &["--candidate", "policy:/no/such/file.json"],
            "/no/such/file.json",
        ),
        (
            &["--candidate", junk_policy.as_str()],
            "not a safetensors file",
        ),
        (&["--deals", "0"], "at least 1"),
        (&["--deals", "-3"], "must be at least 1"),
        (&["--variant", "nosuch"], "nosuch"),
        (
            &["--field", "greedier"],
            "--field: unknown agent \"greedier\"",
        ),
    ];
    for (change, needle) in cases {
        let mut args = vec![
            "arena",
            "--candidate",
            "greedy",
            "--baseline",
            "random",
            "--deals",
            "10",
        ];
        for pair in change.chunks(2) {
            let at = args.iter().position(|a| *a == pair[0]);
            match at {
                Some(i) => args[i + 1] = pair[1],
                None => args.extend_from_slice(pair),
            }
        }
        let o = taisim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    let o = taisim(&["arena", "--candidate", "greedy", "--baseline", "random"]);
    assert_eq!(o.status.code(), Some(2), "--deals is required");
    let o = taisim(&[
        "arena",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--deals",
        "5",
        "--threads",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Progress goes to stderr, never into the JSON on stdout; `--quiet` silences it and
/// conflicts with `--progress`.
#[test]
fn progress_stays_off_stdout_and_quiet_conflicts_with_it() {
    let args = [
        "arena",
        "--candidate",
        "greedy",
        "--baseline",
        "random",
        "--deals",
        "20",
        "--json",
    ];
    let quiet = taisim(&[&args[..], &["--quiet"]].concat());
    assert!(quiet.status.success(), "{}", stderr(&quiet));
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
    for mode in ["lines", "bar", "auto"] {
        let shown = taisim(&[&args[..], &["--progress", mode]].concat());
        assert!(shown.status.success(), "{}", stderr(&shown));
        assert_eq!(shown.stdout, quiet.stdout, "--progress {mode}");
    }
    let both = taisim(&[&args[..], &["--quiet", "--progress", "bar"]].concat());
    assert_eq!(both.status.code(), Some(2));
    assert!(stderr(&both).contains("--quiet"), "{}", stderr(&both));
}

/// Plain `search` is reported by its name and, beside it, its settings in full: the name
/// alone does not say which search a report measured, as a later taisim may tune it
/// otherwise. A name that says its settings has no second spelling.
#[test]
fn plain_search_is_reported_with_its_settings_in_full() {
    let args = [
        "arena",
        "--candidate",
        "search",
        "--baseline",
        "search:2",
        "--deals",
        "1",
        "--threads",
        "1",
        "--quiet",
    ];
    let full = "search:2048:indifference=0.05:opening=0.2:opening_discards=32";
    let o = taisim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains(&format!("\nsearch is {full}\n")), "{text}");
    assert!(!text.contains("search:2 is"), "{text}");
    let v = arena_json(&args[1..]);
    assert_eq!(v["candidate"], "search");
    assert_eq!(v["candidate_in_full"], full);
    assert!(v.get("baseline_in_full").is_none(), "{v}");
}
