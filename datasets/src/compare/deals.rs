//! One run's deals in deal order, each with its wins and patterns folded in: what the
//! comparison pairs deal by deal. A cursor holds one part at a time, so two runs of any size
//! are compared in the memory of a part each, whatever their part sizes.

use std::collections::VecDeque;

use arrow_array::{Array, BooleanArray, Int64Array, UInt16Array, UInt64Array};
use taisim_score::PatternId;
use taisim_sim::Wind;

use crate::error::HarnessError;
use crate::read::{column, string_codes, Run, READ_BATCH_ROWS};
use crate::table::{Table, OUTCOMES};

/// One deal of a run, as the comparison needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct DealRecord {
    pub deal_id: u64,
    pub seed: u64,
    /// Index into [`OUTCOMES`].
    pub outcome: usize,
    /// Winning seats, bit `s` for seat `s`.
    pub winners: u8,
    /// The seat whose tile was won on (`discarder`), if any.
    pub discarder: Option<usize>,
    /// The deals table's `total_tai`, 0 on a draw.
    pub total_tai: u16,
    pub pays: [i64; 4],
    /// From the wins table: wins, their tai, what the winners received, self-drawn wins,
    /// and their points (0 without the points columns).
    pub wins: u8,
    pub win_tai: u32,
    pub win_payment: i64,
    pub self_drawn: u8,
    pub points: u64,
    /// Patterns counted, each with the number of the deal's wins that count it.
    pub patterns: Vec<(PatternId, u8)>,
}

fn seat_code(s: &str) -> Option<usize> {
    Wind::ALL.iter().position(|w| w.to_string() == s)
}

const PAY_COLUMNS: [&str; 4] = ["pay_e", "pay_s", "pay_w", "pay_n"];

/// A run's deals in order, one part read at a time.
pub(super) struct DealCursor<'r> {
    run: &'r Run,
    verify: bool,
    next_part: usize,
    buffered: VecDeque<DealRecord>,
    /// The wins tables have the points model's columns.
    pub points: bool,
}

