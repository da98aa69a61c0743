//! What a player who did not win is worth under the 台州 tables (taizhou.md 胜负规则: every
//! pair of non-winners settles the difference of their 胡数; the worked examples value them).

use taisim_sim::algo::Wild;
use taisim_sim::{Hand, Meld, Tile, Wind};

use super::super::variant::{ScoringModel, Variant};
use super::groups::face_of;
use super::{Made, Tally};

/// A non-winner's value (shared/rules/README.md "Non-winners' values"): the 胡 of its
/// exposed melds, concealed kongs and concealed triplets of real tiles (a 白板 is real, read as
/// the wild's face; a wild makes no triplet), times 2^台 from its 门风刻 and 字牌刻 and a flush
/// covering the whole hand (清一色, 混一色, judged on every tile but the wilds, which may be
/// anything). No 底胡, 自摸, 嵌档, pair points or 无得. Cut to the variant's cap; 0 under the
/// tai model, which values no losing hand.
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
    let mut t = Tally::new();
    for m in melds {
        let face = face_of(m.tile(), wild).unwrap_or(m.tile());
        match Made::of_meld(m.kind()) {
            Some(made) => t.pung(face, made, own),
            None => t.chow(face),
        }
    }
    for (i, &n) in hand.counts().iter().enumerate() {
        let Some(face) = face_of(Tile::ALL[i], wild) else {
            continue;
        };
        if n > 0 {
            t.see(face);
        }
        if n >= 3 {
            t.pung(face, Made::ConcealedPung, own);
        }
    }
    t.flush();
    let (_, hu, tai) = t.total(variant);
    shifted(hu, tai, cap)
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
