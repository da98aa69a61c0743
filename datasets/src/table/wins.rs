//! The wins table: one row per winning hand (tai, wait, circumstances, the hand), with the
//! points model's and the all-pairs settlement's column groups when the run's variant calls
//! for them ([`WinsLayout`]).

use std::fmt::Write as _;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{
    ArrayRef, BooleanArray, Int64Array, Int8Array, RecordBatch, UInt16Array, UInt32Array,
    UInt64Array, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use taisim_score::{ReadingKind, ScoringModel, SettlementModel, Variant, WaitShape};
use taisim_sim::{Seat, Tile};

use super::storage::{
    dict, dict_column, dictionaries, reading_key, seat_key, strings, wait_key, SEAT_SUFFIX,
};

/// One row of the wins table.
#[derive(Clone, Debug)]
pub(crate) struct WinRow<'a> {
    pub deal_id: u64,
    pub winner: Seat,
    pub discarder: Option<Seat>,
    pub win_tile: Option<Tile>,
    pub total_tai: u16,
    pub dealer_tai: u16,
    pub wait: WaitShape,
    pub reading: ReadingKind,
    pub context: taisim_sim::WinContext,
    pub concealed: bool,
    pub declared_ready: bool,
    pub winner_is_dealer: bool,
    pub meets_minimum: bool,
    pub capped: bool,
    pub payment: i64,
    /// 胡 and points of the win under a points variant (`None` under a tai variant).
    pub value: Option<(u32, u64)>,
    /// The deal's settlement under an all-pairs variant (`None` otherwise).
    pub all_pairs: Option<AllPairsRow>,
    pub n_patterns: u8,
    pub hand: &'a taisim_sim::Hand,
    pub melds: &'a [taisim_sim::Meld],
    pub flowers: taisim_sim::FlowerSet,
}

/// What an all-pairs variant's win row adds: the deal's settlement among all four seats.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct AllPairsRow {
    /// The seat that pays for everyone (全包).
    pub responsible: Option<Seat>,
    /// Every seat's value, E S W N (the winner's is its points).
    pub values: [u64; 4],
    /// Every seat's net payment for the deal, E S W N (sums to zero).
    pub pays: [i64; 4],
}

/// Which optional column groups a wins table has: a run's variant decides, once.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WinsLayout {
    /// A points variant's run: `hu` and `points`.
    pub points_model: bool,
    /// An all-pairs variant's run: `responsible`, `value_*`, `pay_*`.
    pub all_pairs: bool,
}

impl WinsLayout {
    /// Every optional column.
    pub const ALL: WinsLayout = WinsLayout {
        points_model: true,
        all_pairs: true,
    };
}

impl WinsLayout {
    /// The optional column groups of a run of `variant`.
    pub fn of(variant: &Variant) -> WinsLayout {
        WinsLayout {
            points_model: matches!(variant.scoring(), ScoringModel::Points { .. }),
            all_pairs: variant.settlement().model == SettlementModel::AllPairs,
        }
    }
}

/// The wins table of one part.
#[derive(Default)]
pub(crate) struct WinsColumns {
    deal_id: Vec<u64>,
    winner: Vec<i8>,
    discarder: Vec<Option<i8>>,
    win_tile: Vec<Option<i8>>,
    total_tai: Vec<u16>,
    dealer_tai: Vec<u16>,
    wait: Vec<i8>,
    reading: Vec<i8>,
    flags: [Vec<bool>; WinsColumns::FLAGS.len()],
    payment: Vec<i64>,
    n_patterns: Vec<u8>,
    n_melds: Vec<u8>,
    n_flowers: Vec<u8>,
    hand: StringBuilder,
    melds: StringBuilder,
    flowers: StringBuilder,
    /// The optional column groups written.
    layout: WinsLayout,
    hu: Vec<u32>,
    points: Vec<u64>,
    responsible: Vec<Option<i8>>,
    values: [Vec<u64>; 4],
    pays: [Vec<i64>; 4],
}

impl WinsColumns {
    const FLAGS: [&'static str; 15] = [
        "self_draw",
        "robbing_kong",
        "kong_replacement",
        "flower_replacement",
        "last_tile",
        "heavenly",
        "earthly",
        "human",
        "flower_win",
        "concealed",
        "declared_ready",
        "winner_is_dealer",
        "meets_minimum",
        "capped",
        "exposed_kong_replacement",
    ];

