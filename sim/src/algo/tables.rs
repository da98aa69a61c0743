//! Per-group lookup tables, built once on first use.
//!
//! Each numbered suit (and, separately, the honors) is keyed by its base-5 number (digit `r` =
//! count of rank `r + 1`, see [`Hand::keys`](crate::Hand::keys)). The three numbered suits
//! share one table because a suit's algebra does not depend on which suit it is.
//!
//! * [`WinTable`]: 2 bits per key saying whether the group alone splits into sets, into sets
//!   plus one pair, or neither (488 KiB for the suits, 19 KiB for the honors).
//! * [`DistanceTable`]: per key, how many tiles must be added to the group so that it contains
//!   `m` sets and `p` pairs (`m <= 5`, `p <= 1`), stored as a byte index into a palette of
//!   the distinct arrays, since far fewer arrays than keys exist; then the same for pairs of
//!   groups, and the tiles a whole hand lacks for each pair of halves (205 KB).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::hand::{HONOR_KEYS, POW5, SUIT_KEYS};

/// Win-table code: the group splits into sets only (the empty group included).
pub(crate) const CODE_SETS: u32 = 0;
/// Win-table code: the group splits into sets plus exactly one pair.
pub(crate) const CODE_PAIR: u32 = 1;
/// Win-table code: neither.
pub(crate) const CODE_NONE: u32 = 2;

/// Which of the three [`CODE_SETS`]/[`CODE_PAIR`]/[`CODE_NONE`] each key has, 2 bits a key.
///
/// The word arrays are padded to a power of two (with [`CODE_NONE`]) so that a lookup masks
/// its index instead of comparing it with a length loaded from memory: the win check and the
/// waits are four such lookups and little else.
pub(crate) struct WinTable {
    suit: Box<[u64; SUIT_WORDS]>,
    honor: Box<[u64; HONOR_WORDS]>,
}

/// Words of 32 two-bit codes covering every suit key (`5^9 <= 2^21`) and honor key
/// (`5^7 <= 2^17`).
const SUIT_WORDS: usize = 1 << 16;
const HONOR_WORDS: usize = 1 << 12;
const _: () = assert!(SUIT_KEYS <= 32 * SUIT_WORDS && HONOR_KEYS <= 32 * HONOR_WORDS);

/// Every code of a word `CODE_NONE`: the filler of the padding.
const NONE_WORD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
const _: () = assert!(NONE_WORD & 3 == CODE_NONE as u64);

impl WinTable {
    pub(crate) fn bytes(&self) -> usize {
        8 * (self.suit.len() + self.honor.len())
    }

    #[inline(always)]
    pub(crate) fn suit(&self, key: u32) -> u32 {
        read2(&self.suit[..], key)
    }

    #[inline(always)]
    pub(crate) fn honor(&self, key: u32) -> u32 {
        read2(&self.honor[..], key)
    }
}

/// The code of `key` in a power-of-two word array. A key beyond the padding cannot come from
/// a consistent hand (every count is at most 4); masking wraps it onto some code instead of
/// panicking, which keeps the win check total.
#[inline(always)]
fn read2(bits: &[u64], key: u32) -> u32 {
    debug_assert!(bits.len().is_power_of_two());
    let word = bits[(key >> 5) as usize & (bits.len() - 1)];
    ((word >> (2 * (key & 31))) & 3) as u32
}

fn write2(bits: &mut [u64], key: usize, code: u32) {
    bits[key >> 5] |= (code as u64) << (2 * (key & 31));
}

/// A group key's base-5 digits (the copies held of each rank), stepped along with the key:
/// the table builds visit every key in order, and reading each digit back by division was a
/// fifth of the build.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Digits(pub(super) [u8; 9]);

impl Digits {
    /// The digits of key 0 (of key `5^9` once stepped down past 0, which no build reads).
    pub(super) const ZERO: Digits = Digits([0; 9]);

    /// The digits of `key`.
    fn of(mut key: usize) -> Digits {
        let mut d = [0; 9];
        for digit in &mut d {
            *digit = (key % 5) as u8;
            key /= 5;
        }
        Digits(d)
    }

