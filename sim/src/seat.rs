//! Per-seat data.

use core::ops::{Index, IndexMut};

use crate::tile::{Seat, Wind};

/// One value per seat, indexed by [`Seat`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySeat<T>(pub [T; 4]);

impl<T> BySeat<T> {
    pub const fn new(values: [T; 4]) -> BySeat<T> {
        BySeat(values)
    }

    /// `(seat, value)` in seat order E S W N.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        Wind::ALL.into_iter().zip(self.0.iter())
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> BySeat<U> {
        BySeat(self.0.map(f))
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat as usize]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    #[inline]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat as usize]
    }
}

/// A set of seats, one bit each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub const fn single(seat: Seat) -> SeatSet {
        SeatSet(1 << seat as u8)
    }

    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat as u8) != 0
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat as u8;
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat as u8);
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in turn order starting after `from` (`from` itself last).
    pub fn iter_after(self, from: Seat) -> impl Iterator<Item = Seat> {
        (1..=4u8)
            .map(move |k| from.add(k))
            .filter(move |&s| self.contains(s))
    }

    /// The seats in order E S W N.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        Wind::ALL.into_iter().filter(move |&s| self.contains(s))
    }
}

/// The wind a seat holds in a deal (門風): the dealer is East and the others follow in turn
/// order.
pub const fn seat_wind(seat: Seat, dealer: Seat) -> Wind {
    Wind::new(seat.distance_from(dealer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_winds_follow_the_dealer() {
        assert_eq!(seat_wind(Wind::South, Wind::South), Wind::East);
        assert_eq!(seat_wind(Wind::East, Wind::South), Wind::North);
        let set = SeatSet(0b1011);
        assert_eq!(
            set.iter_after(Wind::South).collect::<Vec<_>>(),
            vec![Wind::North, Wind::East, Wind::South]
        );
    }
}
