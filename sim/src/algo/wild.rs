//! The hand algorithms with wilds: exact for any number of wilds held (0 to 4), with or
//! without the rule that every set and the pair hold a tile that is not wild.
//!
//! # What a hand with wilds means
//!
//! The hand is split into its *naturals* (tiles counted by the face they show) and its
//! *wilds*. Each stand-in (白板) is a natural of either of two faces, the wild kind's or its
//! own (taizhou.md 白板: "可以作为自身，也可以做为当前的得牌"); the stand-ins are identical, so a
//! hand holding `b` of them has `b + 1` *splits* (how many are read as the wild kind's face).
//!
//! # Why the win check, shanten and waits read one split
//!
//! The wild kind's own copies are wilds, so the naturals of its face are stand-ins only, as
//! are the naturals of the stand-in's face. A set or pair holding a stand-in read as itself
//! (an honor: a pung or the pair, with wilds or other stand-ins) is also a set or pair with
//! that stand-in read as the wild kind's face, whose face may moreover chow; the faces of a
//! target may repeat. So any target a split reaches, the split reading every stand-in as the
//! wild kind's face reaches too, filled by as many naturals and with a natural in the same
//! sets: its distance is the least of all splits. [`is_win`], [`shanten`], [`waits`] and the
//! improving kinds read that split alone (`tests/algo_wild.rs` checks them against naive
//! solvers that try every split); [`for_each_decomposition`] lists the readings of every
//! split, which score differently (白板 as itself is a dragon for 中发白对, 字牌刻, 混一色). A *target* is `sets` sets and a pair of
//! faces; a wild fills any slot of it. Without wilds a target never holds a fifth copy of a
//! kind; with them, any missing tile may arrive as a wild, so a face may appear five or more
//! times in a target (the number of wilds left in the wall is not counted against it), and a
//! wild may be read as a fifth copy of a face.
//!
//! # Why blocks rather than the tables
//!
//! The tables of [`super::tables`] hold, per suit key, the fewest tiles missing for each
//! count of sets and pairs, but under "a real tile in every set" the cost also depends on
//! how many sets have no natural at all (a wild may not fill those alone), and a face may
//! exceed four copies. So the wild path splits each group's naturals into *blocks*: non-empty
//! parts of one set or of the pair (`111`, `11`, `1`, `123`, `12`, `13` for sets; `11`, `1`
//! for the pair). A group's blocks never share tiles with another group's, so the best
//! missing-tile count per number of set blocks and pair blocks is found group by group (read
//! from the table of [`super::blocks`], built once from every group key; a direct search
//! checks it in the tests) and combined by min-plus over the four groups.
//! The sets and pair with no block are *empty*. With `missing` slots to fill and `empty`
//! empty sets and pair, `wilds` wilds fill all but `missing - wilds` slots, and under the
//! real-tile rule an empty one must take at least one natural, so it costs
//! `max(missing - wilds, empty)` exchanges, else `max(missing - wilds, 0)`.
//!
//! The no-wild path (tables) stays untouched; callers branch here only when the rules
//! name a wild kind.

use arrayvec::ArrayVec;

use super::blocks::blocks_table;
use super::decompose::{Decomposition, Set};
use super::discard::for_kinds;
use super::tables::{convolve, distance_table, Dist, FAR};
use super::{HandRules, Wild};
use crate::hand::{Hand, POW5};
use crate::tile::{Tile, TileSet};

/// Per count of non-empty set blocks and pair blocks: the fewest slots those blocks leave
/// unfilled by naturals, in the lanes of the distance table (`s` set blocks at lane `s`, with
/// the pair block at `8 + s`; [`FAR`] where no choice of blocks gives the count). Per group
/// they come from [`blocks_table`]; groups combine by [`combine`], the min-plus product.
type Blocks = Dist;

/// The first kind of each group and its number of kinds.
#[cfg(test)]
const GROUPS: [(usize, usize); 4] = [(0, 9), (9, 9), (18, 9), (27, 7)];

/// A hand's naturals by face and its wilds.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Naturals {
    pub(crate) faces: [u8; Tile::NUM],
    pub(crate) wilds: u8,
}

impl Naturals {
    /// Reads the physical `hand` under `wild`, `as_face` of its stand-ins read as the wild
    /// kind's face and the others as themselves.
    pub(crate) fn of(hand: &Hand, wild: Wild, as_face: u8) -> Naturals {
        let mut faces = hand.counts();
        let w = wild.kind().index();
        let wilds = faces[w];
        faces[w] = 0;
        if let Some(s) = wild.stand_in() {
            debug_assert!(as_face <= faces[s.index()]);
            faces[w] = as_face;
            faces[s.index()] -= as_face;
        }
        Naturals { faces, wilds }
    }
}

/// How many stand-ins (白板) the physical `hand` holds: the hand has one split more.
#[inline]
fn stand_ins(hand: &Hand, wild: Wild) -> u8 {
    wild.stand_in().map_or(0, |s| hand.count(s))
}

/// The base-5 group keys of the physical `hand`'s naturals in the split that reads every
/// stand-in as the wild kind's face (the least distance of all, see the module) and its
/// wilds: the hand's own keys with the wilds taken out and the stand-ins moved to the wild
/// kind's face, a few arithmetic steps instead of a pass over the counts.
#[inline]
fn natural_keys(hand: &Hand, wild: Wild) -> ([u32; 4], u8) {
    let mut keys = hand.keys();
    let w = wild.kind().index();
    let wilds = hand.count(wild.kind());
    keys[w / 9] -= u32::from(wilds) * POW5[w % 9];
    if let Some(s) = wild.stand_in() {
        let (i, n) = (s.index(), u32::from(hand.count(s)));
        keys[i / 9] -= n * POW5[i % 9];
        keys[w / 9] += n * POW5[w % 9];
    }
    (keys, wilds)
}

