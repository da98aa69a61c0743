//! The observation tensor: what one seat sees, as `(channels, 34)` planes of `f32`, versioned.
//!
//! The layout follows Mortal's `obs_repr`: one row per feature, one column per tile kind (the
//! 34 kinds in the engine's order `1m..9m 1p..9p 1s..9s E S W N P F C`), so a 1-D convolution
//! over kinds sees suits as neighbourhoods. Seats are numbered relative to the observer in
//! turn order: `r = 0` the observer, `1` the next seat (下家), `2` across, `3` the previous
//! seat (上家, whose discards the observer may chow). Every value lies in `[0, 1]`.
//!
//! Version 4, shape `(65, 34)`; version 3 was rows `0..64` alone, before the claim row,
//! version 2 rows `0..60`, before the hand-efficiency rows, and version 1 rows `0..59`,
//! before the wild row:
//!
//! | rows      | feature (per kind unless stated)                                            |
//! |-----------|-----------------------------------------------------------------------------|
//! | `0..4`    | own concealed hand: count ≥ 1, ≥ 2, ≥ 3, = 4                                |
//! | `4`       | the tile just drawn (one-hot; own turn only)                                 |
//! | `5`       | the tile on offer (one-hot; a discard or a kong being added, when answering) |
//! | `6`       | own waits (the kinds that complete the hand; empty while holding `3k + 2`)   |
//! | `7`       | copies visible to the observer / 4 (own hand, face-up melds, river)          |
//! | `8 + 4r ..` | seat `r`'s melds: `+0` copies in chows / 4, `+1` pung, `+2` exposed or added kong, `+3` concealed kong (own only: others' are face down, counted in the scalars) |
//! | `24 + 7r ..` | seat `r`'s river: `+0` copies it has discarded / 4 (claimed ones included), `+1..+7` its last six discards one-hot, most recent first |
//! | `52 + (r - 1)` | for each opponent `r = 1..3`: kinds discarded by anyone since its last discard (it passed them; under 過水 none can win now) |
//! | `55`      | own seat wind (one-hot on its wind tile)                                     |
//! | `56`      | round wind (one-hot on its wind tile)                                        |
//! | `57`      | flowers: column `8r + f` is 1 when seat `r` has shown flower `f` (`f1` = 0); columns 32–33 zero |
//! | `58`      | scalars by column, below                                                     |
//! | `59`      | the wild kind (得牌; one-hot on the indicator's kind, all zero without a wild) |
//! | `60`      | discard turn: 1 on each held kind whose discard leaves the least shanten      |
//! | `61`      | discard turn: per held kind, (shanten after discarding it − that least) / 4, capped at 1 |
//! | `62`      | discard turn: per kind of row `60`, the ukeire after discarding it / 128, capped at 1 |
//! | `63`      | own shanten, one-hot on column `min(shanten, 33)`                            |
//! | `64`      | answering a discard: by claim, the shanten it leaves against the hand's now, below |
//!
//! Scalar row (58): columns `0..4` the dealer (one-hot by `r`); `4` the dealer's streak (連莊)
//! / 8, capped at 1; `5` tiles still drawable / 64, capped at 1; `6..10` declared ready (by
//! `r`); `10..14` concealed tiles held / 17 (by `r`); `14..18` concealed kongs laid face down
//! / 5 (by `r`; 0 for the observer, whose are in its meld rows); `18` the observer is barred
//! by 過水; `19` it is the observer's turn; `20` the observer answers a discard or a kong;
//! `21` it may rob a flower (七搶一); `22` discards in the river / 136; `23..34` zero.
//!
//! The wild indicator itself is face up, so it counts among the visible copies (row `7`).
//! Under a wild, the hand rows count copies of the wild kind held: the observer's wilds.
//!
//! Claim row (64, version 4): when the observer answers a discard, column `c` describes the
//! claim whose action is `CHOW + c` (`c` = 0, 1, 2: the chow in which the offered tile is the
//! lowest, middle or highest; 3 the pung, 4 the kong), where the hand holds the tiles it
//! takes (whether the rules let the observer make it is the action mask's business):
//! `(shanten after the claim − shanten now + 2) / 4`, capped at 1. So 0.25 is a claim that
//! brings the hand one step nearer ready (the only claims greedy makes), 0.5 one that leaves
//! it as far, 0.75 and 1 ones that set it back; 0 no such claim. The shanten after a claim
//! is greedy's measure: the concealed tiles left, one set fewer to form (for a chow or pung,
//! the best discard it must then make). Without it a policy must work out from the hand rows
//! alone what a claim does to the hand, and cloned and distilled policies judged claims
//! worst of all their decisions (agents/policies/README.md).
//!
//! Hand efficiency (rows `60..64`, version 3) is what the greedy agent decides by, measured
//! the same way ([`hand_rules`]: the deal's special hands and wild): a "discard turn" is an
//! observation whose concealed hand holds `3k + 2` tiles (`k` the sets it must still form),
//! i.e. the observer must discard (or may win or kong); rows `60..63` are zero otherwise.
//! Ukeire counts the copies the observer has not seen (`4 −` row `7`'s count) of the kinds
//! whose draw lowers the shanten of the hand the discard leaves; it is given only for the
//! discards at the least shanten (row `60`), the ones greedy ranks by it: for every held kind
//! the ukeire cost 1.9 times as much, and the whole encoder 18% more (callgrind, 2000 random
//! deals recorded with `--decisions all`). Row `63`'s shanten is the
//! waiting hand's: on a discard turn the least after a discard, otherwise (`3k + 1` tiles)
//! the hand's own; all zero for a hand of any other length.
//!
//! A new layout gets a new [`OBS_VERSION`]; [`obs_shape`] answers for every version this
//! build knows, and a trained policy records the version it was trained on. Only the
//! current version is encoded. Versions 2 and 3 are prefixes of it (rows only appended), so
//! a version-2 policy reads the first 60 rows and a version-3 one the first 64; a version-1 file is refused by name
//! ([`PolicyError::ObsVersion`](crate::PolicyError::ObsVersion)): its policies were trained
//! before the wild row and would play taizhou blind to the wild, which is why version 2
//! refused them.

