//! The three tables of a part, accumulated in plain vectors (no per-row builder dispatch)
//! and turned into Arrow record batches at the end of the part: the deals table as whole
//! rows, the smaller wins and tai tables column by column. Each table's schema is declared
//! beside the code that fills it, and building the batch checks the two agree.
//!
//! Low-cardinality strings (seats, outcomes, tiles, pattern ids) are dictionary columns
//! with fixed dictionaries: a row stores a one-byte key, and readers (DuckDB, Polars,
//! pandas) see plain strings.

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use arrow_array::builder::{BinaryBuilder, StringBuilder};
use arrow_array::types::Int8Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Int64Array, Int8Array, RecordBatch, StringArray,
    UInt16Array, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use taisim_score::{PatternId, ReadingKind, WaitShape};
use taisim_sim::{Outcome, Seat, Tile, Wind};

use crate::part::Table;

/// The fixed dictionaries of the dictionary columns.
pub(crate) struct Dictionaries {
    seats: ArrayRef,
    outcomes: ArrayRef,
    tiles: ArrayRef,
    patterns: ArrayRef,
    pattern_names: ArrayRef,
    waits: ArrayRef,
    readings: ArrayRef,
}

pub(crate) const OUTCOMES: [Outcome; 4] = [
    Outcome::SelfDraw,
    Outcome::Discard,
    Outcome::FlowerWin,
    Outcome::ExhaustiveDraw,
];

const WAITS: [WaitShape; 6] = [
    WaitShape::TwoSided,
    WaitShape::Edge,
    WaitShape::Closed,
    WaitShape::Single,
    WaitShape::DoublePair,
    WaitShape::None,
];

const READINGS: [ReadingKind; 4] = [
    ReadingKind::Regular,
    ReadingKind::EightPairs,
    ReadingKind::ThirteenOrphans,
    ReadingKind::FlowerWin,
];

fn strings<I: IntoIterator<Item = S>, S: AsRef<str>>(values: I) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(values))
}

pub(crate) fn dictionaries() -> &'static Dictionaries {
    static DICTS: OnceLock<Dictionaries> = OnceLock::new();
    DICTS.get_or_init(|| Dictionaries {
        seats: strings(Wind::ALL.iter().map(|s| s.to_string())),
        outcomes: strings(OUTCOMES.iter().map(|o| o.name())),
        tiles: strings((0..34).map(|i| Tile::new(i).to_string())),
        patterns: strings(PatternId::ALL.iter().map(|p| p.id())),
        pattern_names: strings(PatternId::ALL.iter().map(|p| p.name_zh())),
        waits: strings(WAITS.iter().map(|w| w.name())),
        readings: strings(READINGS.iter().map(|r| r.name())),
    })
}

fn dict_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8))
}

fn dict(name: &str, nullable: bool) -> Field {
    Field::new(name, dict_type(), nullable)
}

/// A dictionary column over a fixed dictionary; `keys` is a `Vec<i8>`, or a
/// `Vec<Option<i8>>` for a nullable column.
fn dict_column(keys: impl Into<Int8Array>, values: &ArrayRef) -> ArrayRef {
    Arc::new(
        DictionaryArray::<Int8Type>::try_new(keys.into(), values.clone())
            .expect("keys index the fixed dictionary"),
    )
}

pub(crate) const fn seat_key(s: Seat) -> i8 {
    s as i8
}

pub(crate) fn outcome_key(o: Outcome) -> i8 {
    OUTCOMES.iter().position(|x| *x == o).unwrap_or(0) as i8
}

fn wait_key(w: WaitShape) -> i8 {
    WAITS
        .iter()
        .position(|x| *x == w)
        .unwrap_or(WAITS.len() - 1) as i8
}

fn reading_key(r: ReadingKind) -> i8 {
    READINGS.iter().position(|x| *x == r).unwrap_or(0) as i8
}