/// The face a physical tile shows as a natural in the split of the least distance (a
/// stand-in the wild kind's), or `None` for a wild.
fn face(t: Tile, wild: Wild) -> Option<usize> {
    if t == wild.kind() {
        None
    } else if Some(t) == wild.stand_in() {
        Some(wild.kind().index())
    } else {
        Some(t.index())
    }
}

/// The best [`Blocks`] of one group's naturals `c` (ranks of the group; chows only in a
/// numbered suit), by a direct search: what [`blocks_table`] tabulates, kept to check it.
/// Blocks are chosen at the lowest rank left, in a fixed order of shapes that never
/// decreases at one rank, so each multiset of blocks is met once.
#[cfg(test)]
fn group_blocks(c: &[u8], chows: bool) -> Blocks {
    let mut counts = [0u8; 9];
    counts[..c.len()].copy_from_slice(c);
    let mut best = [FAR; 16];
    search(&mut counts, c.len(), chows, 0, 0, 0, 0, 0, &mut best);
    best
}

/// The block shapes with their lowest tile at rank `i`: (pair block?, tiles taken at `i`,
/// `i + 1`, `i + 2`, slots left unfilled).
#[cfg(test)]
const SHAPES: [(bool, [u8; 3], u8); 8] = [
    (true, [2, 0, 0], 0),
    (true, [1, 0, 0], 1),
    (false, [3, 0, 0], 0),
    (false, [2, 0, 0], 1),
    (false, [1, 0, 0], 2),
    (false, [1, 1, 1], 0),
    (false, [1, 1, 0], 1),
    (false, [1, 0, 1], 1),
];

#[cfg(test)]
#[allow(clippy::too_many_arguments)]
fn search(
    c: &mut [u8; 9],
    len: usize,
    chows: bool,
    i: usize,
    shape: usize,
    sets: usize,
    pair: usize,
    missing: u8,
    best: &mut Blocks,
) {
    // The tiles not yet in a block are left out of the target.
    let slot = &mut best[8 * pair + sets];
    *slot = (*slot).min(missing);
    let mut i = i;
    let mut shape = shape;
    while i < len && c[i] == 0 {
        i += 1;
        shape = 0;
    }
    if i == len {
        return;
    }
    for (s, &(is_pair, take, lacks)) in SHAPES.iter().enumerate().skip(shape) {
        if (is_pair && pair == 1) || (!is_pair && sets == 5) {
            continue;
        }
        // Chow blocks (`123`, `12`, `13`) only in a numbered suit, inside it.
        if take[1] + take[2] > 0 && !chows {
            continue;
        }
        if (0..3).any(|k| take[k] > 0 && (i + k >= len || c[i + k] < take[k])) {
            continue;
        }
        for (k, &n) in take.iter().enumerate() {
            if n > 0 {
                c[i + k] -= n;
            }
        }
        let (sets2, pair2) = if is_pair { (sets, 1) } else { (sets + 1, pair) };
        search(c, len, chows, i, s, sets2, pair2, missing + lacks, best);
        for (k, &n) in take.iter().enumerate() {
            if n > 0 {
                c[i + k] += n;
            }
        }
    }
    // Leave the rest of rank `i` out and go on.
    let held = c[i];
    c[i] = 0;
    search(c, len, chows, i + 1, 0, sets, pair, missing, best);
    c[i] = held;
}

/// The exchanges a hand of `blocks` (all groups combined) and `wilds` wilds needs for
/// `sets` sets (at most 5) and a pair.
#[inline]
fn lack_of(blocks: &Blocks, wilds: u8, sets: usize, needs_real: bool) -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { simd::lack_of(blocks, wilds, sets, needs_real) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        lack_of_scalar(blocks, wilds, sets, needs_real)
    }
}

/// [`lack_of`] lane by lane: the portable form, and what the vector form is tested against.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn lack_of_scalar(blocks: &Blocks, wilds: u8, sets: usize, needs_real: bool) -> u8 {
    let mut least = u8::MAX;
    for a in 0..=sets {
        for p in 0..2 {
            let m = blocks[8 * p + a];
            if m >= FAR {
                continue;
            }
            let empty = (sets - a + 1 - p) as u8;
            let missing = m + 3 * (sets - a) as u8 + 2 * (1 - p) as u8;
            let fill = missing.saturating_sub(wilds);
            let cost = if needs_real { fill.max(empty) } else { fill };
            least = least.min(cost);
        }
    }
    least
}

/// Min-plus product of two [`Blocks`] (the blocks of two groups together): lane `m` is the
/// best of `a[i] + b[m - i]`, a pair lane the same with the pair on either side; more than
/// five sets are dropped and a lane stays at most [`FAR`].
#[inline]
fn combine(a: &Blocks, b: &Blocks) -> Blocks {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { simd::combine(a, b) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        combine_scalar(a, b)
    }
}

/// [`combine`] lane by lane: the portable form, and what the vector form is tested against.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn combine_scalar(a: &Blocks, b: &Blocks) -> Blocks {
    convolve(a, b)
}

/// One side of [`combine`] made ready to meet many others: a group's or a hand's blocks
/// that a scan combines with each one-tile change of another group.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Side {
    #[cfg(target_arch = "x86_64")]
    lanes: simd::Spread,
    #[cfg(not(target_arch = "x86_64"))]
    blocks: Blocks,
}

impl Side {
    #[inline]
    fn new(a: &Blocks) -> Side {
        Side {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            #[cfg(target_arch = "x86_64")]
            lanes: unsafe { simd::spread(a) },
            #[cfg(not(target_arch = "x86_64"))]
            blocks: *a,
        }
    }

