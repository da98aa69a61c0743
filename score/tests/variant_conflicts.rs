//! A variant file either loads and then plays and scores every deal, or is refused when it
//! loads, naming the key: never loaded, then failed at a run's first win (after the run had
//! made its directory). Each shipped variant is edited one key at a time: every boolean rule
//! flipped, the wild indicator and the flowers switched, the hand size changed, a pattern of
//! another variant added, each pattern removed, the settlement model switched.

use taisim_score::{score_deal, ScoreError, Variant, VariantErrorKind};
use taisim_sim::{DealContext, Wind};

mod common;

/// One edit of a variant's TOML: a description and the edited table.
type Edit = (String, toml::Table);

fn table(text: &str) -> toml::Table {
    toml::from_str(text).unwrap()
}

fn section<'a>(t: &'a mut toml::Table, path: &[&str]) -> &'a mut toml::Table {
    let mut at = t;
    for key in path {
        at = at
            .entry(key.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            .as_table_mut()
            .unwrap();
    }
    at
}

/// Every pattern id some shipped variant counts, with its value there.
fn all_patterns() -> Vec<(String, toml::Value)> {
    let mut out: Vec<(String, toml::Value)> = Vec::new();
    for name in Variant::names() {
        let t = table(Variant::builtin_text(name).unwrap());
        for (id, value) in t["patterns"].as_table().unwrap() {
            if !out.iter().any(|(i, _)| i == id) {
                out.push((id.clone(), value.clone()));
            }
        }
    }
    out
}

fn edits(base: &toml::Table) -> Vec<Edit> {
    let mut out = Vec::new();
    let rules = base["rules"].as_table().unwrap();
    for (key, value) in rules {
        if let toml::Value::Boolean(b) = value {
            let mut t = base.clone();
            section(&mut t, &["rules"]).insert(key.clone(), toml::Value::Boolean(!b));
            out.push((format!("rules.{key} = {}", !b), t));
        }
    }
    for wild in [true, false] {
        for flowers in [true, false] {
            let mut t = base.clone();
            section(&mut t, &["rules", "procedure", "setup"])
                .insert("wild_indicator".into(), toml::Value::Boolean(wild));
            section(&mut t, &["rules"]).insert("flowers".into(), toml::Value::Boolean(flowers));
            if !flowers {
                section(&mut t, &["rules"])
                    .insert("flower_wins".into(), toml::Value::Boolean(false));
                section(&mut t, &["rules", "procedure"]).remove("tiles");
            }
            out.push((format!("wild_indicator = {wild}, flowers = {flowers}"), t));
        }
    }
    for sets in [4, 5] {
        let mut t = base.clone();
        section(&mut t, &["rules"]).insert("sets".into(), toml::Value::Integer(sets));
        section(&mut t, &["rules", "procedure"]).remove("dealing");
        out.push((format!("rules.sets = {sets}"), t));
    }
    let patterns = base["patterns"].as_table().unwrap();
    for (id, value) in all_patterns() {
        if !patterns.contains_key(&id) {
            let mut t = base.clone();
            section(&mut t, &["patterns"]).insert(id.clone(), value);
            out.push((format!("+ patterns.{id}"), t));
        }
    }
    for id in patterns.keys() {
        let mut t = base.clone();
        section(&mut t, &["patterns"]).remove(id);
        // Exclusions naming the removed pattern go with it.
        for (_, v) in section(&mut t, &["patterns"]).iter_mut() {
            if let Some(ex) = v.get_mut("excludes").and_then(|e| e.as_array_mut()) {
                ex.retain(|x| x.as_str() != Some(id));
            }
        }
        out.push((format!("- patterns.{id}"), t));
    }
    for model in ["winner_pays", "all_pairs"] {
        let mut t = base.clone();
        section(&mut t, &["settlement"]).insert("model".into(), toml::Value::from(model));
        out.push((format!("settlement.model = {model}"), t));
    }
    out
}

/// Plays and scores a few deals under `v`: the error of the first that fails.
fn plays(v: &Variant) -> Result<(), String> {
    let (base, per_tai) = common::fit_stakes(v, 0, 2);
    for seed in 0..12u64 {
        let context = DealContext {
            round_wind: Wind::East,
            dealer: Wind::new(seed as u8),
            streak: 0,
        };
        let deal = common::play_greedy(v, seed, context);
        score_deal(&deal, v, base, per_tai).map_err(|e| format!("seed {seed}: {e}"))?;
    }
    Ok(())
}

