//! The hand algorithms with wilds against naive solvers that share nothing with them, on
//! seeded random hands with 0 to 4 wilds, under both settings of the real-tile rule; plus
//! the worked examples of taizhou.md and near misses.
//!
//! CI checks 200,000 hands (four tests of 50,000). The long run, 1,000,000 hands:
//!
//! ```text
//! TAISIM_WILD_HANDS=250000 cargo test -p taisim-sim --test algo_wild -- --nocapture
//! ```
//!
//! Naive win: the lowest natural left must sit in the pair, a pung or a chow (a chow may
//! have it as its low, middle or high tile, wilds filling what the naturals do not), and
//! wilds left over form sets and the pair alone (never under the real-tile rule, where each
//! set formed at a natural holds one). Naive shanten: a dynamic program over the 34 faces
//! choosing the sets and pair of a target and, face by face, which of its slots the hand's
//! naturals fill, tracking per set whether it holds a natural yet; the wilds then fill what
//! they may (rules/taizhou.md 得牌: "可以当作任何牌(包括本身)，但不可单独使用"). Both try every
//! reading of the stand-ins (白板: "可以作为自身，也可以做为当前的得牌"): each one a natural of the
//! wild kind's face or of its own, the best reading taken; the fast path reads them all as
//! the wild's face, which these check is never worse.

use std::collections::HashMap;

use rand_core::RngCore;
use rand_pcg::Pcg64Mcg;
use taisim_sim::algo::{
    decompositions, for_each_decomposition, improving_kinds, is_win, shanten, waits,
    DecompositionList, Discards, HandRules, Set, SpecialHands, Wild,
};
use taisim_sim::{parse_hand, Hand, Tile, TileSet};

type Counts = [u8; 34];

fn chow_start(k: usize) -> bool {
    k < 27 && k % 9 < 7
}

/// Naturals by face and the wild count of a physical hand, once per reading of its
/// stand-ins: `j` of them read as the wild kind's face, the rest as themselves, for every
/// `j` from none to all.
fn splits(hand: &Hand, wild: Wild) -> Vec<(Counts, u8)> {
    let mut c = hand.counts();
    let w = wild.kind().index();
    let wilds = c[w];
    c[w] = 0;
    let Some(s) = wild.stand_in() else {
        return vec![(c, wilds)];
    };
    let held = c[s.index()];
    (0..=held)
        .map(|j| {
            let mut c = c;
            c[w] = j;
            c[s.index()] = held - j;
            (c, wilds)
        })
        .collect()
}

fn naive_win(c: &mut Counts, wilds: u8, sets: u8, pair: bool, real: bool) -> bool {
    let Some(i) = (0..34).find(|&k| c[k] > 0) else {
        // Only wilds left: they form the rest alone.
        let need = 3 * sets + 2 * u8::from(pair);
        return wilds == need && (need == 0 || !real);
    };
    // Pair: two naturals, or one and a wild.
    if pair {
        for nat in [2u8, 1] {
            if c[i] >= nat && wilds >= 2 - nat {
                c[i] -= nat;
                let ok = naive_win(c, wilds - (2 - nat), sets, false, real);
                c[i] += nat;
                if ok {
                    return true;
                }
            }
        }
    }
    if sets == 0 {
        return false;
    }
    for nat in [3u8, 2, 1] {
        if c[i] >= nat && wilds >= 3 - nat {
            c[i] -= nat;
            let ok = naive_win(c, wilds - (3 - nat), sets - 1, pair, real);
            c[i] += nat;
            if ok {
                return true;
            }
        }
    }
    // Chows holding `i` at position `pos`: the faces below `i` are wild (`i` is the lowest
    // natural); each face above is natural (bit set in `mask`) or wild.
    for pos in 0..3usize {
        if i < 27 && i % 9 >= pos && chow_start(i - pos) {
            let low = i - pos;
            let above = 2 - pos;
            for mask in 0..1u8 << above {
                let faces: Vec<usize> = (0..above)
                    .filter(|&j| mask >> j & 1 == 1)
                    .map(|j| i + 1 + j)
                    .collect();
                let w_need = (3 - 1 - faces.len()) as u8;
                if wilds < w_need || faces.iter().any(|&f| c[f] == 0) {
                    continue;
                }
                debug_assert!(low <= i);
                c[i] -= 1;
                faces.iter().for_each(|&f| c[f] -= 1);
                let ok = naive_win(c, wilds - w_need, sets - 1, pair, real);
                c[i] += 1;
                faces.iter().for_each(|&f| c[f] += 1);
                if ok {
                    return true;
                }
            }
        }
    }
    false
}

