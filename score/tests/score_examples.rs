//! Every worked example of the rule texts, scored as the texts say.

use taisim_score::{score, settle, PatternId, Score, Variant, WinInput};
use taisim_sim::{parse_hand, parse_tile, parse_tiles, Meld, MeldKind, Wind};

fn win(hand: &str, tile: &str, self_draw: bool, seat: Wind) -> WinInput {
    let mut input = WinInput::new(
        seat,
        parse_hand(hand).unwrap(),
        parse_tile(tile).unwrap(),
        self_draw,
    );
    if !self_draw {
        input.discarder = Some(seat.add(1));
    }
    input
}

fn meld(kind: MeldKind, tiles: &str) -> Meld {
    let t = parse_tiles(tiles).unwrap();
    Meld::new(kind, *t.iter().min().unwrap(), Wind::East, 0)
}

fn scored(input: &WinInput, variant: &str) -> Score {
    score(input, &Variant::builtin(variant).unwrap()).unwrap()
}

/// mahjongtime-taiwanese-scoring.md:106-120: North wins in the South round on a pung hand
/// with a melded kong and an honor pung, out on a pair, claiming East's discard: Winning 2 +
/// Melded kong 1 + Honor pung 1 + Pung hand 10 + Out on a pair 1, "Total – 16 tai". The
/// hand's picture is lost and the five listed items make 15; the hand has no flowers, and
/// "No Flowers or Seasons – 1" (scoring.md:25) makes the 16.
fn mahjongtime_example(dealer: Wind) -> WinInput {
    let mut input = win("999m EE", "E", false, Wind::North);
    input.discarder = Some(Wind::East);
    input.round_wind = Wind::South;
    input.dealer = dealer;
    for (k, t) in [
        (MeldKind::Kong, "5555p"),
        (MeldKind::Pung, "777s"),
        (MeldKind::Pung, "222m"),
        (MeldKind::Pung, "CCC"),
    ] {
        input.melds.push(meld(k, t));
    }
    input
}

#[test]
fn mahjongtime_sixteen_tai_example() {
    let input = mahjongtime_example(Wind::South);
    let s = scored(&input, "mahjongtime");
    let got: Vec<(&str, u16)> = s.patterns.iter().map(|p| (p.id.id(), p.tai)).collect();
    assert_eq!(
        got,
        [
            ("winning", 2),
            ("single_wait", 1),
            ("no_flowers", 1),
            ("honor_pung", 1),
            ("exposed_kong", 1),
            ("all_pungs", 10),
        ]
    );
    assert_eq!(s.total, 16);
}

/// scoring.md:124-158: the discarder East alone pays the winner's 16; the others pay
/// nothing; the points stay 8,000 in all (1984, 2000, 2000, 2016).
#[test]
fn mahjongtime_payments_table() {
    let variant = Variant::builtin("mahjongtime").unwrap();
    // In the South round the deal is not East's: no dealer's bonus changes hands.
    let input = mahjongtime_example(Wind::South);
    let s = score(&input, &variant).unwrap();
    let pay = settle(&s, &input, &variant, 0, 1);
    let after: Vec<i64> = Wind::ALL.iter().map(|&w| 2000 + pay[w]).collect();
    assert_eq!(after, [1984, 2000, 2000, 2016]);
    assert_eq!(after.iter().sum::<i64>(), 8000);
    // If East deals, its discard also pays the dealer's bonus (rules.txt:73), and after a
    // continued deal the continued-deal bonus 2 per deal (rules.txt:79-81).
    let mut input = mahjongtime_example(Wind::East);
    input.streak = 2;
    let s = score(&input, &variant).unwrap();
    assert_eq!(s.dealer_tai, 5);
    let pay = settle(&s, &input, &variant, 0, 1);
    assert_eq!((pay[Wind::East], pay[Wind::North]), (-21, 21));
    // A non-dealer's self-draw: the dealer pays no bonus (rules.txt:73 names only the
    // dealer winning or discarding).
    let mut input = win("123m 456m 789p 234p 99s 345s", "9s", true, Wind::North);
    input.dealer = Wind::East;
    let s = score(&input, &variant).unwrap();
    assert_eq!(s.dealer_tai, 0);
    let pay = settle(&s, &input, &variant, 0, 1);
    assert_eq!(pay[Wind::East], pay[Wind::South]);
}

