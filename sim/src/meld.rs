//! Melds: sets laid down by claiming a discard or declaring a kong.

use core::fmt;

use arrayvec::ArrayVec;

use crate::tile::{Seat, Tile, Wind};

/// How a meld was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MeldKind {
    /// 吃: a run claimed from the player on the left.
    Chow = 0,
    /// 碰: a triplet claimed from any discard.
    Pung = 1,
    /// 明槓: four of a kind, the fourth claimed from a discard.
    Kong = 2,
    /// 暗槓: four of a kind from one's own hand, face down.
    ConcealedKong = 3,
    /// 加槓: a pung upgraded with the fourth tile drawn later.
    AddedKong = 4,
}

impl MeldKind {
    pub const ALL: [MeldKind; 5] = [
        MeldKind::Chow,
        MeldKind::Pung,
        MeldKind::Kong,
        MeldKind::ConcealedKong,
        MeldKind::AddedKong,
    ];

    pub const fn is_kong(self) -> bool {
        matches!(
            self,
            MeldKind::Kong | MeldKind::ConcealedKong | MeldKind::AddedKong
        )
    }

    /// True for every kind except the concealed kong: the ones that break 門清.
    pub const fn is_exposed(self) -> bool {
        !matches!(self, MeldKind::ConcealedKong)
    }

    /// Stable snake_case name.
    pub const fn name(self) -> &'static str {
        match self {
            MeldKind::Chow => "chow",
            MeldKind::Pung => "pung",
            MeldKind::Kong => "kong",
            MeldKind::ConcealedKong => "concealed_kong",
            MeldKind::AddedKong => "added_kong",
        }
    }

    pub fn from_name(name: &str) -> Option<MeldKind> {
        MeldKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Tiles in the meld.
    pub const fn len(self) -> u8 {
        match self {
            MeldKind::Chow | MeldKind::Pung => 3,
            _ => 4,
        }
    }

    pub const fn is_empty(self) -> bool {
        false
    }
}

/// A meld packed in 16 bits: tile (the lowest for a chow) in bits 0–5, kind in 6–8, the seat
/// the claimed tile came from in 9–10, the claimed tile's offset within a chow in 11–12.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Meld(u16);

impl Meld {
    /// A meld of `kind` on `tile` (a chow's lowest tile). `from` is the seat whose discard was
    /// claimed (the owner for a concealed kong); `claimed` the claimed tile's offset within a
    /// chow (0–2), 0 otherwise.
    pub const fn new(kind: MeldKind, tile: Tile, from: Seat, claimed: u8) -> Meld {
        debug_assert!(claimed < 3);
        Meld(tile.to_u8() as u16 | (kind as u16) << 6 | (from as u16) << 9 | (claimed as u16) << 11)
    }

    pub const fn tile(self) -> Tile {
        Tile::new((self.0 & 0x3f) as u8)
    }

    pub const fn kind(self) -> MeldKind {
        MeldKind::ALL[((self.0 >> 6) & 7) as usize]
    }

    /// The seat whose discard was claimed.
    pub const fn from(self) -> Seat {
        Wind::new(((self.0 >> 9) & 3) as u8)
    }

    /// The claimed tile (for a chow, the one taken from the discard).
    pub const fn claimed_tile(self) -> Tile {
        Tile::new(self.tile().to_u8() + ((self.0 >> 11) & 3) as u8)
    }

    /// The same meld upgraded from pung to added kong.
    pub const fn upgraded(self) -> Meld {
        Meld::new(MeldKind::AddedKong, self.tile(), self.from(), 0)
    }

    /// The tiles of the meld, with repeats.
    pub fn tiles(self) -> impl Iterator<Item = Tile> {
        let t = self.tile();
        let kind = self.kind();
        (0..kind.len()).map(move |i| match kind {
            MeldKind::Chow => Tile::new(t.to_u8() + i),
            _ => t,
        })
    }

    /// How many copies of `tile` the meld holds.
    pub fn count(self, tile: Tile) -> u8 {
        match self.kind() {
            MeldKind::Chow => {
                let lo = self.tile().to_u8();
                (tile.to_u8() >= lo && tile.to_u8() < lo + 3 && tile.suit() == self.tile().suit())
                    as u8
            }
            kind if self.tile() == tile => kind.len(),
            _ => 0,
        }
    }

    pub const fn to_bits(self) -> u16 {
        self.0
    }
}

impl fmt::Display for Meld {
    /// `chow:345m`, `pung:EEE`, `concealed_kong:5555p`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.kind().name())?;
        crate::notation::write_tiles(f, self.tiles())
    }
}

impl fmt::Debug for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A seat's melds. Five is the bound: a 16-tile hand is five sets and a pair, and every meld
/// is one of the five sets.
pub type MeldList = ArrayVec<Meld, 5>;

/// The three tiles of the chow whose lowest tile is `low` (a suited tile of rank 7 at most):
/// what a chow claim takes, a `Chow(low)` action names and a chow meld holds.
pub const fn chow_tiles(low: Tile) -> [Tile; 3] {
    [low, Tile::new(low.to_u8() + 1), Tile::new(low.to_u8() + 2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for kind in MeldKind::ALL {
            for t in [Tile::new(0), Tile::new(24), Tile::RED] {
                if kind == MeldKind::Chow && t.is_honor() {
                    continue;
                }
                for from in Wind::ALL {
                    let claimed = if kind == MeldKind::Chow { 2 } else { 0 };
                    let m = Meld::new(kind, t, from, claimed);
                    assert_eq!((m.kind(), m.tile(), m.from()), (kind, t, from));
                    assert_eq!(m.tiles().count(), kind.len() as usize);
                }
            }
        }
        let chow = Meld::new(MeldKind::Chow, Tile::new(2), Wind::North, 1);
        assert_eq!(chow.claimed_tile(), Tile::new(3));
        assert_eq!(chow.to_string(), "chow:345m");
        assert_eq!(chow.count(Tile::new(4)), 1);
        assert_eq!(chow.count(Tile::new(5)), 0);
        let pung = Meld::new(MeldKind::Pung, Tile::EAST, Wind::South, 0);
        assert_eq!(pung.upgraded().kind(), MeldKind::AddedKong);
        assert_eq!(pung.upgraded().to_string(), "added_kong:EEEE");
    }
}
