//! Properties of scoring over hands that real deals produce: every win of seeded deals
//! (played by the greedy policy of `common`), scores without error, its
//! breakdown adds up to its total, and its settlement sums to zero. Variant files survive
//! `to_toml` → parse unchanged.

use taisim_score::{score_deal, PatternId, PatternRule, Variant};
mod common;

use taisim_sim::{bounded, rng_from_seed, DealContext, Wind};

#[test]
fn settlements_of_simulated_deals_sum_to_zero() {
    for name in Variant::names() {
        let variant = Variant::builtin(name).unwrap();
        let mut wins = 0;
        for seed in 0..400u64 {
            // Vary the dealer, round and streak so the dealer tai is exercised.
            let context = DealContext {
                round_wind: Wind::new((seed / 4) as u8),
                dealer: Wind::new(seed as u8),
                streak: (seed % 3) as u8,
            };
            let deal = common::play_greedy(&variant, seed, context);
            for (base, per_tai) in [(0, 1), (30, 10)] {
                let (base, per_tai) = common::fit_stakes(&variant, base, per_tai);
                let ds = score_deal(&deal, &variant, base, per_tai)
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                assert_eq!(ds.payments.0.iter().sum::<i64>(), 0, "{name} seed {seed}");
                // Each win's own payments sum to zero and add up to the deal's.
                assert_eq!(ds.win_payments.len(), ds.wins.len());
                let mut total = [0i64; 4];
                for pay in &ds.win_payments {
                    assert_eq!(pay.0.iter().sum::<i64>(), 0, "{name} seed {seed}");
                    for (t, p) in total.iter_mut().zip(pay.0) {
                        *t += p;
                    }
                }
                assert_eq!(total, ds.payments.0, "{name} seed {seed}");
                for (seat, s) in &ds.wins {
                    let sum: u16 = s.patterns.iter().map(|p| p.tai).sum();
                    assert!(
                        sum == s.total || s.capped,
                        "{name} seed {seed} {seat}: {:?}",
                        s
                    );
                    if s.meets_minimum && (base, per_tai) == (30, 10) {
                        assert!(ds.payments[*seat] > 0 || ds.wins.len() > 1);
                    }
                }
                wins += ds.wins.len();
            }
        }
        assert!(wins > 200, "{name}: only {wins} wins scored");
    }
}

/// Every win of seeded deals under every variant scores and settles the same with any count
/// of discards from `DISCARDS_READ` up (what the value agent's memo relies on), and some win
/// scores otherwise with fewer (the count is read at all).
#[test]
fn discard_counts_from_discards_read_up_score_alike() {
    use taisim_score::{score, try_settle, WinInput, DISCARDS_READ};
    let mut early_differs = 0;
    for name in Variant::names() {
        let variant = Variant::builtin(name).unwrap();
        let st = variant.settlement();
        let outcome = |input: &WinInput| {
            score(input, &variant).map(|s| {
                let pay = try_settle(&s, input, &variant, st.base, st.per_tai).ok();
                (s, pay)
            })
        };
        for seed in 0..300u64 {
            let context = DealContext {
                round_wind: Wind::new((seed / 4) as u8),
                dealer: Wind::new(seed as u8),
                streak: 0,
            };
            let deal = common::play_greedy(&variant, seed, context);
            for seat in taisim_sim::Seat::ALL {
                let Some(input) = WinInput::from_deal(&deal, seat) else {
                    continue;
                };
                let at = |n: u8| {
                    outcome(&WinInput {
                        discards: Some(n),
                        ..input.clone()
                    })
                };
                let read = at(DISCARDS_READ);
                for n in [DISCARDS_READ + 1, 17, 40, 90, u8::MAX] {
                    assert_eq!(at(n), read, "{name} seed {seed} {seat}: {n} discards");
                }
                early_differs += (0..DISCARDS_READ).any(|n| at(n) != read) as u32;
            }
        }
    }
    assert!(early_differs > 0, "no win scores differently early");
}

#[test]
fn variants_round_trip_through_toml() {
    for name in Variant::names() {
        let v = Variant::builtin(name).unwrap();
        let text = v.to_toml();
        let back = Variant::from_toml_str(&text, "shown").unwrap();
        assert_eq!(v, back, "{name}");
        // Printing is stable too.
        assert_eq!(text, back.to_toml());
    }
}