    /// Steps to the next key.
    #[inline]
    pub(super) fn increment(&mut self) {
        for digit in &mut self.0 {
            if *digit < 4 {
                *digit += 1;
                return;
            }
            *digit = 0;
        }
    }

    /// Steps to the previous key.
    #[inline]
    fn decrement(&mut self) {
        for digit in &mut self.0 {
            if *digit > 0 {
                *digit -= 1;
                return;
            }
            *digit = 4;
        }
    }

    /// The lowest rank present in a nonzero key and its count.
    #[inline]
    pub(super) fn lowest(&self) -> (usize, usize) {
        let i = self.0.iter().position(|&c| c > 0).expect("a nonzero key");
        (i, self.0[i] as usize)
    }

    /// The key less a chow starting at rank `i`, if the group (of `kinds` ranks, chows
    /// allowed or not) holds one there: `key` is the key these digits spell.
    #[inline]
    fn without_chow(&self, key: usize, i: usize, kinds: usize, chows: bool) -> Option<usize> {
        let p = |r: usize| POW5[r] as usize;
        (chows && i + 2 < kinds && self.0[i + 1] > 0 && self.0[i + 2] > 0)
            .then(|| key - p(i) - p(i + 1) - p(i + 2))
    }
}

fn build_win<const WORDS: usize>(kinds: usize, chows: bool) -> Box<[u64; WORDS]> {
    let n = POW5[kinds - 1] as usize * 5;
    let mut bits = vec![0u64; WORDS];
    // Keys are visited in increasing order, and every key looked up below is smaller.
    let mut digits = Digits::ZERO;
    for key in 1..n {
        digits.increment();
        let (i, c) = digits.lowest();
        let get = |bits: &[u64], k: usize| read2(bits, k as u32);
        let p = POW5[i] as usize;
        let chow = digits.without_chow(key, i, kinds, chows);
        // The lowest tile present is in a pung, a chow starting at it, or the pair.
        let sets = (c >= 3 && get(&bits, key - 3 * p) == CODE_SETS)
            || chow.is_some_and(|k| get(&bits, k) == CODE_SETS);
        let pair = (c >= 2 && get(&bits, key - 2 * p) == CODE_SETS)
            || (c >= 3 && get(&bits, key - 3 * p) == CODE_PAIR)
            || chow.is_some_and(|k| get(&bits, k) == CODE_PAIR);
        let code = if sets {
            CODE_SETS
        } else if pair {
            CODE_PAIR
        } else {
            CODE_NONE
        };
        write2(&mut bits, key, code);
    }
    for key in n..32 * WORDS {
        write2(&mut bits, key, CODE_NONE);
    }
    bits.into_boxed_slice()
        .try_into()
        .expect("the table has WORDS words")
}

/// The win table, built on first use (a few milliseconds).
pub(crate) fn win_table() -> &'static WinTable {
    static TABLE: OnceLock<WinTable> = OnceLock::new();
    TABLE.get_or_init(|| WinTable {
        suit: build_win(9, true),
        honor: build_win(7, false),
    })
}

/// Lanes of a distance array: `m` sets and no pair at lane `m`, `m` sets and a pair at
/// `8 + m`. Unused lanes hold [`FAR`].
pub(crate) type Dist = [u8; 16];

/// Filler for unused lanes; small enough that sums of a few never overflow a `u8`.
pub(crate) const FAR: u8 = 0x40;

