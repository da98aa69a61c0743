//! Taizhou's 白板 (issue 22, item 11), each line of taizhou.md that speaks of it, with near
//! misses:
//!
//! - 牌型: "白板：可以作为自身，也可以做为当前的得牌，但不能成为得牌": a 白板 is read as itself
//!   (a white dragon: 中发白对, 幺九 pungs and kongs, 字牌刻, 混一色) or as the wild kind's face,
//!   never as a wild; the hand is scored by the reading that scores highest.
//! - 台数 清一色: "如果有白板，那么得牌也是同一花色(万/条/筒)才能算清一色，不然只能算混一色".
//! - 台数 无得: "还原的情况中不能含白板" (in `taizhou_patterns.rs`, `no_wild`).
//!
//! South wins with East dealing; a discard win comes from West. Values are (胡, 台, points):
//! (10 + 胡) × 2^台, capped at 100.

use taisim_score::{score, seat_value, PatternId, Score, ScoreError, Variant, WinInput};
use taisim_sim::{parse_hand, parse_tile, Meld, MeldKind, MeldList, Tile, Wind};

use PatternId::*;

fn t(s: &str) -> Tile {
    parse_tile(s).unwrap()
}

fn win(
    hand: &str,
    tile: &str,
    self_draw: bool,
    melds: &[(&str, &str)],
    wild: &str,
) -> Result<Score, ScoreError> {
    let v = Variant::builtin("taizhou").unwrap();
    let mut input = WinInput::new(Wind::South, parse_hand(hand).unwrap(), t(tile), self_draw)
        .with_wild(t(wild));
    input.melds = melds
        .iter()
        .map(|&(k, x)| Meld::new(MeldKind::from_name(k).unwrap(), t(x), Wind::East, 0))
        .collect::<MeldList>();
    if !self_draw {
        input.discarder = Some(Wind::West);
    }
    score(&input, &v)
}

fn ok(hand: &str, tile: &str, melds: &[(&str, &str)], wild: &str) -> Score {
    win(hand, tile, false, melds, wild).unwrap_or_else(|e| panic!("{hand}: {e}"))
}

fn value(s: &Score) -> (u32, u16, u64) {
    (s.hu, s.total, s.points)
}

fn has(s: &Score, p: PatternId) -> bool {
    s.patterns.iter().any(|x| x.id == p)
}

/// "可以作为自身": a 白板 pair is a 中发白对 (2胡), a 白板 pung a 幺九 pung and a 字牌刻 (1台),
/// and the 白板 is an honor for 混一色. The wild 9p is held by nobody here, so 无得 (1台)
/// holds throughout.
#[test]
fn white_as_itself_is_a_dragon() {
    // 中发白对: read as 9p the pair is worth nothing.
    let s = ok("123m 456m 789s 234p PP", "4p", &[], "9p");
    assert!(has(&s, DragonPair), "{s:?}");
    assert_eq!(value(&s), (2, 1, 24));
    // 字牌刻 and 幺九暗刻 (8胡); read as 9p it would be the same 胡 without the 台.
    let s = ok("123m 456m 789s PPP 55s", "5s", &[], "9p");
    assert!(
        has(&s, DragonSet) && has(&s, ConcealedPungTerminal),
        "{s:?}"
    );
    assert_eq!(value(&s), (8, 2, 72));
    // Won on a discarded 白板 completing the pung: 明刻 (幺九, 4胡) and 字牌刻.
    let s = ok("123m 456m 789s 55s PPP", "P", &[], "9p");
    assert!(has(&s, DragonSet) && has(&s, ExposedPungTerminal), "{s:?}");
    assert_eq!(value(&s), (4, 2, 56));
    // A claimed pung of 白板: 字牌刻 too.
    let s = ok("123m 456m 789s 55s", "5s", &[("pung", "P")], "9p");
    assert!(has(&s, DragonSet), "{s:?}");
    assert_eq!(value(&s), (4, 2, 56));
    // Near miss: a pung of 西 (not South's wind, not a dragon) is the same 胡, no 台.
    let s = ok("123m 456m 789s WWW 55s", "5s", &[], "9p");
    assert!(!has(&s, DragonSet));
    assert_eq!(value(&s), (8, 1, 36));
}

/// "也可以做为当前的得牌": a 白板 is the wild's face where a set needs it, a chow included:
/// here the 5p of 4p-白板-6p, and 嵌档胡 when it is the winning tile.
#[test]
fn white_as_the_wild_face_fills_a_chow() {
    let s = ok("123m 456m 789m 4p P 6p 11s", "1s", &[], "5p");
    assert_eq!(value(&s), (0, 1, 20), "{s:?}");
    // Won on the 白板 itself, in the chow's middle: 嵌档胡.
    let s = ok("123m 456m 789m 4p P 6p 11s", "P", &[], "5p");
    assert!(has(&s, MiddleWait), "{s:?}");
    assert_eq!(value(&s), (2, 1, 24));
}

/// "但不能成为得牌": a 白板 is never a wild: it stands for the wild kind's face and nothing
/// else.
#[test]
fn white_is_never_wild() {
    assert_eq!(
        win("123m 456m 789m 4p P 6p 11s", "1s", false, &[], "9s").unwrap_err(),
        ScoreError::NotAWin
    );
    assert_eq!(
        win("123m 456m 789m 4p P 7p 11s", "1s", false, &[], "5p").unwrap_err(),
        ScoreError::NotAWin
    );
}

