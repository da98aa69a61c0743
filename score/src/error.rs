//! Why a win cannot be scored ([`ScoreError`]) or settled ([`SettleError`]): below the
//! input, the scorer and the settlement, which all return them.

use taisim_sim::{FlowerSet, Meld, Seat, Tile};

use super::pattern::PatternId;

/// Why a [`WinInput`](crate::WinInput) cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("{melds} melds leave room for {expected} concealed tiles, but the hand has {got}")]
    TileCount {
        melds: usize,
        expected: usize,
        got: usize,
    },
    #[error("more than 5 melds ({0})")]
    TooManyMelds(usize),
    #[error("meld {0}: a chow runs from a 1 to a 7 of a numbered suit")]
    BadChow(Meld),
    #[error("a fifth {0}: there are only four of each tile (hand and melds together)")]
    FifthCopy(Tile),
    #[error("meld {0}: a wild (得牌) never takes part in a chow, pung or kong")]
    WildInMeld(Meld),
    #[error("a fourth {0}, the wild kind: the turned-up indicator leaves three copies in play")]
    WildCopies(Tile),
    #[error("this variant scores hands with a wild (得牌): give the wild kind")]
    WildMissing,
    #[error("this variant has no wild (得牌); wild {0} given")]
    WildUnused(Tile),
    /// A win on a discarded (or robbed) wild where wilds stay out of claims: the engine never
    /// offers it, so no table prices it.
    #[error(
        "a win on a discarded {0}, the wild kind: a discarded wild is dead, no one may claim \
         or win on it (taizhou.md 得牌: 也不能参与吃 / 碰 / 杠); a wild wins only self-drawn"
    )]
    WinOnDiscardedWild(Tile),
    /// Flowers given to a variant played without them: no deal of it holds one.
    #[error(
        "this variant plays without flowers (rules.flowers = false); flowers {0} given \
         (taizhou.md 共136张: no flower tiles)"
    )]
    FlowersUnused(FlowerSet),
    #[error("the winning tile {0} is not in the hand")]
    WinTileMissing(Tile),
    #[error("no winning tile given")]
    NoWinTile,
    #[error("the hand is not a winning shape")]
    NotAWin,
    #[error("a discard win needs the discarder, other than the winner")]
    BadDiscarder,
    #[error("a flower win needs {0}")]
    FlowerWin(&'static str),
    /// A circumstance the seats, the win or the hand rule out: `circumstance` names it and
    /// its rule, `needs` says what it takes.
    #[error("context {circumstance}: {needs}")]
    Context {
        circumstance: &'static str,
        needs: &'static str,
    },
    #[error(
        "discarder {0}: a self-draw has no discarder (only a 槓上開花 on a kong claimed from \
         a discard names the seat that discarded it)"
    )]
    DiscarderOnSelfDraw(Seat),
    #[error("this variant's scoring kind is not supported by the tai scorer")]
    Unsupported,
    /// A variant counting the 台州 patterns, read by their own tables, also counts a pattern
    /// those tables do not read: scoring it would drop that pattern silently.
    #[error(
        "pattern {0} cannot be counted with the 台州 patterns (pairs, sets by how they were \
         made, 嵌档胡, 无得, ...), which are scored by their own tables"
    )]
    MixedTables(PatternId),
    #[error("the deal is not over")]
    DealNotOver,
    /// A deal of several winners (一砲多響) under all-pairs settlement, which values one
    /// winner against the three others; variants refuse the pair of rules at load.
    #[error(
        "{0} winners under all-pairs settlement, which settles one winner against the three \
         others (taizhou.md 胜负规则)"
    )]
    AllPairsWinners(usize),
    #[error("cannot settle: {0}")]
    Settle(#[from] SettleError),
}

/// Why a win cannot be settled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettleError {
    #[error("{field} = {value} is out of bounds (must be 0 to {max})")]
    Stake {
        field: &'static str,
        value: i64,
        max: i64,
    },
    #[error("per_tai = {0} must be even under all-pairs settlement, whose half-point amounts must come to whole money")]
    OddUnit(i64),
    #[error(
        "base = {0} has no meaning under all-pairs settlement (values times per_tai alone); give 0"
    )]
    BaseUnused(i64),
    #[error("a payment does not fit in 64 bits")]
    Overflow,
}
