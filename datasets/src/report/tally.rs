//! Folding a run's rows into integer counters: one [`Tally`] per part, read a batch at a
//! time (only the columns a figure needs), merged in part order into a [`Report`].

use std::collections::BTreeMap;
use std::path::Path;

use arrow_array::{
    Array, BooleanArray, Int64Array, UInt16Array, UInt32Array, UInt64Array, UInt8Array,
};
use rustc_hash::FxHashMap;
use taisim_score::PatternId;
use taisim_sim::{Outcome, Wind};

use super::{AllPairsStats, Moments, PatternStats, PointsStats, Report, SeatStats, SeatsOfDeal};
use crate::error::HarnessError;
use crate::part::PartRecord;
use crate::read::{column, string_codes, Run, READ_BATCH_ROWS};
use crate::table::{Table, WinsLayout, OUTCOMES, SEAT_SUFFIX};

/// A deal as the deals table records it: its winners and their tai summed.
pub(super) struct DealTotal {
    deal_id: u64,
    winners: u8,
    total_tai: u16,
}

/// Each deal's winners and total are its wins' (a recompute, as for [`WinTotal::check`]).
fn check_deal_totals(
    deals: &[DealTotal],
    wins: &[WinTotal],
    deals_path: &Path,
) -> Result<(), HarnessError> {
    let mut of_deal: FxHashMap<u64, (u8, u64)> = FxHashMap::default();
    of_deal.reserve(wins.len());
    for w in wins {
        let e = of_deal.entry(w.deal_id).or_default();
        e.0 = e.0.saturating_add(1);
        e.1 += w.total_tai as u64;
    }
    for d in deals {
        let (winners, tai) = of_deal.remove(&d.deal_id).unwrap_or_default();
        if (winners, tai) != (d.winners, d.total_tai as u64) {
            return Err(HarnessError::Corrupt {
                path: deals_path.to_path_buf(),
                message: format!(
                    "deal {} has {} winners and {} tai, but the wins table has {winners} wins of {tai} tai for it",
                    d.deal_id, d.winners, d.total_tai
                ),
            });
        }
    }
    match of_deal.keys().min() {
        Some(id) => Err(HarnessError::Corrupt {
            path: deals_path.to_path_buf(),
            message: format!(
                "the wins table has a win in deal {id}, which the deals table does not have"
            ),
        }),
        None => Ok(()),
    }
}

/// Each pattern's 胡 under a points variant, by catalogue index (`PatternId::index`).
pub(super) type PatternHu = [u16; PatternId::COUNT];

/// A win as the wins table records it, and what its pattern rows in the tai table add up to.
pub(super) struct WinTotal {
    deal_id: u64,
    winner: usize,
    total_tai: u16,
    capped: bool,
    n_patterns: u8,
    /// Its 胡 (a points variant's `hu` column).
    recorded_hu: Option<u64>,
    /// Its rows in the tai table, their tai summed, and their 胡 (when the patterns' 胡 are
    /// known).
    rows: u32,
    tai: u64,
    hu: u64,
}

impl WinTotal {
    /// A win's total is its patterns' tai summed, or less where the variant's limit cut it
    /// (`capped`); it has as many pattern rows as it says it counts; and under a points
    /// variant whose patterns' 胡 are known, its 胡 is theirs summed. A recompute that
    /// catches what a damaged part decodes to when checksums are not verified.
    fn check(&self, tai_path: &Path, hu_known: bool) -> Result<(), HarnessError> {
        let total = self.total_tai as u64;
        let problem = if self.rows != self.n_patterns as u32 {
            format!(
                "has {} pattern rows but counts {} patterns",
                self.rows, self.n_patterns
            )
        } else if let Some(hu) = self.recorded_hu.filter(|&h| hu_known && h != self.hu) {
            format!("has {hu} 胡, but its pattern rows' 胡 sum to {}", self.hu)
        } else if total > self.tai || (total < self.tai && !self.capped) {
            format!(
                "totals {total} tai{}, but its pattern rows sum to {}",
                if self.capped { " (capped)" } else { "" },
                self.tai
            )
        } else {
            return Ok(());
        };
        Err(HarnessError::Corrupt {
            path: tai_path.to_path_buf(),
            message: format!(
                "the win of seat {} in deal {} {problem}",
                Wind::ALL[self.winner],
                self.deal_id
            ),
        })
    }
}

