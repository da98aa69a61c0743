//! `taisim compare` as the real binary: its table, Markdown file and JSON, the warning when
//! no agent responds to the scoring table, and its exit codes (2 for runs of other walls and
//! for what is not a run).

use std::path::Path;

mod support;
use support::{stderr, stdout, taisim};

fn simulate(out: &Path, variant: &str, seed: &str, agents: &str) {
    simulate_with(out, variant, seed, agents, &[]);
}

/// Runs `a` under taiwan16 and `b` under a file `NAME.toml` extending it with `body`, both on
/// the walls of `seed` with `agents`: the pair of runs of two tables most tests here compare.
/// Returns the two run directories.
fn taiwan16_against(
    d: &Path,
    name: &str,
    body: &str,
    seed: &str,
    agents: &str,
) -> (String, String) {
    let file = d.join(format!("{name}.toml"));
    std::fs::write(
        &file,
        format!("extends = \"taiwan16\"\nname = \"{name}\"\n{body}"),
    )
    .unwrap();
    let (a, b) = (d.join("a"), d.join("b"));
    simulate(&a, "taiwan16", seed, agents);
    simulate(&b, file.to_str().unwrap(), seed, agents);
    (
        a.to_str().unwrap().to_string(),
        b.to_str().unwrap().to_string(),
    )
}

