//! A second scorer for taiwan16, written for clarity, not speed (issue 15), and a generator
//! of random winning hands to hold it against `score`.
//!
//! It shares nothing with the production scorer but the tile, hand and meld types: it does
//! not read the variant file, the detectors, the readings or `algo`. The table is copied
//! from taiwan16-common.txt (line numbers below) as shared/rules/README.md reads it
//! ("taiwan16: readings the project adopts"); the hand is read every way it can be (each
//! decomposition of the concealed tiles into sets and a pair, with the winning tile placed
//! in each set or pair that can hold it); each reading's patterns are listed, the table's
//! exclusions applied as written, and the best total kept.

#![allow(dead_code)]

use taisim_score::{Ready, WinInput};
use taisim_sim::{FlowerSet, Hand, Meld, MeldKind, MeldList, Tile, WinContext, Wind};

/// One set of a reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Set {
    /// A run (順子) of `low`, `low + 1`, `low + 2`; otherwise a pung or kong of `low`.
    chow: bool,
    low: usize,
    /// From the concealed hand (a concealed kong counts as concealed too).
    in_hand: bool,
    concealed_kong: bool,
}

impl Set {
    fn holds(&self, kind: usize) -> bool {
        if self.chow {
            (self.low..self.low + 3).contains(&kind)
        } else {
            self.low == kind
        }
    }
}

/// Where the winning tile went in a reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Placed {
    Set(usize),
    Pair,
}

/// The patterns of taiwan16's table, with their tai and exclusions as the text gives them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum P {
    SelfDraw,
    Concealed,
    ConcealedSelfDraw,
    DragonPung,
    RoundWind,
    SeatWind,
    SeatFlower,
    Edge,
    Closed,
    Single,
    RobKong,
    KongBloom,
    LastTile,
    FlowerKong,
    AllMelded,
    HalfMelded,
    AllChows,
    ThreeConcealed,
    AllPungs,
    HalfFlush,
    LittleDragons,
    EarthlyReady,
    FourConcealed,
    FiveConcealed,
    FullFlush,
    LittleFourWinds,
    BigDragons,
    SevenRobOne,
    EightFlowers,
    HeavenlyReady,
    AllHonors,
    BigFourWinds,
    Human,
    Earthly,
    Heavenly,
}

impl P {
    /// Every pattern of the table, in the order above.
    pub const ALL: [P; 35] = [
        P::SelfDraw,
        P::Concealed,
        P::ConcealedSelfDraw,
        P::DragonPung,
        P::RoundWind,
        P::SeatWind,
        P::SeatFlower,
        P::Edge,
        P::Closed,
        P::Single,
        P::RobKong,
        P::KongBloom,
        P::LastTile,
        P::FlowerKong,
        P::AllMelded,
        P::HalfMelded,
        P::AllChows,
        P::ThreeConcealed,
        P::AllPungs,
        P::HalfFlush,
        P::LittleDragons,
        P::EarthlyReady,
        P::FourConcealed,
        P::FiveConcealed,
        P::FullFlush,
        P::LittleFourWinds,
        P::BigDragons,
        P::SevenRobOne,
        P::EightFlowers,
        P::HeavenlyReady,
        P::AllHonors,
        P::BigFourWinds,
        P::Human,
        P::Earthly,
        P::Heavenly,
    ];

    /// Tai per occurrence (taiwan16-common.txt).
    fn tai(self) -> u32 {
        use P::*;
        match self {
            SelfDraw => 1,          // :28
            Concealed => 1,         // :29
            ConcealedSelfDraw => 3, // :30, README: 3 in all
            DragonPung => 1,        // :31
            RoundWind => 1,         // :32
            SeatWind => 1,          // :34
            SeatFlower => 1,        // :36
            Edge => 1,              // :39
            Closed => 1,            // :41
            Single => 1,            // :42
            RobKong => 1,           // :44
            KongBloom => 1,         // :45
            LastTile => 1,          // :48
            FlowerKong => 2,        // :49
            AllMelded => 2,         // :50
            HalfMelded => 1,        // :52
            AllChows => 2,          // :53
            ThreeConcealed => 2,    // :57
            AllPungs => 4,          // :60
            HalfFlush => 4,         // :63
            LittleDragons => 4,     // :66
            EarthlyReady => 4,      // :67
            FourConcealed => 5,     // :68
            FiveConcealed => 8,     // :69
            FullFlush => 8,         // :71
            LittleFourWinds => 8,   // :74
            BigDragons => 8,        // :76
            SevenRobOne => 8,       // :77
            EightFlowers => 8,      // :79
            HeavenlyReady => 8,     // :81
            AllHonors => 16,        // :82
            BigFourWinds => 16,     // :85
            Human => 16,            // :86
            Earthly => 16,          // :88
            Heavenly => 24,         // :90
        }
    }