    /// `combine(a, b)` for this side's `a`.
    #[inline]
    fn with(&self, b: &Blocks) -> Blocks {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { simd::combine_spread(&self.lanes, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            combine_scalar(&self.blocks, b)
        }
    }
}

/// The vector forms of [`combine`] and [`lack_of`], on SSE2 (always there on x86_64): a
/// waits query combines and reads up to 34 hands a tile apart, and lane by lane each took a
/// few hundred instructions.
#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::*;

    use super::{Blocks, FAR};

    /// Per shift `i`: [`FAR`] in the lanes `b` moved up `i` lanes must not bring in (the
    /// ones shifted in at the bottom, those past five sets, and the unused lanes), else 0.
    const SETS: [[u8; 16]; 6] = masks(false);
    /// The same for `b`'s no-pair lanes moved up into the pair lanes (`8 + i`).
    const PAIRS: [[u8; 16]; 6] = masks(true);

    const fn masks(pair: bool) -> [[u8; 16]; 6] {
        let mut out = [[0u8; 16]; 6];
        let mut i = 0;
        while i < 6 {
            let mut lane = 0;
            while lane < 16 {
                let kept = if pair {
                    lane >= 8 + i && lane < 14
                } else {
                    (lane >= i && lane < 6) || (lane >= 8 + i && lane < 14)
                };
                if !kept {
                    out[i][lane] = FAR;
                }
                lane += 1;
            }
            i += 1;
        }
        out
    }

    /// Per number of sets asked for (0 to 5), per lane: the slots the empty sets and pair add
    /// (`FILL`), how many are empty (`EMPTY`), and 0xFF in the lanes of more set blocks than
    /// that and the unused ones (`OVER`).
    const FILL: [[u8; 16]; 6] = per_sets(0);
    const EMPTY: [[u8; 16]; 6] = per_sets(1);
    const OVER: [[u8; 16]; 6] = per_sets(2);

    const fn per_sets(what: u8) -> [[u8; 16]; 6] {
        let mut out = [[0u8; 16]; 6];
        let mut sets = 0;
        while sets < 6 {
            let mut lane = 0;
            while lane < 16 {
                let (p, a) = (lane / 8, lane % 8);
                out[sets][lane] = if a > sets {
                    if what == 2 {
                        0xFF
                    } else {
                        0
                    }
                } else {
                    match what {
                        0 => (3 * (sets - a) + 2 * (1 - p)) as u8,
                        1 => (sets - a + 1 - p) as u8,
                        _ => 0,
                    }
                };
                lane += 1;
            }
            sets += 1;
        }
        out
    }

    #[inline(always)]
    unsafe fn load(lanes: &[u8; 16]) -> __m128i {
        _mm_loadu_si128(lanes.as_ptr().cast())
    }

    /// `a`'s lanes of [`combine`]'s sums, each broadcast: where one side meets many others,
    /// made once (SSE2 has no byte shuffle, so a broadcast takes a few instructions, and
    /// twelve of them were half of a combination). Lane `i` below five sets at `2 * i`, its
    /// pair lane `8 + i` at `2 * i + 1`.
    #[derive(Copy, Clone, Debug)]
    pub(super) struct Spread([__m128i; 12]);

    #[inline]
    pub(super) unsafe fn spread(a: &Blocks) -> Spread {
        Spread([0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13].map(|i| _mm_set1_epi8(a[i] as i8)))
    }

    /// The body of [`combine`]: `b` (a [`Blocks`]) combined with the side whose lane `i`,
    /// broadcast, `$lane(i)` gives (written out, so that a one-off combination broadcasts
    /// each lane where it is used rather than building a [`Spread`] first).
    macro_rules! min_plus {
        ($b:expr, $lane:expr) => {{
            let bv = load($b);
            let mut r = _mm_set1_epi8(FAR as i8);
            macro_rules! step {
                ($i:literal, $j:literal) => {
                    let moved = _mm_max_epu8(_mm_slli_si128::<$i>(bv), load(&SETS[$i]));
                    r = _mm_min_epu8(r, _mm_adds_epu8(moved, $lane($i)));
                    let moved = _mm_max_epu8(_mm_slli_si128::<$j>(bv), load(&PAIRS[$i]));
                    r = _mm_min_epu8(r, _mm_adds_epu8(moved, $lane($j)));
                };
            }
            step!(0, 8);
            step!(1, 9);
            step!(2, 10);
            step!(3, 11);
            step!(4, 12);
            step!(5, 13);
            let mut out = [0u8; 16];
            _mm_storeu_si128(out.as_mut_ptr().cast(), r);
            out
        }};
    }

    /// See [`super::combine`]: for each lane `i` of `a`, `b` moved up `i` lanes (and, for
    /// `a`'s pair lanes, `b`'s no-pair lanes moved into the pair lanes) plus `a[i]`.
    #[inline]
    pub(super) unsafe fn combine(a: &Blocks, b: &Blocks) -> Blocks {
        min_plus!(b, |i: usize| _mm_set1_epi8(a[i] as i8))
    }

    /// [`combine`] with `a` spread.
    #[inline]
    pub(super) unsafe fn combine_spread(a: &Spread, b: &Blocks) -> Blocks {
        min_plus!(b, |i: usize| a.0
            [if i < 8 { 2 * i } else { 2 * (i - 8) + 1 }])
    }

