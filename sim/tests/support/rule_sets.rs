//! The rules sets every engine test runs over: each shipped variant's engine rules, a 13-tile
//! set without flowers or wild, and Taizhou's procedure with its wild indicator.

#![allow(dead_code)]

use taisim_score::Variant;
use taisim_sim::Rules;

/// The shipped variants the engine tests cover by name.
pub const SHIPPED: [&str; 4] = ["taiwan16", "taiwan16-house", "taiwan16-2015", "mahjongtime"];

/// 13-tile hands from 136 tiles, no flowers, no wild: Taiwan's three dice and dealing by
/// fours, the 13th tile by 跳牌.
pub const THIRTEEN: Rules = Rules::THIRTEEN_TILES;

/// Every rules set with its name (the name of its perft fixture file).
pub fn rule_sets() -> Vec<(&'static str, Rules)> {
    let mut sets: Vec<(&'static str, Rules)> = SHIPPED
        .iter()
        .map(|&name| (name, Variant::builtin(name).unwrap().rules()))
        .collect();
    sets.push(("thirteen", THIRTEEN));
    sets.push(("taizhou", Rules::TAIZHOU));
    for (name, rules) in &sets {
        assert_eq!(rules.validate(), Ok(()), "{name}");
    }
    sets
}