    /// What this pattern rules out (不計 …), as the text and README say.
    fn excludes(self) -> &'static [P] {
        use P::*;
        match self {
            // README: 門清一摸三 is 3 in all, not 1 + 1 + 3.
            ConcealedSelfDraw => &[SelfDraw, Concealed],
            // :50-52 全求人 / 半求 不計單吊 (README: no wait tai).
            AllMelded | HalfMelded => &[Single, Edge, Closed],
            // README: only the highest of 三/四/五暗刻.
            FourConcealed => &[ThreeConcealed],
            FiveConcealed => &[ThreeConcealed, FourConcealed],
            // :66, :76 不計三元刻.
            LittleDragons => &[DragonPung],
            BigDragons => &[DragonPung, LittleDragons],
            // README: 小四喜 and 大四喜 replace the 圈風刻/門風刻 tai; :85 不計風刻台.
            LittleFourWinds => &[RoundWind, SeatWind],
            BigFourWinds => &[RoundWind, SeatWind, LittleFourWinds],
            // The robber of 七搶一 holds eight flowers; it is not 八仙過海 as well.
            SevenRobOne => &[EightFlowers],
            // :81 天聽 不計門清 (the 門清 part of 門清一摸三 too), 其餘另計; a 天聽 is not
            // also 地聽.
            HeavenlyReady => &[Concealed, ConcealedSelfDraw, EarthlyReady],
            // README: 字一色 replaces 混一色.
            AllHonors => &[HalfFlush],
            _ => &[],
        }
    }
}

/// What a reading pays: each pattern found and how many times.
type Found = Vec<(P, u32)>;

/// The patterns that count: a pattern counts unless a pattern that counts excludes it.
fn apply_exclusions(found: &Found) -> Found {
    fn counts(p: P, found: &Found, depth: usize) -> bool {
        // Exclusions go from higher patterns to lower: the depth never nears the bound.
        assert!(depth < 64, "exclusion cycle at {p:?}");
        !found
            .iter()
            .any(|&(q, _)| q != p && q.excludes().contains(&p) && counts(q, found, depth + 1))
    }
    found
        .iter()
        .copied()
        .filter(|&(p, _)| counts(p, found, 0))
        .collect()
}

const EAST: usize = 27;
const DRAGONS: std::ops::Range<usize> = 31..34;

fn is_honor(kind: usize) -> bool {
    kind >= 27
}

fn is_wind(kind: usize) -> bool {
    (27..31).contains(&kind)
}

fn is_dragon(kind: usize) -> bool {
    DRAGONS.contains(&kind)
}

/// Every way to split `counts` into sets, appended to `out` (each multiset of sets once:
/// the lowest tile left opens either a pung or a run).
fn split_sets(counts: &mut [u8; 34], done: &mut Vec<Set>, out: &mut Vec<Vec<Set>>) {
    let Some(i) = (0..34).find(|&i| counts[i] > 0) else {
        out.push(done.clone());
        return;
    };
    if counts[i] >= 3 {
        counts[i] -= 3;
        done.push(Set {
            chow: false,
            low: i,
            in_hand: true,
            concealed_kong: false,
        });
        split_sets(counts, done, out);
        done.pop();
        counts[i] += 3;
    }
    if !is_honor(i) && i % 9 <= 6 && counts[i + 1] > 0 && counts[i + 2] > 0 {
        for k in 0..3 {
            counts[i + k] -= 1;
        }
        done.push(Set {
            chow: true,
            low: i,
            in_hand: true,
            concealed_kong: false,
        });
        split_sets(counts, done, out);
        done.pop();
        for k in 0..3 {
            counts[i + k] += 1;
        }
    }
}

