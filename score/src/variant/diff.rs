//! A variant as its differences from another, written as a file that extends it
//! (`taisim variant show FILE --diff`): resolving that file gives the variant back.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::extend::Resolved;
use super::parse::{as_section, FileOut};
use super::{Variant, VariantText};
use crate::pattern::PatternId;

/// Keys in the order they are written, unlike `toml::Table` (sorted by name).
struct Ordered(Vec<(String, Entry)>);

/// A value, or a table of ordered keys.
enum Entry {
    Value(toml::Value),
    Table(Ordered),
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            match v {
                Entry::Value(v) => map.serialize_entry(k, v)?,
                Entry::Table(t) => map.serialize_entry(k, t)?,
            }
        }
        map.end()
    }
}

/// The tables every variant writes, as `toml` values.
fn tables(v: &Variant) -> toml::Table {
    match toml::Value::try_from(FileOut::of(v)) {
        Ok(toml::Value::Table(t)) => t,
        // A struct of strings, numbers, booleans and tables always serializes to a table.
        _ => unreachable!("a variant's tables serialize to a table"),
    }
}

/// The keys of `ours` whose values differ from `theirs`', tables compared key by key.
fn changed(ours: &toml::Table, theirs: Option<&toml::Table>) -> toml::Table {
    let mut out = toml::Table::new();
    for (key, value) in ours {
        let base = theirs.and_then(|t| t.get(key));
        match (value, base) {
            (toml::Value::Table(o), Some(toml::Value::Table(t))) => {
                let inner = changed(o, Some(t));
                if !inner.is_empty() {
                    out.insert(key.clone(), toml::Value::Table(inner));
                }
            }
            (v, Some(b)) if v == b => {}
            (v, _) => {
                out.insert(key.clone(), v.clone());
            }
        }
    }
    out
}

/// A pattern's tai, 胡 and exclusions as a variant writes them.
fn parts(v: &Variant, p: PatternId) -> Option<(u16, u16, Vec<&'static str>)> {
    let rule = v.pattern(p)?;
    let excludes = PatternId::ALL
        .iter()
        .filter(|x| rule.excludes & x.bit() != 0)
        .map(|x| x.id())
        .collect();
    Some((rule.tai, v.pattern_hu(p), excludes))
}

/// One engine rule (a key of `[rules]`) whose value differs between two variants.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleChange {
    /// The key as a variant file writes it: `rules.missed_win`, `rules.procedure.dice`.
    pub key: String,
    /// Its value in the first variant and in the second, as TOML values (`true`, `4`,
    /// `"three_dice"`).
    pub from: toml::Value,
    pub to: toml::Value,
}

/// Each key of `diff` (the nested tables [`changed`] gives) as a change at its dotted path
/// under `path`, from its value in `before`.
fn flatten(path: &str, diff: &toml::Table, before: &toml::Table, out: &mut Vec<RuleChange>) {
    for (key, to) in diff {
        let key_path = format!("{path}.{key}");
        match (to, before.get(key)) {
            (toml::Value::Table(d), Some(toml::Value::Table(b))) => flatten(&key_path, d, b, out),
            (to, from) => out.push(RuleChange {
                key: key_path,
                from: from
                    .cloned()
                    .unwrap_or_else(|| toml::Value::Table(toml::Table::new())),
                to: to.clone(),
            }),
        }
    }
}

impl VariantText {
    /// What a file's `extends` names this variant by, for a file that may be saved in any
    /// folder: a shipped variant by its name, a file by its absolute path (a relative one is
    /// taken from the folder of the file that names it, so it finds this file from one
    /// folder alone).
    pub fn extends_name(&self) -> String {
        match self.origin.strip_prefix("builtin:") {
            Some(name) => name.to_string(),
            None => std::fs::canonicalize(&self.origin)
                .or_else(|_| std::path::absolute(&self.origin))
                .map_or_else(|_| self.origin.clone(), |p| p.display().to_string()),
        }
    }
}

impl Resolved {
    /// The text of the variant this one extends, where it extends one.
    pub fn base_text(&self) -> Option<&VariantText> {
        // The base's own chain, then this file's text.
        self.extends.as_ref()?;
        self.layers.iter().rev().nth(1)
    }
}

impl Variant {
    /// The engine rules whose values differ from `to`'s, by key: the `[rules]` keys that
    /// `taisim variant show FILE --diff` writes for a file of `to` extending this variant.
    /// Empty when their engine rules are the same.
    pub fn rule_changes(&self, to: &Variant) -> Vec<RuleChange> {
        let rules = |v: &Variant| match tables(v).remove("rules") {
            Some(toml::Value::Table(t)) => t,
            // `rules` is a struct: it always serializes to a table.
            _ => unreachable!("a variant's rules serialize to a table"),
        };
        // What differs is what `--diff` writes for `to` over this variant.
        let (from, to) = (rules(self), rules(to));
        let mut out = Vec::new();
        flatten("rules", &changed(&to, Some(&from)), &from, &mut out);
        out
    }

