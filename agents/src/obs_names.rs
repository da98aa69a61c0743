//! The observation's rows and scalar columns by name, for every layout version this build
//! knows: built from the row offsets of [`crate::obs`] (its `channel` and `scalar` modules,
//! the layout's one source of truth), so a reader in Python (`taisim.obs_rows`) or a study
//! indexes rows by name instead of copying offsets out of a comment.
//!
//! Relative seats are named as the layout numbers them: `self` (r = 0), `next` (下家, r = 1),
//! `across` (r = 2), `previous` (上家, r = 3).

use crate::obs::{channel, obs_shape, scalar, OBS_WIDTH};

/// One row of an observation layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObsRow {
    /// Stable snake_case name (`waits`, `river_next_recent_1`, …).
    pub name: String,
    /// What the row holds, per tile kind unless said.
    pub meaning: String,
}

/// The relative seats, in the layout's order.
pub const RELATIVE_SEATS: [&str; 4] = ["self", "next", "across", "previous"];

/// The rows of layout `version`, in order (as many as [`obs_shape`] says), or `None` for a
/// version this build does not know.
pub fn obs_rows(version: u32) -> Option<Vec<ObsRow>> {
    let [rows, _] = obs_shape(version)?;
    let mut out = Vec::with_capacity(rows);
    let mut row = |at: usize, name: String, meaning: String| {
        debug_assert_eq!(out.len(), at, "{name} is row {at}");
        out.push(ObsRow { name, meaning });
    };
    for (k, (name, what)) in [
        ("hand_1", "≥ 1"),
        ("hand_2", "≥ 2"),
        ("hand_3", "≥ 3"),
        ("hand_4", "= 4"),
    ]
    .into_iter()
    .enumerate()
    {
        row(
            channel::HAND + k,
            name.into(),
            format!("own concealed hand: copies {what}"),
        );
    }
    row(
        channel::DRAWN,
        "drawn".into(),
        "the tile just drawn (one-hot; own turn only)".into(),
    );
    row(
        channel::OFFER,
        "offer".into(),
        "the tile on offer (one-hot; a discard or a kong being added, when answering)".into(),
    );
    row(
        channel::WAITS,
        "waits".into(),
        "own waits: the kinds that complete the hand (empty while holding 3k + 2)".into(),
    );
    row(
        channel::VISIBLE,
        "visible".into(),
        "copies visible to the observer / 4 (own hand, face-up melds, river)".into(),
    );
    for (r, seat) in RELATIVE_SEATS.iter().enumerate() {
        for (k, (kind, what)) in [
            ("chow", "copies in chows / 4"),
            ("pung", "pung"),
            ("kong", "exposed or added kong"),
            (
                "concealed_kong",
                "concealed kong (own only: others' are face down)",
            ),
        ]
        .into_iter()
        .enumerate()
        {
            row(
                channel::MELDS + channel::MELD_ROWS * r + k,
                format!("melds_{seat}_{kind}"),
                format!("seat {seat}'s melds: {what}"),
            );
        }
    }
    for (r, seat) in RELATIVE_SEATS.iter().enumerate() {
        let at = channel::RIVER + channel::RIVER_ROWS * r;
        row(
            at,
            format!("river_{seat}_count"),
            format!("seat {seat}'s river: copies it has discarded / 4 (claimed ones included)"),
        );
        for k in 1..=channel::RECENT {
            row(
                at + k,
                format!("river_{seat}_recent_{k}"),
                format!("seat {seat}'s discard {k} back, most recent first (one-hot)"),
            );
        }
    }
    for (r, seat) in RELATIVE_SEATS.iter().enumerate().skip(1) {
        row(
            channel::SAFE + r - 1,
            format!("passed_{seat}"),
            format!("kinds discarded by anyone since seat {seat}'s last discard (under 過水 it cannot win on them now)"),
        );
    }
    row(
        channel::SEAT_WIND,
        "seat_wind".into(),
        "own seat wind (one-hot on its wind tile)".into(),
    );
    row(
        channel::ROUND_WIND,
        "round_wind".into(),
        "round wind (one-hot on its wind tile)".into(),
    );
    row(
        channel::FLOWERS,
        "flowers".into(),
        "flowers: column 8r + f is 1 when relative seat r has shown flower f (f1 = 0)".into(),
    );
    row(
        channel::SCALARS,
        "scalars".into(),
        "scalars by column (taisim.obs_scalar_columns)".into(),
    );
    if version >= 2 {
        row(
            channel::WILD,
            "wild".into(),
            "the wild kind (得牌; one-hot, all zero without a wild)".into(),
        );
    }
    if version >= 3 {
        row(
            channel::BEST_DISCARD,
            "best_discard".into(),
            "discard turn: 1 on each held kind whose discard leaves the least shanten".into(),
        );
        row(
            channel::SHANTEN_AFTER,
            "shanten_after".into(),
            "discard turn: (shanten after discarding the kind − the least) / 4, capped at 1".into(),
        );
        row(
            channel::UKEIRE_AFTER,
            "ukeire_after".into(),
            "discard turn: ukeire after discarding a kind of best_discard / 128, capped at 1"
                .into(),
        );
        row(
            channel::SHANTEN,
            "shanten".into(),
            "own shanten, one-hot on column min(shanten, 33)".into(),
        );
    }
    if version >= 4 {
        row(
            channel::CLAIM_AFTER,
            "claim_after".into(),
            "answering a discard: column c for the claim of action CHOW + c (0–2 the chows with \
             the offer lowest, middle, highest; 3 pung; 4 kong) whose tiles the hand holds, \
             (shanten after the claim − shanten now + 2) / 4, capped at 1; 0 without it"
                .into(),
        );
    }
    (out.len() == rows).then_some(out)
}