/// Every (pair, concealed sets) decomposition of a hand.
fn decompositions(counts: &[u8; 34]) -> Vec<(usize, Vec<Set>)> {
    let mut out = Vec::new();
    for pair in 0..34 {
        if counts[pair] < 2 {
            continue;
        }
        let mut rest = *counts;
        rest[pair] -= 2;
        let mut splits = Vec::new();
        split_sets(&mut rest, &mut Vec::new(), &mut splits);
        out.extend(splits.into_iter().map(|s| (pair, s)));
    }
    out
}

fn counts_of(hand: &Hand) -> [u8; 34] {
    let mut c = [0u8; 34];
    for t in hand.tiles() {
        c[t.index()] += 1;
    }
    c
}

/// The kinds a hand of `3k + 1` tiles waits on: those that complete it, leaving out a kind
/// of which the winner already holds all four (hand and melds).
fn waits(before: &[u8; 34], melds: &MeldList) -> usize {
    let mut own = *before;
    for m in melds {
        for t in m.tiles() {
            own[t.index()] += 1;
        }
    }
    (0..34)
        .filter(|&k| {
            if own[k] >= 4 {
                return false;
            }
            let mut c = *before;
            c[k] += 1;
            !decompositions(&c).is_empty()
        })
        .count()
}

/// The best total of `input` under taiwan16, with its patterns; `None` when the tiles do not
/// form a winning hand.
pub fn reference_taiwan16(input: &WinInput) -> Option<(u32, Found)> {
    let ctx: &WinContext = &input.context;
    let self_draw = ctx.self_draw;
    let dealer = input.seat == input.dealer;
    let seat_wind = (input.seat.index() + 4 - input.dealer.index()) % 4;
    let round_wind = input.round_wind.index();

    // :77, :79: a flower win is paid on its flowers only.
    if ctx.flower_win {
        let mut found = Found::new();
        if !self_draw {
            found.push((P::SevenRobOne, 1));
        }
        if input.flowers == FlowerSet::ALL {
            found.push((P::EightFlowers, 1));
        }
        let kept = apply_exclusions(&found);
        return Some((kept.iter().map(|&(p, n)| p.tai() * n).sum(), kept));
    }

    let win = input.win_tile?.index();
    let counts = counts_of(&input.hand);
    let melded: Vec<Set> = input.melds.iter().map(meld_set).collect();
    let concealed = input
        .melds
        .iter()
        .all(|m| m.kind() == MeldKind::ConcealedKong);
    let all_melded = input.hand.len() == 2
        && input
            .melds
            .iter()
            .all(|m| m.kind() != MeldKind::ConcealedKong);
    let mut before = counts;
    before[win] -= 1;
    let one_kind = waits(&before, &input.melds) == 1;

    // Every tile the winner shows or holds, for the suit and honor patterns.
    let mut all_tiles = counts;
    for m in &input.melds {
        for t in m.tiles() {
            all_tiles[t.index()] += 1;
        }
    }
    let honors = (27..34).any(|k| all_tiles[k] > 0);
    let suits = (0..3)
        .filter(|s| (9 * s..9 * s + 9).any(|k| all_tiles[k] > 0))
        .count();

    // Flowers: :36 正花 for the seat's two flowers; :49 花槓 for a full group of four,
    // whose 正花 is then not counted (不計正花).
    let flower_kongs: Vec<u8> = [0x0fu8, 0xf0]
        .into_iter()
        .filter(|&g| input.flowers.0 & g == g)
        .collect();
    let loose = flower_kongs.iter().fold(input.flowers.0, |f, g| f & !g);
    let seat_flowers = (0..8)
        .filter(|&i| loose & (1 << i) != 0 && i % 4 == seat_wind)
        .count() as u32;

    let mut best: Option<(u32, Found)> = None;
    for (pair, sets) in decompositions(&counts) {
        let mut places: Vec<Placed> = (0..sets.len())
            .filter(|&i| sets[i].holds(win))
            .map(Placed::Set)
            .collect();
        if pair == win {
            places.push(Placed::Pair);
        }
        for place in places {
            let mut f = Found::new();
            let mut add = |p: P, n: u32| {
                if n > 0 {
                    f.push((p, n));
                }
            };
            let all_sets: Vec<Set> = sets.iter().chain(&melded).copied().collect();
            let pungs: Vec<usize> = all_sets.iter().filter(|s| !s.chow).map(|s| s.low).collect();
            let chows = all_sets.iter().filter(|s| s.chow).count();

            // How the winning tile completed the hand.
            let (edge, closed, single, two_sided) = match place {
                Placed::Pair => (false, false, true, false),
                Placed::Set(i) if !sets[i].chow => (false, false, false, false),
                Placed::Set(i) => {
                    let pos = win - sets[i].low;
                    let rank = sets[i].low % 9 + 1;
                    let edge = (pos == 2 && rank == 1) || (pos == 0 && rank == 7);
                    (edge, pos == 1, false, !edge && pos != 1)
                }
            };
            // A pung in the hand is concealed (暗刻) unless a discard completed it.
            let concealed_pungs = all_sets
                .iter()
                .enumerate()
                .filter(|&(i, s)| {
                    !s.chow
                        && (s.concealed_kong
                            || (s.in_hand && (self_draw || place != Placed::Set(i))))
                })
                .count() as u32;

            add(P::SelfDraw, self_draw as u32);
            add(P::Concealed, concealed as u32);
            add(P::ConcealedSelfDraw, (concealed && self_draw) as u32);
            add(
                P::DragonPung,
                pungs.iter().filter(|&&k| is_dragon(k)).count() as u32,
            );
            add(P::RoundWind, pungs.contains(&(EAST + round_wind)) as u32);
            add(P::SeatWind, pungs.contains(&(EAST + seat_wind)) as u32);
            add(P::SeatFlower, seat_flowers);
            // README: wait tai only when the hand waited on one kind.
            add(P::Edge, (edge && one_kind) as u32);
            add(P::Closed, (closed && one_kind) as u32);
            add(P::Single, (single && one_kind) as u32);
            add(P::RobKong, ctx.robbing_kong as u32);
            add(
                P::KongBloom,
                (ctx.kong_replacement || ctx.flower_replacement) as u32,
            );
            add(P::LastTile, (ctx.last_tile && self_draw) as u32);
            add(P::FlowerKong, flower_kongs.len() as u32);
            add(P::AllMelded, (all_melded && !self_draw) as u32);
            add(P::HalfMelded, (all_melded && self_draw) as u32);
            // :53 平胡: 無字、無花、無刻、不是偏崁獨、非自摸.
            add(
                P::AllChows,
                (chows == 5 && !honors && input.flowers.is_empty() && two_sided && !self_draw)
                    as u32,
            );
            add(P::ThreeConcealed, (concealed_pungs >= 3) as u32);
            add(P::FourConcealed, (concealed_pungs >= 4) as u32);
            add(P::FiveConcealed, (concealed_pungs >= 5) as u32);
            add(P::AllPungs, (chows == 0) as u32);
            add(P::HalfFlush, (suits == 1 && honors) as u32);
            add(P::FullFlush, (suits == 1 && !honors) as u32);
            add(P::AllHonors, (suits == 0) as u32);
            let dragon_pungs = pungs.iter().filter(|&&k| is_dragon(k)).count();
            let wind_pungs = pungs.iter().filter(|&&k| is_wind(k)).count();
            add(
                P::LittleDragons,
                (dragon_pungs == 2 && is_dragon(pair)) as u32,
            );
            add(P::BigDragons, (dragon_pungs == 3) as u32);
            add(
                P::LittleFourWinds,
                (wind_pungs == 3 && is_wind(pair)) as u32,
            );
            add(P::BigFourWinds, (wind_pungs == 4) as u32);
            // :67 地聽 any declared ready; :81 天聽 the dealer's, on the deal.
            add(P::EarthlyReady, (input.ready != Ready::None) as u32);
            add(
                P::HeavenlyReady,
                (dealer && input.ready == Ready::OnDeal) as u32,
            );
            add(P::Human, ctx.human as u32);
            add(P::Earthly, ctx.earthly as u32);
            add(P::Heavenly, ctx.heavenly as u32);

            let kept = apply_exclusions(&f);
            let total = kept.iter().map(|&(p, n)| p.tai() * n).sum();
            if best.as_ref().is_none_or(|b| total > b.0) {
                best = Some((total, kept));
            }
        }
    }
    best
}