/// How a column is laid out in its part file, chosen from what its values look like. The
/// writer's default, a dictionary, hashes every value into a table: dearer per value than
/// anything else it does, and wasted on ids and random bits. Costs were measured with
/// callgrind on parts of random and greedy deals, counting the SHA-256 of the bytes written
/// (about 50 instructions a byte there) as part of each layout's cost; where the two kinds
/// of run disagree (`tiles_left`, nearly constant when random agents play), the random runs
/// decide, as they set the harness's throughput.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Storage {
    /// Distinct values once, then bit-packed keys, zstd-compressed: for values of a few
    /// dozen kinds repeated often (tiles, wait shapes, pattern ids).
    Dictionary,
    /// The values in row order, zstd-compressed: for columns nearly always one value (the
    /// variant, kongs), which zstd shrinks to almost nothing in one pass, and for strings
    /// nearly all distinct (hands, action logs), where a dictionary only costs.
    Plain,
    /// `DELTA_BINARY_PACKED` and uncompressed: for ids in order (a few bytes a page) and for
    /// small counts spread over a few values (each then takes the few bits its range
    /// needs, which zstd could not shrink much further).
    Delta,
    /// The values in row order, uncompressed: random bits, which zstd cannot shrink.
    Raw,
}

/// Whether `column` identifies a deal (in any table).
pub(crate) fn is_id(column: &str) -> bool {
    matches!(column, "deal_id" | "game_id" | "deal_in_game" | "seed")
}

/// A column's name without its seat suffix: the per-seat columns of the deals table
/// (`pay_e` … `pay_n`) and of the wins table (`value_e`, `pay_e`, …) share their stem's
/// layout and description. No other column of either table ends in a seat's letter.
pub(crate) fn stem(table: Table, column: &str) -> &str {
    match column.rsplit_once('_') {
        Some((stem, "e" | "s" | "w" | "n")) if matches!(table, Table::Deals | Table::Wins) => stem,
        _ => column,
    }
}

/// The columns (by [`stem`]) of each table stored other than as a dictionary, by layout. A
/// test checks that every name here is a column of its table.
pub(crate) const LAYOUTS: [(Table, Storage, &[&str]); 7] = [
    (
        Table::Deals,
        Storage::Delta,
        &[
            "deal_id",
            "game_id",
            "deal_in_game",
            "total_tai",
            "turns",
            "decisions",
            "pay",
            "flowers",
            "chows",
            "pungs",
            "shanten",
        ],
    ),
    (Table::Deals, Storage::Raw, &["seed"]),
    (
        Table::Deals,
        Storage::Plain,
        &[
            "variant",
            "round_wind",
            "dealer",
            "outcome",
            "dealer_streak",
            "n_winners",
            "tiles_left",
            "kongs",
            "concealed_kongs",
            "added_kongs",
            "declared_ready",
            "actions",
        ],
    ),
    (
        Table::Wins,
        Storage::Delta,
        &[
            "deal_id",
            "total_tai",
            "dealer_tai",
            "payment",
            "n_patterns",
            "n_melds",
            "n_flowers",
            "value",
            "pay",
        ],
    ),
    (Table::Wins, Storage::Plain, &["reading", "hand", "melds"]),
    (Table::Tai, Storage::Delta, &["deal_id"]),
    (Table::Tai, Storage::Plain, &["count", "tai"]),
];

/// The storage of `column` of `table`: as [`LAYOUTS`] lists it, else a dictionary.
pub(crate) fn storage(table: Table, column: &str) -> Storage {
    let stem = stem(table, column);
    LAYOUTS
        .iter()
        .find(|(t, _, names)| *t == table && names.contains(&stem))
        .map_or(Storage::Dictionary, |&(_, storage, _)| storage)
}

/// Per-seat columns of the deals and wins tables, in the order of their names' suffixes.
pub(crate) const SEAT_SUFFIX: [&str; 4] = ["e", "s", "w", "n"];

/// What each seat ended the deal with.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeatEnd {
    pub pay: i64,
    pub flowers: u8,
    pub chows: u8,
    pub pungs: u8,
    /// Kongs claimed from a discard (明槓).
    pub kongs: u8,
    pub concealed_kongs: u8,
    pub added_kongs: u8,
    pub declared_ready: bool,
    /// Shanten of the final concealed hand; −1 for a winner.
    pub shanten: i8,
}

