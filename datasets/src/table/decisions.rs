//! The decisions table (`simulate --decisions`): one row per decision of the chosen seats
//! that had a real choice (more than one legal action-space index), with what the seat saw,
//! what it could do, what it did and what the deal paid it: a supervised-learning dataset.
//!
//! The observation is stored as one byte per cell, its numerator: every value of the layout
//! (`taisim_agents::obs`) is a fraction `k / d` with a per-cell denominator `d` fixed by the
//! layout ([`obs_denominators`]), so the `f32` the environment produces is exactly
//! `numerator as f32 * (1 / d)`. A value that is not (a layout change that forgot this
//! table) stops the run with an error naming the cell, never a silently rounded dataset.

use core::fmt;
use core::str::FromStr;
use std::sync::{Arc, OnceLock};

use arrow_array::{
    ArrayRef, FixedSizeBinaryArray, FixedSizeListArray, Float32Array, RecordBatch, StringArray,
    UInt32Array, UInt64Array, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use serde::{Deserialize, Serialize};
use taisim_agents::obs::{channel, scalar};
use taisim_agents::search::SearchDecision;
use taisim_agents::{write_mask, ObsEncoder, ACTION_SPACE_SIZE, OBS_LEN, OBS_VERSION, OBS_WIDTH};
use taisim_sim::{Action, ActionList, Deal, Seat};

/// `--decisions all` or `--decisions E,S`: the seats whose decisions are written, as bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DecisionSeats(u8);

impl DecisionSeats {
    pub const ALL: DecisionSeats = DecisionSeats(0b1111);

    pub const fn contains(self, seat: Seat) -> bool {
        self.0 >> seat as u8 & 1 == 1
    }

    /// How many seats.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
}

impl FromStr for DecisionSeats {
    type Err = String;

    fn from_str(s: &str) -> Result<DecisionSeats, String> {
        if s.trim() == "all" {
            return Ok(DecisionSeats::ALL);
        }
        let mut bits = 0u8;
        for name in s.split(',') {
            let seat = match name.trim() {
                "E" => Seat::East,
                "S" => Seat::South,
                "W" => Seat::West,
                "N" => Seat::North,
                other => {
                    return Err(format!(
                        "decision seats are \"all\" or seats from E, S, W, N separated by commas (as in E,W), not {other:?}"
                    ))
                }
            };
            if bits & 1 << seat as u8 != 0 {
                return Err(format!("seat {} is named twice in {s:?}", name.trim()));
            }
            bits |= 1 << seat as u8;
        }
        Ok(DecisionSeats(bits))
    }
}

impl fmt::Display for DecisionSeats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == DecisionSeats::ALL {
            return f.write_str("all");
        }
        let names: Vec<&str> = Seat::ALL
            .iter()
            .filter(|&&s| self.contains(s))
            .map(|&s| ["E", "S", "W", "N"][s as usize])
            .collect();
        f.write_str(&names.join(","))
    }
}

impl Serialize for DecisionSeats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_string().serialize(s)
    }
}

impl<'de> Deserialize<'de> for DecisionSeats {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DecisionSeats, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// Each cell's denominator in the current observation layout, row-major: the one place
/// the layout's fractions are listed. Rows not named here hold 0, 1 or quarters (counts of
/// four copies), so 4 serves them all.
pub fn obs_denominators() -> &'static [u8; OBS_LEN] {
    static TABLE: OnceLock<[u8; OBS_LEN]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut d = [4u8; OBS_LEN];
        let s = channel::SCALARS * OBS_WIDTH;
        d[s + scalar::STREAK] = 8;
        d[s + scalar::DRAWABLE] = 64;
        for r in 0..4 {
            d[s + scalar::HAND_LEN + r] = 17;
            d[s + scalar::HIDDEN_KONGS + r] = 5;
        }
        d[s + scalar::RIVER_LEN] = 136;
        let u = channel::UKEIRE_AFTER * OBS_WIDTH;
        d[u..u + OBS_WIDTH].fill(taisim_agents::obs::UKEIRE_SCALE as u8);
        d
    })
}

