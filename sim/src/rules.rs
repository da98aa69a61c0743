//! The engine's rule parameters: everything about the flow of a deal that differs between
//! rule texts. Scoring rules live with the scorer; this struct is what the engine needs.

use serde::{Deserialize, Serialize};

use crate::algo::SpecialHands;

/// When the dealer keeps the deal (連莊). In a variant file its keys sit in `[rules]` as
/// `dealer_keeps_on_win` and `dealer_keeps_on_draw`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct DealerContinuation {
    /// The dealer wins: dealer stays, streak + 1 (every text).
    #[serde(rename = "dealer_keeps_on_win")]
    pub on_dealer_win: bool,
    /// Exhaustive draw: dealer stays, streak + 1 (taiwan16-common.txt 「荒莊」 reading); the
    /// 2015 table passes the deal instead ("若未胡牌, 即使連莊須下莊").
    #[serde(rename = "dealer_keeps_on_draw")]
    pub on_draw: bool,
}

/// Engine rule parameters. `Copy`, so a deal carries its own.
///
/// A variant file's `[rules]` table is this struct as serde reads it: every key optional
/// (taiwan16's value by default), the nested groups' keys flat in the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Sets in a complete hand besides the pair: 5 for 16-tile play, 4 for 13-tile.
    pub sets: u8,
    /// Play with the eight flowers (144 tiles) or without (136).
    pub flowers: bool,
    /// Tiles left in the wall that are never drawn (16 = 8 stacks in taiwan16; 0 to play to
    /// the last tile).
    pub reserve: u8,
    /// 一砲多響: every player who can win on a discard may; otherwise only the first in turn
    /// order after the discarder.
    pub multiple_winners: bool,
    /// A concealed kong may be robbed by a player who wins on its tile.
    pub rob_concealed_kong: bool,
    /// 過水: a player who passes a winning discard may not win on a discard (or rob a kong)
    /// until after their own next discard.
    pub missed_win: bool,
    /// 天聽/地聽: a player may declare ready with one of the first `ready_window` discards of
    /// the deal while nobody has claimed or declared a kong; the hand is then locked.
    pub declare_ready: bool,
    /// How many of the deal's first discards may carry a ready declaration (8 in taiwan16:
    /// "起牌後海底打進八張牌內").
    pub ready_window: u8,
    /// 八仙過海 (all eight flowers win) and 七搶一 (seven flowers rob the eighth).
    pub flower_wins: bool,
    /// Special winning shapes beyond five sets and a pair.
    #[serde(flatten)]
    pub special: SpecialHands,
    #[serde(flatten)]
    pub dealer_continuation: DealerContinuation,
}

impl Rules {
    /// taiwan16-common.txt as read by `shared/rules/README.md`.
    pub const TAIWAN16: Rules = Rules {
        sets: 5,
        flowers: true,
        reserve: 16,
        multiple_winners: false,
        rob_concealed_kong: false,
        missed_win: true,
        declare_ready: true,
        ready_window: 8,
        flower_wins: true,
        special: SpecialHands {
            eight_pairs: false,
            thirteen_orphans: false,
        },
        dealer_continuation: DealerContinuation {
            on_dealer_win: true,
            on_draw: true,
        },
    };

    /// Tiles in the wall.
    pub const fn wall_size(&self) -> u8 {
        if self.flowers {
            144
        } else {
            136
        }
    }

    /// Tiles in a hand between turns (16 or 13).
    pub const fn hand_size(&self) -> u8 {
        3 * self.sets + 1
    }

    /// Checks the parameters against each other and the wall.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(1..=5).contains(&self.sets) {
            return Err(RulesError::Sets(self.sets));
        }
        let dealt = 4 * self.hand_size() as u16 + 1;
        let wall = self.wall_size() as u16;
        if self.reserve as u16 + dealt >= wall {
            return Err(RulesError::Reserve {
                reserve: self.reserve,
                dealt,
                wall,
            });
        }
        if self.flower_wins && !self.flowers {
            return Err(RulesError::FlowerWinsWithoutFlowers);
        }
        if (self.special.eight_pairs || self.special.thirteen_orphans) && self.sets != 5 {
            return Err(RulesError::SpecialHandsNeedSixteen);
        }
        Ok(())
    }
}

impl Default for DealerContinuation {
    fn default() -> DealerContinuation {
        Rules::TAIWAN16.dealer_continuation
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::TAIWAN16
    }
}

/// Inconsistent rule parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("sets must be 1 to 5 (5 for 16-tile hands, 4 for 13-tile), got {0}")]
    Sets(u8),
    #[error("a reserve of {reserve} tiles leaves nothing to draw: {dealt} tiles are dealt from a wall of {wall}")]
    Reserve { reserve: u8, dealt: u16, wall: u16 },
    #[error("flower wins (八仙過海, 七搶一) need flowers in the wall")]
    FlowerWinsWithoutFlowers,
    #[error("the special hands (尼姑, 十三么) are 17-tile shapes and need sets = 5")]
    SpecialHandsNeedSixteen,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_ones_named() {
        assert_eq!(Rules::TAIWAN16.validate(), Ok(()));
        assert_eq!(Rules::TAIWAN16.hand_size(), 16);
        let bad = Rules {
            reserve: 100,
            ..Rules::TAIWAN16
        };
        assert!(matches!(bad.validate(), Err(RulesError::Reserve { .. })));
        let bad = Rules {
            flowers: false,
            ..Rules::TAIWAN16
        };
        assert_eq!(bad.validate(), Err(RulesError::FlowerWinsWithoutFlowers));
        let thirteen = Rules {
            sets: 4,
            flowers: false,
            flower_wins: false,
            ..Rules::TAIWAN16
        };
        assert_eq!(thirteen.validate(), Ok(()));
        assert_eq!(thirteen.hand_size(), 13);
    }
}