/// mahjongtime insurance (rules.txt:104): three melded wind sets, a wind discard completes
/// little four winds: the discarder pays for all three losers.
#[test]
fn mahjongtime_insurance_penalty() {
    let variant = Variant::builtin("mahjongtime").unwrap();
    let mut input = win("NNN 123m 66m", "N", false, Wind::North);
    input.discarder = Some(Wind::South);
    for t in ["EEE", "SSS", "WWW"] {
        input.melds.push(meld(MeldKind::Pung, t));
    }
    // NNN completes big four winds on the discard.
    let s = score(&input, &variant).unwrap();
    assert!(s.has(PatternId::BigFourWinds), "{s:?}");
    let pay = settle(&s, &input, &variant, 0, 1);
    let each = s.total as i64;
    // East deals: its share (had it been a self-draw) would carry no bonus either, since a
    // non-dealer's self-draw pays none in this variant.
    assert_eq!(pay[Wind::South], -3 * each);
    assert_eq!(pay[Wind::North], 3 * each);
    // Without the insurance rule the discarder pays only its own share.
    let text = Variant::builtin_text("mahjongtime").unwrap().replace(
        r#"insurance = ["full_flush", "four_winds", "three_dragons", "last_five"]"#,
        "insurance = []",
    );
    let plain = Variant::from_toml_str(&text, "mahjongtime without insurance").unwrap();
    assert!(!plain.settlement().insurance.four_winds);
    let pay = settle(&s, &input, &plain, 0, 1);
    assert_eq!(pay[Wind::South], -each);
}