/// `1 / denominator` per cell, as `f32`: `obs = numerators × obs_scale` exactly.
pub fn obs_scale() -> &'static [f32; OBS_LEN] {
    static TABLE: OnceLock<[f32; OBS_LEN]> = OnceLock::new();
    TABLE.get_or_init(|| obs_denominators().map(|d| 1.0 / d as f32))
}

/// An observation cell whose value the decisions table cannot store: not exactly a numerator
/// of at most 255 over the cell's denominator (a layout change that forgot this table).
#[derive(Copy, Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "observation cell (row {row}, column {column}) holds {value}, not k/{denominator} for a whole k ≤ 255: the decisions table cannot store it exactly"
)]
pub struct QuantizeError {
    pub row: usize,
    pub column: usize,
    pub value: f32,
    pub denominator: u8,
}

/// The numerators of `obs` into `out`, or the first cell whose value is not exactly a
/// numerator of at most 255 times the cell's scale.
pub fn quantize(obs: &[f32; OBS_LEN], out: &mut [u8]) -> Result<(), QuantizeError> {
    let den = obs_denominators();
    let scale = obs_scale();
    // Every cell first, without a branch or a rounding call, so the loop vectorises: a
    // per-cell `round` and early return made this most of a `--decisions all` run's
    // instructions. A bad cell is looked for only once one is known to exist.
    let mut exact = true;
    for (((&v, &d), &s), o) in obs.iter().zip(den).zip(scale).zip(out.iter_mut()) {
        let k = numerator(v, d);
        exact &= stores_exactly(v, k, s);
        *o = k;
    }
    if exact {
        return Ok(());
    }
    let i = (0..OBS_LEN)
        .find(|&i| !stores_exactly(obs[i], numerator(obs[i], den[i]), scale[i]))
        .unwrap_or(0);
    Err(QuantizeError {
        row: i / OBS_WIDTH,
        column: i % OBS_WIDTH,
        value: obs[i],
        denominator: den[i],
    })
}

/// The nearest whole numerator of `v` over `d`; the cast saturates (negative values and NaN
/// give 0, values past 255/d give 255), so any value that is not one is caught by
/// [`stores_exactly`].
#[inline(always)]
fn numerator(v: f32, d: u8) -> u8 {
    (v * f32::from(d) + 0.5) as u8
}

/// `k × scale` is `v`, bit for bit (so −0.0 and NaN are refused).
#[inline(always)]
fn stores_exactly(v: f32, k: u8, scale: f32) -> bool {
    (f32::from(k) * scale).to_bits() == v.to_bits()
}

/// The search-label columns after the table's own: the searcher's choice, then one value per
/// action-space index of its mean points, paired advantage and rollouts.
pub const SEARCH_COLUMNS: [&str; 4] = [
    "search_action",
    "search_mean",
    "search_advantage",
    "search_rollouts",
];

/// A list of one value per action-space index (never null, nor its items: an action the
/// search did not estimate holds NaN, or 0 rollouts).
fn per_action(item: DataType) -> DataType {
    DataType::FixedSizeList(
        Arc::new(Field::new("item", item, false)),
        ACTION_SPACE_SIZE as i32,
    )
}

/// The table's columns, in order; with `search_labels`, the [`SEARCH_COLUMNS`] after them
/// (a run whose decisions a search agent made or labelled).
pub fn schema(search_labels: bool) -> SchemaRef {
    static PLAIN: OnceLock<SchemaRef> = OnceLock::new();
    static LABELLED: OnceLock<SchemaRef> = OnceLock::new();
    let cell = if search_labels { &LABELLED } else { &PLAIN };
    cell.get_or_init(|| {
        let mut fields = base_fields();
        if search_labels {
            fields.extend([
                Field::new(SEARCH_COLUMNS[0], DataType::UInt8, true),
                Field::new(SEARCH_COLUMNS[1], per_action(DataType::Float32), false),
                Field::new(SEARCH_COLUMNS[2], per_action(DataType::Float32), false),
                Field::new(SEARCH_COLUMNS[3], per_action(DataType::UInt32), false),
            ]);
        }
        Arc::new(Schema::new(fields))
    })
    .clone()
}

