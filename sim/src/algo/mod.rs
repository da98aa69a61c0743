//! Hand algorithms: win check, shanten, waits and decompositions.
//!
//! Everything here works on a [`Hand`] of concealed tiles read under [`HandRules`]: `sets`,
//! the number of sets the concealed part still has to form (5 minus the number of melds for
//! the 16-tile game, up to 4 for 13-tile variants), the special shapes enabled, and the
//! deal's wilds. Melds never enter these functions: they are already sets.
//!
//! # Wilds
//!
//! With [`HandRules::wild`] set, the hand passed in is still the physical hand: the copies of
//! the wild kind are wilds, each of the stand-in's copies is a natural copy of the wild kind's
//! face or of its own, whichever reading is best (a win if any reading wins).
//! A wild stands for any tile, in any number (a face may be read five times or more); under
//! [`Wild::needing_real_tile`] every set and the pair hold at least one natural. Special
//! shapes are not read with wilds ([`HandRules::check`] refuses the combination). Every
//! function is exact for 0 to 4 wilds; the no-wild variants keep the table-driven path, which
//! the wild path leaves untouched after one test of `rules.wild`.

mod blocks;
mod decompose;
mod discard;
mod improve;
mod rules;
mod shanten;
mod special;
mod tables;
mod wild;
mod win;

use crate::hand::Hand;
use crate::tile::{Tile, TileSet};

pub use decompose::{
    decompositions, for_each_decomposition, Decomposition, DecompositionList, Set,
    MAX_DECOMPOSITIONS,
};
pub use discard::Discards;
pub use rules::{HandRules, HandRulesError, Wild};

/// The special (non set-and-pair) winning forms a rule set enables.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(default)]
pub struct SpecialHands {
    /// 尼姑/八對 (嚦咕嚦咕): seven pairs plus one triplet, 17 concealed tiles, so only when
    /// `sets == 5`. A kind held four times counts as two pairs; the triplet is a kind held
    /// exactly three times.
    pub eight_pairs: bool,
    /// 十三么 in its 16-tile form: the 1 and 9 of each numbered suit and all 7 honors (13
    /// kinds, each at least once), one of them paired, plus one more set (chow or pung):
    /// 17 concealed tiles, so only when `sets == 5`.
    pub thirteen_orphans: bool,
}

impl SpecialHands {
    /// No special forms.
    pub const NONE: SpecialHands = SpecialHands {
        eight_pairs: false,
        thirteen_orphans: false,
    };
    /// Every special form.
    pub const ALL: SpecialHands = SpecialHands {
        eight_pairs: true,
        thirteen_orphans: true,
    };
}

#[cfg(test)]
impl SpecialHands {
    /// Every combination of the special forms, for tests that must hold under each.
    pub(crate) const EVERY: [SpecialHands; 4] = [
        SpecialHands::NONE,
        SpecialHands::ALL,
        SpecialHands {
            eight_pairs: true,
            thirteen_orphans: false,
        },
        SpecialHands {
            eight_pairs: false,
            thirteen_orphans: true,
        },
    ];
}

/// A complete hand under `rules`: `rules.sets` sets (chow or pung) plus one pair, or an
/// enabled special form; requires `hand.len() == 3 * rules.sets + 2`.
///
/// Without special forms, four loads from the win table (built on first use).
#[inline]
pub fn is_win(hand: &Hand, rules: HandRules) -> bool {
    if let Some(wild) = rules.wild {
        return wild::is_win(hand, rules, wild);
    }
    let HandRules { sets, special, .. } = rules;
    win::is_win(hand, sets)
        || (special.eight_pairs && special::is_eight_pairs(hand, sets))
        || (special.thirteen_orphans && special::is_thirteen_orphans(hand, sets))
}

/// Shanten under `rules`: the minimum number of tile exchanges to reach a complete hand
/// (regular or an enabled special form, the latter only when `sets == 5`), minus one
/// (-1 = complete, 0 = ready). Defined for `hand.len()` of `3 * sets + 1` or `3 * sets + 2`
/// with `sets <= 5`.
///
/// Exact: it is the fewest tiles that, added to the hand, give a multiset containing a
/// complete hand (each added tile costs one exchange), minus one. Without wilds the target
/// hand never needs a fifth copy of a kind; with wilds a wild held is worth whatever is best,
/// and a missing tile may arrive as a wild, so a face may be needed more than four times
/// (see the module `wild` for the reading).
pub fn shanten(hand: &Hand, rules: HandRules) -> i8 {
    if let Some(wild) = rules.wild {
        return wild::shanten(hand, rules, wild);
    }
    let HandRules { sets, special, .. } = rules;
    let mut lack = shanten::distance(hand, sets);
    if sets == 5 && (hand.len() == 16 || hand.len() == 17) {
        if special.eight_pairs && special::eight_pairs_lower_bound(hand) < lack {
            lack = lack.min(special::eight_pairs_distance(hand));
        }
        // Each orphan kind not held costs at least a tile, so a hand missing as many kinds
        // as the best form already lacks cannot do better with 十三么: skip its scan.
        if special.thirteen_orphans && special::missing_orphans(hand) < lack {
            lack = lack.min(special::thirteen_orphans_distance(hand));
        }
    }
    lack as i8 - 1
}

