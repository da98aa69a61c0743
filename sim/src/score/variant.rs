//! Rule variants as data: a TOML file names the patterns that apply and their tai, the
//! exclusions, the limits, the engine's rule flags and the settlement rules.
//!
//! ```toml
//! name = "example"
//! scoring = "tai"            # the only kind so far; "hu_doubling" (台州) is reserved
//!
//! [rules]                    # the engine's flags; any left out keep taiwan16's value
//! reserve = 16
//!
//! [tai]
//! min = 0                    # 起胡
//! max = 0                    # a limit on a hand's tai; 0 = none
//!
//! [settlement]
//! dealer_tai = 1             # 莊家
//! dealer_tai_per_streak = 2  # 連N拉N
//!
//! [patterns]
//! self_draw = 1
//! concealed_hand = 1
//! concealed_self_draw = { tai = 3, excludes = ["self_draw", "concealed_hand"] }
//! ```
//!
//! Parsing checks everything a careless edit could break and names the file and line.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::path::Path;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use super::pattern::{chain_exclusions, PatternId, PatternSet};
use crate::algo::SpecialHands;
use crate::rules::{DealerContinuation, Rules};

/// How a variant turns a hand into points. Only `tai` (a sum of pattern values, paid as
/// `base + tai × per_tai`) is implemented; the name leaves room for 台州's `hu_doubling`
/// (胡數 × 2^台, settled among all four players).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScoringKind {
    Tai,
}

/// What one pattern is worth in a variant.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PatternRule {
    /// Tai per occurrence (patterns such as 正花 or 明槓 occur several times).
    pub tai: u16,
    /// Patterns not counted when this one applies (不計 …).
    pub excludes: PatternSet,
}

/// Who pays a 七搶一 win.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RobbedFlowerPayer {
    /// The seat that drew the eighth flower (taiwan16 README).
    Drawer,
    /// All three others, as for 八仙過海.
    All,
}

/// Insurance penalties (mahjongtime "letting off a canon"): a discarder who lets a player
/// out on one of these pays for all three losers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Insurance {
    /// One suit only, the winner having four melded sets of that suit.
    pub full_flush: bool,
    /// Big or little four winds, the winner having three melded wind sets, on a wind.
    pub four_winds: bool,
    /// Big or little three dragons, the winner having two melded dragon sets, on a dragon.
    pub three_dragons: bool,
    /// A fresh tile discarded with five or fewer tiles left to draw.
    pub last_five: bool,
}

impl Insurance {
    const NAMES: [&'static str; 4] = ["full_flush", "four_winds", "three_dragons", "last_five"];

    fn flags(&self) -> [bool; 4] {
        [
            self.full_flush,
            self.four_winds,
            self.three_dragons,
            self.last_five,
        ]
    }

    fn set(&mut self, name: &str) -> bool {
        match name {
            "full_flush" => self.full_flush = true,
            "four_winds" => self.four_winds = true,
            "three_dragons" => self.three_dragons = true,
            "last_five" => self.last_five = true,
            _ => return false,
        }
        true
    }
}

/// How wins are paid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SettlementRules {
    /// Default 底 when the caller gives none.
    pub base: i64,
    /// Default value of one tai when the caller gives none.
    pub per_tai: i64,
    /// 莊家: tai added to payments between the dealer and another player.
    pub dealer_tai: u16,
    /// 連N拉N: further tai per consecutive deal.
    pub dealer_tai_per_streak: u16,
    /// The dealer's tai also apply when the dealer pays another player's self-draw.
    pub dealer_pays_on_self_draw: bool,
    /// 2015 table: a win on the replacement for a kong claimed from a discard is not a
    /// self-draw, and the seat whose discard was claimed pays alone.
    pub exposed_kong_bloom_discarder_pays: bool,
    pub robbed_flower_payer: RobbedFlowerPayer,
    /// 詐胡: a win below the minimum costs the would-be winner this much to each player
    /// (0: such a win is simply not paid).
    pub false_win_penalty: i64,
    pub insurance: Insurance,
}