use ndarray::ArrayViewMut2;
use taisim_sim::algo::{self, Discards};
use taisim_sim::{seat_wind, Discard, MeldKind, Seat, Tile, TileSet, View};

use crate::efficiency::discard_ukeire;
use crate::knowledge::{hand_rules, relative, sets_needed, unseen_counts, Claim};

/// The current observation layout.
pub const OBS_VERSION: u32 = 4;
/// Rows of the current layout.
pub const OBS_CHANNELS: usize = 65;
/// Columns: one per tile kind.
pub const OBS_WIDTH: usize = Tile::NUM;
/// Values in one observation (`OBS_CHANNELS * OBS_WIDTH`).
pub const OBS_LEN: usize = OBS_CHANNELS * OBS_WIDTH;

/// The shape `(channels, width)` of observation layout `version`, or `None` for a version
/// this build does not know.
pub const fn obs_shape(version: u32) -> Option<[usize; 2]> {
    match version {
        // The layout before the wild row (no longer encoded).
        1 => Some([59, OBS_WIDTH]),
        // Before the hand-efficiency rows: a prefix of the current layout.
        2 => Some([60, OBS_WIDTH]),
        // Before the claim row: a prefix of the current layout.
        3 => Some([64, OBS_WIDTH]),
        4 => Some([OBS_CHANNELS, OBS_WIDTH]),
        _ => None,
    }
}

/// Row offsets of the current layout (see the module table).
pub mod channel {
    /// Own hand thresholds (4 rows).
    pub const HAND: usize = 0;
    pub const DRAWN: usize = 4;
    pub const OFFER: usize = 5;
    pub const WAITS: usize = 6;
    pub const VISIBLE: usize = 7;
    /// Melds, 4 rows per relative seat.
    pub const MELDS: usize = 8;
    pub const MELD_ROWS: usize = 4;
    /// River, 7 rows per relative seat.
    pub const RIVER: usize = 24;
    pub const RIVER_ROWS: usize = 7;
    /// How many recent discards per seat the river rows keep.
    pub const RECENT: usize = 6;
    /// Safe kinds against opponents 1..3 (3 rows).
    pub const SAFE: usize = 52;
    pub const SEAT_WIND: usize = 55;
    pub const ROUND_WIND: usize = 56;
    pub const FLOWERS: usize = 57;
    pub const SCALARS: usize = 58;
    /// The wild kind, one-hot (version 2).
    pub const WILD: usize = 59;
    /// Discard turn: the kinds whose discard leaves the least shanten (version 3).
    pub const BEST_DISCARD: usize = 60;
    /// Discard turn: shanten after each discard above the least, / 4 (version 3).
    pub const SHANTEN_AFTER: usize = 61;
    /// Discard turn: ukeire after each discard, / [`UKEIRE_SCALE`](super::UKEIRE_SCALE)
    /// (version 3).
    pub const UKEIRE_AFTER: usize = 62;
    /// Own shanten, one-hot (version 3).
    pub const SHANTEN: usize = 63;
    /// Answering a discard: each claim's shanten against the hand's now (version 4).
    pub const CLAIM_AFTER: usize = 64;
}

