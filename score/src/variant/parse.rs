//! Reading a variant file: serde reads the tables into the model's own types, then every
//! value a careless edit could break is checked, and each problem is named by file, key and
//! line.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::error::{Setting, VariantError, VariantErrorKind};
use super::{
    bounds, PatternRule, ScoringModel, SettlementModel, SettlementRules, Variant, VariantText,
};
use crate::pattern::PatternId;
use taisim_sim::{Rules, RulesError, TableProcedure};

/// A variant file as written: what [`Variant::to_toml`] serializes.
#[derive(Serialize)]
pub(super) struct FileOut<'a> {
    name: &'a str,
    description: &'a str,
    scoring: &'static str,
    rules: Rules,
    tai: TaiTable,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<PointsTable>,
    settlement: SettlementRules,
    patterns: PatternsOut<'a>,
}

/// `[patterns]` in catalogue order.
struct PatternsOut<'a>(&'a Variant);

/// One pattern's value: its tai alone when that is all it has, as the shipped files write it.
#[derive(Serialize)]
#[serde(untagged)]
enum PatternOut {
    Tai(u16),
    Full {
        tai: u16,
        #[serde(skip_serializing_if = "is_zero")]
        hu: u16,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        excludes: Vec<&'static str>,
    },
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

impl Serialize for PatternsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let v = self.0;
        let mut map = s.serialize_map(None)?;
        for (p, rule) in v.patterns() {
            let hu = v.pattern_hu(p);
            let value = if rule.excludes == 0 && hu == 0 {
                PatternOut::Tai(rule.tai)
            } else {
                PatternOut::Full {
                    tai: rule.tai,
                    hu,
                    excludes: PatternId::ALL
                        .iter()
                        .filter(|x| rule.excludes & x.bit() != 0)
                        .map(|x| x.id())
                        .collect(),
                }
            };
            map.serialize_entry(p.id(), &value)?;
        }
        map.end()
    }
}

/// The variant as TOML: serde writes every table, then the layout is made the shipped files'
/// (a section per table, `[rules.procedure]` too; one line a pattern, with its names).
pub(super) fn write(v: &Variant) -> String {
    // A struct of strings, numbers, booleans and tables always serializes.
    let mut doc =
        toml_edit::ser::to_document(&FileOut::of(v)).expect("the variant's tables serialize");
    let sections = ["rules", "tai", "points", "settlement", "patterns"];
    for key in sections {
        as_section(doc.as_item_mut().get_mut(key));
    }
    as_section(doc.get_mut("rules").and_then(|r| r.get_mut("procedure")));
    if let Some(patterns) = doc.get_mut("patterns").and_then(|t| t.as_table_mut()) {
        for (p, _) in v.patterns() {
            if let Some(value) = patterns.get_mut(p.id()).and_then(|i| i.as_value_mut()) {
                let comment = format!("  # {} {}", p.name_zh(), p.name_en());
                value.decor_mut().set_suffix(comment);
            }
        }
    }
    doc.to_string()
}

/// Fills the procedure keys a file leaves out from what it does say (`flowers`, `sets`): a
/// 13-tile file without flowers need not spell out a wall of 136, no flower replacement and
/// three dealing turns. A key the file gives is kept, so a contradiction is still refused.
fn imply_procedure(rules: &mut Rules, text: &str) {
    if !(1..=5).contains(&rules.sets) {
        return; // Refused by `Rules::validate`, naming `sets`; no hand size to imply from.
    }
    let implied = TableProcedure::implied(rules.flowers, rules.hand_size());
    // The text parsed already; a second, untyped read says which keys it has.
    let doc: toml::Table = toml::from_str(text).unwrap_or_default();
    let procedure = doc
        .get("rules")
        .and_then(|r| r.get("procedure"))
        .and_then(|p| p.as_table());
    let has = |key: &str| procedure.is_some_and(|p| p.contains_key(key));
    let p = &mut rules.procedure;
    if !has("tiles") {
        p.tiles = implied.tiles;
    }
    if !has("dealing") {
        p.dealing = implied.dealing;
    }
    let setup = procedure
        .and_then(|p| p.get("setup"))
        .and_then(|s| s.as_table());
    if !setup.is_some_and(|s| s.contains_key("flower_replacement")) {
        p.setup.flower_replacement = implied.setup.flower_replacement;
    }
}

/// An inline table made a `[section]` of its own.
pub(super) fn as_section(item: Option<&mut toml_edit::Item>) {
    if let Some(item) = item {
        if let Some(inline) = item.as_inline_table_mut() {
            let table = std::mem::take(inline).into_table();
            *item = toml_edit::Item::Table(table);
        }
    }
}

