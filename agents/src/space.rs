//! The fixed discrete action space shared by the environment and the trained policy.
//!
//! Every engine [`Action`] has exactly one index; the layout is a documented sum of its parts
//! (as Mortal's `ACTION_SPACE`), so a policy network has a fixed output width:
//!
//! | indices     | count | action                                                        |
//! |-------------|------:|---------------------------------------------------------------|
//! | `0..34`     | 34    | discard the tile kind `i` ([`Action::Discard`])               |
//! | `34..68`    | 34    | discard kind `i - 34` and declare ready ([`Action::DiscardReady`]) |
//! | `68..71`    | 3     | chow with the claimed tile as the run's lowest / middle / highest |
//! | `71`        | 1     | pung                                                          |
//! | `72`        | 1     | exposed kong on the discard ([`Action::Kong`])                |
//! | `73..107`   | 34    | concealed kong of kind `i - 73`                               |
//! | `107..141`  | 34    | added kong of kind `i - 107`                                  |
//! | `141`       | 1     | win: self-draw win on one's turn, or win on the tile on offer (a discard, a kong being added, the eighth flower) |
//! | `142`       | 1     | flower win (八仙過海: all eight flowers, on one's turn)        |
//! | `143`       | 1     | pass (decline a claim or a rob)                               |
//!
//! [`ACTION_SPACE_SIZE`] is 144. One `win` index serves [`Action::SelfDrawWin`] and
//! [`Action::Win`] because the two are never legal at the same decision (the first only on
//! one's turn, the second only when answering), so the decision tells them apart. Chows are
//! indexed by shape rather than by run because the claimed tile is fixed by the decision:
//! shape `k` is the run whose lowest tile is `offer - k`.

use taisim_sim::{Action, ActionList, Deal, Tile};

/// First index of the plain discards (34).
pub const DISCARD: usize = 0;
/// First index of the ready-declaring discards (34).
pub const DISCARD_READY: usize = 34;
/// First index of the three chow shapes.
pub const CHOW: usize = 68;
/// The pung index.
pub const PUNG: usize = 71;
/// The exposed kong index.
pub const KONG: usize = 72;
/// First index of the concealed kongs (34).
pub const CONCEALED_KONG: usize = 73;
/// First index of the added kongs (34).
pub const ADDED_KONG: usize = 107;
/// The win index (self-draw, discard, robbing a kong or a flower).
pub const WIN: usize = 141;
/// The flower win index (八仙過海).
pub const FLOWER_WIN: usize = 142;
/// The pass index.
pub const PASS: usize = 143;
/// Size of the action space.
pub const ACTION_SPACE_SIZE: usize = 144;

/// A legal-action mask: 1 where the index is legal, 0 elsewhere.
pub type ActionMask = [u8; ACTION_SPACE_SIZE];

/// The index of `action` at a decision whose tile on offer is `offer`. `None` only for a chow
/// that does not contain the tile on offer (no such chow is ever legal).
#[inline]
pub fn action_index(action: Action, offer: Option<Tile>) -> Option<usize> {
    Some(match action {
        Action::Discard(t) => DISCARD + t.index(),
        Action::DiscardReady(t) => DISCARD_READY + t.index(),
        Action::Chow(lowest) => {
            let offer = offer?;
            let k = offer.to_u8().checked_sub(lowest.to_u8())?;
            if k > 2 || offer.suit() != lowest.suit() {
                return None;
            }
            CHOW + k as usize
        }
        Action::Pung => PUNG,
        Action::Kong => KONG,
        Action::ConcealedKong(t) => CONCEALED_KONG + t.index(),
        Action::AddedKong(t) => ADDED_KONG + t.index(),
        Action::SelfDrawWin | Action::Win => WIN,
        Action::FlowerWin => FLOWER_WIN,
        Action::Pass => PASS,
    })
}

/// The action at `index` for a decision with tile on offer `offer`; `responding` is true when
/// the seat answers a discard, a kong or a flower (the `win` index is then [`Action::Win`],
/// otherwise [`Action::SelfDrawWin`]). `None` for an index out of range or a chow shape that
/// does not fit the tile on offer. The action is not checked for legality.
#[inline]
pub fn index_action(index: usize, offer: Option<Tile>, responding: bool) -> Option<Action> {
    let kind = |base: usize| Tile::try_new((index - base) as u8);
    Some(match index {
        DISCARD..DISCARD_READY => Action::Discard(kind(DISCARD)?),
        DISCARD_READY..CHOW => Action::DiscardReady(kind(DISCARD_READY)?),
        CHOW..PUNG => {
            let offer = offer?;
            let k = (index - CHOW) as u8;
            if offer.is_honor() || offer.rank() <= k || offer.rank() - k > 7 {
                return None;
            }
            Action::Chow(Tile::new(offer.to_u8() - k))
        }
        PUNG => Action::Pung,
        KONG => Action::Kong,
        CONCEALED_KONG..ADDED_KONG => Action::ConcealedKong(kind(CONCEALED_KONG)?),
        ADDED_KONG..WIN => Action::AddedKong(kind(ADDED_KONG)?),
        WIN if responding => Action::Win,
        WIN => Action::SelfDrawWin,
        FLOWER_WIN => Action::FlowerWin,
        PASS => Action::Pass,
        _ => return None,
    })
}

