//! Rule variants as data: one [`Variant`] owns the engine rules, the scoring model and the
//! settlement model, so nothing built from it can disagree with itself. A TOML file names
//! the patterns that apply and their values, the exclusions, the limits, the engine's rule
//! flags and the settlement rules:
//!
//! ```toml
//! name = "example"
//! scoring = "tai"            # or "points": (底胡 + 胡) × 2^台, with a [points] table
//!
//! [rules]                    # the engine's flags; any left out keep taiwan16's value
//! reserve = 16
//!
//! [tai]
//! min = 0                    # 起胡
//! max = 0                    # a limit on a hand's tai; 0 = none
//!
//! [settlement]
//! model = "winner_pays"      # or "all_pairs": every player's hand valued (台州)
//! dealer_tai = 1             # 莊家
//! dealer_tai_per_streak = 2  # 連N拉N
//!
//! [patterns]
//! self_draw = 1
//! concealed_hand = 1
//! concealed_self_draw = { tai = 3, excludes = ["self_draw", "concealed_hand"] }
//! ```
//!
//! A file may instead state only what differs from another variant, `extends = "taiwan16"`
//! (or a path) at its top ([`extend`]); a file without `extends` must give `name`, `scoring`,
//! `[rules]`, `[settlement]` and `[patterns]`, so a file of a few changes is never taken for a
//! whole variant. [`Variant::diff_toml`] writes a variant as such a file ([`diff`]), and
//! [`Resolved::citations`] reads what each pattern's line cites ([`cite`]).
//!
//! This module is the model; [`parse`] reads and checks the file (naming the file, key and
//! line of every problem) and [`error`] lists the reasons a file is refused. Every number a
//! file may set is bounded at load, so no sum or product made from them later can wrap.

mod cite;
mod diff;
mod error;
mod extend;
mod parse;

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

pub use cite::Citation;
pub use diff::RuleChange;
pub use error::{echo, Setting, VariantError, VariantErrorKind};
pub use extend::{Resolved, COMPLETE_FILE_KEYS, MAX_EXTENDS_DEPTH};

use super::pattern::{chain_exclusions, PatternId, PatternSet, TAIZHOU_FAMILY};
use taisim_sim::Rules;

/// How a variant turns a winning hand into a value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScoringModel {
    /// A sum of pattern tai, paid as `base + tai × per_tai` (Taiwanese tables).
    Tai,
    /// 胡數 × 2^台 (台州): each pattern carries 胡 and 台; the hand is worth
    /// `(base_hu + Σ 胡) × 2^(Σ 台)`, cut to `cap`.
    Points {
        /// 底胡: the 胡 every win starts from (10 in 台州).
        base_hu: u32,
        /// The most a hand may be worth (勒子: 100 in 台州).
        cap: u32,
    },
}

/// The former name of [`ScoringModel`].
pub type ScoringKind = ScoringModel;

impl ScoringModel {
    /// A hand's value from its 胡 (without the base) and its 台: exact, or the cap when the
    /// exact value would pass it (so no doubling can overflow). The tai model's value is its
    /// tai.
    pub fn value(&self, hu: u32, tai: u32) -> Value {
        match *self {
            ScoringModel::Tai => Value {
                points: tai as u64,
                capped: false,
            },
            ScoringModel::Points { base_hu, cap } => {
                let hu = base_hu as u64 + hu as u64;
                // A shift of 64 or more, or one that loses bits, is past any u32 cap.
                let exact = if tai < 64 && hu.leading_zeros() > tai {
                    Some(hu << tai)
                } else {
                    None
                };
                match exact {
                    Some(v) if v <= cap as u64 => Value {
                        points: v,
                        capped: false,
                    },
                    _ => Value {
                        points: cap as u64,
                        capped: true,
                    },
                }
            }
        }
    }
}

/// A hand's value under a scoring model.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    pub points: u64,
    /// The cap cut it down.
    pub capped: bool,
}