/// [`simulate`] with more flags.
fn simulate_with(out: &Path, variant: &str, seed: &str, agents: &str, more: &[&str]) {
    let mut args = vec![
        "simulate",
        "--deals",
        "300",
        "--part-size",
        "120",
        "--agents",
        agents,
        "--seed",
        seed,
        "--variant",
        variant,
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    let o = taisim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A minimum (起胡) is part of the table greedy answers: it lets a win below it go. Two tables
/// of the same engine rules, one with a minimum of 4, played by greedy: play differs, and the
/// comparison says greedy responds there rather than that some declaration is wrong.
#[test]
fn greedy_responds_to_a_minimum() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = taiwan16_against(d, "minimum-4", "[tai]\nmin = 4\n", "4", "greedy");
    let o = taisim(&["compare", &a, &b, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["same_engine_rules"], true);
    assert_eq!(doc["a"]["responds_to_scoring"][0], false);
    assert_eq!(doc["b"]["responds_to_scoring"][0], true);
    assert!(
        doc["outcome_changed"]["count"].as_u64().unwrap() > 0,
        "{doc}"
    );
    let warnings = doc["warnings"].to_string();
    assert!(!warnings.contains("declarations is wrong"), "{warnings}");
    assert!(warnings.contains("起胡"), "{warnings}");
    // Greedy responds in B: only A's greedy is said not to.
    assert!(
        warnings.contains("greedy in A does not respond"),
        "{warnings}"
    );
    assert!(!warnings.contains("greedy does not respond"), "{warnings}");
}

#[test]
fn compares_two_tables_played_by_greedy_and_says_greedy_does_not_respond() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = taiwan16_against(d, "chows-3", "[patterns]\nall_chows = 3\n", "4", "greedy");
    let (a, b) = (a.as_str(), b.as_str());

    let o = taisim(&["compare", a, b, "--top", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for needle in [
        "taisim compare: A",
        "taiwan16 (builtin:taiwan16",
        "chows-3 (",
        "300 deals of seed 4, the same in both runs",
        "warning: no agent here responds to the scoring table (greedy plays by the hand and the rules, not by tai)",
        "Deals that changed",
        "outcome differs",
        "Per deal",
        "Per win",
        "tai per win",
        "By seat",
        "Patterns",
        "the top 3 of",
        "compare.md",
    ] {
        assert!(text.contains(needle), "{needle} not in\n{text}");
    }
    let md = std::fs::read_to_string(Path::new(b).join("compare.md")).unwrap();
    assert!(md.starts_with("# taisim compare"), "{md}");
    assert!(md.contains("> **Warning**: no agent here responds"), "{md}");

    let o = taisim(&[
        "compare",
        a,
        b,
        "--json",
        "--markdown",
        d.join("c.md").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(d.join("c.md").is_file());
    assert_eq!(doc["deals"], 300);
    assert_eq!(doc["same_engine_rules"], true);
    assert_eq!(doc["outcome_changed"]["count"], 0);
    assert_eq!(doc["a"]["agents"][0], "greedy");
    assert_eq!(doc["b"]["responds_to_scoring"][0], false);
    // Play is the same, so every rate is unchanged; on these walls no hand is read
    // another way for its extra tai, so only tai moves.
    assert_eq!(doc["per_deal"]["won"]["difference"], 0.0);
    assert_eq!(
        doc["per_deal"]["won"]["ci95"],
        serde_json::json!([0.0, 0.0])
    );
    let chows = doc["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "all_chows")
        .expect("greedy wins some all_chows hands in 300 deals");
    assert_eq!(chows["share"]["difference"], 0.0);
    // Each all_chows win gains a tai (the reading with 平胡 can only gain).
    let tai = doc["per_win"]["tai_per_win"]["difference"]
        .as_f64()
        .unwrap();
    assert!(tai > 0.0, "{tai}");
}

#[test]
fn exit_codes_say_who_must_act() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = (d.join("a"), d.join("b"));
    simulate(&a, "taiwan16", "4", "random");
    simulate(&b, "taiwan16", "5", "random");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    // Itself: fine, every difference 0.
    let o = taisim(&[
        "compare",
        a,
        a,
        "--json",
        "--markdown",
        d.join("self.md").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        doc["per_deal"]["tai_per_deal"]["ci95"],
        serde_json::json!([0.0, 0.0])
    );
    // Other seeds: the walls differ.
    let o = taisim(&["compare", a, b]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("were not played on the same walls: A's seed is 4, B's is 5"),
        "{}",
        stderr(&o)
    );
    assert!(!Path::new(b).join("compare.md").exists());
    // Not a run.
    let o = taisim(&["compare", a, d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("holds no manifest.json"),
        "{}",
        stderr(&o)
    );
    // A directory as the Markdown path: refused before anything is read.
    let o = taisim(&["compare", a, a, "--markdown", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// taiwan16 and taizhou shuffle other tiles and break the wall with other dice: one seed
/// gives them other walls, so a deal-by-deal comparison would pair unrelated deals. It is
/// refused (exit 2), naming both procedures, with nothing written.
#[test]
fn variants_that_deal_other_walls_from_a_seed_are_not_paired() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = (d.join("a"), d.join("b"));
    simulate(&a, "taiwan16", "4", "greedy");
    simulate(&b, "taizhou", "4", "greedy");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    for args in [&["compare", a, b][..], &["compare", b, a, "--json"]] {
        let o = taisim(args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("were not played on the same walls"), "{err}");
        assert!(
            err.contains("taiwan16 shuffles 144 tiles (tiles = \"with_flowers\") and breaks the wall by dice = \"three_dice\""),
            "{err}"
        );
        assert!(
            err.contains("taizhou shuffles 136 tiles (tiles = \"no_flowers\") and breaks the wall by dice = \"two_rolls_of_two\""),
            "{err}"
        );
        assert!(err.contains("(deal 0's differ)"), "{err}");
        assert!(err.contains("taisim report"), "{err}");
        assert!(!err.contains("the same --seed"), "{err}");
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
    assert!(!Path::new(a).join("compare.md").exists());
    assert!(!Path::new(b).join("compare.md").exists());
}

/// taizhou's `per_tai` is money per point of the hands' value (taizhou.toml: per 胡), and the
/// header and the warning say so; the deal-in row names whose tile was won on, since under
/// all-pairs settlement that seat does not pay alone.
#[test]
fn a_points_variant_s_stakes_are_per_point() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = (d.join("a"), d.join("b"));
    simulate(&a, "taizhou", "4", "greedy");
    simulate_with(&b, "taizhou", "4", "greedy", &["--per-tai", "4"]);
    let o = taisim(&["compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("any difference comes from the stakes (A: base 0 + 2 per point (胡); B: base 0 + 4 per point (胡))"),
        "{text}"
    );
    assert!(text.contains("won on a seat's tile (deal-in)"), "{text}");
    assert!(
        !text.contains("per tai") && !text.contains("alone"),
        "{text}"
    );
}

/// Runs of one variant and one set of agents at other stakes: the header shows each run's
/// stakes, and the difference is put down to the stakes, never to the agents that are the
/// same; agents that differ too are named beside them.
#[test]
fn a_difference_of_stakes_is_named_not_blamed_on_the_agents() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b, c) = (d.join("a"), d.join("b"), d.join("c"));
    simulate(&a, "taiwan16", "4", "greedy");
    simulate_with(&b, "taiwan16", "4", "greedy", &["--base", "5"]);
    simulate_with(&c, "taiwan16", "4", "random", &["--base", "5"]);
    let (a, b, c) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        c.to_str().unwrap(),
    );

    let o = taisim(&["compare", a, b]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("agents greedy,greedy,greedy,greedy; settlement base 0 + 1 per tai"),
        "{text}"
    );
    assert!(
        text.contains("agents greedy,greedy,greedy,greedy; settlement base 5 + 1 per tai"),
        "{text}"
    );
    assert!(
        text.contains("warning: both runs play the same variant (taiwan16): any difference comes from the stakes (A: base 0 + 1 per tai; B: base 5 + 1 per tai)\n"),
        "{text}"
    );
    assert!(!text.contains("the agents"), "{text}");
    let o = taisim(&["compare", a, b, "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (doc["a"]["base"].as_i64(), doc["b"]["base"].as_i64()),
        (Some(0), Some(5))
    );

    let o = taisim(&["compare", a, c]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("any difference comes from the stakes (A: base 0 + 1 per tai; B: base 5 + 1 per tai) and the agents"),
        "{}",
        stdout(&o)
    );
    // The same stakes: no stakes in the header, and nothing differs at all.
    let o = taisim(&["compare", b, b]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("settlement"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("with the same stakes and agents on the same walls: nothing they were asked to play differs"),
        "{}",
        stdout(&o)
    );
}

/// Two runs whose agents are named alike but were set otherwise (plain `search` as two
/// taisims tuned it, as their manifests' play records say) are compared with a warning.
#[test]
fn agents_named_alike_but_set_otherwise_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    simulate(&a, "taiwan16", "6", "search:4,greedy,greedy,greedy");
    simulate(&b, "taiwan16-house", "6", "search:4,greedy,greedy,greedy");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let warned = |o: &std::process::Output| stdout(o).contains("named alike but set otherwise");
    let o = taisim(&["compare", a, b]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!warned(&o), "{}", stdout(&o));

    // As another taisim that tuned search:4 otherwise would have recorded run B.
    let path = Path::new(b).join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    m["play"]["agents"][0] = serde_json::json!("search:4:indifference=0.3");
    std::fs::write(&path, m.to_string()).unwrap();
    let o = taisim(&["compare", a, b]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(warned(&o), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("A: search:4,greedy,greedy,greedy; B: search:4:indifference=0.3,"),
        "{}",
        stdout(&o)
    );
}

/// Two runs killed before either recorded a part pair no deals: there is no figure to show,
/// and the comparison says so instead of printing 0 with an interval of [0, 0].
#[test]
fn runs_that_record_no_deal_are_not_compared() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = (d.join("a"), d.join("b"));
    simulate(&a, "taiwan16", "4", "greedy");
    simulate(&b, "taiwan16", "4", "random");
    support::unrecord_every_part(&a);
    support::unrecord_every_part(&b);
    let o = taisim(&["compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("record no deal yet"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

/// A bot that plays the first legal action under taiwan16 and the last under any other
/// variant, as its hello names it: it responds to the table, and taisim cannot know it.
const VARIANT_BOT: &str = r#"import json, sys
variant = None
print(json.dumps({"type": "hello", "protocol": 1, "name": "variant_bot"}), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        variant = msg["variant"]
    elif msg["type"] == "act":
        legal = msg["legal"]
        pick = legal[0] if variant == "taiwan16" else legal[-1]
        print(json.dumps({"id": pick["id"]}), flush=True)
"#;

/// An outside bot is told the variant and may play by it: whether it responds is unknown
/// (the table says so, the JSON has null), and the warning never says every deal was played
/// the same, since the deals show it was not.
#[test]
fn whether_an_outside_bot_responds_is_unknown_and_the_deals_say_play_changed() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test runs a bot with python3, which is not on PATH"
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bot = d.join("variant_bot.py");
    std::fs::write(&bot, VARIANT_BOT).unwrap();
    let agents = format!("exec:python3 {}", bot.display());
    let (a, b) = taiwan16_against(
        d,
        "concealed-5",
        "[patterns]\nconcealed_hand = 5\n",
        "25",
        &agents,
    );
    let (a, b) = (a.as_str(), b.as_str());

    let o = taisim(&["compare", a, b]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(&format!(
            "warning: no agent here is known to respond to the scoring table: whether {agents} responds to it is unknown"
        )),
        "{text}"
    );
    assert!(
        text.contains("deals' outcome or winners differ, so play differed there"),
        "{text}"
    );
    assert!(!text.contains("played the same"), "{text}");
    assert!(!text.contains("no agent here responds"), "{text}");
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("E ") && l.contains("exec:"))
        .unwrap_or_else(|| panic!("no Agents row for E in\n{text}"));
    assert_eq!(
        row.split_whitespace().filter(|w| *w == "unknown").count(),
        2,
        "{row}"
    );

    let o = taisim(&["compare", a, b, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for side in ["a", "b"] {
        assert_eq!(
            doc[side]["responds_to_scoring"],
            serde_json::json!([null, null, null, null])
        );
    }
    assert!(doc["outcome_changed"]["count"].as_u64().unwrap() > 0);
}

/// Two variants whose engine rules differ: the header names each rule that differs with A's
/// value and B's, as `variant show --diff` writes its key, and so does the JSON.
#[test]
fn engine_rules_that_differ_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = taiwan16_against(
        d,
        "rules",
        "[rules]\nmissed_win = false\nrob_concealed_kong = true\n",
        "7",
        "greedy",
    );
    let (a, b) = (a.as_str(), b.as_str());
    let o = taisim(&["compare", a, b]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("  engine rules   differ: rules.missed_win (true → false), rules.rob_concealed_kong (false → true)\n"),
        "{}",
        stdout(&o)
    );
    let o = taisim(&["compare", a, b, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["same_engine_rules"], false);
    assert_eq!(
        doc["engine_rule_changes"],
        serde_json::json!([
            { "key": "rules.missed_win", "a": true, "b": false },
            { "key": "rules.rob_concealed_kong", "a": false, "b": true },
        ])
    );
    // The same engine rules: nothing listed.
    let o = taisim(&["compare", a, a, "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["engine_rule_changes"], serde_json::json!([]));
    assert_eq!(doc["scoring_table_changes"], serde_json::json!([]));
}

/// Two variants whose scoring tables differ: the header names each key that differs (a
/// minimum, stakes, a pattern's tai and exclusions, a pattern one of them does not count)
/// with A's value and B's, and so does the JSON; the engine rules stay the same.
#[test]
fn scoring_table_entries_that_differ_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = taiwan16_against(
        d,
        "table",
        "[tai]\nmin = 2\n[settlement]\nper_tai = 2\n[patterns]\nall_chows = { tai = 3, excludes = [\"self_draw\"] }\nearthly_ready = false\n",
        "7",
        "greedy",
    );
    let (a, b) = (a.as_str(), b.as_str());
    let o = taisim(&["compare", a, b]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("scoring table"))
        .unwrap_or_else(|| panic!("{out}"));
    for said in [
        "differs: tai.min (0 → 2), settlement.per_tai (1 → 2)",
        "patterns.earthly_ready (4 → false), patterns.all_chows.tai (2 → 3), patterns.all_chows.excludes ([] → [\"self_draw\"])",
    ] {
        assert!(row.contains(said), "{said}: {row}");
    }
    assert!(out.contains("the same in both variants"), "{out}");
    let o = taisim(&["compare", a, b, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["same_engine_rules"], true);
    let changes = doc["scoring_table_changes"].as_array().unwrap();
    let keys: Vec<&str> = changes.iter().map(|c| c["key"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "tai.min",
            "settlement.per_tai",
            "patterns.earthly_ready",
            "patterns.all_chows.tai",
            "patterns.all_chows.excludes"
        ]
    );
    assert_eq!(
        changes[0],
        serde_json::json!({ "key": "tai.min", "a": 0, "b": 2 })
    );
    assert_eq!(
        changes[2],
        serde_json::json!({ "key": "patterns.earthly_ready", "a": 4, "b": false })
    );
}