/// One row of the deals table.
#[derive(Copy, Clone, Debug)]
pub(crate) struct DealRow {
    pub deal_id: u64,
    pub game: Option<(u64, u16)>,
    pub seed: u64,
    pub round_wind: Wind,
    pub dealer: Seat,
    pub dealer_streak: u8,
    pub outcome: Outcome,
    pub winners: taisim_sim::SeatSet,
    pub discarder: Option<Seat>,
    pub win_tile: Option<Tile>,
    pub total_tai: Option<u16>,
    pub turns: u16,
    pub decisions: u16,
    pub tiles_left: u8,
    pub seats: [SeatEnd; 4],
}

/// The deals table of one part. Unlike the other tables it keeps whole rows and makes the
/// columns only at the end of the part: a deal is one push here instead of one push into
/// each of some fifty column vectors, each checking its own length and capacity.
pub(crate) struct DealsColumns {
    rows: Vec<DealRow>,
    /// Each deal's decisions as action-space indices, one byte each; present with
    /// `--log-actions`.
    actions: Option<BinaryBuilder>,
}

/// The winner sets, as the strings the `winners` column shows: seat letters in seat order.
fn winner_sets() -> ArrayRef {
    strings((0u8..16).map(|bits| {
        Wind::ALL
            .iter()
            .filter(|s| bits & (1 << **s as u8) != 0)
            .map(|s| s.to_string())
            .collect::<String>()
    }))
}

fn winners_key(set: taisim_sim::SeatSet) -> u8 {
    let mut bits = 0;
    for s in set.iter() {
        bits |= 1 << s as u8;
    }
    bits
}

