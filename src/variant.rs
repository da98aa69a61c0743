//! `taisim variants`, `taisim variant show`, `taisim variant patterns`: the shipped variants,
//! one variant as a whole file or as its changes from another, and the pattern catalogue.

use serde_json::{json, Value};
use taisim_score::{PatternId, Resolved, ScoringModel, Variant, VariantText};

use crate::failure::{CliError, Failure};
use crate::output::out;

#[derive(clap::Args)]
pub struct VariantArgs {
    #[command(subcommand)]
    command: VariantCommand,
}

#[derive(clap::Subcommand)]
enum VariantCommand {
    /// Print a variant (a shipped name or a file path) as a whole TOML file, with what it
    /// extends laid under its changes.
    Show {
        /// The variant's name or file path.
        name: String,
        /// Print only what differs from the variant it extends (or from --against), as a
        /// file that extends it: save it, change a line, and simulate with it.
        #[arg(long)]
        diff: bool,
        /// The variant to take the differences from, a shipped name or a file path [default:
        /// the one the file extends]. With --diff.
        #[arg(long, value_name = "VARIANT", requires = "diff")]
        against: Option<String>,
    },
    /// Every pattern of a variant: its id, Chinese and English names, tai (or 胡), the
    /// patterns it excludes, and the rule text line its file cites. Without a variant, the
    /// whole catalogue with the tai of every shipped variant.
    Patterns {
        /// A shipped variant's name or a variant file's path [default: every shipped one].
        variant: Option<String>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

pub fn list_variants() -> Result<(), Failure> {
    for name in Variant::names() {
        let v = Variant::builtin(name)?;
        let default = if name == Variant::DEFAULT {
            " (default)"
        } else {
            ""
        };
        out!(
            "{name:<16}{:>3} patterns  {}{default}\n",
            v.patterns().count(),
            v.description()
        );
    }
    Ok(())
}

pub fn variant(args: &VariantArgs) -> Result<(), Failure> {
    match &args.command {
        VariantCommand::Show {
            name,
            diff,
            against,
        } => show(name, *diff, against.as_deref()),
        VariantCommand::Patterns { variant, json } => match variant {
            Some(name) => patterns(name, *json),
            None => catalogue(*json),
        },
    }
}

fn show(name: &str, diff: bool, against: Option<&str>) -> Result<(), Failure> {
    let resolved = Variant::resolve_name_or_path(name)?;
    if !diff {
        if let Some(base) = &resolved.extends {
            out!(
                "# {name} extends {base}: the whole variant, its changes laid over {}\n# (taisim variant show {name} --diff prints the changes alone)\n",
                resolved.base.as_ref().map_or("it", |b| b.name())
            );
        }
        out!("{}", resolved.variant.to_toml());
        return Ok(());
    }
    // The base named as `extends` finds it from wherever the printed file is saved: a
    // relative path, as given or as the file wrote it, finds it from one folder alone.
    let base_name = resolved.base_text().map(VariantText::extends_name);
    let (base, extends) = match (against, base_name, resolved.base) {
        (Some(other), _, _) => {
            let found = Variant::find(other)?;
            let base = Variant::from_toml_str(&found.text, &found.origin)?;
            (base, found.extends_name())
        }
        (None, Some(extends), Some(base)) => (*base, extends),
        (None, _, _) => {
            return Err(CliError::Usage(format!(
                "{name} extends no other variant, so --diff has nothing to compare it with: give --against VARIANT (as in --against {})",
                Variant::DEFAULT
            ))
            .into())
        }
    };
    out!("{}", resolved.variant.diff_toml(&base, &extends));
    Ok(())
}

/// A variant file's origin as a short name: `taiwan16.toml` for `builtin:taiwan16`, the
/// file's name for a path.
fn short(origin: &str) -> String {
    match origin.strip_prefix("builtin:") {
        Some(name) => format!("{name}.toml"),
        None => std::path::Path::new(origin)
            .file_name()
            .map_or_else(|| origin.to_string(), |n| n.to_string_lossy().into_owned()),
    }
}

/// What a pattern is worth in `v`, for a table: its tai, or under the points model its 台
/// and 胡 (`1台`, `2胡`, `1台 2胡`).
fn worth(v: &Variant, p: PatternId) -> Option<String> {
    let rule = v.pattern(p)?;
    Some(match v.scoring() {
        ScoringModel::Tai => rule.tai.to_string(),
        ScoringModel::Points { .. } => {
            let hu = v.pattern_hu(p);
            match (rule.tai, hu) {
                (0, 0) => "0".to_string(),
                (t, 0) => format!("{t}台"),
                (0, h) => format!("{h}胡"),
                (t, h) => format!("{t}台 {h}胡"),
            }
        }
    })
}

/// The patterns `p` excludes that `v` counts. An exclusion of a pattern the variant does
/// not count (one its file dropped, `half_flush = false`, from the base's `all_honors`
/// exclusions) never drops anything: listed, it would read as a pattern still scored.
fn excludes(v: &Variant, p: PatternId) -> Vec<&'static str> {
    let ex = v.pattern(p).map_or(0, |r| r.excludes);
    PatternId::ALL
        .iter()
        .filter(|x| ex & x.bit() != 0 && v.pattern(**x).is_some())
        .map(|x| x.id())
        .collect()
}

fn scoring_name(v: &Variant) -> &'static str {
    match v.scoring() {
        ScoringModel::Tai => "tai",
        ScoringModel::Points { .. } => "points",
    }
}

