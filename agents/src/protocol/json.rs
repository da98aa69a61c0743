//! The few JSON shapes the protocol writes, written straight into a `String` (an event costs
//! a few hundred nanoseconds, not a tree of values), and the reading side's field helpers
//! over `serde_json::Value`.

use core::fmt::Write as _;

use serde_json::{Map, Value};
use taisim_sim::{parse_tile, BySeat, Flower, Seat, Tile, WallTile, Wind};

/// Writes one JSON object field by field.
pub(crate) struct Obj<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Obj<'a> {
    pub fn new(out: &'a mut String) -> Obj<'a> {
        out.push('{');
        Obj { out, first: true }
    }

    fn key(&mut self, k: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push('"');
        self.out.push_str(k);
        self.out.push_str("\":");
        self.out
    }

    pub fn str(&mut self, k: &str, v: &str) -> &mut Self {
        let out = self.key(k);
        string(out, v);
        self
    }

    pub fn num(&mut self, k: &str, v: impl core::fmt::Display) -> &mut Self {
        let out = self.key(k);
        let _ = write!(out, "{v}");
        self
    }

    pub fn bool(&mut self, k: &str, v: bool) -> &mut Self {
        self.key(k).push_str(if v { "true" } else { "false" });
        self
    }

    pub fn null(&mut self, k: &str) -> &mut Self {
        self.key(k).push_str("null");
        self
    }

    /// A field whose value the caller writes (an object or array).
    pub fn raw(&mut self, k: &str, f: impl FnOnce(&mut String)) -> &mut Self {
        f(self.key(k));
        self
    }

    /// A tile, seat, flower or any notation value as a string.
    pub fn name(&mut self, k: &str, v: impl core::fmt::Display) -> &mut Self {
        let out = self.key(k);
        let _ = write!(out, "\"{v}\"");
        self
    }

    pub fn opt_name(&mut self, k: &str, v: Option<impl core::fmt::Display>) -> &mut Self {
        match v {
            Some(v) => self.name(k, v),
            None => self.null(k),
        }
    }

    pub fn tiles(&mut self, k: &str, tiles: impl IntoIterator<Item = Tile>) -> &mut Self {
        let out = self.key(k);
        names(out, tiles);
        self
    }

    pub fn end(&mut self) {
        self.out.push('}');
    }
}

/// `["1m","1m","5p"]`.
pub(crate) fn names<T: core::fmt::Display>(out: &mut String, items: impl IntoIterator<Item = T>) {
    out.push('[');
    for (i, t) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{t}\"");
    }
    out.push(']');
}

/// `{"E":…,"S":…,"W":…,"N":…}` with each value written by `f`.
pub(crate) fn by_seat(out: &mut String, mut f: impl FnMut(&mut String, Seat)) {
    out.push('{');
    for (i, s) in Wind::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{s}\":");
        f(out, s);
    }
    out.push('}');
}

/// A JSON string literal, escaped.
pub(crate) fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Escaped so a line can be embedded in an HTML page as it is (no `</script>`).
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Why a JSON line could not be read as a protocol message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("not a JSON object")]
    NotObject,
    #[error("field {0:?} is missing")]
    Missing(&'static str),
    #[error("field {field:?}: {why}")]
    Field { field: &'static str, why: String },
    #[error("unknown message type {0:?}")]
    UnknownType(String),
}

/// The fields of one message, read with named errors.
pub(crate) struct Fields<'a>(pub &'a Map<String, Value>);