impl FileOut<'_> {
    pub(super) fn of(v: &Variant) -> FileOut<'_> {
        let (scoring, points) = match v.scoring {
            ScoringModel::Tai => ("tai", None),
            ScoringModel::Points { base_hu, cap } => ("points", Some(PointsTable { base_hu, cap })),
        };
        FileOut {
            name: &v.name,
            description: &v.description,
            scoring,
            rules: v.rules,
            tai: TaiTable {
                min: v.min_tai,
                max: v.max_tai.unwrap_or(0),
                wait_needs_single_kind: v.wait_needs_single_kind,
            },
            points,
            settlement: v.settlement,
            patterns: PatternsOut(v),
        }
    }
}

/// `[tai]`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct TaiTable {
    /// 起胡.
    min: u16,
    /// 0: no limit.
    max: u16,
    wait_needs_single_kind: bool,
}

impl Default for TaiTable {
    fn default() -> TaiTable {
        TaiTable {
            min: 0,
            max: 0,
            wait_needs_single_kind: true,
        }
    }
}

/// `[points]`: the points model's numbers.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PointsTable {
    base_hu: u32,
    cap: u32,
}

/// The keys at the top of a variant file: [`RawVariant`]'s fields, and `extends`.
const FILE_KEYS: [&str; 9] = [
    "extends",
    "name",
    "description",
    "scoring",
    "rules",
    "tai",
    "points",
    "settlement",
    "patterns",
];

/// The keys of a pattern given as a table.
const PATTERN_KEYS: [&str; 3] = ["tai", "hu", "excludes"];

/// The keys a table of a variant file takes, in the order the file writes them, each with
/// the keys of its own table where it is one.
struct Keys(Vec<(String, Option<Keys>)>);

impl Keys {
    fn flat(keys: &[&str]) -> Keys {
        Keys(keys.iter().map(|k| (k.to_string(), None)).collect())
    }

    /// The keys of `value`'s tables as serde writes them: a struct's defaults name every key
    /// it reads (`#[serde(default)]`, nothing skipped), the flattened groups of `[rules]`
    /// too, so the lists cannot drift from the types.
    fn of<T: Serialize>(value: &T) -> Keys {
        // Plain structs of numbers, booleans, strings and lists always serialize.
        let doc = toml_edit::ser::to_document(value).expect("a table's defaults serialize");
        Keys::of_table(doc.as_table())
    }

    fn of_table(t: &dyn toml_edit::TableLike) -> Keys {
        Keys(
            t.iter()
                .map(|(k, item)| (k.to_string(), item.as_table_like().map(Keys::of_table)))
                .collect(),
        )
    }

    fn get(&self, key: &str) -> Option<&Option<Keys>> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, sub)| sub)
    }

    fn names(&self) -> Vec<String> {
        self.0.iter().map(|(k, _)| k.clone()).collect()
    }
}

/// The first key of `doc` (a variant file's tables, its own or merged) that no table of a
/// variant takes, as its path from the top, with the keys its table does take. Pattern ids
/// are left to the pattern check, which suggests the ids meant.
fn unknown_key(doc: &toml::Table) -> Option<(Vec<String>, Vec<String>)> {
    let mut top = Keys::flat(&FILE_KEYS);
    for (key, keys) in [
        ("rules", Keys::of(&Rules::default())),
        ("tai", Keys::of(&TaiTable::default())),
        ("points", Keys::of(&PointsTable { base_hu: 0, cap: 0 })),
        ("settlement", Keys::of(&SettlementRules::default())),
    ] {
        if let Some(entry) = top.0.iter_mut().find(|(k, _)| k == key) {
            entry.1 = Some(keys);
        }
    }
    if let Some(found) = unknown_in(doc, &top, &mut Vec::new()) {
        return Some(found);
    }
    let patterns = doc.get("patterns").and_then(|p| p.as_table())?;
    let entry_keys = Keys::flat(&PATTERN_KEYS);
    patterns.iter().find_map(|(id, entry)| {
        let entry = entry
            .as_table()
            .filter(|_| PatternId::from_id(id).is_some())?;
        let mut path = vec!["patterns".to_string(), id.clone()];
        unknown_in(entry, &entry_keys, &mut path)
    })
}