    /// See [`super::lack_of`]: every lane's cost at once, then their minimum.
    #[inline]
    pub(super) unsafe fn lack_of(blocks: &Blocks, wilds: u8, sets: usize, needs_real: bool) -> u8 {
        let v = load(blocks);
        let far = _mm_set1_epi8(FAR as i8);
        // Lanes no choice of blocks reaches, or of more set blocks than asked: never chosen.
        let unreached = _mm_cmpeq_epi8(_mm_max_epu8(v, far), v);
        let unused = _mm_or_si128(unreached, load(&OVER[sets]));
        let missing = _mm_adds_epu8(v, load(&FILL[sets]));
        let mut cost = _mm_subs_epu8(missing, _mm_set1_epi8(wilds as i8));
        if needs_real {
            cost = _mm_max_epu8(cost, load(&EMPTY[sets]));
        }
        cost = _mm_or_si128(cost, unused);
        cost = _mm_min_epu8(cost, _mm_srli_si128::<8>(cost));
        cost = _mm_min_epu8(cost, _mm_srli_si128::<4>(cost));
        cost = _mm_min_epu8(cost, _mm_srli_si128::<2>(cost));
        cost = _mm_min_epu8(cost, _mm_srli_si128::<1>(cost));
        _mm_cvtsi128_si32(cost) as u8
    }
}

/// A hand under wild rules, each group's blocks read once, so that the hand with one tile
/// more or less costs one group's lookup and one combination.
#[derive(Clone, Debug)]
pub(crate) struct Scan {
    /// The naturals' group keys.
    keys: [u32; 4],
    wilds: u8,
    /// Per group: the other three groups combined.
    others: [Side; 4],
    /// All four groups combined.
    all: Blocks,
    wild: Wild,
    sets: usize,
}

impl Scan {
    pub(crate) fn new(hand: &Hand, rules: HandRules, wild: Wild) -> Scan {
        let (keys, wilds) = natural_keys(hand, wild);
        let table = blocks_table();
        let [a, b, c, d] = [0, 1, 2, 3].map(|g| table.blocks(g, keys[g]));
        let (ab, cd) = (combine(a, b), combine(c, d));
        let others = [
            combine(b, &cd),
            combine(a, &cd),
            combine(&ab, d),
            combine(&ab, c),
        ]
        .map(|o| Side::new(&o));
        Scan {
            keys,
            wilds,
            others,
            all: combine(&ab, &cd),
            wild,
            sets: rules.sets.min(5) as usize,
        }
    }

    fn lack_of(&self, all: &Blocks, wilds: u8) -> u8 {
        lack_of(all, wilds, self.sets, self.wild.needs_real())
    }

    /// Exchanges to a complete hand once physical tile `t` is added (`delta = 1`) or taken
    /// away (`delta = -1`). The hand must hold fewer than four of `t` to add one, and one to
    /// take one away.
    pub(crate) fn lack_changed(&self, t: Tile, delta: i8) -> u8 {
        match face(t, self.wild) {
            None => self.lack_of(&self.all, self.wilds.wrapping_add_signed(delta)),
            Some(f) => {
                let g = f / 9;
                let key = self.keys[g].wrapping_add_signed(i32::from(delta) * POW5[f % 9] as i32);
                let changed = blocks_table().blocks(g, key);
                self.lack_of(&self.others[g].with(changed), self.wilds)
            }
        }
    }

