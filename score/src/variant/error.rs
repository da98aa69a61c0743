//! Why a variant cannot be used: one kind per reason, each placed by file, key and line.

use std::fmt;

use taisim_sim::RulesError;

use crate::suggest::did_you_mean;

/// The longest stretch of a user's text an error message repeats (a name, an unknown id):
/// a 10 MB name is not echoed whole to a terminal.
pub const MAX_ECHO: usize = 64;

/// A variant that cannot be used: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    /// The file (or `builtin:NAME`).
    pub origin: String,
    /// The key path in the file (`settlement.base`, `patterns.self_draw`), empty when the
    /// problem is the whole text (a syntax error, an unreadable file).
    pub key: String,
    /// 1-based line, where one can be named.
    pub line: Option<usize>,
    pub kind: VariantErrorKind,
    /// For a check that compares keys (`settlement.per_tai` beside `settlement.model`), the
    /// other key it read and where that is set, when a file of the chain sets it: the error
    /// is placed at whichever key the most-derived file set, and this names the rest. Boxed:
    /// most errors have none, and every `Result` of a variant carries the error's size.
    pub with: Option<Box<Setting>>,
}

/// Where a file of a variant's chain sets a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The dotted key (`settlement.model`).
    pub key: String,
    /// The file (or `builtin:NAME`).
    pub origin: String,
    /// 1-based line.
    pub line: usize,
}