/// [`unknown_key`] within `table`, at `path`, whose keys are `known`.
fn unknown_in(
    table: &toml::Table,
    known: &Keys,
    path: &mut Vec<String>,
) -> Option<(Vec<String>, Vec<String>)> {
    for (key, value) in table {
        path.push(key.clone());
        match (known.get(key), value) {
            (None, _) => return Some((path.clone(), known.names())),
            (Some(Some(sub)), toml::Value::Table(inner)) => {
                if let Some(found) = unknown_in(inner, sub, path) {
                    return Some(found);
                }
            }
            // A value of another type is named by serde's type check.
            _ => {}
        }
        path.pop();
    }
    None
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    scoring: Spanned<String>,
    rules: Option<Spanned<Rules>>,
    tai: Option<TaiTable>,
    points: Option<Spanned<PointsTable>>,
    settlement: Option<Spanned<SettlementRules>>,
    patterns: BTreeMap<Spanned<String>, Spanned<RawPattern>>,
}

/// Parses and checks variant TOML; `layers` are the files it was made from (the text itself
/// for a whole file; for a file that extends another, its chain, the furthest base first),
/// where a check that compares keys finds which file set each.
pub(super) fn parse(
    text: &str,
    origin: &str,
    layers: &[VariantText],
) -> Result<Variant, VariantError> {
    // A byte-order mark is not part of TOML; editors on some systems write one.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = |kind: VariantErrorKind, key: &str, span: Option<Range<usize>>| VariantError {
        origin: origin.to_string(),
        key: key.to_string(),
        line: span.map(|s| line_of(text, s.start)),
        kind,
        with: None,
    };
    // A key's own line where it can be found, else the table's.
    let at = |kind: VariantErrorKind, table: &str, key: &str, table_span: Option<Range<usize>>| {
        let line = key_line(text, table, key).or(table_span.map(|s| line_of(text, s.start)));
        VariantError {
            origin: origin.to_string(),
            key: format!("{table}.{key}"),
            line,
            kind,
            with: None,
        }
    };
    // A check that compares `keys` with `with`, placed where a file set one of them; the
    // line of `span` in this text when no file does.
    let conflict =
        |kind: VariantErrorKind, keys: &[&str], with: &[&str], span: Option<Range<usize>>| {
            placed(kind, keys, with, layers).unwrap_or_else(|kind| VariantError {
                origin: origin.to_string(),
                key: keys[0].to_string(),
                line: span.map(|s| line_of(text, s.start)),
                kind,
                with: None,
            })
        };
    // Unknown keys first, each placed and with the keys its table takes: serde's own error
    // has neither for the keys of `[rules]` (a struct with flattened groups), nor a line for
    // keys in a file's merged tables.
    if let Ok(doc) = toml::from_str::<toml::Table>(text) {
        if let Some((path, expected)) = unknown_key(&doc) {
            let parts: Vec<&str> = path.iter().map(String::as_str).collect();
            return Err(VariantError {
                origin: origin.to_string(),
                key: path.join("."),
                line: path_line(text, &parts),
                kind: VariantErrorKind::UnknownKey {
                    path: path.join("."),
                    expected: expected.into(),
                },
                with: None,
            });
        }
    }
    let raw: RawVariant = toml::from_str(text).map_err(|e| toml_error(&e, text, origin))?;
    if raw.name.get_ref().trim().is_empty() {
        return Err(err(
            VariantErrorKind::EmptyName,
            "name",
            Some(raw.name.span()),
        ));
    }

    let scoring = match (raw.scoring.get_ref().as_str(), &raw.points) {
        ("tai", None) => ScoringModel::Tai,
        ("points", Some(p)) => {
            let table = Some(p.span());
            let p = p.get_ref();
            check(p.base_hu, 0, bounds::BASE_HU)
                .map_err(|k| at(k, "points", "base_hu", table.clone()))?;
            check(p.cap, 1, bounds::POINTS_CAP).map_err(|k| at(k, "points", "cap", table))?;
            ScoringModel::Points {
                base_hu: p.base_hu,
                cap: p.cap,
            }
        }
        ("tai", Some(p)) => {
            return Err(conflict(
                VariantErrorKind::PointsTable {
                    scoring_is_points: false,
                },
                &["points"],
                &["scoring"],
                Some(p.span()),
            ))
        }
        // A file that drops its base's table (`points = false`) is placed at the drop.
        ("points", None) => {
            return Err(conflict(
                VariantErrorKind::PointsTable {
                    scoring_is_points: true,
                },
                &["scoring"],
                &["points"],
                Some(raw.scoring.span()),
            ))
        }
        (other, _) => {
            return Err(err(
                VariantErrorKind::UnknownScoring(other.to_string()),
                "scoring",
                Some(raw.scoring.span()),
            ))
        }
    };

    let (mut rules, rules_span) = match raw.rules {
        Some(r) => (*r.get_ref(), Some(r.span())),
        None => (Rules::default(), None),
    };
    imply_procedure(&mut rules, text);
    if let Err(e) = rules.validate() {
        // The key's own line: a `[rules]` table of twenty keys, named by its header, leaves
        // the reader to find the one meant.
        let (keys, with) = rules_keys(&e, &rules);
        return Err(conflict(
            VariantErrorKind::Rules(e),
            &keys,
            &with,
            rules_span,
        ));
    }

    let tai = raw.tai.unwrap_or_default();
    if tai.max != 0 && tai.max < tai.min {
        return Err(conflict(
            VariantErrorKind::MaxBelowMin {
                min: tai.min,
                max: tai.max,
            },
            &["tai.max"],
            &["tai.min"],
            None,
        ));
    }

    let (settlement, st_span) = match raw.settlement {
        Some(s) => (*s.get_ref(), Some(s.span())),
        None => (SettlementRules::default(), None),
    };
    for (key, value) in [
        ("base", settlement.base),
        ("per_tai", settlement.per_tai),
        ("false_win_penalty", settlement.false_win_penalty),
    ] {
        check(value, 0, bounds::STAKE).map_err(|k| at(k, "settlement", key, st_span.clone()))?;
    }
    for (key, value) in [
        ("dealer_tai", settlement.dealer_tai),
        ("dealer_tai_per_streak", settlement.dealer_tai_per_streak),
    ] {
        check(value, 0, bounds::DEALER_TAI)
            .map_err(|k| at(k, "settlement", key, st_span.clone()))?;
    }
    if settlement.model == SettlementModel::AllPairs {
        let dealer_tai: Vec<&str> = [
            ("settlement.dealer_tai", settlement.dealer_tai),
            (
                "settlement.dealer_tai_per_streak",
                settlement.dealer_tai_per_streak,
            ),
        ]
        .into_iter()
        .filter(|(_, tai)| *tai != 0)
        .map(|(key, _)| key)
        .collect();
        let why = if scoring == ScoringModel::Tai {
            Some((
                "model = \"all_pairs\" values every hand in points: it needs scoring = \"points\"",
                vec!["scoring"],
            ))
        } else if settlement.base != 0 {
            Some((
                "model = \"all_pairs\" pays values times per_tai alone: base must be 0",
                vec!["settlement.base"],
            ))
        } else if settlement.per_tai % 2 != 0 {
            Some((
                "model = \"all_pairs\" pays halves of values: per_tai must be even",
                vec!["settlement.per_tai"],
            ))
        } else if !dealer_tai.is_empty() {
            Some(("model = \"all_pairs\" has no dealer tai: dealer_tai and dealer_tai_per_streak must be 0", dealer_tai))
        } else {
            None
        };
        if let Some((why, with)) = why {
            return Err(conflict(
                VariantErrorKind::Incompatible(why),
                &["settlement.model"],
                &with,
                st_span,
            ));
        }
        // taizhou.md 胜负规则 values one winner against the three others; with two winners
        // each would be paid as if it alone had won, and a deal's payments would count the
        // other winner's hand twice.
        if rules.multiple_winners {
            return Err(conflict(
                VariantErrorKind::Incompatible(
                    "model = \"all_pairs\" settles one winner against the three others \
                     (taizhou.md 胜负规则): it needs multiple_winners = false",
                ),
                &["rules.multiple_winners"],
                &["settlement.model"],
                rules_span,
            ));
        }
    }

    let mut patterns = [None; PatternId::COUNT];
    let mut hu = [0u16; PatternId::COUNT];
    let mut tai_sum = 0u32;
    for (key, entry) in &raw.patterns {
        let id_text = key.get_ref();
        let path = format!("patterns.{id_text}");
        let Some(id) = PatternId::from_id(id_text) else {
            return Err(err(
                VariantErrorKind::UnknownPattern(id_text.clone()),
                &path,
                Some(key.span()),
            ));
        };
        let span = Some(key.span());
        let entry = entry.get_ref();
        check(entry.tai, 0, bounds::PATTERN_TAI as i64)
            .map_err(|k| err(k, &format!("{path}.tai"), span.clone()))?;
        check(entry.hu, 0, bounds::PATTERN_HU as i64)
            .map_err(|k| err(k, &format!("{path}.hu"), span.clone()))?;
        // In bounds, so these fit.
        let (tai, pattern_hu) = (entry.tai as u16, entry.hu as u16);
        if pattern_hu != 0 && scoring == ScoringModel::Tai {
            return Err(conflict(
                VariantErrorKind::Incompatible("hu values need scoring = \"points\""),
                &[&format!("{path}.hu")],
                &["scoring"],
                span,
            ));
        }
        tai_sum += tai as u32 * bounds::MAX_COUNT;
        let mut excludes = 0;
        for ex in &entry.excludes {
            match PatternId::from_id(ex.get_ref()) {
                Some(x) if x == id => {
                    return Err(err(
                        VariantErrorKind::ExcludesItself(id_text.clone()),
                        &format!("{path}.excludes"),
                        Some(ex.span()),
                    ))
                }
                Some(x) => excludes |= x.bit(),
                None => {
                    return Err(err(
                        VariantErrorKind::UnknownExclusion {
                            pattern: id.id(),
                            excluded: ex.get_ref().clone(),
                        },
                        &format!("{path}.excludes"),
                        Some(ex.span()),
                    ))
                }
            }
        }
        patterns[id.index()] = Some(PatternRule { tai, excludes });
        hu[id.index()] = pattern_hu;
    }
    if tai_sum > bounds::TAI_SUM {
        return Err(err(
            VariantErrorKind::OutOfBounds {
                value: (tai_sum / bounds::MAX_COUNT) as i64,
                min: 0,
                max: (bounds::TAI_SUM / bounds::MAX_COUNT) as i64,
            },
            "patterns (the sum of all tai)",
            None,
        ));
    }

    let variant = Variant::assemble(
        raw.name.into_inner(),
        raw.description,
        scoring,
        rules,
        tai.min,
        (tai.max != 0).then_some(tai.max),
        tai.wait_needs_single_kind,
        settlement,
        patterns,
        hu,
    );
    if let Some(c) = scoring_conflict(&variant) {
        let keys: Vec<&str> = c.keys.iter().map(String::as_str).collect();
        let with: Vec<&str> = c.with.iter().map(String::as_str).collect();
        // The `[rules]` header stands for a wild no file's line names; a pattern has none.
        let table = rules_span.filter(|_| c.with.is_empty());
        let mut e = conflict(VariantErrorKind::Incompatible(c.why), &keys, &with, table);
        if with.contains(&e.key.as_str()) {
            e.kind = VariantErrorKind::Incompatible(c.why_with);
        }
        return Err(e);
    }
    if let Some(cycle) = variant.exclusion_cycle() {
        let first = cycle[0].id();
        return Err(VariantError {
            origin: origin.to_string(),
            key: format!("patterns.{first}.excludes"),
            line: key_line(text, "patterns", first),
            kind: VariantErrorKind::ExclusionCycle(
                cycle.iter().map(|p| p.id().to_string()).collect(),
            ),
            with: None,
        });
    }
    Ok(variant)
}