/// The kinds of `kinds` whose draw lowers the shanten of `hand`: those held fewer than four
/// times with `shanten(hand + t, rules) < shanten`, where `shanten` must be
/// `shanten(hand, rules)`. Summing the unseen copies of these kinds gives the hand's ukeire.
///
/// Several times cheaper than a [`shanten`] query per kind: adding a tile changes one
/// group, so the rest of the hand is looked up once, and a form (regular, 八對, 十三么) whose
/// distance is above the hand's is skipped, since one tile lowers a distance by at most one.
pub fn improving_kinds(hand: &Hand, rules: HandRules, shanten: i8, kinds: TileSet) -> TileSet {
    debug_assert_eq!(shanten, self::shanten(hand, rules));
    if let Some(wild) = rules.wild {
        return wild::improving_kinds(hand, rules, wild, shanten, kinds);
    }
    improve::improving_kinds(hand, rules.sets, rules.special, shanten, kinds)
}

/// For a hand of `3 * sets + 1` tiles: the kinds that complete it, in the regular form or an
/// enabled special form. A kind the hand already holds four of is not a wait (no fifth copy
/// exists). Empty for a hand of any other length.
///
/// Waits are physical kinds: with wilds, drawing a wild completes the hand whenever any tile
/// would (unless a set would then hold wilds only, under the real-tile rule), and drawing
/// the stand-in (白板) completes it when a natural copy of the wild kind's face or of the
/// stand-in itself would.
// Always inlined: the deal asks at every discard with rules built on the spot, so the wild
// test folds away; left to the inliner, the extra branch made it an out-of-line call
// (+3.1% instructions per taiwan16 deal under callgrind; +0.5% inlined).
#[inline(always)]
pub fn waits(hand: &Hand, rules: HandRules) -> TileSet {
    // One test of the option's tag: the variants without wilds keep the table path as it was.
    if let Some(wild) = rules.wild {
        return wild::waits(hand, rules, wild);
    }
    let HandRules { sets, special, .. } = rules;
    let out = win::waits(hand, sets);
    // The deal asks at every discard; with no special form enabled this stays a few
    // instructions in the caller.
    if (special.eight_pairs || special.thirteen_orphans) && sets == 5 && hand.len() == 16 {
        return special_waits(hand, sets, special, out);
    }
    out
}

/// `regular` plus the waits of the enabled special forms of a 16-tile hand.
#[inline(never)]
fn special_waits(hand: &Hand, sets: u8, special: SpecialHands, regular: TileSet) -> TileSet {
    let mut out = regular;
    if special.eight_pairs {
        out = TileSet(out.0 | special::eight_pairs_waits(hand).0);
    }
    if special.thirteen_orphans && special::near_thirteen_orphans(hand) {
        for t in Tile::ALL {
            if hand.count(t) < 4 && !out.contains(t) {
                let mut h = *hand;
                h.add(t);
                if special::is_thirteen_orphans(&h, sets) {
                    out.insert(t);
                }
            }
        }
    }
    out
}

/// Builds the lookup tables now rather than on first use (e.g. before timing a loop, or
/// before spawning threads that would otherwise wait on the first builder).
pub fn warm_up() {
    tables::win_table();
    tables::distance_table();
}

