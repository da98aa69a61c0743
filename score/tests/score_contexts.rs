//! Scoring contexts checked against the seats and the hand (issue 15): each impossible
//! circumstance is refused with a message naming it, and its near miss, the same request
//! made possible, is scored. Requests go through `score_json`, the path of `taisim score
//! --json` and of the Python `taisim.score`.

use taisim_score::{score_json, RequestError, ScoreError};

/// A self-drawn or discard win of S (dealer E) on a single wait, with `extra` JSON fields
/// (a `hand` among them replaces the default one).
fn request(win: &str, extra: &str) -> String {
    let hand = if extra.contains(r#""hand""#) {
        ""
    } else {
        r#""hand": "123m 456m 789m 234p 99s 345s", "#
    };
    format!(r#"{{"seat": "S", {hand}"win_tile": "9s", "win": "{win}"{extra}}}"#)
}

/// Each impossible request, the words its refusal must hold, and the request made
/// possible (the near miss that must score).
const CASES: &[(&str, &str, &str, &str, &str, &str)] = &[
    // (why, win, extra, refusal words, near-miss win, near-miss extra)
    // taiwan16-common.txt:90 天胡 莊家專屬: a non-dealer.
    (
        "heavenly for a non-dealer",
        "self_draw",
        r#", "context": ["heavenly"]"#,
        "heavenly (天胡)",
        "self_draw",
        r#", "dealer": "S", "context": ["heavenly"]"#,
    ),
    (
        "heavenly on a discard",
        "discard",
        r#", "dealer": "S", "discarder": "W", "context": ["heavenly"]"#,
        "heavenly (天胡)",
        "self_draw",
        r#", "dealer": "S", "context": ["heavenly"]"#,
    ),
    // :90 不可暗槓: no kong before 天胡.
    (
        "heavenly with a concealed kong",
        "self_draw",
        r#", "dealer": "S", "hand": "123m 456m 234p 99s 345s", "melds": [["concealed_kong", "7777m"]], "context": ["heavenly"]"#,
        "no melds",
        "self_draw",
        r#", "dealer": "S", "hand": "123m 456m 234p 99s 345s", "melds": [["concealed_kong", "7777m"]]"#,
    ),
    // :86 人胡 閒家專屬, 胡他人牌.
    (
        "human on a dealer's self-draw",
        "self_draw",
        r#", "dealer": "S", "context": ["human"]"#,
        "human (人胡)",
        "discard",
        r#", "discarder": "E", "context": ["human"]"#,
    ),
    (
        "human on a self-draw",
        "self_draw",
        r#", "context": ["human"]"#,
        "human (人胡)",
        "discard",
        r#", "discarder": "E", "context": ["human"]"#,
    ),
    (
        "human after a claim",
        "discard",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["pung", "777m"]], "discarder": "E", "context": ["human"]"#,
        "no melds",
        "discard",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["pung", "777m"]], "discarder": "E""#,
    ),
    // :88 地胡 閒家專屬.
    (
        "earthly for the dealer",
        "self_draw",
        r#", "dealer": "S", "context": ["earthly"]"#,
        "earthly (地胡)",
        "self_draw",
        r#", "context": ["earthly"]"#,
    ),
    (
        "earthly on a discard",
        "discard",
        r#", "discarder": "W", "context": ["earthly"]"#,
        "earthly (地胡)",
        "self_draw",
        r#", "context": ["earthly"]"#,
    ),
    // :44 搶槓 is won on another's kong tile.
    (
        "robbing_kong on a self-draw",
        "self_draw",
        r#", "context": ["robbing_kong"]"#,
        "robbing_kong (搶槓)",
        "discard",
        r#", "hand": "123m 456m 789m 234p 99p 789s", "discarder": "W", "context": ["robbing_kong"]"#,
    ),
    // The first go-round: :90 天胡 before any discard; :88 地胡 on the first draw; :86
    // 人胡 on a discard before the winner's first draw (S sits one after the dealer E).
    (
        "heavenly after discards",
        "self_draw",
        r#", "dealer": "S", "discards": 4, "context": ["heavenly"]"#,
        "discards must be 0",
        "self_draw",
        r#", "dealer": "S", "discards": 0, "context": ["heavenly"]"#,
    ),
    (
        "earthly after a full go-round",
        "self_draw",
        r#", "discards": 4, "context": ["earthly"]"#,
        "earthly (地胡)",
        "self_draw",
        r#", "discards": 1, "context": ["earthly"]"#,
    ),
    (
        "human on a discard by a seat after the winner",
        "discard",
        r#", "discarder": "W", "discards": 3, "context": ["human"]"#,
        "human (人胡)",
        "discard",
        r#", "discarder": "E", "discards": 1, "context": ["human"]"#,
    ),
    // The same seat order with the discards made not given: W and N discard after S's
    // first draw, whenever the win came.
    (
        "human on a discard by the seat after the winner, discards not given",
        "discard",
        r#", "discarder": "W", "context": ["human"]"#,
        "human (人胡)",
        "discard",
        r#", "discarder": "E", "context": ["human"]"#,
    ),
    (
        "human on the discard of the seat before the dealer, discards not given",
        "discard",
        r#", "discarder": "N", "context": ["human"]"#,
        "human (人胡)",
        "discard",
        r#", "dealer": "N", "discarder": "N", "context": ["human"]"#,
    ),
    // 天胡, 地胡 and 人胡 come in the first go-round, before the winner's first discard: the
    // wall is nearly whole (not 海底), and no ready hand was declared with a discard (:67 地聽
    // 起牌後海底打進八張牌內; :81 天聽 the dealer's first discard). Issue 22.
    (
        "heavenly on the last tile",
        "self_draw",
        r#", "dealer": "S", "context": ["heavenly", "last_tile"]"#,
        "never on the last tile",
        "self_draw",
        r#", "dealer": "S", "context": ["heavenly"]"#,
    ),
    (
        "heavenly with a declared ready hand",
        "self_draw",
        r#", "dealer": "S", "context": ["heavenly", "declared_ready"]"#,
        "not with declared_ready",
        "self_draw",
        r#", "dealer": "S", "context": ["heavenly"]"#,
    ),
    (
        "heavenly with the dealer's 天聽",
        "self_draw",
        r#", "dealer": "S", "context": ["heavenly", "ready_on_deal"]"#,
        "not with ready_on_deal",
        "self_draw",
        r#", "dealer": "S", "context": ["ready_on_deal"]"#,
    ),
    (
        "earthly on the last tile",
        "self_draw",
        r#", "context": ["earthly", "last_tile"]"#,
        "never on the last tile",
        "self_draw",
        r#", "context": ["earthly"]"#,
    ),
    (
        "earthly with a declared ready hand",
        "self_draw",
        r#", "context": ["earthly", "declared_ready"]"#,
        "not with declared_ready",
        "self_draw",
        // A non-dealer ready on its dealt hand (the 2015 table's 平家天聽) may win 地胡 there:
        // `ready_on_the_deal_before_a_first_discard_is_the_2015_table_s_alone`.
        r#", "context": ["earthly"]"#,
    ),
    (
        "human on the last tile",
        "discard",
        r#", "discarder": "E", "context": ["human", "last_tile"]"#,
        "never on the last tile",
        "discard",
        r#", "discarder": "E", "context": ["human"]"#,
    ),
    (
        "human with a declared ready hand",
        "discard",
        r#", "discarder": "E", "context": ["human", "declared_ready"]"#,
        "not with declared_ready",
        "discard",
        r#", "discarder": "E", "context": ["human"]"#,
    ),
    (
        "late_fresh_discard on a self-draw",
        "self_draw",
        r#", "context": ["late_fresh_discard"]"#,
        "late_fresh_discard",
        "discard",
        r#", "discarder": "W", "context": ["late_fresh_discard"]"#,
    ),
    // :44 搶槓: the robbed pung holds the other three copies.
    (
        "robbing_kong with another copy of the tile held",
        "discard",
        r#", "discarder": "W", "context": ["robbing_kong"]"#,
        "the winner holds no other",
        "discard",
        r#", "hand": "123m 456m 789m 234p 99p 789s", "discarder": "W", "context": ["robbing_kong"]"#,
    ),
    // :67 地聽 無發生吃、碰、槓; a declared ready hand is locked.
    (
        "declared_ready with a pung",
        "discard",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["pung", "777m"]], "discarder": "E", "context": ["declared_ready"]"#,
        "天聽/地聽",
        "discard",
        r#", "discarder": "E", "context": ["declared_ready"]"#,
    ),
    (
        "ready_on_deal with a concealed kong",
        "self_draw",
        r#", "dealer": "S", "hand": "123m 456m 234p 99s 345s", "melds": [["concealed_kong", "7777m"]], "context": ["ready_on_deal"]"#,
        "天聽/地聽",
        "self_draw",
        r#", "dealer": "S", "context": ["ready_on_deal"]"#,
    ),
    // :45 槓上開花 after a kong.
    (
        "kong_replacement on a discard",
        "discard",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["concealed_kong", "7777m"]], "discarder": "W", "context": ["kong_replacement"]"#,
        "kong_replacement (槓上開花)",
        "self_draw",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["concealed_kong", "7777m"]], "context": ["kong_replacement"]"#,
    ),
    (
        "kong_replacement without a kong",
        "self_draw",
        r#", "context": ["kong_replacement"]"#,
        "needs a kong",
        "self_draw",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["added_kong", "7777m"]], "context": ["kong_replacement"]"#,
    ),
    (
        "a claimed kong's discarder on a kong replacement without such a kong",
        "self_draw",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["concealed_kong", "7777m"]], "discarder": "W", "context": ["kong_replacement"]"#,
        "discarder W",
        "self_draw",
        r#", "hand": "123m 456m 234p 99s 345s", "melds": [["kong", "7777m"]], "discarder": "W", "context": ["kong_replacement"]"#,
    ),
    // :45 補花後所摸進的牌.
    (
        "flower_replacement without a flower",
        "self_draw",
        r#", "context": ["flower_replacement"]"#,
        "flower_replacement (槓上開花)",
        "self_draw",
        r#", "flowers": ["f3"], "context": ["flower_replacement"]"#,
    ),
    (
        "flower_replacement on a discard",
        "discard",
        r#", "flowers": ["f3"], "discarder": "W", "context": ["flower_replacement"]"#,
        "flower_replacement (槓上開花)",
        "self_draw",
        r#", "flowers": ["f3"], "context": ["flower_replacement"]"#,
    ),
    // :77 七搶一 持7張花牌, :79 八仙過海 全部8張.
    (
        "flower_win with no flower",
        "self_draw",
        r#", "context": ["flower_win"]"#,
        "flower_win (八仙過海)",
        "self_draw",
        r#", "flowers": ["f1","f2","f3","f4","f5","f6","f7","f8"], "context": ["flower_win"]"#,
    ),
    (
        "flower_win with one flower, robbed",
        "discard",
        r#", "flowers": ["f1"], "discarder": "W", "context": ["flower_win"]"#,
        "flower_win (七搶一)",
        "discard",
        r#", "flowers": ["f1","f2","f3","f4","f5","f6","f7"], "discarder": "W", "context": ["flower_win"]"#,
    ),
    (
        "flower_win with another circumstance",
        "self_draw",
        r#", "flowers": ["f1","f2","f3","f4","f5","f6","f7","f8"], "context": ["flower_win", "last_tile"]"#,
        "no other circumstance",
        "self_draw",
        r#", "flowers": ["f1","f2","f3","f4","f5","f6","f7","f8"], "context": ["flower_win"]"#,
    ),
    // 天聽 (or 平家天聽) and 地聽 are two declarations of one ready hand, graded apart
    // (taiwan16-common.txt:67, :81): in either order, both are refused, not the later kept.
    (
        "ready on the deal and declared ready",
        "discard",
        r#", "discarder": "W", "context": ["ready_on_deal", "declared_ready"]"#,
        "two ways of being ready",
        "discard",
        r#", "discarder": "W", "context": ["declared_ready"]"#,
    ),
    (
        "declared ready and ready on the deal",
        "discard",
        r#", "discarder": "W", "context": ["declared_ready", "ready_on_deal"]"#,
        "two ways of being ready",
        "discard",
        r#", "discarder": "W", "context": ["ready_on_deal"]"#,
    ),
    // The discards made include the winning one: a discard win after none is impossible
    // (mahjongtime paid it 10 tai as won within the first five discards).
    (
        "a discard win after no discard",
        "discard",
        r#", "discarder": "W", "discards": 0"#,
        "discards 0",
        "discard",
        r#", "discarder": "W", "discards": 3"#,
    ),
    // A self-draw is paid by all three; there is no discarder to name.
    (
        "a discarder with a self-draw",
        "self_draw",
        r#", "discarder": "W""#,
        "discarder W: a self-draw has no discarder",
        "discard",
        r#", "discarder": "W""#,
    ),
];

