//! How the hand algorithms read a hand: the sets it must form, the special shapes allowed,
//! and the wild tiles, if any.

use super::SpecialHands;
use crate::tile::Tile;

/// The wild tiles of one deal (e.g. taizhou's 得牌).
///
/// The hand passed to the algorithms is always the physical hand. With a wild kind `W`:
/// every copy of `W` held is a wild, which may stand for any tile (`W`'s face included); each
/// copy of the stand-in kind `S`, if any, is a natural tile read either as a `W` or as itself
/// (taizhou's 白板: "可以作为自身，也可以做为当前的得牌，但不能成为得牌"), whichever makes the
/// hand. Without a stand-in, `W`'s face has no natural tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wild {
    kind: Tile,
    stand_in: Option<Tile>,
    needs_real: bool,
}

impl Wild {
    /// Every copy of `kind` is wild; nothing stands in for its face; a set or the pair may
    /// be made of wilds alone.
    pub const fn new(kind: Tile) -> Wild {
        Wild {
            kind,
            stand_in: None,
            needs_real: false,
        }
    }

    /// Each copy of `stand_in` is read as a natural copy of the wild kind or as itself. A
    /// stand-in equal to the wild kind means no stand-in (taizhou: when 白板 is turned up, the
    /// white dragons are the wilds and nothing stands in for them).
    pub const fn with_stand_in(self, stand_in: Tile) -> Wild {
        Wild {
            stand_in: if stand_in.index() == self.kind.index() {
                None
            } else {
                Some(stand_in)
            },
            ..self
        }
    }

    /// Whether every set and the pair must hold at least one tile that is not wild
    /// (taizhou's "不可单独使用").
    pub const fn needing_real_tile(self, needs_real: bool) -> Wild {
        Wild { needs_real, ..self }
    }

    /// Taizhou's 得牌: `turned` is the kind of the tile turned up after the deal; each 白板 is
    /// read as its face or as itself (rules/README.md, "taizhou: readings the project adopts",
    /// 得牌 and 白板).
    pub const fn taizhou(turned: Tile, needs_real: bool) -> Wild {
        Wild::new(turned)
            .with_stand_in(Tile::WHITE)
            .needing_real_tile(needs_real)
    }

    /// The wild kind.
    pub const fn kind(self) -> Tile {
        self.kind
    }

    /// The kind read as a natural copy of the wild kind's face or as itself, if any.
    pub const fn stand_in(self) -> Option<Tile> {
        self.stand_in
    }

    /// Whether every set and the pair must hold a tile that is not wild.
    pub const fn needs_real(self) -> bool {
        self.needs_real
    }
}

/// Everything the hand algorithms need to know about the rules for one hand: how many sets
/// the concealed tiles must form (5 minus the melds for the 16-tile game, up to 4 for
/// 13-tile variants), the special shapes enabled, and the wilds of the deal.
///
/// Small and `Copy`: pass it by value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct HandRules {
    /// Sets the concealed tiles must form besides the pair.
    pub sets: u8,
    /// Special winning shapes (only for `sets == 5`).
    pub special: SpecialHands,
    /// The wild tiles, if the variant has them.
    pub wild: Option<Wild>,
}

impl HandRules {
    /// `sets` sets and a pair, or an enabled special shape; no wilds.
    pub const fn new(sets: u8, special: SpecialHands) -> HandRules {
        HandRules {
            sets,
            special,
            wild: None,
        }
    }

    /// The regular form only: `sets` sets and a pair.
    pub const fn regular(sets: u8) -> HandRules {
        HandRules::new(sets, SpecialHands::NONE)
    }

    /// The same rules with the wilds of a deal.
    pub const fn with_wild(self, wild: Wild) -> HandRules {
        HandRules {
            wild: Some(wild),
            ..self
        }
    }

    /// The rules if the algorithms support them: at most 5 sets, and no special shapes
    /// together with wilds (how a wild would stand in a 八對 or 十三么 is not defined).
    pub const fn check(self) -> Result<HandRules, HandRulesError> {
        if self.sets > 5 {
            return Err(HandRulesError::Sets(self.sets));
        }
        if self.wild.is_some() && (self.special.eight_pairs || self.special.thirteen_orphans) {
            return Err(HandRulesError::WildWithSpecialHands);
        }
        Ok(self)
    }

    /// The same rules for a hand that must form `sets` sets (e.g. after a meld).
    pub const fn with_sets(self, sets: u8) -> HandRules {
        HandRules { sets, ..self }
    }
}

/// Why [`HandRules::check`] refused a set of hand rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandRulesError {
    #[error("a hand forms at most 5 sets, got {0}")]
    Sets(u8),
    #[error("wilds cannot be combined with the special hands (尼姑, 十三么)")]
    WildWithSpecialHands,
}