fn base_fields() -> Vec<Field> {
    vec![
        Field::new("deal_id", DataType::UInt64, false),
        Field::new("step", DataType::UInt32, false),
        Field::new("seat", DataType::UInt8, false),
        Field::new("obs", DataType::FixedSizeBinary(OBS_LEN as i32), false),
        Field::new(
            "mask",
            DataType::FixedSizeBinary(ACTION_SPACE_SIZE as i32),
            false,
        ),
        Field::new("action", DataType::UInt8, false),
        Field::new("reward", DataType::Float32, false),
        Field::new("obs_version", DataType::UInt8, false),
        Field::new("variant", DataType::Utf8, false),
    ]
}

/// What each column holds, for `simulate --schema`.
pub fn describe(column: &str) -> Option<&'static str> {
    Some(match column {
        "deal_id" => "the deal, as in the deals table",
        "step" => "the decision's number in the deal from 0, every seat's decisions counted",
        "seat" => "the deciding seat: 0 E, 1 S, 2 W, 3 N",
        "obs" => "the observation's numerators, one byte per cell row-major (channels × 34); the value is numerator × obs_scale (taisim.load_decisions)",
        "mask" => "one byte per action-space index: 1 if legal",
        "action" => "the action-space index taken",
        "reward" => "the seat's settlement points for the deal (its net payment)",
        "obs_version" => "the observation layout (taisim_agents::OBS_VERSION)",
        "variant" => "the variant's name",
        "search_action" => "the search's choice (action-space index): the deciding search agent's, or with --label-with the labelling search's, which the seat did not necessarily play; null where no search decided (another agent's decision without --label-with). Columns search_* are present only in runs whose recorded seats are search agents or made with --label-with",
        "search_mean" => "per action-space index (144 values): the search's mean points for the seat at the end of the deal after that action, over its rollouts; NaN where it did not estimate the action (illegal, left out by its prior, a win taken unsearched (wins=take, or one robbing a flower before the first turn), a decision no search saw)",
        "search_advantage" => "per action-space index: the mean points more than the search's default (greedy's choice, or the value agent's under own=value) on the same determinizations (0 for the default itself); NaN where not estimated",
        "search_rollouts" => "per action-space index: the rollouts behind search_mean (fewer for actions dropped early by its racing schedule); 0 where not estimated",
        _ => return None,
    })
}

/// The search-label columns of one part's rows, in step with them (see [`SEARCH_COLUMNS`]).
struct SearchColumns {
    action: Vec<u8>,
    /// Whether `action` holds a choice (false: null).
    decided: Vec<bool>,
    /// `rows × ACTION_SPACE_SIZE` each.
    mean: Vec<f32>,
    advantage: Vec<f32>,
    rollouts: Vec<u32>,
}

impl SearchColumns {
    /// A row no search decided: null, NaN and 0 throughout, until [`DecisionsColumns::label`].
    fn push_unlabelled(&mut self) {
        self.action.push(0);
        self.decided.push(false);
        let n = self.mean.len() + ACTION_SPACE_SIZE;
        self.mean.resize(n, f32::NAN);
        self.advantage.resize(n, f32::NAN);
        self.rollouts.resize(n, 0);
    }
}

/// One part's decision rows, filled deal by deal.
pub(crate) struct DecisionsColumns {
    seats: DecisionSeats,
    deal_id: Vec<u64>,
    step: Vec<u32>,
    seat: Vec<u8>,
    obs: Vec<u8>,
    mask: Vec<u8>,
    action: Vec<u8>,
    reward: Vec<f32>,
    /// The first row of the deal being played.
    deal_start: usize,
    encoder: ObsEncoder,
    buf: Box<[f32; OBS_LEN]>,
    legal: ActionList,
    /// The first observation that could not be stored, if any.
    error: Option<QuantizeError>,
    /// With search labels.
    search: Option<SearchColumns>,
}

