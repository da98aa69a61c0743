//! One scenario per rule of the deal flow, on walls arranged by hand. Each cites the text it
//! follows (`shared/rules/`).

use taisim_sim::{
    parse_tile, parse_wall_tiles, Action, ActionList, Deal, DealContext, DrawSource, Flower,
    MeldKind, Outcome, Rules, Seat, Wall, Wind,
};

const E: Seat = Wind::East;
const S: Seat = Wind::South;
const W: Seat = Wind::West;
const N: Seat = Wind::North;

fn t(s: &str) -> taisim_sim::Tile {
    parse_tile(s).unwrap()
}

fn rigged(rules: Rules, hands: [&str; 4], live: &str, back: &str) -> Deal {
    let parse = |s: &str| {
        if s.is_empty() {
            vec![]
        } else {
            parse_wall_tiles(s).unwrap()
        }
    };
    let hands: Vec<_> = hands.iter().map(|h| parse(h)).collect();
    let wall = Wall::arranged(
        &rules,
        E,
        [&hands[0], &hands[1], &hands[2], &hands[3]],
        &parse(live),
        &parse(back),
    )
    .unwrap();
    let deal = Deal::with_wall(rules, 0, DealContext::FIRST, wall);
    deal.validate().unwrap();
    deal
}

fn legal(deal: &Deal) -> Vec<Action> {
    let mut list = ActionList::new();
    deal.legal_actions(&mut list);
    list.to_vec()
}

fn play(deal: &mut Deal, seat: Seat, action: Action) {
    assert_eq!(
        deal.to_act(),
        Some(seat),
        "expected {seat} to act, legal {:?}",
        legal(deal)
    );
    deal.play(action)
        .unwrap_or_else(|e| panic!("{seat} {action}: {e}; legal {:?}", legal(deal)));
    deal.validate().unwrap();
}

/// E discards 3m. S (on E's left... E's next seat) can chow 12m+3m, W can pung 33m, N wins on
/// 3m (its 45m waits on 3m/6m) but sits across, so it may not chow.
const CLAIM_HANDS: [&str; 4] = [
    "3m7m9m1s9s2p5p8pSWNCFP6s7s8s",
    "12m99p33p66p77s99sWWNN",
    "33m44p11p22s55s8m6mCCFF",
    "123456789p123s45mEE",
];

#[test]
fn chow_only_from_the_left() {
    // taiwan16-common.txt / issue: chow from the next player only.
    let mut deal = rigged(Rules::TAIWAN16, CLAIM_HANDS, "", "");
    play(&mut deal, E, Action::Discard(t("3m")));
    assert_eq!(legal(&deal), vec![Action::Chow(t("1m")), Action::Pass]);
    play(&mut deal, S, Action::Chow(t("1m")));
    assert_eq!(legal(&deal), vec![Action::Pung, Action::Pass]);
    play(&mut deal, W, Action::Pass);
    // N holds 45m, a chow shape for 3m, but is not E's next seat: it may only win.
    assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
    play(&mut deal, N, Action::Pass);
    assert_eq!(deal.to_act(), Some(S));
    assert_eq!(deal.melds(S)[0].kind(), MeldKind::Chow);
    assert_eq!(deal.melds(S)[0].to_string(), "chow:123m");
    assert_eq!(deal.melds(S)[0].from(), E);
    assert!(deal.discards()[0].is_claimed());
    // After a claim the seat must discard: no self-draw win, no kong.
    assert!(legal(&deal).iter().all(|a| matches!(a, Action::Discard(_))));
}

#[test]
fn claim_priority_win_over_pung_over_chow() {
    // Win beats pung beats chow, whatever order the answers came in.
    let mut deal = rigged(Rules::TAIWAN16, CLAIM_HANDS, "", "");
    play(&mut deal, E, Action::Discard(t("3m")));
    play(&mut deal, S, Action::Chow(t("1m")));
    play(&mut deal, W, Action::Pung);
    play(&mut deal, N, Action::Win);
    let r = deal.result().unwrap();
    assert_eq!(r.outcome, Outcome::Discard);
    assert!(r.winners.contains(N) && r.winners.len() == 1);
    assert_eq!((r.payer, r.win_tile), (Some(E), Some(t("3m"))));
    assert!(deal.melds(S).is_empty() && deal.melds(W).is_empty());
    assert!(
        r.context.human,
        "N won before its first draw with no claim: 人胡"
    );

    let mut deal = rigged(Rules::TAIWAN16, CLAIM_HANDS, "", "");
    play(&mut deal, E, Action::Discard(t("3m")));
    play(&mut deal, S, Action::Chow(t("1m")));
    play(&mut deal, W, Action::Pung);
    play(&mut deal, N, Action::Pass);
    assert_eq!(deal.to_act(), Some(W));
    assert_eq!(deal.melds(W)[0].to_string(), "pung:333m");
    assert!(deal.melds(S).is_empty());
    assert_eq!(deal.hand(S).len(), 16);
}

#[test]
fn missed_win_blocks_discard_wins_until_own_discard() {
    // README (taiwan16): "A player who passes a winning discard may not win until after
    // their own next discard (過水)".
    let mut deal = rigged(Rules::TAIWAN16, CLAIM_HANDS, "C", "");
    play(&mut deal, E, Action::Discard(t("3m")));
    play(&mut deal, S, Action::Pass);
    play(&mut deal, W, Action::Pung);
    play(&mut deal, N, Action::Pass);
    assert!(deal.is_missed(N));
    // W discards 6m: N waits on it (3m/6m) but passed a win; it may still chow 45m+6m.
    play(&mut deal, W, Action::Discard(t("6m")));
    assert_eq!(legal(&deal), vec![Action::Chow(t("4m")), Action::Pass]);
    play(&mut deal, N, Action::Pass);
    assert_eq!(deal.drawn_tile(), Some(t("C")));
    play(&mut deal, N, Action::Discard(t("C")));
    assert!(!deal.is_missed(N), "the flag clears with N's own discard");

    // Without the rule, the same discard offers the win.
    let rules = Rules {
        missed_win: false,
        ..Rules::TAIWAN16
    };
    let mut deal = rigged(rules, CLAIM_HANDS, "", "");
    play(&mut deal, E, Action::Discard(t("3m")));
    play(&mut deal, S, Action::Pass);
    play(&mut deal, W, Action::Pung);
    play(&mut deal, N, Action::Pass);
    play(&mut deal, W, Action::Discard(t("6m")));
    assert_eq!(
        legal(&deal),
        vec![Action::Win, Action::Chow(t("4m")), Action::Pass]
    );
}

