//! The engine's rule parameters: everything about the flow of a deal that differs between
//! rule texts. Scoring rules live with the scorer; this struct is what the engine needs.

use serde::{Deserialize, Serialize};

use crate::algo::SpecialHands;
use crate::procedure::TableProcedure;

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
    /// until after their own next discard. taizhou.md 「胡牌」 「不可弃先胡后」 is this rule
    /// (shared/rules/README.md, "Claims": 弃先胡后).
    pub missed_win: bool,
    /// With `missed_win`, mahjongtime's missed-discard rule instead of 過水
    /// (mahjongtime-taiwanese-rules.txt:61-65): a player who passes a win is "prohibited from
    /// going out on a tile, which he has missed" until it discards again: only that tile's
    /// kind is barred (another tile it waits on still wins), and "the rule is applied to a
    /// self-drawn tile, as well": it may not self-draw a win on that kind either. It may
    /// still claim the tile for a set (:65), as under 過水.
    pub missed_win_same_tile: bool,
    /// 弃先碰后 (taizhou.md 「碰牌」: 「不能弃先碰后(第一个先打的没碰，第二个接着打也不能碰）」): a
    /// player who passes a pung it was offered may not pung (or kong) a discard of that kind
    /// until after its own next discard. Passing means answering anything but pung or kong
    /// while a pung was on offer (a chow included). Off unless a variant says so.
    pub missed_pung: bool,
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
    /// Wall, dice, dealing order and set-up events.
    pub procedure: TableProcedure,
    /// Whether the wild kind takes part in claims. `true`: tiles of the wild kind in a hand
    /// may help to chow, pung or kong a discard as tiles of their own kind (the deal never
    /// lets a wild stand for another kind in a claim), and a discarded wild is a tile of its
    /// kind to the other seats, which may claim it or win on it. `false` (taizhou.md
    /// 「得牌」: 「也不能参与吃 / 碰 / 杠」): a wild in hand helps no claim, and a discarded wild
    /// is dead: nobody may chow, pung or kong it, **nor win on it** — winning on a discard
    /// claims it too, and a held wild is always read as a wild, so a win on a discarded one
    /// would let every ready hand take every wild thrown, which the text nowhere allows; the
    /// next seat draws. A wild is still won on by self-draw. Without a wild indicator it
    /// changes nothing.
    pub wilds_in_claims: bool,
    /// 人胡 only on the dealer's first discard: a non-dealer who wins on it before any claim
    /// or kong (mahjongtime-taiwanese-scoring.md:100 "Non-dealer goes out on dealer's first
    /// discard"; taiwan16-2015-table.txt:383 「莊家打第一張牌, 平家就胡牌」). Off, any discard of
    /// the first go-round won before the winner's first draw is one (taiwan16-common.txt:86
    /// 「第一巡內未摸牌前 … 胡他人牌」): S's first discard won by W or N, say.
    pub human_win_dealer_discard: bool,
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
        missed_win_same_tile: false,
        missed_pung: false,
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
        procedure: TableProcedure::TAIWAN16,
        wilds_in_claims: true,
        human_win_dealer_discard: false,
    };

    /// The engine half of taizhou.md as read by `shared/rules/README.md` ("taizhou: readings
    /// the project adopts"): 13-tile hands from a wall of 136, two rolls of two dice, 跳牌, a
    /// wild indicator turned up, nothing kept back ("打到最后"), 弃先胡后 (as 過水), 弃先碰后,
    /// an added kong may be robbed, wilds never claim and a discarded wild is dead, the dealer
    /// stays only on a win.
    pub const TAIZHOU: Rules = Rules {
        sets: 4,
        flowers: false,
        reserve: 0,
        multiple_winners: false,
        rob_concealed_kong: false,
        missed_win: true,
        missed_win_same_tile: false,
        missed_pung: true,
        declare_ready: false,
        ready_window: 0,
        flower_wins: false,
        special: SpecialHands {
            eight_pairs: false,
            thirteen_orphans: false,
        },
        dealer_continuation: DealerContinuation {
            on_dealer_win: true,
            on_draw: false,
        },
        procedure: TableProcedure::TAIZHOU,
        wilds_in_claims: false,
        human_win_dealer_discard: false,
    };

    /// 13-tile hands from a wall of 136 without flowers or wild, in taiwan16's flow otherwise
    /// (its dice, claims and dealer rules): the procedure such a file implies (three dealing
    /// turns of four, then 跳牌). The building block of 13-tile variants, and the engine tests'
    /// 13-tile rules set.
    pub const THIRTEEN_TILES: Rules = Rules {
        sets: 4,
        flowers: false,
        flower_wins: false,
        procedure: TableProcedure::implied(false, 13),
        ..Rules::TAIWAN16
    };

    /// Tiles in the wall.
    pub const fn wall_size(&self) -> u8 {
        self.procedure.tiles.size()
    }

    /// Tiles in a hand between turns (16 or 13).
    pub const fn hand_size(&self) -> u8 {
        3 * self.sets + 1
    }

    /// Checks the parameters against each other and the wall; the error names the first
    /// problem found.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(1..=5).contains(&self.sets) {
            return Err(RulesError::Sets(self.sets));
        }
        let p = &self.procedure;
        if p.tiles.has_flowers() != self.flowers {
            return Err(RulesError::TilesDisagreeWithFlowers {
                flowers: self.flowers,
                tiles: p.tiles.size(),
            });
        }
        if p.setup.flower_replacement != self.flowers {
            return Err(if self.flowers {
                RulesError::FlowersWithoutReplacement
            } else {
                RulesError::ReplacementWithoutFlowers
            });
        }
        if p.setup.wild_indicator && self.flowers {
            return Err(RulesError::WildIndicatorWithFlowers);
        }
        let hand = self.hand_size() as u16;
        let d = p.dealing;
        if d.per_turn == 0 || d.turns == 0 || d.in_turns() > hand {
            return Err(RulesError::Dealing {
                per_turn: d.per_turn,
                turns: d.turns,
                hand_size: self.hand_size(),
            });
        }
        let dealt = p.dealt(self.hand_size());
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

    /// Whether the deal turns up a wild indicator.
    pub const fn has_wild(&self) -> bool {
        self.procedure.setup.wild_indicator
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
    #[error("flowers = {flowers} but the procedure's wall has {tiles} tiles")]
    TilesDisagreeWithFlowers { flowers: bool, tiles: u8 },
    #[error("a wall with flowers needs the flower replacement set-up event")]
    FlowersWithoutReplacement,
    #[error("flower replacement needs flowers in the wall")]
    ReplacementWithoutFlowers,
    #[error("a wild indicator needs a wall without flowers (a flower turned up names no kind)")]
    WildIndicatorWithFlowers,
    #[error("dealing {turns} turns of {per_turn} tiles does not fit a hand of {hand_size} (each must be at least 1, and at most the hand in all)")]
    Dealing {
        per_turn: u8,
        turns: u8,
        hand_size: u8,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::procedure::{DealingOrder, SetupEvents, WallComposition};

    const THIRTEEN: Rules = Rules::THIRTEEN_TILES;

    #[test]
    fn defaults_are_valid_and_bad_ones_named() {
        assert_eq!(Rules::TAIWAN16.validate(), Ok(()));
        assert_eq!(Rules::TAIWAN16.hand_size(), 16);
        assert_eq!(Rules::TAIZHOU.validate(), Ok(()));
        assert_eq!(Rules::TAIZHOU.hand_size(), 13);
        assert_eq!(Rules::TAIZHOU.wall_size(), 136);
        assert_eq!(THIRTEEN.validate(), Ok(()));
        assert_eq!(THIRTEEN.hand_size(), 13);
        let bad = Rules {
            reserve: 100,
            ..Rules::TAIWAN16
        };
        assert!(matches!(bad.validate(), Err(RulesError::Reserve { .. })));
        let no_flowers = TableProcedure {
            tiles: WallComposition::NoFlowers,
            setup: SetupEvents::NONE,
            ..TableProcedure::TAIWAN16
        };
        let bad = Rules {
            flowers: false,
            procedure: no_flowers,
            ..Rules::TAIWAN16
        };
        assert_eq!(bad.validate(), Err(RulesError::FlowerWinsWithoutFlowers));
    }

    #[test]
    fn a_rules_table_without_the_taizhou_keys_plays_as_before() {
        // Keys left out take taiwan16's values: 弃先碰后 stays off for every variant file that
        // does not name it.
        let rules: Rules = serde_json::from_str("{}").unwrap();
        assert_eq!(rules, Rules::TAIWAN16);
        assert!(!rules.missed_pung && rules.wilds_in_claims);
        let rules: Rules = serde_json::from_str(r#"{"missed_pung": true}"#).unwrap();
        assert_eq!(
            rules,
            Rules {
                missed_pung: true,
                ..Rules::TAIWAN16
            }
        );
        const { assert!(Rules::TAIZHOU.missed_pung && !Rules::TAIZHOU.wilds_in_claims) };
    }

    #[test]
    fn procedure_combinations_are_checked() {
        let cases: [(Rules, RulesError); 7] = [
            (
                Rules {
                    flowers: false,
                    flower_wins: false,
                    ..Rules::TAIWAN16
                },
                RulesError::TilesDisagreeWithFlowers {
                    flowers: false,
                    tiles: 144,
                },
            ),
            (
                Rules {
                    procedure: TableProcedure {
                        setup: SetupEvents::NONE,
                        ..TableProcedure::TAIWAN16
                    },
                    ..Rules::TAIWAN16
                },
                RulesError::FlowersWithoutReplacement,
            ),
            (
                Rules {
                    procedure: TableProcedure {
                        setup: SetupEvents {
                            flower_replacement: true,
                            ..SetupEvents::NONE
                        },
                        ..THIRTEEN.procedure
                    },
                    ..THIRTEEN
                },
                RulesError::ReplacementWithoutFlowers,
            ),
            (
                Rules {
                    procedure: TableProcedure {
                        setup: SetupEvents {
                            wild_indicator: true,
                            flower_replacement: true,
                        },
                        ..TableProcedure::TAIWAN16
                    },
                    ..Rules::TAIWAN16
                },
                RulesError::WildIndicatorWithFlowers,
            ),
            // Four turns of four are 16 tiles: too many for a 13-tile hand.
            (
                Rules {
                    procedure: TableProcedure {
                        dealing: DealingOrder::TAIWAN16,
                        ..Rules::TAIZHOU.procedure
                    },
                    ..Rules::TAIZHOU
                },
                RulesError::Dealing {
                    per_turn: 4,
                    turns: 4,
                    hand_size: 13,
                },
            ),
            (
                Rules {
                    procedure: TableProcedure {
                        dealing: DealingOrder::new(0, 3),
                        ..Rules::TAIZHOU.procedure
                    },
                    ..Rules::TAIZHOU
                },
                RulesError::Dealing {
                    per_turn: 0,
                    turns: 3,
                    hand_size: 13,
                },
            ),
            // 54 tiles dealt (the indicator among them) and 82 kept back leave nothing.
            (
                Rules {
                    reserve: 82,
                    ..Rules::TAIZHOU
                },
                RulesError::Reserve {
                    reserve: 82,
                    dealt: 54,
                    wall: 136,
                },
            ),
        ];
        for (rules, want) in cases {
            assert_eq!(rules.validate(), Err(want), "{rules:?}");
        }
        // One tile fewer kept back leaves one to draw.
        let tight = Rules {
            reserve: 81,
            ..Rules::TAIZHOU
        };
        assert_eq!(tight.validate(), Ok(()));
    }
}
