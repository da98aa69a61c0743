//! Every line of taizhou.md's 胡数 and 台数 tables (:370-400), a case of its own and a near
//! miss, the cap (勒子), and the readings of hands with wilds (得牌, 白板). South wins with
//! East dealing unless said; a discard win comes from West. Line numbers cite taizhou.md.

use taisim_score::{score, PatternId, Score, ScoreError, Variant, WinInput};
use taisim_sim::{parse_hand, parse_tile, Meld, MeldKind, MeldList, Tile, Wind};

use PatternId::*;

const S: Wind = Wind::South;

/// Melds as (kind, tile).
type Melds<'a> = &'a [(&'a str, &'a str)];

fn t(s: &str) -> Tile {
    parse_tile(s).unwrap()
}

/// Scores South's win: `hand` with the winning tile, `melds` as (kind, tile), the wild kind.
fn win(
    hand: &str,
    tile: &str,
    self_draw: bool,
    melds: &[(&str, &str)],
    wild: &str,
) -> Result<Score, ScoreError> {
    let v = Variant::builtin("taizhou").unwrap();
    let mut input =
        WinInput::new(S, parse_hand(hand).unwrap(), t(tile), self_draw).with_wild(t(wild));
    input.melds = melds
        .iter()
        .map(|&(k, tile)| Meld::new(MeldKind::from_name(k).unwrap(), t(tile), S.add(3), 0))
        .collect::<MeldList>();
    if !self_draw {
        input.discarder = Some(Wind::West);
    }
    score(&input, &v)
}

fn ok(hand: &str, tile: &str, self_draw: bool, melds: &[(&str, &str)], wild: &str) -> Score {
    win(hand, tile, self_draw, melds, wild).unwrap_or_else(|e| panic!("{hand}: {e}"))
}

/// (hu, tai, points) of a score.
fn value(s: &Score) -> (u32, u16, u64) {
    (s.hu, s.total, s.points)
}

fn count(s: &Score, p: PatternId) -> u8 {
    s.patterns.iter().find(|x| x.id == p).map_or(0, |x| x.count)
}

// A wild kind no hand below holds (9p), unless said: no wild held, so 无得 1台 throughout.
const NO: &str = "9p";

/// 底胡 10胡 (:372) and 对子 0胡 (:375): a plain hand on a discard is worth 10, doubled by
/// 无得.
#[test]
fn base_and_plain_pair() {
    let s = ok("123m 456m 789s 234p 55s", "5s", false, &[], NO);
    assert_eq!(value(&s), (0, 1, 20));
    assert_eq!(count(&s, PlainPair), 1);
    assert_eq!(count(&s, NoWild), 1);
}

/// 自摸 2胡 (:374); near miss: the same win on a discard adds nothing ("捉铳胡，不加").
#[test]
fn self_draw() {
    let s = ok("123m 456m 789s 234p 55s", "5s", true, &[], NO);
    assert_eq!(value(&s), (2, 1, 24));
    assert_eq!(count(&s, SelfDraw), 1);
    let miss = ok("123m 456m 789s 234p 55s", "5s", false, &[], NO);
    assert_eq!(count(&miss, SelfDraw), 0);
}

/// 门风对 2胡 (:376): South's pair of 南; near misses: East's wind (the dealer's, not
/// South's) and West's are plain pairs.
#[test]
fn seat_wind_pair() {
    let s = ok("123m 456m 789s 234p SS", "4p", false, &[], NO);
    assert_eq!(value(&s), (2, 1, 24));
    assert_eq!(count(&s, SeatWindPair), 1);
    for pair in ["EE", "WW"] {
        let miss = ok(&format!("123m 456m 789s 234p {pair}"), "4p", false, &[], NO);
        assert_eq!(value(&miss), (0, 1, 20), "{pair}");
        assert_eq!(count(&miss, PlainPair), 1);
    }
}

/// 中发白对 2胡 (:378), a 白板 pair read as itself too ("白板：可以作为自身", issue 22); near
/// miss: a pair of a wind that is not the seat's.
#[test]
fn dragon_pair() {
    for pair in ["CC", "FF", "PP"] {
        let s = ok(&format!("123m 456m 789s 234p {pair}"), "4p", false, &[], NO);
        assert_eq!(value(&s), (2, 1, 24), "{pair}");
        assert_eq!(count(&s, DragonPair), 1);
    }
    let miss = ok("123m 456m 789s 234p WW", "4p", false, &[], NO);
    assert_eq!(value(&miss), (0, 1, 20));
    assert_eq!(count(&miss, DragonPair), 0);
}

