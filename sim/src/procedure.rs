//! The table procedure: everything between the shuffle and the first decision. Which tiles
//! make the wall, how the dice break it, in what order the tiles are dealt, and the set-up
//! events after the deal (flower replacement, a wild indicator turned up). A variant names
//! one in its [`Rules`](crate::Rules); the deal engine follows it and has no procedure of its
//! own.

use serde::{Deserialize, Serialize};

use crate::tile::Seat;

/// The tiles of the wall.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WallComposition {
    /// 34 kinds × 4 and the eight flowers: 144 tiles (taiwan16-common.txt:1).
    WithFlowers,
    /// 34 kinds × 4: 136 tiles (taizhou.md: "共136张").
    NoFlowers,
}

impl WallComposition {
    /// Tiles in the wall.
    pub const fn size(self) -> u8 {
        match self {
            WallComposition::WithFlowers => 144,
            WallComposition::NoFlowers => 136,
        }
    }

    pub const fn has_flowers(self) -> bool {
        matches!(self, WallComposition::WithFlowers)
    }
}

/// How the dice pick where the wall is broken.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceBreak {
    /// taiwan16-common.txt:4–6: the dealer throws three dice; the total counts seats
    /// counterclockwise from the dealer (1 = the dealer) and then stacks from the right end of
    /// that seat's side, where drawing starts.
    ThreeDice,
    /// taizhou.md 「开牌」 as read by `shared/rules/README.md` ("Tiles and deal"): the dealer
    /// throws two dice and counts seats from itself (1/5/9 = the dealer, counterclockwise);
    /// that player throws two more, and the sum of all four is the number of stacks left
    /// standing from that player's right.
    TwoRollsOfTwo,
}

impl DiceBreak {
    /// How many dice are thrown in all.
    pub const fn dice(self) -> usize {
        match self {
            DiceBreak::ThreeDice => 3,
            DiceBreak::TwoRollsOfTwo => 4,
        }
    }

    /// Where the wall breaks for `dice` (as many as [`DiceBreak::dice`]): the seat whose side
    /// is broken and how many stacks stay standing from that side's right end. Drawing starts
    /// at the next stack; a count past the side's end runs on into the next side.
    pub fn break_point(self, dice: &[u8], dealer: Seat, stacks_per_side: u8) -> (Seat, u8) {
        debug_assert_eq!(dice.len(), self.dice());
        match self {
            DiceBreak::ThreeDice => {
                let total = dice[0] + dice[1] + dice[2];
                // A total of 18 on a side of 18 stacks leaves none standing: the taiwan16
                // engine has always broken there, and every recorded seed depends on it.
                (dealer.add((total - 1) % 4), total % stacks_per_side)
            }
            DiceBreak::TwoRollsOfTwo => {
                // taizhou.md 「点数及其对应关系」: 庄 1/5/9, 北 (上家) 2/6/10, 西 3/7/11,
                // 南 (下家) 4/8/12: the count runs from the dealer to the seat before it.
                let first = dice[0] + dice[1];
                let seat = dealer.add((4 - (first - 1) % 4) % 4);
                (seat, first + dice[2] + dice[3])
            }
        }
    }
}

/// The order of the deal: `turns` turns of `per_turn` tiles to each seat from the dealer,
/// then the rest of a hand (`hand_size − per_turn × turns` tiles) in one more turn each, then
/// the dealer's extra tile. With one tile left per seat the last two steps are 跳牌: the
/// dealer takes the 1st and the 5th tile, the others one each.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DealingOrder {
    pub per_turn: u8,
    pub turns: u8,
}

impl DealingOrder {
    /// taiwan16-common.txt:6-7: "two tiles (four tiles) are taken at a time, and the four
    /// players take turns to complete the matching four times"; "the dealer has a total of
    /// 17 cards".
    pub const TAIWAN16: DealingOrder = DealingOrder::new(4, 4);
    /// taizhou.md 「抓牌」: four tiles a turn for three turns, then 跳牌.
    pub const TAIZHOU: DealingOrder = DealingOrder::new(4, 3);

    pub const fn new(per_turn: u8, turns: u8) -> DealingOrder {
        DealingOrder { per_turn, turns }
    }

    /// Tiles each seat gets in the full turns.
    pub const fn in_turns(self) -> u16 {
        self.per_turn as u16 * self.turns as u16
    }
}

impl Default for DealingOrder {
    fn default() -> DealingOrder {
        DealingOrder::TAIWAN16
    }
}

/// What happens after the deal, before the dealer's first decision, in this order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SetupEvents {
    /// The next tile of the wall is turned up and set aside, out of play and seen by all;
    /// its kind is the deal's wild kind (taizhou.md 「得牌」).
    pub wild_indicator: bool,
    /// Dealt flowers are shown and replaced from the back of the wall, the dealer first
    /// (taiwan16-common.txt:9).
    pub flower_replacement: bool,
}

impl SetupEvents {
    pub const TAIWAN16: SetupEvents = SetupEvents {
        wild_indicator: false,
        flower_replacement: true,
    };
    pub const TAIZHOU: SetupEvents = SetupEvents {
        wild_indicator: true,
        flower_replacement: false,
    };
    /// No set-up event: a wall of 136 without a wild.
    pub const NONE: SetupEvents = SetupEvents {
        wild_indicator: false,
        flower_replacement: false,
    };
}

impl Default for SetupEvents {
    fn default() -> SetupEvents {
        SetupEvents::TAIWAN16
    }
}

