//! The scoring and settlement models (tai and points; winner-pays and all-pairs), the
//! variant file's bounds, checks and errors, and the round trip of every shipped variant.

use taisim_score::{
    bounds, score, score_deal, settle_all_pairs, try_settle, Amount, PatternId, ScoreError,
    ScoringModel, SettleError, SettlementModel, Variant, VariantErrorKind, WinInput,
};
use taisim_sim::{parse_hand, parse_tile, BySeat, Wind};

const E: Wind = Wind::East;
const S: Wind = Wind::South;
const W: Wind = Wind::West;
const N: Wind = Wind::North;

fn by_seat<T: Copy + Default>(pairs: [(Wind, T); 4]) -> BySeat<T> {
    let mut out = BySeat([T::default(); 4]);
    for (s, v) in pairs {
        out[s] = v;
    }
    out
}

fn whole(pairs: [(Wind, i64); 4]) -> BySeat<Amount> {
    by_seat(pairs.map(|(s, v)| (s, Amount::whole(v).unwrap())))
}

fn sum(a: &BySeat<Amount>) -> i64 {
    a.0.iter().map(|x| x.halves()).sum()
}

/// taizhou.md:407-417 (闲家胡牌): South wins 32 胡 with East dealing; West 0, North 4,
/// East 10. The text's figures: +64, −28, −20, −16 胡, and at 50 per 胡 3200, −1400, −1000,
/// −800 (:411 prints West's as "1400", its sign dropped; the check line :417 needs −28).
#[test]
fn all_pairs_reproduces_the_non_dealer_win_example() {
    let values = by_seat([(S, 32), (W, 0), (N, 4), (E, 10)]);
    let got = settle_all_pairs(S, E, values, None).unwrap();
    assert_eq!(got, whole([(S, 64), (W, -28), (N, -20), (E, -16)]));
    assert_eq!(sum(&got), 0);
    let money = got
        .0
        .map(|a| a.checked_mul(50).unwrap().as_whole().unwrap());
    assert_eq!(money, [-800, 3200, -1400, -1000]);
}

/// taizhou.md:443-453 (庄家胡牌): East deals and wins 18 胡; South 4, West 4, North 8:
/// +54, −20, −20, −14 胡; at 50 per 胡 2700, −1000, −1000, −700.
#[test]
fn all_pairs_reproduces_the_dealer_win_example() {
    let values = by_seat([(E, 18), (S, 4), (W, 4), (N, 8)]);
    let got = settle_all_pairs(E, E, values, None).unwrap();
    assert_eq!(got, whole([(E, 54), (S, -20), (W, -20), (N, -14)]));
    let money = got
        .0
        .map(|a| a.checked_mul(50).unwrap().as_whole().unwrap());
    assert_eq!(money, [2700, -1000, -1000, -700]);
}

/// README "taizhou": amounts may be halves. A 33 胡 non-dealer win: each non-dealer pays
/// 16.5; two non-dealers 4 and 1 apart settle 1.5.
#[test]
fn all_pairs_pays_halves_exactly() {
    let values = by_seat([(S, 33), (W, 1), (N, 4), (E, 0)]);
    let got = settle_all_pairs(S, E, values, None).unwrap();
    assert_eq!(got[S].to_string(), "66");
    // West: −16.5 to South, −1.5 to North, +1 from East.
    assert_eq!(got[W].to_string(), "-17");
    // North: −16.5, +1.5, +4 from East.
    assert_eq!(got[N].to_string(), "-11");
    assert_eq!(got[E].to_string(), "-38");
    assert_eq!(sum(&got), 0);
    let values = by_seat([(S, 33), (W, 0), (N, 0), (E, 0)]);
    let got = settle_all_pairs(S, E, values, None).unwrap();
    assert_eq!(got[W], Amount::from_halves(-33));
    assert_eq!(got[W].to_string(), "-16.5");
    assert_eq!(sum(&got), 0);
}

/// README "taizhou" 全包: the responsible player's value counts 0 and it pays every amount
/// another player would pay. The first example with West responsible: East's 32 and North's
/// 16 to South, North's 6 to East, all paid by West; West's own 16 and 10 and 2 as before.
#[test]
fn all_pairs_full_responsibility_redirects_every_payment() {
    let values = by_seat([(S, 32), (W, 3), (N, 4), (E, 10)]);
    let got = settle_all_pairs(S, E, values, Some(W)).unwrap();
    assert_eq!(got, whole([(S, 64), (W, -82), (N, 2), (E, 16)]));
}