/// Every reason a variant is refused. No reason holds more than 40 bytes (a slice or a
/// `&'static str` where a second `String` would do), so that a [`VariantError`], which
/// every crate's error and every `Result` of a variant carries, stays below the 128 bytes
/// clippy's `result_large_err` allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantErrorKind {
    /// The file could not be read: the I/O error's kind (`InvalidInput` for a path that is
    /// not a regular file or names a file too large, `InvalidData` for text that is not
    /// UTF-8) and its message. The kind is kept so that callers can tell the machine's
    /// failure from the user's file.
    Unreadable {
        io: std::io::ErrorKind,
        message: String,
    },
    /// Not a TOML document of the variant's shape (syntax, a value of the wrong type): the
    /// parser's message, with types in words (`a whole number`, `a list`), not Rust's.
    Syntax(String),
    /// No shipped variant has this name (and no file has this path).
    UnknownVariant(String),
    /// The name is empty or blank.
    EmptyName,
    /// A `scoring` other than `tai` or `points`.
    UnknownScoring(String),
    /// The points model needs its `[points]` table, and only it may have one.
    PointsTable { scoring_is_points: bool },
    /// A key no table of a variant takes (`flower` in `[rules]`, a table `[pattern]`, `tia`
    /// in a pattern's table): its dotted path (`rules.flower`, `pattern`,
    /// `patterns.concealed_hand.tia`) and the keys its table does take.
    UnknownKey {
        path: String,
        expected: Box<[String]>,
    },
    /// A key's value names none of the values it takes (`robbed_flower_payer = "nobody"`):
    /// the value and the values the key takes.
    UnknownValue {
        value: String,
        expected: Box<[String]>,
    },
    /// A key under `[patterns]` names no pattern.
    UnknownPattern(String),
    /// A pattern's `excludes` names no pattern.
    UnknownExclusion {
        pattern: &'static str,
        excluded: String,
    },
    /// A pattern excludes itself.
    ExcludesItself(String),
    /// Exclusions that go round: each pattern of the cycle (in order) excludes the next and
    /// the last the first, so when all are found every one of them is dropped.
    ExclusionCycle(Vec<String>),
    /// A number outside the range the variant may use, so no later sum or product wraps.
    OutOfBounds { value: i64, min: i64, max: i64 },
    /// `[tai]` max below min.
    MaxBelowMin { min: u16, max: u16 },
    /// An unknown 保險 (insurance) name.
    UnknownInsurance(String),
    /// Engine rules that cannot work together.
    Rules(RulesError),
    /// A settlement model that the scoring model cannot feed.
    Incompatible(&'static str),
    /// A file without `extends` that leaves out keys or tables a whole variant states
    /// ([`super::COMPLETE_FILE_KEYS`]): a file of changes taken for a whole variant would
    /// silently be taiwan16's rules and settlement with a few patterns.
    Partial(Vec<&'static str>),
    /// `extends` is not a string.
    ExtendsNotText,
    /// A file that extends another has no `name` of its own.
    ExtendingNeedsName,
    /// An `extends` chain longer than [`super::MAX_EXTENDS_DEPTH`] files.
    ExtendsTooDeep(usize),
    /// `extends` names no shipped variant and no file: the name as written and the path
    /// looked at.
    MissingBase { base: String, looked_at: Box<str> },
    /// Files that extend each other round a cycle, in order, the first repeated last.
    ExtendsCycle(Vec<String>),
    /// `pattern = false` drops a pattern the base does not count.
    NotInBase { pattern: &'static str, base: String },
}

/// An unknown key's dotted path split into its table (`None` at the top of the file) and
/// the key itself: `rules.procedure.dice` is `dice` in `[rules.procedure]`.
fn table_and_key(path: &str) -> (Option<&str>, &str) {
    match path.rsplit_once('.') {
        Some((table, key)) => (Some(table), key),
        None => (None, path),
    }
}

impl VariantErrorKind {
    /// The known names this error's unknown name most likely meant ("did you mean"): pattern
    /// ids for an unknown pattern or exclusion, shipped variants for an unknown variant or
    /// base, the table's keys for an unknown key; empty for other kinds.
    pub fn suggestions(&self) -> Vec<&str> {
        use VariantErrorKind::*;
        match self {
            UnknownKey { path, expected } => {
                crate::suggest::closest(table_and_key(path).1, expected.iter().map(String::as_str))
            }
            UnknownValue { value, expected } => {
                crate::suggest::closest(value, expected.iter().map(String::as_str))
            }
            UnknownPattern(id) | UnknownExclusion { excluded: id, .. } => {
                crate::suggest::pattern_ids(id)
            }
            UnknownVariant(name) | MissingBase { base: name, .. } => {
                // A path is a file that is not there, not a misspelt name.
                if name.contains(['/', '\\']) || name.ends_with(".toml") {
                    Vec::new()
                } else {
                    crate::suggest::closest(name, super::Variant::names())
                }
            }
            _ => Vec::new(),
        }
    }
}

/// `text` cut to [`MAX_ECHO`] characters, with the length said when cut.
pub fn echo(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHO) {
        None => format!("{text:?}"),
        Some((end, _)) => format!("{:?}… ({} bytes in all)", &text[..end], text.len()),
    }
}

impl fmt::Display for VariantErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use VariantErrorKind::*;
        match self {
            Unreadable { message, .. } => write!(f, "cannot read: {message}"),
            Syntax(e) => f.write_str(e),
            UnknownVariant(name) => write!(
                f,
                "no such variant {} (shipped: {}){}",
                echo(name),
                super::Variant::names().join(", "),
                did_you_mean(&self.suggestions())
            ),
            EmptyName => f.write_str("the name is empty"),
            UnknownScoring(s) => write!(
                f,
                "unknown scoring kind {} (expected \"tai\" or \"points\")",
                echo(s)
            ),
            PointsTable {
                scoring_is_points: true,
                ..
            } => f.write_str("scoring = \"points\" needs a [points] table (base_hu, cap)"),
            PointsTable { .. } => f.write_str("a [points] table needs scoring = \"points\""),
            UnknownKey { path, expected } => {
                let (table, key) = table_and_key(path);
                write!(
                    f,
                    "unknown key {} {}, expected one of {}{}",
                    echo(key),
                    match table {
                        Some(table) => format!("in [{table}]"),
                        None => "at the top of the file".to_string(),
                    },
                    ticked(expected),
                    did_you_mean(&self.suggestions())
                )
            }
            UnknownValue { value, expected } => write!(
                f,
                "unknown value {}, expected one of {}{}",
                echo(value),
                ticked(expected),
                did_you_mean(&self.suggestions())
            ),
            UnknownPattern(id) => write!(
                f,
                "unknown pattern id {}{} (taisim variant patterns lists them)",
                echo(id),
                did_you_mean(&self.suggestions())
            ),
            UnknownExclusion { pattern, excluded } => write!(
                f,
                "pattern {} excludes unknown pattern id {}{}",
                echo(pattern),
                echo(excluded),
                did_you_mean(&self.suggestions())
            ),
            ExcludesItself(id) => write!(f, "pattern {} excludes itself", echo(id)),
            ExclusionCycle(ids) => write!(
                f,
                "exclusions form a cycle ({} → {}): all of them would be dropped together",
                ids.join(" → "),
                ids[0]
            ),
            OutOfBounds { value, min, max } => {
                write!(f, "{value} is out of bounds (must be {min} to {max})")
            }
            MaxBelowMin { min, max } => write!(f, "max {max} is below min {min}"),
            UnknownInsurance(name) => write!(
                f,
                "unknown insurance penalty {} (known: {})",
                echo(name),
                super::Insurance::NAMES.join(", ")
            ),
            Rules(e) => write!(f, "{e}"),
            Incompatible(why) => f.write_str(why),
            Partial(missing) => {
                let named: Vec<String> = missing
                    .iter()
                    .map(|k| match *k {
                        "name" | "scoring" => format!("{k} = ..."),
                        table => format!("[{table}]"),
                    })
                    .collect();
                write!(
                    f,
                    "the file has no {}: a variant file either states every table, or starts \
                     with extends = \"taiwan16\" (a shipped variant's name or a variant file's \
                     path) and states only what differs from it",
                    named.join(", ")
                )
            }
            ExtendsNotText => f.write_str(
                "must be a shipped variant's name or a variant file's path, in quotes \
                 (extends = \"taiwan16\")",
            ),
            ExtendingNeedsName => f.write_str(
                "a file that extends another needs a name of its own (name = \"...\"): its \
                 runs, reports and comparisons are labelled by it",
            ),
            ExtendsTooDeep(n) => write!(
                f,
                "the chain of files extending each other is longer than {n} files"
            ),
            MissingBase { base, looked_at } => write!(
                f,
                "{} is no shipped variant ({}) and no file is at {}{}",
                echo(base),
                super::Variant::names().join(", "),
                echo(looked_at),
                did_you_mean(&self.suggestions())
            ),
            ExtendsCycle(chain) => write!(
                f,
                "the files extend each other in a cycle: {}",
                chain.join(" extends ")
            ),
            NotInBase { pattern, base } => write!(
                f,
                "{pattern} = false drops a pattern of the base, but {} does not count {pattern}",
                echo(base)
            ),
        }
    }
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: ", self.origin, line)?,
            None => write!(f, "{}: ", self.origin)?,
        }
        // The pattern kinds and an unknown key name their key themselves.
        let names_key = matches!(
            self.kind,
            VariantErrorKind::UnknownKey { .. }
                | VariantErrorKind::UnknownPattern(_)
                | VariantErrorKind::UnknownExclusion { .. }
                | VariantErrorKind::ExcludesItself(_)
                | VariantErrorKind::ExclusionCycle(_)
        );
        if !self.key.is_empty() && !names_key {
            write!(f, "{}: ", self.key)?;
        }
        write!(f, "{}", self.kind)?;
        if let Some(w) = &self.with {
            write!(f, " (with {} set at {}:{})", w.key, w.origin, w.line)?;
        }
        Ok(())
    }
}

impl std::error::Error for VariantError {}

impl VariantError {
    /// The kind of the I/O error that kept the file from being read, where one did; `None`
    /// for a variant that was read and refused.
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self.kind {
            VariantErrorKind::Unreadable { io, .. } => Some(io),
            _ => None,
        }
    }
}

/// `names` as a message lists them: each in backticks, separated by commas.
fn ticked(names: &[String]) -> String {
    names
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