/// The denominator of the ukeire row: more than the most copies a hand can leave unseen
/// (136 less the 16 it holds less the wild indicator or a discard), so the cap at 1 is a
/// guard, not a loss; a power of two, so every value is exact in `f32`.
pub const UKEIRE_SCALE: u32 = 128;

/// Columns of the scalar row.
pub mod scalar {
    pub const DEALER: usize = 0;
    pub const STREAK: usize = 4;
    pub const DRAWABLE: usize = 5;
    pub const READY: usize = 6;
    pub const HAND_LEN: usize = 10;
    pub const HIDDEN_KONGS: usize = 14;
    pub const MISSED: usize = 18;
    pub const TURN: usize = 19;
    pub const RESPONDING: usize = 20;
    pub const ROB_FLOWER: usize = 21;
    pub const RIVER_LEN: usize = 22;
}

/// The buffer given to [`encode`] has the wrong shape.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("observation buffer has shape {found:?}, expected {expected:?} (version {OBS_VERSION})")]
pub struct ObsShapeError {
    pub found: [usize; 2],
    pub expected: [usize; 2],
}

/// Writes the observation of `view`'s seat into `out` (shape [`obs_shape`]`(OBS_VERSION)`),
/// overwriting all of it. Allocates nothing: a buffer in standard (row-major, contiguous)
/// layout is written in place, any other layout through a stack copy.
pub fn encode(view: &View<'_>, mut out: ArrayViewMut2<'_, f32>) -> Result<(), ObsShapeError> {
    let found = [out.nrows(), out.ncols()];
    if found != [OBS_CHANNELS, OBS_WIDTH] {
        return Err(ObsShapeError {
            found,
            expected: [OBS_CHANNELS, OBS_WIDTH],
        });
    }
    if let Some(slice) = out.as_slice_mut() {
        encode_slice(view, slice);
    } else {
        let mut buf = [0f32; OBS_LEN];
        encode_slice(view, &mut buf);
        for (dst, src) in out.iter_mut().zip(buf) {
            *dst = src;
        }
    }
    Ok(())
}

/// Writes the observation of `view`'s seat into `out`, row-major.
///
/// # Panics
/// If `out.len() != OBS_LEN`.
pub fn encode_slice(view: &View<'_>, out: &mut [f32]) {
    let mut river = River::new();
    river.catch_up(view.discards());
    write(view, &river, out);
}

/// An encoder that keeps what it learnt from the river between calls, so that each call
/// takes in only the discards made since the last one instead of walking the whole river
/// (most of a full encoding's work late in a deal). Its output is exactly
/// [`encode_slice`]'s.
///
/// What it keeps depends on the discards alone, not on the observing seat, so one encoder
/// may serve any seat of a deal. It must be told when the deal is replaced by another
/// ([`ObsEncoder::forget`]): it recognises a river that shrank or a last discard that
/// changed, but not a different deal whose river happens to extend the old one. Debug
/// builds check every call against a river read from scratch.
#[derive(Clone, Debug)]
pub struct ObsEncoder {
    river: River,
}

impl Default for ObsEncoder {
    fn default() -> ObsEncoder {
        ObsEncoder::new()
    }
}

impl ObsEncoder {
    pub fn new() -> ObsEncoder {
        ObsEncoder {
            river: River::new(),
        }
    }

    /// Forgets the river: the next call reads it from the start. Call it when the encoder
    /// moves to another deal.
    pub fn forget(&mut self) {
        self.river = River::new();
    }

    /// [`encode_slice`], taking in only the discards made since the last call.
    ///
    /// # Panics
    /// If `out.len() != OBS_LEN`.
    pub fn encode_slice(&mut self, view: &View<'_>, out: &mut [f32]) {
        self.river.update(view.discards());
        debug_assert!(
            {
                let mut fresh = River::new();
                fresh.catch_up(view.discards());
                fresh == self.river
            },
            "incremental river state differs from one read from scratch"
        );
        write(view, &self.river, out);
    }
}