/// A complete rule variant. Build one with [`Variant::builtin`], [`Variant::load`] or
/// [`Variant::from_toml_str`]; print it with [`Variant::to_toml`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub description: String,
    pub scoring: ScoringKind,
    /// The engine's rule flags.
    pub rules: Rules,
    /// 起胡: the fewest tai a win may have.
    pub min_tai: u16,
    /// A limit on a hand's tai (dealer tai apart), if any.
    pub max_tai: Option<u16>,
    /// Wait tai (邊張, 崁張, 獨聽) only when the hand waits on exactly one kind (taiwan16
    /// README); otherwise judged by the shape of the best reading alone.
    pub wait_needs_single_kind: bool,
    pub settlement: SettlementRules,
    patterns: [Option<PatternRule>; PatternId::COUNT],
    /// Patterns present, and what each one excludes with the chain exclusions added: both
    /// derived from `patterns`, kept so scoring reads them without work.
    enabled: PatternSet,
    excludes: [PatternSet; PatternId::COUNT],
}

/// A variant that cannot be used: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    /// The file (or `builtin:NAME`).
    pub origin: String,
    /// 1-based line, where one can be named.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.origin, line, self.message),
            None => write!(f, "{}: {}", self.origin, self.message),
        }
    }
}

impl std::error::Error for VariantError {}

/// The variant files shipped with the library.
const BUILTIN: [(&str, &str); 4] = [
    ("taiwan16", include_str!("../../variants/taiwan16.toml")),
    (
        "taiwan16-house",
        include_str!("../../variants/taiwan16-house.toml"),
    ),
    (
        "taiwan16-2015",
        include_str!("../../variants/taiwan16-2015.toml"),
    ),
    (
        "mahjongtime",
        include_str!("../../variants/mahjongtime.toml"),
    ),
];

impl Variant {
    /// The names of the shipped variants, the default first.
    pub const fn names() -> [&'static str; 4] {
        [BUILTIN[0].0, BUILTIN[1].0, BUILTIN[2].0, BUILTIN[3].0]
    }

    /// The default variant's name.
    pub const DEFAULT: &'static str = "taiwan16";