    /// For each kind `d` of `discards` held by `hand` (the hand scanned), at index `d`: the
    /// kinds of `asked` whose draw takes the hand less one `d` below `lacks[d]`, that hand's
    /// lack: [`improving_kinds`] of every hand one discard leaves, from one scan.
    ///
    /// A query per discard scans the hand it leaves and tries all 34 draws on it. Here the
    /// hand less `d` plus `t` holds no more than the hand plus `t`, so it lacks no fewer
    /// tiles: a draw whose lack on the whole hand is not below a discard's lack cannot lower
    /// it, and the whole hand's draws (one combination each) are shared by every discard.
    /// Of the draws left, one from another group than the discard's changes two groups:
    /// the other two groups' combination is kept per pair of groups, and the discard's group
    /// combined with it once per discard and group, so that each draw tried costs one
    /// combination, as on the hand less the discard. (`combine` is associative and
    /// commutative: a min-plus product of polynomials truncated at five sets and one pair, the
    /// lanes capped at [`FAR`], so any order gives the same lanes.)
    pub(crate) fn improving_after_discards(
        &self,
        hand: &Hand,
        discards: u64,
        asked: u64,
        lacks: &[u8; Tile::NUM],
    ) -> [TileSet; Tile::NUM] {
        let mut out = [TileSet::EMPTY; Tile::NUM];
        let discards = TileSet(discards & hand.kinds().0);
        let most = discards.iter().map(|d| lacks[d.index()]).max().unwrap_or(0);
        if most == 0 {
            return out;
        }
        let table = blocks_table();
        let whole = self.lack_of(&self.all, self.wilds);
        // Per draw asked and held fewer than four times: the hand plus it, combined, and its
        // face's place value; by its face's group, and by its lack on the whole hand, the
        // draws (a lack is at most 3 × 5 + 2).
        let mut plus = [[0u8; 16]; Tile::NUM];
        let mut place = [0u32; Tile::NUM];
        let mut in_group = [0u64; 4];
        let mut at_lack = [0u64; 18];
        for t in TileSet(asked & !hand.fours().0) {
            let i = t.index();
            let up = match face(t, self.wild) {
                None => self.lack_of(&self.all, self.wilds + 1),
                Some(f) => {
                    let g = f / 9;
                    place[i] = POW5[f % 9];
                    in_group[g] |= 1 << i;
                    plus[i] = self.others[g].with(table.blocks(g, self.keys[g] + place[i]));
                    self.lack_of(&plus[i], self.wilds)
                }
            };
            at_lack[usize::from(up).min(17)] |= 1 << i;
        }
        // The draws whose lack on the whole hand is below each lack.
        let mut below = [0u64; 19];
        for l in 0..18 {
            below[l + 1] = below[l] | at_lack[l];
        }
        let [man, pin, sou, honors] = [0, 1, 2, 3].map(|g| table.blocks(g, self.keys[g]));
        // By the pair of groups a discard and a draw change: the other two combined (each
        // written out: the compiler then shares the broadcasts of a side met twice).
        let mut rest = [[[0u8; 16]; 4]; 4];
        for (i, j, pair) in [
            (0, 1, combine(sou, honors)),
            (0, 2, combine(pin, honors)),
            (0, 3, combine(pin, sou)),
            (1, 2, combine(man, honors)),
            (1, 3, combine(man, sou)),
            (2, 3, combine(man, pin)),
        ] {
            rest[i][j] = pair;
            rest[j][i] = pair;
        }
        // Per discard of a face: its group, the blocks it leaves the group, its lack, and the
        // draws from elsewhere that lower it (below). One per discard at most.
        let mut elsewhere: ArrayVec<(usize, &Blocks, u8, u64), { Tile::NUM }> = ArrayVec::new();
        for d in discards {
            let lack = lacks[d.index()];
            if lack == 0 {
                continue;
            }
            let mut bits = 0u64;
            // Drawn back, the discard gives the hand as held.
            if asked >> d.index() & 1 == 1 && whole < lack {
                bits |= 1 << d.index();
            }
            let draws = below[usize::from(lack).min(18)] & !(1 << d.index());
            let Some(fd) = face(d, self.wild) else {
                // A wild let go: the draws (none of them the wild kind) keep the groups of
                // the hand plus them, one wild fewer.
                for_kinds(draws, |t| {
                    bits |= u64::from(self.lack_of(&plus[t], self.wilds - 1) < lack) << t;
                });
                out[d.index()] = TileSet(bits);
                continue;
            };
            let gd = fd / 9;
            let key = self.keys[gd] - POW5[fd % 9];
            let minus = table.blocks(gd, key);
            // The draws of `d`'s own group change the group it left.
            for_kinds(draws & in_group[gd], |t| {
                let changed = table.blocks(gd, key + place[t]);
                bits |=
                    u64::from(self.lack_of(&self.others[gd].with(changed), self.wilds) < lack) << t;
            });
            // The others see `d` only through the blocks it leaves its group (the table's
            // arrays are shared, so equal blocks are one array): discards of a group leaving
            // equal blocks at equal lacks share these bits, as lone tiles of a suit often do.
            let shared = elsewhere
                .iter()
                .find(|e| e.0 == gd && core::ptr::eq(e.1, minus) && e.2 == lack);
            let outside = match shared {
                Some(e) => e.3,
                None => {
                    let mut outside = 0u64;
                    // A wild drawn: the hand less `d`, one wild more.
                    let wild = 1u64 << self.wild.kind().index();
                    if draws & wild != 0 {
                        let left = self.others[gd].with(minus);
                        if self.lack_of(&left, self.wilds + 1) < lack {
                            outside |= wild;
                        }
                    }
                    // A draw of another group: the hand less `d` without that group, met
                    // by each of its draws.
                    for gt in (0..4).filter(|&g| g != gd) {
                        let drawn = draws & in_group[gt];
                        if drawn == 0 {
                            continue;
                        }
                        let side = Side::new(&combine(minus, &rest[gd][gt]));
                        for_kinds(drawn, |t| {
                            let changed = table.blocks(gt, self.keys[gt] + place[t]);
                            outside |=
                                u64::from(self.lack_of(&side.with(changed), self.wilds) < lack)
                                    << t;
                        });
                    }
                    elsewhere.push((gd, minus, lack, outside));
                    outside
                }
            };
            out[d.index()] = TileSet(bits | outside);
        }
        out
    }

    /// The physical kinds `t`, held fewer than four times in `hand` (the hand scanned), with
    /// `lack_changed(t, 1) == 0`: [`waits`]' loop, walked by face so that each group's
    /// combination with the others and the table stay at hand (a waiting hand asks 34 times).
    fn completing(&self, hand: &Hand) -> TileSet {
        let table = blocks_table();
        let w = self.wild.kind();
        let mut out = TileSet::EMPTY;
        if hand.count(w) < 4 && self.lack_of(&self.all, self.wilds + 1) == 0 {
            out.insert(w);
        }
        for (g, others) in self.others.iter().enumerate() {
            for (r, &place) in POW5.iter().enumerate().take(if g == 3 { 7 } else { 9 }) {
                let f = Tile::ALL[9 * g + r];
                // The physical tile showing face `f`: the stand-in shows the wild kind's
                // face, the wild kind shows none, and without a stand-in nothing does.
                let t = if f == w {
                    match self.wild.stand_in() {
                        Some(s) => s,
                        None => continue,
                    }
                } else if Some(f) == self.wild.stand_in() {
                    continue;
                } else {
                    f
                };
                if hand.count(t) < 4 {
                    let changed = table.blocks(g, self.keys[g] + place);
                    if self.lack_of(&others.with(changed), self.wilds) == 0 {
                        out.insert(t);
                    }
                }
            }
        }
        out
    }
}

/// See [`super::is_win`].
pub(crate) fn is_win(hand: &Hand, rules: HandRules, wild: Wild) -> bool {
    if hand.len() != 3 * rules.sets as usize + 2 {
        return false;
    }
    let (keys, wilds) = natural_keys(hand, wild);
    lack(keys, wilds, rules, wild) == 0
}

/// See [`super::shanten`].
pub(crate) fn shanten(hand: &Hand, rules: HandRules, wild: Wild) -> i8 {
    let (keys, wilds) = natural_keys(hand, wild);
    lack(keys, wilds, rules, wild) as i8 - 1
}

