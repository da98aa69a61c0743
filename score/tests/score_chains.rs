//! Exclusion chains (issue 15): a pattern that another rules out excludes nothing itself.
//! Every chain A → B → C of every shipped variant (A excludes B, B excludes C, A does not
//! exclude C) must count A and C; gradings (CHAINS) must go as a whole; the exclusions
//! must form no cycle; and the chains the texts name are checked on real hands.

use taisim_score::{counted_patterns, score, PatternId, PatternSet, Variant, CHAINS};
use taisim_sim::{parse_hand, parse_tile, Wind};

fn set(ps: &[PatternId]) -> PatternSet {
    ps.iter().fold(0, |m, p| m | p.bit())
}

fn enabled(v: &Variant) -> Vec<PatternId> {
    PatternId::ALL
        .iter()
        .copied()
        .filter(|&p| v.pattern(p).is_some())
        .collect()
}

/// Whether `a` rules out `b` under `v`, as scoring applies it (the file's exclusions, the
/// gradings and what they imply).
fn excludes(v: &Variant, a: PatternId, b: PatternId) -> bool {
    counted_patterns(set(&[a, b]), v) == a.bit()
}

/// The chains of `v`: A excludes B, B excludes C, A does not exclude C.
fn chains(v: &Variant) -> Vec<[PatternId; 3]> {
    let ps = enabled(v);
    let mut out = Vec::new();
    for &a in &ps {
        for &b in ps.iter().filter(|&&b| b != a && excludes(v, a, b)) {
            for &c in ps
                .iter()
                .filter(|&&c| c != a && c != b && excludes(v, b, c) && !excludes(v, a, c))
            {
                out.push([a, b, c]);
            }
        }
    }
    out
}

#[test]
fn every_chain_of_every_variant_keeps_the_bottom() {
    let mut total = 0;
    for name in Variant::names() {
        let v = Variant::builtin(name).unwrap();
        let found = chains(&v);
        for [a, b, c] in &found {
            let counted = counted_patterns(set(&[*a, *b, *c]), &v);
            assert_eq!(
                counted,
                set(&[*a, *c]),
                "{name}: {a} rules out {b}, which must then rule out nothing ({c} counts)"
            );
        }
        total += found.len();
        eprintln!("{name}: {} chains", found.len());
    }
    // taiwan16's 天聽 → 不求人 → 自摸 at least, and the 2015 table's many.
    assert!(total >= 20, "only {total} chains found");
}

#[test]
fn the_texts_chains_are_among_them() {
    use PatternId::*;
    // taiwan16-common.txt:81 天聽 不計門清，其餘另計; :30 不求人.
    for name in ["taiwan16", "taiwan16-house"] {
        let v = Variant::builtin(name).unwrap();
        assert!(chains(&v).contains(&[DealerHeavenlyReady, ConcealedSelfDraw, SelfDraw]));
    }
    let v = Variant::builtin("taiwan16-2015").unwrap();
    let c = chains(&v);
    for chain in [
        // :250-258 双龍 不計一條龍; :220 一條龍 不計老少.
        [StraightAndIdentical, PureStraight, TerminalChows],
        // :305 混么碰 不計混么; :209 混么 不計缺五.
        [TerminalHonorPungs, OutsideHand, NoFives],
        // :375-378 全字碰 不計混么碰; :305 混么碰 不計對對 (全字碰 names 對對 itself, so
        // not a chain), and 全字碰 不計么 → 混么 → 缺五.
        [AllHonors, OutsideHand, NoFives],
        // :321-324 天聽 不計門清; :178 門清一摸三.
        [HeavenlyReady, ConcealedSelfDraw, SelfDraw],
        // :300-303 地聽 likewise.
        [EarthlyReady, ConcealedSelfDraw, SelfDraw],
        // :380-383 地胡 不計天聽; 天聽 不計地聽 falls, and 地聽 counts.
        [EarthlyWin, HeavenlyReady, EarthlyReady],
    ] {
        // 地胡 names 地聽 too in the file: then it is not a chain, and that is fine.
        if !excludes(&v, chain[0], chain[2]) {
            assert!(c.contains(&chain), "taiwan16-2015 lacks {chain:?}");
        }
    }
}

#[test]
fn a_graded_pattern_ruled_out_takes_its_lower_grades() {
    for name in Variant::names() {
        let v = Variant::builtin(name).unwrap();
        for &a in &enabled(&v) {
            let rule = v.pattern(a).unwrap();
            for chain in CHAINS {
                for (i, grade) in chain.iter().enumerate() {
                    if rule.excludes & grade.bit() == 0 {
                        continue;
                    }
                    for &low in &chain[..i] {
                        // 四槓 不計四暗坎 (taiwan16-2015-table.txt:319): no 三暗坎 either.
                        let counted = counted_patterns(set(&[a, *grade, low]), &v);
                        assert_eq!(counted, a.bit(), "{name}: {a} rules out {grade} and {low}");
                    }
                }
            }
        }
    }
}

