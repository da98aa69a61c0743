//! Settlement amounts held exactly in half units: the all-pairs model pays half a hand's
//! value between two non-dealers, and a value may be odd.

use std::fmt;

/// An amount of points (or money) counted in halves. Arithmetic is checked: an amount that
/// would not fit is an error for the caller to report, never a wrapped number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Amount(i64);

impl Amount {
    pub const ZERO: Amount = Amount(0);

    /// `n` whole units, if twice `n` fits.
    pub const fn whole(n: i64) -> Option<Amount> {
        match n.checked_mul(2) {
            Some(h) => Some(Amount(h)),
            None => None,
        }
    }

    /// `h` half units.
    pub const fn from_halves(h: i64) -> Amount {
        Amount(h)
    }

    /// The amount in half units.
    pub const fn halves(self) -> i64 {
        self.0
    }

    /// The amount in whole units, when it is whole.
    pub const fn as_whole(self) -> Option<i64> {
        if self.0 % 2 == 0 {
            Some(self.0 / 2)
        } else {
            None
        }
    }

    /// Half of this amount (exact when it is whole; `None` when it is itself a half unit).
    pub const fn half(self) -> Option<Amount> {
        if self.0 % 2 == 0 {
            Some(Amount(self.0 / 2))
        } else {
            None
        }
    }

    pub fn checked_add(self, other: Amount) -> Option<Amount> {
        self.0.checked_add(other.0).map(Amount)
    }

    pub fn checked_sub(self, other: Amount) -> Option<Amount> {
        self.0.checked_sub(other.0).map(Amount)
    }

    /// The amount times a whole factor (points times money per point).
    pub fn checked_mul(self, factor: i64) -> Option<Amount> {
        self.0.checked_mul(factor).map(Amount)
    }

    /// As a float (rewards); exact below 2^53 halves.
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for Amount {
    /// `16`, `-2`, `16.5`, `-0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        if abs % 2 == 0 {
            write!(f, "{sign}{}", abs / 2)
        } else {
            write!(f, "{sign}{}.5", abs / 2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_print_and_stay_exact() {
        let a = Amount::whole(33).unwrap();
        assert_eq!(a.half(), Some(Amount::from_halves(33)));
        assert_eq!(Amount::from_halves(33).to_string(), "16.5");
        assert_eq!(Amount::from_halves(-1).to_string(), "-0.5");
        assert_eq!(Amount::ZERO.checked_sub(a).unwrap().to_string(), "-33");
        assert_eq!(Amount::from_halves(33).as_whole(), None);
        assert_eq!(Amount::from_halves(34).as_whole(), Some(17));
        assert_eq!(Amount::whole(i64::MAX), None);
        assert_eq!(Amount::from_halves(i64::MAX).checked_add(a), None);
        assert_eq!(
            Amount::from_halves(3).checked_mul(50),
            Some(Amount::whole(75).unwrap())
        );
    }
}
