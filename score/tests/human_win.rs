//! 人胡 per variant: which first-go-round discards give it. taiwan16-common.txt:86 (taiwan16,
//! taiwan16-house): 「第一巡內未摸牌前 … 胡他人牌」, any discard before the winner's first draw.
//! mahjongtime-taiwanese-scoring.md:100 "Non-dealer goes out on dealer's first discard" and
//! taiwan16-2015-table.txt:383 「或莊家打第一張牌, 平家就胡牌」: the dealer's first discard only
//! (`[rules] human_win_dealer_discard`). Each shipped variant plays both deals on arranged
//! walls, and the score request path refuses what the variant's deal cannot produce.

use taisim_score::{score, score_json, PatternId, RequestError, ScoreError, Variant, WinInput};
use taisim_sim::{parse_tile, parse_wall_tiles, Action, Deal, DealContext, Seat, Wall, Wind};

const E: Seat = Wind::East;
const S: Seat = Wind::South;
const W: Seat = Wind::West;
const N: Seat = Wind::North;

/// Every shipped variant and whether only the dealer's first discard gives 人胡 there.
const VARIANTS: [(&str, bool); 5] = [
    ("taiwan16", false),
    ("taiwan16-house", false),
    ("taiwan16-2015", true),
    ("mahjongtime", true),
    // 13 tiles and a wild: no 人胡 in its table; the engine flag keeps taiwan16's value.
    ("taizhou", false),
];

/// E (dealing, 17 tiles) discards 9m or 3m first; N waits on 3m/6m with 45m. S draws 6m and
/// discards it.
const HANDS: [&str; 4] = [
    "3m7m9m1s9s2p5p8pSWNCFP6s7s8s",
    "12m99p33p66p77s99sWWNN",
    "33m44p11p22s55s8m6mCCFF",
    "123456789p123s45mEE",
];

fn deal(variant: &Variant) -> Deal {
    let rules = variant.rules();
    let hands: Vec<_> = HANDS.iter().map(|h| parse_wall_tiles(h).unwrap()).collect();
    let live = parse_wall_tiles("6m").unwrap();
    let wall = Wall::arranged(
        &rules,
        E,
        [&hands[0], &hands[1], &hands[2], &hands[3]],
        &live,
        &[],
    )
    .unwrap();
    Deal::with_wall(rules, 0, DealContext::FIRST, wall)
}

fn play(deal: &mut Deal, seat: Seat, action: Action) {
    assert_eq!(deal.to_act(), Some(seat), "{action}");
    deal.play(action).unwrap();
}

/// N's win, its 人胡 flag, and whether the scorer counts 人胡.
fn judged(deal: &Deal, variant: &Variant) -> (bool, bool) {
    let r = deal.result().expect("over");
    assert!(r.winners.contains(N));
    let input = WinInput::from_deal(deal, N).unwrap();
    let s = score(&input, variant).unwrap();
    (r.context.human, s.has(PatternId::HumanWin))
}

#[test]
fn human_win_on_whose_first_discard() {
    let t = |s| parse_tile(s).unwrap();
    for (name, dealer_only) in VARIANTS {
        let variant = Variant::builtin(name).unwrap();
        assert_eq!(
            variant.rules().human_win_dealer_discard,
            dealer_only,
            "{name}"
        );
        if variant.rules().has_wild() {
            continue;
        }
        let counted = variant.patterns().any(|(p, _)| p == PatternId::HumanWin);
        // The dealer's first discard: 人胡 everywhere (S may chow and W pung 3m; they pass).
        let mut d = deal(&variant);
        play(&mut d, E, Action::Discard(t("3m")));
        play(&mut d, S, Action::Pass);
        play(&mut d, W, Action::Pass);
        play(&mut d, N, Action::Win);
        assert_eq!(
            judged(&d, &variant),
            (true, counted),
            "{name}: E's first discard"
        );
        // S's first discard, N not having drawn yet: 人胡 only where any discarder gives it.
        let mut d = deal(&variant);
        play(&mut d, E, Action::Discard(t("9m")));
        assert_eq!(d.drawn_tile(), Some(t("6m")), "{name}");
        play(&mut d, S, Action::Discard(t("6m")));
        play(&mut d, N, Action::Win);
        let want = !dealer_only;
        assert_eq!(
            judged(&d, &variant),
            (want, want && counted),
            "{name}: S's first discard"
        );
    }
}

/// `taisim score` / `score_json`: 人胡 on a non-dealer's discard is refused where only the
/// dealer's discard gives it, and scored where any does. S wins; N deals, so E (between N
/// and S) discards first after the dealer.
#[test]
fn score_requests_follow_the_variant() {
    for (name, dealer_only) in VARIANTS {
        if name == "taizhou" {
            continue;
        }
        let request = |discarder: &str, discards: u8| {
            format!(
                r#"{{"variant": "{name}", "seat": "S", "dealer": "N", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "discard", "discarder": "{discarder}", "discards": {discards}, "context": ["human"]}}"#
            )
        };
        // The dealer's first discard: scored in every variant.
        let answer = score_json(&request("N", 1)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(answer.contains("human_win"), "{name}: {answer}");
        // E's first discard, the second of the deal.
        match score_json(&request("E", 2)) {
            Ok(answer) => {
                assert!(!dealer_only, "{name} scored {answer}");
                assert!(answer.contains("human_win"), "{name}: {answer}");
            }
            Err(e) => {
                assert!(dealer_only, "{name} refused: {e}");
                assert!(
                    matches!(e, RequestError::Score(ScoreError::Context { .. })),
                    "{name}: {e:?}"
                );
                assert!(e.to_string().contains("dealer's first discard"), "{e}");
            }
        }
    }
}