/// Keys that load one by one but that no scorer can take together: those at fault and
/// those they were compared with (each a dotted path), and why, said of a key of either.
struct ScoringConflict {
    keys: Vec<String>,
    with: Vec<String>,
    why: &'static str,
    why_with: &'static str,
}

/// Keys that load one by one but that no scorer can take together, refused here rather
/// than at a run's first win (after its directory was made): a turned-up wild under tables
/// that read hands without wilds, and a pattern the 台州 tables do not read beside them.
fn scoring_conflict(v: &Variant) -> Option<ScoringConflict> {
    let taizhou = v.taizhou_tables();
    if v.rules().procedure.setup.wild_indicator && !taizhou {
        let why = "a turned-up wild (wild_indicator = true) is scored only by the 台州 tables \
                   (a variant counting plain_pair, no_wild, …, as taizhou does); this \
                   variant's patterns read hands without wilds";
        return Some(ScoringConflict {
            keys: vec!["rules.procedure.setup.wild_indicator".into()],
            with: Vec::new(),
            why,
            why_with: why,
        });
    }
    if !taizhou {
        return None;
    }
    let ids = |set: crate::pattern::PatternSet| -> Vec<String> {
        PatternId::ALL
            .iter()
            .filter(|p| set & p.bit() != 0)
            .map(|p| format!("patterns.{}", p.id()))
            .collect()
    };
    let others = ids(v.enabled() & !crate::pattern::TAIZHOU_READ);
    // Either side may be the one a file added: 嵌档胡 beside taiwan16's patterns, or
    // all_honors beside taizhou's.
    (!others.is_empty()).then(|| ScoringConflict {
        keys: others,
        with: ids(v.enabled() & crate::pattern::TAIZHOU_FAMILY),
        why: "this pattern cannot be counted beside the 台州 patterns (pairs, sets by how \
              they were made, 嵌档胡, 无得, ...), which are scored by their own tables",
        why_with: "this is one of the 台州 patterns (pairs, sets by how they were made, \
                   嵌档胡, 无得, ...), which are scored by their own tables: no pattern they \
                   do not read can be counted beside it",
    })
}