/// What the observation needs from the river, kept by absolute seat so that it holds for
/// any observer and grows discard by discard.
#[derive(Clone, Debug, PartialEq)]
struct River {
    /// Discards taken in so far.
    len: usize,
    /// The last of them as it was taken in: the only one whose claimed flag can still change
    /// (a discard is claimed while on offer, before anyone discards again).
    last: Option<Discard>,
    /// Per seat, copies of each kind it has discarded (claimed ones included) / 4, in the
    /// observation's own units so that writing a row is a copy.
    counts: [[f32; OBS_WIDTH]; 4],
    /// Per seat, its last discards, one kind index per byte, most recent in the low byte.
    recent: [u64; 4],
    /// How many of those bytes are meaningful (at most [`channel::RECENT`]).
    recent_len: [u8; 4],
    /// Per seat that has discarded: the kinds discarded by anyone after its last discard.
    safe: [TileSet; 4],
    /// The seats that have discarded, as bits.
    discarded: u8,
}

impl River {
    fn new() -> River {
        River {
            len: 0,
            last: None,
            counts: [[0.0; OBS_WIDTH]; 4],
            recent: [0; 4],
            recent_len: [0; 4],
            safe: [TileSet::EMPTY; 4],
            discarded: 0,
        }
    }

    /// Takes in `river[self.len..]`, first checking that the discards taken in are still
    /// there (only the last one's claimed flag may differ); if not, starts over.
    fn update(&mut self, river: &[Discard]) {
        if let Some(last) = self.last {
            match river.get(self.len - 1) {
                Some(&now) if now == last => {}
                Some(&now)
                    if now.tile() == last.tile()
                        && now.seat() == last.seat()
                        && now.is_ready_declaration() == last.is_ready_declaration()
                        && now.is_claimed()
                        && !last.is_claimed() =>
                {
                    // Claimed since: nothing kept here depends on the flag.
                    self.last = Some(now);
                }
                _ => *self = River::new(),
            }
        }
        self.catch_up(river);
    }

    /// Takes in `river[self.len..]`.
    fn catch_up(&mut self, river: &[Discard]) {
        for &d in river.get(self.len..).unwrap_or_default() {
            self.push(d);
        }
        self.len = river.len();
        self.last = river.last().copied();
    }

    #[inline]
    fn push(&mut self, d: Discard) {
        let s = d.seat() as usize;
        let t = d.tile();
        let i = t.index();
        self.counts[s][i] += 0.25;
        self.recent[s] = self.recent[s] << 8 | i as u64;
        self.recent_len[s] = (self.recent_len[s] + 1).min(channel::RECENT as u8);
        // Every other seat that has discarded sees this tile after its own last discard.
        for (o, safe) in self.safe.iter_mut().enumerate() {
            let had = (self.discarded >> o) & 1;
            safe.0 |= (had as u64) << i;
        }
        self.safe[s] = TileSet::EMPTY;
        self.discarded |= 1 << s;
    }
}

/// `TABLE[n] = n × (1 / D)` for `n` in `0..N`, rounded to `f32`. A `divss` per scalar was
/// the costliest line of [`write`] (its latency sits in the chain of stores to the scalar
/// row); a load from these tables is not. A product, not the quotient `n / D`: the
/// decisions table stores `n` and its readers get the value back as `n × (1 / D)` in `f32`,
/// which for `D = 136` differs from the quotient in the last bit at seven `n` (33, 49, …);
/// for the other denominators the two agree everywhere.
const fn fractions<const N: usize>(d: f32) -> [f32; N] {
    let mut t = [0f32; N];
    let scale = 1.0 / d;
    let mut n = 0;
    while n < N {
        t[n] = n as f32 * scale;
        n += 1;
    }
    t
}

/// Shanten above the least after a discard / 4, capped at 4.
const QUARTERS: [f32; 5] = fractions(4.0);
/// Concealed kongs laid face down / 5: a seat has at most five melds (`MeldList`'s bound).
const FIFTHS: [f32; 6] = fractions(5.0);
/// Concealed tiles held / 17 (at most `3 * 5 + 2`).
const SEVENTEENTHS: [f32; 18] = fractions(17.0);
/// The dealer's streak / 8, the streak capped at 8.
const EIGHTHS: [f32; 9] = fractions(8.0);
/// Drawable tiles / 64, capped at 64.
const SIXTY_FOURTHS: [f32; 65] = fractions(64.0);
/// Discards in the river / 136 (every tile discarded at most once).
const RIVER_FRACTIONS: [f32; 137] = fractions(136.0);

