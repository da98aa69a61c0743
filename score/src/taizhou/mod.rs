//! 台州 scoring: the 胡数 and 台数 tables of taizhou.md read as shared/rules/README.md
//! ("taizhou: readings the project adopts") says, over every reading of a hand with wilds.
//!
//! A variant that counts any pattern of [`TAIZHOU_FAMILY`] is scored here rather than by the
//! detectors of `detect.rs`: those read hands without wilds, and the 台州 tables grade sets by
//! how they were made (明刻 or 暗刻, 明杠 or 暗杠) and by their tiles (幺九 or not), which the
//! bit-mask readings do not keep. The winner's reading ([`score_win`]), the other players'
//! values ([`value`]) and 全包 ([`liability`]) each have a module.

mod groups;
pub(crate) mod liability;
pub(crate) mod value;

use arrayvec::ArrayVec;
use taisim_sim::algo::{for_each_decomposition, HandRules, Set, Wild};
use taisim_sim::{Meld, MeldKind, Tile};

use super::breakdown::Score;
use super::context::WinInput;
use super::detect::Counts;
use super::error::ScoreError;
use super::pattern::{PatternId, PatternSet, TAIZHOU_READ};
use super::reading::{ReadingKind, WaitShape};
use super::total::{counted_patterns, finish, for_each_bit, rank, Best};
use super::variant::Variant;
use groups::{Group, Groups, Naturals};

use PatternId::*;

/// The 胡 of one set by how it was made and whether its face is a terminal or honor
/// (taizhou.md 胡数: 明刻 2 / 4, 暗刻 4 / 8, 明杠 8 / 16, 暗杠 16 / 32).
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Made {
    ExposedPung,
    ConcealedPung,
    ExposedKong,
    ConcealedKong,
}

impl Made {
    pub(crate) const fn pattern(self, face: Tile) -> PatternId {
        let outside = face.is_terminal_or_honor();
        match (self, outside) {
            (Made::ExposedPung, false) => ExposedPung,
            (Made::ExposedPung, true) => ExposedPungTerminal,
            (Made::ConcealedPung, false) => ConcealedPung,
            (Made::ConcealedPung, true) => ConcealedPungTerminal,
            (Made::ExposedKong, false) => ExposedKong,
            (Made::ExposedKong, true) => ExposedKongTerminal,
            (Made::ConcealedKong, false) => ConcealedKong,
            (Made::ConcealedKong, true) => ConcealedKongTerminal,
        }
    }

    /// How a claimed meld was made (a chow is no pung).
    pub(crate) const fn of_meld(kind: MeldKind) -> Option<Made> {
        match kind {
            MeldKind::Chow => None,
            MeldKind::Pung => Some(Made::ExposedPung),
            MeldKind::Kong | MeldKind::AddedKong => Some(Made::ExposedKong),
            MeldKind::ConcealedKong => Some(Made::ConcealedKong),
        }
    }
}

/// Pattern multiplicities and the suits and honors of the faces seen, built set by set.
#[derive(Copy, Clone)]
pub(crate) struct Tally {
    pub counts: Counts,
    /// Numbered suits of the faces, one bit each.
    pub suits: u8,
    pub honors: bool,
    pub chows: u8,
}

impl Tally {
    pub(crate) const fn new() -> Tally {
        Tally {
            counts: [0; PatternId::COUNT],
            suits: 0,
            honors: false,
            chows: 0,
        }
    }

    #[inline]
    pub(crate) fn add(&mut self, p: PatternId) {
        self.counts[p.index()] += 1;
    }

    #[inline]
    pub(crate) fn see(&mut self, face: Tile) {
        if face.is_honor() {
            self.honors = true;
        } else {
            self.suits |= 1 << (face.index() / 9);
        }
    }

    /// A pung or kong of `face` made as `made`: its 胡, and its 台 as 门风刻 or 字牌刻
    /// (taizhou.md 台数 "门风刻(含杠) 字牌刻(含杠) 1台"; 字牌 are 中发白, :字牌：红中、发财、白板).
    pub(crate) fn pung(&mut self, face: Tile, made: Made, seat_wind: Tile) {
        self.see(face);
        self.add(made.pattern(face));
        if face == seat_wind {
            self.add(SeatWindSet);
        }
        if face.is_dragon() {
            self.add(DragonSet);
        }
    }

    pub(crate) fn chow(&mut self, lowest: Tile) {
        self.see(lowest);
        self.chows += 1;
    }