/// The counters of some parts; merged in part order.
#[derive(Default)]
pub(super) struct Tally {
    deals: u64,
    wins: u64,
    tai_rows: u64,
    outcomes: [u64; 4],
    multi_winner_deals: u64,
    self_drawn_wins: u64,
    capped_wins: u64,
    below_minimum_wins: u64,
    below_minimum_fined: u64,
    tai_per_win: Moments,
    tai_per_deal: Moments,
    payment_per_win: Moments,
    seat_wins: [u64; 4],
    seat_self_drawn: [u64; 4],
    seat_deal_ins: [u64; 4],
    seat_pay: [Moments; 4],
    /// Deals each seat dealt, and deals of each round wind.
    seat_dealer: [u64; 4],
    round_winds: [u64; 4],
    /// Wins by total_tai, indexed by tai.
    histogram: Vec<u64>,
    /// By pattern id: (name, wins, tai, 胡; the 胡 tallied only when known).
    patterns: BTreeMap<String, (String, u64, u64, u64)>,
    /// Parts counted.
    pub(super) parts: u64,
    /// The wins table's optional columns (the same in every part of a run).
    pub(super) layout: WinsLayout,
    hu_per_win: Moments,
    points_per_win: Moments,
    /// Wins by points.
    points_histogram: BTreeMap<u64, u64>,
    responsible_wins: u64,
    dealer_pay: Moments,
    /// The non-dealers' net payments summed, one sample a deal.
    non_dealers_pay: Moments,
}

fn seat_code(s: &str) -> Option<usize> {
    Wind::ALL.iter().position(|w| w.to_string() == s)
}

fn outcome_code(s: &str) -> Option<usize> {
    OUTCOMES.iter().position(|o| o.name() == s)
}

const PAY_COLUMNS: [&str; 4] = ["pay_e", "pay_s", "pay_w", "pay_n"];

const VALUE_COLUMNS: [&str; 4] = ["value_e", "value_s", "value_w", "value_n"];

const _: () = assert!(SEAT_SUFFIX.len() == PAY_COLUMNS.len());

/// A part's pattern ids and names, coded in order of first sight.
#[derive(Default)]
struct PatternCodes {
    ids: Vec<String>,
    names: Vec<Option<String>>,
    wins: Vec<u64>,
    tai: Vec<u64>,
    /// The 胡 its rows gave (a points variant's run, its patterns' 胡 known).
    hu: Vec<u64>,
    /// Its index in the catalogue (`PatternId::index`).
    catalogue: Vec<usize>,
}

impl PatternCodes {
    fn code(&mut self, id: &str, pattern: PatternId) -> usize {
        match self.ids.iter().position(|x| x == id) {
            Some(i) => i,
            None => {
                self.ids.push(id.to_string());
                self.names.push(None);
                self.wins.push(0);
                self.tai.push(0);
                self.hu.push(0);
                self.catalogue.push(pattern.index());
                self.ids.len() - 1
            }
        }
    }
}

impl Tally {
    /// Reads one part's three tables.
    pub(super) fn of_part(
        run: &Run,
        part: &PartRecord,
        verify: bool,
        hu: Option<&PatternHu>,
    ) -> Result<Tally, HarnessError> {
        if verify {
            for table in [Table::Deals, Table::Wins, Table::Tai] {
                run.verify_checksum(part, table)?;
            }
        }
        let mut t = Tally {
            parts: 1,
            ..Tally::default()
        };
        let deal_totals = t.read_deals(run, part)?;
        let winners = deal_totals.iter().map(|d| d.winners as u64).sum::<u64>();
        let mut wins = t.read_wins(run, part)?;
        let patterns = wins.iter().map(|w| w.n_patterns as u64).sum::<u64>();
        if winners != t.wins {
            return Err(HarnessError::Corrupt {
                path: run.path(&part.wins),
                message: format!(
                    "{} win rows, but the part's deals have {winners} winners",
                    t.wins
                ),
            });
        }
        check_deal_totals(&deal_totals, &wins, &run.path(&part.deals))?;
        t.read_tai(run, part, &mut wins, hu)?;
        if patterns != t.tai_rows {
            return Err(HarnessError::Corrupt {
                path: run.path(&part.tai),
                message: format!(
                    "{} pattern rows, but the part's wins count {patterns} patterns",
                    t.tai_rows
                ),
            });
        }
        for w in &wins {
            w.check(&run.path(&part.tai), hu.is_some())?;
        }
        Ok(t)
    }