/// Per-key distance arrays, deduplicated into a palette. Only 187 distinct arrays occur for
/// the suits and 83 for the honors (`palette_sizes` is asserted in the tests), so a byte
/// indexes them and the suit index is 1.9 MB.
///
/// Because the palettes are that small, the convolution of two groups is tabulated too: for
/// every (man, pin) palette pair and every (sou, honor) pair, an index into a palette of the
/// distinct convolved arrays, a half's id. Only 328 halves occur, so the last step is
/// tabulated as well: the tiles lacking for `sets` sets and a pair of every pair of halves,
/// a byte each, in rows per `(sets, half)` of which only 626 are distinct (205 KB). A
/// shanten query then costs four slot loads, two half loads, a row load and a lack load,
/// and a scan that varies one half against a fixed one reads one row.
pub(crate) struct DistanceTable {
    suit_index: Box<[u8]>,
    honor_index: Box<[u8]>,
    /// `suit_pairs[a * suits + b]`: the half id of suit palette entries `a` and `b`.
    suit_pairs: Box<[u16]>,
    /// `suit_honor_pairs[a * honors + h]`: the half id of suit entry `a` and honor entry `h`.
    suit_honor_pairs: Box<[u16]>,
    honors: usize,
    suits: usize,
    /// Number of distinct halves.
    halves: usize,
    /// `rows[row_at[sets * halves + a] + b]`: the `(sets, 1)` entry of the convolution of
    /// halves `a` and `b`, for `sets <= 5`. Symmetric in `a` and `b`, as convolution is.
    /// Padded at the end so that [`ROW_LEN`] bytes follow every row's start.
    row_at: Box<[u32]>,
    rows: Box<[u8]>,
}

/// Bytes a [`Row`] spans: a power of two above the number of halves, so that a read masks
/// its index instead of comparing it with a length (scans read rows in their innermost
/// loops). Rows are stored `halves` apart, so a row's span reaches into the next ones: only
/// its first `halves` bytes are its own, which every half id indexes (the build asserts
/// that they fit).
const ROW_LEN: usize = 512;

/// The lacks of one half with every half, indexed by the other half's id.
#[derive(Copy, Clone)]
pub(crate) struct Row<'t>(&'t [u8; ROW_LEN]);

impl Row<'_> {
    /// The lack with half `half`.
    #[inline(always)]
    pub(crate) fn lack(self, half: usize) -> u8 {
        self.0[half & (ROW_LEN - 1)]
    }
}

/// The most sets a lack is tabulated for.
const MAX_SETS: usize = 5;

impl DistanceTable {
    /// The man-pin and sou-honor half ids of a hand's group keys.
    #[inline(always)]
    pub(crate) fn halves(&self, keys: [u32; 4]) -> (usize, usize) {
        let m = self.suit_slot(keys[0]);
        let p = self.suit_slot(keys[1]);
        let s = self.suit_slot(keys[2]);
        let h = self.honor_slot(keys[3]);
        (self.man_pin(m, p), self.sou_honor(s, h))
    }

    /// Tiles lacking for `sets` sets and a pair in a hand of halves `a` and `b` (either
    /// order); `sets` is capped at 5.
    #[inline(always)]
    pub(crate) fn lack(&self, sets: usize, a: usize, b: usize) -> u8 {
        self.lack_row(sets, a).lack(b)
    }

    /// [`DistanceTable::lack`] of half `a` with every half, indexed by the other half's id.
    #[inline(always)]
    pub(crate) fn lack_row(&self, sets: usize, a: usize) -> Row<'_> {
        let start = self.row_at[sets.min(MAX_SETS) * self.halves + a] as usize;
        Row(self.rows[start..start + ROW_LEN]
            .try_into()
            .expect("rows are padded to a full span"))
    }

    /// Bytes held by the indices, pair tables and lacks.
    pub(crate) fn bytes(&self) -> usize {
        self.suit_index.len()
            + self.honor_index.len()
            + 2 * (self.suit_pairs.len() + self.suit_honor_pairs.len())
            + 4 * self.row_at.len()
            + self.rows.len()
    }

    /// Distinct distance arrays of the suits and of the honors, and distinct halves.
    #[cfg(test)]
    pub(crate) fn palette_sizes(&self) -> (usize, usize, usize) {
        (self.suits, self.honors, self.halves)
    }
}

/// Min-plus convolution of two groups' distance arrays, for every `m <= 5` and `p <= 1`.
pub(crate) fn convolve(a: &Dist, b: &Dist) -> Dist {
    let mut r = [FAR; 16];
    for m in 0..6 {
        let mut none = FAR;
        let mut pair = FAR;
        for i in 0..=m {
            none = none.min(a[i] + b[m - i]);
            pair = pair.min(a[i] + b[8 + m - i]).min(a[8 + i] + b[m - i]);
        }
        r[m] = none;
        r[8 + m] = pair;
    }
    r
}

pub(super) type DistMap = HashMap<Dist, u16, BuildHasherDefault<DistHasher>>;