fn meld_set(m: &Meld) -> Set {
    Set {
        chow: m.kind() == MeldKind::Chow,
        low: m.tile().index(),
        in_hand: false,
        concealed_kong: m.kind() == MeldKind::ConcealedKong,
    }
}

/// SplitMix64: the generator's own random numbers, seeded.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability `p` (in hundredths).
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random winning hand of 5 sets and a pair with every circumstance that fits it:
/// melds of every kind, flowers, seats, winds, streaks, self-draw or discard, and the
/// special contexts (天胡, 地胡, 人胡, 搶槓, 槓上開花, 海底, ready declarations, flower wins)
/// only where the seats and melds allow them.
pub fn random_win(rng: &mut Rng) -> WinInput {
    loop {
        if let Some(w) = try_random_win(rng) {
            return w;
        }
    }
}

fn try_random_win(rng: &mut Rng) -> Option<WinInput> {
    // The kinds this hand draws from: a theme makes the rarer patterns (flushes, honor
    // sets, 大三元, 四喜) common enough to be met.
    let theme = rng.below(10);
    let suit = rng.below(3) as usize;
    let allowed = |k: usize| match theme {
        0 | 1 => k / 9 == suit || is_honor(k),        // 混一色
        2 => k / 9 == suit && !is_honor(k),           // 清一色
        3 => is_honor(k) || k % 9 == 0 || k % 9 == 8, // honors and terminals
        4 => is_honor(k) || rng_free_kind(k),
        _ => true,
    };
    let mut pool = [4u8; 34];
    let mut sets: Vec<Set> = Vec::new();
    let pung_bias = if theme == 3 || theme == 4 { 80 } else { 35 };
    let mut tries = 0;
    while sets.len() < 5 {
        tries += 1;
        if tries > 200 {
            return None;
        }
        let k = rng.below(34) as usize;
        if !allowed(k) {
            continue;
        }
        if rng.chance(pung_bias) || is_honor(k) {
            if pool[k] >= 3 {
                pool[k] -= 3;
                sets.push(Set {
                    chow: false,
                    low: k,
                    in_hand: true,
                    concealed_kong: false,
                });
            }
        } else if k % 9 <= 6 && (0..3).all(|j| pool[k + j] > 0) {
            (0..3).for_each(|j| pool[k + j] -= 1);
            sets.push(Set {
                chow: true,
                low: k,
                in_hand: true,
                concealed_kong: false,
            });
        }
    }
    let pair = (0..200)
        .map(|_| rng.below(34) as usize)
        .find(|&k| allowed(k) && pool[k] >= 2)?;
    pool[pair] -= 2;

    // Melds: none in some hands, any number in others; pungs may be kongs.
    let meld_rate = [0, 0, 30, 60, 100][rng.below(5) as usize];
    let seat = Wind::new(rng.below(4) as u8);
    let mut melds = MeldList::new();
    let mut hand = Hand::EMPTY;
    hand.add_n(Tile::new(pair as u8), 2);
    for s in &sets {
        let t = Tile::new(s.low as u8);
        let kong = !s.chow && pool[s.low] >= 1 && rng.chance(20);
        if rng.chance(meld_rate) {
            let kind = match (s.chow, kong) {
                (true, _) => MeldKind::Chow,
                (false, false) => MeldKind::Pung,
                (false, true) => [MeldKind::Kong, MeldKind::AddedKong][rng.below(2) as usize],
            };
            if kong {
                pool[s.low] -= 1;
            }
            melds.push(Meld::new(kind, t, seat.add(3), 0));
        } else if kong && rng.chance(50) {
            pool[s.low] -= 1;
            melds.push(Meld::new(MeldKind::ConcealedKong, t, seat, 0));
        } else if s.chow {
            for j in 0..3 {
                hand.add(Tile::new((s.low + j) as u8));
            }
        } else {
            hand.add_n(t, 3);
        }
    }
    let tiles: Vec<Tile> = hand.tiles().collect();
    let win_tile = tiles[rng.below(tiles.len() as u64) as usize];

    let dealer = Wind::new(rng.below(4) as u8);
    let is_dealer = seat == dealer;
    let mut flowers = FlowerSet::EMPTY;
    match rng.below(10) {
        0..=3 => {}
        4 => flowers = FlowerSet(if rng.chance(50) { 0x0f } else { 0xf0 }),
        _ => {
            for i in 0..8 {
                if rng.chance(25) {
                    flowers = FlowerSet(flowers.0 | 1 << i);
                }
            }
        }
    }
    let self_draw = rng.chance(50);
    let mut context = WinContext {
        self_draw,
        ..WinContext::default()
    };
    let mut discarder = None;
    let no_melds = melds.is_empty();
    let has_kong = melds.iter().any(|m| m.kind().is_kong());
    let mut own = counts_of(&hand);
    for m in &melds {
        for t in m.tiles() {
            own[t.index()] += 1;
        }
    }
    if self_draw {
        if has_kong && rng.chance(25) {
            context.kong_replacement = true;
        } else if !flowers.is_empty() && rng.chance(10) {
            context.flower_replacement = true;
        }
        if no_melds && rng.chance(8) {
            if is_dealer {
                context.heavenly = true;
            } else {
                context.earthly = true;
            }
        }
    } else {
        discarder = Some(seat.add(1 + rng.below(3) as u8));
        // 搶槓: the robbed player held the other three copies.
        if own[win_tile.index()] == 1 && rng.chance(10) {
            context.robbing_kong = true;
        } else if no_melds && !is_dealer && rng.chance(8) {
            context.human = true;
            // On a discard of the first go-round by a seat between the dealer and the
            // winner.
            discarder = Some(dealer.add(rng.below(seat.distance_from(dealer) as u64) as u8));
        }
    }
    // Discards made when the hand went out: the first go-round fixes them for 天胡 (none),
    // 地胡 (one per seat before the winner) and 人胡 (up to the discarder's own).
    let discards = if context.heavenly {
        0
    } else if context.earthly {
        seat.distance_from(dealer)
    } else if context.human {
        discarder.map_or(0, |d| d.distance_from(dealer) + 1)
    } else if context.self_draw || context.flower_win {
        rng.below(40) as u8
    } else {
        // The winning discard is one of them (a robbed kong's pung was claimed from one).
        1 + rng.below(39) as u8
    };
    context.last_tile = !context.heavenly
        && !context.earthly
        && !context.human
        && !context.kong_replacement
        && !context.flower_replacement
        && rng.chance(5);
    // A ready hand is declared with a discard (地聽, the dealer's 天聽): never before a 天胡,
    // 地胡 or 人胡, which come before the winner's first discard. A non-dealer ready on its
    // dealt hand (ready_on_deal) is the 2015 table's 平家天聽 alone; taiwan16 reads it as 地聽.
    let first_go_round = context.heavenly || context.earthly || context.human;
    let ready = if no_melds && !first_go_round && rng.chance(15) {
        if rng.chance(50) {
            Ready::OnDeal
        } else {
            Ready::Declared
        }
    } else {
        Ready::None
    };
    let mut input = WinInput {
        seat,
        dealer,
        round_wind: Wind::new(rng.below(4) as u8),
        streak: rng.below(3) as u8,
        hand,
        melds,
        flowers,
        win_tile: Some(win_tile),
        discarder,
        context,
        ready,
        last_copy: rng.chance(5),
        discards: Some(discards),
        late_fresh_discard: false,
        wild: None,
    };
    // Now and then a flower win instead: 八仙過海 or 七搶一.
    if rng.chance(2) {
        let robbed = rng.chance(50);
        input.win_tile = None;
        input.context = WinContext {
            self_draw: !robbed,
            flower_win: true,
            ..WinContext::default()
        };
        input.flowers = if robbed && rng.chance(50) {
            FlowerSet(FlowerSet::ALL.0 & !(1 << rng.below(8)))
        } else {
            FlowerSet::ALL
        };
        input.discarder = robbed.then(|| seat.add(1 + rng.below(3) as u8));
        input.ready = Ready::None;
    }
    Some(input)
}

/// Theme 4's numbered kinds: the 1, 5 and 9 of each suit, so pungs cluster on few kinds.
fn rng_free_kind(k: usize) -> bool {
    matches!(k % 9, 0 | 4 | 8)
}
