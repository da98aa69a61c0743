//! A score request as it arrives: the JSON object of `taisim score --json`, read by serde
//! with its text borrowed where it can be. Nothing here checks a value; [`super::job`] does.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;

use super::RequestError;
use crate::Variant;

impl<'a> ScoreRequest<'a> {
    /// Reads one request from its JSON text. serde names a request given as an array by the
    /// struct's field count ("invalid length 2, expected struct ScoreRequest with 18
    /// elements"); what was given instead of an object is named here, on the error path
    /// alone.
    pub fn parse(text: &'a str) -> Result<ScoreRequest<'a>, RequestError> {
        serde_json::from_str(text).map_err(|e| {
            // Broken JSON is named as serde names it; only well-formed text of another type
            // is this.
            if !e.is_data() {
                return RequestError::Json(e);
            }
            let given = match text
                .trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n'])
                .chars()
                .next()
            {
                Some('[') => "an array",
                Some('"') => "a string",
                Some('t' | 'f') => "a boolean",
                Some('n') => "null",
                Some('-' | '0'..='9') => "a number",
                _ => return RequestError::Json(e),
            };
            RequestError::NotAnObject(given)
        })
    }
}

/// One score request: the fields of `taisim score --json`. Its text is borrowed from the
/// JSON where a string holds no escape (the usual case), so reading a request copies none.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest<'a> {
    #[serde(borrow, default = "default_variant")]
    pub variant: Cow<'a, str>,
    #[serde(borrow, default = "east")]
    pub round_wind: Cow<'a, str>,
    #[serde(borrow)]
    pub seat: Cow<'a, str>,
    #[serde(borrow, default = "east")]
    pub dealer: Cow<'a, str>,
    #[serde(default)]
    pub dealer_streak: u8,
    #[serde(borrow)]
    pub hand: Cow<'a, str>,
    #[serde(default)]
    pub melds: Vec<(String, String)>,
    #[serde(default)]
    pub flowers: Vec<String>,
    #[serde(borrow, default, deserialize_with = "optional_text")]
    pub win_tile: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub win: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "optional_text")]
    pub discarder: Option<Cow<'a, str>>,
    #[serde(default)]
    pub context: Vec<String>,
    pub discards: Option<u8>,
    pub base: Option<i64>,
    pub per_tai: Option<i64>,
    /// The turned-up wild indicator (taizhou.md 得牌), e.g. "9s": its kind is wild.
    #[serde(borrow, default, deserialize_with = "optional_text")]
    pub wild: Option<Cow<'a, str>>,
    /// The three other players' tiles, by seat ("E", "S", "W", "N"), under all-pairs
    /// settlement: each is valued ([`seat_value`](crate::seat_value)) and settles with the others.
    #[serde(default)]
    pub others: Option<BTreeMap<String, OtherHand>>,
    /// What the discarder did, for 全包 (taizhou.md 全包情况); with `others`.
    #[serde(default)]
    pub liability: Option<LiabilityFacts>,
}

/// Text that borrows from the JSON when it can (serde borrows a `Cow` field by itself, but
/// not one inside an `Option`).
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Text<'de>;
            // The words serde's own `String` uses, so an error reads as it did.
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_string(Visit)
    }
}

fn optional_text<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Cow<'de, str>>, D::Error> {
    Ok(Option::<Text<'de>>::deserialize(d)?.map(|t| t.0))
}

/// The facts of 全包 a request gives (see [`Liability`](crate::Liability) for what each one serves); the
/// winner, the discarder, the winning tile and the melds come from the request itself.
#[derive(Deserialize, Clone, Copy, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct LiabilityFacts {
    #[serde(default)]
    pub declined_win: bool,
    #[serde(default)]
    pub ready_after_discard: bool,
    #[serde(default)]
    pub could_be_ready: bool,
    #[serde(default)]
    pub fresh: bool,
}

/// A player who did not win: its concealed tiles and its melds.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct OtherHand {
    #[serde(default)]
    pub hand: String,
    #[serde(default)]
    pub melds: Vec<(String, String)>,
}

fn default_variant<'a>() -> Cow<'a, str> {
    Cow::Borrowed(Variant::DEFAULT)
}

fn east<'a>() -> Cow<'a, str> {
    Cow::Borrowed("E")
}