#[test]
fn a_variant_that_loads_plays_and_scores_every_deal() {
    let mut tried = 0;
    let mut refused = 0;
    let mut conflicts = 0;
    for name in Variant::names() {
        let base = table(Variant::builtin_text(name).unwrap());
        for (what, t) in edits(&base) {
            tried += 1;
            let text = toml::to_string(&t).unwrap();
            match Variant::from_toml_str(&text, "edited.toml") {
                Ok(v) => {
                    if let Err(e) = plays(&v) {
                        panic!("{name} with {what} loads, then fails to score: {e}");
                    }
                }
                Err(e) => {
                    refused += 1;
                    // Every refusal names a key (or the whole text's syntax).
                    assert!(
                        !e.key.is_empty() || matches!(e.kind, VariantErrorKind::Syntax(_)),
                        "{name} with {what}: {e}"
                    );
                    conflicts += usize::from(matches!(e.kind, VariantErrorKind::Incompatible(_)));
                }
            }
        }
    }
    // The edits reach both outcomes, and the conflicts this test was written for.
    assert!(tried > 100, "{tried}");
    assert!(refused > 0 && refused < tried, "{refused} of {tried}");
    assert!(conflicts > 0, "no edit met a scoring conflict");
}

/// The conflicts named: a turned-up wild in a tai variant (the case), a pattern the
/// 台州 tables do not read beside them.
#[test]
fn conflicting_keys_are_refused_at_load_naming_them() {
    let mut t = table(Variant::builtin_text("taiwan16").unwrap());
    section(&mut t, &["rules"]).insert("flowers".into(), toml::Value::Boolean(false));
    section(&mut t, &["rules"]).insert("flower_wins".into(), toml::Value::Boolean(false));
    section(&mut t, &["rules", "procedure", "setup"])
        .insert("wild_indicator".into(), toml::Value::Boolean(true));
    let e = Variant::from_toml_str(&toml::to_string(&t).unwrap(), "wild.toml").unwrap_err();
    assert_eq!(e.key, "rules.procedure.setup.wild_indicator", "{e}");
    assert!(e.to_string().contains("台州 tables"), "{e}");
    // Without the wild it loads.
    section(&mut t, &["rules", "procedure", "setup"])
        .insert("wild_indicator".into(), toml::Value::Boolean(false));
    Variant::from_toml_str(&toml::to_string(&t).unwrap(), "plain.toml").unwrap();

    let text = Variant::builtin_text("taizhou").unwrap().replace(
        "[patterns]\n",
        "[patterns]\nall_honors = { tai = 1, hu = 0 }\n",
    );
    let e = Variant::from_toml_str(&text, "mixed.toml").unwrap_err();
    assert_eq!(e.key, "patterns.all_honors", "{e}");
    assert!(e.line.is_some(), "{e}");
    assert!(e.to_string().contains("台州 patterns"), "{e}");
}

/// All-pairs settlement (taizhou.md 胜负规则) values one winner against the three others:
/// several winners on one discard are refused at load, and a deal that has them anyway (its
/// rules are its own) is refused by the settlement instead of paying each winner as if it
/// alone had won.
#[test]
fn all_pairs_settlement_refuses_several_winners() {
    let text = "extends = \"taizhou\"\nname = \"tz-multi\"\n[rules]\nmultiple_winners = true\n";
    let e = Variant::from_toml_str(text, "tz-multi.toml").unwrap_err();
    assert_eq!(e.key, "rules.multiple_winners", "{e}");
    assert_eq!(e.line, Some(4), "{e}");
    assert!(matches!(e.kind, VariantErrorKind::Incompatible(_)), "{e}");

    let taizhou = Variant::builtin("taizhou").unwrap();
    let mut rules = taizhou.rules();
    rules.multiple_winners = true;
    let (base, per_tai) = common::fit_stakes(&taizhou, 0, 2);
    let mut several = 0;
    for seed in 0..3000u64 {
        let context = DealContext {
            round_wind: Wind::East,
            dealer: Wind::new(seed as u8),
            streak: 0,
        };
        let deal = common::play_greedy_rules(rules, seed, context);
        let winners = deal.result().unwrap().winners.len();
        let scored = score_deal(&deal, &taizhou, base, per_tai);
        if winners > 1 {
            several += 1;
            assert_eq!(
                scored,
                Err(ScoreError::AllPairsWinners(winners as usize)),
                "seed {seed}"
            );
        } else if let Ok(s) = scored {
            assert_eq!(s.payments.0.iter().sum::<i64>(), 0, "seed {seed}");
        }
        if several == 3 {
            return;
        }
    }
    panic!("only {several} deals of several winners in 3000");
}