/// [`Scan::lack`] of naturals with group `keys` and `wilds` wilds, without the per-group
/// combinations a scan keeps for its one-tile changes: three combinations instead of seven.
#[inline]
fn lack(keys: [u32; 4], wilds: u8, rules: HandRules, wild: Wild) -> u8 {
    let table = blocks_table();
    let [a, b, c, d] = [0, 1, 2, 3].map(|g| table.blocks(g, keys[g]));
    let all = combine(&combine(a, b), &combine(c, d));
    lack_of(&all, wilds, rules.sets.min(5) as usize, wild.needs_real())
}

/// See [`super::waits`]. Kept out of line: the deal's no-wild path calls `waits` at every
/// discard.
#[inline(never)]
pub(crate) fn waits(hand: &Hand, rules: HandRules, wild: Wild) -> TileSet {
    if hand.len() != 3 * rules.sets as usize + 1 {
        return TileSet::EMPTY;
    }
    // The deal asks at every discard, and most hands are far from ready: rule them out with
    // the table-driven distance of the faces first (白板 read as the wild's face: the split of
    // the least distance, see the module; a 白板 drawn completes the hand as itself only
    // where it does as the wild's face). A hand
    // that `t` completes holds its faces, a stand-in for each wild and `t`, so its faces lack
    // at most wilds + 1 tiles of the sets and the pair. The table never counts a fifth copy
    // of a kind, which stand-ins could make: the bound holds only where none can arise.
    let (keys, wilds) = natural_keys(hand, wild);
    // No face may reach four naturals with the wilds: without wilds, no kind is held four
    // times (the stand-ins' count is the wild face's; the wild kind is not held); with them,
    // the most naturals of one face, the wild kind's copies left out.
    let fifth_possible = if wilds == 0 {
        !hand.fours().is_empty()
    } else {
        let mut counts = hand.counts();
        counts[wild.kind().index()] = 0;
        counts.iter().copied().max().unwrap_or(0) + wilds >= 4
    };
    if !fifth_possible {
        let table = distance_table();
        let (a, b) = table.halves(keys);
        if table.lack(rules.sets as usize, a, b) > wilds + 1 {
            return TileSet::EMPTY;
        }
    }
    // One tile lowers the lack by at most one.
    if lack(keys, wilds, rules, wild) != 1 {
        return TileSet::EMPTY;
    }
    Scan::new(hand, rules, wild).completing(hand)
}

/// See [`super::improving_kinds`].
pub(crate) fn improving_kinds(
    hand: &Hand,
    rules: HandRules,
    wild: Wild,
    shanten: i8,
    kinds: TileSet,
) -> TileSet {
    if shanten < 0 {
        return TileSet::EMPTY;
    }
    let scan = Scan::new(hand, rules, wild);
    let lack = (shanten + 1) as u8;
    let mut out = TileSet::EMPTY;
    for t in kinds {
        if hand.count(t) < 4 && scan.lack_changed(t, 1) < lack {
            out.insert(t);
        }
    }
    out
}

/// Every distinct reading of a complete hand with wilds: its sets (sorted), its pair, and
/// the faces its wilds stand for (sorted), each once, over every split of its stand-ins
/// (the split reading them all as the wild kind's face first). `f` is called per reading.
///
/// A reading is determined by its sets and pair: the naturals fill what they can, and the
/// wilds stand for the rest. Under the real-tile rule a reading counts only if the naturals
/// can be placed so that every set and the pair get one (checked by a small matching).
pub(crate) fn for_each_decomposition(
    hand: &Hand,
    rules: HandRules,
    wild: Wild,
    mut f: impl FnMut(&Decomposition),
) {
    if rules.sets > 5 || hand.len() != 3 * rules.sets as usize + 2 {
        return;
    }
    // Each split reads the stand-ins differently, so its readings differ from every other
    // split's (their naturals differ): no reading is met twice.
    for as_face in (0..=stand_ins(hand, wild)).rev() {
        let naturals = Naturals::of(hand, wild, as_face);
        let mut after = [0u8; Tile::NUM + 1];
        for k in (0..Tile::NUM).rev() {
            after[k] = after[k + 1] + naturals.faces[k];
        }
        let mut walk = Walk {
            faces: naturals.faces,
            after,
            wilds_left: naturals.wilds,
            sets_left: rules.sets,
            needs_real: wild.needs_real(),
            sets: ArrayVec::new(),
            pair: None,
            wild_faces: ArrayVec::new(),
        };
        walk.face(0, [0, 0], &mut f);
    }
}

/// The state of the reading enumeration, face by face.
struct Walk {
    /// The hand's naturals by face.
    faces: [u8; Tile::NUM],
    /// By face: the naturals of that face and the ones after it.
    after: [u8; Tile::NUM + 1],
    wilds_left: u8,
    sets_left: u8,
    needs_real: bool,
    sets: ArrayVec<Set, 5>,
    pair: Option<Tile>,
    wild_faces: ArrayVec<Tile, 4>,
}

