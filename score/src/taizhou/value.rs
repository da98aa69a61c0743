//! What a player who did not win is worth under the 台州 tables (taizhou.md 胜负规则: every
//! pair of non-winners settles the difference of their 胡数; the worked examples value them).

use taisim_sim::algo::Wild;
use taisim_sim::{Hand, Meld, Tile, Wind};

use super::super::variant::{ScoringModel, Variant};
use super::{meld_face, meld_readings, Made, Tally};

/// A non-winner's value (shared/rules/README.md "Non-winners' values"): the 胡 of its
/// exposed melds, concealed kongs and concealed triplets of real tiles (a wild makes no
/// triplet), times 2^台 from its 门风刻 and 字牌刻 and a flush covering the whole hand (清一色,
/// 混一色, judged on every tile but the wilds, which may be anything). No 底胡, 自摸, 嵌档, pair
/// points or 无得. Each 白板, held or in a claimed pung or kong, is read as the wild's face or
/// as itself (README "白板"), the reading of highest value taken. Cut to the variant's cap; 0
/// under the tai model, which values no losing hand.
///
/// `seat_wind` is the player's own wind (门风), `wild` the deal's wild kind.
pub fn seat_value(
    hand: &Hand,
    melds: &[Meld],
    seat_wind: Wind,
    wild: Option<Tile>,
    variant: &Variant,
) -> u64 {
    let ScoringModel::Points { cap, .. } = variant.scoring else {
        return 0;
    };
    let wild = wild.map(|w| Wild::taizhou(w, true));
    let own = seat_wind.tile();
    let stand_in = wild.and_then(Wild::stand_in);
    let white = stand_in.map_or(0, |s| hand.count(s));
    let mut best = 0;
    for white_as_face in [true, false].into_iter().take(meld_readings(melds, wild)) {
        let mut base = Tally::new();
        for m in melds {
            let face = meld_face(m, wild, white_as_face);
            match Made::of_meld(m.kind()) {
                Some(made) => base.pung(face, made, own),
                None => base.chow(face),
            }
        }
        // Each split of the 白板 held: `as_face` of them the wild's face, the rest 白板.
        for as_face in 0..=white {
            let mut faces = [0u8; Tile::NUM];
            for (i, &n) in hand.counts().iter().enumerate() {
                let t = Tile::ALL[i];
                if wild.is_some_and(|w| t == w.kind()) {
                    continue;
                }
                if let (Some(s), Some(w)) = (stand_in, wild) {
                    if t == s {
                        faces[w.kind().index()] += as_face;
                        faces[i] += n - as_face;
                        continue;
                    }
                }
                faces[i] += n;
            }
            let mut t = base;
            for (i, &n) in faces.iter().enumerate() {
                let face = Tile::ALL[i];
                if n > 0 {
                    t.see(face);
                }
                if n >= 3 {
                    t.pung(face, Made::ConcealedPung, own);
                }
            }
            t.flush();
            let (_, hu, tai) = t.total(variant);
            best = best.max(shifted(hu, tai, cap));
        }
    }
    best
}

/// `hu × 2^tai`, cut to `cap`.
pub(crate) fn shifted(hu: u32, tai: u32, cap: u32) -> u64 {
    let hu = hu as u64;
    if hu == 0 {
        return 0;
    }
    if tai >= 64 || hu.leading_zeros() <= tai {
        return cap as u64;
    }
    (hu << tai).min(cap as u64)
}
