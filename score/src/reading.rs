//! Readings: the ways one hand can be read (its sets and pair, and where the winning tile
//! went), built straight from the tile counts.

use super::context::WinInput;

use taisim_sim::algo::MAX_DECOMPOSITIONS;
use taisim_sim::MeldKind;
use taisim_sim::Tile;

/// Tile kinds as bitsets (kind `k` at bit `k`): the readings and the detectors test a hand's
/// kinds against them.
pub(crate) const HONORS: u64 = 0x7f << 27;
pub(crate) const WINDS: u64 = 0xf << 27;
pub(crate) const DRAGONS: u64 = 0x7 << 31;
pub(crate) const TERMINALS: u64 =
    (1 << 0) | (1 << 8) | (1 << 9) | (1 << 17) | (1 << 18) | (1 << 26);

/// How the winning tile completed the hand, judged on one reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WaitShape {
    /// 兩面: either end of a chow, completable on both sides.
    TwoSided,
    /// 邊張: 12 waiting on 3, 89 on 7.
    Edge,
    /// 崁張: the middle of a chow.
    Closed,
    /// 單吊: the second tile of the pair.
    Single,
    /// 對碰: a pair becoming a pung.
    DoublePair,
    /// No winning tile (flower wins).
    None,
}

impl WaitShape {
    /// Stable snake_case name.
    pub const fn name(self) -> &'static str {
        match self {
            WaitShape::TwoSided => "two_sided",
            WaitShape::Edge => "edge",
            WaitShape::Closed => "closed",
            WaitShape::Single => "single",
            WaitShape::DoublePair => "double_pair",
            WaitShape::None => "none",
        }
    }
}

/// Which kind of reading scored the hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReadingKind {
    /// Five sets (melds included) and a pair.
    Regular,
    /// 尼姑: seven pairs and a triplet.
    EightPairs,
    /// 十三么, 16-tile form.
    ThirteenOrphans,
    /// 八仙過海 / 七搶一: no hand is read.
    FlowerWin,
}

impl ReadingKind {
    /// Stable snake_case name.
    pub const fn name(self) -> &'static str {
        match self {
            ReadingKind::Regular => "regular",
            ReadingKind::EightPairs => "eight_pairs",
            ReadingKind::ThirteenOrphans => "thirteen_orphans",
            ReadingKind::FlowerWin => "flower_win",
        }
    }
}

/// One way of reading the hand, with the winning tile placed.
///
/// The sets are kept as summaries (which kinds are pungs, how many chows start on each
/// kind), melds included: every detector reads those, and bit masks of them turn most
/// patterns into a few bit operations.
#[derive(Copy, Clone)]
pub(crate) struct Reading {
    pub kind: ReadingKind,
    /// The pair of a regular reading.
    pub pair: Option<Tile>,
    pub wait: WaitShape,
    pub chows: u8,
    /// Concealed kongs, and pungs of the concealed hand not completed by a discard (暗刻).
    pub concealed_pungs: u8,
    /// Kinds held as a pung or kong.
    pub pung_set: u64,
    /// Chows by lowest tile (suit × 9 + rank − 1).
    pub chow_counts: [u8; 27],
    /// `chow_at_least[k]`: the lowest tiles of the chows held at least `k + 1` times. No
    /// chow is held five times: that would take five copies of its lowest tile.
    pub chow_at_least: [u32; 4],
}

impl Reading {
    fn new(kind: ReadingKind) -> Reading {
        Reading {
            kind,
            pair: None,
            wait: WaitShape::None,
            chows: 0,
            concealed_pungs: 0,
            pung_set: 0,
            chow_counts: [0; 27],
            chow_at_least: [0; 4],
        }
    }

    /// Adds `n` chows starting on kind `lowest`.
    #[inline]
    fn add_chows(&mut self, lowest: usize, n: u8) {
        let before = self.chow_counts[lowest];
        self.chows += n;
        self.chow_counts[lowest] += n;
        for held in before..(before + n).min(4) {
            self.chow_at_least[held as usize] |= 1 << lowest;
        }
    }

    #[inline]
    fn add_pung(&mut self, kind: usize, concealed: bool) {
        self.pung_set |= 1 << kind;
        self.concealed_pungs += concealed as u8;
    }

