//! Tile kinds, flowers and the physical tiles of the wall.
//!
//! A [`Tile`] is one of the 34 kinds that make up hands (`0..9` 萬 `1m`–`9m`, `9..18` 筒,
//! `18..27` 條, `27..34` honors in Tenhou order E S W N P F C), so a hand can be counted in a
//! `[_; 34]`. Flowers never enter a hand; they are a separate [`Flower`] type. The wall holds
//! [`WallTile`]s, which are either.

use core::fmt;

/// A suit, or the honors.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// 萬 characters, `m`.
    Man = 0,
    /// 筒 dots, `p`.
    Pin = 1,
    /// 條 bamboo, `s`.
    Sou = 2,
    /// 字 winds and dragons.
    Honor = 3,
}

impl Suit {
    /// The three numbered suits.
    pub const NUMBERED: [Suit; 3] = [Suit::Man, Suit::Pin, Suit::Sou];
    /// All four groups, in tile order.
    pub const ALL: [Suit; 4] = [Suit::Man, Suit::Pin, Suit::Sou, Suit::Honor];

    /// The notation letter (`m`, `p`, `s`, `z`).
    pub const fn char(self) -> char {
        match self {
            Suit::Man => 'm',
            Suit::Pin => 'p',
            Suit::Sou => 's',
            Suit::Honor => 'z',
        }
    }

    /// Index of the first tile kind of this group.
    pub const fn first(self) -> u8 {
        self as u8 * 9
    }

    /// Number of kinds in the group (9, or 7 for honors).
    pub const fn len(self) -> u8 {
        match self {
            Suit::Honor => 7,
            _ => 9,
        }
    }

    /// Never empty; here for clippy's `len_without_is_empty`.
    pub const fn is_empty(self) -> bool {
        false
    }
}

/// One of the 34 tile kinds.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Tile(u8);

impl Tile {
    /// Number of tile kinds.
    pub const NUM: usize = 34;
    /// Copies of each kind in the wall.
    pub const COPIES: u8 = 4;

    /// Winds and dragons, in Tenhou order (1z–7z).
    pub const EAST: Tile = Tile(27);
    pub const SOUTH: Tile = Tile(28);
    pub const WEST: Tile = Tile(29);
    pub const NORTH: Tile = Tile(30);
    /// 白 (white dragon, `P`, 5z).
    pub const WHITE: Tile = Tile(31);
    /// 發 (green dragon, `F`, 6z).
    pub const GREEN: Tile = Tile(32);
    /// 中 (red dragon, `C`, 7z).
    pub const RED: Tile = Tile(33);

    /// Every kind in index order.
    pub const ALL: [Tile; 34] = {
        let mut all = [Tile(0); 34];
        let mut i = 0;
        while i < 34 {
            all[i] = Tile(i as u8);
            i += 1;
        }
        all
    };

    /// The kind with this index. Panics if `index >= 34`.
    pub const fn new(index: u8) -> Tile {
        assert!(index < 34, "tile index out of range");
        Tile(index)
    }

    /// The kind with this index, or `None`.
    pub const fn try_new(index: u8) -> Option<Tile> {
        if index < 34 {
            Some(Tile(index))
        } else {
            None
        }
    }

    /// # Safety
    /// `index` must be below 34. Not undefined behaviour otherwise, but every table indexed
    /// by a tile would panic or misbehave.
    pub const unsafe fn new_unchecked(index: u8) -> Tile {
        debug_assert!(index < 34);
        Tile(index)
    }

    /// A numbered tile: `rank` is 1–9. Panics otherwise, or for [`Suit::Honor`].
    pub const fn numbered(suit: Suit, rank: u8) -> Tile {
        assert!(!matches!(suit, Suit::Honor) && rank >= 1 && rank <= 9);
        Tile(suit as u8 * 9 + rank - 1)
    }

    /// The kind's index, `0..34`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The kind's index as a byte.
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    pub const fn suit(self) -> Suit {
        match self.0 / 9 {
            0 => Suit::Man,
            1 => Suit::Pin,
            2 => Suit::Sou,
            _ => Suit::Honor,
        }
    }

    /// 1–9 for numbered tiles, 1–7 for honors (Tenhou's `z` digit).
    pub const fn rank(self) -> u8 {
        self.0 - self.suit().first() + 1
    }