    /// Returns each deal's winners and total, for checking against the wins table.
    fn read_deals(&mut self, run: &Run, part: &PartRecord) -> Result<Vec<DealTotal>, HarnessError> {
        let file = run.open_part(part, Table::Deals)?;
        let path = file.path().to_path_buf();
        let mut columns = vec![
            "deal_id",
            "dealer",
            "round_wind",
            "outcome",
            "n_winners",
            "discarder",
            "total_tai",
        ];
        columns.extend(PAY_COLUMNS);
        let mut deals = Vec::new();
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            let deal_id = column::<UInt64Array>(&batch, "deal_id", &path)?;
            let dealer = string_codes(&batch, "dealer", &path, seat_code)?;
            let round_wind = string_codes(&batch, "round_wind", &path, seat_code)?;
            let outcome = string_codes(&batch, "outcome", &path, outcome_code)?;
            let discarder = string_codes(&batch, "discarder", &path, seat_code)?;
            let n_winners = column::<UInt8Array>(&batch, "n_winners", &path)?;
            let total_tai = column::<UInt16Array>(&batch, "total_tai", &path)?;
            let mut pays = Vec::with_capacity(4);
            for name in PAY_COLUMNS {
                pays.push(column::<Int64Array>(&batch, name, &path)?);
            }
            for i in 0..batch.num_rows() {
                let o = outcome[i].ok_or_else(|| null_in(&path, "outcome"))?;
                let n = n_winners.value(i);
                if (OUTCOMES[o] == Outcome::ExhaustiveDraw) != (n == 0) {
                    return Err(HarnessError::Corrupt {
                        path: path.clone(),
                        message: format!(
                            "a deal with outcome {} has {n} winners",
                            OUTCOMES[o].name()
                        ),
                    });
                }
                // Every settlement moves money between the seats: it sums to zero.
                let sum: i128 = pays.iter().map(|p| p.value(i) as i128).sum();
                if sum != 0 {
                    return Err(HarnessError::Corrupt {
                        path: path.clone(),
                        message: format!(
                            "deal {}: the seats' payments sum to {sum}, not 0",
                            deal_id.value(i)
                        ),
                    });
                }
                self.deals += 1;
                self.outcomes[o] += 1;
                if n > 1 {
                    self.multi_winner_deals += 1;
                }
                if let Some(s) = discarder[i] {
                    self.seat_deal_ins[s] += 1;
                }
                let tai = if total_tai.is_null(i) {
                    0
                } else {
                    total_tai.value(i)
                };
                deals.push(DealTotal {
                    deal_id: deal_id.value(i),
                    winners: n,
                    total_tai: tai,
                });
                self.tai_per_deal.add(tai as i64);
                for (m, pay) in self.seat_pay.iter_mut().zip(&pays) {
                    m.add(pay.value(i));
                }
                let d = dealer[i].ok_or_else(|| null_in(&path, "dealer"))?;
                self.seat_dealer[d] += 1;
                self.round_winds[round_wind[i].ok_or_else(|| null_in(&path, "round_wind"))?] += 1;
                let mut non_dealers = 0;
                for (s, pay) in pays.iter().enumerate() {
                    if s == d {
                        self.dealer_pay.add(pay.value(i));
                    } else {
                        non_dealers += pay.value(i);
                    }
                }
                self.non_dealers_pay.add(non_dealers);
            }
        }
        Ok(deals)
    }

    /// Returns the wins as recorded, for checking against the tai table.
    fn read_wins(&mut self, run: &Run, part: &PartRecord) -> Result<Vec<WinTotal>, HarnessError> {
        let file = run.open_part(part, Table::Wins)?;
        let path = file.path().to_path_buf();
        // The variant's optional columns, as the file has them: a part missing one of a
        // group it has others of is damaged, and reading it says which column is missing.
        self.layout = WinsLayout {
            points_model: file.has_column("points") || file.has_column("hu"),
            all_pairs: ["responsible", "value_e", "pay_e"]
                .iter()
                .any(|c| file.has_column(c)),
        };
        let mut columns = vec![
            "deal_id",
            "winner",
            "total_tai",
            "self_draw",
            "capped",
            "meets_minimum",
            "payment",
            "n_patterns",
        ];
        if self.layout.points_model {
            columns.extend(["hu", "points"]);
        }
        if self.layout.all_pairs {
            columns.push("responsible");
            columns.extend(VALUE_COLUMNS);
            columns.extend(PAY_COLUMNS);
        }
        let mut wins = Vec::new();
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            if self.layout.points_model {
                let hu = column::<UInt32Array>(&batch, "hu", &path)?;
                let points = column::<UInt64Array>(&batch, "points", &path)?;
                for (h, p) in hu.values().iter().zip(points.values()) {
                    self.hu_per_win.add(*h as i64);
                    // Points are bounded at load far below i64::MAX (the cap, or 2^台 times
                    // a u16 sum).
                    self.points_per_win
                        .add(i64::try_from(*p).unwrap_or(i64::MAX));
                    *self.points_histogram.entry(*p).or_default() += 1;
                }
            }
            if self.layout.all_pairs {
                let responsible = string_codes(&batch, "responsible", &path, seat_code)?;
                self.responsible_wins += responsible.iter().filter(|r| r.is_some()).count() as u64;
                // Each row carries its deal's settlement: it must balance, and give the
                // winner what the row says it received.
                let mut pays = Vec::with_capacity(4);
                for name in PAY_COLUMNS {
                    pays.push(column::<Int64Array>(&batch, name, &path)?);
                }
                for name in VALUE_COLUMNS {
                    column::<UInt64Array>(&batch, name, &path)?;
                }
                let winner = string_codes(&batch, "winner", &path, seat_code)?;
                let payment = column::<Int64Array>(&batch, "payment", &path)?;
                for (i, w) in winner.iter().enumerate() {
                    let sum: i128 = pays.iter().map(|p| p.value(i) as i128).sum();
                    let w = w.ok_or_else(|| null_in(&path, "winner"))?;
                    if sum != 0 || pays[w].value(i) != payment.value(i) {
                        return Err(HarnessError::Corrupt {
                            path: path.clone(),
                            message: format!(
                                "row {i}: the seats' payments sum to {sum} and give the winner {}, but it received {}",
                                pays[w].value(i),
                                payment.value(i)
                            ),
                        });
                    }
                }
            }
            let deal_id = column::<UInt64Array>(&batch, "deal_id", &path)?;
            let winner = string_codes(&batch, "winner", &path, seat_code)?;
            let total_tai = column::<UInt16Array>(&batch, "total_tai", &path)?;
            let self_draw = column::<BooleanArray>(&batch, "self_draw", &path)?;
            let capped = column::<BooleanArray>(&batch, "capped", &path)?;
            let meets_minimum = column::<BooleanArray>(&batch, "meets_minimum", &path)?;
            let payment = column::<Int64Array>(&batch, "payment", &path)?;
            let n_patterns = column::<UInt8Array>(&batch, "n_patterns", &path)?;
            let hu = if self.layout.points_model {
                Some(column::<UInt32Array>(&batch, "hu", &path)?)
            } else {
                None
            };
            for (i, w) in winner.iter().enumerate() {
                let w = w.ok_or_else(|| null_in(&path, "winner"))?;
                let tai = total_tai.value(i);
                self.wins += 1;
                self.seat_wins[w] += 1;
                if self_draw.value(i) {
                    self.self_drawn_wins += 1;
                    self.seat_self_drawn[w] += 1;
                }
                self.capped_wins += capped.value(i) as u64;
                if !meets_minimum.value(i) {
                    self.below_minimum_wins += 1;
                    // A variant that fines a false win (詐胡) has its claimant pay.
                    self.below_minimum_fined += (payment.value(i) < 0) as u64;
                }
                self.tai_per_win.add(tai as i64);
                self.payment_per_win.add(payment.value(i));
                let t = tai as usize;
                if self.histogram.len() <= t {
                    self.histogram.resize(t + 1, 0);
                }
                self.histogram[t] += 1;
                wins.push(WinTotal {
                    deal_id: deal_id.value(i),
                    winner: w,
                    total_tai: tai,
                    capped: capped.value(i),
                    n_patterns: n_patterns.value(i),
                    recorded_hu: hu.map(|h| h.value(i) as u64),
                    rows: 0,
                    tai: 0,
                    hu: 0,
                });
            }
        }
        Ok(wins)
    }

    /// Tallies the pattern rows, adding each to its win in `wins` (every row must have one).
    fn read_tai(
        &mut self,
        run: &Run,
        part: &PartRecord,
        wins: &mut [WinTotal],
        hu: Option<&PatternHu>,
    ) -> Result<(), HarnessError> {
        let file = run.open_part(part, Table::Tai)?;
        let path = file.path().to_path_buf();
        let mut codes = PatternCodes::default();
        let mut names: Vec<String> = Vec::new();
        // The rows of one win are consecutive; a pattern twice in one win would count the
        // win twice in its frequency.
        let mut current: Option<(u64, usize)> = None;
        let mut seen: Vec<usize> = Vec::new();
        let index: FxHashMap<(u64, usize), usize> = wins
            .iter()
            .enumerate()
            .map(|(i, w)| ((w.deal_id, w.winner), i))
            .collect();
        let mut win = 0;
        let columns = ["deal_id", "winner", "pattern", "name", "count", "tai"];
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            let deal_id = column::<UInt64Array>(&batch, "deal_id", &path)?;
            let winner = string_codes(&batch, "winner", &path, seat_code)?;
            // Only ids taisim scores (ids are stable): a damaged dictionary decodes to others.
            let pattern = string_codes(&batch, "pattern", &path, |s| {
                PatternId::from_id(s).map(|p| codes.code(s, p))
            })?;
            let name = string_codes(&batch, "name", &path, |s| {
                Some(match names.iter().position(|x| x == s) {
                    Some(i) => i,
                    None => {
                        names.push(s.to_string());
                        names.len() - 1
                    }
                })
            })?;
            let tai = column::<UInt16Array>(&batch, "tai", &path)?;
            let count = column::<UInt8Array>(&batch, "count", &path)?;
            for i in 0..batch.num_rows() {
                let w = winner[i].ok_or_else(|| null_in(&path, "winner"))?;
                let p = pattern[i].ok_or_else(|| null_in(&path, "pattern"))?;
                let key = (deal_id.value(i), w);
                if current != Some(key) {
                    current = Some(key);
                    seen.clear();
                    win = *index.get(&key).ok_or_else(|| HarnessError::Corrupt {
                        path: path.clone(),
                        message: format!(
                            "a pattern row of seat {}'s win in deal {}, which the wins table does not have",
                            Wind::ALL[w],
                            key.0
                        ),
                    })?;
                }
                if seen.contains(&p) {
                    return Err(HarnessError::Corrupt {
                        path: path.clone(),
                        message: format!(
                            "pattern {:?} appears twice in the win of seat {} in deal {}",
                            codes.ids[p],
                            Wind::ALL[w],
                            key.0
                        ),
                    });
                }
                seen.push(p);
                wins[win].rows += 1;
                wins[win].tai += tai.value(i) as u64;
                if let Some(hu) = hu {
                    // The scorer counts a pattern's 胡 as its value times its count.
                    let h = hu[codes.catalogue[p]] as u64 * count.value(i) as u64;
                    codes.hu[p] += h;
                    wins[win].hu += h;
                }
                self.tai_rows += 1;
                codes.wins[p] += 1;
                codes.tai[p] += tai.value(i) as u64;
                if codes.names[p].is_none() {
                    if let Some(n) = name[i] {
                        codes.names[p] = Some(names[n].clone());
                    }
                }
            }
        }
        for (i, id) in codes.ids.into_iter().enumerate() {
            let name = codes.names[i].take().unwrap_or_default();
            self.patterns
                .insert(id, (name, codes.wins[i], codes.tai[i], codes.hu[i]));
        }
        Ok(())
    }

    pub(super) fn merge(&mut self, o: Tally) {
        self.deals += o.deals;
        self.wins += o.wins;
        self.tai_rows += o.tai_rows;
        for i in 0..4 {
            self.outcomes[i] += o.outcomes[i];
            self.seat_wins[i] += o.seat_wins[i];
            self.seat_self_drawn[i] += o.seat_self_drawn[i];
            self.seat_deal_ins[i] += o.seat_deal_ins[i];
            self.seat_pay[i].merge(&o.seat_pay[i]);
            self.seat_dealer[i] += o.seat_dealer[i];
            self.round_winds[i] += o.round_winds[i];
        }
        self.multi_winner_deals += o.multi_winner_deals;
        self.self_drawn_wins += o.self_drawn_wins;
        self.capped_wins += o.capped_wins;
        self.below_minimum_wins += o.below_minimum_wins;
        self.below_minimum_fined += o.below_minimum_fined;
        self.tai_per_win.merge(&o.tai_per_win);
        self.tai_per_deal.merge(&o.tai_per_deal);
        self.payment_per_win.merge(&o.payment_per_win);
        self.parts += o.parts;
        self.layout = o.layout;
        self.hu_per_win.merge(&o.hu_per_win);
        self.points_per_win.merge(&o.points_per_win);
        for (points, n) in o.points_histogram {
            *self.points_histogram.entry(points).or_default() += n;
        }
        self.responsible_wins += o.responsible_wins;
        self.dealer_pay.merge(&o.dealer_pay);
        self.non_dealers_pay.merge(&o.non_dealers_pay);
        if self.histogram.len() < o.histogram.len() {
            self.histogram.resize(o.histogram.len(), 0);
        }
        for (a, b) in self.histogram.iter_mut().zip(&o.histogram) {
            *a += b;
        }
        for (id, (name, wins, tai, hu)) in o.patterns {
            // The name first seen (in part order) stays.
            let e = self.patterns.entry(id).or_insert((name, 0, 0, 0));
            e.1 += wins;
            e.2 += tai;
            e.3 += hu;
        }
    }

    /// The optional column groups, for a message.
    pub(super) fn layout_text(&self) -> String {
        let mut groups = Vec::new();
        if self.layout.points_model {
            groups.push("hu, points");
        }
        if self.layout.all_pairs {
            groups.push("responsible, value_*, pay_*");
        }
        if groups.is_empty() {
            "no points or all-pairs columns".into()
        } else {
            groups.join("; ")
        }
    }

    /// The report of the tallied parts; `hu_known`: the patterns' 胡 were tallied (a points
    /// variant's run whose variant file reads).
    pub(super) fn into_report(self, run: &Run, checksums_verified: bool, hu_known: bool) -> Report {
        let spec = run.spec().clone();
        let mut seats: [SeatStats; 4] = Default::default();
        for (i, s) in seats.iter_mut().enumerate() {
            *s = SeatStats {
                agent: spec.agents[i].to_string(),
                wins: self.seat_wins[i],
                self_drawn: self.seat_self_drawn[i],
                deal_ins: self.seat_deal_ins[i],
                pay: self.seat_pay[i],
                dealer: self.seat_dealer[i],
            };
        }
        let mut patterns: Vec<PatternStats> = self
            .patterns
            .into_iter()
            .map(|(id, (name, wins, tai, hu))| PatternStats {
                id,
                name,
                wins,
                tai,
                hu: hu_known.then_some(hu),
            })
            .collect();
        patterns.sort_by(|a, b| b.wins.cmp(&a.wins).then_with(|| a.id.cmp(&b.id)));
        let tai_histogram = self
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(t, n)| (t as u16, *n))
            .collect();
        Report {
            dir: run.dir.clone(),
            spec,
            shards_present: run.shards_present(),
            parts_counted: run.parts.len() as u64,
            parts_in_run: run.parts_in_run(),
            warnings: run.warnings.clone(),
            unrecorded: run.unrecorded.clone(),
            checksums_verified,
            deals: self.deals,
            wins: self.wins,
            tai_rows: self.tai_rows,
            outcomes: self.outcomes,
            multi_winner_deals: self.multi_winner_deals,
            self_drawn_wins: self.self_drawn_wins,
            capped_wins: self.capped_wins,
            below_minimum_wins: self.below_minimum_wins,
            below_minimum_fined: self.below_minimum_fined,
            tai_per_win: self.tai_per_win,
            tai_per_deal: self.tai_per_deal,
            payment_per_win: self.payment_per_win,
            seats,
            patterns,
            tai_histogram,
            round_winds: self.round_winds,
            points: self.layout.points_model.then(|| PointsStats {
                hu_per_win: self.hu_per_win,
                points_per_win: self.points_per_win,
                points_histogram: self.points_histogram.into_iter().collect(),
            }),
            all_pairs: self.layout.all_pairs.then_some(AllPairsStats {
                responsible_wins: self.responsible_wins,
                dealer_pay: self.dealer_pay,
                non_dealer_pay: SeatsOfDeal {
                    sum: self.non_dealers_pay,
                    seats: 3,
                },
            }),
        }
    }
}

fn null_in(path: &Path, column: &str) -> HarnessError {
    HarnessError::Corrupt {
        path: path.to_path_buf(),
        message: format!("null in the non-nullable column {column:?}"),
    }
}