    /// The TOML text of a shipped variant.
    pub fn builtin_text(name: &str) -> Option<&'static str> {
        BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
    }

    /// A shipped variant.
    pub fn builtin(name: &str) -> Result<Variant, VariantError> {
        match Variant::builtin_text(name) {
            Some(text) => Variant::from_toml_str(text, &format!("builtin:{name}")),
            None => Err(VariantError {
                origin: name.to_string(),
                line: None,
                message: format!("no such variant (shipped: {})", Variant::names().join(", ")),
            }),
        }
    }

    /// A variant file from disk.
    pub fn load(path: impl AsRef<Path>) -> Result<Variant, VariantError> {
        let path = path.as_ref();
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| VariantError {
            origin: origin.clone(),
            line: None,
            message: format!("cannot read: {e}"),
        })?;
        Variant::from_toml_str(&text, &origin)
    }

    /// A shipped variant by name, or else a file by path.
    pub fn by_name_or_path(name: &str) -> Result<Variant, VariantError> {
        if Variant::builtin_text(name).is_some() {
            Variant::builtin(name)
        } else if Path::new(name).exists() {
            Variant::load(name)
        } else {
            Variant::builtin(name)
        }
    }

    /// Parses variant TOML; `origin` names the text in errors.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Variant, VariantError> {
        let err = |span: Option<std::ops::Range<usize>>, message: String| VariantError {
            origin: origin.to_string(),
            line: span.map(|s| line_of(text, s.start)),
            message,
        };
        let raw: RawVariant =
            toml::from_str(text).map_err(|e| err(e.span(), e.message().trim().to_string()))?;
        if raw.name.get_ref().trim().is_empty() {
            return Err(err(Some(raw.name.span()), "the name is empty".into()));
        }
        let scoring = match raw.scoring.get_ref().as_str() {
            "tai" => ScoringKind::Tai,
            "hu_doubling" => {
                return Err(err(
                    Some(raw.scoring.span()),
                    "scoring kind \"hu_doubling\" (台州) is not implemented yet".into(),
                ))
            }
            other => {
                return Err(err(
                    Some(raw.scoring.span()),
                    format!("unknown scoring kind {other:?} (expected \"tai\")"),
                ))
            }
        };
        let r = raw.rules.as_ref().map(|s| *s.get_ref()).unwrap_or_default();
        let rules = Rules {
            sets: r.sets,
            flowers: r.flowers,
            reserve: r.reserve,
            multiple_winners: r.multiple_winners,
            rob_concealed_kong: r.rob_concealed_kong,
            missed_win: r.missed_win,
            declare_ready: r.declare_ready,
            ready_window: r.ready_window,
            flower_wins: r.flower_wins,
            special: SpecialHands {
                eight_pairs: r.eight_pairs,
                thirteen_orphans: r.thirteen_orphans,
            },
            dealer_continuation: DealerContinuation {
                on_dealer_win: r.dealer_keeps_on_win,
                on_draw: r.dealer_keeps_on_draw,
            },
            // The table procedure and wild options are not TOML keys yet.
            ..Rules::TAIWAN16
        };
        if let Err(e) = rules.validate() {
            return Err(err(
                raw.rules.as_ref().map(|s| s.span()),
                format!("[rules]: {e}"),
            ));
        }
        let s = raw.tai.unwrap_or_default();
        if s.max != 0 && s.max < s.min {
            return Err(err(
                None,
                format!("[tai]: max {} is below min {}", s.max, s.min),
            ));
        }
        let st = raw.settlement.unwrap_or_default();
        let robbed_flower_payer = match st.robbed_flower_payer.get_ref().as_str() {
            "drawer" => RobbedFlowerPayer::Drawer,
            "all" => RobbedFlowerPayer::All,
            other => {
                return Err(err(
                    Some(st.robbed_flower_payer.span()),
                    format!("robbed_flower_payer must be \"drawer\" or \"all\", not {other:?}"),
                ))
            }
        };
        let mut insurance = Insurance::default();
        for name in &st.insurance {
            if !insurance.set(name.get_ref()) {
                return Err(err(
                    Some(name.span()),
                    format!(
                        "unknown insurance penalty {:?} (known: {})",
                        name.get_ref(),
                        Insurance::NAMES.join(", ")
                    ),
                ));
            }
        }
        if st.base < 0 || st.per_tai < 0 || st.false_win_penalty < 0 {
            return Err(err(
                None,
                "[settlement]: base, per_tai and false_win_penalty may not be negative".into(),
            ));
        }
        let settlement = SettlementRules {
            base: st.base,
            per_tai: st.per_tai,
            dealer_tai: st.dealer_tai,
            dealer_tai_per_streak: st.dealer_tai_per_streak,
            dealer_pays_on_self_draw: st.dealer_pays_on_self_draw,
            exposed_kong_bloom_discarder_pays: st.exposed_kong_bloom_discarder_pays,
            robbed_flower_payer,
            false_win_penalty: st.false_win_penalty,
            insurance,
        };
        let mut patterns = [None; PatternId::COUNT];
        for (key, entry) in &raw.patterns {
            let Some(id) = PatternId::from_id(key.get_ref()) else {
                return Err(err(
                    Some(key.span()),
                    format!("unknown pattern id {:?}", key.get_ref()),
                ));
            };
            let entry = entry.get_ref();
            let mut excludes = 0;
            for ex in &entry.excludes {
                match PatternId::from_id(ex.get_ref()) {
                    Some(x) if x == id => {
                        return Err(err(
                            Some(ex.span()),
                            format!("pattern {:?} excludes itself", key.get_ref()),
                        ))
                    }
                    Some(x) => excludes |= x.bit(),
                    None => {
                        return Err(err(
                            Some(ex.span()),
                            format!(
                                "pattern {:?} excludes unknown pattern id {:?}",
                                key.get_ref(),
                                ex.get_ref()
                            ),
                        ))
                    }
                }
            }
            patterns[id.index()] = Some(PatternRule {
                tai: entry.tai,
                excludes,
            });
        }
        Ok(Variant::assemble(
            raw.name.into_inner(),
            raw.description,
            scoring,
            rules,
            s.min,
            (s.max != 0).then_some(s.max),
            s.wait_needs_single_kind,
            settlement,
            patterns,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn assemble(
        name: String,
        description: String,
        scoring: ScoringKind,
        rules: Rules,
        min_tai: u16,
        max_tai: Option<u16>,
        wait_needs_single_kind: bool,
        settlement: SettlementRules,
        patterns: [Option<PatternRule>; PatternId::COUNT],
    ) -> Variant {
        let mut v = Variant {
            name,
            description,
            scoring,
            rules,
            min_tai,
            max_tai,
            wait_needs_single_kind,
            settlement,
            patterns,
            enabled: 0,
            excludes: [0; PatternId::COUNT],
        };
        v.compile();
        v
    }

    /// Recomputes the derived pattern masks.
    fn compile(&mut self) {
        let chains = chain_exclusions();
        self.enabled = 0;
        for p in PatternId::ALL {
            let i = p.index();
            self.excludes[i] = chains[i];
            if let Some(rule) = self.patterns[i] {
                self.enabled |= p.bit();
                self.excludes[i] |= rule.excludes;
            }
        }
    }

    /// The engine rules this variant plays with.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// What `pattern` is worth here, or `None` when the variant does not count it.
    #[inline]
    pub fn pattern(&self, pattern: PatternId) -> Option<PatternRule> {
        self.patterns[pattern.index()]
    }

    /// Sets (or with `None` removes) a pattern's value.
    pub fn set_pattern(&mut self, pattern: PatternId, rule: Option<PatternRule>) {
        self.patterns[pattern.index()] = rule;
        self.compile();
    }

    /// The patterns this variant counts, in catalogue order.
    pub fn patterns(&self) -> impl Iterator<Item = (PatternId, PatternRule)> + '_ {
        PatternId::ALL
            .iter()
            .filter_map(|&p| self.patterns[p.index()].map(|r| (p, r)))
    }

    #[inline]
    pub(crate) fn enabled(&self) -> PatternSet {
        self.enabled
    }

    #[inline]
    pub(crate) fn has(&self, pattern: PatternId) -> bool {
        self.enabled & pattern.bit() != 0
    }

    /// Everything `pattern` rules out: the file's exclusions and the chain below it.
    #[inline]
    pub(crate) fn excludes(&self, pattern: PatternId) -> PatternSet {
        self.excludes[pattern.index()]
    }

    #[inline]
    pub(crate) fn tai(&self, pattern: PatternId) -> u16 {
        match self.patterns[pattern.index()] {
            Some(r) => r.tai,
            None => 0,
        }
    }

    /// The dealer's tai after `streak` consecutive deals (2N+1 with the defaults).
    #[inline]
    pub fn dealer_tai(&self, streak: u8) -> u16 {
        self.settlement.dealer_tai + self.settlement.dealer_tai_per_streak * streak as u16
    }

    /// The variant as a TOML file that parses back to an equal variant. Each pattern line
    /// carries the pattern's names as a comment.
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        let r = &self.rules;
        let st = &self.settlement;
        // Writing to a String cannot fail.
        let _ = write!(
            out,
            "name = {}\ndescription = {}\nscoring = \"tai\"\n\n[rules]\n\
             sets = {}\nflowers = {}\nreserve = {}\nmultiple_winners = {}\n\
             rob_concealed_kong = {}\nmissed_win = {}\ndeclare_ready = {}\nready_window = {}\n\
             flower_wins = {}\neight_pairs = {}\nthirteen_orphans = {}\n\
             dealer_keeps_on_win = {}\ndealer_keeps_on_draw = {}\n\n[tai]\n\
             min = {}\nmax = {}\nwait_needs_single_kind = {}\n\n[settlement]\n\
             base = {}\nper_tai = {}\ndealer_tai = {}\ndealer_tai_per_streak = {}\n\
             dealer_pays_on_self_draw = {}\nexposed_kong_bloom_discarder_pays = {}\n\
             robbed_flower_payer = \"{}\"\nfalse_win_penalty = {}\ninsurance = [",
            q(&self.name),
            q(&self.description),
            r.sets,
            r.flowers,
            r.reserve,
            r.multiple_winners,
            r.rob_concealed_kong,
            r.missed_win,
            r.declare_ready,
            r.ready_window,
            r.flower_wins,
            r.special.eight_pairs,
            r.special.thirteen_orphans,
            r.dealer_continuation.on_dealer_win,
            r.dealer_continuation.on_draw,
            self.min_tai,
            self.max_tai.unwrap_or(0),
            self.wait_needs_single_kind,
            st.base,
            st.per_tai,
            st.dealer_tai,
            st.dealer_tai_per_streak,
            st.dealer_pays_on_self_draw,
            st.exposed_kong_bloom_discarder_pays,
            match st.robbed_flower_payer {
                RobbedFlowerPayer::Drawer => "drawer",
                RobbedFlowerPayer::All => "all",
            },
            st.false_win_penalty,
        );
        let names: Vec<_> = Insurance::NAMES
            .iter()
            .zip(st.insurance.flags())
            .filter(|(_, on)| *on)
            .map(|(n, _)| format!("\"{n}\""))
            .collect();
        let _ = writeln!(out, "{}]\n\n[patterns]", names.join(", "));
        for (p, rule) in self.patterns() {
            let mut value = rule.tai.to_string();
            if rule.excludes != 0 {
                let ex: Vec<_> = PatternId::ALL
                    .iter()
                    .filter(|x| rule.excludes & x.bit() != 0)
                    .map(|x| format!("\"{}\"", x.id()))
                    .collect();
                value = format!("{{ tai = {}, excludes = [{}] }}", rule.tai, ex.join(", "));
            }
            let _ = writeln!(
                out,
                "{} = {value}  # {} {}",
                p.id(),
                p.name_zh(),
                p.name_en()
            );
        }
        out
    }
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