    /// Chows containing `tile`.
    #[inline]
    pub fn chows_holding(&self, tile: Tile) -> u8 {
        if tile.is_honor() {
            return 0;
        }
        let i = tile.index();
        let r = tile.rank() as usize;
        let mut n = self.chow_counts.get(i).copied().unwrap_or(0) * (r <= 7) as u8;
        if (2..=8).contains(&r) {
            n += self.chow_counts[i - 1];
        }
        if r >= 3 {
            n += self.chow_counts[i - 2];
        }
        n
    }
}

/// One way to split the tiles of one group (a suit, or the honors) into sets.
#[derive(Copy, Clone, Default)]
struct GroupSplit {
    /// Pungs, one bit per rank.
    pungs: u32,
    /// Chows, three bits per lowest rank.
    chows: u32,
}

/// The splits of one group. A group never splits more ways than a whole hand can
/// decompose: with the pair in another group, each of its splits is a decomposition.
#[derive(Copy, Clone, Default)]
struct GroupSplits {
    list: [GroupSplit; MAX_DECOMPOSITIONS],
    len: usize,
}

impl GroupSplits {
    fn as_slice(&self) -> &[GroupSplit] {
        &self.list[..self.len]
    }
}

/// Calls `each` with every reading of every regular decomposition of the hand, `first` set
/// on the first reading of each decomposition (its sets are those of the readings that
/// follow until the next `first`).
///
/// The order is the one scoring's ties depend on, that of
/// [`decompositions`](taisim_sim::algo::decompositions): by pair (lowest first), then with fewer
/// pungs at the lowest kind first; within one, the winning tile completes the chows it can
/// (lowest first), then its pung, then the pair. Groups share no kinds, so each splits on
/// its own, and taking the groups' splits in turn, the characters' outermost, keeps that
/// order.
pub(crate) fn regular_readings(
    input: &WinInput,
    sets: u8,
    self_draw: bool,
    mut each: impl FnMut(&Reading, bool),
) {
    let win = input.win_tile.expect("validated").index();
    let counts = input.hand.counts();
    let present = input.hand.kinds().0;
    // Per group, counts three bits a rank, and the group's tile count.
    let mut fields = [0u32; 4];
    let mut group_len = [0u8; 4];
    for g in 0..4 {
        let mut bytes = [0u8; 9];
        let kinds = if g == 3 { 7 } else { 9 };
        bytes[..kinds].copy_from_slice(&counts[9 * g..9 * g + kinds]);
        (fields[g], group_len[g]) = pack_counts(&bytes);
    }
    // The pair lies in the one group whose tile count is 2 mod 3; the others split into
    // sets only.
    let pair_group = (0..4).find(|&g| group_len[g] % 3 == 2).unwrap_or(3);
    if (0..4).any(|g| g != pair_group && group_len[g] % 3 != 0) {
        return;
    }
    debug_assert_eq!(input.hand.len(), 3 * sets as usize + 2);
    let mut splits = [GroupSplits::default(); 4];
    for g in (0..4).filter(|&g| g != pair_group) {
        if fields[g] == 0 {
            splits[g].len = 1;
            continue;
        }
        split_group(fields[g], g == 3, GroupSplit::default(), &mut splits[g]);
        if splits[g].len == 0 {
            return;
        }
    }
    let mut base = Reading::new(ReadingKind::Regular);
    for m in &input.melds {
        let i = m.tile().index();
        match m.kind() {
            MeldKind::Chow => base.add_chows(i, 1),
            kind => base.add_pung(i, kind == MeldKind::ConcealedKong),
        }
    }
    let mut pairs = (present >> (9 * pair_group)) & 0x1ff;
    while pairs != 0 {
        let r = pairs.trailing_zeros() as usize;
        pairs &= pairs - 1;
        if counts[9 * pair_group + r] < 2 {
            continue;
        }
        let pair = 9 * pair_group + r;
        splits[pair_group].len = 0;
        let rest = fields[pair_group] - (2 << (3 * r));
        split_group(
            rest,
            pair_group == 3,
            GroupSplit::default(),
            &mut splits[pair_group],
        );
        for m in splits[0].as_slice() {
            for p in splits[1].as_slice() {
                for s in splits[2].as_slice() {
                    for z in splits[3].as_slice() {
                        let mut r = base;
                        r.pair = Some(Tile::ALL[pair]);
                        let mut chows = 0;
                        let mut pungs = 0;
                        for (g, split) in [m, p, s, z].into_iter().enumerate() {
                            r.add_split(g, split, &mut chows, &mut pungs);
                        }
                        place(&mut r, chows, pungs, win, self_draw, &mut each);
                    }
                }
            }
        }
    }
}