/// Bytes held by the lookup tables (building them if needed).
pub fn table_bytes() -> usize {
    tables::win_table().bytes() + tables::distance_table().bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_hand;

    fn h(s: &str) -> Hand {
        parse_hand(s).unwrap()
    }

    fn set(s: &str) -> TileSet {
        crate::notation::parse_tiles(s)
            .unwrap()
            .into_iter()
            .collect()
    }

    #[test]
    fn regular_wins() {
        let cases: &[(&str, u8, bool)] = &[
            ("123m456m789m123p11s", 4, true),
            ("123m456m789m123p12s", 4, false),
            ("11m", 0, true),
            ("12m", 0, false),
            ("EEE SSS WWW NNN PP", 4, true),
            ("EEE SSS WWW NNN PF", 4, false),
            // Honors never chow.
            ("ESW NNN PPP FFF CC", 4, false),
            ("123m 456p 789s EEE CC 111m", 5, true),
            ("11122233344456777m", 5, true),
            ("11112345678999m 99p", 5, false),
            ("1112345678999m 5m", 4, true),
            ("1112345678999m 5m 55s", 4, false),
            ("234m 234m 234m 234m 234m 55p", 5, false), // a fifth 2m cannot be parsed anyway
            ("22334455m 667788p 999s", 5, true),
            ("22334455m 667788p 99s 1m", 5, false),
            ("223344m 556677p 99s", 4, true),
        ];
        for &(s, sets, want) in cases {
            let Ok(hand) = parse_hand(s) else {
                continue;
            };
            assert_eq!(
                is_win(&hand, HandRules::regular(sets)),
                want,
                "{s} sets={sets}"
            );
            assert_eq!(
                is_win(&hand, HandRules::new(sets, SpecialHands::ALL)),
                want,
                "{s} (special)"
            );
        }
        // The right shape with the wrong set count is not a win.
        assert!(!is_win(&h("123m456m789m123p11s"), HandRules::regular(5)));
        assert!(!is_win(&h("123m456m789m123p11s"), HandRules::regular(3)));
    }

    #[test]
    fn shanten_of_known_hands() {
        let cases: &[(&str, u8, i8)] = &[
            ("123m456m789m123p11s", 4, -1),
            ("123m456m789m123p1s", 4, 0),
            ("123m456m789m13p19s E", 4, 1),
            ("159m159p159s EESW", 4, 7),
            ("147m258p369s ESWN", 4, 8),
            ("123m 456p 789s EEE CC 111m", 5, -1),
            ("123m 456p 789s EEE C 111m", 5, 0),
            ("123m 456p 789s EE CF 111m", 5, 1),
            ("13m 46p 79s EEE CC 111m SWN", 5, 2),
            // The fifth-copy rule: 1111m cannot use a fifth 1m for a pair.
            ("1111m 456p 789s 123s", 4, 1),
            // Four 5m held; 45m still waits on 3m/6m.
            ("1234m 5555m 789p 123s EE", 5, 0),
            // Four lone honors that could pair only with fifth copies: a new pair and a new
            // set (5 tiles) are needed.
            ("EEEE SSSS WWWW NNNN", 5, 4),
        ];
        for &(s, sets, want) in cases {
            let hand = h(s);
            assert_eq!(
                shanten(&hand, HandRules::regular(sets)),
                want,
                "{s} sets={sets}"
            );
        }
    }

    #[test]
    fn fifth_copy_is_never_needed() {
        // 2222m3m: 222m + 23m waits on 1m/4m; "22m + 223m" would need a fifth 2m.
        let hand = h("2222m 3m 567p 789s EEE 55s");
        assert_eq!(hand.len(), 16);
        assert_eq!(
            waits(&hand, HandRules::new(5, SpecialHands::NONE)),
            set("14m")
        );
        assert_eq!(shanten(&hand, HandRules::regular(5)), 0);
        // EEE + E: the lone E would pair only with a fifth E, so not ready.
        let hand = h("EEEE 567p 789s 234s 123m");
        assert_eq!(hand.len(), 16);
        assert!(waits(&hand, HandRules::new(5, SpecialHands::NONE)).is_empty());
        assert_eq!(shanten(&hand, HandRules::regular(5)), 1);
        // Same in 13 tiles; and the lone-tile wait survives beside four 1m.
        let hand = h("1111m 456p 789s 123s");
        assert!(waits(&hand, HandRules::new(4, SpecialHands::NONE)).is_empty());
        assert_eq!(shanten(&hand, HandRules::regular(4)), 1);
        let hand = h("1111m 23m 456p 789s E");
        assert_eq!(hand.len(), 13);
        assert_eq!(
            waits(&hand, HandRules::new(4, SpecialHands::NONE)),
            set("E")
        );
    }

    #[test]
    fn nine_gates_waits() {
        let hand = h("1112345678999m");
        assert_eq!(hand.len(), 13);
        assert_eq!(
            waits(&hand, HandRules::new(4, SpecialHands::NONE)),
            set("123456789m")
        );
        assert_eq!(shanten(&hand, HandRules::regular(4)), 0);
        // Holding four 1m: 1m is no longer a wait (no fifth copy exists)… but 11112345678999m
        // is 14 tiles; take a 9 out and the 1m wait disappears because 1m is exhausted.
        let hand = h("1111234567899m");
        let w = waits(&hand, HandRules::new(4, SpecialHands::NONE));
        assert!(!w.contains(Tile::new(0)));
        assert!(w.contains(Tile::new(8)));
        // Length mismatch: no waits.
        assert!(waits(
            &h("1112345678999m1p"),
            HandRules::new(4, SpecialHands::NONE)
        )
        .is_empty());
    }

    #[test]
    fn eight_pairs() {
        let on = SpecialHands {
            eight_pairs: true,
            thirteen_orphans: false,
        };
        let hand = h("11m 22m 55p 77p 99s EE CC FFF");
        assert!(!is_win(&hand, HandRules::regular(5)));
        assert!(is_win(&hand, HandRules::new(5, on)));
        assert!(!is_win(&hand, HandRules::new(5, SpecialHands::NONE)));
        assert!(!is_win(&hand, HandRules::new(4, on)));
        assert_eq!(shanten(&hand, HandRules::new(5, on)), -1);
        // Four of a kind counts as two pairs.
        let hand = h("1111m 55p 77p 99s EE CC FFF");
        assert!(is_win(&hand, HandRules::new(5, on)));
        // Near misses: two triplets, or a lone tile.
        assert!(!is_win(
            &h("111m 22m 55p 77p 99s EE CCC F"),
            HandRules::new(5, on)
        ));
        assert!(!is_win(
            &h("11m 22m 55p 77p 99s EE CC FF S"),
            HandRules::new(5, on)
        ));
        // Waits: eight pairs wait on any of them for the triplet; six pairs and a triplet
        // wait on the lone tile. Two lone tiles are not ready.
        let hand = h("11m 22m 55p 77p 99s EE CC FF");
        assert_eq!(hand.len(), 16);
        assert_eq!(waits(&hand, HandRules::new(5, on)), set("12m57p9sECF"));
        assert_eq!(shanten(&hand, HandRules::new(5, on)), 0);
        assert!(shanten(&hand, HandRules::regular(5)) > 0);
        let hand = h("11m 22m 55p 77p 99s EE CCC F");
        assert_eq!(waits(&hand, HandRules::new(5, on)), set("F"));
        let hand = h("11m 22m 55p 77p 99s EE CC F W");
        assert!(waits(&hand, HandRules::new(5, on)).is_empty());
        assert_eq!(shanten(&hand, HandRules::new(5, on)), 1);
        let hand = h("11m 22m 55p 77p 99s EE CC FFF");
        let mut hand16 = hand;
        hand16.remove(Tile::new(0));
        // 1m22m55p77p99sEECCFFF: the lone 1m wants a partner.
        assert!(waits(&hand16, HandRules::new(5, on)).contains(Tile::new(0)));
        // Regular shanten ignores the form; the special one sees it.
        let hand = h("13m 22m 55p 77p 99s EE CC FF");
        assert_eq!(shanten(&hand, HandRules::new(5, on)), 1);
    }

    #[test]
    fn thirteen_orphans() {
        let on = SpecialHands {
            eight_pairs: false,
            thirteen_orphans: true,
        };
        let hand = h("19m 19p 19s ESWNPFC E 234p");
        assert_eq!(hand.len(), 17);
        assert!(is_win(&hand, HandRules::new(5, on)));
        assert!(!is_win(&hand, HandRules::new(5, SpecialHands::NONE)));
        assert_eq!(shanten(&hand, HandRules::new(5, on)), -1);
        // The extra set may use orphans: 111m as the set plus 1m of the thirteen.
        let hand = h("1111m 9m 19p 19s ESWNPFC 9s");
        assert!(is_win(&hand, HandRules::new(5, on)));
        let hand = h("1123m 9m 19p 19s ESWNPFC C");
        assert!(is_win(&hand, HandRules::new(5, on)));
        // Near misses: no pair (a second extra set instead), a missing orphan.
        assert!(!is_win(
            &h("19m 19p 19s ESWNPFC 234p 5p"),
            HandRules::new(5, on)
        ));
        assert!(!is_win(
            &h("19m 19p 19s ESWNPF EE 234p"),
            HandRules::new(5, on)
        ));
        assert!(!is_win(
            &h("19m 19p 19s ESWNPFC E 24p 6p"),
            HandRules::new(5, on)
        ));
        // Ready: 13 kinds, a pair, a chow waiting on a side.
        let hand = h("19m 19p 19s ESWNPFC E 23p");
        assert_eq!(waits(&hand, HandRules::new(5, on)), set("14p"));
        assert_eq!(shanten(&hand, HandRules::new(5, on)), 0);
        // Ready on any of the 13 kinds ... no: the pair is made, the set is made, one orphan
        // is missing: the only wait is that orphan.
        let hand = h("19m 19p 19s ESWNPF E 234p");
        assert_eq!(waits(&hand, HandRules::new(5, on)), set("C"));
        // 13 singles and a complete set: waits on any of the 13 to pair.
        let hand = h("19m 19p 19s ESWNPFC 567s");
        assert_eq!(hand.len(), 16);
        assert_eq!(waits(&hand, HandRules::new(5, on)), set("19m19p19sESWNPFC"));
        assert_eq!(shanten(&hand, HandRules::new(5, SpecialHands::ALL)), 0);
        assert!(shanten(&hand, HandRules::regular(5)) >= 4);
    }

    #[test]
    fn decompositions_of_ambiguous_hands() {
        let mut out = DecompositionList::new();
        // 111222333m: three pungs or three chows.
        decompositions(&h("111222333m 456p 77s"), HandRules::regular(4), &mut out);
        assert_eq!(out.len(), 2);
        for d in &out {
            assert_eq!(d.pair, Tile::new(18 + 6));
            let mut sorted = d.sets.clone();
            sorted.sort();
            assert_eq!(sorted, d.sets);
        }
        assert_ne!(out[0], out[1]);
        // The worst hand of MAX_DECOMPOSITIONS.
        decompositions(&h("11122233344456777m"), HandRules::regular(5), &mut out);
        assert_eq!(out.len(), MAX_DECOMPOSITIONS);
        let pairs: TileSet = out.iter().map(|d| d.pair).collect();
        assert_eq!(pairs, set("147m"));
        // Not a win: empty, and cleared first.
        decompositions(&h("11122233344456778m"), HandRules::regular(5), &mut out);
        assert!(out.is_empty());
        // Honors: one way.
        decompositions(
            &h("EEE SSS WWW NNN CC 111m"),
            HandRules::regular(5),
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].pair, Tile::RED);
        assert_eq!(
            out[0].sets.as_slice(),
            &[
                Set::Pung(Tile::new(0)),
                Set::Pung(Tile::EAST),
                Set::Pung(Tile::SOUTH),
                Set::Pung(Tile::WEST),
                Set::Pung(Tile::NORTH)
            ]
        );
        // Pair-only hand with no sets.
        decompositions(&h("55s"), HandRules::regular(0), &mut out);
        assert_eq!(out.len(), 1);
        assert!(out[0].sets.is_empty());
    }

    /// `improving_kinds` against a `shanten_with` query per kind, on random hands of every
    /// waiting size with every combination of special forms.
    #[test]
    fn improving_kinds_match_shanten_queries() {
        let mut rng = crate::rng_from_seed(11);
        let all: TileSet = Tile::ALL.into_iter().collect();
        let mut checked = 0;
        for round in 0..20_000u32 {
            let sets = [5, 5, 5, 4, 3, 2, 1, 0][round as usize % 8];
            let len = 3 * sets as usize + 1 + (round as usize / 8) % 2;
            // Skewed draws (some rounds from orphans or few kinds) so that the special
            // forms are often close.
            let pool: &[u8] = match round % 5 {
                0 => &[0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 1, 2, 3],
                1 => &[0, 1, 2, 3, 4, 5, 6, 7, 27, 28],
                _ => &[],
            };
            let mut hand = Hand::EMPTY;
            while hand.len() < len {
                let t = if pool.is_empty() {
                    Tile::new(crate::bounded(&mut rng, 34) as u8)
                } else {
                    Tile::new(pool[crate::bounded(&mut rng, pool.len() as u32) as usize])
                };
                if hand.count(t) < 4 {
                    hand.add(t);
                }
            }
            for special in SpecialHands::EVERY {
                let sh = shanten(&hand, HandRules::new(sets, special));
                let mut want = TileSet::EMPTY;
                for t in Tile::ALL {
                    if hand.count(t) < 4 {
                        let mut h = hand;
                        h.add(t);
                        if shanten(&h, HandRules::new(sets, special)) < sh {
                            want.insert(t);
                        }
                    }
                }
                let got = improving_kinds(&hand, HandRules::new(sets, special), sh, all);
                assert_eq!(got, want, "{hand:?} sets={sets} {special:?}");
                checked += usize::from(!want.is_empty());
            }
        }
        assert!(checked > 40_000, "{checked}");
    }

    #[test]
    fn tables_are_small() {
        let (suits, honors, convolved) = tables::distance_table().palette_sizes();
        assert_eq!((suits, honors), (187, 83));
        assert!(convolved < 1 << 16);
        assert!(table_bytes() < 3_000_000);
    }
}