    pub fn len(&self) -> usize {
        self.deal_id.len()
    }

    /// Every column a wins table may have (`hu` and `points` only in a points variant's run,
    /// `responsible`, `value_*` and `pay_*` only in an all-pairs variant's).
    pub fn schema() -> SchemaRef {
        WinsColumns::schema_for(WinsLayout::ALL)
    }

    /// Writes these optional column groups from now on. Set before the first row.
    pub fn set_layout(&mut self, layout: WinsLayout) {
        self.layout = layout;
    }

    /// The columns of a run whose variant calls for `layout`.
    pub fn schema_for(layout: WinsLayout) -> SchemaRef {
        let mut fields = vec![
            Field::new("deal_id", DataType::UInt64, false),
            dict("variant", false),
            dict("winner", false),
            dict("discarder", true),
            dict("win_tile", true),
            Field::new("total_tai", DataType::UInt16, false),
            Field::new("dealer_tai", DataType::UInt16, false),
            dict("wait", false),
            dict("reading", false),
        ];
        for flag in WinsColumns::FLAGS {
            fields.push(Field::new(flag, DataType::Boolean, false));
        }
        fields.extend([
            Field::new("payment", DataType::Int64, false),
            Field::new("n_patterns", DataType::UInt8, false),
            Field::new("n_melds", DataType::UInt8, false),
            Field::new("n_flowers", DataType::UInt8, false),
            Field::new("hand", DataType::Utf8, false),
            Field::new("melds", DataType::Utf8, false),
            Field::new("flowers", DataType::Utf8, false),
        ]);
        if layout.points_model {
            fields.extend([
                Field::new("hu", DataType::UInt32, false),
                Field::new("points", DataType::UInt64, false),
            ]);
        }
        if layout.all_pairs {
            fields.push(dict("responsible", true));
            for s in SEAT_SUFFIX {
                fields.push(Field::new(format!("value_{s}"), DataType::UInt64, false));
            }
            for s in SEAT_SUFFIX {
                fields.push(Field::new(format!("pay_{s}"), DataType::Int64, false));
            }
        }
        Arc::new(Schema::new(fields))
    }

    pub fn push(&mut self, row: &WinRow<'_>) {
        if self.layout.points_model {
            // A points variant's rows carry their value (play.rs fills it from the model).
            let (hu, points) = row.value.unwrap_or_default();
            self.hu.push(hu);
            self.points.push(points);
        }
        if self.layout.all_pairs {
            // An all-pairs variant's rows carry the deal's settlement (play.rs fills it).
            let a = row.all_pairs.unwrap_or_default();
            self.responsible.push(a.responsible.map(seat_key));
            for s in 0..4 {
                self.values[s].push(a.values[s]);
                self.pays[s].push(a.pays[s]);
            }
        }
        self.deal_id.push(row.deal_id);
        self.winner.push(seat_key(row.winner));
        self.discarder.push(row.discarder.map(seat_key));
        self.win_tile.push(row.win_tile.map(|t| t.to_u8() as i8));
        self.total_tai.push(row.total_tai);
        self.dealer_tai.push(row.dealer_tai);
        self.wait.push(wait_key(row.wait));
        self.reading.push(reading_key(row.reading));
        let c = &row.context;
        let flags = [
            c.self_draw,
            c.robbing_kong,
            c.kong_replacement,
            c.flower_replacement,
            c.last_tile,
            c.heavenly,
            c.earthly,
            c.human,
            c.flower_win,
            row.concealed,
            row.declared_ready,
            row.winner_is_dealer,
            row.meets_minimum,
            row.capped,
            c.exposed_kong_from.is_some(),
        ];
        for (col, v) in self.flags.iter_mut().zip(flags) {
            col.push(v);
        }
        self.payment.push(row.payment);
        self.n_patterns.push(row.n_patterns);
        self.n_melds.push(row.melds.len() as u8);
        self.n_flowers.push(row.flowers.len() as u8);
        // Writing into the builder appends to its buffer: no String per row.
        let _ = write!(self.hand, "{}", row.hand);
        self.hand.append_value("");
        for (i, m) in row.melds.iter().enumerate() {
            let _ = write!(self.melds, "{}{m}", if i == 0 { "" } else { " " });
        }
        self.melds.append_value("");
        let _ = write!(self.flowers, "{}", row.flowers);
        self.flowers.append_value("");
    }

