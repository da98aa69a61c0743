//! The answer of `taisim score --json`, written straight into a writer: the fields in the
//! order a JSON object sorted by key lists them, no JSON tree built.

use std::borrow::Borrow;
use std::io::{self, Write};

use serde::Serialize;
use taisim_sim::{BySeat, Seat, Wind};

use super::job::{settlement_points, settlement_with, values, ScoreJob};
use crate::{Amount, LiabilityCase, Score, ScoringModel, Variant};

/// The answer of `taisim score --json`, written straight into a writer by
/// [`Answer::write_json`]: no JSON tree is built and no text scanned for characters to
/// escape but the variant's name. The fields are written in sorted order, the order in
/// which answers were first written (through a `serde_json::Value`, whose objects keep
/// their keys sorted), so the bytes stay the same; a field that does not apply is left out.
pub struct Answer<'a> {
    /// Under the points model: 胡 of the patterns (taizhou.md 胜负规则 基础胡数, 底胡
    /// apart, written as both `hu` and `base_points`), the value, and the 台 (`tai`, as
    /// `total_tai`).
    points_model: Option<(u32, u64)>,
    score: &'a Score,
    liability: Option<(LiabilityCase, Seat)>,
    /// Money, when the other players were given and stakes too.
    payments: Option<BySeat<i64>>,
    settlement: Option<Settlement>,
    values: Option<BySeat<u64>>,
    variant: &'a str,
}

/// The settlement: in 胡, exact in halves (all-pairs, with the other players given), or in
/// money (winner-pays, with stakes).
enum Settlement {
    Points(BySeat<Amount>),
    Money(BySeat<i64>),
}

/// The seats in the order a JSON object sorted by key lists them.
const SEATS_BY_LETTER: [(Seat, &[u8]); 4] = [
    (Wind::East, b"\"E\":"),
    (Wind::North, b"\"N\":"),
    (Wind::South, b"\"S\":"),
    (Wind::West, b"\"W\":"),
];

/// A number or a string as serde_json writes it (integers in decimal, a float as its shortest
/// round trip, so halves as `.5`; a string escaped), as it did when answers were built as
/// `serde_json::Value`s.
fn scalar<W: Write>(out: &mut W, n: impl Serialize) -> io::Result<()> {
    serde_json::to_writer(out, &n).map_err(io::Error::from)
}

/// A string known to hold nothing JSON escapes (a catalogue name, a seat letter, a wait),
/// in quotes; the unit test `static_names_need_no_escapes` checks every one.
fn plain<W: Write>(out: &mut W, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    out.write_all(s.as_bytes())?;
    out.write_all(b"\"")
}

fn by_seat<W: Write, T: Copy>(
    out: &mut W,
    key: &[u8],
    v: &BySeat<T>,
    mut write: impl FnMut(&mut W, T) -> io::Result<()>,
) -> io::Result<()> {
    out.write_all(key)?;
    let mut sep: &[u8] = b"{";
    for (seat, letter) in SEATS_BY_LETTER {
        out.write_all(sep)?;
        out.write_all(letter)?;
        write(out, v[seat])?;
        sep = b",";
    }
    out.write_all(b"}")
}

/// An amount of 胡: a whole number, or a number ending in .5.
fn amount<W: Write>(out: &mut W, a: Amount) -> io::Result<()> {
    match a.as_whole() {
        Some(n) => scalar(out, n),
        None => scalar(out, a.halves() as f64 / 2.0),
    }
}