/// Whether the seat to act in `deal` answers a tile or flower on offer (rather than playing
/// its own turn).
#[inline]
pub fn is_responding(deal: &Deal) -> bool {
    deal.tile_on_offer().is_some() || deal.flower_on_offer().is_some()
}

/// [`action_index`] at the deal's current decision.
#[inline]
pub fn action_to_index(action: Action, deal: &Deal) -> Option<usize> {
    action_index(action, deal.tile_on_offer())
}

/// [`index_action`] at the deal's current decision.
#[inline]
pub fn index_to_action(index: usize, deal: &Deal) -> Option<Action> {
    index_action(index, deal.tile_on_offer(), is_responding(deal))
}

/// Writes the mask of `legal` (the legal actions at a decision whose tile on offer is
/// `offer`) into `mask`, which must hold [`ACTION_SPACE_SIZE`] bytes. Returns the number of
/// legal indices (equal to `legal.len()`: no two legal actions share an index).
///
/// # Panics
/// If `mask.len() != ACTION_SPACE_SIZE`.
#[inline]
pub fn write_mask(legal: &ActionList, offer: Option<Tile>, mask: &mut [u8]) -> usize {
    assert_eq!(mask.len(), ACTION_SPACE_SIZE, "mask length");
    mask.fill(0);
    let mut n = 0;
    for &a in legal {
        if let Some(i) = action_index(a, offer) {
            n += (mask[i] == 0) as usize;
            mask[i] = 1;
        }
    }
    n
}

/// The stable name of each index (`discard_5m`, `chow_middle`, `win`, …), for error messages
/// and Python's `action_meanings`.
pub fn index_name(index: usize) -> Option<String> {
    let tile = |base: usize| Tile::new((index - base) as u8);
    Some(match index {
        DISCARD..DISCARD_READY => format!("discard_{}", tile(DISCARD)),
        DISCARD_READY..CHOW => format!("discard_ready_{}", tile(DISCARD_READY)),
        CHOW..PUNG => ["chow_lowest", "chow_middle", "chow_highest"][index - CHOW].to_string(),
        PUNG => "pung".into(),
        KONG => "kong".into(),
        CONCEALED_KONG..ADDED_KONG => format!("concealed_kong_{}", tile(CONCEALED_KONG)),
        ADDED_KONG..WIN => format!("added_kong_{}", tile(ADDED_KONG)),
        WIN => "win".into(),
        FLOWER_WIN => "flower_win".into(),
        PASS => "pass".into(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_the_documented_sum() {
        assert_eq!(ACTION_SPACE_SIZE, 34 + 34 + 3 + 1 + 1 + 34 + 34 + 1 + 1 + 1);
        assert_eq!(PASS, ACTION_SPACE_SIZE - 1);
    }

    #[test]
    fn every_index_round_trips() {
        // Every index maps to an action and back, for a suited offer that admits every chow
        // shape (5p) and for the turn (no offer).
        let offer = Some(Tile::new(9 + 4));
        for i in 0..ACTION_SPACE_SIZE {
            let responding = (CHOW..=PASS).contains(&i) && i != FLOWER_WIN;
            let a = index_action(i, offer, responding).unwrap();
            assert_eq!(action_index(a, offer), Some(i), "{i} {a}");
            assert!(index_name(i).is_some());
        }
        assert_eq!(index_action(ACTION_SPACE_SIZE, None, false), None);
        assert_eq!(index_action(WIN, None, false), Some(Action::SelfDrawWin));
        assert_eq!(index_action(WIN, offer, true), Some(Action::Win));
    }

    #[test]
    fn chow_shapes_follow_the_offer() {
        let three_m = Tile::new(2);
        assert_eq!(
            index_action(CHOW, Some(three_m), true),
            Some(Action::Chow(three_m))
        );
        assert_eq!(
            index_action(CHOW + 2, Some(three_m), true),
            Some(Action::Chow(Tile::new(0)))
        );
        // 1m cannot be the middle of a run, 8m cannot be the lowest, honors never chow.
        assert_eq!(index_action(CHOW + 1, Some(Tile::new(0)), true), None);
        assert_eq!(index_action(CHOW, Some(Tile::new(7)), true), None);
        assert_eq!(index_action(CHOW, Some(Tile::EAST), true), None);
        assert_eq!(index_action(CHOW, None, true), None);
        // A chow that does not contain the offer has no index.
        assert_eq!(
            action_index(Action::Chow(Tile::new(4)), Some(three_m)),
            None
        );
        assert_eq!(index_name(CHOW + 1).unwrap(), "chow_middle");
        assert_eq!(index_name(DISCARD + 4).unwrap(), "discard_5m");
    }
}