/// The keys of a variant file an engine rules check read, as dotted paths: the keys its
/// message is about, then the others whose values it compared (a dealing that does not fit
/// the hand reads `sets` too), each only where it took part.
fn rules_keys(e: &RulesError, rules: &Rules) -> (Vec<&'static str>, Vec<&'static str>) {
    use RulesError::*;
    match e {
        Sets(_) => (vec!["rules.sets"], Vec::new()),
        Reserve { .. } => (
            vec!["rules.reserve"],
            vec![
                "rules.sets",
                "rules.flowers",
                "rules.procedure.tiles",
                "rules.procedure.setup.wild_indicator",
            ],
        ),
        FlowerWinsWithoutFlowers => (vec!["rules.flower_wins"], vec!["rules.flowers"]),
        SpecialHandsNeedSixteen => {
            let special = [
                ("rules.eight_pairs", rules.special.eight_pairs),
                ("rules.thirteen_orphans", rules.special.thirteen_orphans),
            ];
            let on = special.iter().filter(|(_, on)| *on).map(|(k, _)| *k);
            (on.collect(), vec!["rules.sets"])
        }
        TilesDisagreeWithFlowers { .. } => (vec!["rules.flowers"], vec!["rules.procedure.tiles"]),
        FlowersWithoutReplacement | ReplacementWithoutFlowers => (
            vec!["rules.flowers"],
            vec!["rules.procedure.setup.flower_replacement"],
        ),
        WildIndicatorWithFlowers => (
            vec!["rules.procedure.setup.wild_indicator"],
            vec!["rules.flowers"],
        ),
        Dealing { .. } => (vec!["rules.procedure.dealing"], vec!["rules.sets"]),
    }
}

