//! The taisim deal engine for Taiwanese 16-tile mahjong (台灣十六張麻將): tiles, packed hands,
//! the wall, the deal state machine and the hand algorithms (win check, shanten, waits,
//! decompositions).
//!
//! ```
//! use taisim_sim::{ActionList, Deal, DealContext, Rules};
//!
//! let mut deal = Deal::new(Rules::TAIWAN16, 7, DealContext::FIRST).unwrap();
//! let mut actions = ActionList::new();
//! while !deal.is_over() {
//!     deal.legal_actions(&mut actions);
//!     // A trivial policy: always the last legal action (a discard or a pass).
//!     deal.play(*actions.last().unwrap()).unwrap();
//! }
//! println!("{:?}", deal.result().unwrap().outcome);
//! ```

mod action;
pub mod algo;
mod deal;
mod hand;
mod meld;
mod notation;
mod perft;
mod playout;
mod procedure;
mod rules;
mod seat;
mod tile;
mod view;
mod wall;

pub use action::{Action, ActionList, IllegalAction, LegalSet};
pub use deal::{
    Deal, DealContext, DealResult, Discard, DiscardFacts, DiscardList, DrawSource, ExchangeError,
    Fill, Hidden, Invalid, Outcome, RedealError, Unseen, ValidationError, WinContext, WALL_KINDS,
};
pub use hand::{Hand, HandError, HONOR_KEYS, POW5, SUIT_KEYS};
pub use meld::{chow_tiles, Meld, MeldKind, MeldList};
pub use notation::{
    parse_flowers, parse_hand, parse_tile, parse_tiles, parse_wall_tiles, tiles_to_string,
    write_tiles, ParseError,
};
pub use perft::perft;
pub use playout::play_randomly;
pub use procedure::{DealingOrder, DiceBreak, SetupEvents, TableProcedure, WallComposition};
pub use rules::{DealerContinuation, Rules, RulesError};
pub use seat::{seat_wind, BySeat, SeatSet};
pub use tile::{
    Drawn, Flower, FlowerSet, Seat, Suit, Tile, TileIndexError, TileSet, TileSetIter, WallTile,
    Wind,
};
pub use view::{View, VisibleMeld};
pub use wall::{bounded, deal_seed, rng_from_seed, splitmix64, Wall, WallError};
