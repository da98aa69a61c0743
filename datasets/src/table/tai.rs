//! The tai table: one row per counted pattern of each win.

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, UInt16Array, UInt64Array, UInt8Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use taisim_score::PatternId;
use taisim_sim::Seat;

use super::storage::{dict, dict_column, dictionaries, seat_key};

/// The tai table of one part: one row per counted pattern of each win.
#[derive(Default)]
pub(crate) struct TaiColumns {
    deal_id: Vec<u64>,
    winner: Vec<i8>,
    pattern: Vec<i8>,
    count: Vec<u8>,
    tai: Vec<u16>,
}

impl TaiColumns {
    pub fn len(&self) -> usize {
        self.deal_id.len()
    }

    pub fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            Field::new("deal_id", DataType::UInt64, false),
            dict("winner", false),
            dict("pattern", false),
            dict("name", false),
            Field::new("count", DataType::UInt8, false),
            Field::new("tai", DataType::UInt16, false),
        ]))
    }

    pub fn push(&mut self, deal_id: u64, winner: Seat, pattern: PatternId, count: u8, tai: u16) {
        self.deal_id.push(deal_id);
        self.winner.push(seat_key(winner));
        self.pattern.push(pattern.index() as i8);
        self.count.push(count);
        self.tai.push(tai);
    }

    pub fn finish(self) -> RecordBatch {
        let d = dictionaries();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(self.deal_id)),
            dict_column(self.winner, &d.seats),
            dict_column(self.pattern.clone(), &d.patterns),
            dict_column(self.pattern, &d.pattern_names),
            Arc::new(UInt8Array::from(self.count)),
            Arc::new(UInt16Array::from(self.tai)),
        ];
        RecordBatch::try_new(TaiColumns::schema(), columns)
            .expect("the tai columns follow the tai schema")
    }
}

const _: () = assert!(
    PatternId::COUNT <= i8::MAX as usize,
    "pattern keys fit an i8"
);

/// What a column of the tai table holds, by its stem (`pay` for `pay_e` … `pay_n`), for
/// `simulate --schema`.
pub(crate) fn describe(stem: &str) -> Option<&'static str> {
    Some(match stem {
        "pattern" => "the pattern's stable id (taisim variant show NAME lists them)",
        "name" => "the pattern's Chinese name",
        "count" => "times it applies (正花 ×2, …)",
        "tai" => "tai it contributes",
        _ => return None,
    })
}