fn naive_is_win(hand: &Hand, rules: HandRules) -> bool {
    let wild = rules.wild.unwrap();
    if hand.len() != 3 * rules.sets as usize + 2 {
        return false;
    }
    splits(hand, wild)
        .into_iter()
        .any(|(mut c, w)| naive_win(&mut c, w, rules.sets, true, wild.needs_real()))
}

/// DP state after a face: chows started one face back (count, how many hold a natural),
/// chows started two faces back (same), sets so far, pair so far, groups closed with no
/// natural. Value: the fewest slots so far not filled by a natural.
type State = (u8, u8, u8, u8, u8, u8, u8);

fn naive_lack(hand: &Hand, rules: HandRules) -> u8 {
    let wild = rules.wild.unwrap();
    splits(hand, wild)
        .into_iter()
        .map(|(c, w)| naive_lack_of(&c, w, rules.sets, wild.needs_real()))
        .min()
        .unwrap()
}

/// The naive shanten's dynamic program on one reading's naturals `c` and `w` wilds.
fn naive_lack_of(c: &Counts, w: u8, sets: u8, needs_real: bool) -> u8 {
    let mut dp: HashMap<State, u8> = HashMap::new();
    dp.insert((0, 0, 0, 0, 0, 0, 0), 0);
    for (k, &n) in c.iter().enumerate() {
        let mut next: HashMap<State, u8> = HashMap::new();
        for (&(o1, r1, o2, r2, m, p, z), &u) in &dp {
            let max_new = sets - m;
            for chows in 0..=if chow_start(k) { max_new } else { 0 } {
                for pungs in 0..=max_new - chows {
                    for pair in 0..=(1 - p) {
                        let slots = o1 + o2 + chows + 3 * pungs + 2 * pair;
                        let x = n.min(slots);
                        let groups_here = pungs + pair;
                        // Naturals that make a group real: finishing chows (o2 - r2),
                        // pungs and pair, open chows (o1 - r1), new chows.
                        for f2 in 0..=(o2 - r2).min(x) {
                            for fp in 0..=groups_here.min(x - f2) {
                                for f1 in 0..=(o1 - r1).min(x - f2 - fp) {
                                    for fc in 0..=chows.min(x - f2 - fp - f1) {
                                        let z2 = z + (o2 - r2 - f2) + (groups_here - fp);
                                        let state = (
                                            chows,
                                            fc,
                                            o1,
                                            r1 + f1,
                                            m + chows + pungs,
                                            p + pair,
                                            z2,
                                        );
                                        let v = u + slots - x;
                                        let e = next.entry(state).or_insert(u8::MAX);
                                        *e = (*e).min(v);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        dp = next;
    }
    let mut best = u8::MAX;
    for (&(o1, _, o2, _, m, p, z), &u) in &dp {
        if o1 == 0 && o2 == 0 && m == sets && p == 1 {
            let fill = u.saturating_sub(w);
            let cost = if needs_real { fill.max(z) } else { fill };
            best = best.min(cost);
        }
    }
    best
}

fn naive_waits(hand: &Hand, rules: HandRules) -> TileSet {
    let mut out = TileSet::EMPTY;
    if hand.len() != 3 * rules.sets as usize + 1 {
        return out;
    }
    for t in Tile::ALL {
        if hand.count(t) < 4 {
            let mut h = *hand;
            h.add(t);
            if naive_is_win(&h, rules) {
                out.insert(t);
            }
        }
    }
    out
}

struct Rng(Pcg64Mcg);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        ((self.0.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// A random wild setting: any wild kind, 白板 standing in (or none), either rule.
fn random_wild(rng: &mut Rng, real: bool) -> Wild {
    let kind = Tile::new(rng.below(34) as u8);
    let wild = Wild::new(kind).needing_real_tile(real);
    if rng.below(4) == 0 {
        wild
    } else {
        wild.with_stand_in(Tile::WHITE)
    }
}

/// A hand of `len` tiles with exactly `wilds` copies of the wild kind: either uniform
/// draws or random sets and a pair with a few tiles replaced, so that wins and ready hands
/// are common.
fn random_hand(rng: &mut Rng, wild: Wild, wilds: u8, len: usize, sets: u8) -> Hand {
    let mut hand = Hand::EMPTY;
    hand.add_n(wild.kind(), wilds);
    let add = |hand: &mut Hand, t: Tile| {
        if t != wild.kind() && hand.count(t) < 4 && hand.len() < len {
            hand.add(t);
        }
    };
    // Stand-ins often, so that their two readings meet (one hand in three holds 1 to 3).
    if let Some(s) = wild.stand_in() {
        if rng.below(3) == 0 {
            for _ in 0..=rng.below(3) {
                add(&mut hand, s);
            }
        }
    }
    if rng.below(2) == 0 {
        for _ in 0..sets {
            let k = rng.below(34);
            if rng.below(2) == 0 && chow_start(k) {
                for j in 0..3 {
                    add(&mut hand, Tile::new((k + j) as u8));
                }
            } else {
                for _ in 0..3 {
                    add(&mut hand, Tile::new(k as u8));
                }
            }
        }
        let k = rng.below(34) as u8;
        add(&mut hand, Tile::new(k));
        add(&mut hand, Tile::new(k));
        // Replace a few tiles.
        for _ in 0..rng.below(3) {
            let kinds: Vec<Tile> = hand.tiles().filter(|&t| t != wild.kind()).collect();
            if let Some(&t) = kinds.get(rng.below(kinds.len().max(1))) {
                hand.remove(t);
            }
        }
    }
    while hand.len() < len {
        add(&mut hand, Tile::new(rng.below(34) as u8));
    }
    hand
}

/// Checks `hands` hands: win check and waits against the naive win on every hand, shanten
/// against the naive dynamic program on every 64th, improving kinds on every 1024th.
fn check(seed: u64, hands: usize) -> (usize, usize, usize) {
    let mut rng = Rng(Pcg64Mcg::new(seed as u128));
    let (mut wins, mut ready, mut improving) = (0, 0, 0);
    for round in 0..hands {
        let real = round % 2 == 1;
        let wild = random_wild(&mut rng, real);
        let sets = if round % 4 < 2 { 4 } else { 5 };
        let wilds = (round / 4 % 5) as u8;
        let len = 3 * sets as usize + 1 + rng.below(2);
        let hand = random_hand(&mut rng, wild, wilds, len, sets);
        let rules = HandRules::regular(sets).with_wild(wild);
        let sh = shanten(&hand, rules);
        if len % 3 == 2 {
            let win = naive_is_win(&hand, rules);
            assert_eq!(is_win(&hand, rules), win, "{hand:?} {rules:?}");
            assert_eq!(sh < 0, win, "{hand:?} {rules:?}");
            wins += usize::from(win);
        } else {
            let want = naive_waits(&hand, rules);
            assert_eq!(waits(&hand, rules), want, "{hand:?} {rules:?}");
            assert!(want.is_empty() || sh == 0, "{hand:?} {rules:?}");
            ready += usize::from(!want.is_empty());
        }
        // The naive shanten is a slow dynamic program: every 64th hand, and the improving
        // kinds (34 of them) every 1024th.
        if round % 64 == 0 {
            let lack = naive_lack(&hand, rules);
            assert_eq!(sh, lack as i8 - 1, "{hand:?} {rules:?}");
            if len % 3 == 2 {
                assert_eq!(
                    lack == 0,
                    naive_is_win(&hand, rules),
                    "naive solvers disagree"
                );
            }
        }
        if round % 1024 == 0 {
            let lack = (sh + 1) as u8;
            let mut want = TileSet::EMPTY;
            if sh >= 0 {
                for t in Tile::ALL {
                    if hand.count(t) < 4 {
                        let mut h = hand;
                        h.add(t);
                        if naive_lack(&h, rules) < lack {
                            want.insert(t);
                        }
                    }
                }
            }
            let all: TileSet = Tile::ALL.into_iter().collect();
            assert_eq!(
                improving_kinds(&hand, rules, sh, all),
                want,
                "{hand:?} {rules:?}"
            );
            improving += usize::from(!want.is_empty());
        }
    }
    (wins, ready, improving)
}

/// Hands per test, four tests run in parallel: 200,000 hands in all by default (the naive
/// solvers, not the fast path, bound the count: see `check`); `TAISIM_WILD_HANDS` sets it for
/// a long run.
fn hands() -> usize {
    let n = std::env::var("TAISIM_WILD_HANDS")
        .ok()
        .map(|s| {
            s.parse()
                .expect("TAISIM_WILD_HANDS: a number of hands per test")
        })
        .unwrap_or(50_000);
    eprintln!("{n} hands");
    n
}

#[test]
fn wild_solvers_agree_0() {
    let hands = hands();
    let (w, r, i) = check(1, hands);
    assert!(
        w > hands / 50 && r > hands / 50 && i > hands / 4096,
        "{w} {r} {i}"
    );
}

#[test]
fn wild_solvers_agree_1() {
    let hands = hands();
    let (w, r, i) = check(2, hands);
    assert!(
        w > hands / 50 && r > hands / 50 && i > hands / 4096,
        "{w} {r} {i}"
    );
}

#[test]
fn wild_solvers_agree_2() {
    let hands = hands();
    let (w, r, i) = check(3, hands);
    assert!(
        w > hands / 50 && r > hands / 50 && i > hands / 4096,
        "{w} {r} {i}"
    );
}

#[test]
fn wild_solvers_agree_3() {
    let hands = hands();
    let (w, r, i) = check(4, hands);
    assert!(
        w > hands / 50 && r > hands / 50 && i > hands / 4096,
        "{w} {r} {i}"
    );
}

fn h(s: &str) -> Hand {
    parse_hand(s).unwrap()
}

fn set(s: &str) -> TileSet {
    taisim_sim::parse_tiles(s).unwrap().into_iter().collect()
}

fn t(s: &str) -> Tile {
    set(s).into_iter().next().unwrap()
}

/// taizhou.md "闲家胡牌" (the 南风 winner): 得牌 is 9s (line 399: "得牌为九条 … 白板当做九条");
/// 中 is melded, so the concealed part forms 3 sets and the pair. The text reads three 7s,
/// two as the pair and one with 白板 (a natural 9s) waiting on 8s in the middle, and says
/// the hand also wins on 白板 and 9s (line 403). Built here as 123m 456p 77s + a wild + 白板:
/// the wild stands as the third 7s.
#[test]
fn taizhou_example_one() {
    for real in [false, true] {
        let rules = HandRules::regular(3).with_wild(Wild::taizhou(t("9s"), real));
        let hand = h("123m 456p 77s 9s P");
        assert_eq!(hand.len(), 10);
        let w = waits(&hand, rules);
        // 8s (嵌档), 白板 (99s pung from the wild and two 白板? no: 77s pair, wild+白板+白板
        // a pung of 9s) and 9s (a second wild: 7s + wild as 8s + 白板, pair 7s + wild).
        for kind in ["8s", "P", "9s"] {
            assert!(w.contains(t(kind)), "{kind} real={real}");
        }
        // The text lists three waits; the same tiles also win on a fourth 7s (pung 777s,
        // pair 白板 + wild as 9s), which the example does not mention.
        assert_eq!(w, set("7s8s9sP"), "real={real}");
        // The winning hand reads 123m 456p 789s (白板 as 9s) with pair 77s, or 777s with the
        // wild as 7s... listed with what the wild stands for.
        let mut won = hand;
        won.add(t("8s"));
        assert!(is_win(&won, rules));
        let mut out = DecompositionList::new();
        assert!(decompositions(&won, rules, &mut out));
        assert!(out.iter().any(|d| d.pair == t("7s")
            && d.wilds.as_slice() == [t("7s")]
            && d.sets.contains(&Set::Chow(t("7s")))));
    }
}

/// taizhou.md "庄家胡牌" (the 東 winner): 得牌 is 3p, read as 5p or 8p (line 433); two 2p are
/// the pair; 6m and 8m wait on 7m in the middle; the hand wins on 7m, 5p and 8p. The dealer
/// has melded 666s and 888s, so 2 sets and the pair remain: 68m 22p 67p + the wild (as 5p or
/// 8p), 8 tiles before the draw.
#[test]
fn taizhou_example_two() {
    for real in [false, true] {
        let rules = HandRules::regular(2).with_wild(Wild::taizhou(t("3p"), real));
        let hand = h("68m 22p 67p 3p");
        assert_eq!(hand.len(), 7);
        let w = waits(&hand, rules);
        for kind in ["7m", "5p", "8p"] {
            assert!(w.contains(t(kind)), "{kind} real={real}");
        }
        // The text's three, and also 3p: a second wild completes whatever a tile would.
        assert_eq!(w, set("7m 3p5p8p"), "real={real}");
    }
}

/// Near misses of the real-tile rule (taizhou.md line 175, 得牌: "不可单独使用"; rules/README.md
/// "taizhou: readings the project adopts", 得牌 and 白板).
#[test]
fn wild_near_misses() {
    let free = Wild::new(t("E"));
    let real = free.needing_real_tile(true);
    // A pair of two wilds: a pair without the rule, not with it (a hand of 0 sets).
    let hand = h("EE");
    assert!(is_win(&hand, HandRules::regular(0).with_wild(free)));
    assert!(!is_win(&hand, HandRules::regular(0).with_wild(real)));
    // One natural and four wilds: either the pair or the set is wilds alone.
    let hand = h("EEEE 5s");
    assert!(is_win(&hand, HandRules::regular(1).with_wild(free)));
    assert!(!is_win(&hand, HandRules::regular(1).with_wild(real)));
    // Two naturals and three wilds: each holds one, a win under both.
    let hand = h("EEE 1m 9p");
    assert!(is_win(&hand, HandRules::regular(1).with_wild(real)));
    // Waiting with three wilds and one natural: under the rule a fourth wild does not
    // complete it, any natural does (the natural drawn makes a set with two wilds).
    let hand = h("EEE 5s");
    let w = waits(&hand, HandRules::regular(1).with_wild(real));
    assert!(!w.contains(t("E")) && w.contains(t("1m")) && w.contains(t("C")));
    assert_eq!(w.len(), 33);
    assert_eq!(
        waits(&hand, HandRules::regular(1).with_wild(free)).len(),
        34
    );
    // A lone wild waits on anything without the rule; with it, not on a second wild.
    assert_eq!(shanten(&h("E"), HandRules::regular(0).with_wild(free)), 0);
    assert_eq!(shanten(&h("E"), HandRules::regular(0).with_wild(real)), 0);
    assert_eq!(shanten(&h("EE"), HandRules::regular(0).with_wild(real)), 0);
    // 白板 is never wild: with 9s wild, P is a natural 9s and P alone with 9s...
    let w = Wild::taizhou(t("9s"), true);
    assert!(is_win(
        &h("123m 456m 789m 78s P 11p"),
        HandRules::regular(4).with_wild(w)
    ));
    assert!(!is_win(
        &h("123m 456m 789m 78s C 11p"),
        HandRules::regular(4).with_wild(w)
    ));
    // When 白板 is the wild, nothing stands in: the white dragons are wild.
    let w = Wild::taizhou(t("P"), false);
    assert_eq!(w.stand_in(), None);
    assert!(is_win(
        &h("123m 456m 789m 78s P 11p"),
        HandRules::regular(4).with_wild(w)
    ));
}

/// Every decomposition with wilds is a win, uses each natural, and the wilds' faces plus
/// the naturals are exactly the faces of its sets and pair; readings are distinct.
#[test]
fn wild_decompositions_are_consistent() {
    let mut rng = Rng(Pcg64Mcg::new(99));
    let mut seen_many = 0;
    let mut two_ways = 0;
    for round in 0..20_000 {
        let wild = random_wild(&mut rng, round % 2 == 0);
        let wilds = (round % 5) as u8;
        let sets = if round % 3 == 0 { 4 } else { 5 };
        let hand = random_hand(&mut rng, wild, wilds, 3 * sets as usize + 2, sets);
        let rules = HandRules::regular(sets).with_wild(wild);
        let readings_of = splits(&hand, wild);
        let w = readings_of[0].1;
        let mut readings = Vec::new();
        for_each_decomposition(&hand, rules, |d| readings.push(d.clone()));
        assert_eq!(!readings.is_empty(), is_win(&hand, rules), "{hand:?}");
        for d in &readings {
            let faces = d.natural_faces();
            assert_eq!(d.wilds.len(), w as usize);
            // The naturals of one reading of the stand-ins.
            assert!(
                readings_of.iter().any(|(c, _)| *c == faces),
                "{hand:?} {d:?}"
            );
        }
        // Every reading of the stand-ins that wins has its decompositions listed (the naive
        // win, reading by reading).
        for (c, _) in &readings_of {
            let listed = readings.iter().any(|d| d.natural_faces() == *c);
            let wins = naive_win(&mut c.clone(), w, sets, true, wild.needs_real());
            assert_eq!(listed, wins, "{hand:?} reading {c:?}");
            two_ways += usize::from(wins && readings_of.len() > 1);
        }
        let mut sorted = readings.clone();
        sorted.sort_by_key(|d| format!("{d:?}"));
        sorted.dedup();
        assert_eq!(sorted.len(), readings.len());
        seen_many += usize::from(readings.len() > 1);
        let mut out = DecompositionList::new();
        let all = decompositions(&hand, rules, &mut out);
        assert_eq!(all, readings.len() <= out.capacity());
        assert_eq!(out.as_slice(), &readings[..out.len()]);
    }
    assert!(seen_many > 100, "{seen_many}");
    assert!(two_ways > 100, "{two_ways}");
}

/// `Discards` with wilds: each discard's shanten and improving kinds as the one-hand
/// queries give them.
#[test]
fn wild_discards_match_queries() {
    let mut rng = Rng(Pcg64Mcg::new(7));
    let all: TileSet = Tile::ALL.into_iter().collect();
    let (mut improved, mut ready) = (0, 0);
    for round in 0..3_000 {
        let wild = random_wild(&mut rng, round % 2 == 0);
        let sets = if round % 3 == 0 { 4 } else { 5 };
        let hand = random_hand(
            &mut rng,
            wild,
            (round % 5) as u8,
            3 * sets as usize + 2,
            sets,
        );
        let rules = HandRules::regular(sets).with_wild(wild);
        let scan = Discards::new(&hand, rules);
        let improving = scan.improving_kinds(hand.kinds(), all);
        // Some discards and some draws asked: each discard's answer is its own, and only
        // the draws asked are in it.
        let some = TileSet(rng.0.next_u64() | rng.0.next_u64());
        let asked = TileSet(rng.0.next_u64() | rng.0.next_u64());
        let part = scan.improving_kinds(some, asked);
        let mut queried = [i8::MAX; Tile::NUM];
        for t in Tile::ALL {
            if hand.count(t) == 0 {
                assert!(improving[t.index()].is_empty() && part[t.index()].is_empty());
                continue;
            }
            let mut left = hand;
            left.remove(t);
            let sh = shanten(&left, rules);
            assert_eq!(scan.shanten(t), sh, "{hand:?} - {t}");
            queried[t.index()] = sh;
            let want = improving_kinds(&left, rules, sh, all);
            assert_eq!(improving[t.index()], want, "{hand:?} - {t}");
            let want_part = if some.contains(t) {
                TileSet(want.0 & asked.0)
            } else {
                TileSet::EMPTY
            };
            assert_eq!(
                part[t.index()],
                want_part,
                "{hand:?} - {t}, asked {asked:?}"
            );
            improved += usize::from(!want.is_empty());
            ready += usize::from(sh == 0);
        }
        // The least of the queries, and the kinds whose discard leaves it.
        let least = queried.iter().copied().min().expect("34 kinds");
        let at: TileSet = Tile::ALL
            .into_iter()
            .filter(|t| queried[t.index()] == least)
            .collect();
        assert_eq!(scan.least(), (least, at), "{hand:?}");
    }
    // Both the hands far from ready and the nearly ready ones are met.
    assert!(improved > 10_000 && ready > 1_000, "{improved} {ready}");
}

/// The rules refuse wilds with the special hands.
#[test]
fn wilds_and_special_hands_are_refused() {
    let w = Wild::new(t("1m"));
    assert!(HandRules::new(5, SpecialHands::ALL)
        .with_wild(w)
        .check()
        .is_err());
    assert!(HandRules::new(5, SpecialHands::NONE)
        .with_wild(w)
        .check()
        .is_ok());
    assert!(HandRules::regular(6).check().is_err());
}

/// taizhou.md 牌型 "白板：可以作为自身，也可以做为当前的得牌，但不能成为得牌": a 白板 is read as
/// itself (a white dragon) or as the wild kind's face, never as a wild. Both readings are
/// listed among the decompositions; the win check, waits and shanten accept a hand that
/// either reading completes; a 白板 stands for no other face.
#[test]
fn white_dragon_reads_as_itself_or_as_the_wild_face() {
    let rules = |w: &str| HandRules::regular(4).with_wild(Wild::taizhou(t(w), true));
    let readings = |hand: &str, w: &str| {
        let mut out = Vec::new();
        for_each_decomposition(&h(hand), rules(w), |d| out.push(d.clone()));
        out
    };
    // A 白板 pair in a 萬 hand, wild 5p: the pair is 白白 (itself) or 5p5p (the face).
    let r = readings("123m 456m 789m 234m PP", "5p");
    assert!(r.iter().any(|d| d.pair == t("P")), "{r:?}");
    assert!(r.iter().any(|d| d.pair == t("5p")), "{r:?}");
    assert!(is_win(&h("123m 456m 789m 234m PP"), rules("5p")));
    // A 白板 pung, and one 白板 with a wild as the pair: each reading both ways.
    let r = readings("123m 456m 789m PPP 55m", "9s");
    assert!(
        r.iter().any(|d| d.sets.contains(&Set::Pung(t("P")))),
        "{r:?}"
    );
    assert!(
        r.iter().any(|d| d.sets.contains(&Set::Pung(t("9s")))),
        "{r:?}"
    );
    let r = readings("123m 456m 789m 111p P 9s", "9s");
    assert!(r
        .iter()
        .any(|d| d.pair == t("P") && d.wilds.as_slice() == [t("P")]));
    assert!(r
        .iter()
        .any(|d| d.pair == t("9s") && d.wilds.as_slice() == [t("9s")]));
    // Two 白板 read apart: one a pung of 白板 with two wilds (itself), the other the 5p of a
    // 4p-白板-6p chow (the face).
    let r = readings("123m 456m 55m 4p6p PP 5p5p", "5p");
    assert!(
        r.iter()
            .any(|d| d.sets.contains(&Set::Pung(t("P"))) && d.sets.contains(&Set::Chow(t("4p")))),
        "{r:?}"
    );
    // Only the face chows: 4p 白板 6p with wild 5p wins, with wild 9s it does not.
    let hand = h("123m 456m 789m 4p P 6p 11s");
    assert!(is_win(&hand, rules("5p")));
    assert!(readings("123m 456m 789m 4p P 6p 11s", "5p")
        .iter()
        .all(|d| d.sets.contains(&Set::Chow(t("4p")))));
    // "但不能成为得牌": never a wild, so it cannot be the 6p of 45p or 78p.
    assert!(!is_win(&hand, rules("9s")));
    assert!(!is_win(&h("123m 456m 789m 4p P 7p 11s"), rules("5p")));
    assert!(!is_win(&h("123m 456m 789m 45p P 11s"), rules("9s")));
    // Waits: 11s and a 白板 pair wait on either (白板 drawn: a pung of 白板 read either way)
    // and on a wild, which completes whatever a tile would.
    let waiting = h("123m 456m 789m 11s PP");
    let w = waits(&waiting, rules("5p"));
    assert_eq!(w, set("1s 5p P"), "{w:?}");
    assert_eq!(shanten(&waiting, rules("5p")), 0);
}