/// One insured win: why, dealer, winner, liable discarder, streak, and each seat's payment
/// (E, S, W, N) as (hand tai, dealer tai) coefficients.
type InsuredRow = (&'static str, Wind, Wind, Wind, u8, [(i64, i64); 4]);

/// Plays each row's win (big four winds on a wind discard, three wind sets melded: insured)
/// under `variant` and checks every seat's payment, their sum and the reported dealer tai.
fn check_insured_rows(variant: &Variant, rows: &[InsuredRow]) {
    for &(why, dealer, winner, liable, streak, want) in rows {
        let mut input = win("NNN 123m 66m", "N", false, winner);
        input.dealer = dealer;
        input.discarder = Some(liable);
        input.streak = streak;
        for t in ["EEE", "SSS", "WWW"] {
            input.melds.push(meld(MeldKind::Pung, t));
        }
        let s = score(&input, variant).unwrap();
        assert!(s.has(PatternId::BigFourWinds), "{why}: {s:?}");
        let (tai, dealer_tai) = (s.total as i64, variant.dealer_tai(streak) as i64);
        let pay = settle(&s, &input, variant, 0, 1);
        for (seat, (a, b)) in Wind::ALL.into_iter().zip(want) {
            assert_eq!(
                pay[seat],
                a * tai + b * dealer_tai,
                "{why}: {seat} of {pay:?}"
            );
        }
        assert_eq!(pay.0.iter().sum::<i64>(), 0, "{why}");
        // The reported dealer tai is the bonus that changes hands.
        let involved = want.iter().any(|&(_, b)| b != 0);
        assert_eq!(
            s.dealer_tai as i64,
            if involved { dealer_tai } else { 0 },
            "{why}"
        );
    }
}

/// mahjongtime insurance payments, seat by seat (rules.txt:116: the liable player "must pay
/// for all losers (that is, not only for himself, but also for the other two players)"),
/// with the dealer's bonus where :73 and :79-81 put it: on a discard it "is paid by the
/// discarder alone (and just for himself, not for all losers)", so the liable discarder pays
/// it once, in its own share, when the dealer wins or when it is the dealer ("must himself
/// pay" it); a non-dealer's win on a non-dealer's discard carries none. Each row: dealer,
/// winner, liable discarder, streak, and each seat's payment (E, S, W, N) as (hand tai,
/// dealer tai) coefficients.
#[test]
fn mahjongtime_insurance_payments_by_seat() {
    use Wind::{East as E, North as N, South as S, West as W};
    let variant = Variant::builtin("mahjongtime").unwrap();
    let rows: [InsuredRow; 6] = [
        // :73 + :116: the dealer discards; its own share with the bonus, the others' without.
        (
            "dealer liable, non-dealer wins",
            E,
            N,
            E,
            2,
            [(-3, -1), (0, 0), (0, 0), (3, 1)],
        ),
        (
            "dealer liable, no streak",
            E,
            N,
            E,
            0,
            [(-3, -1), (0, 0), (0, 0), (3, 1)],
        ),
        (
            "dealer S liable, W wins",
            S,
            W,
            S,
            1,
            [(0, 0), (-3, -1), (3, 1), (0, 0)],
        ),
        // :73 "otherwise it is paid by the discarder alone (and just for himself, not for
        // all losers)": the liable discarder pays the bonus once, with its own share.
        (
            "non-dealer liable, dealer wins",
            E,
            E,
            S,
            2,
            [(3, 1), (-3, -1), (0, 0), (0, 0)],
        ),
        // :73 names only the dealer winning or discarding: no bonus in any share.
        (
            "non-dealer liable, non-dealer wins",
            E,
            N,
            S,
            2,
            [(0, 0), (-3, 0), (0, 0), (3, 0)],
        ),
        (
            "non-dealer liable, dealer's left wins",
            W,
            S,
            E,
            3,
            [(-3, 0), (3, 0), (0, 0), (0, 0)],
        ),
    ];
    check_insured_rows(&variant, &rows);
}

/// The bonus is paid "just for himself, not for all losers" (rules.txt:73) under any
/// settlement: with a dealer who pays its bonus on another's self-draw
/// (`dealer_pays_on_self_draw`, taiwan16's :27) the liable non-dealer still pays the other
/// losers' hands alone, the dealer among them, and the win reports no dealer tai.
#[test]
fn insured_payment_for_other_losers_carries_no_bonus() {
    let text = Variant::builtin_text("mahjongtime").unwrap().replace(
        "dealer_pays_on_self_draw = false",
        "dealer_pays_on_self_draw = true",
    );
    let variant = Variant::from_toml_str(&text, "mahjongtime, dealer pays on self-draw").unwrap();
    assert!(variant.settlement().dealer_pays_on_self_draw);
    use Wind::{East as E, North as N, South as S, West as W};
    check_insured_rows(
        &variant,
        &[
            (
                "S liable, E deals",
                E,
                N,
                S,
                2,
                [(0, 0), (-3, 0), (0, 0), (3, 0)],
            ),
            (
                "S liable, W deals",
                W,
                N,
                S,
                2,
                [(0, 0), (-3, 0), (0, 0), (3, 0)],
            ),
            (
                "the dealer liable",
                E,
                N,
                E,
                2,
                [(-3, -1), (0, 0), (0, 0), (3, 1)],
            ),
            (
                "the dealer wins",
                E,
                E,
                S,
                2,
                [(3, 1), (-3, -1), (0, 0), (0, 0)],
            ),
        ],
    );
}

/// The probe's request (issue: a liable dealer stopped paying its bonus): N wins on E's
/// fresh discard with five or fewer tiles left (rules.txt:108 "Last Five Tiles error"), E
/// deals with a streak of 2 (dealer tai 1 + 2 × 2 = 5), the hand is 5 tai: E pays its own
/// 5 + 5 and the other two losers' 5 each, 20.
#[test]
fn mahjongtime_liable_dealer_pays_its_bonus() {
    let request = r#"{"variant":"mahjongtime","seat":"N","round_wind":"E","dealer":"E","dealer_streak":2,"hand":"456m 55p 344556678s","melds":[["pung","111p"]],"flowers":["f6"],"win_tile":"4s","win":"discard","discarder":"E","context":["last_tile","late_fresh_discard"],"base":0,"per_tai":1}"#;
    let answer: serde_json::Value =
        serde_json::from_str(&taisim_score::score_json(request).unwrap()).unwrap();
    assert_eq!(answer["total_tai"], 5, "{answer}");
    assert_eq!(answer["dealer_tai"], 5, "{answer}");
    let pay = &answer["settlement"];
    assert_eq!(
        [&pay["E"], &pay["S"], &pay["W"], &pay["N"]].map(|v| v.as_i64().unwrap()),
        [-20, 0, 0, 20],
        "{answer}"
    );
}

/// taiwan16-2015-table.txt:229-235: a chow with pungs of two of its tiles is 雙四歸一 (10);
/// two chows each with one pung are two 四歸一, "只有 2台".
#[test]
fn two_pungs_and_chow_notes() {
    let s = scored(
        &win("333m 444m 345m 789p 123s 99s", "9s", false, Wind::South),
        "taiwan16-2015",
    );
    assert_eq!(s.tai_of(PatternId::TwoPungsAndChow), 10);
    assert!(!s.has(PatternId::PungAndChow));
    let s = scored(
        &win("234s 333s 345m 333m 789p 99p", "9p", false, Wind::South),
        "taiwan16-2015",
    );
    assert_eq!(s.tai_of(PatternId::PungAndChow), 2);
    assert!(!s.has(PatternId::TwoPungsAndChow));
}

/// taiwan16-2015-table.txt:342-352: 345m + 333m + 444m + 555m is 三個四歸一 (40, 不計三連碰);
/// 345m + 333m + 444m + 234s + 333s is 雙四歸一 + 四歸一 = 11 (不計三連碰).
#[test]
fn three_pungs_and_chow_notes() {
    // With 555m melded, the hand reads only as pungs and a chow.
    let mut input = win("333m 444m 345m 789p 99s", "9s", false, Wind::South);
    input.melds.push(meld(MeldKind::Pung, "555m"));
    let s = scored(&input, "taiwan16-2015");
    assert_eq!(s.tai_of(PatternId::ThreePungsAndChow), 40, "{s:?}");
    assert!(!s.has(PatternId::ThreeConsecutivePungs));
    // All concealed, the same tiles also read as four 345m chows (四般高 40 with 大平胡):
    // the best reading wins, and it is that one.
    let s = scored(
        &win("333m 444m 555m 345m 789p 99s", "9s", false, Wind::South),
        "taiwan16-2015",
    );
    assert_eq!(s.tai_of(PatternId::FourIdenticalChows), 40, "{s:?}");
    assert!(!s.has(PatternId::ThreePungsAndChow));
    let s = scored(
        &win("345m 333m 444m 234s 333s 99p", "9p", false, Wind::South),
        "taiwan16-2015",
    );
    assert_eq!(
        s.tai_of(PatternId::TwoPungsAndChow) + s.tai_of(PatternId::PungAndChow),
        11
    );
    assert!(!s.has(PatternId::ThreeConsecutivePungs));
}

/// taiwan16-2015-table.txt:295-298: 尼姑 (seven pairs and a triplet) 20, 不計門清, other
/// patterns counted (字 for an honor triplet, 缺五 here).
#[test]
fn eight_pairs_2015() {
    let s = scored(
        &win("11m 22m 77p 88p 99s EE CC FFF", "F", false, Wind::South),
        "taiwan16-2015",
    );
    assert_eq!(s.tai_of(PatternId::EightPairs), 20);
    assert!(!s.has(PatternId::ConcealedHand));
    assert_eq!(s.tai_of(PatternId::HonorPung), 1);
    assert!(s.has(PatternId::NoFives));
    // Not a winning shape where the variant has no 尼姑.
    let input = win("11m 22m 77p 88p 99s EE CC FFF", "F", false, Wind::South);
    assert!(score(&input, &Variant::builtin("taiwan16").unwrap()).is_err());
    // mahjongtime: "Seven pairs and a triplet" 30 (scoring.md:97).
    assert_eq!(
        scored(&input, "mahjongtime").tai_of(PatternId::EightPairs),
        30
    );
}

/// taiwan16-2015-table.txt:335-338: 十三么, 16-tile form: the thirteen orphans, one paired,
/// plus a chow or pung; 40, 不計 么 (混么) and 五門齊.
#[test]
fn thirteen_orphans_2015() {
    let s = scored(
        &win("19m 19p 19s ESWNPFC E 234p", "4p", false, Wind::South),
        "taiwan16-2015",
    );
    assert_eq!(s.tai_of(PatternId::ThirteenOrphans), 40);
    assert!(!s.has(PatternId::FiveGroups));
    assert!(!s.has(PatternId::OutsideHand));
    assert!(s.meets_minimum);
}

/// taiwan16-2015-table.txt:187 一變五: a hand counting exactly one 番 is raised to five;
/// with 起胡 4 (:7) it would otherwise not be a win.
#[test]
fn one_becomes_five_2015() {
    // One flower and nothing else: melded, honors as the pair, a two-sided wait.
    let mut input = win("111m 567p 789s 345s EE", "3s", false, Wind::South);
    input.melds.push(meld(MeldKind::Chow, "234m"));
    input.flowers = taisim_sim::parse_flowers("f3").unwrap();
    let s = scored(&input, "taiwan16-2015");
    assert!(s.has(PatternId::OneBecomesFive), "{s:?}");
    assert_eq!(s.total, 5);
    assert!(s.meets_minimum);
}

/// taiwan16-2015-table.txt:23: a win on the replacement for a kong claimed from a discard
/// is not a self-draw, and only the seat whose discard was claimed pays.
#[test]
fn exposed_kong_bloom_2015() {
    let variant = Variant::builtin("taiwan16-2015").unwrap();
    let mut input = win("123m 456m 789p 99s 345s", "9s", true, Wind::South);
    input.melds.push(meld(MeldKind::Kong, "EEEE"));
    input.context.kong_replacement = true;
    input.context.exposed_kong_from = Some(Wind::West);
    input.discarder = Some(Wind::West);
    let s = score(&input, &variant).unwrap();
    assert!(s.has(PatternId::KongBloom));
    assert!(!s.has(PatternId::SelfDraw));
    let pay = settle(&s, &input, &variant, 0, 1);
    assert_eq!(pay[Wind::North], 0);
    assert_eq!(pay[Wind::West], -pay[Wind::South]);
    // In taiwan16 the same win is a self-draw paid by all three.
    let t16 = Variant::builtin("taiwan16").unwrap();
    let s = score(&input, &t16).unwrap();
    assert!(s.has(PatternId::SelfDraw));
    assert!(settle(&s, &input, &t16, 0, 1)[Wind::North] < 0);
}

/// taiwan16-2015-table.txt:7, :33: below 起胡 a win is 詐胡, fined ten to each player.
#[test]
fn below_minimum_is_a_false_win_2015() {
    let variant = Variant::builtin("taiwan16-2015").unwrap();
    // 門清 1 + 花 1 = 2.
    let mut input = win("111m 234m 567p 789s 345s EE", "4m", false, Wind::South);
    input.flowers = taisim_sim::parse_flowers("f3").unwrap();
    let s = score(&input, &variant).unwrap();
    assert_eq!(s.total, 2, "{s:?}");
    assert!(!s.meets_minimum, "{s:?}");
    let pay = settle(&s, &input, &variant, 0, 1);
    assert_eq!(pay[Wind::South], -30);
    assert_eq!(pay[Wind::East], 10);
}

/// A meld of `kind` on `tiles` claimed from `from`.
fn claimed(kind: MeldKind, tiles: &str, from: Wind) -> Meld {
    let t = parse_tiles(tiles).unwrap();
    Meld::new(kind, *t.iter().min().unwrap(), from, 0)
}

/// mahjongtime insurance, the later case (rules.txt:106, :104, :102): N has 白 and 發 melded
/// when W discards 中, and N pungs it; N then goes out "with any tile, either claimed or
/// self-drawn", and W "must pay for all losers" (:116). Not when 中 was claimed before the
/// two other sets, nor for a kong (:112), nor from a request that cannot say who discarded;
/// one suit's later case is the self-drawn one alone (:102). Seed 1's deal 30554 played it.
#[test]
fn mahjongtime_insurance_for_a_dangerous_discard_claimed_earlier() {
    let variant = Variant::builtin("mahjongtime").unwrap();
    let plain = Variant::from_toml_str(
        &Variant::builtin_text("mahjongtime").unwrap().replacen(
            r#"insurance = ["full_flush", "four_winds", "three_dragons", "last_five"]"#,
            "insurance = []",
            1,
        ),
        "mahjongtime without insurance",
    )
    .unwrap();
    let (e, s, w, n) = (Wind::East, Wind::South, Wind::West, Wind::North);
    let hand = |melds: &[Meld], self_draw: bool, discarder: Wind| {
        let mut input = win("33m 123p 456s", "3m", self_draw, n);
        input.discarder = (!self_draw).then_some(discarder);
        input.melds.extend(melds.iter().copied());
        input
    };
    let pays = |input: &WinInput, v: &Variant| {
        let s = score(input, v).unwrap();
        assert!(s.has(PatternId::BigThreeDragons), "{s:?}");
        settle(&s, input, v, 0, 1)
    };
    let dragons = [
        claimed(MeldKind::Pung, "PPP", e),
        claimed(MeldKind::Pung, "FFF", s),
        claimed(MeldKind::Pung, "CCC", w),
    ];

    // Self-drawn: W pays what the three losers would have.
    let input = hand(&dragons, true, e);
    let (insured, normal) = (pays(&input, &variant), pays(&input, &plain));
    let all: i64 = [e, s, w].iter().map(|&l| normal[l]).sum();
    assert_eq!(insured.0, [0, 0, all, -all], "{normal:?}");
    // On another's discard: W pays for all three, the discarder S nothing.
    let input = hand(&dragons, false, s);
    let tai = score(&input, &variant).unwrap().total as i64;
    assert_eq!(pays(&input, &variant).0, [0, 0, -3 * tai, 3 * tai]);
    assert_eq!(pays(&input, &plain).0, [0, -tai, 0, tai]);
    // On the dealer's discard W pays the dealer's share too, its bonus in it (:73), so the
    // bonus the win reports is the one that changes hands.
    let input = hand(&dragons, false, e);
    let scored = score(&input, &variant).unwrap();
    let bonus = variant.dealer_tai(0) as i64;
    assert_eq!(scored.dealer_tai as i64, bonus);
    assert_eq!(
        pays(&input, &variant).0,
        [0, 0, -3 * tai - bonus, 3 * tai + bonus]
    );

    // The dangerous discard is the third set's, whichever dragon: 中 claimed first from W,
    // 發 last from S makes S liable.
    let input = hand(&[dragons[2], dragons[0], dragons[1]], true, e);
    assert_eq!(pays(&input, &variant).0, [0, all, 0, -all]);
    // The third set held concealed, or claimed for a kong (:112): no insurance.
    let mut concealed = win("CCC 33m 123p 456s", "3m", true, n);
    concealed.melds.extend([dragons[0], dragons[1]]);
    let kong = hand(
        &[dragons[0], dragons[1], claimed(MeldKind::Kong, "CCCC", w)],
        true,
        e,
    );
    for input in [&concealed, &kong] {
        assert_eq!(
            pays(input, &variant),
            pays(input, &plain),
            "{:?}",
            input.melds
        );
    }
    // A request names no discarder of a meld: none is liable.
    let request = r#"{"variant": "mahjongtime", "seat": "N", "hand": "33m 123p 456s",
        "melds": [["pung", "PPP"], ["pung", "FFF"], ["pung", "CCC"]], "win_tile": "3m",
        "win": "self_draw", "base": 0, "per_tai": 1}"#;
    let answer: serde_json::Value =
        serde_json::from_str(&taisim_score::score_json(request).unwrap()).unwrap();
    for seat in ["E", "S", "W"] {
        assert!(answer["settlement"][seat].as_i64().unwrap() < 0, "{answer}");
    }

    // One suit: the fifth set claimed from W, then a self-drawn pair (W liable). Won on S's
    // discard instead, the discard itself is the dangerous one (:102, immediately): S is
    // liable, not W.
    let suit = [
        claimed(MeldKind::Pung, "111m", e),
        claimed(MeldKind::Pung, "222m", s),
        claimed(MeldKind::Chow, "345m", w),
        claimed(MeldKind::Pung, "666m", e),
        claimed(MeldKind::Chow, "789m", w),
    ];
    let flush = |self_draw: bool| {
        let mut input = win("99m", "9m", self_draw, n);
        input.discarder = (!self_draw).then_some(s);
        input.melds.extend(suit);
        input
    };
    let input = flush(true);
    let s_ = score(&input, &variant).unwrap();
    assert!(s_.has(PatternId::FullFlush), "{s_:?}");
    let normal = settle(&s_, &input, &plain, 0, 1);
    let all: i64 = [e, s, w].iter().map(|&l| normal[l]).sum();
    assert_eq!(settle(&s_, &input, &variant, 0, 1).0, [0, 0, all, -all]);
    let input = flush(false);
    let s_ = score(&input, &variant).unwrap();
    let tai = s_.total as i64;
    assert_eq!(
        settle(&s_, &input, &variant, 0, 1).0,
        [0, -3 * tai, 0, 3 * tai]
    );
    assert_eq!(settle(&s_, &input, &plain, 0, 1).0, [0, -tai, 0, tai]);
}
