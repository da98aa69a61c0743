//! The tile notation: `123m456p789s`, honors `E S W N C F P` (中 發 白 are `C F P`), Tenhou's
//! `1z`–`7z` (= E S W N P F C), flowers `f1`–`f8`. Spaces between groups are allowed.
//!
//! Parsing never panics; an error names the offending character and its column (1-based,
//! counted in characters).

use core::fmt;

use crate::hand::{Hand, HandError};
use crate::tile::{Drawn, Flower, Suit, Tile, WallTile};

/// What is wrong with a tile string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("unexpected character {ch:?} at column {column}")]
    UnexpectedChar { ch: char, column: usize },
    #[error("digits ending at column {column} have no suit letter (m, p, s or z)")]
    MissingSuit { column: usize },
    #[error("{digit}{suit} at column {column} is not a tile (m/p/s take 1-9, z takes 1-7)")]
    BadRank {
        digit: char,
        suit: char,
        column: usize,
    },
    #[error("'f' at column {column} must be followed by a flower number 1-8")]
    BadFlower { column: usize },
    #[error("flower {0} is given twice")]
    DuplicateFlower(Flower),
    #[error("a flower ({flower}) at column {column} where only hand tiles are allowed")]
    FlowerNotAllowed { flower: Flower, column: usize },
    #[error("empty tile string")]
    Empty,
    #[error("expected exactly one tile, found {0}")]
    NotOneTile(usize),
    #[error(transparent)]
    Hand(#[from] HandError),
}

/// Parses a string of tiles and flowers, in order, calling `sink` for each.
fn parse_with(
    s: &str,
    mut sink: impl FnMut(WallTile, usize) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    // Digits waiting for their suit letter: (digit, column).
    let mut pending: arrayvec::ArrayVec<(char, usize), 64> = arrayvec::ArrayVec::new();
    let mut chars = s.chars().enumerate().peekable();
    let mut last_column = 0;
    while let Some((i, ch)) = chars.next() {
        let column = i + 1;
        last_column = column;
        match ch {
            '0'..='9' => {
                if pending.try_push((ch, column)).is_err() {
                    return Err(ParseError::UnexpectedChar { ch, column });
                }
            }
            'm' | 'p' | 's' | 'z' => {
                if pending.is_empty() {
                    return Err(ParseError::UnexpectedChar { ch, column });
                }
                let suit = match ch {
                    'm' => Suit::Man,
                    'p' => Suit::Pin,
                    's' => Suit::Sou,
                    _ => Suit::Honor,
                };
                for (digit, col) in pending.drain(..) {
                    let rank = digit as u8 - b'0';
                    if rank == 0 || rank > suit.len() {
                        return Err(ParseError::BadRank {
                            digit,
                            suit: ch,
                            column: col,
                        });
                    }
                    sink(WallTile::tile(Tile::new(suit.first() + rank - 1)), col)?;
                }
            }
            'E' | 'S' | 'W' | 'N' | 'C' | 'F' | 'P' => {
                if let Some(&(_, col)) = pending.last() {
                    return Err(ParseError::MissingSuit { column: col });
                }
                let tile = match ch {
                    'E' => Tile::EAST,
                    'S' => Tile::SOUTH,
                    'W' => Tile::WEST,
                    'N' => Tile::NORTH,
                    'C' => Tile::RED,
                    'F' => Tile::GREEN,
                    _ => Tile::WHITE,
                };
                sink(WallTile::tile(tile), column)?;
            }
            'f' => {
                if let Some(&(_, col)) = pending.last() {
                    return Err(ParseError::MissingSuit { column: col });
                }
                match chars.next() {
                    Some((_, d @ '1'..='8')) => {
                        let flower = Flower::new(d as u8 - b'1');
                        sink(WallTile::flower(flower), column)?;
                    }
                    _ => return Err(ParseError::BadFlower { column }),
                }
            }
            c if c.is_whitespace() || c == ',' => {
                if let Some(&(_, col)) = pending.last() {
                    return Err(ParseError::MissingSuit { column: col });
                }
            }
            _ => return Err(ParseError::UnexpectedChar { ch, column }),
        }
    }
    if !pending.is_empty() {
        return Err(ParseError::MissingSuit {
            column: last_column,
        });
    }
    Ok(())
}

/// Parses tiles and flowers in the order given.
pub fn parse_wall_tiles(s: &str) -> Result<Vec<WallTile>, ParseError> {
    let mut out = Vec::new();
    parse_with(s, |t, _| {
        out.push(t);
        Ok(())
    })?;
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
}

/// Parses hand tiles (no flowers) in the order given.
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, ParseError> {
    let mut out = Vec::new();
    parse_with(s, |t, column| match t.classify() {
        Drawn::Tile(tile) => {
            out.push(tile);
            Ok(())
        }
        Drawn::Flower(flower) => Err(ParseError::FlowerNotAllowed { flower, column }),
    })?;
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
}