pub(super) fn intern(palette: &mut Vec<Dist>, seen: &mut DistMap, d: Dist) -> u16 {
    let next = palette.len();
    *seen.entry(d).or_insert_with(|| {
        assert!(next <= u16::MAX as usize, "palette outgrew a u16 index");
        palette.push(d);
        next as u16
    })
}

/// Builds one group's distance table.
///
/// First, in increasing key order, the most sets a key contains without and with a pair
/// (`most[key]`), by the same lowest-tile argument as the win table plus the option of leaving
/// one copy of the lowest tile unused. Then, in decreasing key order, the distance: zero if
/// the key already contains `m` sets and `p` pairs, else one more than the best key reached by
/// adding one tile of a kind held fewer than four times. Adding a tile only raises the key, so
/// every neighbour is done before the key itself; and a target never holds a fifth copy
/// because no key does.
fn build_distance(kinds: usize, chows: bool) -> (Box<[u8]>, Box<[Dist]>) {
    let n = POW5[kinds - 1] as usize * 5;
    // most[key] = [sets without a pair, sets with a pair (-1: no pair at all)], capped at 5.
    let mut most = vec![[0i8; 2]; n];
    most[0] = [0, -1];
    let mut digits = Digits::ZERO;
    for key in 1..n {
        digits.increment();
        let (i, c) = digits.lowest();
        let p = POW5[i] as usize;
        let [mut m0, mut m1] = most[key - p];
        if c >= 2 {
            m1 = m1.max(most[key - 2 * p][0]);
        }
        let mut take = |k: usize| {
            let [a, b] = most[k];
            m0 = m0.max(a + 1);
            if b >= 0 {
                m1 = m1.max(b + 1);
            }
        };
        if c >= 3 {
            take(key - 3 * p);
        }
        if let Some(k) = digits.without_chow(key, i, kinds, chows) {
            take(k);
        }
        most[key] = [m0.min(5), m1.min(5)];
    }

    // Built with u16 indices so that an unexpectedly large palette is caught, not wrapped.
    let mut index = vec![0u16; n];
    let mut palette: Vec<Dist> = Vec::new();
    let mut seen = DistMap::default();
    let mut digits = Digits::of(n - 1);
    for key in (0..n).rev() {
        let best = nearest(&palette, &index, key, &digits, kinds);
        digits.decrement();
        let mut d = [FAR; 16];
        for (p, &most_sets) in most[key].iter().enumerate() {
            for m in 0..6 {
                let lane = 8 * p + m;
                d[lane] = if m as i8 <= most_sets {
                    0
                } else {
                    best[lane].saturating_add(1)
                };
            }
        }
        index[key] = intern(&mut palette, &mut seen, d);
    }
    assert!(
        palette.len() <= 256,
        "distance palette outgrew a byte index"
    );
    let index: Box<[u8]> = index.iter().map(|&i| i as u8).collect();
    (index, palette.into_boxed_slice())
}

/// The lane-wise minimum of the distance arrays of the keys one tile above `key` (whose
/// `digits` are given) in a group of `kinds` ranks: each is done, as keys are built downwards.
/// Kept out of line so that the minimum compiles to one vector instruction per neighbour
/// (inlined, the arrays were split into bytes and compared one by one); the loop runs nine
/// times for each of the two million suit keys.
#[inline(never)]
fn nearest(palette: &[Dist], index: &[u16], key: usize, digits: &Digits, kinds: usize) -> Dist {
    let mut best = [u8::MAX; 16];
    for r in 0..kinds {
        if digits.0[r] < 4 {
            let above = &palette[index[key + POW5[r] as usize] as usize];
            for lane in 0..16 {
                best[lane] = best[lane].min(above[lane]);
            }
        }
    }
    best
}

/// A cheap multiplicative hash for the palette map: SipHash's DoS resistance buys nothing for
/// keys we generate ourselves, and the map is hit once per key.
#[derive(Default)]
pub(super) struct DistHasher(u64);