impl DealsColumns {
    /// A table for about `capacity` deals, reserved up front.
    pub fn new(log_actions: bool, capacity: usize) -> DealsColumns {
        DealsColumns {
            rows: Vec::with_capacity(capacity),
            actions: log_actions.then(|| BinaryBuilder::with_capacity(capacity, capacity * 80)),
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn schema(log_actions: bool) -> SchemaRef {
        let mut fields = vec![
            Field::new("deal_id", DataType::UInt64, false),
            Field::new("game_id", DataType::UInt64, true),
            Field::new("deal_in_game", DataType::UInt16, true),
            Field::new("seed", DataType::UInt64, false),
            dict("variant", false),
            dict("round_wind", false),
            dict("dealer", false),
            Field::new("dealer_streak", DataType::UInt8, false),
            dict("outcome", false),
            dict("winners", true),
            Field::new("n_winners", DataType::UInt8, false),
            dict("discarder", true),
            dict("win_tile", true),
            Field::new("total_tai", DataType::UInt16, true),
            Field::new("turns", DataType::UInt16, false),
            Field::new("decisions", DataType::UInt16, false),
            Field::new("tiles_left", DataType::UInt8, false),
        ];
        for s in SEAT_SUFFIX {
            fields.push(Field::new(format!("pay_{s}"), DataType::Int64, false));
        }
        for s in SEAT_SUFFIX {
            for (name, ty) in [
                ("flowers", DataType::UInt8),
                ("chows", DataType::UInt8),
                ("pungs", DataType::UInt8),
                ("kongs", DataType::UInt8),
                ("concealed_kongs", DataType::UInt8),
                ("added_kongs", DataType::UInt8),
                ("declared_ready", DataType::Boolean),
                ("shanten", DataType::Int8),
            ] {
                fields.push(Field::new(format!("{name}_{s}"), ty, false));
            }
        }
        if log_actions {
            fields.push(Field::new("actions", DataType::Binary, false));
        }
        Arc::new(Schema::new(fields))
    }

    pub fn push(&mut self, row: &DealRow, actions: &[u8]) {
        self.rows.push(*row);
        if let Some(b) = &mut self.actions {
            b.append_value(actions);
        }
    }

    pub fn finish(self, variant: &str) -> RecordBatch {
        let d = dictionaries();
        let rows = &self.rows[..];
        let log_actions = self.actions.is_some();
        // Generic, not `&dyn Fn`, so that each column's loop inlines its field access.
        fn u8s(rows: &[DealRow], f: impl Fn(&DealRow) -> u8) -> ArrayRef {
            Arc::new(UInt8Array::from_iter_values(rows.iter().map(f)))
        }
        fn u16s(rows: &[DealRow], f: impl Fn(&DealRow) -> u16) -> ArrayRef {
            Arc::new(UInt16Array::from_iter_values(rows.iter().map(f)))
        }
        fn keys(rows: &[DealRow], f: impl Fn(&DealRow) -> i8) -> Int8Array {
            Int8Array::from_iter_values(rows.iter().map(f))
        }
        fn nullable_keys(rows: &[DealRow], f: impl Fn(&DealRow) -> Option<i8>) -> Int8Array {
            Int8Array::from_iter(rows.iter().map(f))
        }
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from_iter_values(
                rows.iter().map(|r| r.deal_id),
            )),
            Arc::new(UInt64Array::from_iter(
                rows.iter().map(|r| r.game.map(|g| g.0)),
            )),
            Arc::new(UInt16Array::from_iter(
                rows.iter().map(|r| r.game.map(|g| g.1)),
            )),
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.seed))),
            dict_column(Int8Array::from_value(0, rows.len()), &strings([variant])),
            dict_column(keys(rows, |r| seat_key(r.round_wind)), &d.seats),
            dict_column(keys(rows, |r| seat_key(r.dealer)), &d.seats),
            u8s(rows, |r| r.dealer_streak),
            dict_column(keys(rows, |r| outcome_key(r.outcome)), &d.outcomes),
            dict_column(
                nullable_keys(rows, |r| {
                    let w = winners_key(r.winners);
                    (w != 0).then_some(w as i8)
                }),
                &winner_sets(),
            ),
            u8s(rows, |r| r.winners.len() as u8),
            dict_column(nullable_keys(rows, |r| r.discarder.map(seat_key)), &d.seats),
            dict_column(
                nullable_keys(rows, |r| r.win_tile.map(|t| t.to_u8() as i8)),
                &d.tiles,
            ),
            Arc::new(UInt16Array::from_iter(rows.iter().map(|r| r.total_tai))),
            u16s(rows, |r| r.turns),
            u16s(rows, |r| r.decisions),
            u8s(rows, |r| r.tiles_left),
        ];
        for s in 0..4 {
            columns.push(Arc::new(Int64Array::from_iter_values(
                rows.iter().map(|r| r.seats[s].pay),
            )));
        }
        for s in 0..4 {
            columns.extend([
                u8s(rows, |r| r.seats[s].flowers),
                u8s(rows, |r| r.seats[s].chows),
                u8s(rows, |r| r.seats[s].pungs),
                u8s(rows, |r| r.seats[s].kongs),
                u8s(rows, |r| r.seats[s].concealed_kongs),
                u8s(rows, |r| r.seats[s].added_kongs),
                Arc::new(BooleanArray::from(
                    rows.iter()
                        .map(|r| r.seats[s].declared_ready)
                        .collect::<Vec<_>>(),
                )),
                Arc::new(Int8Array::from_iter_values(
                    rows.iter().map(|r| r.seats[s].shanten),
                )),
            ]);
        }
        if let Some(mut b) = self.actions {
            columns.push(Arc::new(b.finish()));
        }
        RecordBatch::try_new(DealsColumns::schema(log_actions), columns)
            .expect("the deals columns follow the deals schema")
    }
}

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

    pub fn finish(mut self) -> RecordBatch {
        let d = dictionaries();
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(self.deal_id)),
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
        let batch = tai.finish();
        assert!(batch.schema().index_of("points").is_err());
        assert!(batch.schema().index_of("hu").is_err());

        let mut points = WinsColumns::default();
        points.set_layout(WinsLayout {
            points_model: true,
            all_pairs: false,
        });
        points.push(&row(&hand, Some((4, 28))));
        let batch = points.finish();
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
        let batch = t.finish();
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
