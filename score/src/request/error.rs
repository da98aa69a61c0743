//! Why a score request is refused: one kind per reason, each naming the field or the rule it
//! breaks, with the error underneath (a tile that does not parse, a variant file's problem,
//! scoring's own check) kept as its source.

use taisim_sim::{Meld, ParseError, Seat, Tile};

use crate::{ScoreError, SettleError, VariantError};

/// A score request that cannot be scored or answered.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// Not JSON, or not a request's shape (an unknown field, a wrong type, a missing one).
    #[error("bad JSON input: {0}")]
    Json(#[source] serde_json::Error),
    /// The variant the request names cannot be used.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// Tiles that do not parse: `hand`, `win_tile`, `wild`, `flowers`, a meld's tiles,
    /// another player's hand.
    #[error("{field}: {source}")]
    Tiles {
        field: String,
        #[source]
        source: ParseError,
    },
    /// A field that must be a seat (`seat`, `dealer`, `round_wind`, `discarder`, a key of
    /// `others`).
    #[error("{field}: {given:?} is not a seat (E, S, W or N)")]
    Seat { field: &'static str, given: String },
    /// `win` other than `self_draw` or `discard`.
    #[error("win: {0:?} is neither \"self_draw\" nor \"discard\"")]
    Win(String),
    /// A request that is valid JSON but not an object (an array, a string, …).
    #[error("a request is a JSON object ({{\"seat\": …, \"hand\": …}}); got {0}")]
    NotAnObject(&'static str),
    /// A name in `context` that is no circumstance.
    #[error("context: unknown circumstance {0:?}")]
    Circumstance(String),
    /// Both ways of being ready (`ready_on_deal`: 天聽, or 平家天聽; `declared_ready`: 地聽): a
    /// hand is declared ready once, and the two score differently.
    #[error("context: ready_on_deal and declared_ready are two ways of being ready, and a hand is declared ready once: give one")]
    ReadyTwice,
    /// A meld's kind that is none of the five.
    #[error("meld kind {0:?} is not one of chow, pung, kong, concealed_kong, added_kong")]
    MeldKind(String),
    /// Tiles that are not a meld of their kind (`pung` of `123m`).
    #[error("meld {kind}:{tiles} is not a {kind}")]
    NotAMeld { kind: String, tiles: String },
    /// More melds than a hand can hold.
    #[error("more than 5 melds")]
    TooManyMelds,
    /// An entry of `flowers` that is not exactly one flower.
    #[error("flowers: {0:?} is not one flower (f1 to f8)")]
    NotOneFlower(String),
    /// A flower listed twice.
    #[error("flowers: {0} is given twice")]
    FlowerTwice(String),
    /// No `win_tile`, and not a flower win.
    #[error("win_tile is missing")]
    MissingWinTile,
    /// `base` without `per_tai` or the other way round.
    #[error("give both base and per_tai, or neither")]
    HalfStakes,
    /// Stakes the variant's settlement cannot pay exactly.
    #[error(transparent)]
    Stakes(#[from] SettleError),
    /// The win is impossible (scoring's own checks), or its hand scores no win.
    #[error(transparent)]
    Score(#[from] ScoreError),
    /// `liability` without `others`: 全包 settles every player.
    #[error("liability: give others too (全包 settles every player)")]
    LiabilityWithoutOthers,
    /// `liability` of a win without a winning tile (a flower win).
    #[error("liability: needs win_tile")]
    LiabilityWithoutWinTile,
    /// `others` under a variant that values no player but the winner.
    #[error(
        "others: variant {variant} settles winner-pays, which values no other player; \
         give others only under all-pairs settlement (taizhou)"
    )]
    OthersUnderWinnerPays { variant: String },
    /// The winner listed among `others`.
    #[error("others: {0} is the winner, whose tiles are hand and melds")]
    OtherIsWinner(Seat),
    /// A seat of `others` left out.
    #[error("others: {0} is missing (give all three other players)")]
    OtherMissing(Seat),
    /// A problem with one other player's tiles.
    #[error("others.{seat}: {source}")]
    Other {
        seat: Seat,
        #[source]
        source: Box<RequestError>,
    },
    /// Another player's tiles that are not a hand someone who did not win holds.
    #[error(
        "others.{seat}: {melds} melds and {tiles} concealed tiles; a player who did not win \
         holds {holds} tiles, three per meld"
    )]
    OtherHandSize {
        seat: Seat,
        melds: usize,
        tiles: usize,
        holds: usize,
    },
    /// A wild in a claimed meld of any player (得牌 never takes part in one).
    #[error("{who}: meld {meld}: a wild (得牌) never takes part in a chow, pung or kong")]
    WildInMeld { who: Seat, meld: Meld },
    /// The players' tiles together hold more copies of a kind than the wall has.
    #[error("all players: {0}")]
    AllPlayers(#[source] ScoreError),
    /// The players' tiles together hold a fifth copy (no wild).
    #[error("all players: a fifth {0}: there are only four of each tile")]
    FifthTile(Tile),
}

impl RequestError {
    /// Tiles of `field` that did not parse.
    pub(crate) fn tiles(field: impl Into<String>) -> impl FnOnce(ParseError) -> RequestError {
        let field = field.into();
        move |source| RequestError::Tiles { field, source }
    }
}