    /// The part's columns; `variant` is the run's variant's name.
    pub fn finish(mut self, variant: &str) -> RecordBatch {
        let d = dictionaries();
        let rows = self.deal_id.len();
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(self.deal_id)),
            dict_column(Int8Array::from_value(0, rows), &strings([variant])),
            dict_column(self.winner, &d.seats),
            dict_column(self.discarder, &d.seats),
            dict_column(self.win_tile, &d.tiles),
            Arc::new(UInt16Array::from(self.total_tai)),
            Arc::new(UInt16Array::from(self.dealer_tai)),
            dict_column(self.wait, &d.waits),
            dict_column(self.reading, &d.readings),
        ];
        for flag in self.flags {
            columns.push(Arc::new(BooleanArray::from(flag)));
        }
        columns.push(Arc::new(Int64Array::from(self.payment)));
        columns.push(Arc::new(UInt8Array::from(self.n_patterns)));
        columns.push(Arc::new(UInt8Array::from(self.n_melds)));
        columns.push(Arc::new(UInt8Array::from(self.n_flowers)));
        columns.push(Arc::new(self.hand.finish()));
        columns.push(Arc::new(self.melds.finish()));
        columns.push(Arc::new(self.flowers.finish()));
        if self.layout.points_model {
            columns.push(Arc::new(UInt32Array::from(self.hu)));
            columns.push(Arc::new(UInt64Array::from(self.points)));
        }
        if self.layout.all_pairs {
            columns.push(dict_column(self.responsible, &d.seats));
            for v in self.values {
                columns.push(Arc::new(UInt64Array::from(v)));
            }
            for p in self.pays {
                columns.push(Arc::new(Int64Array::from(p)));
            }
        }
        RecordBatch::try_new(WinsColumns::schema_for(self.layout), columns)
            .expect("the wins columns follow the wins schema")
    }
}

/// What a column of the wins table holds, by its stem (`pay` for `pay_e` … `pay_n`), for
/// `simulate --schema`.
pub(crate) fn describe(stem: &str) -> Option<&'static str> {
    Some(match stem {
        "total_tai" => "the hand's tai, the variant's limit applied, dealer tai not included; under the points model the 台 that doubles the hand (the n of 2^n)",
        "dealer_tai" => "莊家/連莊 tai added to payments between the dealer and another seat",
        "wait" => "the wait judged on the scoring reading: two_sided, edge, closed, single, double_pair, none",
        "reading" => "regular, eight_pairs (尼姑), thirteen_orphans, flower_win",
        "self_draw" => "自摸",
        "robbing_kong" => "搶槓",
        "kong_replacement" => "槓上開花: won on a kong's replacement tile",
        "flower_replacement" => "花上開花: won on a flower's replacement tile",
        "last_tile" => "海底撈月 / 河底撈魚",
        "heavenly" => "天胡",
        "earthly" => "地胡",
        "human" => "人胡",
        "flower_win" => "八仙過海 or 七搶一",
        "concealed" => "門清: no exposed meld (concealed kongs allowed)",
        "declared_ready" => "the winner had declared ready",
        "winner_is_dealer" => "the winner dealt",
        "meets_minimum" => "the total reaches the variant's minimum (起胡); if not, the hand is not paid, and a variant that fines a false win (詐胡, settlement.false_win_penalty) has the claimant pay each other seat the fine (payment negative)",
        "capped" => "the variant's limit cut the total",
        "exposed_kong_replacement" => "won on the replacement for a kong claimed from a discard",
        "payment" => "what the winner received for this win",
        "hu" => "points variants only: the counted patterns' 胡, 底胡 not included",
        "points" => "points variants only: (底胡 + 胡) × 2^台, the variant's cap applied",
        "responsible" => "all-pairs variants only: the seat that pays for everyone (全包), null when none",
        "value" => "all-pairs variants only: the seat's hand value, one plain UInt64 column per seat (value_e … value_n); the winner's is its points; the 全包 seat's value is recorded as valued, though its settlement counts it 0 (responsible)",
        "pay" => "all-pairs variants only: the seat's net payment for the deal in money, one plain Int64 column per seat (pay_e … pay_n, as in the deals table; sums to zero)",
        "n_patterns" => "patterns counted (rows in the tai table)",
        "n_melds" => "melds, concealed kongs included",
        "n_flowers" => "flowers held",
        "hand" => "the concealed tiles, the winning tile included, in notation",
        "melds" => "the melds, space-separated (pung:EEE chow:345m …)",
        "flowers" => "the flowers held (f1…f8)",
        _ => return None,
    })
}

