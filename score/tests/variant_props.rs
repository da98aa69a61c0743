//! Random variant files (issue 15), with a fixed case budget and a fixed seed
//! (`PROPTEST_CASES=N` raises the budget): each loads or is refused with a clean error that
//! names the file, never a panic; each that loads writes back to a text that loads equal,
//! has no exclusion cycle, and scores and settles a win without a panic or a wrap.

use proptest::prelude::*;
use taisim_score::{score, try_settle, Variant, WinInput};
use taisim_sim::{parse_hand, parse_tile, Wind};

#[path = "../../sim/tests/support/props.rs"]
mod props;

fn config(cases: u32) -> proptest::test_runner::Config {
    props::config(cases, 0xc_a21a)
}

/// Keys of every table, pattern ids among them, and a few that are not keys.
const KEYS: &[&str] = &[
    "name",
    "description",
    "scoring",
    "sets",
    "flowers",
    "reserve",
    "ready_window",
    "flower_wins",
    "eight_pairs",
    "dealer_keeps_on_draw",
    "min",
    "max",
    "wait_needs_single_kind",
    "base",
    "per_tai",
    "dealer_tai",
    "dealer_tai_per_streak",
    "false_win_penalty",
    "robbed_flower_payer",
    "insurance",
    "model",
    "base_hu",
    "cap",
    "self_draw",
    "concealed_hand",
    "concealed_self_draw",
    "dragon_pung",
    "flower_kong",
    "three_concealed_pungs",
    "five_concealed_pungs",
    "little_three_dragons",
    "big_three_dragons",
    "colour",
];

/// Pattern ids the shipped files set, several of them excluding one another already.
const PATTERN_IDS: &[&str] = &[
    "self_draw",
    "concealed_hand",
    "concealed_self_draw",
    "dragon_pung",
    "little_three_dragons",
    "big_three_dragons",
    "three_concealed_pungs",
    "five_concealed_pungs",
    "seat_flower",
    "flower_kong",
];

const TABLES: &[&str] = &[
    "[rules]",
    "[tai]",
    "[points]",
    "[settlement]",
    "[patterns]",
    "[other]",
];

fn value() -> impl Strategy<Value = String> {
    let id = prop::sample::select(KEYS).prop_map(|k| format!("\"{k}\""));
    prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        (0i64..300).prop_map(|v| v.to_string()),
        prop::sample::select(
            &[
                "true",
                "false",
                "\"tai\"",
                "\"points\"",
                "\"hu_doubling\"",
                "\"all_pairs\"",
                "\"winner_pays\"",
                "\"drawer\"",
                "\"all\"",
                "[\"full_flush\", \"last_five\"]",
                "[]",
                "\"\"",
                "1.5",
            ][..]
        )
        .prop_map(str::to_string),
        (0i64..70, 0i64..20, prop::collection::vec(id, 0..3)).prop_map(|(tai, hu, ex)| format!(
            "{{ tai = {tai}, hu = {hu}, excludes = [{}] }}",
            ex.join(", ")
        )),
        prop::collection::vec(any::<char>(), 0..12).prop_map(|c| c.into_iter().collect()),
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => prop::sample::select(TABLES).prop_map(str::to_string),
        3 => (prop::sample::select(KEYS), value()).prop_map(|(k, v)| format!("{k} = {v}")),
        1 => prop::collection::vec(any::<char>(), 0..30).prop_map(|c| c.into_iter().collect()),
    ]
}

/// A shipped file with some lines replaced, inserted or removed, or a text of lines alone.
fn text() -> impl Strategy<Value = String> {
    let shipped = prop::sample::select(Variant::names().to_vec())
        .prop_map(|n| Variant::builtin_text(n).unwrap().to_string());
    prop_oneof![
        3 => (
            shipped,
            prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, line()), 1..4)
        )
            .prop_map(|(text, edits)| {
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                for (at, how, new) in edits {
                    let i = at.index(lines.len() + 1);
                    match how {
                        0 if i < lines.len() => lines[i] = new,
                        1 if i < lines.len() => {
                            lines.remove(i);
                        }
                        _ => lines.insert(i, new),
                    }
                }
                lines.join("\n")
            }),
        1 => (prop::collection::vec(line(), 0..25)).prop_map(|l| l.join("\n")),
        // A shipped file with numbers changed in place and exclusions added where they
        // stand, so values past the bounds and exclusions that go round are met often.
        3 => (
            prop::sample::select(Variant::names().to_vec()),
            prop::collection::vec(
                (
                    any::<prop::sample::Index>(),
                    prop_oneof![any::<i64>(), 0i64..70_000, 0i64..300],
                    prop::collection::vec(prop::sample::select(PATTERN_IDS), 0..3),
                ),
                1..12,
            ),
        )
            .prop_map(|(name, edits)| {
                let text = Variant::builtin_text(name).unwrap();
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                // Lines `key = number`: the ones worth changing.
                let numeric: Vec<usize> = (0..lines.len())
                    .filter(|&i| {
                        let l = &lines[i];
                        l.split_once(" = ").is_some_and(|(_, v)| {
                            v.trim_start().starts_with(|c: char| c.is_ascii_digit())
                        })
                    })
                    .collect();
                let patterns_at = lines.iter().position(|l| l == "[patterns]").unwrap();
                let in_patterns: Vec<usize> =
                    numeric.iter().copied().filter(|&i| i > patterns_at).collect();
                for (at, value, excludes) in edits {
                    // Exclusions only on pattern lines; plain numbers anywhere.
                    // (A file whose pattern lines are all tables has no numeric one to take.)
                    let i = if excludes.is_empty() || in_patterns.is_empty() {
                        numeric[at.index(numeric.len())]
                    } else {
                        in_patterns[at.index(in_patterns.len())]
                    };
                    let key = lines[i].split_once(" = ").unwrap().0.trim().to_string();
                    lines[i] = if excludes.is_empty() {
                        format!("{key} = {value}")
                    } else {
                        let ex: Vec<String> = excludes.iter().map(|k| format!("\"{k}\"")).collect();
                        format!(
                            "{key} = {{ tai = {}, excludes = [{}] }}",
                            value.rem_euclid(40),
                            ex.join(", ")
                        )
                    };
                }
                lines.join("\n")
            }),
    ]
}

fn a_win() -> WinInput {
    WinInput::new(
        Wind::South,
        parse_hand("123m 456m 789m 234p 99s 345s").unwrap(),
        parse_tile("9s").unwrap(),
        true,
    )
}

proptest! {
    #![proptest_config(config(384))]

    #[test]
    fn random_variant_texts_load_or_fail_cleanly(text in text()) {
        match Variant::from_toml_str(&text, "random.toml") {
            Ok(v) => {
                let written = v.to_toml();
                let back = Variant::from_toml_str(&written, "written");
                prop_assert_eq!(back.as_ref(), Ok(&v), "{}", written);
                prop_assert_eq!(v.exclusion_cycle(), None);
                if let Ok(s) = score(&a_win(), &v) {
                    let st = &v.settlement();
                    if let Ok(pay) = try_settle(&s, &a_win(), &v, st.base, st.per_tai) {
                        prop_assert_eq!(pay.0.iter().sum::<i64>(), 0);
                    }
                }
            }
            Err(e) => {
                let shown = e.to_string();
                prop_assert!(shown.starts_with("random.toml"), "{}", shown);
                prop_assert!(shown.len() < 2000, "{} bytes", shown.len());
            }
        }
    }
}