impl DecisionsColumns {
    pub fn new(seats: DecisionSeats, search_labels: bool) -> DecisionsColumns {
        DecisionsColumns {
            search: search_labels.then(|| SearchColumns {
                action: Vec::new(),
                decided: Vec::new(),
                mean: Vec::new(),
                advantage: Vec::new(),
                rollouts: Vec::new(),
            }),
            seats,
            deal_id: Vec::new(),
            step: Vec::new(),
            seat: Vec::new(),
            obs: Vec::new(),
            mask: Vec::new(),
            action: Vec::new(),
            reward: Vec::new(),
            deal_start: 0,
            encoder: ObsEncoder::new(),
            buf: Box::new([0.0; OBS_LEN]),
            legal: ActionList::new(),
            error: None,
        }
    }

    pub fn len(&self) -> usize {
        self.action.len()
    }

    /// A new deal starts: the encoder forgets the last deal's river.
    pub fn start_deal(&mut self) {
        self.encoder.forget();
        self.deal_start = self.len();
    }

    /// Whether the rows carry search labels ([`DecisionsColumns::label`]).
    pub fn labelled(&self) -> bool {
        self.search.is_some()
    }

    /// Records decision `step` of `deal` (about to play `action`) if its seat is chosen and
    /// it has a real choice; returns whether it did. A labelled table's new row has no
    /// label until [`DecisionsColumns::label`] gives it one.
    pub fn record(&mut self, deal: &Deal, action: Action, step: u32) -> bool {
        let Some(seat) = deal.to_act() else {
            return false;
        };
        if !self.seats.contains(seat) || self.error.is_some() {
            return false;
        }
        deal.legal_actions(&mut self.legal);
        let at = self.mask.len();
        self.mask.resize(at + ACTION_SPACE_SIZE, 0);
        let offer = deal.tile_on_offer();
        if write_mask(&self.legal, offer, &mut self.mask[at..]) < 2 {
            self.mask.truncate(at);
            return false;
        }
        // Every index of the space fits a byte (144 of them).
        let index = taisim_agents::space::action_index(action, offer).unwrap_or(u8::MAX as usize);
        self.encoder
            .encode_slice(&deal.view(seat), &mut self.buf[..]);
        let o = self.obs.len();
        self.obs.resize(o + OBS_LEN, 0);
        if let Err(e) = quantize(&self.buf, &mut self.obs[o..]) {
            self.error = Some(e);
            return false;
        }
        self.step.push(step);
        self.seat.push(seat as u8);
        self.action.push(index as u8);
        if let Some(search) = &mut self.search {
            search.push_unlabelled();
        }
        true
    }

    /// Labels the row just recorded (at `deal`'s current decision) with what a search worked
    /// out for it: its choice, and each action's estimate it played rollouts for.
    pub fn label(&mut self, deal: &Deal, decision: &SearchDecision) {
        let Some(search) = &mut self.search else {
            return;
        };
        let Some(row) = search.decided.len().checked_sub(1) else {
            return;
        };
        let offer = deal.tile_on_offer();
        let index = |a: Action| taisim_agents::space::action_index(a, offer);
        if let Some(i) = decision.chosen.and_then(index) {
            // Every index of the space fits a byte (144 of them).
            search.action[row] = i as u8;
            search.decided[row] = true;
        }
        let at = row * ACTION_SPACE_SIZE;
        for e in decision.estimates.iter().filter(|e| e.rollouts > 0) {
            if let Some(i) = index(e.action) {
                search.mean[at + i] = e.mean as f32;
                search.advantage[at + i] = e.advantage as f32;
                search.rollouts[at + i] = e.rollouts;
            }
        }
    }

