//! 全包 (taizhou.md:457-469): each of the five cases and a near miss, and its effect on the
//! settlement (the responsible player's value counts 0 and it pays for everyone).

use taisim_score::{
    score, settle_all_pairs, Amount, Liability, LiabilityCase, Score, Variant, WinInput,
};
use taisim_sim::{parse_hand, parse_tile, BySeat, Meld, MeldKind, MeldList, Tile, Wind};

const E: Wind = Wind::East;
const S: Wind = Wind::South;
const W: Wind = Wind::West;
const N: Wind = Wind::North;

fn t(s: &str) -> Tile {
    parse_tile(s).unwrap()
}

fn melds(list: &[(&str, &str)]) -> MeldList {
    list.iter()
        .map(|&(k, tile)| Meld::new(MeldKind::from_name(k).unwrap(), t(tile), S.add(3), 0))
        .collect()
}

/// South's win on West's discard of `tile` (or a self-draw), scored under taizhou.
fn south_wins(hand: &str, tile: &str, m: &[(&str, &str)], self_draw: bool, wild: &str) -> Score {
    let v = Variant::builtin("taizhou").unwrap();
    let mut input =
        WinInput::new(S, parse_hand(hand).unwrap(), t(tile), self_draw).with_wild(t(wild));
    input.melds = melds(m);
    if !self_draw {
        input.discarder = Some(W);
    }
    score(&input, &v).unwrap()
}

/// The facts of South's win on West's `tile`: nothing that makes West liable.
fn facts(tile: &str, m: &[(&str, &str)]) -> Liability {
    Liability {
        winner: S,
        discarder: Some(W),
        win_tile: t(tile),
        declined_win: false,
        ready_after_discard: true,
        could_be_ready: false,
        fresh: false,
        winner_melds: melds(m),
    }
}

/// A plain win on 中: the pair 中中 waiting with 55s.
fn on_red() -> Score {
    south_wins("123m 456m 789s 234p CC", "C", &[], false, "9p")
}

/// Case 1 (:465 "当能胡的时候不胡，打中发白捉铳，全包（除了清一色）").
#[test]
fn case1_declined_win_then_dragon() {
    let win = on_red();
    let l = Liability {
        declined_win: true,
        ..facts("C", &[])
    };
    assert_eq!(l.decide(&win), Some((LiabilityCase::DeclinedThenDragon, W)));
    // Near miss: a 清一色 winner. With the wild 5m, 白板 is a 5m: West's 白板 completes
    // South's man flush, and 白板 is still a dragon tile discarded.
    let flush = south_wins("123m 123m 46m 789m 22m P", "P", &[], false, "5m");
    let l = Liability {
        declined_win: true,
        ..facts("P", &[])
    };
    assert_eq!(l.decide(&flush), None);
    // Near miss: not a dragon.
    let plain = south_wins("123m 456m 789s 234p 55s", "5s", &[], false, "9p");
    let l = Liability {
        declined_win: true,
        ..facts("5s", &[])
    };
    assert_eq!(l.decide(&plain), None);
}

/// Case 2 (:467 "玩家未听牌，打生张中发白时（白板是硬张）捉铳，全包").
#[test]
fn case2_fresh_dragon_when_not_ready() {
    let win = on_red();
    let l = Liability {
        ready_after_discard: false,
        fresh: true,
        ..facts("C", &[])
    };
    assert_eq!(
        l.decide(&win),
        Some((LiabilityCase::FreshDragonNotReady, W))
    );
    // Near misses: the dragon was already visible; the discarder was ready.
    let seen = Liability {
        ready_after_discard: false,
        ..facts("C", &[])
    };
    assert_eq!(seen.decide(&win), None);
    let ready = Liability {
        fresh: true,
        ..facts("C", &[])
    };
    assert_eq!(ready.decide(&win), None);
}