#[test]
fn exclusions_form_no_cycle() {
    for name in Variant::names() {
        let v = Variant::builtin(name).unwrap();
        let ps = enabled(&v);
        // Depth-first search for a path back to the start.
        for &start in &ps {
            let mut seen = start.bit();
            let mut stack = vec![start];
            while let Some(p) = stack.pop() {
                for &q in &ps {
                    if q != p && excludes(&v, p, q) {
                        assert_ne!(q, start, "{name}: {start} excludes itself through a cycle");
                        if seen & q.bit() == 0 {
                            seen |= q.bit();
                            stack.push(q);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn counted_patterns_keeps_what_nothing_excludes() {
    for name in Variant::names() {
        let v = Variant::builtin(name).unwrap();
        let all = set(&enabled(&v));
        let counted = counted_patterns(all, &v);
        // Everything found that no counted pattern excludes counts, and nothing counted is
        // excluded by another counted pattern.
        for &p in &enabled(&v) {
            let by_counted = enabled(&v)
                .into_iter()
                .any(|q| q != p && counted & q.bit() != 0 && excludes(&v, q, p));
            assert_eq!(counted & p.bit() != 0, !by_counted, "{name}: {p}");
        }
    }
}

/// taiwan16's self-drawn 天聽: 天聽 8 + 自摸 1 (taiwan16-common.txt:81 不計門清，其餘另計),
/// not 天聽 alone (the bug of issue 15 scored 8 for these two), and 獨聽 1 here.
#[test]
fn heavenly_ready_self_draw_keeps_self_draw() {
    use taisim_score::{Ready, WinInput};
    // taiwan16-house adds 無字無花 2 (taiwan16-common.txt:97).
    for (name, expected, extra) in [("taiwan16", 10, 0), ("taiwan16-house", 12, 2)] {
        let v = Variant::builtin(name).unwrap();
        // The dealer, ready on deal, self-draws 9s on a single wait (獨聽 1).
        let hand = parse_hand("123m 456m 789m 234p 99s 345s").unwrap();
        let mut input = WinInput::new(Wind::East, hand, parse_tile("9s").unwrap(), true);
        input.ready = Ready::OnDeal;
        let s = score(&input, &v).unwrap();
        let ids: Vec<_> = s.patterns.iter().map(|p| (p.id, p.tai)).collect();
        assert_eq!(s.total, expected, "{name}: {ids:?}");
        assert!(ids.contains(&(PatternId::DealerHeavenlyReady, 8)), "{name}");
        assert!(ids.contains(&(PatternId::SelfDraw, 1)), "{name}");
        assert!(ids.contains(&(PatternId::SingleWait, 1)), "{name}");
        for gone in [PatternId::ConcealedSelfDraw, PatternId::ConcealedHand] {
            assert!(!ids.iter().any(|(p, _)| *p == gone), "{name}: {gone}");
        }
        // Near miss: on a discard, 天聽 replaces 門清 and there is no 自摸.
        input.context.self_draw = false;
        input.discarder = Some(Wind::North);
        let s = score(&input, &v).unwrap();
        assert_eq!(s.total, 8 + 1 + extra, "{name} on a discard");
    }
}

/// taiwan16-2015 四槓 / 五槓: the gradings below the excluded 四暗坎 / 五暗坎 stay out.
#[test]
fn kongs_rule_out_every_grade_of_concealed_pungs() {
    let v = Variant::builtin("taiwan16-2015").unwrap();
    let input = |hand: &str, melds: &[&str]| {
        use taisim_score::WinInput;
        use taisim_sim::{Meld, MeldKind};
        let mut i = WinInput::new(
            Wind::South,
            parse_hand(hand).unwrap(),
            parse_tile("9s").unwrap(),
            true,
        );
        for m in melds {
            let t = parse_tile(m).unwrap();
            i.melds
                .push(Meld::new(MeldKind::ConcealedKong, t, Wind::South, 0));
        }
        i
    };
    // :319 四槓 不計四暗坎: four concealed kongs and a self-drawn single wait.
    let s = score(&input("234m 99s", &["1p", "3p", "5s", "7s"]), &v).unwrap();
    let ids: Vec<_> = s.patterns.iter().map(|p| p.id).collect();
    assert!(ids.contains(&PatternId::FourKongs), "{ids:?}");
    for gone in [
        PatternId::FourConcealedPungs,
        PatternId::ThreeConcealedPungs,
        PatternId::TwoConcealedPungs,
    ] {
        assert!(!ids.contains(&gone), "{gone} in {ids:?}");
    }
}