/// 清一色 (:392) "如果有白板，那么得牌也是同一花色(万/条/筒)才能算清一色": a 萬 hand whose 白板
/// pair is read as the wild's face is 清一色 when the wild is a 萬 (5m): 3台. A wild held as
/// a 5m in 4m-wild-6m keeps it from 无得 (a 白板 is held).
#[test]
fn white_keeps_a_full_flush_with_a_wild_of_the_suit() {
    let s = ok("123m 234m 789m 46m 5m PP", "1m", &[], "5m");
    assert!(has(&s, FullFlush) && !has(&s, HalfFlush), "{s:?}");
    assert!(!has(&s, NoWild));
    // The face reading (10 × 2^3) beats the dragon pair's (12 × 2^1, 混一色).
    assert_eq!(value(&s), (0, 3, 80));
    // The 白板 in a chow as the 5m: 清一色 too.
    let s = ok("123m 234m 789m 4m P 6m 2m 5m", "1m", &[], "5m");
    assert!(has(&s, FullFlush), "{s:?}");
    assert_eq!(value(&s), (0, 3, 80));
    // A claimed pung of 白板 as 5m's face: 清一色 with its 明刻 (2胡), better than 混一色 and
    // 字牌刻 (4胡, 2台: 56).
    let s = ok("123m 234m 789m 2m 5m", "1m", &[("pung", "P")], "5m");
    assert!(has(&s, FullFlush), "{s:?}");
    assert_eq!(value(&s), (2, 3, 96));
}

/// "…不然只能算混一色": with the wild of another suit (5p) the same 萬 hands are not 清一色;
/// the 白板 read as itself makes them 混一色 (the hand read as 5p would have no flush at all,
/// what the scorer gave before issue 22).
#[test]
fn white_is_only_a_half_flush_with_a_wild_of_another_suit() {
    // The wild 5p stands for the 5m; the 白板 pair read as 白板: 混一色 1台, 中发白对 2胡.
    let s = ok("123m 234m 789m 46m 5p PP", "1m", &[], "5p");
    assert!(has(&s, HalfFlush) && !has(&s, FullFlush), "{s:?}");
    assert!(has(&s, DragonPair));
    assert_eq!(value(&s), (2, 1, 24));
    // A claimed 白板 pung: 混一色 and 字牌刻 as itself.
    let s = ok("123m 234m 789m 2m 5p", "1m", &[("pung", "P")], "5p");
    assert!(has(&s, HalfFlush) && has(&s, DragonSet), "{s:?}");
    assert_eq!(value(&s), (4, 2, 56));
    // A 白板 that only the face reading places (the 5p of a 萬 chow cannot be): no win.
    assert_eq!(
        win("123m 234m 789m 4m P 6m 2m 5p", "1m", false, &[], "5p").unwrap_err(),
        ScoreError::NotAWin
    );
    // The wild an honor (中): a 白板 either way is an honor, 混一色 at most.
    let s = ok("123m 456m 789m 22m PPP", "P", &[], "C");
    assert!(has(&s, HalfFlush) && !has(&s, FullFlush), "{s:?}");
}

/// The hand is scored by the reading that scores highest, 白板 by 白板: of three 白板 one is
/// the 5p of 4p-白板-6p (the face) and two are a pair of 白板 (中发白对, 2胡), rather than a
/// pair of 5p (0胡).
#[test]
fn each_white_takes_its_best_reading() {
    let s = ok("123m 456m 789s 4p 6p PPP", "1m", &[], "5p");
    assert!(has(&s, DragonPair), "{s:?}");
    assert_eq!(value(&s), (2, 1, 24));
    // Near miss: with the wild 東 (none held) no 白板 can be the 5p: no win.
    assert_eq!(
        win("123m 456m 789s 4p 6p PPP", "1m", false, &[], "E").unwrap_err(),
        ScoreError::NotAWin
    );
}

/// Non-winners' values (README "Non-winners' values") use the best reading of their sets: a
/// concealed 白板 triplet is a 幺九暗刻 (8胡) either way; as itself it is 字牌刻 and makes a 萬
/// hand 混一色 (8 × 2^2 = 32); as the wild's face 1m it is 清一色 (8 × 2^3 = 64), only when
/// the wild is a 萬.
#[test]
fn non_winners_take_the_best_reading() {
    let v = Variant::builtin("taizhou").unwrap();
    let hand = parse_hand("PPP 234m 567m 88m 9m").unwrap();
    let value = |wild: &str| seat_value(&hand, &[], Wind::West, Some(t(wild)), &v);
    assert_eq!(value("1m"), 64);
    assert_eq!(value("1p"), 32);
    // A claimed 白板 pung likewise (明刻, 幺九: 4胡).
    let hand = parse_hand("234m 567m 88m 9m").unwrap();
    let melds = [Meld::new(MeldKind::Pung, t("P"), Wind::East, 0)];
    let value = |wild: &str| seat_value(&hand, &melds, Wind::West, Some(t(wild)), &v);
    assert_eq!(value("1m"), 32);
    assert_eq!(value("1p"), 16);
    // Near miss: a 西 pung (the seat's own wind, 门风刻): no flush, 8 × 2.
    let hand = parse_hand("WWW 234m 567m 88m 9p").unwrap();
    assert_eq!(seat_value(&hand, &[], Wind::West, Some(t("1m")), &v), 16);
}