/// Case 3 (:468 "玩家能听牌打成不听牌，打中发白时捉铳，承包").
#[test]
fn case3_broke_ready_hand_for_a_dragon() {
    let win = on_red();
    let l = Liability {
        could_be_ready: true,
        ready_after_discard: false,
        ..facts("C", &[])
    };
    assert_eq!(
        l.decide(&win),
        Some((LiabilityCase::BrokeReadyForDragon, W))
    );
    // Near miss: it could not have been ready.
    let l = Liability {
        ready_after_discard: false,
        ..facts("C", &[])
    };
    assert_eq!(l.decide(&win), None);
}

/// Case 4 (:469 "当一家做清一色的牌型并吃上家三次或三次以上后胡牌，则上家全包"): South's
/// left neighbour (上家) is East, who pays even on a self-draw.
#[test]
fn case4_flush_fed_by_the_left() {
    let chows = [("chow", "1m"), ("chow", "4m"), ("chow", "7m")];
    let win = south_wins("23m 4m 55m", "4m", &chows, true, "9p");
    assert!(win.has(taisim_score::PatternId::FullFlush), "{win:?}");
    let l = Liability {
        discarder: None,
        ..facts("4m", &chows)
    };
    assert_eq!(l.decide(&win), Some((LiabilityCase::FlushFedByLeft, E)));
    // Near miss: two chows taken, one pung.
    let two = [("chow", "1m"), ("chow", "4m"), ("pung", "8m")];
    let win = south_wins("23m 4m 55m", "4m", &two, true, "9p");
    let l = Liability {
        discarder: None,
        ..facts("4m", &two)
    };
    assert_eq!(l.decide(&win), None);
    // Near miss: three chows but no flush.
    let mixed = [("chow", "1m"), ("chow", "4p"), ("chow", "7m")];
    let win = south_wins("23m 4m 55m", "4m", &mixed, true, "9p");
    let l = Liability {
        discarder: None,
        ..facts("4m", &mixed)
    };
    assert_eq!(l.decide(&win), None);
}

/// Case 5 (:470 "中发白三者任意两者碰了，当其中一家打剩下的中发白一者碰胡，则捉铳家全包").
#[test]
fn case5_third_dragon() {
    // 中 and 白板 punged (白板 is a dragon tile: "白板是硬张"); South holds 發發 and pungs
    // West's 發.
    let dragons = [("pung", "C"), ("pung", "P")];
    let win = south_wins("123m 55s FFF", "F", &dragons, false, "9s");
    let l = facts("F", &dragons);
    assert_eq!(l.decide(&win), Some((LiabilityCase::ThirdDragon, W)));
    // Near miss: only one dragon punged.
    let one = [("pung", "C"), ("pung", "8s")];
    let win = south_wins("123m 55s FFF", "F", &one, false, "9s");
    assert_eq!(facts("F", &one).decide(&win), None);
    // Near miss: self-drawn.
    let win = south_wins("123m 55s FFF", "F", &dragons, true, "9s");
    let l = Liability {
        discarder: None,
        ..facts("F", &dragons)
    };
    assert_eq!(l.decide(&win), None);
    // Near miss: the discarded 發 completes South's pair (555s 發發), not a pung.
    let win = south_wins("123m 555s FF", "F", &dragons, false, "9s");
    assert_eq!(facts("F", &dragons).decide(&win), None);
}

/// 全包 in the settlement (:463 "全包者的胡数清0，并且全包台面上所有人（包括非胡家之间）的胡数"):
/// the first example's values with West responsible: West's 0 stays 0, and West pays what
/// North and East would have paid.
#[test]
fn responsible_player_pays_for_everyone() {
    let values = BySeat([10, 32, 0, 4]);
    let got = settle_all_pairs(S, E, values, Some(W)).unwrap();
    let whole = |n: i64| Amount::whole(n).unwrap();
    // South +64 (from West alone), East +10 (from West) and +6 (from North, paid by West),
    // North +2 (from West): West pays 64 + 16 + 2 = 82.
    assert_eq!(got[S], whole(64));
    assert_eq!(got[E], whole(16));
    assert_eq!(got[N], whole(2));
    assert_eq!(got[W], whole(-82));
    assert_eq!(got.0.iter().map(|a| a.halves()).sum::<i64>(), 0);
}