/// Nine counts (4 at most each) as three-bit fields, and their sum.
#[inline]
fn pack_counts(counts: &[u8; 9]) -> (u32, u8) {
    let mut x = u64::from_le_bytes(counts[..8].try_into().expect("eight bytes"));
    let sum = (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8 + counts[8];
    // Pairs of fields, then fours, then all eight, each step halving the gaps.
    x = (x | x >> 5) & 0x003f_003f_003f_003f;
    x = (x | x >> 10) & 0x0000_0fff_0000_0fff;
    x = (x | x >> 20) & 0x00ff_ffff;
    (x as u32 | (counts[8] as u32) << 24, sum)
}

/// Appends to `out` every split of `rest` (a group's counts, three bits a rank) into sets,
/// each added to `done`. Taking, at the lowest rank present, a number of pungs (0 or 1) and
/// then exactly its remaining count as chows starting there makes each multiset of sets
/// reachable along one path only, so no split repeats. Fewer pungs come first.
fn split_group(mut rest: u32, honors: bool, mut done: GroupSplit, out: &mut GroupSplits) {
    // Most ranks leave one choice: those are taken in this loop, and only a rank that
    // leaves two recurses (on its first choice).
    while rest != 0 {
        let i = rest.trailing_zeros() / 3;
        let c = (rest >> (3 * i)) & 0b111;
        let chows_fit = |n: u32| {
            let held = |k: u32| (rest >> (3 * k)) & 0b111;
            n == 0 || (!honors && i <= 6 && held(i + 1) >= n && held(i + 2) >= n)
        };
        let take = |pungs: u32, chows: u32| {
            let rest = (rest & !(0b111 << (3 * i))) - ((chows * 0o11) << (3 * (i + 1)));
            let done = GroupSplit {
                pungs: done.pungs | pungs << i,
                chows: done.chows | chows << (3 * i),
            };
            (rest, done)
        };
        let no_pung = chows_fit(c);
        let one_pung = c >= 3 && chows_fit(c - 3);
        (rest, done) = match (no_pung, one_pung) {
            (true, true) => {
                let (rest, done) = take(0, c);
                split_group(rest, honors, done, out);
                take(1, c - 3)
            }
            (true, false) => take(0, c),
            (false, true) => take(1, c - 3),
            (false, false) => return,
        };
    }
    debug_assert!(out.len < MAX_DECOMPOSITIONS);
    if let Some(slot) = out.list.get_mut(out.len) {
        *slot = done;
        out.len += 1;
    }
}

impl Reading {
    /// Adds one group's concealed sets, noting them in `chows` and `pungs` (bits by kind).
    #[inline]
    fn add_split(&mut self, group: usize, split: &GroupSplit, chows: &mut u32, pungs: &mut u64) {
        let first = 9 * group;
        let mut ranks = split.pungs;
        while ranks != 0 {
            let r = ranks.trailing_zeros() as usize;
            ranks &= ranks - 1;
            self.add_pung(first + r, true);
            *pungs |= 1 << (first + r);
        }
        let mut fields = split.chows;
        while fields != 0 {
            let r = (fields.trailing_zeros() / 3) as usize;
            let n = (fields >> (3 * r)) & 0b111;
            fields &= !(0b111 << (3 * r));
            self.add_chows(first + r, n as u8);
            *chows |= 1 << (first + r);
        }
    }
}

/// Calls `each` with the readings of one decomposition, held in `r`: one per place the
/// winning tile can take among its concealed sets (`chows` and `pungs`, bits by kind) and
/// its pair.
fn place(
    r: &mut Reading,
    chows: u32,
    pungs: u64,
    win: usize,
    self_draw: bool,
    each: &mut impl FnMut(&Reading, bool),
) {
    let mut first = true;
    // Concealed chows holding the winning tile start on `win - 2`, `win - 1` or `win`; a
    // chow's lowest tile has rank 7 at most, so none of these crosses into another suit.
    let mut holding = ((chows as u64) << 2 >> win) & 0b111;
    while holding != 0 {
        let k = holding.trailing_zeros() as usize;
        holding &= holding - 1;
        let lowest = win + k - 2;
        let rank = lowest % 9 + 1;
        r.wait = match 2 - k {
            1 => WaitShape::Closed,
            0 if rank == 7 => WaitShape::Edge,
            2 if rank == 1 => WaitShape::Edge,
            _ => WaitShape::TwoSided,
        };
        each(r, first);
        first = false;
    }
    if pungs & (1 << win) != 0 {
        // A pung completed by a discard is not concealed.
        let concealed_pungs = r.concealed_pungs;
        if !self_draw {
            r.concealed_pungs -= 1;
        }
        r.wait = WaitShape::DoublePair;
        each(r, first);
        first = false;
        r.concealed_pungs = concealed_pungs;
    }
    if r.pair.is_some_and(|p| p.index() == win) {
        r.wait = WaitShape::Single;
        each(r, first);
    }
}

/// The 尼姑 reading: seven pairs and the triplet, all concealed. Runs of three consecutive
/// pairs in one suit read as two identical chows, which is how the 2015 table can allow
/// 雙龍抱 on it (taiwan16-2015-table.txt:298).
pub(crate) fn eight_pairs_reading(input: &WinInput, self_draw: bool) -> Option<Reading> {
    if input.hand.len() != 17 || !input.melds.is_empty() {
        return None;
    }
    // Eight kinds at most (a kind held four times is two pairs): the usual hand, with a
    // dozen kinds or so, fails here.
    let kinds = input.hand.kinds();
    if kinds.len() > 8 {
        return None;
    }
    let counts = input.hand.counts();
    // Exactly one kind is odd, and it is the triplet.
    let mut odd = kinds.iter().filter(|t| counts[t.index()] % 2 == 1);
    let triplet = odd.next().filter(|t| counts[t.index()] == 3)?;
    if odd.next().is_some() {
        return None;
    }
    let win = input.win_tile?;
    let mut r = Reading::new(ReadingKind::EightPairs);
    r.add_pung(triplet.index(), self_draw || win != triplet);
    r.wait = if win == triplet {
        WaitShape::DoublePair
    } else {
        WaitShape::Single
    };
    let mut pairs = [0u8; 27];
    for (i, p) in pairs.iter_mut().enumerate() {
        *p = counts[i] / 2;
    }
    for s in 0..3 {
        for k in 0..7 {
            let i = 9 * s + k;
            while pairs[i] > 0 && pairs[i + 1] > 0 && pairs[i + 2] > 0 {
                pairs[i] -= 1;
                pairs[i + 1] -= 1;
                pairs[i + 2] -= 1;
                r.add_chows(i, 2);
            }
        }
    }
    Some(r)
}

/// Calls `each` with every 十三么 reading: one per extra set that leaves the thirteen
/// orphans with one of them paired.
pub(crate) fn thirteen_orphans_readings(
    input: &WinInput,
    self_draw: bool,
    mut each: impl FnMut(&Reading, bool),
) {
    const ORPHANS: u64 = TERMINALS | HONORS;
    let Some(win) = input.win_tile else {
        return;
    };
    let held = input.hand.kinds().0;
    // Every orphan held, and at most three other kinds (the extra set): the usual hand
    // fails here, before the scan below.
    if held & ORPHANS != ORPHANS || (held & !ORPHANS).count_ones() > 3 || input.hand.len() != 17 {
        return;
    }
    let counts = input.hand.counts();
    let fits = |rest: &[u8; 34]| {
        let mut total = 0;
        for (i, &c) in rest.iter().enumerate() {
            let orphan = ORPHANS & (1 << i) != 0;
            if (orphan && c == 0) || (!orphan && c != 0) {
                return false;
            }
            total += c;
        }
        total == 14
    };
    for k in 0..34 {
        let t = Tile::ALL[k];
        for chow in [false, true] {
            let mut rest = counts;
            if chow {
                if t.is_honor() || t.rank() > 7 || (0..3).any(|j| rest[k + j] == 0) {
                    continue;
                }
                (0..3).for_each(|j| rest[k + j] -= 1);
            } else {
                if rest[k] < 3 {
                    continue;
                }
                rest[k] -= 3;
            }
            if !fits(&rest) {
                continue;
            }
            let mut r = Reading::new(ReadingKind::ThirteenOrphans);
            let in_set = if chow {
                win.suit() == t.suit() && (k..k + 3).contains(&win.index())
            } else {
                win == t
            };
            if chow {
                r.add_chows(k, 1);
            } else {
                r.add_pung(k, self_draw || !in_set);
            }
            r.wait = match (in_set, chow) {
                (false, _) => WaitShape::Single,
                (true, false) => WaitShape::DoublePair,
                (true, true) => match (win.index() - k, t.rank()) {
                    (1, _) => WaitShape::Closed,
                    (0, 7) | (2, 1) => WaitShape::Edge,
                    _ => WaitShape::TwoSided,
                },
            };
            each(&r, true);
        }
    }
}