/// The latest file of `layers` that sets `key` (a dotted path): its index, origin and line.
pub(super) fn latest(layers: &[VariantText], key: &str) -> Option<(usize, Setting)> {
    let parts: Vec<&str> = key.split('.').collect();
    layers.iter().enumerate().rev().find_map(|(i, layer)| {
        let line = path_line(&layer.text, &parts)?;
        let origin = layer.origin.clone();
        let key = key.to_string();
        Some((i, Setting { key, origin, line }))
    })
}

/// Of `keys`, the one set in the latest file of `layers`, the first listed among those of
/// one file.
fn latest_of(layers: &[VariantText], keys: &[&str]) -> Option<(usize, Setting)> {
    keys.iter()
        .filter_map(|key| latest(layers, key))
        .fold(None, |best, found| match best {
            Some(best) if best.0 >= found.0 => Some(best),
            _ => Some(found),
        })
}

/// An error of a check that compares `keys` (what its message is about) with `with`: placed
/// at whichever of them the most-derived file of `layers` set, a file's own key before its
/// base's (a file that sets `per_tai = 3` over taizhou's `model = "all_pairs"` is told of its
/// `per_tai`, not of taizhou's line), and naming the other side's key where a file set it.
/// Among the keys of one file those of `keys` come first. `Err(kind)` when no file sets any.
fn placed(
    kind: VariantErrorKind,
    keys: &[&str],
    with: &[&str],
    layers: &[VariantText],
) -> Result<VariantError, VariantErrorKind> {
    let (ours, theirs) = (latest_of(layers, keys), latest_of(layers, with));
    let (at, beside) = match (ours, theirs) {
        (Some(o), Some(t)) if t.0 > o.0 => (t, Some(o)),
        (Some(o), t) => (o, t),
        (None, Some(t)) => (t, None),
        (None, None) => return Err(kind),
    };
    Ok(VariantError {
        origin: at.1.origin,
        key: at.1.key,
        line: Some(at.1.line),
        kind,
        with: beside.map(|(_, s)| Box::new(s)),
    })
}

/// A TOML parser's or deserializer's error in `text`, said as the loader's other errors say
/// theirs: at the key whose value it is (`settlement.base: ...`), a number past its type's
/// range as out of bounds, a name a key does not take as an unknown value, and types in
/// words rather than Rust's (`a whole number from 0 to 65535`, not `u16`).
pub(super) fn toml_error(e: &toml::de::Error, text: &str, origin: &str) -> VariantError {
    let message = e.message().trim();
    let line = e.span().map(|s| line_of(text, s.start));
    let key = match e.span() {
        Some(span) => match toml_edit::ImDocument::parse(text) {
            Ok(doc) => {
                let mut path = Vec::new();
                locate(doc.as_table(), span.start, &mut path).then(|| path.join("."))
            }
            // A number past any TOML integer stops the parser itself: its line is `key = …`.
            Err(_) if message.starts_with("number too ") => {
                line.and_then(|line| dotted_key_at(text, line))
            }
            Err(_) => None,
        },
        None => None,
    };
    let key = key.unwrap_or_default();
    let kind = plain(message, checked_bounds(&key));
    VariantError {
        origin: origin.to_string(),
        key,
        line,
        kind,
        with: None,
    }
}