/// mahjongtime-taiwanese-rules.txt:61-65, the missed-discard rule (`missed_win_same_tile`):
/// "prohibited from going out on a tile, which he has missed" until "he must discard a tile",
/// "applied to a self-drawn tile, as well" (:63 "or if he picks the tile from the Wall"), and
/// "a player can claim a missed discard, if he does not go out on that tile" (:65). Under
/// taiwan16's 過水 every discard win is barred and a self-draw none. Played with the rules of
/// every shipped 16-tile variant, each by its own setting.
#[test]
fn missed_discard_rule_bars_the_tile_missed_even_self_drawn() {
    let mut sets: Vec<(String, Rules)> = vec![(
        "taiwan16 + missed_win_same_tile".into(),
        Rules {
            missed_win_same_tile: true,
            ..Rules::TAIWAN16
        },
    )];
    for name in ["taiwan16", "taiwan16-house", "taiwan16-2015", "mahjongtime"] {
        let rules = taisim_score::Variant::builtin(name).unwrap().rules();
        assert_eq!(rules.missed_win_same_tile, name == "mahjongtime", "{name}");
        assert!(rules.missed_win, "{name}");
        sets.push((name.into(), rules));
    }
    for (name, rules) in sets {
        let same_tile = rules.missed_win_same_tile;
        // N passes its win on E's 3m (W pungs it); W discards 6m, N's other winning kind.
        let mut deal = rigged(rules, CLAIM_HANDS, "C", "");
        play(&mut deal, E, Action::Discard(t("3m")));
        play(&mut deal, S, Action::Pass);
        play(&mut deal, W, Action::Pung);
        play(&mut deal, N, Action::Pass);
        assert!(deal.is_missed(N), "{name}");
        let barred = if same_tile {
            taisim_sim::TileSet::EMPTY.with(t("3m"))
        } else {
            taisim_sim::TileSet((1 << 34) - 1)
        };
        assert_eq!(deal.win_barred(N), barred, "{name}");
        play(&mut deal, W, Action::Discard(t("6m")));
        // The kind missed is 3m: 6m still wins under the missed-discard rule, not under 過水;
        // the chow stays either way.
        let mut want = vec![Action::Chow(t("4m")), Action::Pass];
        if same_tile {
            want.insert(0, Action::Win);
        }
        assert_eq!(legal(&deal), want, "{name}");
        play(&mut deal, N, Action::Pass);
        play(&mut deal, N, Action::Discard(t("C")));
        assert!(!deal.is_missed(N), "{name}: N's own discard lifts the bar");
        assert_eq!(deal.win_barred(N), taisim_sim::TileSet::EMPTY, "{name}");

        // N passes its win on E's 3m (nobody claims it); S and W discard what nobody wants;
        // N draws the next 3m: no self-drawn win on the kind missed, where the rule says.
        let mut deal = rigged(rules, CLAIM_HANDS, "1s 2p 3m", "");
        play(&mut deal, E, Action::Discard(t("3m")));
        play(&mut deal, S, Action::Pass);
        play(&mut deal, W, Action::Pass);
        play(&mut deal, N, Action::Pass);
        assert_eq!(deal.drawn_tile(), Some(t("1s")), "{name}");
        play(&mut deal, S, Action::Discard(t("1s")));
        assert_eq!(deal.drawn_tile(), Some(t("2p")), "{name}");
        play(&mut deal, W, Action::Discard(t("8m")));
        assert_eq!(deal.to_act(), Some(N), "{name}");
        assert_eq!(deal.drawn_tile(), Some(t("3m")), "{name}");
        assert_eq!(
            legal(&deal).contains(&Action::SelfDrawWin),
            !same_tile,
            "{name}: self-drawn 3m after passing 3m"
        );
        // The next deal state is the same whatever the rule: N discards and the bar lifts.
        play(&mut deal, N, Action::Discard(t("E")));
        assert!(!deal.is_missed(N), "{name}");
    }
}

#[test]
fn several_winners_when_the_rules_allow() {
    // taiwan16-2015-table.txt: "一砲可多響". S (12m) and N (45m) both wait on 3m; W could pung
    // it but a win outranks it, so W is never asked.
    let hands = [
        "3m7m9m1s9s2p5p8pSWNCFP6s7s8s",
        "12m999p333p666p777sWW",
        "33m44p11p22s55s8m6mCCFF",
        "123456789p123s45mEE",
    ];
    for multiple in [false, true] {
        let rules = Rules {
            multiple_winners: multiple,
            ..Rules::TAIWAN16
        };
        let mut deal = rigged(rules, hands, "", "");
        play(&mut deal, E, Action::Discard(t("3m")));
        assert_eq!(
            legal(&deal),
            vec![Action::Win, Action::Chow(t("1m")), Action::Pass]
        );
        play(&mut deal, S, Action::Win);
        if multiple {
            assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
            play(&mut deal, N, Action::Win);
        }
        let r = deal.result().expect("the deal is over");
        assert_eq!(r.payer, Some(E));
        assert!(r.winners.contains(S));
        // One winner: the first in turn order after the discarder; nobody else is asked.
        assert_eq!(r.winners.contains(N), multiple);
    }
}

#[test]
fn robbing_an_added_kong() {
    // taiwan16-common.txt 搶槓: "別人加槓的牌,正是自己能胡的牌,則可搶槓胡".
    // E discards 7m; W pungs it (N, who waits on 7m with 89m, lets it go). Each seat then
    // discards the honor it draws; W draws the last 7m and adds it to its pung; N, whose own
    // discard has cleared its 過水, robs it.
    let hands = [
        "7m1m1s9s2p5p8pSWNEE6s7s8s3p3s",
        "12m99p33p66p77s99sWWNN",
        "77m44p11p22s55s8m6mCCFF",
        "123456p789p1s2s3s89mPP",
    ];
    for rob in [true, false] {
        let mut deal = rigged(Rules::TAIWAN16, hands, "C F P 7m", "5s");
        play(&mut deal, E, Action::Discard(t("7m")));
        assert_eq!(deal.discard_on_offer(), Some(t("7m")));
        play(&mut deal, W, Action::Pung);
        assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
        play(&mut deal, N, Action::Pass);
        play(&mut deal, W, Action::Discard(t("8m")));
        assert_eq!(deal.drawn_tile(), Some(t("C")));
        play(&mut deal, N, Action::Discard(t("C")));
        play(&mut deal, W, Action::Pass); // W holds CC
        play(&mut deal, E, Action::Discard(t("F")));
        play(&mut deal, W, Action::Pass); // W holds FF
        play(&mut deal, S, Action::Discard(t("P")));
        play(&mut deal, N, Action::Pass); // N holds PP
        assert_eq!(deal.drawn_tile(), Some(t("7m")));
        assert!(legal(&deal).contains(&Action::AddedKong(t("7m"))));
        play(&mut deal, W, Action::AddedKong(t("7m")));
        assert_eq!(deal.tile_on_offer(), Some(t("7m")));
        // A kong being added is on offer, but it is no discard: only a win answers it.
        assert_eq!(deal.discard_on_offer(), None);
        assert_eq!(deal.view(N).tile_on_offer(), Some(t("7m")));
        assert_eq!(deal.view(N).discard_on_offer(), None);
        assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
        assert_eq!(deal.view(N).kong_on_offer(), Some((W, false)));
        assert_eq!(deal.view(E).kong_on_offer(), None, "not E's decision");
        check_rob_redealt(&deal, N, W, t("7m"));
        if rob {
            play(&mut deal, N, Action::Win);
            let r = deal.result().unwrap();
            assert_eq!(r.outcome, Outcome::Discard);
            assert!(r.context.robbing_kong && r.winners.contains(N));
            assert_eq!((r.payer, r.win_tile), (Some(W), Some(t("7m"))));
            assert_eq!(
                deal.melds(W)[0].kind(),
                MeldKind::Pung,
                "a robbed kong is not made"
            );
            assert_eq!(deal.winning_hand(N).unwrap().len(), 17);
        } else {
            play(&mut deal, N, Action::Pass);
            assert_eq!(deal.melds(W)[0].kind(), MeldKind::AddedKong);
            assert_eq!(
                deal.drawn_tile(),
                Some(t("5s")),
                "the replacement comes from the back"
            );
            assert!(deal.is_missed(N));
        }
    }
}