impl Walk {
    /// Places face `k`: `open` are the chows started one and two faces back, which take one
    /// slot of this face each. Chooses the chows starting here, the pungs and whether the
    /// pair is here; every natural of the face must be placed, wilds fill the other slots.
    fn face(&mut self, k: usize, open: [u8; 2], f: &mut impl FnMut(&Decomposition)) {
        if k == Tile::NUM {
            if open == [0, 0] && self.sets_left == 0 && self.pair.is_some() && self.wilds_left == 0
            {
                self.emit(f);
            }
            return;
        }
        // Every set, the pair and every wild placed: the reading is complete if no natural
        // is left for the faces after (the walk would pass them one by one to the end).
        if open == [0, 0] && self.sets_left == 0 && self.wilds_left == 0 && self.pair.is_some() {
            if self.after[k] == 0 {
                self.emit(f);
            }
            return;
        }
        let n = self.faces[k];
        let chow_ok = k < 27 && k % 9 < 7;
        let carried = open[0] + open[1];
        let max_new = self.sets_left;
        // Under the real-tile rule a pung or the pair here holds a natural of this face and
        // a chow starting here one of its three: where there is none, every reading that
        // places one fails the matching at the end, so none is tried (the wild-only sets
        // at the faces a hand does not hold were most of the walk).
        let real_here = !self.needs_real || n > 0;
        let real_chow =
            !self.needs_real || (chow_ok && n + self.faces[k + 1] + self.faces[k + 2] > 0);
        let max_chows = if chow_ok && real_chow { max_new } else { 0 };
        let max_pungs = if real_here { max_new } else { 0 };
        let pair_ok = self.pair.is_none() && real_here;
        // The slots placed here take this face's naturals and at most every wild left; the
        // slots only grow along each loop, so the loops stop at the first past that.
        let most_slots = n + self.wilds_left;
        for chows in 0..=max_chows {
            if carried + chows > most_slots {
                break;
            }
            for pungs in 0..=max_pungs.min(max_new - chows) {
                if carried + chows + 3 * pungs > most_slots {
                    break;
                }
                for pair in 0..=u8::from(pair_ok) {
                    let slots = carried + chows + 3 * pungs + 2 * pair;
                    if slots < n || slots - n > self.wilds_left {
                        continue;
                    }
                    let wild = slots - n;
                    let saved = (self.sets.len(), self.wild_faces.len(), self.pair);
                    let tile = Tile::ALL[k];
                    for _ in 0..chows {
                        self.sets.push(Set::Chow(tile));
                    }
                    for _ in 0..pungs {
                        self.sets.push(Set::Pung(tile));
                    }
                    if pair == 1 {
                        self.pair = Some(tile);
                    }
                    for _ in 0..wild {
                        self.wild_faces.push(tile);
                    }
                    self.wilds_left -= wild;
                    self.sets_left -= chows + pungs;
                    // A chow started here must be able to end in the suit.
                    if chows == 0 || chow_ok {
                        self.face(k + 1, [chows, open[0]], f);
                    }
                    self.sets_left += chows + pungs;
                    self.wilds_left += wild;
                    self.sets.truncate(saved.0);
                    self.wild_faces.truncate(saved.1);
                    self.pair = saved.2;
                }
            }
        }
    }

    fn emit(&self, f: &mut impl FnMut(&Decomposition)) {
        let Some(pair) = self.pair else { return };
        if self.needs_real && !self.every_group_real(pair) {
            return;
        }
        let mut d = Decomposition {
            sets: self.sets.clone(),
            pair,
            wilds: self.wild_faces.clone(),
        };
        d.sets.sort_unstable();
        f(&d);
    }

    /// Whether the naturals can be placed so that every set and the pair hold one: a
    /// matching of groups to natural tiles by face (at most six groups, by augmenting
    /// paths). `self.faces` still holds the hand's naturals: the walk never lowers it.
    fn every_group_real(&self, pair: Tile) -> bool {
        let mut groups: ArrayVec<[usize; 3], 6> = ArrayVec::new();
        for s in &self.sets {
            groups.push(match *s {
                Set::Chow(t) => [t.index(), t.index() + 1, t.index() + 2],
                Set::Pung(t) => [t.index(); 3],
            });
        }
        groups.push([pair.index(); 3]);
        // Which group holds each natural placed so far, per face (up to four per face).
        let mut holder: [ArrayVec<usize, 4>; Tile::NUM] = core::array::from_fn(|_| ArrayVec::new());
        for g in 0..groups.len() {
            let mut seen = [false; Tile::NUM];
            if !augment(g, &groups, &self.faces, &mut holder, &mut seen) {
                return false;
            }
        }
        true
    }
}