/// Where a pattern's value was set, and the citation of the nearest file that has one.
fn cites_cell(resolved: &Resolved, p: PatternId) -> String {
    let cites = resolved.citations(p);
    let Some(first) = cites.first() else {
        return String::new();
    };
    let place = format!("{}:{}", short(&first.origin), first.line);
    match cites.iter().find(|c| !c.note.is_empty()) {
        Some(c) if c == first => format!("{place} {}", c.note),
        Some(c) => format!("{place}; {}:{} {}", short(&c.origin), c.line, c.note),
        None => place,
    }
}

fn patterns(name: &str, json: bool) -> Result<(), Failure> {
    let resolved = Variant::resolve_name_or_path(name)?;
    let v = &resolved.variant;
    let sources = resolved.sources();
    if json {
        let patterns: Vec<Value> = v
            .patterns()
            .map(|(p, rule)| {
                let cites: Vec<Value> = resolved
                    .citations(p)
                    .into_iter()
                    .map(|c| json!({ "origin": c.origin, "line": c.line, "note": c.note }))
                    .collect();
                json!({
                    "id": p.id(),
                    "name_zh": p.name_zh(),
                    "name_en": p.name_en(),
                    "tai": rule.tai,
                    "hu": v.pattern_hu(p),
                    "excludes": excludes(v, p),
                    "cites": cites,
                })
            })
            .collect();
        let doc = json!({
            "variant": v.name(),
            "origin": resolved.layers.last().map(|l| l.origin.clone()),
            "extends": resolved.extends,
            "scoring": scoring_name(v),
            "sources": sources,
            "patterns": patterns,
        });
        out!("{doc}\n");
        return Ok(());
    }
    let value_header = match v.scoring() {
        ScoringModel::Tai => "tai",
        ScoringModel::Points { .. } => "台/胡",
    };
    let rows: Vec<Vec<String>> = v
        .patterns()
        .map(|(p, _)| {
            vec![
                p.id().to_string(),
                p.name_zh().to_string(),
                p.name_en().to_string(),
                worth(v, p).unwrap_or_default(),
                excludes(v, p).join(", "),
                cites_cell(&resolved, p),
            ]
        })
        .collect();
    out!(
        "{} ({}): {} patterns, scoring {}{}\n",
        v.name(),
        resolved.layers.last().map_or("", |l| l.origin.as_str()),
        rows.len(),
        scoring_name(v),
        match &resolved.extends {
            Some(base) => format!(", extends {base}"),
            None => String::new(),
        }
    );
    if !sources.is_empty() {
        out!(
            "rule texts its file names (shared/rules/): {}; \"cites\" is the variant file's line and its comment, which gives the rule text's line\n",
            sources.join(", ")
        );
    }
    out!(
        "{}",
        aligned(
            &["id", "中文", "English", value_header, "excludes", "cites"],
            &[false, false, false, true, false, false],
            &rows
        )
    );
    Ok(())
}

fn catalogue(json: bool) -> Result<(), Failure> {
    let variants: Vec<Variant> = Variant::names()
        .iter()
        .map(|n| Variant::builtin(n))
        .collect::<Result<_, _>>()?;
    if json {
        let patterns: Vec<Value> = PatternId::ALL
            .iter()
            .map(|&p| {
                let values: serde_json::Map<String, Value> = variants
                    .iter()
                    .map(|v| {
                        let value = v.pattern(p).map(|rule| {
                            json!({ "tai": rule.tai, "hu": v.pattern_hu(p), "excludes": excludes(v, p) })
                        });
                        (v.name().to_string(), value.unwrap_or(Value::Null))
                    })
                    .collect();
                json!({
                    "id": p.id(),
                    "name_zh": p.name_zh(),
                    "name_en": p.name_en(),
                    "variants": values,
                })
            })
            .collect();
        out!(
            "{}\n",
            json!({ "variants": Variant::names(), "patterns": patterns })
        );
        return Ok(());
    }
    let mut headers = vec!["id", "中文", "English"];
    headers.extend(Variant::names());
    let mut numeric = vec![false; 3];
    numeric.extend([true; 5]);
    let rows: Vec<Vec<String>> = PatternId::ALL
        .iter()
        .map(|&p| {
            let mut row = vec![
                p.id().to_string(),
                p.name_zh().to_string(),
                p.name_en().to_string(),
            ];
            row.extend(
                variants
                    .iter()
                    .map(|v| worth(v, p).unwrap_or_else(|| "-".into())),
            );
            row
        })
        .collect();
    out!(
        "{} patterns; the tai each shipped variant gives (台/胡 under taizhou's points model), - where it does not count the pattern; taisim variant patterns VARIANT shows its exclusions and citations\n",
        PatternId::COUNT
    );
    out!("{}", aligned(&headers, &numeric, &rows));
    Ok(())
}

/// Display width, counting CJK characters as two columns.
fn width(s: &str) -> usize {
    s.chars()
        .map(|c| if c as u32 >= 0x2e80 { 2 } else { 1 })
        .sum()
}

/// An aligned text table: numeric columns to the right.
fn aligned(headers: &[&str], numeric: &[bool], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| width(h)).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, ((cell, w), right)) in cells.iter().zip(&widths).zip(numeric).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let pad = " ".repeat(w.saturating_sub(width(cell)));
            if *right {
                s.push_str(&pad);
                s.push_str(cell);
            } else {
                s.push_str(cell);
                s.push_str(&pad);
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&headers.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    out.push_str(&line(
        &widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>(),
    ));
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

/// The SHA-256 a run records of the variant a table plays (a shipped name or a file's path;
/// the default when `None`), for the bots it seats ([`taisim_agents::ExecSettings`]).
pub fn recorded_sha256(name_or_path: Option<&str>) -> Option<String> {
    taisim_datasets::RunVariant::recorded_sha256(name_or_path.unwrap_or(Variant::DEFAULT))
}