/// `robber`'s decision to rob the kong on offer in `deal`, redealt on many fills: each
/// redealt deal is legal, shows the kong and offers the same actions, the declarer holds the
/// kong's tiles again, and robbing it or letting it be made plays on as in a real deal.
fn check_rob_redealt(deal: &Deal, robber: Seat, declarer: Seat, tile: taisim_sim::Tile) {
    let view = deal.view(robber);
    assert!(view.can_redeal());
    let (_, concealed) = view.kong_on_offer().unwrap();
    let copies = if concealed { 4 } else { 1 };
    let unseen = view.unseen();
    assert_eq!(
        unseen.hand_sizes[declarer] as usize,
        deal.hand(declarer).len() - copies,
        "the kong's tiles are on show, not hidden"
    );
    let mut rng = taisim_sim::rng_from_seed(11);
    for _ in 0..20 {
        let fill = taisim_sim::Fill::shuffled(&unseen, &mut rng).unwrap();
        let redealt = view.redeal(&fill).unwrap();
        redealt.validate().unwrap();
        assert_eq!(redealt.to_act(), Some(robber));
        assert_eq!(redealt.tile_on_offer(), Some(tile));
        assert_eq!(redealt.kong_on_offer(), deal.kong_on_offer());
        assert_eq!(legal(&redealt), vec![Action::Win, Action::Pass]);
        assert_eq!(redealt.hand(declarer).count(tile) as usize, copies);
        assert_eq!(redealt.hand(declarer).len(), deal.hand(declarer).len());
        let mut robbed = redealt.clone();
        play(&mut robbed, robber, Action::Win);
        let r = robbed.result().unwrap();
        assert!(r.context.robbing_kong && r.winners.contains(robber));
        assert_eq!(r.payer, Some(declarer));
        let mut made = redealt;
        play(&mut made, robber, Action::Pass);
        assert_eq!(
            made.to_act(),
            Some(declarer),
            "the declarer draws its replacement"
        );
    }
}

#[test]
fn concealed_kong_robbed_only_when_the_rules_say() {
    // E holds four 5p; S waits on 5p (46p).
    let hands = [
        "5555p1m9m1s9sSWNCFP6s7s8s",
        "46p123m456m789m123sEE",
        "33m44s11p22s55s8m6mCCFF",
        "7p8p9p1s2s3s7m8m9mNNPPP2m2m",
    ];
    let rules = Rules {
        rob_concealed_kong: true,
        ..Rules::TAIWAN16
    };
    let mut deal = rigged(rules, hands, "", "3p");
    play(&mut deal, E, Action::ConcealedKong(t("5p")));
    assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
    assert_eq!(deal.view(S).kong_on_offer(), Some((E, true)));
    check_rob_redealt(&deal, S, E, t("5p"));
    play(&mut deal, S, Action::Win);
    assert!(deal.result().unwrap().context.robbing_kong);

    let mut deal = rigged(Rules::TAIWAN16, hands, "", "3p");
    play(&mut deal, E, Action::ConcealedKong(t("5p")));
    assert_eq!(
        deal.to_act(),
        Some(E),
        "no robbing: E draws its replacement"
    );
    assert_eq!(deal.drawn_tile(), Some(t("3p")));
    assert_eq!(deal.melds(E)[0].kind(), MeldKind::ConcealedKong);
    // Others see a face-down kong.
    assert_eq!(deal.view(S).melds(E).next().unwrap().tile, None);
    assert_eq!(deal.view(E).melds(E).next().unwrap().tile, Some(t("5p")));
}

#[test]
fn flower_chain_at_the_start() {
    // taiwan16-common.txt: the dealer shows its flowers first and replaces them from the
    // back; a flower drawn as a replacement is replaced again; then the others in turn.
    let hands = [
        "f1 123m456m789m123p45p6pE",
        "f3 f4 1s2s3s4s5s6s7s8s9s1p2p3pE9m",
        "11m22m33m44m55m66m77m88m",
        "ESWNCFP ESWNCFP 9p9p",
    ];
    let mut deal = rigged(Rules::TAIWAN16, hands, "", "f2 9s f5 f6 8p 7p 6p");
    assert_eq!(deal.flowers(E).to_string(), "f1f2");
    assert_eq!(deal.flowers(S).to_string(), "f3f4f5f6");
    assert_eq!(deal.hand(E).len(), 17);
    assert_eq!(deal.hand(S).len(), 16);
    assert_eq!(deal.hand(E).count(t("9s")), 1);
    assert_eq!(deal.hand(S).count(t("8p")) + deal.hand(S).count(t("7p")), 2);
    assert_eq!(deal.hand(S).count(t("6p")), 0, "6p is still in the wall");
    assert_eq!(deal.tiles_left(), 144 - 65 - 6);
    assert_eq!(deal.to_act(), Some(E));
    play(&mut deal, E, Action::Discard(t("E")));
}

#[test]
fn seven_flowers_rob_the_eighth() {
    // taiwan16-common.txt 七搶一: "持7張花牌可以搶別家1張花牌湊滿花牌而胡牌".
    let hands = [
        "123m456m789m123p45pEEE",
        "f1f2f3f4f5f6f7 1s2s3s4s5s6s7s8s9s",
        "11p22p33p44p66p77p88p99p",
        "SSWWNNCCFFPP1m2m3m4m",
    ];
    for rob in [true, false] {
        let mut deal = rigged(Rules::TAIWAN16, hands, "C f8", "SWN5s6s7s8s 5m");
        assert_eq!(deal.flowers(S).len(), 7);
        play(&mut deal, E, Action::Discard(t("E")));
        assert_eq!(deal.drawn_tile(), Some(t("C")));
        play(&mut deal, S, Action::Discard(t("C")));
        play(&mut deal, N, Action::Pass); // N holds CC
                                          // W draws f8 and shows it: S may take it.
        assert_eq!(deal.flower_on_offer(), Some(Flower::Bamboo));
        assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
        check_flower_redealt(&deal, S, W);
        if rob {
            play(&mut deal, S, Action::Win);
            let r = deal.result().unwrap();
            assert_eq!(r.outcome, Outcome::FlowerWin);
            assert_eq!(
                r.payer,
                Some(W),
                "the seat that drew the eighth flower pays"
            );
            assert_eq!(deal.flowers(S).len(), 8);
            assert_eq!(deal.flowers(W).len(), 0);
        } else {
            play(&mut deal, S, Action::Pass);
            assert_eq!(deal.to_act(), Some(W));
            assert_eq!(deal.drawn_tile(), Some(t("5m")));
        }
    }
}