impl Answer<'_> {
    /// Writes the answer as one JSON object, without a newline.
    pub fn write_json<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let s = self.score;
        out.write_all(b"{")?;
        if let Some((hu, _)) = self.points_model {
            out.write_all(b"\"base_points\":")?;
            scalar(out, hu)?;
            out.write_all(b",")?;
        }
        // Keys in the order a JSON value sorts them, as `--json` writes them. The variant's
        // limit cut the total below what the patterns add up to.
        out.write_all(if s.capped {
            b"\"capped\":true,"
        } else {
            b"\"capped\":false,"
        })?;
        out.write_all(b"\"dealer_tai\":")?;
        scalar(out, s.dealer_tai)?;
        if let Some((hu, _)) = self.points_model {
            out.write_all(b",\"hu\":")?;
            scalar(out, hu)?;
        }
        if let Some((case, _)) = self.liability {
            out.write_all(b",\"liability_case\":")?;
            scalar(out, case as u8)?;
        }
        out.write_all(if s.meets_minimum {
            b",\"meets_minimum\":true"
        } else {
            b",\"meets_minimum\":false"
        })?;
        out.write_all(b",\"patterns\":[")?;
        for (i, p) in s.patterns.iter().enumerate() {
            out.write_all(if i == 0 {
                b"{\"count\":"
            } else {
                b",{\"count\":"
            })?;
            scalar(out, p.count)?;
            if self.points_model.is_some() {
                out.write_all(b",\"hu\":")?;
                scalar(out, p.hu)?;
            }
            out.write_all(b",\"id\":")?;
            plain(out, p.id.id())?;
            out.write_all(b",\"name\":")?;
            plain(out, p.name_zh())?;
            out.write_all(b",\"name_en\":")?;
            plain(out, p.name_en())?;
            out.write_all(b",\"tai\":")?;
            scalar(out, p.tai)?;
            out.write_all(b"}")?;
        }
        out.write_all(b"]")?;
        if let Some(pay) = &self.payments {
            by_seat(out, b",\"payments\":", pay, scalar)?;
        }
        if let Some((_, points)) = self.points_model {
            out.write_all(b",\"points\":")?;
            scalar(out, points)?;
        }
        if let Some((_, seat)) = self.liability {
            out.write_all(b",\"responsible\":")?;
            plain(out, SeatLetter(seat).letter())?;
        }
        match &self.settlement {
            Some(Settlement::Points(p)) => by_seat(out, b",\"settlement\":", p, amount)?,
            Some(Settlement::Money(m)) => by_seat(out, b",\"settlement\":", m, scalar)?,
            None => {}
        }
        if self.points_model.is_some() {
            out.write_all(b",\"tai\":")?;
            scalar(out, s.total)?;
        }
        out.write_all(b",\"total_tai\":")?;
        scalar(out, s.total)?;
        if let Some(v) = &self.values {
            by_seat(out, b",\"values\":", v, scalar)?;
        }
        // The one string from outside the program (a variant file names itself): escaped.
        out.write_all(b",\"variant\":")?;
        scalar(out, self.variant)?;
        out.write_all(b",\"wait\":")?;
        plain(out, s.wait.name())?;
        out.write_all(b"}")
    }

    /// The answer as JSON text.
    pub fn to_json_string(&self) -> String {
        let mut out = Vec::with_capacity(512);
        // Writing into a `Vec` cannot fail, and every piece written is UTF-8.
        let _ = self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// A seat as its letter.
struct SeatLetter(Seat);

impl SeatLetter {
    const fn letter(self) -> &'static str {
        ["E", "S", "W", "N"][self.0 as usize]
    }
}

impl<V: Borrow<Variant>> ScoreJob<V> {
    /// The response of `taisim score --json`, to write where the caller wants it
    /// ([`Answer::write_json`]): no JSON tree is built.
    pub fn answer<'a>(&'a self, s: &'a Score) -> Answer<'a> {
        Answer::of(self, s)
    }
}

impl<'a> Answer<'a> {
    /// The answer to `job`, scored `s`.
    fn of<V: Borrow<Variant>>(job: &'a ScoreJob<V>, s: &'a Score) -> Answer<'a> {
        let variant = job.variant.borrow();
        let points_model = matches!(variant.scoring, ScoringModel::Points { .. });
        let mut out = Answer {
            points_model: points_model.then_some((s.hu, s.points)),
            score: s,
            liability: None,
            payments: None,
            settlement: None,
            values: None,
            variant: &variant.name,
        };
        let money = |pay: [(Wind, i64); 4]| BySeat(pay.map(|(_, v)| v));
        match values(job, s) {
            Some(v) => {
                out.values = Some(v);
                out.liability = job.liability.as_ref().and_then(|l| l.decide(s));
                // In 胡; with stakes, "payments" gives the money.
                out.settlement = settlement_points(job, s, v).ok().map(Settlement::Points);
                out.payments = settlement_with(job, s, Some(v)).map(money);
            }
            None => {
                out.settlement = settlement_with(job, s, None).map(|p| Settlement::Money(money(p)))
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PatternId, WaitShape};

    /// `Answer::write_json` writes the catalogue's names, the waits and the seat letters
    /// without escaping them: each must be its own JSON string body.
    #[test]
    fn static_names_need_no_escapes() {
        let mut names: Vec<&str> = PatternId::ALL
            .iter()
            .flat_map(|p| [p.id(), p.name_zh(), p.name_en()])
            .collect();
        names.extend(
            [
                WaitShape::TwoSided,
                WaitShape::Edge,
                WaitShape::Closed,
                WaitShape::Single,
                WaitShape::DoublePair,
                WaitShape::None,
            ]
            .map(WaitShape::name),
        );
        names.extend(Seat::ALL.map(|w| SeatLetter(w).letter()));
        for name in names {
            let mut raw = Vec::new();
            plain(&mut raw, name).unwrap();
            assert_eq!(raw, serde_json::to_vec(name).unwrap(), "{name}");
        }
        for (seat, key) in SEATS_BY_LETTER {
            assert_eq!(key, format!("\"{seat}\":").as_bytes());
        }
        let letters: Vec<&[u8]> = SEATS_BY_LETTER.iter().map(|(_, k)| *k).collect();
        assert!(letters.is_sorted(), "a sorted map's order");
    }
}
