//! Scoring and settlement (計台): every rule text's tai table, with rule variants as data.
//!
//! A [`Variant`] (a TOML file; four ship with the library) says which patterns count and
//! for how much. [`score`] reads a [`WinInput`] every way the hand can be read (every
//! decomposition, every place the winning tile can go, the special shapes the variant
//! allows), runs the variant's detectors on each reading and keeps the reading with the
//! highest total. [`settle`] turns the result into payments.
//!
//! ```
//! use taisim_score::{score, settle, Variant, WinInput};
//! use taisim_sim::{parse_hand, parse_tile, Wind};
//!
//! let variant = Variant::builtin("taiwan16").unwrap();
//! let hand = parse_hand("123m 456m 789m 234p 99s 345s").unwrap();
//! let input = WinInput::new(Wind::South, hand, parse_tile("9s").unwrap(), true);
//! let s = score(&input, &variant).unwrap();
//! // 門清一摸三 3 + 獨聽 1 (99s waits on 9s only).
//! assert_eq!(s.total, 4);
//! let pay = settle(&s, &input, &variant, 10, 5);
//! assert_eq!(pay.0.iter().sum::<i64>(), 0);
//! ```
//!
//! 台州 (the `taizhou` variant) is scored by its own tables (`taizhou/`): 胡 by how each set
//! was made, 台 doubling, every reading of a hand with wilds (得牌, each 白板 read as the
//! wild's face or as itself); [`seat_value`] values the players who did not win, [`Liability`] decides 全包, and
//! [`score_deal`] settles every pair of players ([`settle_all_pairs`]).
//!
//! Scoring allocates nothing: readings, pattern lists and payments are fixed-size values.

mod amount;
mod breakdown;
mod context;
mod deal;
mod detect;
mod error;
pub mod file;
mod pattern;
mod reading;
mod request;
mod scorer;
mod settle;
pub mod suggest;
mod taizhou;
mod total;
mod variant;

pub use amount::Amount;
pub use breakdown::{PatternList, PatternTai, Score};
pub use context::{physical_copies_fit, Ready, WinInput, DISCARDS_READ};
pub use deal::{score_deal, score_deal_with, DealScore};
pub use error::{ScoreError, SettleError};
pub use pattern::{PatternId, PatternSet, CHAINS};
pub use reading::{ReadingKind, WaitShape};
pub use request::{
    score_json, Answer, Circumstances, LiabilityFacts, OtherHand, RequestError, ScoreJob,
    ScoreRequest, ScoredRequest, VariantCache,
};
pub use scorer::score;
pub use settle::{
    check_stake_bounds, check_stakes, insurance_payer, settle, settle_all_pairs, try_settle,
};
pub use taizhou::liability::{Liability, LiabilityCase};
pub use taizhou::value::seat_value;
pub use total::counted_patterns;
pub use variant::{
    bounds, echo, Citation, Insurance, PatternRule, Resolved, RobbedFlowerPayer, RuleChange,
    ScoringKind, ScoringModel, Setting, SettlementModel, SettlementRules, Value, Variant,
    VariantError, VariantErrorKind, VariantText, COMPLETE_FILE_KEYS, MAX_EXTENDS_DEPTH,
};