#[test]
fn impossible_contexts_are_refused_by_name_and_their_near_misses_score() {
    for &(why, win, extra, words, ok_win, ok_extra) in CASES {
        for variant in ["taiwan16", "taiwan16-2015", "taiwan16-house", "mahjongtime"] {
            let with_variant = |extra: &str| format!(r#", "variant": "{variant}"{extra}"#);
            let bad = request(win, &with_variant(extra));
            match score_json(&bad) {
                Ok(out) => panic!("{variant}: {why}: accepted: {out}"),
                Err(e) => assert!(
                    e.to_string().contains(words),
                    "{variant}: {why}: {e:?} lacks {words:?}"
                ),
            }
            let good = request(ok_win, &with_variant(ok_extra));
            if let Err(e) = score_json(&good) {
                panic!("{variant}: {why}: near miss refused: {e}");
            }
        }
    }
}

/// The context named in the issue that the old scorer paid: flower wins with too few
/// flowers paid the base with exit 0.
#[test]
fn flower_win_refusals_name_the_flowers_needed() {
    let e = score_json(&request(
        "self_draw",
        r#", "flowers": ["f1"], "context": ["flower_win"]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("all eight flowers"), "{e}");
    let e = score_json(&request(
        "discard",
        r#", "flowers": ["f1","f2","f3","f4","f5","f6"], "discarder": "N", "context": ["flower_win"]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("seven flowers"), "{e}");
}

/// A chow that runs off its suit, handed in through the Rust API, is refused by name (it
/// used to index past the tile table).
#[test]
fn a_chow_off_its_suit_is_refused() {
    use taisim_score::{score, ScoreError, Variant, WinInput};
    use taisim_sim::{parse_hand, parse_tile, Meld, MeldKind, Wind};
    let v = Variant::builtin("taiwan16").unwrap();
    for (low, ok) in [("8m", false), ("C", false), ("7m", true)] {
        let mut input = WinInput::new(
            Wind::South,
            parse_hand("123m 456m 234p 99s 345s").unwrap(),
            parse_tile("9s").unwrap(),
            true,
        );
        let m = Meld::new(MeldKind::Chow, parse_tile(low).unwrap(), Wind::East, 0);
        input.melds.push(m);
        match score(&input, &v) {
            Err(ScoreError::BadChow(bad)) => assert!(!ok && bad == m, "{low}"),
            Ok(_) => assert!(ok, "{low} accepted"),
            Err(e) => panic!("{low}: {e}"),
        }
    }
}

/// Taizhou requests no deal produces (issue 22): a win on a discarded wild (taizhou.md 得牌
/// "也不能参与吃 / 碰 / 杠"; the engine never offers it: `wilds_in_claims = false`), and flowers
/// (taizhou.md 共136张: the variant has none; they were ignored silently). Each with its near
/// miss, which scores.
#[test]
fn taizhou_impossible_requests_are_refused() {
    // The first worked example's hand with a second wild: 234m 456p, 77s pair, 9s + 9s + 白板
    // a pung of 9s (白板 read as the wild's face), 中 melded.
    let req = |win: &str, extra: &str| {
        format!(
            r#"{{"variant": "taizhou", "seat": "S", "dealer": "E", "wild": "9s",
                "hand": "234m 456p 77s 9s P 9s", "melds": [["pung", "CCC"]],
                "win_tile": "9s", "win": "{win}"{extra}}}"#
        )
    };
    // Refused by scoring's own check, and the kind says so.
    let e = score_json(&req("discard", r#", "discarder": "W""#)).unwrap_err();
    assert!(
        matches!(
            e,
            RequestError::Score(ScoreError::WinOnDiscardedWild(t)) if t.to_string() == "9s"
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("discarded 9s, the wild kind"), "{e}");
    let e = score_json(&req(
        "discard",
        r#", "discarder": "W", "context": ["robbing_kong"]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("discarded 9s, the wild kind"), "{e}");
    // Near misses: the same wild self-drawn; a discarded 白板 (never wild, "但不能成为得牌").
    score_json(&req("self_draw", "")).unwrap();
    let white = req("discard", r#", "discarder": "W""#)
        .replace(r#""win_tile": "9s""#, r#""win_tile": "P""#)
        .replace("9s P 9s", "9s 9s P");
    score_json(&white).unwrap();

    let e = score_json(&req("self_draw", r#", "flowers": ["f2"]"#)).unwrap_err();
    assert!(
        matches!(e, RequestError::Score(ScoreError::FlowersUnused(_))),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("without flowers") && e.contains("f2"), "{e}");
    score_json(&req("self_draw", r#", "flowers": []"#)).unwrap();
}

/// Flowers given to any variant played without them are refused by name, not priced: a
/// taiwan16 file with `flowers = false` would otherwise pay 正花 and 花槓 for them.
#[test]
fn flowers_are_refused_where_the_variant_has_none() {
    use taisim_score::{score, ScoreError, Variant, WinInput};
    use taisim_sim::{parse_flowers, parse_hand, parse_tile, Wind};
    let v = Variant::builtin("taiwan16").unwrap();
    let mut input = WinInput::new(
        Wind::South,
        parse_hand("123m 456m 789m 234p 99s 345s").unwrap(),
        parse_tile("9s").unwrap(),
        true,
    );
    input.flowers = parse_flowers("f2 f6").unwrap();
    // With flowers, 正花 twice (f2 and f6 are South's).
    let s = score(&input, &v).unwrap();
    assert_eq!(s.tai_of(taisim_score::PatternId::SeatFlower), 2);
    // taiwan16 played without flowers: a 136-tile wall, no flower wins.
    let mut file: toml::Table = toml::from_str(Variant::builtin_text("taiwan16").unwrap()).unwrap();
    let rules = file["rules"].as_table_mut().unwrap();
    rules.insert("flowers".into(), false.into());
    rules.insert("flower_wins".into(), false.into());
    if let Some(p) = rules.get_mut("procedure").and_then(|p| p.as_table_mut()) {
        p.remove("tiles");
    }
    let v = Variant::from_toml_str(&toml::to_string(&file).unwrap(), "no flowers").unwrap();
    assert!(!v.rules().flowers);
    match score(&input, &v) {
        Err(ScoreError::FlowersUnused(f)) => assert_eq!(f, input.flowers),
        other => panic!("{other:?}"),
    }
    // Near miss: no flowers, scored.
    input.flowers = taisim_sim::FlowerSet::EMPTY;
    assert!(score(&input, &v).is_ok());
}

/// A non-dealer's `ready_on_deal` is the 2015 table's 平家天聽 (heavenly_ready, :321-324
/// 取完牌後即聽牌), which 人胡 and 地胡 exclude there. Elsewhere it reads as a declared ready
/// hand (地聽, taiwan16-common.txt:67), declared with a discard, which a 人胡 or 地胡 winner
/// has not made: refused as `declared_ready` is, not paid 地聽 beside the win.
#[test]
fn ready_on_the_deal_before_a_first_discard_is_the_2015_table_s_alone() {
    let cases = [
        (
            "human",
            r#", "discarder": "E", "context": ["human", "ready_on_deal"]"#,
        ),
        (
            "earthly",
            r#", "discards": 1, "context": ["earthly", "ready_on_deal"]"#,
        ),
    ];
    for (what, extra) in cases {
        let win = if what == "human" {
            "discard"
        } else {
            "self_draw"
        };
        for variant in ["taiwan16", "taiwan16-house", "mahjongtime"] {
            let req = request(win, &format!(r#", "variant": "{variant}"{extra}"#));
            match score_json(&req) {
                Ok(out) => panic!("{variant}: {what}: accepted: {out}"),
                Err(e) => assert!(
                    e.to_string()
                        .contains("no non-dealer ready on the dealt hand"),
                    "{variant}: {what}: {e}"
                ),
            }
        }
        let req = request(win, &format!(r#", "variant": "taiwan16-2015"{extra}"#));
        let out = score_json(&req).unwrap_or_else(|e| panic!("2015: {what}: {e}"));
        assert!(!out.contains("earthly_ready"), "2015: {what}: {out}");
    }
}