// ----- the file as written ------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    scoring: Spanned<String>,
    rules: Option<Spanned<RawRules>>,
    tai: Option<RawScoring>,
    settlement: Option<RawSettlement>,
    patterns: BTreeMap<Spanned<String>, Spanned<RawPattern>>,
}

#[derive(Copy, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawRules {
    sets: u8,
    flowers: bool,
    reserve: u8,
    multiple_winners: bool,
    rob_concealed_kong: bool,
    missed_win: bool,
    declare_ready: bool,
    ready_window: u8,
    flower_wins: bool,
    eight_pairs: bool,
    thirteen_orphans: bool,
    dealer_keeps_on_win: bool,
    dealer_keeps_on_draw: bool,
}

impl Default for RawRules {
    fn default() -> RawRules {
        let r = Rules::TAIWAN16;
        RawRules {
            sets: r.sets,
            flowers: r.flowers,
            reserve: r.reserve,
            multiple_winners: r.multiple_winners,
            rob_concealed_kong: r.rob_concealed_kong,
            missed_win: r.missed_win,
            declare_ready: r.declare_ready,
            ready_window: r.ready_window,
            flower_wins: r.flower_wins,
            eight_pairs: r.special.eight_pairs,
            thirteen_orphans: r.special.thirteen_orphans,
            dealer_keeps_on_win: r.dealer_continuation.on_dealer_win,
            dealer_keeps_on_draw: r.dealer_continuation.on_draw,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawScoring {
    min: u16,
    max: u16,
    wait_needs_single_kind: bool,
}

impl Default for RawScoring {
    fn default() -> RawScoring {
        RawScoring {
            min: 0,
            max: 0,
            wait_needs_single_kind: true,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawSettlement {
    base: i64,
    per_tai: i64,
    dealer_tai: u16,
    dealer_tai_per_streak: u16,
    dealer_pays_on_self_draw: bool,
    exposed_kong_bloom_discarder_pays: bool,
    robbed_flower_payer: Spanned<String>,
    false_win_penalty: i64,
    insurance: Vec<Spanned<String>>,
}

impl Default for RawSettlement {
    fn default() -> RawSettlement {
        RawSettlement {
            base: 0,
            per_tai: 1,
            dealer_tai: 1,
            dealer_tai_per_streak: 2,
            dealer_pays_on_self_draw: true,
            exposed_kong_bloom_discarder_pays: false,
            robbed_flower_payer: Spanned::new(0..0, "drawer".to_string()),
            false_win_penalty: 0,
            insurance: Vec::new(),
        }
    }
}

/// A pattern entry: a bare tai number, or `{ tai = N, excludes = [...] }`.
struct RawPattern {
    tai: u16,
    excludes: Vec<Spanned<String>>,
}

impl<'de> Deserialize<'de> for RawPattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawPattern, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawPattern;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tai count (0 to 65535) or { tai = N, excludes = [\"id\", ...] }")
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawPattern, E> {
                let tai = u16::try_from(v)
                    .map_err(|_| E::custom(format!("tai must be 0 to 65535, not {v}")))?;
                Ok(RawPattern {
                    tai,
                    excludes: Vec::new(),
                })
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawPattern, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawPattern, A::Error> {
                let mut tai = None;
                let mut excludes = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "tai" => tai = Some(map.next_value::<u16>()?),
                        "excludes" => excludes = map.next_value()?,
                        other => return Err(de::Error::unknown_field(other, &["tai", "excludes"])),
                    }
                }
                let tai = tai.ok_or_else(|| de::Error::missing_field("tai"))?;
                Ok(RawPattern { tai, excludes })
            }
        }
        d.deserialize_any(V)
    }
}