impl Hasher for DistHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            self.0 ^= self.0 >> 29;
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write(&n.to_le_bytes());
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The distance table, built on first use.
pub(crate) fn distance_table() -> &'static DistanceTable {
    static TABLE: OnceLock<DistanceTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let (suit_index, suit_palette) = build_distance(9, true);
        let (honor_index, honor_palette) = build_distance(7, false);
        debug_assert_eq!(suit_index.len(), SUIT_KEYS);
        debug_assert_eq!(honor_index.len(), HONOR_KEYS);
        let mut convolved = Vec::new();
        let mut seen = DistMap::default();
        let mut pairs = |right: &[Dist]| -> Box<[u16]> {
            let mut out = Vec::with_capacity(suit_palette.len() * right.len());
            for a in suit_palette.iter() {
                for b in right {
                    out.push(intern(&mut convolved, &mut seen, convolve(a, b)));
                }
            }
            out.into_boxed_slice()
        };
        let suit_pairs = pairs(&suit_palette);
        let suit_honor_pairs = pairs(&honor_palette);
        let halves = convolved.len();
        let mut lacks = vec![0u8; (MAX_SETS + 1) * halves * halves];
        // Convolution is commutative: each pair is convolved once and stored both ways.
        for (a, da) in convolved.iter().enumerate() {
            for (b, db) in convolved.iter().enumerate().skip(a) {
                let both = convolve(da, db);
                for sets in 0..=MAX_SETS {
                    lacks[(sets * halves + a) * halves + b] = both[8 + sets];
                    lacks[(sets * halves + b) * halves + a] = both[8 + sets];
                }
            }
        }
        assert!(halves <= ROW_LEN, "{halves} halves outgrew a row of lacks");
        let mut row_at = Vec::with_capacity((MAX_SETS + 1) * halves);
        let mut rows = Vec::new();
        let mut seen_rows: HashMap<&[u8], u32> = HashMap::new();
        for row in lacks.chunks(halves) {
            row_at.push(*seen_rows.entry(row).or_insert_with(|| {
                let at = rows.len() as u32;
                rows.extend_from_slice(row);
                at
            }));
        }
        rows.resize(rows.len() + ROW_LEN - halves, FAR);
        DistanceTable {
            suit_index,
            honor_index,
            suit_pairs,
            suit_honor_pairs,
            honors: honor_palette.len(),
            suits: suit_palette.len(),
            halves,
            row_at: row_at.into_boxed_slice(),
            rows: rows.into_boxed_slice(),
        }
    })
}

/// Group-at-a-time access, for scans that change one group of a hand and keep the others
/// (see `improve.rs` and `discard.rs`): a group's palette slot, and the half id of two
/// slots.
impl DistanceTable {
    /// The palette slot of a numbered suit's key.
    #[inline(always)]
    pub(crate) fn suit_slot(&self, key: u32) -> usize {
        self.suit_index.get(key as usize).copied().unwrap_or(0) as usize
    }

    /// The palette slot of the honors' key.
    #[inline(always)]
    pub(crate) fn honor_slot(&self, key: u32) -> usize {
        self.honor_index.get(key as usize).copied().unwrap_or(0) as usize
    }

    /// The half id of the man and pin groups at slots `m` and `p`.
    #[inline(always)]
    pub(crate) fn man_pin(&self, m: usize, p: usize) -> usize {
        self.suit_pairs[m * self.suits + p] as usize
    }

    /// The half id of the sou and honor groups at slots `s` and `h`.
    #[inline(always)]
    pub(crate) fn sou_honor(&self, s: usize, h: usize) -> usize {
        self.suit_honor_pairs[s * self.honors + h] as usize
    }

    /// The id of half `h` (0 man-pin, 1 sou-honor) from the slots of its two groups, in
    /// group order.
    #[inline(always)]
    pub(crate) fn half(&self, h: usize, first: usize, second: usize) -> usize {
        if h == 0 {
            self.man_pin(first, second)
        } else {
            self.sou_honor(first, second)
        }
    }

    /// The palette slot of each group's key (man, pin, sou, honors).
    #[inline(always)]
    pub(crate) fn slots(&self, keys: [u32; 4]) -> [usize; 4] {
        [
            self.suit_slot(keys[0]),
            self.suit_slot(keys[1]),
            self.suit_slot(keys[2]),
            self.honor_slot(keys[3]),
        ]
    }

