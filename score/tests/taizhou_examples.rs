//! taizhou.md's two worked examples (:400-455), scored from hands built from their
//! explanations (the pictures are lost), every player valued and the deal settled.

use taisim_score::{score, seat_value, settle_all_pairs, Amount, PatternId, Variant, WinInput};
use taisim_sim::{parse_hand, parse_tile, BySeat, Hand, Meld, MeldKind, MeldList, Tile, Wind};

const E: Wind = Wind::East;
const S: Wind = Wind::South;
const W: Wind = Wind::West;
const N: Wind = Wind::North;

fn t(s: &str) -> Tile {
    parse_tile(s).unwrap()
}

fn h(s: &str) -> Hand {
    parse_hand(s).unwrap()
}

fn pung(tile: &str, owner: Wind) -> Meld {
    Meld::new(MeldKind::Pung, t(tile), owner.add(1), 0)
}

fn kong(tile: &str, owner: Wind) -> Meld {
    Meld::new(MeldKind::Kong, t(tile), owner.add(1), 0)
}

fn ids(s: &taisim_score::Score) -> Vec<(PatternId, u16)> {
    s.patterns.iter().map(|p| (p.id, p.hu)).collect()
}

fn whole(values: [(Wind, i64); 4]) -> BySeat<Amount> {
    let mut out = BySeat([Amount::ZERO; 4]);
    for (s, v) in values {
        out[s] = Amount::whole(v).unwrap();
    }
    out
}

/// taizhou.md:400-417 (闲家胡牌): the wild is 九条 (9s). South has punged 红中 (字牌明刻 4胡,
/// 字牌刻 1台) and holds 77s, a wild read as the third 7s, and 白板 standing for 9s: the pair
/// 77s and 7s-白板 wait on 8s in the middle (嵌档胡 2胡). South wins West's 8s:
/// (10 + 4 + 2) × 2^1 = 32 胡. The others: West 0, North 4 (a concealed 666m), East 10
/// (an exposed kong of 5s, 8, and an exposed pung of 3m, 2); settlement +64, −28, −20, −16.
#[test]
fn non_dealer_win_scores_32_and_settles() {
    let v = Variant::builtin("taizhou").unwrap();
    let mut input = WinInput::new(S, h("234m 456p 77s 9s P 8s"), t("8s"), false).with_wild(t("9s"));
    input.melds = MeldList::from_iter([pung("C", S)]);
    input.discarder = Some(W);
    let s = score(&input, &v).unwrap();
    assert_eq!((s.hu, s.total, s.points), (6, 1, 32), "{s:?}");
    assert_eq!(
        ids(&s),
        vec![
            (PatternId::PlainPair, 0),
            (PatternId::MiddleWait, 2),
            (PatternId::ExposedPungTerminal, 4),
            (PatternId::DragonSet, 0),
        ]
    );
    assert_eq!(s.tai_of(PatternId::DragonSet), 1);

    let north = seat_value(&h("666m 237p 146s S W N F"), &[], N, Some(t("9s")), &v);
    let west = seat_value(&h("1m 19p EE SS W N FF 23s"), &[], W, Some(t("9s")), &v);
    let east_melds = [kong("5s", E), pung("3m", E)];
    let east = seat_value(&h("147m 28p E N"), &east_melds, E, Some(t("9s")), &v);
    assert_eq!((west, north, east), (0, 4, 10));

    let values = BySeat([east, s.points, west, north]);
    let got = settle_all_pairs(S, E, values, None).unwrap();
    assert_eq!(got, whole([(S, 64), (W, -28), (N, -20), (E, -16)]));
}

/// taizhou.md:421-453 (庄家胡牌): the wild is 三筒 (3p). East deals, has punged 6s and 8s
/// (2 × 明刻 2胡), holds the pair 22p, 67p with the wild read as 5p or 8p, and 6m 8m; it
/// draws 7m in the middle (嵌档胡 2胡, though 5p and 8p would also have won) and self-draws
/// (自摸 2胡): (10 + 4 + 2 + 2) × 2^0 = 18 胡. South 4 (555m), West 4 (444s), North 8
/// (111p, 幺九暗刻): +54, −20, −20, −14.
#[test]
fn dealer_win_scores_18_and_settles() {
    let v = Variant::builtin("taizhou").unwrap();
    let mut input = WinInput::new(E, h("22p 67p 3p 6m 8m 7m"), t("7m"), true).with_wild(t("3p"));
    input.melds = MeldList::from_iter([pung("6s", E), pung("8s", E)]);
    let s = score(&input, &v).unwrap();
    assert_eq!((s.hu, s.total, s.points), (8, 0, 18), "{s:?}");
    assert_eq!(
        ids(&s),
        vec![
            (PatternId::SelfDraw, 2),
            (PatternId::PlainPair, 0),
            (PatternId::MiddleWait, 2),
            (PatternId::ExposedPung, 4),
        ]
    );

    let wild = Some(t("3p"));
    let south = seat_value(&h("555m 19m 459p E W N F C"), &[], S, wild, &v);
    let west = seat_value(&h("444s 23m 89p 12s E S N C"), &[], W, wild, &v);
    let north = seat_value(&h("111p 2379s 19m S W F P"), &[], N, wild, &v);
    assert_eq!((south, west, north), (4, 4, 8));

    let values = BySeat([s.points, south, west, north]);
    let got = settle_all_pairs(E, E, values, None).unwrap();
    assert_eq!(got, whole([(E, 54), (S, -20), (W, -20), (N, -14)]));
}