    pub const fn is_honor(self) -> bool {
        self.0 >= 27
    }

    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 < 31
    }

    pub const fn is_dragon(self) -> bool {
        self.0 >= 31
    }

    /// 1 or 9 of a numbered suit.
    pub const fn is_terminal(self) -> bool {
        !self.is_honor() && (self.rank() == 1 || self.rank() == 9)
    }

    /// Terminal or honor (么九).
    pub const fn is_terminal_or_honor(self) -> bool {
        self.is_honor() || self.is_terminal()
    }

    /// The wind this tile is, if it is one.
    pub const fn wind(self) -> Option<Wind> {
        if self.is_wind() {
            Some(Wind::ALL[(self.0 - 27) as usize])
        } else {
            None
        }
    }

    /// The next rank of the same numbered suit (`None` for 9 and honors).
    pub const fn succ(self) -> Option<Tile> {
        if !self.is_honor() && self.rank() < 9 {
            Some(Tile(self.0 + 1))
        } else {
            None
        }
    }

    /// The previous rank of the same numbered suit (`None` for 1 and honors).
    pub const fn pred(self) -> Option<Tile> {
        if !self.is_honor() && self.rank() > 1 {
            Some(Tile(self.0 - 1))
        } else {
            None
        }
    }

    /// The tile `delta` ranks above, within the same numbered suit.
    pub const fn offset(self, delta: u8) -> Option<Tile> {
        if !self.is_honor() && self.rank() + delta <= 9 {
            Some(Tile(self.0 + delta))
        } else {
            None
        }
    }

    /// The letter of an honor in the project's notation (`E S W N P F C`).
    const HONOR_LETTERS: [char; 7] = ['E', 'S', 'W', 'N', 'P', 'F', 'C'];
}

impl TryFrom<u8> for Tile {
    type Error = TileIndexError;
    fn try_from(index: u8) -> Result<Tile, TileIndexError> {
        Tile::try_new(index).ok_or(TileIndexError(index))
    }
}

/// A tile index outside `0..34`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tile index {0} is out of range (0..34)")]
pub struct TileIndexError(pub u8);

impl fmt::Display for Tile {
    /// `5m`, `9s`, `E`, `C`: the project's notation for a single tile.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_honor() {
            write!(f, "{}", Tile::HONOR_LETTERS[(self.0 - 27) as usize])
        } else {
            write!(f, "{}{}", self.rank(), self.suit().char())
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The four winds, which are also the four seats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Wind {
    East = 0,
    South = 1,
    West = 2,
    North = 3,
}

impl Wind {
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    pub const fn new(index: u8) -> Wind {
        Wind::ALL[(index & 3) as usize]
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wind after this one (E → S → W → N → E).
    pub const fn next(self) -> Wind {
        Wind::new(self as u8 + 1)
    }

    /// The wind `steps` places after this one.
    pub const fn add(self, steps: u8) -> Wind {
        Wind::new(self as u8 + steps)
    }

    /// How many places after `from` this wind is (0–3).
    pub const fn distance_from(self, from: Wind) -> u8 {
        (self as u8 + 4 - from as u8) & 3
    }

    /// The honor tile of this wind.
    pub const fn tile(self) -> Tile {
        Tile(27 + self as u8)
    }

    pub const fn char(self) -> char {
        ['E', 'S', 'W', 'N'][self as usize]
    }

    pub fn from_char(c: char) -> Option<Wind> {
        match c {
            'E' => Some(Wind::East),
            'S' => Some(Wind::South),
            'W' => Some(Wind::West),
            'N' => Some(Wind::North),
            _ => None,
        }
    }
}

impl fmt::Display for Wind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A seat at the table. Seats are named by the wind they hold in the first deal of a game;
/// the wind a seat holds in a later deal is [`seat_wind`](crate::seat_wind).
pub type Seat = Wind;

/// One of the eight flowers `f1`–`f8`: 春 夏 秋 冬 (seasons), 梅 蘭 菊 竹 (plants).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Flower {
    Spring = 0,
    Summer = 1,
    Autumn = 2,
    Winter = 3,
    Plum = 4,
    Orchid = 5,
    Chrysanthemum = 6,
    Bamboo = 7,
}

impl Flower {
    pub const NUM: usize = 8;
    pub const ALL: [Flower; 8] = [
        Flower::Spring,
        Flower::Summer,
        Flower::Autumn,
        Flower::Winter,
        Flower::Plum,
        Flower::Orchid,
        Flower::Chrysanthemum,
        Flower::Bamboo,
    ];

    /// The flower with index `0..8` (`f1` is 0). Panics otherwise.
    pub const fn new(index: u8) -> Flower {
        assert!(index < 8, "flower index out of range");
        Flower::ALL[index as usize]
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat wind this flower belongs to (正花): f1/f5 East, f2/f6 South, …
    pub const fn wind(self) -> Wind {
        Wind::new(self as u8 & 3)
    }

    /// True for the four seasons (f1–f4), false for the four plants.
    pub const fn is_season(self) -> bool {
        (self as u8) < 4
    }

    /// The Chinese name.
    pub const fn name_zh(self) -> &'static str {
        ["春", "夏", "秋", "冬", "梅", "蘭", "菊", "竹"][self as usize]
    }
}

impl fmt::Display for Flower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "f{}", self.index() + 1)
    }
}

/// A set of flowers, one bit each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlowerSet(pub u8);

impl FlowerSet {
    pub const EMPTY: FlowerSet = FlowerSet(0);
    pub const ALL: FlowerSet = FlowerSet(0xff);
    pub const SEASONS: FlowerSet = FlowerSet(0x0f);
    pub const PLANTS: FlowerSet = FlowerSet(0xf0);

    pub const fn contains(self, flower: Flower) -> bool {
        self.0 & (1 << flower as u8) != 0
    }