#[test]
fn all_pairs_refuses_values_that_do_not_fit() {
    let values = by_seat([(S, u64::MAX), (W, 0), (N, 0), (E, 0)]);
    assert_eq!(
        settle_all_pairs(S, E, values, None),
        Err(SettleError::Overflow)
    );
}

/// A small points variant (胡 × 2^台, 台州's shape) whose values are worked by hand.
fn points_variant(cap: u32, model: &str) -> Variant {
    let text = format!(
        r#"
name = "points-test"
scoring = "points"

[points]
base_hu = 10
cap = {cap}

[rules]

[settlement]
model = "{model}"
per_tai = 50
dealer_tai = 0
dealer_tai_per_streak = 0

[patterns]
self_draw = {{ tai = 0, hu = 2 }}
single_wait = {{ tai = 0, hu = 2 }}
concealed_hand = {{ tai = 1, hu = 0 }}
dragon_pung = {{ tai = 1, hu = 4 }}
"#
    );
    Variant::from_toml_str(&text, "points-test.toml").unwrap()
}

/// 123m 456m 789m 234p 345s 99s, South self-draws its single wait 9s with East dealing:
/// 自摸 2 胡 + 單吊 2 胡, 門清 1 台: (10 + 4) × 2^1 = 28.
fn points_win() -> WinInput {
    WinInput::new(
        S,
        parse_hand("123m 456m 789m 234p 99s 345s").unwrap(),
        parse_tile("9s").unwrap(),
        true,
    )
}

#[test]
fn points_model_doubles_hu_by_tai_and_caps() {
    let v = points_variant(100, "all_pairs");
    let s = score(&points_win(), &v).unwrap();
    assert_eq!((s.hu, s.total, s.points, s.capped), (4, 1, 28, false));
    assert_eq!(s.patterns.iter().map(|p| p.hu as u32).sum::<u32>(), s.hu);
    let capped = points_variant(20, "all_pairs");
    let s = score(&points_win(), &capped).unwrap();
    assert_eq!((s.points, s.capped), (20, true));
    // The value function itself: exact below the cap, the cap past it, never a wrap.
    let m = ScoringModel::Points {
        base_hu: 10,
        cap: 100,
    };
    assert_eq!(m.value(6, 1).points, 32);
    assert_eq!(m.value(8, 0).points, 18);
    assert_eq!(m.value(0, 3).points, 80);
    assert_eq!(m.value(0, 4).points, 100);
    assert!(m.value(0, 4).capped);
    assert_eq!(m.value(u32::MAX, u32::MAX).points, 100);
    assert_eq!(ScoringModel::Tai.value(3, 7).points, 7);
}

#[test]
fn points_model_settles_all_pairs_and_winner_pays() {
    // All pairs, the losers valued 0: East (dealer) pays 28, West and North 14, at 50.
    let v = points_variant(100, "all_pairs");
    let input = points_win();
    let s = score(&input, &v).unwrap();
    let pay = try_settle(&s, &input, &v, 0, 50).unwrap();
    assert_eq!(pay.0, [-1400, 2800, -700, -700]);
    // Winner pays: base + points × per_tai from each of the three.
    let v = points_variant(100, "winner_pays");
    let pay = try_settle(&s, &input, &v, 5, 2).unwrap();
    assert_eq!(pay.0, [-61, 183, -61, -61]);
    // All pairs needs an even unit and no base.
    let v = points_variant(100, "all_pairs");
    assert_eq!(
        try_settle(&s, &input, &v, 0, 3),
        Err(SettleError::OddUnit(3))
    );
    assert_eq!(
        try_settle(&s, &input, &v, 1, 2),
        Err(SettleError::BaseUnused(1))
    );
}