/// `robber`'s decision to rob the flower on offer in `deal` (七搶一), redealt on many fills:
/// each redealt deal is legal, offers it the same flower and actions, and robbing or passing
/// there plays on as in the real deal.
fn check_flower_redealt(deal: &Deal, robber: Seat, revealer: Seat) {
    let view = deal.view(robber);
    assert!(view.can_redeal());
    let mut rng = taisim_sim::rng_from_seed(7);
    for _ in 0..20 {
        let fill = taisim_sim::Fill::shuffled(&view.unseen(), &mut rng).unwrap();
        let redealt = view.redeal(&fill).unwrap();
        redealt.validate().unwrap();
        assert_eq!(redealt.to_act(), Some(robber));
        assert_eq!(redealt.flower_on_offer(), deal.flower_on_offer());
        assert_eq!(legal(&redealt), vec![Action::Win, Action::Pass]);
        let mut robbed = redealt.clone();
        play(&mut robbed, robber, Action::Win);
        let r = robbed.result().unwrap();
        assert_eq!((r.outcome, r.payer), (Outcome::FlowerWin, Some(revealer)));
        let mut passed = redealt;
        play(&mut passed, robber, Action::Pass);
        assert_eq!(passed.to_act(), Some(revealer));
    }
}

#[test]
fn eight_flowers_win() {
    // taiwan16-common.txt 八仙過海: all eight flowers win, declared after replacement.
    let hands = [
        "f1f2f3f4f5f6f7f8 123m456m789p",
        "1s2s3s4s5s6s7s8s9s1p2p3pE9mSS",
        "11p22p33p44p66p77p88p99p",
        "WWNNCCFFPP1m2m3m4m5m6m",
    ];
    let mut deal = rigged(Rules::TAIWAN16, hands, "", "EEWN9s8s7s6s");
    assert!(legal(&deal).contains(&Action::FlowerWin));
    play(&mut deal, E, Action::FlowerWin);
    let r = deal.result().unwrap();
    assert_eq!((r.outcome, r.payer), (Outcome::FlowerWin, None));
}

#[test]
fn exhaustive_draw_leaves_the_reserve() {
    // taiwan16-common.txt: the deal ends when eight stacks (16 tiles) are left; a
    // play-to-the-end table (reserve 0) draws every tile.
    for (reserve, left) in [(16, 16), (0, 0)] {
        let rules = Rules {
            reserve,
            ..Rules::TAIWAN16
        };
        for seed in 0..50 {
            let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
            let mut list = ActionList::new();
            while !deal.is_over() {
                deal.legal_actions(&mut list);
                // Never win, never claim, never kong: discard what was drawn.
                let a = if list.contains(&Action::Pass) {
                    Action::Pass
                } else {
                    deal.drawn_tile()
                        .map(Action::Discard)
                        .filter(|a| list.contains(a))
                        .unwrap_or_else(|| {
                            *list
                                .iter()
                                .find(|a| matches!(a, Action::Discard(_)))
                                .unwrap()
                        })
                };
                deal.play(a).unwrap();
            }
            let r = deal.result().unwrap();
            assert_eq!(r.outcome, Outcome::ExhaustiveDraw);
            assert_eq!(deal.tiles_left(), left, "seed {seed}");
            deal.validate().unwrap();
        }
    }
}

#[test]
fn last_discard_can_only_be_won() {
    // taiwan16-2015-table.txt: "無牌可摸時, 不得吃、碰、槓". Pass everything; whenever the last
    // discard could have been punged, check that it was not offered.
    let mut blocked = 0;
    for seed in 0..400 {
        let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        let mut list = ActionList::new();
        while !deal.is_over() {
            deal.legal_actions(&mut list);
            let a = if list.contains(&Action::Pass) {
                Action::Pass
            } else {
                *list
                    .iter()
                    .rev()
                    .find(|a| matches!(a, Action::Discard(_)))
                    .unwrap()
            };
            let seat = deal.to_act().unwrap();
            // The last discard is one made with nothing left to draw.
            let last = deal.drawable() == 0;
            deal.play(a).unwrap();
            if let (Action::Discard(tile), true) = (a, last) {
                let could_pung = Wind::ALL
                    .into_iter()
                    .any(|s| s != seat && deal.hand(s).count(tile) >= 2);
                if could_pung {
                    blocked += 1;
                    deal.legal_actions(&mut list);
                    assert!(list.iter().all(|a| matches!(a, Action::Win | Action::Pass)));
                }
            }
        }
    }
    assert!(blocked > 0);
}

#[test]
fn declared_ready_locks_the_hand() {
    // README (taiwan16): "A declared ready hand may not change: it discards every drawn tile
    // that does not win." E (dealer) is ready after discarding N: 天聽.
    let hands = [
        "123m456m789m123p45pEEN",
        "1s2s3s4s5s6s7s8s9s1p2p3p9mSSS",
        "11p22p33p44p66p77p88p99p",
        "WWNNCCFFPP1m2m3m4m5m6m",
    ];
    let mut deal = rigged(Rules::TAIWAN16, hands, "8s 7s", "");
    let actions = legal(&deal);
    assert!(actions.contains(&Action::DiscardReady(t("N"))));
    assert!(
        !actions.contains(&Action::DiscardReady(t("1m"))),
        "not ready after 1m"
    );
    play(&mut deal, E, Action::DiscardReady(t("N")));
    assert_eq!(deal.ready_declaration(E), Some(0));
    assert!(deal.discards()[0].is_ready_declaration());
    assert!(deal.view(S).declared_ready(E));
    while deal.to_act() != Some(E) {
        let seat = deal.to_act().unwrap();
        let a = if legal(&deal).contains(&Action::Pass) {
            Action::Pass
        } else {
            Action::Discard(deal.drawn_tile().unwrap())
        };
        play(&mut deal, seat, a);
    }
    // E's turn: only the drawn tile may go (or a win).
    let drawn = deal.drawn_tile().unwrap();
    let actions = legal(&deal);
    assert!(actions.contains(&Action::Discard(drawn)));
    assert!(actions
        .iter()
        .all(|a| *a == Action::Discard(drawn) || *a == Action::SelfDrawWin));
}