impl<'r> DealCursor<'r> {
    pub fn new(run: &'r Run, verify: bool) -> DealCursor<'r> {
        DealCursor {
            run,
            verify,
            next_part: 0,
            buffered: VecDeque::new(),
            points: false,
        }
    }

    /// The next deal, reading the next part when the last is used up.
    pub fn next(&mut self) -> Result<Option<DealRecord>, HarnessError> {
        while self.buffered.is_empty() {
            let Some(part) = self.run.parts.get(self.next_part) else {
                return Ok(None);
            };
            self.next_part += 1;
            self.read_part(part)?;
        }
        Ok(self.buffered.pop_front())
    }

    fn read_part(&mut self, part: &crate::part::PartRecord) -> Result<(), HarnessError> {
        let run = self.run;
        if self.verify {
            for table in [Table::Deals, Table::Wins, Table::Tai] {
                run.verify_checksum(part, table)?;
            }
        }
        // Deals.
        let file = run.open_part(part, Table::Deals)?;
        let path = file.path().to_path_buf();
        let mut columns = vec![
            "deal_id",
            "seed",
            "outcome",
            "winners",
            "discarder",
            "total_tai",
        ];
        columns.extend(PAY_COLUMNS);
        let mut deals: Vec<DealRecord> = Vec::with_capacity(file.rows() as usize);
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            let deal_id = column::<UInt64Array>(&batch, "deal_id", &path)?;
            let seed = column::<UInt64Array>(&batch, "seed", &path)?;
            let outcome = string_codes(&batch, "outcome", &path, |s| {
                OUTCOMES.iter().position(|o| o.name() == s)
            })?;
            let winners = string_codes(&batch, "winners", &path, |s| {
                let mut bits = 0usize;
                for c in s.chars() {
                    bits |= 1 << seat_code(&c.to_string())?;
                }
                Some(bits)
            })?;
            let discarder = string_codes(&batch, "discarder", &path, seat_code)?;
            let total_tai = column::<UInt16Array>(&batch, "total_tai", &path)?;
            let mut pays = Vec::with_capacity(4);
            for name in PAY_COLUMNS {
                pays.push(column::<Int64Array>(&batch, name, &path)?);
            }
            for i in 0..batch.num_rows() {
                deals.push(DealRecord {
                    deal_id: deal_id.value(i),
                    seed: seed.value(i),
                    outcome: outcome[i].ok_or_else(|| null_in(&path, "outcome"))?,
                    winners: winners[i].unwrap_or(0) as u8,
                    discarder: discarder[i],
                    total_tai: if total_tai.is_null(i) {
                        0
                    } else {
                        total_tai.value(i)
                    },
                    pays: [0, 1, 2, 3].map(|s| pays[s].value(i)),
                    ..DealRecord::default()
                });
            }
        }
        // Wins, in deal order: each row finds its deal by moving forward.
        let file = run.open_part(part, Table::Wins)?;
        let path = file.path().to_path_buf();
        self.points = file.has_column("points");
        let mut columns = vec!["deal_id", "winner", "total_tai", "payment", "self_draw"];
        if self.points {
            columns.push("points");
        }
        let mut at = 0;
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            let deal_id = column::<UInt64Array>(&batch, "deal_id", &path)?;
            let winner = string_codes(&batch, "winner", &path, seat_code)?;
            let tai = column::<UInt16Array>(&batch, "total_tai", &path)?;
            let payment = column::<Int64Array>(&batch, "payment", &path)?;
            let self_draw = column::<BooleanArray>(&batch, "self_draw", &path)?;
            let points = if self.points {
                Some(column::<UInt64Array>(&batch, "points", &path)?)
            } else {
                None
            };
            for (i, w) in winner.iter().enumerate() {
                let id = deal_id.value(i);
                at = find(&deals, at, id).ok_or_else(|| stray(&path, "win", id))?;
                let w = w.ok_or_else(|| null_in(&path, "winner"))?;
                let d = &mut deals[at];
                if d.winners & (1 << w) == 0 {
                    return Err(HarnessError::Corrupt {
                        path: path.clone(),
                        message: format!(
                            "a win of seat {} in deal {id}, which the deals table does not list among its winners",
                            Wind::ALL[w]
                        ),
                    });
                }
                d.wins += 1;
                d.win_tai += tai.value(i) as u32;
                d.win_payment += payment.value(i);
                d.self_drawn += self_draw.value(i) as u8;
                if let Some(p) = points {
                    d.points += p.value(i);
                }
            }
        }
        // Patterns.
        let file = run.open_part(part, Table::Tai)?;
        let path = file.path().to_path_buf();
        let mut at = 0;
        for batch in file.batches(&["deal_id", "pattern"], READ_BATCH_ROWS)? {
            let batch = batch?;
            let deal_id = column::<UInt64Array>(&batch, "deal_id", &path)?;
            let pattern = string_codes(&batch, "pattern", &path, |s| {
                PatternId::from_id(s).map(|p| p.index())
            })?;
            for (i, p) in pattern.iter().enumerate() {
                let id = deal_id.value(i);
                at = find(&deals, at, id).ok_or_else(|| stray(&path, "pattern", id))?;
                let p = PatternId::ALL[p.ok_or_else(|| null_in(&path, "pattern"))?];
                let list = &mut deals[at].patterns;
                match list.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, n)) => *n += 1,
                    None => list.push((p, 1)),
                }
            }
        }
        for d in &deals {
            if d.wins as u32 != d.winners.count_ones() {
                return Err(HarnessError::Corrupt {
                    path: run.path(&part.wins),
                    message: format!(
                        "deal {} has {} win rows, but the deals table lists {} winners",
                        d.deal_id,
                        d.wins,
                        d.winners.count_ones()
                    ),
                });
            }
        }
        self.buffered.extend(deals);
        Ok(())
    }
}

/// The index of deal `id` at or after `from` (rows come in deal order).
fn find(deals: &[DealRecord], from: usize, id: u64) -> Option<usize> {
    (from..deals.len()).find(|&i| deals[i].deal_id == id)
}

fn stray(path: &std::path::Path, what: &str, id: u64) -> HarnessError {
    HarnessError::Corrupt {
        path: path.to_path_buf(),
        message: format!(
            "a {what} row of deal {id}, which the part's deals table does not hold (or not in deal order)"
        ),
    }
}

fn null_in(path: &std::path::Path, column: &str) -> HarnessError {
    HarnessError::Corrupt {
        path: path.to_path_buf(),
        message: format!("null in the non-nullable column {column:?}"),
    }
}
