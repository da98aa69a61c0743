//! Cross-checks the table-driven hand algorithms against naive solvers that share nothing
//! with them: plain recursion for wins and decompositions, and for shanten a direct dynamic
//! program over the 34 kinds that minimises, over every target hand of `sets` sets and a pair
//! (at most four of a kind), the number of target tiles the hand lacks.
//!
//! The hands mix uniform draws from a shuffled 136-tile wall (mostly far from complete) with
//! constructed hands (random sets and a pair, then up to three tiles replaced), so that wins,
//! ready hands and low shanten are well represented. Every generator is seeded, so a failure
//! reproduces.

use std::collections::BTreeSet;

use rand_core::RngCore;
use rand_pcg::Pcg64Mcg;
use taisim_sim::algo::{
    self, decompositions, is_win, shanten, waits, DecompositionList, HandRules, SpecialHands,
};
use taisim_sim::{Hand, Tile, TileSet};

/// Hands per kind of check. The naive shanten DP costs ~10 µs a hand in the test profile, so
/// a million hands on two threads fit the time budget and every hand gets every check.
const HANDS: usize = 1_000_000;
const THREADS: u64 = 2;

type Counts = [u8; 34];

struct Rng(Pcg64Mcg);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(Pcg64Mcg::new(seed as u128))
    }

    /// Uniform in `0..n` (multiply-shift; the bias is below 2^-50 for our small `n`).
    fn below(&mut self, n: usize) -> usize {
        ((self.0.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

// ----- naive solvers -------------------------------------------------------------------------

fn chow_start(k: usize) -> bool {
    k < 27 && k % 9 < 7
}

/// Whether `counts` splits exactly into sets, plus one pair if `pair`: the lowest kind present
/// must be in the pair, a pung, or a chow starting at it.
fn naive_split(counts: &mut Counts, pair: bool) -> bool {
    let Some(i) = (0..34).find(|&k| counts[k] > 0) else {
        return !pair;
    };
    if pair && counts[i] >= 2 {
        counts[i] -= 2;
        let ok = naive_split(counts, false);
        counts[i] += 2;
        if ok {
            return true;
        }
    }
    if counts[i] >= 3 {
        counts[i] -= 3;
        let ok = naive_split(counts, pair);
        counts[i] += 3;
        if ok {
            return true;
        }
    }
    if chow_start(i) && counts[i + 1] > 0 && counts[i + 2] > 0 {
        counts[i] -= 1;
        counts[i + 1] -= 1;
        counts[i + 2] -= 1;
        let ok = naive_split(counts, pair);
        counts[i] += 1;
        counts[i + 1] += 1;
        counts[i + 2] += 1;
        if ok {
            return true;
        }
    }
    false
}

fn naive_is_win(counts: &Counts, sets: u8) -> bool {
    let n: usize = counts.iter().map(|&c| c as usize).sum();
    n == 3 * sets as usize + 2 && naive_split(&mut counts.clone(), true)
}

/// Every decomposition, found by branching on every choice (so the same multiset is reached
/// many times) and deduplicated through a set of sorted lists.
fn naive_decompositions(counts: &Counts) -> BTreeSet<(Vec<(u8, usize)>, usize)> {
    fn rec(
        counts: &mut Counts,
        sets: &mut Vec<(u8, usize)>,
        pair: Option<usize>,
        out: &mut BTreeSet<(Vec<(u8, usize)>, usize)>,
    ) {
        let Some(i) = (0..34).find(|&k| counts[k] > 0) else {
            if let Some(p) = pair {
                let mut s = sets.clone();
                s.sort();
                out.insert((s, p));
            }
            return;
        };
        if pair.is_none() && counts[i] >= 2 {
            counts[i] -= 2;
            rec(counts, sets, Some(i), out);
            counts[i] += 2;
        }
        if counts[i] >= 3 {
            counts[i] -= 3;
            sets.push((1, i));
            rec(counts, sets, pair, out);
            sets.pop();
            counts[i] += 3;
        }
        if chow_start(i) && counts[i + 1] > 0 && counts[i + 2] > 0 {
            counts[i..i + 3].iter_mut().for_each(|c| *c -= 1);
            sets.push((0, i));
            rec(counts, sets, pair, out);
            sets.pop();
            counts[i..i + 3].iter_mut().for_each(|c| *c += 1);
        }
    }
    let mut out = BTreeSet::new();
    rec(&mut counts.clone(), &mut Vec::new(), None, &mut out);
    out
}

/// The fewest tiles that, added to the hand, make it contain `sets` sets and a pair without
/// any kind exceeding four copies. A target is a choice, per kind `k`, of chows starting at
/// `k`, a pung or not, and the pair or not; kind `k` then holds the chows started at `k-2`,
/// `k-1` and `k`, plus 3 per pung and 2 for the pair, and the hand lacks whatever of that it
/// does not hold. The DP walks the kinds carrying the chows started at the previous two.
// Indexed loops mirror the DP's recurrence more plainly than iterator chains would.
#[allow(clippy::needless_range_loop)]
fn naive_lack(counts: &Counts, sets: u8) -> u8 {
    const INF: u8 = u8::MAX;
    let sets = sets as usize;
    // dp[chows started one back][chows started two back][sets so far][pair so far]
    let mut dp = [[[[INF; 2]; 6]; 5]; 5];
    dp[0][0][0][0] = 0;
    for (k, &held) in counts.iter().enumerate() {
        let mut next = [[[[INF; 2]; 6]; 5]; 5];
        let max_chows = if chow_start(k) { 4 } else { 0 };
        for one in 0..5 {
            for two in 0..5 - one {
                for m in 0..=sets {
                    for p in 0..2 {
                        let cur = dp[one][two][m][p];
                        if cur == INF {
                            continue;
                        }
                        for chows in 0..=max_chows {
                            for pung in 0..2 {
                                for pair in 0..2 - p {
                                    let need = one + two + chows + 3 * pung + 2 * pair;
                                    let m2 = m + chows + pung;
                                    if need > 4 || m2 > sets {
                                        continue;
                                    }
                                    let lack = (need as u8).saturating_sub(held);
                                    let slot = &mut next[chows][one][m2][p + pair];
                                    *slot = (*slot).min(cur + lack);
                                }
                            }
                        }
                    }
                }
            }
        }
        dp = next;
    }
    dp[0][0][sets][1]
}

fn naive_eight_pairs(counts: &Counts) -> bool {
    let n: usize = counts.iter().map(|&c| c as usize).sum();
    let triplets = counts.iter().filter(|&&c| c == 3).count();
    n == 17 && triplets == 1 && counts.iter().all(|&c| c != 1)
}

fn naive_thirteen_orphans(counts: &Counts) -> bool {
    const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
    let n: usize = counts.iter().map(|&c| c as usize).sum();
    if n != 17 {
        return false;
    }
    let rest_ok = |rest: &Counts| {
        (0..34).all(|k| {
            if ORPHANS.contains(&k) {
                rest[k] >= 1
            } else {
                rest[k] == 0
            }
        })
    };
    for k in 0..34 {
        let mut rest = *counts;
        if rest[k] >= 3 {
            rest[k] -= 3;
            if rest_ok(&rest) {
                return true;
            }
        }
        let mut rest = *counts;
        if chow_start(k) && (k..k + 3).all(|j| rest[j] > 0) {
            (k..k + 3).for_each(|j| rest[j] -= 1);
            if rest_ok(&rest) {
                return true;
            }
        }
    }
    false
}

fn naive_win_with(counts: &Counts, sets: u8, special: SpecialHands) -> bool {
    naive_is_win(counts, sets)
        || (sets == 5 && special.eight_pairs && naive_eight_pairs(counts))
        || (sets == 5 && special.thirteen_orphans && naive_thirteen_orphans(counts))
}

fn naive_waits(counts: &Counts, sets: u8, special: SpecialHands) -> TileSet {
    let mut out = TileSet::EMPTY;
    for t in Tile::ALL {
        if counts[t.index()] < 4 {
            let mut c = *counts;
            c[t.index()] += 1;
            if naive_win_with(&c, sets, special) {
                out.insert(t);
            }
        }
    }
    out
}

// ----- hand generators -----------------------------------------------------------------------

/// `n` tiles drawn from a freshly shuffled 136-tile wall.
fn uniform_hand(rng: &mut Rng, n: usize) -> Counts {
    let mut wall: [u8; 136] = core::array::from_fn(|i| (i / 4) as u8);
    let mut counts = [0u8; 34];
    for i in 0..n {
        let j = i + rng.below(136 - i);
        wall.swap(i, j);
        counts[wall[i] as usize] += 1;
    }
    counts
}

/// `sets` random sets and a pair (no kind over four), then `replace` tiles swapped for random
/// ones, then one tile dropped if `drop_one`.
fn constructed_hand(rng: &mut Rng, sets: u8, replace: usize, drop_one: bool) -> Counts {
    let mut counts = [0u8; 34];
    let mut placed = 0;
    while placed < sets {
        let k = rng.below(34);
        if rng.below(2) == 0 && chow_start(k) {
            if (k..k + 3).all(|j| counts[j] < 4) {
                (k..k + 3).for_each(|j| counts[j] += 1);
                placed += 1;
            }
        } else if counts[k] <= 1 {
            counts[k] += 3;
            placed += 1;
        }
    }
    loop {
        let k = rng.below(34);
        if counts[k] <= 2 {
            counts[k] += 2;
            break;
        }
    }
    perturb(rng, &mut counts, replace, drop_one);
    counts
}

/// Swaps `replace` random tiles for random others (never a fifth copy), then drops one tile
/// if `drop_one`: complete hands become near-complete ones.
fn perturb(rng: &mut Rng, counts: &mut Counts, replace: usize, drop_one: bool) {
    let remove_one = |rng: &mut Rng, counts: &mut Counts| loop {
        let k = rng.below(34);
        if counts[k] > 0 {
            counts[k] -= 1;
            break;
        }
    };
    for _ in 0..replace {
        remove_one(rng, counts);
        loop {
            let k = rng.below(34);
            if counts[k] < 4 {
                counts[k] += 1;
                break;
            }
        }
    }
    if drop_one {
        remove_one(rng, counts);
    }
}

/// A 17-tile special form (eight pairs, or thirteen orphans with its pair and extra set),
/// then `replace` tiles swapped and one dropped if `drop_one`, so the special waits and
/// special shanten see near-complete hands too.
fn special_hand(rng: &mut Rng, replace: usize, drop_one: bool) -> Counts {
    let mut counts = [0u8; 34];
    if rng.below(2) == 0 {
        loop {
            let k = rng.below(34);
            if counts[k] == 0 {
                counts[k] = 3;
                break;
            }
        }
        let mut pairs = 0;
        while pairs < 7 {
            let k = rng.below(34);
            if counts[k] == 0 || counts[k] == 2 {
                counts[k] += 2;
                pairs += 1;
            }
        }
    } else {
        const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
        ORPHANS.iter().for_each(|&k| counts[k] = 1);
        counts[ORPHANS[rng.below(13)]] += 1;
        loop {
            let k = rng.below(34);
            if chow_start(k) && rng.below(2) == 0 {
                if (k..k + 3).all(|j| counts[j] < 4) {
                    (k..k + 3).for_each(|j| counts[j] += 1);
                    break;
                }
            } else if counts[k] <= 1 {
                counts[k] += 3;
                break;
            }
        }
    }
    perturb(rng, &mut counts, replace, drop_one);
    counts
}

// ----- the cross-check -----------------------------------------------------------------------

#[derive(Default, Debug)]
struct Tally {
    hands: usize,
    win_checks: usize,
    wins: usize,
    shanten_checks: usize,
    ready: usize,
    wait_checks: usize,
    decomposition_checks: usize,
    most_decompositions: usize,
    special_wins: usize,
}

fn check_hand(rng: &mut Rng, counts: &Counts, sets: u8, tally: &mut Tally) {
    let hand = Hand::from_counts(counts).expect("generators never exceed four copies");
    let n = hand.len();
    tally.hands += 1;
    let lack = naive_lack(counts, sets);
    let s = shanten(&hand, HandRules::regular(sets));
    assert_eq!(s, lack as i8 - 1, "shanten of {hand} with {sets} sets");
    tally.shanten_checks += 1;
    let special = SpecialHands::ALL;
    let s_with = shanten(&hand, HandRules::new(sets, special));
    assert!(s_with <= s, "{hand}");
    if n == 3 * sets as usize + 2 {
        let win = naive_is_win(counts, sets);
        assert_eq!(
            is_win(&hand, HandRules::regular(sets)),
            win,
            "is_win of {hand} with {sets} sets"
        );
        assert_eq!(win, s == -1, "{hand}");
        let win_with = naive_win_with(counts, sets, special);
        assert_eq!(
            is_win(&hand, HandRules::new(sets, special)),
            win_with,
            "is_win_with of {hand}"
        );
        assert_eq!(win_with, s_with == -1, "shanten_with of {hand}");
        tally.win_checks += 1;
        tally.wins += usize::from(win);
        tally.special_wins += usize::from(win_with && !win);
        let mut out = DecompositionList::new();
        decompositions(&hand, HandRules::regular(sets), &mut out);
        if win {
            let naive = naive_decompositions(counts);
            assert_eq!(out.len(), naive.len(), "decompositions of {hand}");
            let ours: BTreeSet<_> = out
                .iter()
                .map(|d| {
                    let sets: Vec<(u8, usize)> = d
                        .sets
                        .iter()
                        .map(|s| match *s {
                            algo::Set::Chow(t) => (0, t.index()),
                            algo::Set::Pung(t) => (1, t.index()),
                        })
                        .collect();
                    (sets, d.pair.index())
                })
                .collect();
            assert_eq!(ours, naive, "decompositions of {hand}");
            tally.decomposition_checks += 1;
            tally.most_decompositions = tally.most_decompositions.max(out.len());
        } else {
            assert!(out.is_empty(), "{hand}");
        }
    } else {
        let w = waits(&hand, HandRules::new(sets, SpecialHands::NONE));
        assert_eq!(
            w,
            naive_waits(counts, sets, SpecialHands::NONE),
            "waits of {hand}"
        );
        assert_eq!(!w.is_empty(), s == 0, "waits vs shanten of {hand}");
        let w_with = waits(&hand, HandRules::new(sets, special));
        assert_eq!(
            w_with,
            naive_waits(counts, sets, special),
            "special waits of {hand}"
        );
        assert_eq!(
            !w_with.is_empty(),
            s_with == 0,
            "special waits vs shanten of {hand}"
        );
        tally.wait_checks += 1;
        tally.ready += usize::from(s == 0);
        // A second win check per hand, on the hand plus a drawn tile: a wait when there is
        // one (so wins stay common), else a random kind.
        let draw = match w.iter().nth(rng.below(w.len().max(1) as usize)) {
            Some(t) if rng.below(2) == 0 => t,
            _ => loop {
                let t = Tile::ALL[rng.below(34)];
                if counts[t.index()] < 4 {
                    break t;
                }
            },
        };
        let mut drawn = hand;
        drawn.add(draw);
        let mut c = *counts;
        c[draw.index()] += 1;
        let win = naive_is_win(&c, sets);
        assert_eq!(
            is_win(&drawn, HandRules::regular(sets)),
            win,
            "is_win of {drawn} with {sets} sets"
        );
        assert_eq!(win, w.contains(draw), "{hand} + {draw}");
        tally.win_checks += 1;
        tally.wins += usize::from(win);
    }
}

fn run(seed: u64, hands: usize) -> Tally {
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for i in 0..hands {
        let sets = if i % 2 == 0 { 5 } else { 4 };
        let complete_len = i % 4 < 2;
        let counts = if sets == 5 && rng.below(8) == 0 {
            let replace = rng.below(3);
            special_hand(&mut rng, replace, !complete_len)
        } else if rng.below(2) == 0 {
            let n = 3 * sets as usize + 1 + usize::from(complete_len);
            uniform_hand(&mut rng, n)
        } else {
            let replace = rng.below(4);
            constructed_hand(&mut rng, sets, replace, !complete_len)
        };
        check_hand(&mut rng, &counts, sets, &mut tally);
    }
    tally
}

#[test]
fn tables_agree_with_naive_solvers() {
    algo::warm_up();
    let start = std::time::Instant::now();
    let per_thread = HANDS / THREADS as usize;
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| scope.spawn(move || run(0x5EED_0000 + t, per_thread)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut total = Tally::default();
    for t in &tallies {
        total.hands += t.hands;
        total.win_checks += t.win_checks;
        total.wins += t.wins;
        total.shanten_checks += t.shanten_checks;
        total.ready += t.ready;
        total.wait_checks += t.wait_checks;
        total.decomposition_checks += t.decomposition_checks;
        total.most_decompositions = total.most_decompositions.max(t.most_decompositions);
        total.special_wins += t.special_wins;
    }
    eprintln!("{total:?} in {:?}", start.elapsed());
    assert_eq!(total.hands, HANDS);
    assert_eq!(total.shanten_checks, HANDS);
    assert_eq!(total.win_checks, HANDS);
    // The mix must exercise the interesting cases, not just far-from-complete hands.
    assert!(total.wins > HANDS / 20, "{total:?}");
    assert!(total.ready > HANDS / 20, "{total:?}");
    assert!(total.most_decompositions >= 2, "{total:?}");
    assert!(total.special_wins > HANDS / 200, "{total:?}");
}

/// Fixed hands whose answers are known by hand, so the naive solvers are themselves checked.
#[test]
fn naive_solvers_on_known_hands() {
    let c = |s: &str| taisim_sim::parse_hand(s).unwrap().counts();
    assert!(naive_is_win(&c("123m456m789m123p11s"), 4));
    assert!(!naive_is_win(&c("123m456m789m123p12s"), 4));
    assert_eq!(naive_lack(&c("123m456m789m123p11s"), 4), 0);
    assert_eq!(naive_lack(&c("1112345678999m"), 4), 1);
    assert_eq!(naive_lack(&c("1111m 456p 789s 123s"), 4), 2);
    assert_eq!(naive_lack(&c("13m 46p 79s EEE CC 111m SWN"), 5), 3);
    assert_eq!(
        naive_waits(&c("1112345678999m"), 4, SpecialHands::NONE).len(),
        9
    );
    assert_eq!(naive_decompositions(&c("11122233344456777m")).len(), 6);
    assert!(naive_eight_pairs(&c("1111m 55p 77p 99s EE CC FFF")));
    assert!(naive_thirteen_orphans(&c("1111m 9m 19p 19s ESWNPFC 9s")));
}