#[test]
fn edited_variants_round_trip_through_toml() {
    // Every pattern switched on with a value and exclusions derived from its index, over a
    // few seeds, round-trips: the printer covers every id and exclusion list it can meet.
    // The 台州 tables read no pattern but their own and a few shared ones, and a variant
    // mixing the two is refused at load: odd seeds edit taizhou with its own patterns, even
    // seeds taiwan16 with every pattern but those only taizhou counts.
    let taizhou = Variant::builtin("taizhou").unwrap();
    let only_taizhou = |p: PatternId| {
        taizhou.pattern(p).is_some()
            && Variant::names()
                .iter()
                .filter(|&&n| n != "taizhou")
                .all(|n| Variant::builtin(n).unwrap().pattern(p).is_none())
    };
    for seed in 0..20u64 {
        let mut rng = rng_from_seed(seed);
        let base = if seed % 2 == 0 { "taiwan16" } else { "taizhou" };
        let mut file: toml::Table = toml::from_str(Variant::builtin_text(base).unwrap()).unwrap();
        let mut patterns = toml::Table::new();
        let mut expected = Vec::new();
        for &p in PatternId::ALL {
            let allowed = match seed % 2 {
                0 => !only_taizhou(p),
                _ => taizhou.pattern(p).is_some(),
            };
            if !allowed || bounded(&mut rng, 3) == 0 {
                continue;
            }
            // Only patterns earlier in the catalogue: exclusions that go round are refused
            // at load (issue 15).
            let mut excludes = 0;
            for &q in PatternId::ALL {
                if q.index() < p.index() && bounded(&mut rng, 40) == 0 {
                    excludes |= q.bit();
                }
            }
            let rule = PatternRule {
                tai: bounded(&mut rng, 60) as u16,
                excludes,
            };
            let mut value = toml::Table::new();
            value.insert("tai".into(), i64::from(rule.tai).into());
            let names: Vec<toml::Value> = PatternId::ALL
                .iter()
                .filter(|q| excludes & q.bit() != 0)
                .map(|q| q.id().into())
                .collect();
            value.insert("excludes".into(), names.into());
            patterns.insert(p.id().into(), value.into());
            expected.push((p, rule));
        }
        file.insert("patterns".into(), patterns.into());
        let min = bounded(&mut rng, 5) as i64;
        let tai = file.entry("tai").or_insert(toml::Table::new().into());
        tai.as_table_mut().unwrap().insert("min".into(), min.into());
        // All-pairs settlement takes no base, and an even unit.
        let (key, stake) = match seed % 2 {
            0 => ("base", bounded(&mut rng, 100) as i64),
            _ => ("per_tai", 2 * bounded(&mut rng, 50) as i64),
        };
        let settlement = file
            .entry("settlement")
            .or_insert(toml::Table::new().into());
        settlement
            .as_table_mut()
            .unwrap()
            .insert(key.into(), stake.into());
        file.insert(
            "description".into(),
            format!("edited \"{seed}\" 台\n").into(),
        );
        let v = Variant::from_toml_str(&toml::to_string(&file).unwrap(), "edited")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(v.patterns().collect::<Vec<_>>(), expected, "seed {seed}");
        assert_eq!(v.min_tai() as i64, min);
        let back = Variant::from_toml_str(&v.to_toml(), "edited").unwrap();
        assert_eq!(v, back, "seed {seed}");
    }
}

#[test]
fn malformed_variant_files_name_file_line_and_problem() {
    let good = Variant::builtin_text("taiwan16").unwrap();
    let line_of =
        |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let cases: Vec<(String, String)> = vec![
        // Syntax.
        (
            good.replace("self_draw = 1", "self_draw = = 1"),
            "expected".into(),
        ),
        // Unknown pattern id.
        (
            good.replace("all_pungs = 4", "all_pongs = 4"),
            "unknown pattern id \"all_pongs\"".into(),
        ),
        // Unknown exclusion.
        (
            good.replace(
                "excludes = [\"dragon_pung\"] }   # :66",
                "excludes = [\"dragon_pong\"] }   # :66",
            ),
            "excludes unknown pattern id \"dragon_pong\"".into(),
        ),
        // Unknown key.
        (
            good.replace("reserve = 16", "reserve = 16\ncolour = 1"),
            "unknown key \"colour\" in [rules], expected one of `sets`,".into(),
        ),
        // Wrong type.
        (
            good.replace("reserve = 16", "reserve = \"16\""),
            "invalid type".into(),
        ),
        // Scoring kind not implemented.
        (
            good.replace("scoring = \"tai\"", "scoring = \"hu_doubling\""),
            "hu_doubling".into(),
        ),
        // Engine rules that cannot work.
        (
            good.replace("reserve = 16", "reserve = 100"),
            "rules.reserve: a reserve of 100 tiles".into(),
        ),
    ];
    for (text, needle) in cases {
        let err = Variant::from_toml_str(&text, "my.toml").unwrap_err();
        let shown = err.to_string();
        assert!(shown.starts_with("my.toml:"), "{shown}");
        assert!(shown.contains(&needle), "{shown} lacks {needle}");
        assert!(err.line.is_some(), "{shown}");
    }
    // The line is the offending key's.
    let text = good.replace("all_pungs = 4", "all_pongs = 4");
    let err = Variant::from_toml_str(&text, "my.toml").unwrap_err();
    assert_eq!(err.line, Some(line_of(&text, "all_pongs")));
}
