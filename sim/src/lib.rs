//! The taisim deal engine: tiles, packed hands, the wall, the deal state machine and the hand
//! algorithms (win check, shanten, waits, decompositions) for Taiwanese 16-tile mahjong.

mod hand;
mod notation;
mod tile;

pub use hand::{Hand, HandError, HONOR_KEYS, POW5, SUIT_KEYS};
pub use notation::{
    parse_flowers, parse_hand, parse_tile, parse_tiles, parse_wall_tiles, tiles_to_string,
    write_tiles, ParseError,
};
pub use tile::{
    Drawn, Flower, FlowerSet, Seat, Suit, Tile, TileIndexError, TileSet, TileSetIter, WallTile,
    Wind,
};