#[test]
fn dealer_streak_and_round_progression() {
    // README (taiwan16): dealer wins or exhaustive draw keep the deal (streak + 1); else the
    // next seat deals; after North's deal the round wind moves on; four rounds make a game.
    use taisim_sim::{DealResult, SeatSet, WinContext};
    let win = |seat| DealResult {
        outcome: Outcome::Discard,
        winners: SeatSet::single(seat),
        payer: None,
        win_tile: None,
        context: WinContext::default(),
    };
    let draw = DealResult {
        outcome: Outcome::ExhaustiveDraw,
        winners: SeatSet::EMPTY,
        payer: None,
        win_tile: None,
        context: WinContext::default(),
    };
    let rules = Rules::TAIWAN16;
    let c = DealContext::FIRST;
    let c1 = c.next(&win(E), &rules).unwrap();
    assert_eq!((c1.dealer, c1.streak), (E, 1));
    let c2 = c1.next(&draw, &rules).unwrap();
    assert_eq!((c2.dealer, c2.streak), (E, 2));
    let c3 = c2.next(&win(S), &rules).unwrap();
    assert_eq!((c3.dealer, c3.streak, c3.round_wind), (S, 0, E));
    let passing = Rules {
        dealer_continuation: taisim_sim::DealerContinuation {
            on_dealer_win: true,
            on_draw: false,
        },
        ..Rules::TAIWAN16
    };
    assert_eq!(c2.next(&draw, &passing).unwrap().dealer, S);

    // A whole game: each non-dealer win passes the deal; sixteen passes end the game.
    let mut ctx = DealContext::FIRST;
    let mut rounds = vec![ctx.round_wind];
    let mut deals = 1;
    while let Some(next) = ctx.next(&win(ctx.dealer.next()), &rules) {
        if next.round_wind != ctx.round_wind {
            assert_eq!(next.dealer, E);
            rounds.push(next.round_wind);
        }
        ctx = next;
        deals += 1;
    }
    assert_eq!(deals, 16);
    assert_eq!(rounds, vec![E, S, W, N]);

    // And with real deals: the game ends, and only draws or dealer wins repeat a dealer.
    let mut ctx = DealContext::FIRST;
    let mut seed = 0;
    let mut played = 0;
    loop {
        let mut deal = Deal::new(rules, seed, ctx).unwrap();
        let mut list = ActionList::new();
        while !deal.is_over() {
            deal.legal_actions(&mut list);
            deal.play(list[0]).unwrap();
        }
        played += 1;
        seed += 1;
        match ctx.next(deal.result().unwrap(), &rules) {
            Some(next) => ctx = next,
            None => break,
        }
        assert!(played < 10_000);
    }
    assert!(played >= 16);
}

#[test]
fn first_turn_source_and_views_hide_hidden_information() {
    let deal = Deal::new(Rules::TAIWAN16, 11, DealContext::FIRST).unwrap();
    assert_eq!(deal.to_act(), Some(E));
    let _ = DrawSource::Deal;
    let view = deal.view(S);
    assert_eq!(view.hand(), deal.hand(S));
    assert_eq!(view.hand_len(E), 17);
    assert_eq!(view.drawn_tile(), None, "not S's turn");
}

#[test]
fn seven_flowers_rob_during_the_initial_replacement() {
    // The dealer shows seven flowers first; S then shows the eighth from its dealt hand.
    let hands = [
        "f1f2f3f4f5f6f7 123m456m789mE",
        "f8 1s2s3s4s5s6s7s8s9s1p2p3pSSS",
        "11p22p44p55p66p77p88p99p",
        "WWNNCCFFPP1m2m3m4m5m6m",
    ];
    for rob in [true, false] {
        let mut deal = rigged(Rules::TAIWAN16, hands, "", "4p5p6p7p8p9p3s 9m");
        assert_eq!(deal.to_act(), Some(E));
        assert_eq!(deal.flower_on_offer(), Some(Flower::Bamboo));
        if rob {
            play(&mut deal, E, Action::Win);
            let r = deal.result().unwrap();
            assert_eq!((r.outcome, r.payer), (Outcome::FlowerWin, Some(S)));
            assert_eq!(deal.hand(S).len(), 15, "S never drew its replacement");
        } else {
            play(&mut deal, E, Action::Pass);
            assert_eq!(deal.hand(S).count(t("9m")), 1, "S's replacement");
            assert_eq!(deal.to_act(), Some(E));
            assert!(deal.drawn_tile().is_none(), "the dealer's first turn");
        }
    }
}

// ----- Taizhou's table procedure ------------------------------------------------------------

fn rigged_taizhou(rules: Rules, hands: [&str; 4], indicator: &str) -> Deal {
    taizhou_wall(rules, hands, indicator, "", "")
}

/// A Taizhou deal on an arranged wall: `live` the draws after the deal, `back` the kong
/// replacements, in order.
fn taizhou_wall(rules: Rules, hands: [&str; 4], indicator: &str, live: &str, back: &str) -> Deal {
    let parse = |s: &str| {
        if s.is_empty() {
            vec![]
        } else {
            parse_wall_tiles(s).unwrap()
        }
    };
    let hands: Vec<_> = hands.iter().map(|h| parse(h)).collect();
    let wall = Wall::arranged_with_indicator(
        &rules,
        E,
        [&hands[0], &hands[1], &hands[2], &hands[3]],
        Some(parse(indicator)[0]),
        &parse(live),
        &parse(back),
    )
    .unwrap();
    let deal = Deal::with_wall(rules, 0, DealContext::FIRST, wall);
    deal.validate().unwrap();
    deal
}

#[test]
fn taizhou_deals_by_fours_then_jumps_and_turns_up_the_indicator() {
    // taizhou.md 「摸牌」: 「每次2摞(4张)…每人3轮，各家12张」, then 「跳牌：…庄家再摸第1张和第5张，
    // 其他人不跳牌仅摸1张」 (dealer 14, others 13); 「得牌」: 「每局各家摸牌结束后，桌面上的第一张牌
    // 即为得牌」, 「当前翻过来的…不可用于牌局」. The wall in kind order makes each position's
    // owner readable: position p holds kind p / 4.
    let tiles: Vec<_> = (0..136u8)
        .map(|p| taisim_sim::WallTile::tile(taisim_sim::Tile::new(p / 4)))
        .collect();
    let wall = Wall::from_draw_order(&tiles, [3, 4, 2, 3]);
    let deal = Deal::with_wall(Rules::TAIZHOU, 0, DealContext::FIRST, wall);
    deal.validate().unwrap();
    // Turns: E takes 0–3, 16–19, 32–35; S 4–7, …; then 48 E, 49 S, 50 W, 51 N, 52 E (跳牌).
    assert_eq!(deal.hand(E).to_string(), "111155559999m45p");
    assert_eq!(deal.hand(S).to_string(), "22226666m11114p");
    assert_eq!(deal.hand(W).to_string(), "33337777m22224p");
    assert_eq!(deal.hand(N).to_string(), "44448888m33334p");
    // Position 53 is turned up: 5p is the wild kind, set aside face up, never drawn.
    assert_eq!(
        deal.wild_indicator(),
        Some(parse_wall_tiles("5p").unwrap()[0])
    );
    assert_eq!(deal.wild(), Some(t("5p")));
    assert_eq!(deal.tiles_left(), 136 - 54);
    // E holds one 5p and the indicator is another: two are left in the wall.
    let five_p = parse_wall_tiles("5p").unwrap()[0];
    let in_wall = deal
        .wall()
        .undrawn()
        .iter()
        .filter(|&&w| w == five_p)
        .count();
    assert_eq!(in_wall, 2);
    assert_eq!(deal.shown_counts()[t("5p").index()], 1);
    let view = deal.view(S);
    assert_eq!(view.wild(), Some(t("5p")));
    // S sees the indicator; E sees it and its own 5p.
    assert_eq!(view.seen_counts()[t("5p").index()], 1);
    assert_eq!(deal.view(E).seen_counts()[t("5p").index()], 2);
    assert_eq!(deal.wall().dice(), [3, 4, 2, 3]);
    assert_eq!(deal.to_act(), Some(E));
    // Nothing is kept back (「打到最后」): every one of the 82 may be drawn.
    assert_eq!(deal.drawable(), 82);
}

