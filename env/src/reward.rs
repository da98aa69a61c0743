//! Rewards: one function from a finished deal to the four seats' rewards, chosen by an enum.

use std::sync::Arc;

use taisim_score::{score_deal, ScoreError, Variant};
use taisim_sim::{Deal, Seat};

/// How a finished deal is turned into per-seat rewards. Every step before the end of a deal
/// rewards 0 (the rewards are sparse, as the deal's points are).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Reward {
    /// +1 for each winner, −1 for each seat that pays (the discarder, the robbed kong's or
    /// flower's owner; all three others on a self-draw or 八仙過海, as each of them pays the
    /// winner there), 0 for the rest and for everyone on an exhaustive draw.
    #[default]
    WinLoss,
    /// The seat's net payment for the deal under this variant, at the variant's own stakes
    /// (`[settlement] base` and `per_tai`), as [`taisim_score::score_deal`] settles it: under
    /// winner-pays settlement (the Taiwanese variants) each payer pays `base + tai × per_tai`;
    /// under all-pairs settlement (taizhou) the winner's value is paid by the dealer in full
    /// and by each other player in half, and every two non-winners settle the difference of
    /// their values, at `per_tai` per 胡. An exhaustive draw pays nothing. Zero-sum.
    ///
    /// 全包 (taizhou.md 全包情况) is not applied: it needs facts of the play that the deal
    /// does not record (see `taisim_score::score_deal_with`).
    Points(Arc<Variant>),
}

/// Which reward an environment pays. The variant it is computed under is the environment's
/// own ([`EnvConfig::variant`](crate::EnvConfig::variant)), so the deals and the reward can
/// never be played and scored under different rules.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum RewardKind {
    /// [`Reward::WinLoss`].
    #[default]
    WinLoss,
    /// [`Reward::Points`] under the environment's variant.
    Points,
}

impl RewardKind {
    /// `points` or `win_loss`.
    pub fn by_name(name: &str) -> Result<RewardKind, RewardError> {
        match name {
            "win_loss" => Ok(RewardKind::WinLoss),
            "points" => Ok(RewardKind::Points),
            other => Err(RewardError::Unknown(other.to_string())),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            RewardKind::WinLoss => "win_loss",
            RewardKind::Points => "points",
        }
    }

    /// The reward function of this kind under `variant`.
    pub fn under(self, variant: &Arc<Variant>) -> Reward {
        match self {
            RewardKind::WinLoss => Reward::WinLoss,
            RewardKind::Points => Reward::Points(Arc::clone(variant)),
        }
    }
}

/// A reward that cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RewardError {
    #[error("unknown reward {0:?}; known rewards: points, win_loss")]
    Unknown(String),
    #[error("cannot score the deal: {0}")]
    Score(#[from] ScoreError),
}

impl Reward {
    /// Settlement points under `variant`.
    pub fn points(variant: Variant) -> Reward {
        Reward::Points(Arc::new(variant))
    }

    /// The reward named `name` (`points` or `win_loss`); points are settled under `variant`.
    pub fn by_name(name: &str, variant: &Variant) -> Result<Reward, RewardError> {
        Ok(RewardKind::by_name(name)?.under(&Arc::new(variant.clone())))
    }

    /// The four seats' rewards for `deal`, by seat; zeros while the deal is not over.
    pub fn rewards(&self, deal: &Deal) -> Result<[f32; 4], RewardError> {
        match self {
            Reward::WinLoss => Ok(win_loss(deal)),
            Reward::Points(_) if !deal.is_over() => Ok([0.0; 4]),
            Reward::Points(variant) => {
                let st = variant.settlement();
                let scored = score_deal(deal, variant, st.base, st.per_tai)?;
                Ok(scored.payments.0.map(|p| p as f32))
            }
        }
    }

    pub const fn name(&self) -> &'static str {
        match self {
            Reward::WinLoss => "win_loss",
            Reward::Points(_) => "points",
        }
    }
}

/// [`Reward::WinLoss`] of a deal.
pub fn win_loss(deal: &Deal) -> [f32; 4] {
    let mut r = [0f32; 4];
    let Some(result) = deal.result() else {
        return r;
    };
    if result.winners.is_empty() {
        return r;
    }
    match result.payer {
        Some(p) => r[p as usize] = -1.0,
        None => {
            for s in Seat::ALL {
                if !result.winners.contains(s) {
                    r[s as usize] = -1.0;
                }
            }
        }
    }
    for w in result.winners.iter() {
        r[w as usize] = 1.0;
    }
    r
}