/// How a win is paid.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettlementModel {
    /// The losers pay the winner: the discarder alone, or all three on a self-draw, each
    /// `base + value × per_tai` (Taiwanese tables).
    #[default]
    WinnerPays,
    /// Every player's hand valued (台州): the winner takes its value from the dealer (from
    /// everyone when it is the dealer) and half of it from each non-dealer; every two
    /// non-winners settle the difference of their values, in full when one is the dealer,
    /// half between two non-dealers. Amounts may be halves; `per_tai` is the money per point.
    AllPairs,
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
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RobbedFlowerPayer {
    /// The seat that drew the eighth flower (taiwan16 README).
    #[default]
    Drawer,
    /// All three others, as for 八仙過海.
    All,
}

/// Insurance penalties (mahjongtime "letting off a canon"): a discarder who lets a player
/// out on one of these pays for all three losers. Written in a file as a list of names.
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
    pub const NAMES: [&'static str; 4] = ["full_flush", "four_winds", "three_dragons", "last_five"];

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        match name {
            "full_flush" => Some(&mut self.full_flush),
            "four_winds" => Some(&mut self.four_winds),
            "three_dragons" => Some(&mut self.three_dragons),
            "last_five" => Some(&mut self.last_five),
            _ => None,
        }
    }

    fn flags(&self) -> [bool; 4] {
        [
            self.full_flush,
            self.four_winds,
            self.three_dragons,
            self.last_five,
        ]
    }
}