/// E (dealer) discards 8s; S holds 6s7s and a wild 9s (the indicator is 9s).
const WILD_CHOW_HANDS: [&str; 4] = [
    "8s1m4m7m1p4p7pESWNCFP",
    "6s7s9s2m5m8m2p5p8pESWN",
    "3m6m9m3p6p9pESWNCFP",
    "1s2s3s4s5s1m2m3m9pCFP2s",
];

/// E discards a wild 9s; S holds 7s8s, W two wilds, N waits on P (白板, read as 9s) or C.
const WILD_PUNG_HANDS: [&str; 4] = [
    "9s1m4m7m1p4p7pESWNCFP",
    "7s8s2m5m8m2p5p8pESWNC",
    "9s9s3m6m9m3p6p9pESWNF",
    "1s2s3s4s5s6s1m2m3mPPCC",
];

#[test]
fn wilds_never_take_part_in_a_claim() {
    // taizhou.md 「得牌」: 「…也不能参与吃 / 碰 / 杠」. A wild in hand helps no chow.
    let mut deal = rigged_taizhou(Rules::TAIZHOU, WILD_CHOW_HANDS, "9s");
    play(&mut deal, E, Action::Discard(t("8s")));
    assert_eq!(legal(&deal), vec![Action::Chow(t("6s")), Action::Pass]);
    // Where the rules let the wild kind claim as itself, 7s+9s chows too.
    let open = Rules {
        wilds_in_claims: true,
        ..Rules::TAIZHOU
    };
    let mut deal = rigged_taizhou(open, WILD_CHOW_HANDS, "9s");
    play(&mut deal, E, Action::Discard(t("8s")));
    assert_eq!(
        legal(&deal),
        vec![Action::Chow(t("7s")), Action::Chow(t("6s")), Action::Pass]
    );

    // A discarded wild is dead (the choice documented at `Rules::wilds_in_claims`): S's 7s8s
    // do not chow it, W's two wilds do not pung it, and N, ready on P or C (PP read as 9s9s),
    // may not win on it although a wild drawn would complete its hand. Nobody is asked: S
    // draws.
    let mut deal = rigged_taizhou(Rules::TAIZHOU, WILD_PUNG_HANDS, "9s");
    assert!(deal.waits(N).contains(t("9s")) && deal.waits(N).contains(t("C")));
    play(&mut deal, E, Action::Discard(t("9s")));
    assert_eq!(deal.to_act(), Some(S));
    assert!(deal.drawn_tile().is_some());
    assert!(legal(&deal).iter().all(|a| matches!(a, Action::Discard(_))));
    // Where the wild kind takes part in claims, the discarded wild is a 9s to the others: N
    // wins on it, or S chows it and W pungs it.
    let mut deal = rigged_taizhou(open, WILD_PUNG_HANDS, "9s");
    play(&mut deal, E, Action::Discard(t("9s")));
    assert_eq!(legal(&deal), vec![Action::Chow(t("7s")), Action::Pass]);
    play(&mut deal, S, Action::Pass);
    assert_eq!(deal.to_act(), Some(W));
    assert_eq!(legal(&deal), vec![Action::Pung, Action::Pass]);
    play(&mut deal, W, Action::Pass);
    assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
    play(&mut deal, N, Action::Win);
    assert_eq!(deal.result().unwrap().win_tile, Some(t("9s")));
}

#[test]
fn an_arranged_wall_needs_an_indicator_exactly_when_the_procedure_turns_one_up() {
    let hands: Vec<_> = WILD_CHOW_HANDS
        .iter()
        .map(|h| parse_wall_tiles(h).unwrap())
        .collect();
    let hands = [&hands[0][..], &hands[1], &hands[2], &hands[3]];
    assert_eq!(
        Wall::arranged(&Rules::TAIZHOU, E, hands, &[], &[]),
        Err(taisim_sim::WallError::Indicator)
    );
    let nine_s = parse_wall_tiles("9s").unwrap()[0];
    // A fourth 9s: the indicator counts against the wall's copies like any placed tile.
    let too_many: Vec<_> = parse_wall_tiles("9s9s9s1m4m7m1p4p7pESWNC").unwrap();
    assert_eq!(
        Wall::arranged_with_indicator(
            &Rules::TAIZHOU,
            E,
            [&too_many, hands[1], hands[2], hands[3]],
            Some(nine_s),
            &[],
            &[]
        ),
        Err(taisim_sim::WallError::TooMany(nine_s))
    );
}

/// Plays `(seat, action)` in order, checking each seat is the one to act.
fn script(deal: &mut Deal, steps: &[(Seat, Action)]) {
    for &(seat, action) in steps {
        play(deal, seat, action);
    }
}

fn discard(s: &str) -> Action {
    Action::Discard(t(s))
}

/// W holds 33m and 77s; E and S each hold one 3m, N holds 77s. Nobody holds an honor, so
/// the honors drawn are discarded unclaimed. The indicator is 9p.
const PUNG_PASS_HANDS: [&str; 4] = [
    "3m1p4p7p1s4s8s2m6m9m5p2s5s8p",
    "3m1p4p7p2s5s8s6m9m3p6p8p1s",
    "3m3m7s7s1p4p7p2s5s3p6p1s4s",
    "7s7s2m5m8m2p5p8p3s6s9s4m1m",
];