/// The bounds the loader checks a key of a type narrower than `i64` against, where they
/// are narrower than the type's range.
fn checked_bounds(key: &str) -> Option<(i64, i64)> {
    Some(match key {
        "settlement.dealer_tai" | "settlement.dealer_tai_per_streak" => {
            (0, bounds::DEALER_TAI.into())
        }
        "points.base_hu" => (0, bounds::BASE_HU.into()),
        "points.cap" => (1, bounds::POINTS_CAP.into()),
        _ => return None,
    })
}

/// Whether `offset` lies in a key or value of `table`, with the dotted path of the innermost
/// key there pushed onto `path`.
fn locate(table: &dyn toml_edit::TableLike, offset: usize, path: &mut Vec<String>) -> bool {
    for (key, item) in table.iter() {
        path.push(key.to_string());
        let key_span = table.get_key_value(key).and_then(|(k, _)| k.span());
        let here = [item.span(), key_span]
            .into_iter()
            .any(|span| span.is_some_and(|s| s.contains(&offset)));
        let inner = item.as_table_like();
        if inner.is_some_and(|t| locate(t, offset, path)) || here {
            return true;
        }
        path.pop();
    }
    false
}

/// The range of the integer type serde names in its messages.
fn int_range(ty: &str) -> Option<(i64, i64)> {
    Some(match ty {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, i64::MAX),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN, i64::MAX),
        _ => return None,
    })
}

/// The range a value of the integer type `ty` must meet: the loader's `bounds` for its key
/// where given (narrower than the type's), else the type's own; `None` for no integer type.
fn checked_range(ty: &str, bounds: Option<(i64, i64)>) -> Option<(i64, i64)> {
    int_range(ty).and(bounds).or_else(|| int_range(ty))
}

/// What serde's message expects, in words: a file's author knows numbers, lists and
/// tables, not `u16`, `a sequence` or `struct SettlementRules`. `bounds` are the loader's
/// own for the key, where narrower than its type's range.
fn plain_expected(expected: &str, bounds: Option<(i64, i64)>) -> String {
    match (expected, checked_range(expected, bounds)) {
        ("i64" | "isize", _) => "a whole number".into(),
        ("u64" | "usize", _) => "a whole number, 0 or more".into(),
        (_, Some((min, max))) => format!("a whole number from {min} to {max}"),
        ("f32" | "f64", _) => "a number".into(),
        ("a boolean", _) => "true or false".into(),
        ("a sequence", _) => "a list".into(),
        ("a map", _) => "a table".into(),
        (s, _) if s.starts_with("struct ") => "a table".into(),
        (s, _) if s.starts_with("enum ") => "a name in quotes".into(),
        (s, _) => s.into(),
    }
}

/// The kind of a TOML parser's or deserializer's message (serde's own wording for invalid
/// types, values and variants, which names Rust's types and calls a name an enum
/// "variant", a word that means a rule set here). A value past its type's range is past the
/// loader's own bound for the key (`bounds`) too, which may be narrower: the message says the
/// bound the value must meet, as the loader's check would.
fn plain(message: &str, bounds: Option<(i64, i64)>) -> VariantErrorKind {
    if let Some(rest) = message.strip_prefix("invalid value: integer `") {
        if let Some((value, ty)) = rest.split_once("`, expected ") {
            if let (Ok(value), Some((min, max))) = (value.parse(), checked_range(ty, bounds)) {
                return VariantErrorKind::OutOfBounds { value, min, max };
            }
        }
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        // The names are the expected list's quoted words; the value may hold anything.
        if let Some((value, names)) = rest.rsplit_once("`, expected ") {
            let expected = names.split('`').skip(1).step_by(2).map(String::from);
            return VariantErrorKind::UnknownValue {
                value: value.to_string(),
                expected: expected.collect(),
            };
        }
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.rsplit_once(", expected ") {
            let found = match found {
                "sequence" => "a list",
                "map" => "a table",
                found => found,
            };
            let expected = plain_expected(expected, bounds);
            return VariantErrorKind::Syntax(format!("invalid type: {found}, expected {expected}"));
        }
    }
    VariantErrorKind::Syntax(match message {
        // toml's words for a name given as another type.
        "wanted string or table" => "expected a name in quotes".into(),
        "number too large to fit in target type" => format!(
            "the number is too large for any key (a whole number is at most {})",
            i64::MAX
        ),
        "number too small to fit in target type" => format!(
            "the number is too small for any key (a whole number is at least {})",
            i64::MIN
        ),
        other => other.to_string(),
    })
}