    pub const fn with(self, flower: Flower) -> FlowerSet {
        FlowerSet(self.0 | (1 << flower as u8))
    }

    pub const fn without(self, flower: Flower) -> FlowerSet {
        FlowerSet(self.0 & !(1 << flower as u8))
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn is_superset(self, other: FlowerSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// The flowers in index order.
    pub fn iter(self) -> impl Iterator<Item = Flower> + Clone {
        Flower::ALL.into_iter().filter(move |&f| self.contains(f))
    }
}

impl fmt::Display for FlowerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for flower in self.iter() {
            write!(f, "{flower}")?;
        }
        Ok(())
    }
}

/// A physical tile in the wall: one of the 34 kinds (`0..34`) or a flower (`34..42`).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct WallTile(u8);

/// What a [`WallTile`] turns out to be when drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Drawn {
    Tile(Tile),
    Flower(Flower),
}

impl WallTile {
    pub const fn tile(tile: Tile) -> WallTile {
        WallTile(tile.0)
    }

    pub const fn flower(flower: Flower) -> WallTile {
        WallTile(34 + flower as u8)
    }

    pub const fn is_flower(self) -> bool {
        self.0 >= 34
    }

    pub const fn classify(self) -> Drawn {
        if self.0 >= 34 {
            Drawn::Flower(Flower::new(self.0 - 34))
        } else {
            Drawn::Tile(Tile(self.0))
        }
    }

    /// 0–41, kinds then flowers.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for WallTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.classify() {
            Drawn::Tile(t) => t.fmt(f),
            Drawn::Flower(fl) => fl.fmt(f),
        }
    }
}

impl fmt::Debug for WallTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of tile kinds, one bit each (waits, safe tiles, …).
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct TileSet(pub u64);

impl TileSet {
    pub const EMPTY: TileSet = TileSet(0);
    /// Every kind a hand may hold: the 34 of the suits and honours (not the flowers).
    pub const ALL: TileSet = TileSet((1 << Tile::NUM) - 1);

    pub const fn contains(self, tile: Tile) -> bool {
        self.0 & (1 << tile.0) != 0
    }

    pub const fn with(self, tile: Tile) -> TileSet {
        TileSet(self.0 | (1 << tile.0))
    }

    pub fn insert(&mut self, tile: Tile) {
        self.0 |= 1 << tile.0;
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in index order, by `trailing_zeros`, with an exact `size_hint`.
    pub const fn iter(self) -> TileSetIter {
        TileSetIter(self.0)
    }
}

impl IntoIterator for TileSet {
    type Item = Tile;
    type IntoIter = TileSetIter;
    fn into_iter(self) -> TileSetIter {
        self.iter()
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut set = TileSet::EMPTY;
        for t in iter {
            set.insert(t);
        }
        set
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over a [`TileSet`].
#[derive(Clone)]
pub struct TileSetIter(u64);

impl Iterator for TileSetIter {
    type Item = Tile;
    fn next(&mut self) -> Option<Tile> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Tile(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for TileSetIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_layout() {
        assert_eq!(Tile::numbered(Suit::Man, 1).index(), 0);
        assert_eq!(Tile::numbered(Suit::Sou, 9).index(), 26);
        assert_eq!(Tile::EAST.rank(), 1);
        assert_eq!(Tile::RED.rank(), 7);
        assert_eq!(Tile::RED.to_string(), "C");
        assert_eq!(Tile::WHITE.to_string(), "P");
        assert!(Tile::new(8).is_terminal() && !Tile::new(9 + 4).is_terminal());
        assert_eq!(Tile::new(8).succ(), None);
        assert_eq!(Tile::new(9).pred(), None);
        assert_eq!(Tile::EAST.succ(), None);
        for t in Tile::ALL {
            assert_eq!(Tile::try_from(t.to_u8()), Ok(t));
        }
        assert_eq!(Tile::try_from(34), Err(TileIndexError(34)));
    }

    #[test]
    fn flower_seats() {
        assert_eq!(Flower::Spring.wind(), Wind::East);
        assert_eq!(Flower::Plum.wind(), Wind::East);
        assert_eq!(Flower::Bamboo.wind(), Wind::North);
        assert_eq!(Flower::Autumn.to_string(), "f3");
        let set = FlowerSet::EMPTY.with(Flower::Orchid).with(Flower::Spring);
        assert_eq!(set.to_string(), "f1f6");
        assert!(FlowerSet::ALL.is_superset(FlowerSet::SEASONS));
    }

    #[test]
    fn winds_wrap() {
        assert_eq!(Wind::North.next(), Wind::East);
        assert_eq!(Wind::East.distance_from(Wind::South), 3);
        assert_eq!(Wind::West.tile(), Tile::WEST);
    }

    #[test]
    fn tileset_iter_is_exact() {
        let set: TileSet = [Tile::new(3), Tile::new(0), Tile::RED]
            .into_iter()
            .collect();
        let it = set.iter();
        assert_eq!(it.len(), 3);
        assert_eq!(
            it.collect::<Vec<_>>(),
            vec![Tile::new(0), Tile::new(3), Tile::RED]
        );
    }
}