impl<'a> Fields<'a> {
    pub fn of(v: &'a Value) -> Result<Fields<'a>, ReadError> {
        v.as_object().map(Fields).ok_or(ReadError::NotObject)
    }

    pub fn get(&self, k: &'static str) -> Result<&'a Value, ReadError> {
        self.0.get(k).ok_or(ReadError::Missing(k))
    }

    pub fn has(&self, k: &str) -> bool {
        self.0.get(k).is_some_and(|v| !v.is_null())
    }

    fn bad(k: &'static str, why: impl Into<String>) -> ReadError {
        ReadError::Field {
            field: k,
            why: why.into(),
        }
    }

    pub fn str(&self, k: &'static str) -> Result<&'a str, ReadError> {
        self.get(k)?
            .as_str()
            .ok_or_else(|| Self::bad(k, "expected a string"))
    }

    pub fn u64(&self, k: &'static str) -> Result<u64, ReadError> {
        self.get(k)?
            .as_u64()
            .ok_or_else(|| Self::bad(k, "expected a whole number ≥ 0"))
    }

    pub fn i64(&self, k: &'static str) -> Result<i64, ReadError> {
        self.get(k)?
            .as_i64()
            .ok_or_else(|| Self::bad(k, "expected a whole number"))
    }

    pub fn small<T: TryFrom<u64>>(&self, k: &'static str) -> Result<T, ReadError> {
        T::try_from(self.u64(k)?).map_err(|_| Self::bad(k, "out of range"))
    }

    pub fn bool(&self, k: &'static str) -> Result<bool, ReadError> {
        self.get(k)?
            .as_bool()
            .ok_or_else(|| Self::bad(k, "expected true or false"))
    }

    pub fn seat(&self, k: &'static str) -> Result<Seat, ReadError> {
        seat_of(self.get(k)?).map_err(|why| Self::bad(k, why))
    }

    pub fn opt_seat(&self, k: &'static str) -> Result<Option<Seat>, ReadError> {
        match self.0.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => seat_of(v).map(Some).map_err(|why| Self::bad(k, why)),
        }
    }

    pub fn tile(&self, k: &'static str) -> Result<Tile, ReadError> {
        tile_of(self.get(k)?).map_err(|why| Self::bad(k, why))
    }

    pub fn opt_tile(&self, k: &'static str) -> Result<Option<Tile>, ReadError> {
        match self.0.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => tile_of(v).map(Some).map_err(|why| Self::bad(k, why)),
        }
    }

    pub fn tiles(&self, k: &'static str) -> Result<Vec<Tile>, ReadError> {
        tiles_of(self.get(k)?).map_err(|why| Self::bad(k, why))
    }

    pub fn flower(&self, k: &'static str) -> Result<Flower, ReadError> {
        flower_of(self.get(k)?).map_err(|why| Self::bad(k, why))
    }

    pub fn opt_wall_tile(&self, k: &'static str) -> Result<Option<WallTile>, ReadError> {
        match self.0.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => {
                let s = v.as_str().ok_or_else(|| Self::bad(k, "expected a tile"))?;
                if let Ok(f) = flower_of(v) {
                    return Ok(Some(WallTile::flower(f)));
                }
                parse_tile(s)
                    .map(|t| Some(WallTile::tile(t)))
                    .map_err(|e| Self::bad(k, e.to_string()))
            }
        }
    }

    /// `{"E":…,"S":…,"W":…,"N":…}`, each value read by `f`.
    pub fn by_seat<T: Default>(
        &self,
        k: &'static str,
        mut f: impl FnMut(&Value) -> Result<T, String>,
    ) -> Result<BySeat<T>, ReadError> {
        let map = self
            .get(k)?
            .as_object()
            .ok_or_else(|| Self::bad(k, "expected an object keyed E, S, W, N"))?;
        let mut out = BySeat::<T>::default();
        for s in Wind::ALL {
            let v = map
                .get(&s.to_string())
                .ok_or_else(|| Self::bad(k, format!("seat {s} is missing")))?;
            out[s] = f(v).map_err(|why| Self::bad(k, format!("{s}: {why}")))?;
        }
        if map.len() != 4 {
            return Err(Self::bad(k, "expected exactly the seats E, S, W, N"));
        }
        Ok(out)
    }
}

pub(crate) fn seat_of(v: &Value) -> Result<Seat, String> {
    let s = v.as_str().ok_or("expected a seat: E, S, W or N")?;
    let mut chars = s.chars();
    match (chars.next().and_then(Wind::from_char), chars.next()) {
        (Some(w), None) => Ok(w),
        _ => Err(format!("{s:?} is not a seat (E, S, W or N)")),
    }
}

pub(crate) fn tile_of(v: &Value) -> Result<Tile, String> {
    let s = v.as_str().ok_or("expected a tile such as \"5m\"")?;
    parse_tile(s).map_err(|e| format!("{s:?}: {e}"))
}

pub(crate) fn tiles_of(v: &Value) -> Result<Vec<Tile>, String> {
    v.as_array()
        .ok_or("expected an array of tiles")?
        .iter()
        .map(tile_of)
        .collect()
}

pub(crate) fn flower_of(v: &Value) -> Result<Flower, String> {
    let s = v.as_str().ok_or("expected a flower f1 to f8")?;
    match s.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
        Some(n @ 1..=8) => Ok(Flower::new(n - 1)),
        _ => Err(format!("{s:?} is not a flower (f1 to f8)")),
    }
}