#[test]
fn taizhou_passing_a_pung_bars_that_kind_until_own_discard() {
    // taizhou.md 「碰牌」: 「且在本轮里，不能弃先碰后(第一个先打的没碰，第二个接着打也不能碰）」, read
    // by shared/rules/README.md ("Claims"): a player who passes a pung on a tile kind may not
    // pung that kind again until after their own next turn.
    let live = "E S W N C F E";
    for missed_pung in [true, false] {
        let rules = Rules {
            missed_pung,
            ..Rules::TAIZHOU
        };
        let mut deal = taizhou_wall(rules, PUNG_PASS_HANDS, "9p", live, "");
        play(&mut deal, E, discard("3m"));
        assert_eq!(legal(&deal), vec![Action::Pung, Action::Pass]);
        play(&mut deal, W, Action::Pass);
        assert_eq!(deal.pung_barred(W).contains(t("3m")), missed_pung);
        assert_eq!(deal.view(W).pung_barred(), deal.pung_barred(W));
        assert!(deal.pung_barred(N).is_empty(), "only the seat that passed");
        assert_eq!(deal.drawn_tile(), Some(t("E")));
        play(&mut deal, S, discard("3m"));
        if !missed_pung {
            // Without the rule the second 3m is offered again.
            assert_eq!(legal(&deal), vec![Action::Pung, Action::Pass]);
            continue;
        }
        // The second 3m, before W's own turn: W is not asked, it draws.
        assert_eq!(deal.to_act(), Some(W));
        assert_eq!(deal.drawn_tile(), Some(t("S")));
        // Its own discard lifts the bar.
        play(&mut deal, W, discard("S"));
        assert!(deal.pung_barred(W).is_empty());
        // A pass on 7s bars 7s alone; after W's next discard 7s may be punged again.
        assert_eq!(deal.drawn_tile(), Some(t("W")));
        play(&mut deal, N, discard("7s"));
        assert_eq!(legal(&deal), vec![Action::Pung, Action::Pass]);
        play(&mut deal, W, Action::Pass);
        assert_eq!(
            deal.pung_barred(W).iter().collect::<Vec<_>>(),
            vec![t("7s")]
        );
        script(
            &mut deal,
            &[(E, discard("N")), (S, discard("C")), (W, discard("F"))],
        );
        assert!(deal.pung_barred(W).is_empty());
        play(&mut deal, N, discard("7s"));
        assert_eq!(legal(&deal), vec![Action::Pung, Action::Pass]);
        play(&mut deal, W, Action::Pung);
        assert_eq!(deal.melds(W)[0].to_string(), "pung:777s");
    }
}

// ----- Facts for 全包 (taizhou.md 「全包情况」) -----------------------------------------------

/// Scattered non-dealer hands that neither claim nor win on what the facts scenarios throw.
const W_SCATTERED: &str = "1m4m7m1p4p2s5s8sESWNF";
const N_SCATTERED: &str = "2m5m8m3p6p3s6s9sESWNF";

fn facts_after(hands: [&str; 4], live: &str, steps: &[(Seat, Action)]) -> taisim_sim::DiscardFacts {
    let mut deal = taizhou_wall(Rules::TAIZHOU, hands, "9p", live, "");
    script(&mut deal, steps);
    let r = deal.result().expect("the deal is over");
    assert_eq!(r.outcome, Outcome::Discard);
    deal.discard_facts().expect("won on a discard")
}

#[test]
fn discard_facts_of_the_dealers_first_discard() {
    // 「全包情况」 2 and 3 turn on whether the discarder was ready, could have been, and
    // whether the tile was 生张. E's first discard: nothing was in sight but the indicator.
    // S waits on C (tanki) in the first case and on 1s in the others.
    let s_on_c = "2s3s4s5s6s7s2p3p4p6p7p8pC";
    let s_on_1s = "2s3s4s5s6s7s2p3p4p6p7p8p1s";
    let e = "1m2m3m4m5m6m7m8m9m1s1s5p7pC";
    // E throws C and stays ready on 6p.
    let f = facts_after(
        [e, s_on_c, W_SCATTERED, N_SCATTERED],
        "",
        &[(E, discard("C")), (S, Action::Win)],
    );
    assert_eq!((f.discarder, f.tile, f.robbed_kong), (E, t("C"), false));
    assert!(!f.declined_win && f.ready_after && f.could_be_ready && f.first_seen);
    // E throws a 1s: it could have been ready (throwing C) and is not.
    let f = facts_after(
        [e, s_on_1s, W_SCATTERED, N_SCATTERED],
        "",
        &[(E, discard("1s")), (S, Action::Win)],
    );
    assert_eq!(f.tile, t("1s"));
    assert!(!f.declined_win && !f.ready_after && f.could_be_ready && f.first_seen);
    // Two shapes short: no discard would have made it ready.
    let far = "1m2m3m4m5m6m7m8m9m1s3s5p7pC";
    let f = facts_after(
        [far, s_on_1s, W_SCATTERED, N_SCATTERED],
        "",
        &[(E, discard("1s")), (S, Action::Win)],
    );
    assert!(!f.declined_win && !f.ready_after && !f.could_be_ready && f.first_seen);
    // 「当能胡的时候不胡」: E's dealt hand is complete (天胡 on offer) and it throws a 1s.
    let complete = "1m2m3m4m5m6m7m8m9m1s1s5p6p7p";
    let mut deal = taizhou_wall(
        Rules::TAIZHOU,
        [complete, s_on_1s, W_SCATTERED, N_SCATTERED],
        "9p",
        "",
        "",
    );
    assert!(legal(&deal).contains(&Action::SelfDrawWin));
    assert_eq!(deal.discard_facts(), None, "not over");
    script(&mut deal, &[(E, discard("1s")), (S, Action::Win)]);
    let f = deal.discard_facts().unwrap();
    assert!(f.declined_win && f.ready_after && f.could_be_ready && f.first_seen);
}

/// E throws C first; S waits on C (tanki) and W on the E wind (tanki).
const PASSED_WIN_HANDS: [&str; 4] = [
    "1m2m3m4m5m6m7m8m9m1s1s5p7pC",
    "2s3s4s5s6s7s2p3p4p6p7p8pC",
    "1m2m3m4m5m6m7m8m9m1p1p1pE",
    "2m5m8m3p4p6p3s6s9sSWNF",
];

#[test]
fn discard_facts_remember_a_passed_win_until_the_next_discard() {
    // 「全包情况」 1: 「当能胡的时候不胡」. S passes a win on E's C; the very next tile it throws
    // is won on: it declined a win.
    let f = facts_after(
        PASSED_WIN_HANDS,
        "E",
        &[
            (E, discard("C")),
            (S, Action::Pass),
            (S, discard("E")),
            (W, Action::Win),
        ],
    );
    assert_eq!((f.discarder, f.tile), (S, t("E")));
    assert!(f.declined_win && f.ready_after && f.could_be_ready && f.first_seen);
    // The same pass, but S throws once more (unclaimed) before the tile W wins on: that
    // discard cleared it.
    let f = facts_after(
        PASSED_WIN_HANDS,
        "F 9s N S E",
        &[
            (E, discard("C")),
            (S, Action::Pass),
            (S, discard("F")),
            (W, discard("9s")),
            (N, discard("N")),
            (E, discard("S")),
            (S, discard("E")),
            (W, Action::Win),
        ],
    );
    assert_eq!((f.discarder, f.tile), (S, t("E")));
    assert!(!f.declined_win && f.ready_after && f.first_seen);
}