/// 嵌档胡 2胡 (:377): 2p 4p win 3p; near miss: 23p winning 4p.
#[test]
fn middle_wait() {
    let s = ok("123m 456m 789s 234p 55s", "3p", false, &[], NO);
    assert_eq!(value(&s), (2, 1, 24));
    assert_eq!(count(&s, MiddleWait), 1);
    let miss = ok("123m 456m 789s 234p 55s", "4p", false, &[], NO);
    assert_eq!(count(&miss, MiddleWait), 0);
}

/// 对对胡 4胡 (:379) with 明刻 2胡 ×3 and 暗刻 4胡 (:380-381); near miss: a chow instead of
/// the concealed pung.
#[test]
fn all_pungs() {
    let melds = [("pung", "2m"), ("pung", "3p"), ("pung", "4s")];
    let s = ok("666m 77p", "7p", false, &melds, NO);
    assert_eq!(value(&s), (14, 1, 48));
    assert_eq!(count(&s, AllPungs), 1);
    assert_eq!(count(&s, ExposedPung), 3);
    assert_eq!(count(&s, ConcealedPung), 1);
    let miss = ok("678m 77p", "7p", false, &melds, NO);
    assert_eq!(value(&miss), (6, 1, 32));
    assert_eq!(count(&miss, AllPungs), 0);
}

/// 明刻 2 / 暗刻 4 (:380-381): a pung completed by a discard is not concealed (暗刻 "自己摸
/// 3张相同牌"); self-drawn it is.
#[test]
fn pung_completed_by_discard_is_exposed() {
    let s = ok("123m 456m 234p 555s 88s", "5s", false, &[], NO);
    assert_eq!(value(&s), (2, 1, 24));
    assert_eq!(count(&s, ExposedPung), 1);
    let drawn = ok("123m 456m 234p 555s 88s", "5s", true, &[], NO);
    assert_eq!(value(&drawn), (6, 1, 32));
    assert_eq!(count(&drawn, ConcealedPung), 1);
}

/// 幺九刻 (风牌 and 字牌 included) double each set (:380-383): 明刻 4, 暗刻 8, 明杠 16,
/// 暗杠 32; their simple near misses 2, 4, 8, 16.
#[test]
fn sets_by_how_made_and_kind() {
    let rest = "123m 456m 55s";
    // (meld or concealed set, pattern, hu) — each with 123m 456m 55s and 234p or the set.
    let cases: [(Melds, &str, PatternId, u32); 8] = [
        (&[("pung", "9m")], "234p", ExposedPungTerminal, 4),
        (&[("pung", "N")], "234p", ExposedPungTerminal, 4),
        (&[("pung", "5m")], "234p", ExposedPung, 2),
        (&[("kong", "1s")], "234p", ExposedKongTerminal, 16),
        (&[("added_kong", "6p")], "234p", ExposedKong, 8),
        (
            &[("concealed_kong", "W")],
            "234p",
            ConcealedKongTerminal,
            32,
        ),
        (&[("concealed_kong", "6p")], "234p", ConcealedKong, 16),
        (&[], "111p 234p", ConcealedPungTerminal, 8),
    ];
    for (melds, set, p, hu) in cases {
        let hand = format!("{rest} {set}");
        let s = ok(&hand, "5s", false, melds, NO);
        assert_eq!(count(&s, p), 1, "{p:?}");
        assert_eq!(s.hu, hu, "{p:?}");
    }
}

/// 清一色 3台 (:392): one suit, the melds included; near miss: 混一色 with an honor pair.
#[test]
fn full_flush() {
    let s = ok("123m 456m 789m 22m", "2m", false, &[("chow", "3m")], "5s");
    assert_eq!(count(&s, FullFlush), 1);
    // 2m also sits in the middle of 123m: 嵌档胡 2胡.
    assert_eq!(value(&s), (2, 4, 100));
    assert!(
        s.capped && count(&s, PointsCap) == 1,
        "10 × 2^4 = 160: 勒子"
    );
    let miss = ok("123m 456m 789m EE", "E", false, &[("chow", "3m")], "5s");
    assert_eq!(count(&miss, FullFlush), 0);
    assert_eq!(count(&miss, HalfFlush), 1);
}

