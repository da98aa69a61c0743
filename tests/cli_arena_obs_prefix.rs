//! A policy trained on observation version 2 (`tests/fixtures/policy_obs_v2.safetensors`, the
//! shipped `trained` until it was retrained on version 3, SHA-256 9ebd995b…) still plays: this
//! build encodes a later layout that only appends rows, and the policy agent feeds a version-2
//! policy the first rows. Its decisions must be exactly those it made when version 2 was the
//! current layout: the arena's whole JSON line is compared with the one recorded from the
//! version-2 build.

mod support;
use support::{stderr, taisim};

/// `taisim arena --json` with `args`, its one line.
fn arena_line(args: &[&str]) -> String {
    let o = taisim(&[&["arena", "--json"], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    text.trim_end().to_string()
}

/// Recorded with the binary of `main` at commit ff12aaa (observation version 2, before the
/// hand-efficiency rows, when this file was the shipped `trained`), built with
/// `cargo build --release`:
/// `taisim arena --candidate trained --baseline greedy --deals 200 --seed 5 --json` and the
/// same with `--deals 100 --seed 7 --variant taizhou` (a deal with a wild, whose observation
/// rows differ most). Every action of `trained` in 1500 deals feeds these numbers: one changed
/// decision would move at least one of them.
///
/// The taizhou line's points were re-pinned when 白板 came to be read as itself as well as
/// the wild's face (issue 22: the scores of hands holding 白板 rose; its win, self-draw and
/// deal-in rates are unchanged). Before re-pinning, a build scoring 白板 as the face alone
/// reproduced the recorded line exactly, so the decisions are still version 2's.
#[test]
fn a_version_2_policy_decides_as_before_the_version_3_rows() {
    let candidate = format!(
        "policy:{}/tests/fixtures/policy_obs_v2.safetensors",
        env!("CARGO_MANIFEST_DIR")
    );
    // The recorded lines name the candidate `trained`, as it was then.
    let named = |line: String| {
        line.replacen(
            &format!(r#""candidate":"{candidate}""#),
            r#""candidate":"trained""#,
            1,
        )
    };
    let taiwan16 = named(arena_line(&[
        "--candidate",
        &candidate,
        "--baseline",
        "greedy",
        "--deals",
        "200",
        "--seed",
        "5",
    ]));
    assert_eq!(
        taiwan16,
        r#"{"candidate":"trained","baseline":"greedy","variant":"taiwan16","seed":5,"deals":200,"deals_played":1000,"mean_diff":-0.5425,"std_error":0.07479263628333377,"ci95_low":-0.6890908734241379,"ci95_high":-0.3959091265758621,"candidate_stats":{"points_per_deal":-0.5425,"win_rate":0.1225,"self_draw_rate":0.025,"deal_in_rate":0.2},"baseline_stats":{"points_per_deal":0.0,"win_rate":0.24375,"self_draw_rate":0.0625,"deal_in_rate":0.18125}}"#
    );
    let taizhou = named(arena_line(&[
        "--candidate",
        &candidate,
        "--baseline",
        "greedy",
        "--deals",
        "100",
        "--seed",
        "7",
        "--variant",
        "taizhou",
    ]));
    assert_eq!(
        taizhou,
        r#"{"candidate":"trained","baseline":"greedy","variant":"taizhou","seed":7,"deals":100,"deals_played":500,"mean_diff":-16.86,"std_error":3.456176435825514,"ci95_low":-23.633981338434015,"ci95_high":-10.086018661565983,"candidate_stats":{"points_per_deal":-16.86,"win_rate":0.1225,"self_draw_rate":0.05,"deal_in_rate":0.1725},"baseline_stats":{"points_per_deal":0.0,"win_rate":0.25,"self_draw_rate":0.0575,"deal_in_rate":0.1925}}"#
    );
}