/// The table procedure a variant plays by. [`Rules::validate`](crate::Rules::validate)
/// checks it against the hand size, the reserve and the `flowers` flag.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TableProcedure {
    pub tiles: WallComposition,
    pub dice: DiceBreak,
    pub dealing: DealingOrder,
    pub setup: SetupEvents,
}

impl TableProcedure {
    /// taiwan16-common.txt:1–9.
    pub const TAIWAN16: TableProcedure = TableProcedure {
        tiles: WallComposition::WithFlowers,
        dice: DiceBreak::ThreeDice,
        dealing: DealingOrder::TAIWAN16,
        setup: SetupEvents::TAIWAN16,
    };

    /// taizhou.md as read by `shared/rules/README.md` ("Tiles and deal", "得牌").
    pub const TAIZHOU: TableProcedure = TableProcedure {
        tiles: WallComposition::NoFlowers,
        dice: DiceBreak::TwoRollsOfTwo,
        dealing: DealingOrder::TAIZHOU,
        setup: SetupEvents::TAIZHOU,
    };

    /// Tiles taken from the wall before the first decision besides flower replacements: the
    /// hands, the dealer's extra tile and the indicator.
    pub const fn dealt(self, hand_size: u8) -> u16 {
        4 * hand_size as u16 + 1 + self.setup.wild_indicator as u16
    }

    /// What a rules set's procedure is where its file says nothing: the wall and the flower
    /// replacement follow `flowers`, the dealing is by fours for as many full turns as a hand
    /// of `hand_size` holds (four for 16 tiles, three for 13) with the rest by 跳牌, and no
    /// wild indicator. taiwan16's procedure for 16 tiles with flowers.
    pub const fn implied(flowers: bool, hand_size: u8) -> TableProcedure {
        TableProcedure {
            tiles: if flowers {
                WallComposition::WithFlowers
            } else {
                WallComposition::NoFlowers
            },
            dice: DiceBreak::ThreeDice,
            dealing: DealingOrder::new(4, hand_size / 4),
            setup: SetupEvents {
                wild_indicator: false,
                flower_replacement: flowers,
            },
        }
    }
}

impl Default for TableProcedure {
    fn default() -> TableProcedure {
        TableProcedure::TAIWAN16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn procedures_round_trip_through_json_and_refuse_unknown_keys() {
        assert_eq!(TableProcedure::implied(true, 16), TableProcedure::TAIWAN16);
        for p in [TableProcedure::TAIWAN16, TableProcedure::TAIZHOU] {
            let text = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<TableProcedure>(&text).unwrap(), p);
        }
        let taizhou: TableProcedure = serde_json::from_str(
            r#"{"tiles": "no_flowers", "dice": "two_rolls_of_two",
                "dealing": {"per_turn": 4, "turns": 3},
                "setup": {"wild_indicator": true, "flower_replacement": false}}"#,
        )
        .unwrap();
        assert_eq!(taizhou, TableProcedure::TAIZHOU);
        // Keys left out take taiwan16's values.
        let partial: TableProcedure = serde_json::from_str(r#"{"dice": "three_dice"}"#).unwrap();
        assert_eq!(partial, TableProcedure::TAIWAN16);
        assert!(serde_json::from_str::<TableProcedure>(r#"{"break": "three_dice"}"#).is_err());
        assert!(serde_json::from_str::<TableProcedure>(r#"{"dice": "five_dice"}"#).is_err());
        assert!(serde_json::from_str::<DealingOrder>(r#"{"per_turn": 4, "rounds": 3}"#).is_err());
    }

    #[test]
    fn two_rolls_break_where_the_text_says() {
        use crate::tile::Wind;
        // taizhou.md 「比如」: the dealer (East) throws 7, so West throws, a 5: leave 12
        // stacks from West's right and start at the 13th.
        let roll = DiceBreak::TwoRollsOfTwo;
        assert_eq!(
            roll.break_point(&[3, 4, 2, 3], Wind::East, 17),
            (Wind::West, 12)
        );
        // 「庄(东)：1、5、9 / 北（上家）：2、6、10 / 西（对家）：3、7、11 / 南（下家）：4、8、12」
        for (first, seat) in [
            (2, Wind::North),
            (3, Wind::West),
            (4, Wind::South),
            (5, Wind::East),
            (6, Wind::North),
            (9, Wind::East),
            (12, Wind::South),
        ] {
            let dice = [first / 2, first - first / 2, 1, 1];
            assert_eq!(roll.break_point(&dice, Wind::East, 17).0, seat, "{first}");
        }
        // Counted from whoever deals: South deals and throws 2, its 上家 East throws.
        assert_eq!(
            roll.break_point(&[1, 1, 6, 6], Wind::South, 17),
            (Wind::East, 14)
        );
        // taiwan16-common.txt:6: 11 points on three dice break West's side, eleven stacks
        // left standing.
        let three = DiceBreak::ThreeDice;
        assert_eq!(
            three.break_point(&[3, 4, 4], Wind::East, 18),
            (Wind::West, 11)
        );
    }

    #[test]
    fn sizes_and_counts() {
        assert_eq!(WallComposition::WithFlowers.size(), 144);
        assert_eq!(WallComposition::NoFlowers.size(), 136);
        assert_eq!(DiceBreak::ThreeDice.dice(), 3);
        assert_eq!(DiceBreak::TwoRollsOfTwo.dice(), 4);
        assert_eq!(TableProcedure::TAIWAN16.dealt(16), 65);
        // 13 × 4 + the dealer's 14th + the indicator.
        assert_eq!(TableProcedure::TAIZHOU.dealt(13), 54);
    }
}