    /// The deal `deal_id` ended paying `pay`: its rows get their id and reward. An
    /// observation that could not be stored is the error.
    pub fn end_deal(&mut self, deal_id: u64, pay: [i64; 4]) -> Result<(), QuantizeError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        for &s in &self.seat[self.deal_start..] {
            self.deal_id.push(deal_id);
            self.reward.push(pay[s as usize] as f32);
        }
        Ok(())
    }

    pub fn finish(self, variant: &str) -> RecordBatch {
        let n = self.len();
        let fixed = |bytes: Vec<u8>, width: usize| -> ArrayRef {
            Arc::new(
                FixedSizeBinaryArray::try_new(width as i32, bytes.into(), None)
                    .expect("whole rows of bytes"),
            )
        };
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(self.deal_id)),
            Arc::new(UInt32Array::from(self.step)),
            Arc::new(UInt8Array::from(self.seat)),
            fixed(self.obs, OBS_LEN),
            fixed(self.mask, ACTION_SPACE_SIZE),
            Arc::new(UInt8Array::from(self.action)),
            Arc::new(Float32Array::from(self.reward)),
            Arc::new(UInt8Array::from_value(OBS_VERSION as u8, n)),
            Arc::new(StringArray::from_iter_values(std::iter::repeat_n(
                variant, n,
            ))),
        ];
        let labelled = self.search.is_some();
        if let Some(search) = self.search {
            let list = |values: ArrayRef| -> ArrayRef {
                let item = Arc::new(Field::new("item", values.data_type().clone(), false));
                Arc::new(
                    FixedSizeListArray::try_new(item, ACTION_SPACE_SIZE as i32, values, None)
                        .expect("whole rows of values"),
                )
            };
            let action: UInt8Array = search
                .action
                .iter()
                .zip(&search.decided)
                .map(|(&a, &d)| d.then_some(a))
                .collect();
            columns.extend([
                Arc::new(action) as ArrayRef,
                list(Arc::new(Float32Array::from(search.mean))),
                list(Arc::new(Float32Array::from(search.advantage))),
                list(Arc::new(UInt32Array::from(search.rollouts))),
            ]);
        }
        RecordBatch::try_new(schema(labelled), columns).expect("columns match the schema")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numerator_of_every_cell_round_trips() {
        let scale = obs_scale();
        let mut out = [0u8; OBS_LEN];
        for k in 0..=255u8 {
            let obs: [f32; OBS_LEN] = std::array::from_fn(|i| f32::from(k) * scale[i]);
            quantize(&obs, &mut out).unwrap();
            assert!(out.iter().all(|&o| o == k), "numerator {k}");
        }
    }

    #[test]
    fn values_that_are_not_numerators_name_their_cell() {
        let scale = obs_scale();
        let den = obs_denominators();
        let s = channel::SCALARS * OBS_WIDTH + scalar::DRAWABLE;
        let cases = [
            (7, f32::from_bits((3.0 * scale[7]).to_bits() + 1)),
            (7, -0.0),
            (7, f32::NAN),
            (7, -scale[7]),
            (7, 256.0 * scale[7]),
            (s, 0.5 * scale[s]),
            (OBS_LEN - 1, 1e9),
        ];
        for (cell, value) in cases {
            let mut obs = [0.0f32; OBS_LEN];
            obs[cell] = value;
            let err = quantize(&obs, &mut [0u8; OBS_LEN]).unwrap_err().to_string();
            let place = format!(
                "(row {}, column {}) holds {value}, not k/{}",
                cell / OBS_WIDTH,
                cell % OBS_WIDTH,
                den[cell]
            );
            assert!(err.contains(&place), "{err} should name {place}");
        }
        // Two bad cells: the first one is named.
        let mut obs = [0.0f32; OBS_LEN];
        obs[OBS_LEN - 1] = 0.3;
        obs[40] = 0.3;
        let err = quantize(&obs, &mut [0u8; OBS_LEN]).unwrap_err();
        assert_eq!((err.row, err.column), (1, 6), "{err}");
    }
}