/// Finds a natural for group `g`, moving others' along an augmenting path if needed.
fn augment(
    g: usize,
    groups: &[[usize; 3]],
    faces: &[u8; Tile::NUM],
    holder: &mut [ArrayVec<usize, 4>; Tile::NUM],
    seen: &mut [bool; Tile::NUM],
) -> bool {
    for &k in &groups[g] {
        if seen[k] {
            continue;
        }
        seen[k] = true;
        if (holder[k].len() as u8) < faces[k] {
            holder[k].push(g);
            return true;
        }
        for i in 0..holder[k].len() {
            let other = holder[k][i];
            if augment(other, groups, faces, holder, seen) {
                holder[k][i] = g;
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::{HONOR_KEYS, SUIT_KEYS};

    /// The counts a base-5 key of `len` ranks spells.
    fn digits(key: usize, len: usize) -> [u8; 9] {
        let mut c = [0u8; 9];
        for (r, d) in c.iter_mut().enumerate().take(len) {
            *d = ((key / POW5[r] as usize) % 5) as u8;
        }
        c
    }

    fn check(g: usize, key: usize) {
        let (_, len) = GROUPS[g];
        let c = digits(key, len);
        let direct = group_blocks(&c[..len], g < 3);
        let table = blocks_table().blocks(g, key as u32);
        assert_eq!(table, &direct, "group {g} counts {:?}", &c[..len]);
    }

    /// Random blocks as combinations produce them: lanes up to [`FAR`], some at it, the
    /// unused lanes at it.
    fn random_blocks(rng: &mut impl rand_core::RngCore) -> Blocks {
        let mut d = [FAR; 16];
        for lane in (0..6).chain(8..14) {
            let x = crate::bounded(rng, 24) as u8;
            d[lane] = if x > 20 { FAR } else { x };
        }
        d
    }

    /// The vector [`combine`] and [`lack_of`] are the lane-by-lane ones, on random blocks and
    /// on the table's own arrays, for every number of sets, wilds and both readings of the
    /// real-tile rule (on x86_64; elsewhere both sides are the same function).
    #[test]
    fn vector_forms_match_the_lanes() {
        let mut rng = crate::rng_from_seed(5);
        let table = blocks_table();
        let keys = [0u32, 1, 6, 31, 781, 1_000_000, 1_953_124];
        for n in 0..40_000 {
            let (a, b) = if n < keys.len() * keys.len() {
                let (x, y) = (keys[n % keys.len()], keys[n / keys.len()]);
                (*table.blocks(0, x), *table.blocks(1, y))
            } else {
                (random_blocks(&mut rng), random_blocks(&mut rng))
            };
            let both = combine(&a, &b);
            assert_eq!(both, combine_scalar(&a, &b), "{a:?} {b:?}");
            for v in [&a, &both] {
                for sets in 0..=5 {
                    for wilds in 0..=5 {
                        for real in [false, true] {
                            assert_eq!(
                                lack_of(v, wilds, sets, real),
                                lack_of_scalar(v, wilds, sets, real),
                                "{v:?} sets {sets} wilds {wilds} real {real}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The table is the search, tabulated: they agree on every honor key of at most 14
    /// tiles, every suit key of at most 8, and a sample of the suit keys of 9 to 17 tiles (a
    /// hand never holds more naturals); a wrong shape, lane or order of the build shows up
    /// here. (The search grows fast with the tiles: every key would take minutes.)
    #[test]
    fn blocks_table_matches_the_search() {
        let start = std::time::Instant::now();
        let table = blocks_table();
        eprintln!(
            "{} arrays, {} bytes, built in {:?}",
            table.palette_len(),
            table.bytes(),
            start.elapsed()
        );
        let tiles = |key: usize| digits(key, 9).iter().map(|&d| d as usize).sum::<usize>();
        for key in (0..HONOR_KEYS).filter(|&k| tiles(k) <= 14) {
            check(3, key);
        }
        let mut rng = crate::rng_from_seed(11);
        let mut sampled = 0;
        for key in 0..SUIT_KEYS {
            let n = tiles(key);
            let odds = if n <= 13 { 200 } else { 2000 };
            if n <= 8 {
                check(0, key);
            } else if n <= 17 && crate::bounded(&mut rng, odds) == 0 {
                check(1 + key % 2, key);
                sampled += 1;
            }
        }
        assert!(sampled > 1_000, "{sampled} keys sampled");
    }

    /// Under the real-tile rule the walk places no set or pair where it could hold no
    /// natural: its readings are exactly the readings of the walk without the rule that the
    /// matching accepts, in the same order, on complete hands with wilds and stand-ins.
    #[test]
    fn real_tile_pruning_keeps_every_reading() {
        let mut rng = crate::rng_from_seed(17);
        let (mut readings, mut rejected) = (0, 0);
        for round in 0..20_000u32 {
            let kind = Tile::new(crate::bounded(&mut rng, 34) as u8);
            let mut wild = Wild::new(kind);
            if round % 2 == 0 {
                wild = wild.with_stand_in(Tile::WHITE);
            }
            let sets = if round % 3 == 0 { 4 } else { 5 };
            // Sets and a pair of random faces, then some tiles turned into wilds.
            let mut hand = Hand::EMPTY;
            let add = |hand: &mut Hand, t: Tile| {
                if hand.count(t) < 4 {
                    hand.add(t);
                }
            };
            while hand.len() < 3 * sets as usize {
                let k = crate::bounded(&mut rng, 34) as usize;
                if k < 27 && k % 9 < 7 && crate::bounded(&mut rng, 2) == 0 {
                    (0..3).for_each(|j| add(&mut hand, Tile::ALL[k + j]));
                } else {
                    (0..3).for_each(|_| add(&mut hand, Tile::ALL[k]));
                }
            }
            while hand.len() > 3 * sets as usize {
                let t = hand.tiles().next().expect("a tile");
                hand.remove(t);
            }
            let pair = Tile::ALL[crate::bounded(&mut rng, 34) as usize];
            (0..2).for_each(|_| add(&mut hand, pair));
            for _ in 0..crate::bounded(&mut rng, 4) {
                let tiles: ArrayVec<Tile, 17> = hand.tiles().collect();
                let t = tiles[crate::bounded(&mut rng, tiles.len() as u32) as usize];
                if hand.count(kind) < 4 && t != kind {
                    hand.remove(t);
                    hand.add(kind);
                }
            }
            if hand.len() != 3 * sets as usize + 2 {
                continue;
            }
            let list = |real: bool| {
                let wild = wild.needing_real_tile(real);
                let rules = HandRules::regular(sets).with_wild(wild);
                let mut out = Vec::new();
                for_each_decomposition(&hand, rules, wild, |d: &Decomposition| out.push(d.clone()));
                out
            };
            let accepted: Vec<Decomposition> = list(false)
                .into_iter()
                .filter(|d| {
                    let faces = d.natural_faces();
                    let walk = Walk {
                        faces,
                        after: [0; Tile::NUM + 1],
                        wilds_left: 0,
                        sets_left: 0,
                        needs_real: true,
                        sets: d.sets.clone(),
                        pair: Some(d.pair),
                        wild_faces: d.wilds.clone(),
                    };
                    let real = walk.every_group_real(d.pair);
                    rejected += usize::from(!real);
                    real
                })
                .collect();
            let pruned = list(true);
            assert_eq!(pruned, accepted, "{hand:?} under {wild:?}");
            readings += pruned.len();
        }
        assert!(
            readings > 10_000 && rejected > 10_000,
            "{readings} {rejected}"
        );
    }
}