    /// Group `g` (0 to 2 the numbered suits, 3 the honors), the other group of its half at
    /// its slot in `slots`.
    #[inline(always)]
    pub(crate) fn group(&self, g: usize, slots: &[usize; 4]) -> Group<'_> {
        let (pairs, width) = if g < 2 {
            (&self.suit_pairs, self.suits)
        } else {
            (&self.suit_honor_pairs, self.honors)
        };
        let index = if g == 3 {
            &self.honor_index
        } else {
            &self.suit_index
        };
        // A pair table is indexed `first * width + second`, in group order.
        let (stride, offset) = if g % 2 == 0 {
            (width, slots[g + 1])
        } else {
            (1, slots[g - 1] * width)
        };
        Group {
            index,
            pairs,
            stride,
            offset,
        }
    }
}

/// One group of a hand, the other group of its half held fixed: the palette slot of a key
/// of the group, and the half id that slot makes. Built once per scan, so that a loop over
/// the group's kinds does not branch on which group it is.
#[derive(Copy, Clone)]
pub(crate) struct Group<'t> {
    index: &'t [u8],
    pairs: &'t [u16],
    /// The half id of slot `s` is `pairs[s * stride + offset]`.
    stride: usize,
    offset: usize,
}

impl Group<'_> {
    /// The palette slot of a key of the group.
    #[inline(always)]
    pub(crate) fn slot(&self, key: u32) -> usize {
        self.index.get(key as usize).copied().unwrap_or(0) as usize
    }

    /// The half id of the group at palette slot `slot`.
    #[inline(always)]
    pub(crate) fn half(&self, slot: usize) -> usize {
        self.pairs[slot * self.stride + self.offset] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The builds step a key's digits instead of dividing: every step must spell the key.
    #[test]
    fn stepped_digits_spell_every_key() {
        let n = SUIT_KEYS;
        let mut up = Digits::ZERO;
        for key in 1..n {
            up.increment();
            assert_eq!(up, Digits::of(key), "up to {key}");
            let (i, c) = up.lowest();
            assert_eq!((key / POW5[i] as usize) % 5, c);
            assert_eq!(key % POW5[i] as usize, 0);
        }
        let mut down = Digits::of(n - 1);
        for key in (0..n - 1).rev() {
            down.decrement();
            assert_eq!(down, Digits::of(key), "down to {key}");
        }
        // 3m4m5m held: the chow from 3m leaves nothing; none starts at 4m or in honors.
        let key = (POW5[2] + POW5[3] + POW5[4]) as usize;
        let digits = Digits::of(key);
        assert_eq!(digits.without_chow(key, 2, 9, true), Some(0));
        assert_eq!(digits.without_chow(key, 3, 9, true), None);
        assert_eq!(digits.without_chow(key, 2, 9, false), None);
    }

    /// Convolution is commutative: the lack table convolves each pair of halves once and
    /// stores it both ways, and scans read a fixed half's row with the varying half on
    /// either side.
    #[test]
    fn convolution_is_commutative() {
        let mut rng = crate::rng_from_seed(7);
        for _ in 0..20_000 {
            let mut random = || {
                let mut d = [FAR; 16];
                for lane in (0..6).chain(8..14) {
                    d[lane] = crate::bounded(&mut rng, 20) as u8;
                }
                d
            };
            let (a, b) = (random(), random());
            assert_eq!(convolve(&a, &b), convolve(&b, &a), "{a:?} {b:?}");
        }
        let table = distance_table();
        for sets in 0..=MAX_SETS {
            for a in 0..table.halves {
                for b in 0..a {
                    assert_eq!(table.lack(sets, a, b), table.lack(sets, b, a));
                }
            }
        }
    }

    #[test]
    fn build_report() {
        let t0 = std::time::Instant::now();
        let _ = win_table();
        let t1 = std::time::Instant::now();
        let d = distance_table();
        let t2 = std::time::Instant::now();
        eprintln!(
            "win {:?} dist {:?} palettes {:?} bytes {}",
            t1 - t0,
            t2 - t1,
            d.palette_sizes(),
            d.bytes()
        );
    }
}