#[test]
fn discard_facts_count_the_river_as_seen() {
    // 生张 (「全包情况」 2): E's C lies in the river when S throws the second C. W only becomes
    // ready on C after that first C (it was waiting on 2s), so it could not take E's.
    let hands = [
        "1m2m3m4m5m6m7m8m9m1s1s5p7pC",
        "2s3s4s5s6s7s2p3p4p6p7p8pF",
        "1m2m3m4m5m6m7m8m9m1p1p1p2s",
        "2m5m8m3p6p1p4p3s6s9sEEF",
    ];
    let f = facts_after(
        hands,
        "S C N W C",
        &[
            (E, discard("C")),
            (S, discard("S")),
            (W, discard("2s")),
            (N, discard("N")),
            (E, discard("W")),
            (S, discard("C")),
            (W, Action::Win),
        ],
    );
    assert_eq!((f.discarder, f.tile), (S, t("C")));
    assert!(!f.first_seen && !f.declined_win && f.ready_after && f.could_be_ready);
}

#[test]
fn discard_facts_only_for_discard_wins() {
    // A self-drawn win and an exhaustive draw have no discarder.
    let complete = "1m2m3m4m5m6m7m8m9m1s1s5p6p7p";
    let mut deal = taizhou_wall(
        Rules::TAIZHOU,
        [
            complete,
            "2s3s4s5s6s7s2p3p4p6p7p8p1s",
            W_SCATTERED,
            N_SCATTERED,
        ],
        "9p",
        "",
        "",
    );
    play(&mut deal, E, Action::SelfDrawWin);
    assert_eq!(deal.discard_facts(), None);
    for seed in 0..20 {
        let mut deal = Deal::new(Rules::TAIZHOU, seed, DealContext::FIRST).unwrap();
        let mut list = ActionList::new();
        while !deal.is_over() {
            deal.legal_actions(&mut list);
            let a = if list.contains(&Action::Pass) {
                Action::Pass
            } else {
                *list
                    .iter()
                    .find(|a| matches!(a, Action::Discard(_)))
                    .unwrap()
            };
            deal.play(a).unwrap();
        }
        assert_eq!(deal.result().unwrap().outcome, Outcome::ExhaustiveDraw);
        assert_eq!(deal.discard_facts(), None);
    }
}

#[test]
fn taizhou_robbing_an_added_kong_and_the_replacement_from_the_tail() {
    // taizhou.md 「杠牌」: 「杠牌的人从最尾端摸一张牌」 and 「明杠的情况下如有其他人刚好胡这张杠字，是可以
    // 胡的，就叫抢杠胡」 (README "Claims": robbing an added kong). W pungs E's 7m (N, waiting on
    // 7m with 89m, lets it go and is cleared by its own discard), draws the last 7m and adds
    // it to the pung.
    let hands = [
        "7m1m1s9s2p5p8pSWNEE3p3s",
        "1m2m3p3p6p6p7s7s4s5sWN8s",
        "7m7m8m4p4p1p1p2s2s5s6mCC",
        "8m9m1s2s3s4p5p6p2m3m4mFF",
    ];
    for rob in [true, false] {
        let mut deal = taizhou_wall(Rules::TAIZHOU, hands, "9p", "N W S 7m", "5s");
        play(&mut deal, E, discard("7m"));
        play(&mut deal, W, Action::Pung);
        assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
        script(
            &mut deal,
            &[
                (N, Action::Pass),
                (W, discard("8m")),
                (N, discard("N")),
                (E, discard("W")),
                (S, discard("S")),
            ],
        );
        assert_eq!(deal.drawn_tile(), Some(t("7m")));
        play(&mut deal, W, Action::AddedKong(t("7m")));
        assert_eq!(legal(&deal), vec![Action::Win, Action::Pass]);
        if rob {
            play(&mut deal, N, Action::Win);
            let r = deal.result().unwrap();
            assert!(r.context.robbing_kong && r.winners.contains(N));
            assert_eq!((r.payer, r.win_tile), (Some(W), Some(t("7m"))));
            // The robbed tile's facts: the pung beside it was in sight.
            let f = deal.discard_facts().unwrap();
            assert_eq!((f.discarder, f.tile, f.robbed_kong), (W, t("7m"), true));
            assert!(!f.first_seen && !f.declined_win && !f.ready_after && !f.could_be_ready);
        } else {
            play(&mut deal, N, Action::Pass);
            assert_eq!(deal.melds(W)[0].kind(), MeldKind::AddedKong);
            assert_eq!(deal.to_act(), Some(W));
            assert_eq!(deal.drawn_tile(), Some(t("5s")), "from the tail");
            assert!(deal.is_missed(N), "弃先胡后 covers a passed rob too");
        }
    }
}

#[test]
fn taizhou_dealer_stays_only_on_a_win_and_the_wall_is_played_out() {
    // taizhou.md 「庄家」: 「连庄：…庄家胡牌，庄家继续坐庄」, 「轮庄：庄家未胡牌，不再继任庄家，由下家坐
    // 庄」, 「流局：场上所有牌摸完，仍无人胡牌，则轮庄」 (README "Tiles and deal": nothing is kept
    // back from the end of the wall).
    use taisim_sim::{DealResult, SeatSet, WinContext};
    let rules = Rules::TAIZHOU;
    let ended = |outcome, winner: Option<Seat>| DealResult {
        outcome,
        winners: winner.map_or(SeatSet::EMPTY, SeatSet::single),
        payer: None,
        win_tile: None,
        context: WinContext::default(),
    };
    let c = DealContext::FIRST;
    let kept = c.next(&ended(Outcome::SelfDraw, Some(E)), &rules).unwrap();
    assert_eq!((kept.dealer, kept.streak), (E, 1));
    let passed = c.next(&ended(Outcome::Discard, Some(N)), &rules).unwrap();
    assert_eq!((passed.dealer, passed.streak), (S, 0));
    let drawn = kept
        .next(&ended(Outcome::ExhaustiveDraw, None), &rules)
        .unwrap();
    assert_eq!((drawn.dealer, drawn.streak), (S, 0));
    // Passing everything and discarding what is drawn, the deal ends with no tile left.
    for seed in 0..20 {
        let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
        let mut list = ActionList::new();
        while !deal.is_over() {
            deal.legal_actions(&mut list);
            let a = if list.contains(&Action::Pass) {
                Action::Pass
            } else {
                *list
                    .iter()
                    .find(|a| matches!(a, Action::Discard(_)))
                    .unwrap()
            };
            deal.play(a).unwrap();
        }
        assert_eq!(deal.result().unwrap().outcome, Outcome::ExhaustiveDraw);
        assert_eq!(deal.tiles_left(), 0, "seed {seed}");
        deal.validate().unwrap();
    }
}