    /// 清一色 3 and 混一色 1 on the faces seen: one numbered suit, without or with honors
    /// (taizhou.md 台数). A 白板 read as the wild's face shows the wild's suit, so it keeps a
    /// 清一色 only when the wild is of the hand's suit; read as itself it is an honor, and the
    /// hand is 混一色 at most ("如果有白板，那么得牌也是同一花色…才能算清一色，不然只能算混一色").
    pub(crate) fn flush(&mut self) {
        if self.suits.count_ones() == 1 {
            self.add(if self.honors { HalfFlush } else { FullFlush });
        }
    }

    /// The patterns found that the variant counts, with their 胡 and 台.
    pub(crate) fn total(&self, variant: &Variant) -> (PatternSet, u32, u32) {
        let mut found = 0;
        for p in PatternId::ALL {
            if self.counts[p.index()] != 0 {
                found |= p.bit();
            }
        }
        let kept = counted_patterns(found & variant.enabled(), variant);
        let (mut hu, mut tai) = (0u32, 0u32);
        for_each_bit(kept, |p| {
            let n = self.counts[p.index()] as u32;
            hu += variant.pattern_hu(p) as u32 * n;
            tai += variant.tai(p) as u32 * n;
        });
        (kept, hu, tai)
    }
}

/// Scores a win under the 台州 tables: every reading of the hand (every decomposition with
/// its wilds' faces, every place the winning tile can take), the one of highest value kept
/// (shared/rules/README.md "Scoring uses the decomposition … that scores highest").
pub(crate) fn score_win(input: &WinInput, variant: &Variant) -> Result<Score, ScoreError> {
    if let Some(&p) = PatternId::ALL
        .iter()
        .find(|p| variant.enabled() & p.bit() & !TAIZHOU_READ != 0)
    {
        return Err(ScoreError::MixedTables(p));
    }
    let win = input.win_tile.ok_or(ScoreError::NoWinTile)?;
    let wild = input.wild_rules();
    let seat_wind = input.seat_wind().tile();
    let self_draw = input.context.self_draw;

    // The claimed melds and the facts of the win, the same for every reading of the hand; a
    // claimed pung or kong of 白板 read either way (README "白板").
    let mut bases: ArrayVec<Tally, 2> = ArrayVec::new();
    for white_as_face in [true, false]
        .into_iter()
        .take(meld_readings(&input.melds, wild))
    {
        let mut base = Tally::new();
        for m in &input.melds {
            let face = meld_face(m, wild, white_as_face);
            match Made::of_meld(m.kind()) {
                Some(made) => base.pung(face, made, seat_wind),
                None => base.chow(face),
            }
        }
        if self_draw {
            // 自摸 2胡 ("杠开算自摸": a kong replacement is a self-draw).
            base.add(SelfDraw);
        }
        bases.push(base);
    }
    // 无得: no wild held, or every wild read as its own kind with no 白板 held (taizhou.md
    // 台数 "没有任何得牌或者得牌能还原, 还原的情况中不能含白板"), whichever way the 白板 is read.
    // When the turned-up tile is 白板 the wilds are white dragons, so restoring them always
    // holds 白板. A chow meld showing the wild's face holds the 白板 standing for it.
    let holds_white = input.hand.count(Tile::WHITE) > 0
        || input.melds.iter().any(|m| {
            m.count(Tile::WHITE) > 0
                || wild.is_some_and(|w| {
                    w.stand_in().is_some() && m.kind() == MeldKind::Chow && m.count(w.kind()) > 0
                })
        });
    let held_wilds = wild.map_or(0, |w| input.hand.count(w.kind()));

    let sets = variant.rules().sets.saturating_sub(input.melds.len() as u8);
    let mut rules = HandRules::regular(sets);
    if let Some(w) = wild {
        rules = rules.with_wild(w);
    }
    let mut best: Option<Best> = None;
    // Every reading: every decomposition of every split of the 白板 held (each read as the
    // wild's face or as itself), with each reading of a claimed 白板 pung.
    for_each_decomposition(&input.hand, rules, |d| {
        let groups = Groups::of(d);
        let naturals = Naturals::of_reading(d, wild);
        // The faces the winning tile may show in this reading: a wild none (it takes a
        // wild's face), a 白板 whichever of its faces the reading gives a natural.
        let win_faces: ArrayVec<Option<Tile>, 2> = match groups::faces_of(win, wild).as_slice() {
            [] => [None].into_iter().collect(),
            faces => faces
                .iter()
                .filter(|f| naturals.faces[f.index()] > 0)
                .map(|&f| Some(f))
                .collect(),
        };
        for base in &bases {
            let mut t = *base;
            for s in &d.sets {
                if let Set::Chow(l) = *s {
                    t.chow(l);
                } else if let Set::Pung(f) = *s {
                    t.see(f);
                }
            }
            t.see(d.pair);
            t.add(if d.pair == seat_wind {
                SeatWindPair
            } else if d.pair.is_dragon() {
                DragonPair
            } else {
                PlainPair
            });
            if t.chows == 0 {
                t.add(AllPungs);
            }
            t.flush();
            let restored = wild.is_some_and(|w| d.wilds.iter().all(|&f| f == w.kind()));
            if held_wilds == 0 || (restored && !holds_white) {
                t.add(NoWild);
            }
            // Each place the winning tile can take: the group holding it (and, for a wild,
            // the face it is read as there).
            for &win_face in &win_faces {
                groups.for_each_placement(&naturals, win_face, &d.wilds, |holder, middle| {
                    let mut r = t;
                    for (i, s) in d.sets.iter().enumerate() {
                        if let Set::Pung(f) = *s {
                            // A pung completed by a discard is not concealed (taizhou.md 暗刻:
                            // "自己摸3张相同牌且未明牌").
                            let made = if holder == i && !self_draw {
                                Made::ExposedPung
                            } else {
                                Made::ConcealedPung
                            };
                            r.pung(f, made, seat_wind);
                        }
                    }
                    if middle {
                        // 嵌档胡 2胡: the winning tile in the middle of a chow of this reading,
                        // also when the hand had other waits (README, second example).
                        r.add(MiddleWait);
                    }
                    let (kept, hu, tai) = r.total(variant);
                    let rank = rank(variant, tai, hu);
                    if best.as_ref().is_none_or(|b| rank > b.rank) {
                        best = Some(Best {
                            rank,
                            total: tai,
                            hu,
                            kept,
                            counts: r.counts,
                            wait: groups.wait_shape(holder, middle, win_face),
                            kind: ReadingKind::Regular,
                        });
                    }
                });
            }
        }
    });
    let best = best.ok_or(ScoreError::NotAWin)?;
    let mut s = finish(variant, best, 0);
    // 勒子: the cap reached; it adds no 台 (README "taizhou", 胡数).
    if s.capped && variant.has(PointsCap) {
        s.patterns.push(super::breakdown::PatternTai {
            id: PointsCap,
            count: 1,
            tai: 0,
            hu: 0,
        });
    }
    Ok(s)
}