#[cfg(test)]
mod points_tests {
    use super::*;
    use arrow_array::Array;

    fn row(hand: &taisim_sim::Hand, value: Option<(u32, u64)>) -> WinRow<'_> {
        WinRow {
            deal_id: 7,
            winner: taisim_sim::Wind::South,
            discarder: None,
            win_tile: None,
            total_tai: 1,
            dealer_tai: 0,
            wait: WaitShape::Single,
            reading: ReadingKind::Regular,
            context: taisim_sim::WinContext::default(),
            concealed: true,
            declared_ready: false,
            winner_is_dealer: false,
            meets_minimum: true,
            capped: false,
            payment: 2800,
            value,
            all_pairs: None,
            n_patterns: 3,
            hand,
            melds: &[],
            flowers: taisim_sim::FlowerSet::EMPTY,
        }
    }

    /// A tai variant's wins table is as it was; a points variant's adds hu and points.
    #[test]
    fn points_columns_only_for_points_variants() {
        let hand = taisim_sim::parse_hand("123m 456m 789m 234p 99s 345s").unwrap();
        let mut tai = WinsColumns::default();
        tai.push(&row(&hand, None));
        let batch = tai.finish("taiwan16");
        assert!(batch.schema().index_of("points").is_err());
        assert!(batch.schema().index_of("hu").is_err());

        let mut points = WinsColumns::default();
        points.set_layout(WinsLayout {
            points_model: true,
            all_pairs: false,
        });
        points.push(&row(&hand, Some((4, 28))));
        let batch = points.finish("taizhou");
        let col = batch.column(batch.schema().index_of("points").unwrap());
        let col = col.as_any().downcast_ref::<UInt64Array>().unwrap();
        assert_eq!(col.value(0), 28);
        let col = batch.column(batch.schema().index_of("hu").unwrap());
        let col = col.as_any().downcast_ref::<UInt32Array>().unwrap();
        assert_eq!(col.value(0), 4);
        assert!(batch.schema().index_of("value_e").is_err());
        // The full schema (the writer's properties, --schema) lists them and the all-pairs
        // columns: responsible, four values, four payments.
        assert_eq!(
            WinsColumns::schema().fields().len(),
            batch.num_columns() + 9
        );
    }

    /// An all-pairs variant's rows carry the deal's settlement, seat by seat.
    #[test]
    fn all_pairs_columns_hold_every_seat() {
        let hand = taisim_sim::parse_hand("123m 456m 789m 234p 99s 345s").unwrap();
        let mut t = WinsColumns::default();
        t.set_layout(WinsLayout::ALL);
        let mut r = row(&hand, Some((4, 28)));
        r.all_pairs = Some(AllPairsRow {
            responsible: Some(taisim_sim::Wind::North),
            values: [0, 28, 6, 0],
            pays: [-28, 56, -14, -14],
        });
        t.push(&r);
        r.all_pairs = Some(AllPairsRow::default());
        t.push(&r);
        let batch = t.finish("taizhou");
        assert_eq!(batch.schema(), WinsColumns::schema());
        let values = batch.column_by_name("value_w").unwrap();
        let values = values.as_any().downcast_ref::<UInt64Array>().unwrap();
        assert_eq!((values.value(0), values.value(1)), (6, 0));
        let pays = batch.column_by_name("pay_s").unwrap();
        let pays = pays.as_any().downcast_ref::<Int64Array>().unwrap();
        assert_eq!((pays.value(0), pays.value(1)), (56, 0));
        let responsible = batch.column_by_name("responsible").unwrap();
        assert_eq!(responsible.null_count(), 1);
        assert!(responsible.is_valid(0));
    }
}