/// The columns of the scalar row (`scalars`), by name: the same in every layout version.
/// Columns past the last scalar hold 0 and are named `unused_N`.
pub fn scalar_columns() -> [String; OBS_WIDTH] {
    let mut names: [String; OBS_WIDTH] = std::array::from_fn(|c| format!("unused_{c}"));
    for (r, seat) in RELATIVE_SEATS.iter().enumerate() {
        names[scalar::DEALER + r] = format!("dealer_{seat}");
        names[scalar::READY + r] = format!("ready_{seat}");
        names[scalar::HAND_LEN + r] = format!("hand_len_{seat}");
        names[scalar::HIDDEN_KONGS + r] = format!("hidden_kongs_{seat}");
    }
    names[scalar::STREAK] = "streak".into();
    names[scalar::DRAWABLE] = "drawable".into();
    names[scalar::MISSED] = "missed".into();
    names[scalar::TURN] = "turn".into();
    names[scalar::RESPONDING] = "responding".into();
    names[scalar::ROB_FLOWER] = "rob_flower".into();
    names[scalar::RIVER_LEN] = "river_len".into();
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::obs::{OBS_CHANNELS, OBS_VERSION};

    #[test]
    fn every_version_names_each_of_its_rows_once() {
        for version in 1..=OBS_VERSION {
            let rows = obs_rows(version).unwrap();
            assert_eq!(
                rows.len(),
                obs_shape(version).unwrap()[0],
                "version {version}"
            );
            let mut names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), rows.len(), "version {version}: a name twice");
            assert!(rows.iter().all(|r| !r.meaning.is_empty()));
        }
        assert_eq!(obs_rows(OBS_VERSION).unwrap().len(), OBS_CHANNELS);
        assert_eq!(obs_rows(0), None);
        assert_eq!(obs_rows(OBS_VERSION + 1), None);
    }

    /// Rows were only ever appended: each version's rows begin with the last one's.
    #[test]
    fn versions_are_prefixes_of_the_current_layout() {
        let current = obs_rows(OBS_VERSION).unwrap();
        for version in 1..OBS_VERSION {
            let old = obs_rows(version).unwrap();
            assert_eq!(old[..], current[..old.len()], "version {version}");
        }
    }

    #[test]
    fn names_sit_at_the_layouts_offsets() {
        let rows = obs_rows(OBS_VERSION).unwrap();
        let at = |name: &str| rows.iter().position(|r| r.name == name);
        assert_eq!(at("waits"), Some(channel::WAITS));
        assert_eq!(at("melds_previous_chow"), Some(channel::MELDS + 12));
        assert_eq!(at("river_next_recent_6"), Some(channel::RIVER + 7 + 6));
        assert_eq!(at("passed_next"), Some(channel::SAFE));
        assert_eq!(at("scalars"), Some(channel::SCALARS));
        assert_eq!(at("shanten"), Some(channel::SHANTEN));
        assert_eq!(at("claim_after"), Some(OBS_CHANNELS - 1));
        let scalars = scalar_columns();
        assert_eq!(scalars[scalar::RIVER_LEN], "river_len");
        assert_eq!(scalars[scalar::HIDDEN_KONGS + 3], "hidden_kongs_previous");
        assert_eq!(scalars[OBS_WIDTH - 1], format!("unused_{}", OBS_WIDTH - 1));
        let mut unique = scalars.to_vec();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), OBS_WIDTH);
    }
}