/// 混一色 1台 (:393): one suit and honors; near miss: a second suit.
#[test]
fn half_flush() {
    let s = ok("123m 456m 789m NNN 55m", "9m", false, &[], NO);
    assert_eq!(count(&s, HalfFlush), 1);
    assert_eq!(value(&s), (8, 2, 72));
    let miss = ok("123m 456m 789s NNN 55m", "9s", false, &[], NO);
    assert_eq!(count(&miss, HalfFlush), 0);
    assert_eq!(value(&miss), (8, 1, 36));
}

/// 清一色 with 白板 (:392 "如果有白板，那么得牌也是同一花色…才能算清一色，不然只能算混一色"):
/// 白板 read as the wild's face keeps the flush with the wild 5m; with the wild 中 it is an
/// honor either way and the hand is 混一色 (more in `taizhou_white.rs`).
#[test]
fn white_dragon_in_a_flush() {
    let flush = ok("123m 123m 46m 789m 22m P", "P", false, &[], "5m");
    assert_eq!(count(&flush, FullFlush), 1);
    let half = ok("123m 456m 789m 22m PPP", "P", false, &[], "C");
    assert_eq!(count(&half, FullFlush), 0);
    assert_eq!(count(&half, HalfFlush), 1);
}

/// 门风刻(含杠) 1台 (:394), a wild filling it "但至少得有1张": South's 南 punged, and
/// concealed as 南南 + a wild, and as one 南 + two wilds; near miss: a pung of 北.
#[test]
fn seat_wind_set() {
    let s = ok("123m 456m 234p 55s", "5s", false, &[("pung", "S")], NO);
    assert_eq!(count(&s, SeatWindSet), 1);
    assert_eq!(value(&s), (4, 2, 56));
    // Wild 5p: SS + 5p is a concealed pung of 南 (8胡); no 无得, the wild standing in.
    let w = ok("123m 456m 234s SS 5p 77s", "7s", false, &[], "5p");
    assert_eq!(count(&w, SeatWindSet), 1);
    assert_eq!(count(&w, ConcealedPungTerminal), 1);
    assert_eq!(value(&w), (8, 1, 36));
    let one = ok("123m 456m 234s S 5p5p 77s", "7s", false, &[], "5p");
    assert_eq!(count(&one, SeatWindSet), 1);
    let miss = ok("123m 456m 234p 55s", "5s", false, &[("pung", "N")], NO);
    assert_eq!(count(&miss, SeatWindSet), 0);
    assert_eq!(value(&miss), (4, 1, 28));
}

/// 字牌刻(含杠) 1台 per set (:394): 中 and 發 kongs, and a pung of 白板 read as itself
/// ("白板：可以作为自身", issue 22: a 幺九 pung either way, and 字牌刻 as itself); near miss: a
/// pung of a wind that is not the seat's.
#[test]
fn dragon_set() {
    let melds = [("kong", "C"), ("concealed_kong", "F")];
    let s = ok("123m 456m 55s", "5s", false, &melds, NO);
    assert_eq!(count(&s, DragonSet), 2);
    // 16 + 32 胡, 2 + 1 台 (无得): (10 + 48) × 8 capped.
    assert_eq!(value(&s), (48, 3, 100));
    let white = ok("123m 456m 234p 55s", "5s", false, &[("pung", "P")], NO);
    assert_eq!(count(&white, DragonSet), 1);
    assert_eq!(count(&white, ExposedPungTerminal), 1);
    assert_eq!(value(&white), (4, 2, 56));
    let miss = ok("123m 456m 234p 55s", "5s", false, &[("pung", "W")], NO);
    assert_eq!(count(&miss, DragonSet), 0);
    assert_eq!(count(&miss, ExposedPungTerminal), 1);
    assert_eq!(value(&miss), (4, 1, 28));
}