    /// The scoring-table keys whose values differ from `to`'s (everything a variant file
    /// sets but its name, description and engine rules: `scoring`, `[tai]`, `[points]`,
    /// `[settlement]` and each pattern), by key as a variant file writes it. A pattern is
    /// named by the part that differs (`patterns.all_chows.tai`, `.hu`, `.excludes`), or
    /// whole (`patterns.all_chows`, `false` where a variant does not count it); a `[points]`
    /// table only one variant has, whole (`false` in the other). Empty when the two score
    /// and settle every hand alike.
    pub fn table_changes(&self, to: &Variant) -> Vec<RuleChange> {
        let absent = || toml::Value::Boolean(false);
        let (mut ours, mut theirs) = (tables(self), tables(to));
        let mut out = Vec::new();
        for key in ["scoring", "tai", "points", "settlement"] {
            match (ours.remove(key), theirs.remove(key)) {
                (Some(toml::Value::Table(a)), Some(toml::Value::Table(b))) => {
                    // Both tables have every key (each is a struct written whole).
                    flatten(key, &changed(&b, Some(&a)), &a, &mut out);
                }
                (a, b) if a != b => out.push(RuleChange {
                    key: key.to_string(),
                    from: a.unwrap_or_else(absent),
                    to: b.unwrap_or_else(absent),
                }),
                _ => {}
            }
        }
        for &p in PatternId::ALL {
            let key = format!("patterns.{}", p.id());
            match (parts(self, p), parts(to, p)) {
                (Some(a), Some(b)) => {
                    let excludes =
                        |e: &[&str]| toml::Value::Array(e.iter().map(|&x| x.into()).collect());
                    for (part, x, y) in [
                        ("tai", i64::from(a.0).into(), i64::from(b.0).into()),
                        ("hu", i64::from(a.1).into(), i64::from(b.1).into()),
                        ("excludes", excludes(&a.2), excludes(&b.2)),
                    ] {
                        if x != y {
                            out.push(RuleChange {
                                key: format!("{key}.{part}"),
                                from: x,
                                to: y,
                            });
                        }
                    }
                }
                (None, None) => {}
                (a, b) => {
                    let value = |parts: Option<(u16, u16, Vec<&str>)>| {
                        parts.map_or_else(absent, |(tai, _, _)| i64::from(tai).into())
                    };
                    out.push(RuleChange {
                        key,
                        from: value(a),
                        to: value(b),
                    });
                }
            }
        }
        out
    }

    /// What differs from `base`, as a variant file with `extends = "{extends}"` (the name or
    /// path that finds `base`): its own name and description always, and every other key
    /// only where it differs. A pattern whose exclusions and 胡 are the base's is written as its tai alone
    /// (an extending file keeps the rest), one the base counts and this variant does not as
    /// `false`. Resolving the text, where `extends` finds `base`, gives this variant back.
    pub fn diff_toml(&self, base: &Variant, extends: &str) -> String {
        let (ours, theirs) = (tables(self), tables(base));
        let value = |v: toml::Value| Entry::Value(v);
        let mut out = vec![
            ("extends".to_string(), value(extends.into())),
            ("name".to_string(), value(self.name.clone().into())),
        ];
        // The description always: left out, an extending file's says where its changes are.
        out.push((
            "description".to_string(),
            value(self.description.clone().into()),
        ));
        for key in ["scoring"] {
            if ours.get(key) != theirs.get(key) {
                if let Some(v) = ours.get(key) {
                    out.push((key.to_string(), value(v.clone())));
                }
            }
        }
        // A key before any table: the base's [points], which a tai variant must drop.
        if theirs.contains_key("points") && !ours.contains_key("points") {
            out.push(("points".to_string(), value(false.into())));
        }
        let sections = ["rules", "tai", "points", "settlement"];
        for key in sections {
            let Some(toml::Value::Table(table)) = ours.get(key) else {
                continue;
            };
            let diff = changed(table, theirs.get(key).and_then(|t| t.as_table()));
            if !diff.is_empty() {
                out.push((key.to_string(), value(toml::Value::Table(diff))));
            }
        }
        let mut patterns = Vec::new();
        for &p in PatternId::ALL {
            let entry = match (parts(self, p), parts(base, p)) {
                (None, None) => continue,
                (None, Some(_)) => value(false.into()),
                (Some(a), Some(b)) if a == b => continue,
                (Some((tai, hu, ex)), old) => {
                    let (base_hu, base_ex) = old.map_or((0, Vec::new()), |(_, h, e)| (h, e));
                    if hu == base_hu && ex == base_ex {
                        // Its tai alone: an extending file keeps the rest (a new pattern's
                        // rest is nothing).
                        value(i64::from(tai).into())
                    } else {
                        let mut t = vec![("tai".to_string(), value(i64::from(tai).into()))];
                        if hu != base_hu {
                            t.push(("hu".into(), value(i64::from(hu).into())));
                        }
                        if ex != base_ex {
                            let list = ex.iter().map(|x| toml::Value::from(*x)).collect();
                            t.push(("excludes".into(), value(toml::Value::Array(list))));
                        }
                        Entry::Table(Ordered(t))
                    }
                }
            };
            patterns.push((p, entry));
        }
        let listed: Vec<PatternId> = patterns.iter().map(|(p, _)| *p).collect();
        if !patterns.is_empty() {
            let table = patterns
                .into_iter()
                .map(|(p, v)| (p.id().to_string(), v))
                .collect();
            out.push(("patterns".into(), Entry::Table(Ordered(table))));
        }
        let mut doc =
            toml_edit::ser::to_document(&Ordered(out)).expect("a variant's differences serialize");
        for key in sections.into_iter().chain(["patterns"]) {
            as_section(doc.as_item_mut().get_mut(key));
        }
        as_section(doc.get_mut("rules").and_then(|r| r.get_mut("procedure")));
        if let Some(table) = doc.get_mut("patterns").and_then(|t| t.as_table_mut()) {
            for p in listed {
                if let Some(value) = table.get_mut(p.id()).and_then(|i| i.as_value_mut()) {
                    let note = if base.pattern(p).is_none() {
                        "new"
                    } else if self.pattern(p).is_none() {
                        "dropped"
                    } else {
                        "changed"
                    };
                    let comment = format!("  # {} {} ({note})", p.name_zh(), p.name_en());
                    value.decor_mut().set_suffix(comment);
                }
            }
        }
        doc.to_string()
    }
}
