//! The observation tensor: what one seat sees, as `(channels, 34)` planes of `f32`, versioned.
//!
//! The layout follows Mortal's `obs_repr`: one row per feature, one column per tile kind (the
//! 34 kinds in the engine's order `1m..9m 1p..9p 1s..9s E S W N P F C`), so a 1-D convolution
//! over kinds sees suits as neighbourhoods. Seats are numbered relative to the observer in
//! turn order: `r = 0` the observer, `1` the next seat (下家), `2` across, `3` the previous
//! seat (上家, whose discards the observer may chow). Every value lies in `[0, 1]`.
//!
//! Version 1, shape `(59, 34)`:
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
//!
//! Scalar row (58): columns `0..4` the dealer (one-hot by `r`); `4` the dealer's streak (連莊)
//! / 8, capped at 1; `5` tiles still drawable / 64, capped at 1; `6..10` declared ready (by
//! `r`); `10..14` concealed tiles held / 17 (by `r`); `14..18` concealed kongs laid face down
//! / 5 (by `r`; 0 for the observer, whose are in its meld rows); `18` the observer is barred
//! by 過水; `19` it is the observer's turn; `20` the observer answers a discard or a kong;
//! `21` it may rob a flower (七搶一); `22` discards in the river / 136; `23..34` zero.
//!
//! A new layout gets a new [`OBS_VERSION`]; [`obs_shape`] answers for every version this
//! build knows, and a trained policy records the version it was trained on.

use ndarray::ArrayViewMut2;
use taisim_sim::{seat_wind, MeldKind, Seat, Tile, TileSet, View};

use crate::knowledge::relative;

/// The current observation layout.
pub const OBS_VERSION: u32 = 1;
/// Rows of the current layout.
pub const OBS_CHANNELS: usize = 59;
/// Columns: one per tile kind.
pub const OBS_WIDTH: usize = Tile::NUM;
/// Values in one observation (`OBS_CHANNELS * OBS_WIDTH`).
pub const OBS_LEN: usize = OBS_CHANNELS * OBS_WIDTH;

/// The shape `(channels, width)` of observation layout `version`, or `None` for a version
/// this build does not know.
pub const fn obs_shape(version: u32) -> Option<[usize; 2]> {
    match version {
        1 => Some([OBS_CHANNELS, OBS_WIDTH]),
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
}

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
    use channel::*;
    let out: &mut [f32; OBS_LEN] = out.try_into().expect("observation slice length");
    out.fill(0.0);
    let me = view.seat();
    let row = |c: usize| c * OBS_WIDTH;

    // Copies seen by the observer, gathered along the way (as `knowledge::visible_counts`
    // counts them; a test checks the two agree).
    let hand = view.hand();
    let mut seen = hand.counts();
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
        let th = &THRESHOLDS[(seen[i] as usize).min(4)];
        for (k, &v) in th.iter().enumerate() {
            out[row(HAND + k) + i] = v;
        }
    }
    if let Some(t) = view.drawn_tile() {
        out[row(DRAWN) + t.index()] = 1.0;
    }
    if let Some(t) = view.tile_on_offer() {
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
                        seen[i + k] += 1;
                    }
                }
                MeldKind::Pung => {
                    out[base + OBS_WIDTH + i] = 1.0;
                    seen[i] += 3;
                }
                MeldKind::Kong | MeldKind::AddedKong => {
                    out[base + 2 * OBS_WIDTH + i] = 1.0;
                    seen[i] += 4;
                }
                MeldKind::ConcealedKong => {
                    out[base + 3 * OBS_WIDTH + i] = 1.0;
                    seen[i] += 4;
                }
            }
        }
        scalars[scalar::HIDDEN_KONGS + r] = hidden as f32 / 5.0;
        scalars[scalar::READY + r] = view.declared_ready(seat) as u8 as f32;
        scalars[scalar::HAND_LEN + r] = view.hand_len(seat) as f32 / 17.0;
        let mut flowers = view.flowers(seat).0;
        while flowers != 0 {
            out[row(FLOWERS) + 8 * r + flowers.trailing_zeros() as usize] = 1.0;
            flowers &= flowers - 1;
        }
    }

    // The river in one backward pass: each seat's discard counts, the copies still lying
    // there, each seat's recent discards, and the kinds discarded after each seat's last
    // discard (met first from the back; `since` holds the kinds behind it).
    let river = view.discards();
    // Counted in a local array, then copied: adding into `out` right after the fill above
    // stalls on loads from memory the fill has not yet committed (measured: a fifth of the
    // encoder's time).
    let mut counts = [[0f32; OBS_WIDTH]; 4];
    let mut recent = [0usize; 4];
    let mut since = TileSet::EMPTY;
    let mut safe = [TileSet::EMPTY; 4];
    for d in river.iter().rev() {
        let r = relative(d.seat(), me);
        let t = d.tile();
        counts[r][t.index()] += 0.25;
        seen[t.index()] += !d.is_claimed() as u8;
        if recent[r] < RECENT {
            if recent[r] == 0 {
                safe[r] = since;
            }
            out[row(RIVER + RIVER_ROWS * r + 1 + recent[r]) + t.index()] = 1.0;
            recent[r] += 1;
        }
        since.insert(t);
    }
    for (r, c) in counts.iter().enumerate() {
        out[row(RIVER + RIVER_ROWS * r)..row(RIVER + RIVER_ROWS * r + 1)].copy_from_slice(c);
    }
    for (o, set) in safe.iter().enumerate().skip(1) {
        for t in set.iter() {
            out[row(SAFE + o - 1) + t.index()] = 1.0;
        }
    }
    let dst = &mut out[row(VISIBLE)..row(VISIBLE + 1)];
    for (d, &n) in dst.iter_mut().zip(&seen) {
        *d = n as f32 * 0.25;
    }

    let ctx = view.context();
    out[row(SEAT_WIND) + seat_wind(me, ctx.dealer).tile().index()] = 1.0;
    out[row(ROUND_WIND) + ctx.round_wind.tile().index()] = 1.0;

    let responding = view.tile_on_offer().is_some() || view.flower_on_offer().is_some();
    scalars[scalar::DEALER + relative(ctx.dealer, me)] = 1.0;
    scalars[scalar::STREAK] = (ctx.streak as f32 / 8.0).min(1.0);
    scalars[scalar::DRAWABLE] = (view.drawable() as f32 / 64.0).min(1.0);
    scalars[scalar::MISSED] = view.is_missed() as u8 as f32;
    scalars[scalar::TURN] = (view.to_act() == Some(me) && !responding) as u8 as f32;
    scalars[scalar::RESPONDING] = view.tile_on_offer().is_some() as u8 as f32;
    scalars[scalar::ROB_FLOWER] = view.flower_on_offer().is_some() as u8 as f32;
    scalars[scalar::RIVER_LEN] = river.len() as f32 / 136.0;
    out[row(SCALARS)..row(SCALARS) + OBS_WIDTH].copy_from_slice(&scalars);
}