/// 无得 1台 (:395 "没有任何得牌或者得牌能还原 / 还原的情况中不能含白板"): the wild read as its
/// own kind; no wild held (a 白板 then read either way); near misses: a wild that
/// must stand for another tile, a restored wild beside a 白板, and the wild kind 白板
/// itself (its copies can only stand in: the white face has no natural tile).
#[test]
fn no_wild() {
    // Wild 5s: 34s + the wild read as 2s or as itself; the best reading restores it.
    let own = ok("123m 456m 789p 345s 77s", "7s", false, &[], "5s");
    assert_eq!(count(&own, NoWild), 1);
    assert_eq!(value(&own), (0, 1, 20));
    // No wild held, a 白板 pair (中发白对 as itself): still 无得.
    let white = ok("123m 456m 789p 345s PP", "3s", false, &[], "9m");
    assert_eq!(count(&white, NoWild), 1);
    // 78s + the wild 5s: it stands for 6s or 9s.
    let standing = ok("123m 456m 789p 78s 5s 22s", "2s", false, &[], "5s");
    assert_eq!(count(&standing, NoWild), 0);
    assert_eq!(value(&standing), (0, 0, 10));
    // Restored, but a 白板 held (read as itself, a 中发白对 2胡).
    let restored = ok("123m 456m 789p 345s PP", "P", false, &[], "5s");
    assert_eq!(count(&restored, NoWild), 0);
    assert_eq!(value(&restored), (2, 0, 12), "{restored:?}");
    // The wild kind is 白板: the white dragons are wild and stand in.
    let p_wild = ok("123m 456m 789p 34s P 77s", "7s", false, &[], "P");
    assert_eq!(count(&p_wild, NoWild), 0);
    assert_eq!(value(&p_wild), (0, 0, 10), "{p_wild:?}");
}

/// 勒子 (:396, README "the cap adds no 台"): (10 + 32 + 4) × 2^1 past 100 is 100, shown as
/// 勒子 with no 台 of its own; near miss: 48 stays 48.
#[test]
fn cap() {
    let s = ok("111m 999s EEE NNN 22p", "2p", false, &[], NO);
    // Four concealed 幺九 pungs 32胡, 对对胡 4胡; 无得 1台: 92 stays under the cap...
    assert_eq!((s.hu, s.total), (36, 1));
    assert_eq!((s.points, s.capped), (92, false));
    let big = ok("111m 999s EEE NNN 22p", "2p", true, &[], NO);
    // ...and self-drawn it is (10 + 38) × 2 = 96; with 门风刻 (South's 南) it passes.
    assert_eq!(big.points, 96);
    let capped = ok("111m 999s EEE SSS 22p", "2p", false, &[], NO);
    assert_eq!((capped.hu, capped.total), (36, 2));
    assert_eq!((capped.points, capped.capped), (100, true));
    let cap = capped.patterns.iter().find(|p| p.id == PointsCap).unwrap();
    assert_eq!((cap.tai, cap.hu), (0, 0));
    assert_eq!(count(&s, PointsCap), 0);
}

/// "不可单独使用" (:205; README: every set and the pair hold a tile that is not wild): with
/// four melds, a pair of two wilds is no win; a 白板 and a wild are (best read as a pair of
/// 白板, 中发白对 2胡, than of the wild's face).
#[test]
fn every_set_and_the_pair_hold_a_real_tile() {
    let melds = [
        ("pung", "2m"),
        ("pung", "3p"),
        ("pung", "4s"),
        ("pung", "6m"),
    ];
    assert_eq!(
        win("5s 5s", "5s", true, &melds, "5s").unwrap_err(),
        ScoreError::NotAWin
    );
    let s = ok("P 5s", "5s", true, &melds, "5s");
    // 4 明刻 8, 对对胡 4, 自摸 2, 中发白对 2.
    assert_eq!(value(&s), (16, 0, 26));
    assert_eq!(count(&s, DragonPair), 1);
}

/// 嵌档 on any reading, wilds standing in included (README: "also when the hand had other
/// waits"): 2p 4p and two wilds (9m) winning 3p read 234p with the wilds beside 789s (9s
/// pair, 78s + a wild as 6s), the 3p in the middle.
#[test]
fn middle_wait_on_a_wild_reading() {
    let s = ok("123m 456m 789s 24p 9m9m 3p", "3p", false, &[], "9m");
    assert_eq!(count(&s, MiddleWait), 1, "{s:?}");
    assert_eq!(value(&s), (2, 0, 12));
}

/// A drawn wild may take any place its reading gives it: 56p and 77s with a wild drawn, read
/// as 4p or 7p beside 56p, or as 7s making a pung; the best is the concealed pung of 7s
/// (暗刻 4胡) with 自摸.
#[test]
fn a_drawn_wild_takes_its_best_place() {
    let s = ok("123m 456m 789s 56p 77s 5s", "5s", true, &[], "5s");
    assert!(s.hu >= 2, "{s:?}");
    assert_eq!(count(&s, SelfDraw), 1);
    assert_eq!(count(&s, NoWild), 0);
}
