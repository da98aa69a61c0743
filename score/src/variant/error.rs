//! Why a variant cannot be used: one kind per reason, each placed by file, key and line.

use std::fmt;

use taisim_sim::RulesError;

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
}

/// Every reason a variant is refused.
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
    /// Not a TOML document of the variant's shape (syntax, an unknown key, a wrong type): the
    /// parser's own message.
    Syntax(String),
    /// No shipped variant has this name (and no file has this path).
    UnknownVariant(String),
    /// The name is empty or blank.
    EmptyName,
    /// A `scoring` other than `tai` or `points`.
    UnknownScoring(String),
    /// The points model needs its `[points]` table, and only it may have one.
    PointsTable { scoring_is_points: bool },
    /// A key under `[patterns]` names no pattern.
    UnknownPattern(String),
    /// A pattern's `excludes` names no pattern.
    UnknownExclusion { pattern: String, excluded: String },
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
                "no such variant {} (shipped: {})",
                echo(name),
                super::Variant::names().join(", ")
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
            UnknownPattern(id) => write!(f, "unknown pattern id {}", echo(id)),
            UnknownExclusion { pattern, excluded } => write!(
                f,
                "pattern {} excludes unknown pattern id {}",
                echo(pattern),
                echo(excluded)
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
            Rules(e) => write!(f, "[rules]: {e}"),
            Incompatible(why) => f.write_str(why),
        }
    }
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: ", self.origin, line)?,
            None => write!(f, "{}: ", self.origin)?,
        }
        // The parser's messages and the pattern kinds name their key themselves.
        let names_key = matches!(
            self.kind,
            VariantErrorKind::Syntax(_)
                | VariantErrorKind::Rules(_)
                | VariantErrorKind::UnknownPattern(_)
                | VariantErrorKind::UnknownExclusion { .. }
                | VariantErrorKind::ExcludesItself(_)
                | VariantErrorKind::ExclusionCycle(_)
        );
        if !self.key.is_empty() && !names_key {
            write!(f, "{}: ", self.key)?;
        }
        write!(f, "{}", self.kind)
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