impl Serialize for Insurance {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let on = self.flags();
        let mut seq = s.serialize_seq(Some(on.iter().filter(|f| **f).count()))?;
        for (name, _) in Insurance::NAMES.iter().zip(on).filter(|(_, f)| *f) {
            seq.serialize_element(name)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Insurance {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Insurance, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Insurance;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(
                    f,
                    "a list of insurance names ({})",
                    Insurance::NAMES.join(", ")
                )
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Insurance, A::Error> {
                let mut out = Insurance::default();
                while let Some(name) = seq.next_element::<String>()? {
                    match out.flag(&name) {
                        Some(flag) => *flag = true,
                        None => {
                            return Err(de::Error::custom(VariantErrorKind::UnknownInsurance(name)))
                        }
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_seq(V)
    }
}

/// How wins are paid: a variant file's `[settlement]` table, every key optional.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SettlementRules {
    /// Default 底 when the caller gives none.
    pub base: i64,
    /// Default value of one tai (of one point under the points model) when the caller gives
    /// none.
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
    pub model: SettlementModel,
}

impl Default for SettlementRules {
    /// taiwan16's settlement: 0 base, 1 per tai, 莊家 1 and 連N拉N 2 (2N+1), the dealer's
    /// tai on the dealer's self-draw payments too, 七搶一 paid by the drawer.
    fn default() -> SettlementRules {
        SettlementRules {
            base: 0,
            per_tai: 1,
            dealer_tai: 1,
            dealer_tai_per_streak: 2,
            dealer_pays_on_self_draw: true,
            exposed_kong_bloom_discarder_pays: false,
            robbed_flower_payer: RobbedFlowerPayer::Drawer,
            false_win_penalty: 0,
            insurance: Insurance::default(),
            model: SettlementModel::WinnerPays,
        }
    }
}

/// The bounds a variant's numbers are held to at load (and a caller's stakes at
/// settlement), chosen so that no sum or product made from them can overflow: a hand's tai
/// stays below 2^16 even with every pattern counted eight times (the most any pattern
/// occurs: eight flowers), the dealer's 2N+1 below 2^16 at the longest streak (255), and a
/// payment of `base + (tai + dealer tai) × per_tai`, tripled by insurance and added over
/// three winners, or a capped points value times `per_tai` in halves, within an i64.
pub mod bounds {
    /// Tai of one pattern.
    pub const PATTERN_TAI: u16 = 255;
    /// The sum over a variant's patterns of tai × [`MAX_COUNT`]: a hand's tai fits a u16.
    pub const TAI_SUM: u32 = u16::MAX as u32;
    /// The most times one pattern is counted in a hand (eight flowers).
    pub const MAX_COUNT: u32 = 8;
    /// 胡 of one pattern.
    pub const PATTERN_HU: u16 = 1_000;
    /// 底胡.
    pub const BASE_HU: u32 = 10_000;
    /// The points cap.
    pub const POINTS_CAP: u32 = 1_000_000;
    /// 莊家 tai and 連莊 tai per streak: 255 + 255 × 255 < 2^16.
    pub const DEALER_TAI: u16 = 255;
    /// base, per_tai and the false-win penalty.
    pub const STAKE: i64 = 1_000_000_000;
}

/// A complete rule variant, validated: build one with [`Variant::builtin`], [`Variant::load`],
/// [`Variant::by_name_or_path`] or [`Variant::from_toml_str`] (every problem a
/// [`VariantError`]); print it with [`Variant::to_toml`]. Its rules are read through methods:
/// once a variant has loaded, nothing outside this crate can make its engine rules, scoring
/// and settlement disagree ([`Variant::with_stakes`] returns a new variant, checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) scoring: ScoringModel,
    /// The engine's rule flags.
    pub(crate) rules: Rules,
    /// 起胡: the fewest tai a win may have.
    pub(crate) min_tai: u16,
    /// A limit on a hand's tai (dealer tai apart), if any.
    pub(crate) max_tai: Option<u16>,
    /// Wait tai (邊張, 崁張, 獨聽) only when the hand waits on exactly one kind (taiwan16
    /// README); otherwise judged by the shape of the best reading alone.
    pub(crate) wait_needs_single_kind: bool,
    pub(crate) settlement: SettlementRules,
    patterns: [Option<PatternRule>; PatternId::COUNT],
    /// 胡 per occurrence of each pattern (the points model; 0 elsewhere).
    hu: [u16; PatternId::COUNT],
    /// Patterns present, and what each one excludes with the chain exclusions added: both
    /// derived from `patterns`, kept so scoring reads them without work.
    enabled: PatternSet,
    excludes: [PatternSet; PatternId::COUNT],
    /// The grades below each pattern of a [`CHAINS`](super::pattern::CHAINS) grading (the
    /// same for every variant), taken out of what a hand has before exclusions apply.
    lower_grades: [PatternSet; PatternId::COUNT],
}

/// A variant's TOML text and where it was found ([`Variant::find`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantText {
    /// `builtin:NAME`, or the path the file was read from: what errors and manifests name.
    pub origin: String,
    pub text: Cow<'static, str>,
}

/// The variant files shipped with the library.
const BUILTIN: [(&str, &str); 5] = [
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
    ("taizhou", include_str!("../../variants/taizhou.toml")),
];

impl Variant {
    /// The names of the shipped variants, the default first.
    pub const fn names() -> [&'static str; 5] {
        [
            BUILTIN[0].0,
            BUILTIN[1].0,
            BUILTIN[2].0,
            BUILTIN[3].0,
            BUILTIN[4].0,
        ]
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
                origin: echo(name),
                key: String::new(),
                line: None,
                kind: VariantErrorKind::UnknownVariant(name.to_string()),
                with: None,
            }),
        }
    }

    /// A variant file from disk.
    pub fn load(path: impl AsRef<Path>) -> Result<Variant, VariantError> {
        let path = path.as_ref();
        let origin = path.display().to_string();
        let text = read_variant_file(path, &origin)?;
        Variant::from_toml_str(&text, &origin)
    }

    /// A shipped variant by name, or else a file by path: [`Variant::find`] parsed.
    pub fn by_name_or_path(name: &str) -> Result<Variant, VariantError> {
        let found = Variant::find(name)?;
        Variant::from_toml_str(&found.text, &found.origin)
    }

    /// The text of the variant `name` names: a shipped variant by that name, or else the file
    /// at that path (a regular file of at most [`crate::file::VARIANT_FILE_LIMIT`] bytes). The
    /// one lookup of names and paths; an unknown name is
    /// [`VariantErrorKind::UnknownVariant`], an unreadable or missing file (a name written as
    /// a path) [`VariantErrorKind::Unreadable`].
    pub fn find(name: &str) -> Result<VariantText, VariantError> {
        if let Some(text) = Variant::builtin_text(name) {
            return Ok(VariantText {
                origin: format!("builtin:{name}"),
                text: Cow::Borrowed(text),
            });
        }
        let path = Path::new(name);
        // A name written as a path (a directory in it, or a `.toml` ending) is a file that is
        // missing, not a shipped variant misspelled: its read error says so.
        let as_path = name.contains(std::path::MAIN_SEPARATOR)
            || name.contains('/')
            || name.to_ascii_lowercase().ends_with(".toml");
        if !path.exists() && !as_path {
            return Err(VariantError {
                origin: echo(name),
                key: String::new(),
                line: None,
                kind: VariantErrorKind::UnknownVariant(name.to_string()),
                with: None,
            });
        }
        let origin = path.display().to_string();
        let text = read_variant_file(path, &origin).map_err(|mut e| {
            if let VariantErrorKind::Unreadable { io, message } = &mut e.kind {
                if *io == std::io::ErrorKind::NotFound {
                    message.push_str(&shipped_hint(path));
                }
            }
            e
        })?;
        Ok(VariantText {
            origin,
            text: Cow::Owned(text),
        })
    }

    /// Parses variant TOML; `origin` names the text in errors. A UTF-8 byte-order mark
    /// before the text is skipped. A text with `extends` is laid over the variant it names
    /// ([`Variant::resolve`]): a relative path there is taken from `origin`'s directory (from
    /// the current directory when `origin` is not a path).
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Variant, VariantError> {
        Variant::resolve(text, origin).map(|r| r.variant)
    }

    /// Parses variant TOML as [`Variant::from_toml_str`] does, keeping what it was made from:
    /// the base it extends and every file of the chain.
    pub fn resolve(text: &str, origin: &str) -> Result<Resolved, VariantError> {
        extend::resolve(text, origin)
    }

    /// A shipped variant by name, or else a file by path, resolved ([`Variant::find`], then
    /// [`Variant::resolve`]).
    pub fn resolve_name_or_path(name: &str) -> Result<Resolved, VariantError> {
        let found = Variant::find(name)?;
        Variant::resolve(&found.text, &found.origin)
    }

    /// Whether `text` extends another variant (has a top-level `extends` key): such a text
    /// does not stand alone, so a run records the variant it resolves to instead
    /// ([`Variant::to_toml`]). A text that does not parse is reported as not extending.
    pub fn text_extends(text: &str) -> bool {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        toml::from_str::<toml::Table>(text).is_ok_and(|doc| doc.contains_key("extends"))
    }

    #[allow(clippy::too_many_arguments)]
    fn assemble(
        name: String,
        description: String,
        scoring: ScoringModel,
        rules: Rules,
        min_tai: u16,
        max_tai: Option<u16>,
        wait_needs_single_kind: bool,
        settlement: SettlementRules,
        patterns: [Option<PatternRule>; PatternId::COUNT],
        hu: [u16; PatternId::COUNT],
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
            hu,
            enabled: 0,
            excludes: [0; PatternId::COUNT],
            lower_grades: chain_exclusions(),
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
                // The file's list as written: an exclusion of a graded pattern removes that
                // grade alone (the lower grades go with the hand's highest grade instead,
                // `lower_grades`), and whatever a pattern's exclusion should carry with it
                // is written into the file (shared/rules/README.md, taiwan16-2015).
                self.excludes[i] |= rule.excludes;
            }
        }
    }

    /// The engine rules this variant plays with.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The name inside the file (`taiwan16`, …).
    #[inline]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// How a winning hand is valued.
    #[inline]
    pub fn scoring(&self) -> ScoringModel {
        self.scoring
    }

    /// How wins are paid, and the default stakes.
    #[inline]
    pub fn settlement(&self) -> &SettlementRules {
        &self.settlement
    }

    /// 起胡: the fewest tai a win may have.
    #[inline]
    pub fn min_tai(&self) -> u16 {
        self.min_tai
    }

    /// A limit on a hand's tai (dealer tai apart), if any.
    #[inline]
    pub fn max_tai(&self) -> Option<u16> {
        self.max_tai
    }

    /// Wait tai (邊張, 崁張, 獨聽) only when the hand waits on exactly one kind (taiwan16
    /// README); otherwise judged by the shape of the best reading alone.
    #[inline]
    pub fn wait_needs_single_kind(&self) -> bool {
        self.wait_needs_single_kind
    }

    /// What `pattern` is worth here, or `None` when the variant does not count it.
    #[inline]
    pub fn pattern(&self, pattern: PatternId) -> Option<PatternRule> {
        self.patterns[pattern.index()]
    }

    /// 胡 per occurrence of `pattern` (the points model; 0 for the tai model).
    #[inline]
    pub fn pattern_hu(&self, pattern: PatternId) -> u16 {
        self.hu[pattern.index()]
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

    /// Whether the 台州 tables score this variant: it counts a pattern only they have.
    #[inline]
    pub(crate) fn taizhou_tables(&self) -> bool {
        self.enabled & TAIZHOU_FAMILY != 0
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

    /// The grades below the patterns of `found` in their gradings: of each grading only the
    /// highest grade found is a candidate.
    #[inline]
    pub(crate) fn lower_grades(&self, mut found: PatternSet) -> PatternSet {
        let mut out = 0;
        while found != 0 {
            out |= self.lower_grades[found.trailing_zeros() as usize];
            found &= found - 1;
        }
        out
    }

    #[inline]
    pub(crate) fn tai(&self, pattern: PatternId) -> u16 {
        match self.patterns[pattern.index()] {
            Some(r) => r.tai,
            None => 0,
        }
    }

    /// The dealer's tai after `streak` consecutive deals (2N+1 with the defaults). Exact:
    /// both tai are bounded at load so that the longest streak stays below 2^16; a value
    /// set in memory past the bounds saturates instead of wrapping.
    #[inline]
    pub fn dealer_tai(&self, streak: u8) -> u16 {
        let st = &self.settlement;
        let tai = st.dealer_tai as u32 + st.dealer_tai_per_streak as u32 * streak as u32;
        tai.min(u16::MAX as u32) as u16
    }

    /// A cycle among the exclusions of the patterns this variant counts (the file's and
    /// the chains'), in order, if there is one: each excludes the next, the last the first.
    pub fn exclusion_cycle(&self) -> Option<Vec<PatternId>> {
        // Depth-first search over at most 101 nodes; `path` is the current stack.
        #[derive(Copy, Clone, PartialEq)]
        enum Mark {
            New,
            OnPath,
            Done,
        }
        fn visit(
            v: &Variant,
            p: PatternId,
            marks: &mut [Mark; PatternId::COUNT],
            path: &mut Vec<PatternId>,
        ) -> Option<Vec<PatternId>> {
            marks[p.index()] = Mark::OnPath;
            path.push(p);
            let mut next = v.excludes(p) & v.enabled;
            while next != 0 {
                let q = PatternId::ALL[next.trailing_zeros() as usize];
                next &= next - 1;
                match marks[q.index()] {
                    Mark::OnPath => {
                        let start = path.iter().position(|&x| x == q).unwrap_or(0);
                        return Some(path[start..].to_vec());
                    }
                    Mark::New => {
                        if let Some(c) = visit(v, q, marks, path) {
                            return Some(c);
                        }
                    }
                    Mark::Done => {}
                }
            }
            path.pop();
            marks[p.index()] = Mark::Done;
            None
        }
        let mut marks = [Mark::New; PatternId::COUNT];
        let mut path = Vec::new();
        for (p, _) in self.patterns() {
            if marks[p.index()] == Mark::New {
                if let Some(c) = visit(self, p, &mut marks, &mut path) {
                    return Some(c);
                }
            }
        }
        None
    }

    /// The variant as a TOML file that parses back to an equal variant: every table, patterns
    /// included, through serde; each pattern line then gets the pattern's names as a comment.
    pub fn to_toml(&self) -> String {
        parse::write(self)
    }
}

/// For a variant file that is not there: the shipped variants its file name is, or is
/// close to (`taiwan16.toml`, `./taiwn16.toml`), since a shipped variant is named bare and
/// a user who writes the file name of one means it. Empty when no shipped name is near.
fn shipped_hint(path: &Path) -> String {
    let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
        return String::new();
    };
    let near = crate::suggest::closest(stem, Variant::names());
    if near.is_empty() {
        return String::new();
    }
    let names: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
    format!(
        " (the shipped variants are named without a path or .toml: {})",
        names.join(" or ")
    )
}

/// The text of the variant file at `path` (named `origin` in errors): a regular file of at
/// most [`crate::file::VARIANT_FILE_LIMIT`] bytes of UTF-8.
fn read_variant_file(path: &Path, origin: &str) -> Result<String, VariantError> {
    crate::file::read_regular_text(path, crate::file::VARIANT_FILE_LIMIT, "a variant file").map_err(
        |e| VariantError {
            origin: origin.to_string(),
            key: String::new(),
            line: None,
            kind: VariantErrorKind::Unreadable {
                io: e.kind(),
                message: e.to_string(),
            },
            with: None,
        },
    )
}