/// Copies one 34-value row. A plain `copy_from_slice` of 136 bytes is one more 16-byte move
/// than LLVM inlines, so it became a `memcpy` call: five a step, 4% of a single-agent step's
/// time in a perf profile. Two copies of 128 and 8 bytes are each inlined as moves.
#[inline(always)]
fn copy_row(dst: &mut [f32], src: &[f32; OBS_WIDTH]) {
    const HEAD: usize = 32;
    let dst: &mut [f32; OBS_WIDTH] = dst.try_into().expect("a row");
    dst[..HEAD].copy_from_slice(&src[..HEAD]);
    dst[HEAD..].copy_from_slice(&src[HEAD..]);
}

/// Writes the observation of `view`'s seat, with the river read from `river`.
fn write(view: &View<'_>, river: &River, out: &mut [f32]) {
    use channel::*;
    let out: &mut [f32; OBS_LEN] = out.try_into().expect("observation slice length");
    out.fill(0.0);
    let me = view.seat();
    let row = |c: usize| c * OBS_WIDTH;

    let hand = view.hand();
    let counts = hand.counts();
    // Only the kinds held (at most 17), four unconditional stores each from a table: cheaper
    // than a loop over every kind or a loop per copy (measured).
    const THRESHOLDS: [[f32; 4]; 5] = [
        [0.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
        [1.0, 1.0, 0.0, 0.0],
        [1.0, 1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    for t in hand.kinds() {
        let i = t.index();
        let th = &THRESHOLDS[(counts[i] as usize).min(4)];
        for (k, &v) in th.iter().enumerate() {
            out[row(HAND + k) + i] = v;
        }
    }
    // Each of these asks the deal whose decision it is: ask once.
    let offer = view.tile_on_offer();
    let flower_offer = view.flower_on_offer();
    if let Some(t) = view.drawn_tile() {
        out[row(DRAWN) + t.index()] = 1.0;
    }
    if let Some(t) = offer {
        out[row(OFFER) + t.index()] = 1.0;
    }
    for t in view.waits() {
        out[row(WAITS) + t.index()] = 1.0;
    }

    let mut scalars = [0f32; OBS_WIDTH];
    for seat in Seat::ALL {
        let r = relative(seat, me);
        let base = row(MELDS + MELD_ROWS * r);
        let mut hidden = 0u8;
        for m in view.melds(seat) {
            let Some(t) = m.tile else {
                hidden += 1;
                continue;
            };
            let i = t.index();
            match m.kind {
                MeldKind::Chow => {
                    for k in 0..3 {
                        out[base + i + k] += 0.25;
                    }
                }
                MeldKind::Pung => out[base + OBS_WIDTH + i] = 1.0,
                MeldKind::Kong | MeldKind::AddedKong => out[base + 2 * OBS_WIDTH + i] = 1.0,
                MeldKind::ConcealedKong => out[base + 3 * OBS_WIDTH + i] = 1.0,
            }
        }
        scalars[scalar::HIDDEN_KONGS + r] = FIFTHS[hidden as usize];
        scalars[scalar::READY + r] = view.declared_ready(seat) as u8 as f32;
        scalars[scalar::HAND_LEN + r] = SEVENTEENTHS[view.hand_len(seat)];
        let mut flowers = view.flowers(seat).0;
        while flowers != 0 {
            out[row(FLOWERS) + 8 * r + flowers.trailing_zeros() as usize] = 1.0;
            flowers &= flowers - 1;
        }
    }

    // The river, from what `river` gathered: each seat's discard counts (a copy of rows kept
    // in the observation's units), its recent discards, the kinds discarded after each
    // opponent's last discard.
    for seat in Seat::ALL {
        let s = seat as usize;
        let r = relative(seat, me);
        let base = row(RIVER + RIVER_ROWS * r);
        copy_row(&mut out[base..base + OBS_WIDTH], &river.counts[s]);
        let mut recent = river.recent[s];
        for k in 0..river.recent_len[s] as usize {
            out[base + row(1 + k) + (recent & 0xff) as usize] = 1.0;
            recent >>= 8;
        }
        if r > 0 {
            for t in river.safe[s] {
                out[row(SAFE + r - 1) + t.index()] = 1.0;
            }
        }
    }
    // Copies seen by the observer, as the deal keeps them (`visible_counts`, which the
    // ukeire row counts by too).
    let seen = view.seen_counts();
    let dst = &mut out[row(VISIBLE)..row(VISIBLE + 1)];
    for (d, &n) in dst.iter_mut().zip(&seen) {
        *d = n as f32 * 0.25;
    }

    let ctx = view.context();
    out[row(SEAT_WIND) + seat_wind(me, ctx.dealer).tile().index()] = 1.0;
    out[row(ROUND_WIND) + ctx.round_wind.tile().index()] = 1.0;
    if let Some(w) = view.wild() {
        out[row(WILD) + w.index()] = 1.0;
    }

    let responding = offer.is_some() || flower_offer.is_some();
    scalars[scalar::DEALER + relative(ctx.dealer, me)] = 1.0;
    scalars[scalar::STREAK] = EIGHTHS[(ctx.streak as usize).min(8)];
    scalars[scalar::DRAWABLE] = SIXTY_FOURTHS[(view.drawable() as usize).min(64)];
    scalars[scalar::MISSED] = view.is_missed() as u8 as f32;
    scalars[scalar::TURN] = (view.to_act() == Some(me) && !responding) as u8 as f32;
    scalars[scalar::RESPONDING] = offer.is_some() as u8 as f32;
    scalars[scalar::ROB_FLOWER] = flower_offer.is_some() as u8 as f32;
    scalars[scalar::RIVER_LEN] = RIVER_FRACTIONS[river.len];
    copy_row(&mut out[row(SCALARS)..row(SCALARS) + OBS_WIDTH], &scalars);

    let shanten = write_efficiency(view, &seen, out);
    // Only a discard can be claimed: a kong being added is answered by a win or a pass.
    if let (Some(tile), Some(now)) = (view.discard_on_offer(), shanten) {
        write_claims(view, tile, now, out);
    }
}

/// Row `64` (see the module docs): each claim of `offer` the hand holds the tiles for, by
/// the shanten it leaves against `now`, the waiting hand's.
fn write_claims(view: &View<'_>, offer: Tile, now: i8, out: &mut [f32; OBS_LEN]) {
    let hand = view.hand();
    let sets = sets_needed(view);
    if sets == 0 {
        return;
    }
    let rules = hand_rules(view, sets - 1);
    let base = channel::CLAIM_AFTER * OBS_WIDTH;
    for (c, claim) in Claim::shapes(offer).into_iter().enumerate() {
        if let Some(after) = claim.and_then(|claim| claim.leaves(hand, offer)) {
            let change = algo::shanten(&after, rules) - now + 2;
            out[base + c] = QUARTERS[change.clamp(1, 4) as usize];
        }
    }
}

/// Rows `60..64` (see the module docs): per-discard shanten and ukeire on a discard turn,
/// and the waiting hand's shanten, by the greedy agent's own measure. `seen` is the view's
/// [`visible_counts`](crate::knowledge::visible_counts), as row `7` has them. Returns the
/// shanten row `63` shows, if any.
fn write_efficiency(
    view: &View<'_>,
    seen: &[u8; Tile::NUM],
    out: &mut [f32; OBS_LEN],
) -> Option<i8> {
    use channel::*;
    let row = |c: usize| c * OBS_WIDTH;
    let hand = view.hand();
    let sets = sets_needed(view);
    let rules = hand_rules(view, sets);
    let waiting = 3 * sets as usize + 1;
    let shanten = if hand.len() == waiting + 1 {
        let discards = Discards::new(hand, rules);
        let held = hand.kinds();
        let (best, least) = discards.least();
        for t in held {
            let i = t.index();
            let above = (discards.shanten(t) - best) as usize;
            if above == 0 {
                out[row(BEST_DISCARD) + i] = 1.0;
            }
            out[row(SHANTEN_AFTER) + i] = QUARTERS[above.min(4)];
        }
        // `unseen_counts(view)`, from the counts already read.
        let unseen = seen.map(|n| 4u8.saturating_sub(n));
        debug_assert_eq!(unseen, unseen_counts(view));
        let ukeire = discard_ukeire(hand, rules, &discards, least, &unseen);
        for t in least {
            let i = t.index();
            out[row(UKEIRE_AFTER) + i] =
                ukeire[i].min(UKEIRE_SCALE) as f32 * (1.0 / UKEIRE_SCALE as f32);
        }
        best
    } else if hand.len() == waiting {
        algo::shanten(hand, rules)
    } else {
        return None;
    };
    // A waiting hand is never complete, so its shanten is at least 0.
    out[row(SHANTEN) + (shanten.max(0) as usize).min(OBS_WIDTH - 1)] = 1.0;
    Some(shanten)
}