/// `value` within `min..=max`, or why not.
fn check<T: Into<i64>>(value: T, min: T, max: T) -> Result<(), VariantErrorKind> {
    let (value, min, max) = (value.into(), min.into(), max.into());
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(VariantErrorKind::OutOfBounds { value, min, max })
    }
}

/// 1-based line of a byte offset.
pub(super) fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The 1-based line where `key` is set in `[table]` (at the top, before any table, when
/// `table` is empty), for the plain `key = …` layout the shipped files use; `None` for
/// layouts it does not follow (the error then names the table's line or none, and always the
/// key).
pub(super) fn key_line(text: &str, table: &str, key: &str) -> Option<usize> {
    let header = format!("[{table}]");
    let mut inside = table.is_empty();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            inside =
                !table.is_empty() && line.split('#').next().map(str::trim) == Some(header.as_str());
        } else if inside {
            if let Some(rest) = line.strip_prefix(key) {
                if rest.trim_start().starts_with('=') {
                    return Some(i + 1);
                }
            }
        }
    }
    None
}

/// [`key_at`] as one dotted path (`rules.reserve`, or `name` at the top).
pub(super) fn dotted_key_at(text: &str, line: usize) -> Option<String> {
    key_at(text, line).map(|(table, key)| {
        if table.is_empty() {
            key
        } else {
            format!("{table}.{key}")
        }
    })
}

/// The `[table]` and key set on line `line` of `text`, a file in the layout `toml` writes
/// (or a hand-written one in the same plain `key = value` layout).
pub(super) fn key_at(text: &str, line: usize) -> Option<(String, String)> {
    let mut table = String::new();
    for (i, l) in text.lines().enumerate().take(line) {
        let l = l.trim();
        if let Some(header) = l.strip_prefix('[') {
            table = header
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
        } else if i + 1 == line {
            let key = l.split('=').next()?.trim().trim_matches('"');
            return (!key.is_empty()).then(|| (table.clone(), key.to_string()));
        }
    }
    None
}

/// The 1-based line where the dotted key `path` is set in `text`: `c` in `[a.b]`, `b` in
/// `[a]` (an inline table), `a` at the top, else the header `[a.b.c]` of the table it names.
pub(super) fn path_line(text: &str, path: &[&str]) -> Option<usize> {
    (0..path.len())
        .rev()
        .find_map(|split| key_line(text, &path[..split].join("."), path[split]))
        .or_else(|| {
            let header = format!("[{}]", path.join("."));
            text.lines()
                .position(|l| l.split('#').next().map(str::trim) == Some(header.as_str()))
                .map(|i| i + 1)
        })
}

/// A pattern entry: a bare tai number, or `{ tai = N, hu = H, excludes = [...] }`.
struct RawPattern {
    tai: i64,
    hu: i64,
    excludes: Vec<Spanned<String>>,
}

impl<'de> Deserialize<'de> for RawPattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawPattern, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawPattern;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tai count or { tai = N, hu = H, excludes = [\"id\", ...] }")
            }

            fn visit_i64<E: de::Error>(self, tai: i64) -> Result<RawPattern, E> {
                Ok(RawPattern {
                    tai,
                    hu: 0,
                    excludes: Vec::new(),
                })
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawPattern, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }

            fn visit_bool<E: de::Error>(self, _: bool) -> Result<RawPattern, E> {
                Err(E::custom(
                    "false drops a pattern only in a file that extends another \
                     (extends = \"taiwan16\"); a whole variant file leaves the pattern out",
                ))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawPattern, A::Error> {
                let mut tai = None;
                let mut hu = 0;
                let mut excludes = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "tai" => tai = Some(map.next_value::<i64>()?),
                        "hu" => hu = map.next_value::<i64>()?,
                        "excludes" => excludes = map.next_value()?,
                        other => return Err(de::Error::unknown_field(other, &PATTERN_KEYS)),
                    }
                }
                let tai = tai.ok_or_else(|| de::Error::missing_field("tai"))?;
                Ok(RawPattern { tai, hu, excludes })
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_at_reads_the_layout_toml_writes() {
        let text = "name = \"x\"\n\n[rules]\nreserve = 0\n\n[patterns.all_melded]\ntai = 2\n";
        assert_eq!(key_at(text, 1), Some((String::new(), "name".into())));
        assert_eq!(key_at(text, 4), Some(("rules".into(), "reserve".into())));
        assert_eq!(
            key_at(text, 7),
            Some(("patterns.all_melded".into(), "tai".into()))
        );
        assert_eq!(key_at(text, 3), None);
    }
}