/// issue 15: base and per_tai at i64::MAX paid the winner −18; now a clear error.
#[test]
fn stakes_past_the_bounds_are_errors_not_wraps() {
    let v = Variant::builtin("taiwan16").unwrap();
    let input = points_win();
    let s = score(&input, &v).unwrap();
    for (base, per_tai, field) in [
        (i64::MAX, 1, "base"),
        (0, i64::MAX, "per_tai"),
        (-1, 1, "base"),
    ] {
        match try_settle(&s, &input, &v, base, per_tai) {
            Err(SettleError::Stake { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{base} {per_tai}: {other:?}"),
        }
    }
    // At the bounds the payments are exact: 4 tai + 1 dealer tai from East, 4 from the
    // others, plus the base each.
    let b = bounds::STAKE;
    let pay = try_settle(&s, &input, &v, b, b).unwrap();
    assert_eq!(pay[E], -(b + 5 * b));
    assert_eq!(pay[W], -(b + 4 * b));
    assert_eq!(pay.0.iter().sum::<i64>(), 0);
    // score_deal checks the stakes before anything else, drawn deal or not.
    let mut deal = taisim_sim::Deal::new(v.rules(), 3, taisim_sim::DealContext::FIRST).unwrap();
    taisim_sim::play_randomly(&mut deal, &mut taisim_sim::rng_from_seed(3), |_, _| {});
    assert!(matches!(
        score_deal(&deal, &v, i64::MAX, 1),
        Err(ScoreError::Settle(SettleError::Stake { field: "base", .. }))
    ));
}

fn load_err(text: &str) -> taisim_score::VariantError {
    Variant::from_toml_str(text, "my.toml").unwrap_err()
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

/// Whether an error is of the expected kind.
type KindCheck = fn(&VariantErrorKind) -> bool;

/// Every reason a file is refused: its kind, its key and its line.
#[test]
fn each_variant_error_kind_names_file_key_and_line() {
    let good = Variant::builtin_text("taiwan16").unwrap();
    let big = i64::MAX.to_string();
    let cases: Vec<(String, &str, &str, KindCheck)> = vec![
        (
            good.replace("base = 0", &format!("base = {big}")),
            "settlement.base",
            "base = ",
            |k| matches!(k, VariantErrorKind::OutOfBounds { .. }),
        ),
        (
            good.replace("per_tai = 1", &format!("per_tai = {big}")),
            "settlement.per_tai",
            "per_tai = ",
            |k| matches!(k, VariantErrorKind::OutOfBounds { .. }),
        ),
        (
            good.replace("false_win_penalty = 0", "false_win_penalty = -1"),
            "settlement.false_win_penalty",
            "false_win_penalty",
            |k| matches!(k, VariantErrorKind::OutOfBounds { value: -1, .. }),
        ),
        (
            good.replace("dealer_tai_per_streak = 2", "dealer_tai_per_streak = 65535"),
            "settlement.dealer_tai_per_streak",
            "dealer_tai_per_streak",
            |k| matches!(k, VariantErrorKind::OutOfBounds { value: 65535, .. }),
        ),
        (
            good.replace("flower_kong = 2", "flower_kong = 40000"),
            "patterns.flower_kong.tai",
            "flower_kong",
            |k| matches!(k, VariantErrorKind::OutOfBounds { value: 40000, .. }),
        ),
        (
            good.replace("max = 0", "max = 1\nmin = 3")
                .replace("min = 0 ", "#"),
            "tai.max",
            "max = 1",
            |k| matches!(k, VariantErrorKind::MaxBelowMin { min: 3, max: 1 }),
        ),
        (
            good.replace("name = \"taiwan16\"", "name = \" \""),
            "name",
            "name = ",
            |k| matches!(k, VariantErrorKind::EmptyName),
        ),
        (
            good.replace("scoring = \"tai\"", "scoring = \"fan\""),
            "scoring",
            "scoring = ",
            |k| matches!(k, VariantErrorKind::UnknownScoring(s) if s == "fan"),
        ),
        (
            good.replace("scoring = \"tai\"", "scoring = \"points\""),
            "scoring",
            "scoring = ",
            |k| {
                matches!(
                    k,
                    VariantErrorKind::PointsTable {
                        scoring_is_points: true
                    }
                )
            },
        ),
        (
            good.replace("all_pungs = 4", "all_pongs = 4"),
            "patterns.all_pongs",
            "all_pongs",
            |k| matches!(k, VariantErrorKind::UnknownPattern(s) if s == "all_pongs"),
        ),
        (
            good.replace(
                "excludes = [\"dragon_pung\"] }   # :66",
                "excludes = [\"x\"] } # :66",
            ),
            "patterns.little_three_dragons.excludes",
            "excludes = [\"x\"]",
            |k| matches!(k, VariantErrorKind::UnknownExclusion { .. }),
        ),
        (
            good.replace(
                "excludes = [\"dragon_pung\"] }   # :66",
                "excludes = [\"little_three_dragons\"] } # :66",
            ),
            "patterns.little_three_dragons.excludes",
            "excludes = [\"little_three_dragons\"]",
            |k| matches!(k, VariantErrorKind::ExcludesItself(_)),
        ),
        (
            good.replace(
                "self_draw = 1  ",
                "self_draw = { tai = 1, excludes = [\"concealed_self_draw\"] }  ",
            ),
            "patterns.self_draw.excludes",
            "self_draw = { tai = 1, excludes",
            |k| matches!(k, VariantErrorKind::ExclusionCycle(ids) if ids.len() == 2),
        ),
        (
            good.replace("insurance = []", "insurance = [\"fire\"]"),
            "settlement.insurance",
            "insurance = ",
            |k| matches!(k, VariantErrorKind::Syntax(s) if s.contains("unknown insurance penalty \"fire\"")),
        ),
        (
            good.replace("reserve = 16", "reserve = 100"),
            "rules.reserve",
            "reserve = 100",
            |k| matches!(k, VariantErrorKind::Rules(_)),
        ),
        (
            good.replace("[settlement]", "[settlement]\nmodel = \"all_pairs\""),
            "settlement.model",
            "model = ",
            |k| matches!(k, VariantErrorKind::Incompatible(_)),
        ),
        (
            good.replace("self_draw = 1  ", "self_draw = { tai = 1, hu = 2 }  "),
            "patterns.self_draw.hu",
            "hu = 2",
            |k| matches!(k, VariantErrorKind::Incompatible(_)),
        ),
    ];
    for (text, key, needle, kind) in cases {
        let err = load_err(&text);
        let shown = err.to_string();
        assert!(kind(&err.kind), "{shown}: {:?}", err.kind);
        assert_eq!(err.origin, "my.toml", "{shown}");
        assert_eq!(err.key, key, "{shown}");
        assert_eq!(err.line, Some(line_of(&text, needle)), "{shown}");
        assert!(
            shown.starts_with(&format!("my.toml:{}: ", line_of(&text, needle))),
            "{shown}"
        );
    }
}

/// Tai that could sum past a u16 are refused at load (issue 15: a total stuck at 65,535).
#[test]
fn pattern_tai_that_could_wrap_a_total_are_refused() {
    let mut text =
        String::from("name = \"big\"\nscoring = \"tai\"\n[rules]\n[settlement]\n[patterns]\n");
    for p in PatternId::ALL.iter().take(40) {
        text.push_str(&format!("{} = 255\n", p.id()));
    }
    let err = load_err(&text);
    assert!(
        matches!(err.kind, VariantErrorKind::OutOfBounds { .. }),
        "{err}"
    );
    assert!(err.key.starts_with("patterns"), "{err}");
}

/// A cycle through a chain (五暗刻 rules out 三暗刻 by the chain; the file makes 三暗刻 rule
/// out 五暗刻) is refused, naming both.
#[test]
fn exclusion_cycles_through_chains_are_refused() {
    let good = Variant::builtin_text("taiwan16").unwrap();
    let text = good.replace(
        "three_concealed_pungs = 2",
        "three_concealed_pungs = { tai = 2, excludes = [\"five_concealed_pungs\"] }",
    );
    let err = load_err(&text);
    let VariantErrorKind::ExclusionCycle(ids) = &err.kind else {
        panic!("{err}");
    };
    assert!(ids.contains(&"three_concealed_pungs".to_string()), "{err}");
    // Ruling out 五暗刻 rules out its lower grades too, so the first cycle found may run
    // through 四暗刻 instead: either higher grade closes it.
    assert!(
        ids.contains(&"five_concealed_pungs".to_string())
            || ids.contains(&"four_concealed_pungs".to_string()),
        "{err}"
    );
    assert!(err.to_string().contains("cycle"), "{err}");
    for name in Variant::names() {
        assert_eq!(
            Variant::builtin(name).unwrap().exclusion_cycle(),
            None,
            "{name}"
        );
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let good = Variant::builtin_text("taiwan16").unwrap();
    let with_bom = format!("\u{feff}{good}");
    assert_eq!(
        Variant::from_toml_str(&with_bom, "bom.toml").unwrap(),
        Variant::builtin("taiwan16").unwrap()
    );
}

/// issue 15: a 10 MB variant name was echoed whole to stderr.
#[test]
fn a_long_name_is_cut_in_messages() {
    let name = "x".repeat(10_000_000);
    let err = Variant::by_name_or_path(&name).unwrap_err();
    let shown = err.to_string();
    assert!(shown.len() < 600, "{} bytes", shown.len());
    assert!(shown.contains("10000000 bytes"), "{}", &shown[..200]);
    let text = format!("name = \"n\"\nscoring = \"{name}\"\n[patterns]\n");
    let shown = load_err(&text).to_string();
    assert!(shown.len() < 600, "{} bytes", shown.len());
}

/// parse → write → parse gives the same variant, for every shipped one and a points one.
#[test]
fn every_variant_round_trips_through_its_toml() {
    let mut all: Vec<Variant> = Variant::names()
        .iter()
        .map(|n| Variant::builtin(n).unwrap())
        .collect();
    all.push(points_variant(100, "all_pairs"));
    for v in all {
        let text = v.to_toml();
        let back = Variant::from_toml_str(&text, "written").unwrap();
        assert_eq!(back, v, "{text}");
        assert_eq!(back.to_toml(), text);
    }
    let v = points_variant(100, "all_pairs");
    assert_eq!(v.settlement().model, SettlementModel::AllPairs);
    assert_eq!(v.pattern_hu(PatternId::DragonPung), 4);
}

/// The shipped taizhou variant's engine rules are the engine's Taizhou rules.
#[test]
fn taizhou_variant_plays_the_engine_taizhou_rules() {
    let v = Variant::builtin("taizhou").unwrap();
    assert_eq!(v.rules(), taisim_sim::Rules::TAIZHOU);
    assert_eq!(v.settlement().model, SettlementModel::AllPairs);
    assert_eq!(
        v.scoring(),
        ScoringModel::Points {
            base_hu: 10,
            cap: 100
        }
    );
}

/// A file that says only `flowers = false` and `sets = 4` gets the procedure those imply (a
/// wall of 136, no flower replacement, three dealing turns and 跳牌): the same rules as one
/// that spells the procedure out. A procedure key the file gives is kept, so a contradiction
/// is still refused by name.
#[test]
fn a_procedure_left_out_follows_flowers_and_sets() {
    let file = |rules: &str| {
        format!(
            "name = \"t\"\nscoring = \"tai\"\n[rules]\n{rules}\n[settlement]\n[patterns]\nself_draw = 1\n"
        )
    };
    let short = Variant::from_toml_str(
        &file("flowers = false\nflower_wins = false\nsets = 4"),
        "short.toml",
    )
    .unwrap();
    let spelled = Variant::from_toml_str(
        &file(
            "flowers = false\nflower_wins = false\nsets = 4\n\
             procedure = { tiles = \"no_flowers\", dealing = { per_turn = 4, turns = 3 }, \
             setup = { wild_indicator = false, flower_replacement = false } }",
        ),
        "spelled.toml",
    )
    .unwrap();
    assert_eq!(short.rules(), spelled.rules());
    let r = short.rules();
    assert_eq!((r.wall_size(), r.hand_size()), (136, 13));
    assert_eq!(r.procedure.dealing, taisim_sim::DealingOrder::new(4, 3));
    assert!(!r.procedure.setup.flower_replacement);
    // 16 tiles without flowers: four dealing turns.
    let sixteen =
        Variant::from_toml_str(&file("flowers = false\nflower_wins = false"), "16.toml").unwrap();
    assert_eq!(
        sixteen.rules().procedure.dealing,
        taisim_sim::DealingOrder::TAIWAN16
    );
    assert_eq!(sixteen.rules().wall_size(), 136);
    // Flowers left on: taiwan16's procedure, as before.
    let default = Variant::from_toml_str(&file("reserve = 16"), "d.toml").unwrap();
    assert_eq!(
        default.rules().procedure,
        taisim_sim::TableProcedure::TAIWAN16
    );
    // A key given is kept: flowers off with a wall of flowers is refused, naming flowers.
    let e = Variant::from_toml_str(
        &file("flowers = false\nflower_wins = false\nprocedure = { tiles = \"with_flowers\" }"),
        "bad.toml",
    )
    .unwrap_err();
    assert_eq!(e.key, "rules.flowers", "{e}");
    assert_eq!(e.line, Some(4), "{e}");
    assert!(matches!(e.kind, VariantErrorKind::Rules(_)), "{e}");
    // And the variant written back reads back the same.
    let back = Variant::from_toml_str(&short.to_toml(), "back.toml").unwrap();
    assert_eq!(back.rules(), short.rules());
}