/// Parses exactly one tile (`6s`, `C`, `5z`).
pub fn parse_tile(s: &str) -> Result<Tile, ParseError> {
    let tiles = parse_tiles(s)?;
    match tiles.as_slice() {
        [t] => Ok(*t),
        _ => Err(ParseError::NotOneTile(tiles.len())),
    }
}

/// Parses a hand; a fifth copy of a kind is an error.
pub fn parse_hand(s: &str) -> Result<Hand, ParseError> {
    let mut hand = Hand::EMPTY;
    for t in parse_tiles(s)? {
        hand.try_add(t)?;
    }
    Ok(hand)
}

/// Parses a flower list (`f1f5`, `f1 f5`); a repeated flower is an error.
pub fn parse_flowers(s: &str) -> Result<crate::tile::FlowerSet, ParseError> {
    let mut set = crate::tile::FlowerSet::EMPTY;
    parse_with(s, |t, column| match t.classify() {
        Drawn::Flower(f) if set.contains(f) => Err(ParseError::DuplicateFlower(f)),
        Drawn::Flower(f) => {
            set = set.with(f);
            Ok(())
        }
        Drawn::Tile(_) => Err(ParseError::UnexpectedChar {
            ch: s.chars().nth(column - 1).unwrap_or('?'),
            column,
        }),
    })?;
    Ok(set)
}

/// Writes tiles in compact notation: consecutive numbered tiles of one suit share the suit
/// letter (`1123m`), honors are letters.
pub fn write_tiles(f: &mut impl fmt::Write, tiles: impl IntoIterator<Item = Tile>) -> fmt::Result {
    let mut open: Option<Suit> = None;
    for t in tiles {
        if open.is_some_and(|s| s != t.suit()) {
            f.write_char(open.take().unwrap().char())?;
        }
        if t.is_honor() {
            write!(f, "{t}")?;
        } else {
            f.write_char((b'0' + t.rank()) as char)?;
            open = Some(t.suit());
        }
    }
    if let Some(s) = open {
        if s != Suit::Honor {
            f.write_char(s.char())?;
        }
    }
    Ok(())
}

/// Tiles in compact notation, as a `String`.
pub fn tiles_to_string(tiles: impl IntoIterator<Item = Tile>) -> String {
    let mut s = String::new();
    write_tiles(&mut s, tiles).expect("writing to a String cannot fail");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        let tiles = parse_tiles("123m 456p789s ESWN CFP 1z7z").unwrap();
        assert_eq!(
            tiles_to_string(tiles.iter().copied()),
            "123m456p789sESWNCFPEC"
        );
        assert_eq!(parse_tile("5z").unwrap(), Tile::WHITE);
        assert_eq!(parse_tile("6z").unwrap(), Tile::GREEN);
        assert_eq!(parse_tile("7z").unwrap(), Tile::RED);
        let wall = parse_wall_tiles("f1 5m f8").unwrap();
        assert_eq!(wall[0], WallTile::flower(Flower::Spring));
        assert_eq!(wall[2], WallTile::flower(Flower::Bamboo));
    }

    #[test]
    fn errors_name_character_and_column() {
        assert_eq!(
            parse_tiles("123m4x5p"),
            Err(ParseError::UnexpectedChar { ch: 'x', column: 6 })
        );
        assert_eq!(
            parse_tiles("123"),
            Err(ParseError::MissingSuit { column: 3 })
        );
        assert_eq!(
            parse_tiles("8z"),
            Err(ParseError::BadRank {
                digit: '8',
                suit: 'z',
                column: 1
            })
        );
        assert_eq!(
            parse_tiles("0m"),
            Err(ParseError::BadRank {
                digit: '0',
                suit: 'm',
                column: 1
            })
        );
        assert_eq!(parse_tiles("f9"), Err(ParseError::BadFlower { column: 1 }));
        assert_eq!(
            parse_tiles("m"),
            Err(ParseError::UnexpectedChar { ch: 'm', column: 1 })
        );
        assert_eq!(
            parse_tiles("12E"),
            Err(ParseError::MissingSuit { column: 2 })
        );
        assert_eq!(parse_tiles(""), Err(ParseError::Empty));
        assert_eq!(
            parse_hand("11111m"),
            Err(ParseError::Hand(HandError::FifthCopy(Tile::new(0))))
        );
        assert_eq!(
            parse_flowers("f1f1"),
            Err(ParseError::DuplicateFlower(Flower::Spring))
        );
        assert!(parse_tiles("1m f2").is_err());
        assert!(parse_tile("12m").is_err());
        let msg = parse_tiles("12q").unwrap_err().to_string();
        assert!(msg.contains("'q'") && msg.contains("column 3"), "{msg}");
    }

    #[test]
    fn round_trip() {
        for s in ["1123m", "19p19s", "EESWNPFC", "123m456p789sEEE"] {
            let h = parse_hand(s).unwrap();
            assert_eq!(parse_hand(&h.to_string()).unwrap(), h);
        }
    }
}