/// How many ways the claimed melds read: two when one is a pung or kong of the stand-in (白板,
/// read as the wild kind's face or as itself; four copies make one such meld at most), else
/// one.
pub(crate) fn meld_readings(melds: &[Meld], wild: Option<Wild>) -> usize {
    let stand_in = wild.and_then(Wild::stand_in);
    if melds
        .iter()
        .any(|m| m.kind() != MeldKind::Chow && Some(m.tile()) == stand_in)
    {
        2
    } else {
        1
    }
}

/// The face claimed meld `m` shows: a pung or kong of 白板 the wild kind's face when
/// `white_as_face`, else itself ("可以作为自身，也可以做为当前的得牌"); any other meld its own
/// tiles (a chow's face of the wild kind is the 白板 standing for it).
pub(crate) fn meld_face(m: &Meld, wild: Option<Wild>, white_as_face: bool) -> Tile {
    match wild {
        Some(w)
            if white_as_face && m.kind() != MeldKind::Chow && Some(m.tile()) == w.stand_in() =>
        {
            w.kind()
        }
        _ => m.tile(),
    }
}

/// The wait shape of a reading, for the breakdown: where the winning tile went.
pub(crate) fn shape(group: Group, middle: bool, win_face: Option<Tile>) -> WaitShape {
    match group {
        Group::Pair(_) => WaitShape::Single,
        Group::Pung(_) => WaitShape::DoublePair,
        Group::Chow(_) if middle => WaitShape::Closed,
        Group::Chow(l) => match win_face {
            Some(f)
                if (l.rank() == 1 && f.index() == l.index() + 2)
                    || (l.rank() == 7 && f.index() == l.index()) =>
            {
                WaitShape::Edge
            }
            _ => WaitShape::TwoSided,
        },
    }
}
