//! The built-in agents play Taizhou (taizhou.md, read by shared/rules/README.md "taizhou:
//! readings the project adopts"): they finish every deal with legal actions, measure their
//! hands with the deal's wild (得牌), keep a wild unless every other choice is worse, and the
//! defensive agent avoids the 全包 of dealing in with a fresh dragon while not ready.

use taisim_agents::knowledge::{hand_rules, sets_needed, shown_counts, unseen_counts};
use taisim_agents::{Agent, BuiltinAgent, DefensiveAgent, GreedyAgent, RandomAgent};
use taisim_sim::algo::{self, HandRules};
use taisim_sim::{
    parse_tile, parse_wall_tiles, Action, ActionList, Deal, DealContext, Hand, Rules, Seat, Tile,
    Wall, Wind,
};

fn t(s: &str) -> Tile {
    parse_tile(s).unwrap()
}

/// A taizhou deal whose wall deals `hands` (E S W N; E the dealer, 14 tiles) and turns up
/// `indicator` as the wild indicator.
fn rigged(hands: [&str; 4], indicator: &str, live: &str) -> Deal {
    let rules = Rules::TAIZHOU;
    let hands: Vec<_> = hands.iter().map(|h| parse_wall_tiles(h).unwrap()).collect();
    let indicator = parse_wall_tiles(indicator).unwrap()[0];
    let wall = Wall::arranged_with_indicator(
        &rules,
        Wind::East,
        [&hands[0], &hands[1], &hands[2], &hands[3]],
        Some(indicator),
        &if live.is_empty() {
            Vec::new()
        } else {
            parse_wall_tiles(live).unwrap()
        },
        &[],
    )
    .unwrap();
    let deal = Deal::with_wall(rules, 0, DealContext::FIRST, wall);
    deal.validate().unwrap();
    deal
}

/// The deal's shanten of the seat's hand after a one-tile discard.
fn shanten_after(deal: &Deal, seat: Seat, discard: Tile, rules: HandRules) -> i8 {
    let mut h = *deal.hand(seat);
    h.remove(discard);
    algo::shanten(&h, rules)
}

/// The agents' hand rules are the deal's: the waits they give are the deal's own waits,
/// for every seat at every step of many deals (so shanten and ukeire count the wild as the
/// deal's win and ready checks do).
#[test]
fn agents_judge_hands_by_the_deals_rules() {
    let mut legal = ActionList::new();
    let mut agent = GreedyAgent::new();
    let mut checked = 0u32;
    let mut wild_held = 0u32;
    for seed in 0..300u64 {
        let mut deal = Deal::new(Rules::TAIZHOU, seed, DealContext::FIRST).unwrap();
        let wild = deal.wild().expect("taizhou turns up a wild indicator");
        while let Some(seat) = deal.to_act() {
            for s in Seat::ALL {
                let view = deal.view(s);
                let rules = hand_rules(&view, sets_needed(&view));
                assert_eq!(rules.wild.map(|w| w.kind()), Some(wild));
                let hand = deal.hand(s);
                if hand.len() % 3 == 1 {
                    assert_eq!(
                        algo::waits(hand, rules),
                        view.waits(),
                        "seed {seed} seat {s:?}"
                    );
                    checked += 1;
                    wild_held += (hand.count(wild) > 0) as u32;
                }
            }
            deal.legal_actions(&mut legal);
            let action = agent.act(&deal.view(seat), &legal);
            deal.play(action).unwrap();
        }
    }
    assert!(
        checked > 20_000 && wild_held > 5_000,
        "{checked} {wild_held}"
    );
}

/// Thousands of seeded taizhou deals played to the end by each agent (and mixed tables),
/// every action legal (`play` checks it) and the deal valid after every step.
#[test]
fn every_agent_plays_taizhou_deals_to_the_end() {
    let mut legal = ActionList::new();
    let tables: [[&str; 4]; 4] = [
        ["random"; 4],
        ["greedy"; 4],
        ["defensive"; 4],
        ["greedy", "defensive", "random", "defensive"],
    ];
    for names in tables {
        let mut agents: Vec<BuiltinAgent> = names
            .iter()
            .map(|n| match *n {
                "random" => BuiltinAgent::Random(RandomAgent::new()),
                "greedy" => BuiltinAgent::Greedy(GreedyAgent::new()),
                _ => BuiltinAgent::Defensive(DefensiveAgent::new()),
            })
            .collect();
        let mut wins = 0u32;
        let deals = 500u64;
        for seed in 0..deals {
            let context = DealContext {
                round_wind: Wind::East,
                dealer: Wind::new((seed % 4) as u8),
                streak: 0,
            };
            let mut deal = Deal::new(Rules::TAIZHOU, seed, context).unwrap();
            for seat in Seat::ALL {
                agents[seat as usize].reset(deal.seed(), seat);
            }
            let mut steps = 0;
            while let Some(seat) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let action = agents[seat as usize].act(&deal.view(seat), &legal);
                assert!(legal.contains(&action), "{names:?} seed {seed}: {action:?}");
                deal.play(action).unwrap();
                if let Err(e) = deal.validate() {
                    panic!("{names:?} seed {seed} after {action:?}: {e}");
                }
                steps += 1;
                assert!(steps < 10_000, "{names:?} seed {seed} does not end");
            }
            let result = deal.result().expect("a finished deal has a result");
            wins += !result.winners.is_empty() as u32;
        }
        // Agents that pursue a hand win most deals; random ones almost never.
        if names[0] != "random" {
            assert!(wins as u64 > deals / 4, "{names:?}: {wins} wins");
        }
    }
}

/// The other seats' hands of the rigged positions (13 tiles each), clear of the tiles the
/// positions give the dealer.
const OTHERS: [&str; 3] = [
    "2p2p4p4p6p6p1s1s2s2s3s4s5s",
    "7p7p8p8p9p9p6s6s7s7s8s8s9s",
    "1m2m3m4m5m6m7m8m9mSSNN",
];

/// taizhou.md 「得牌」: a wild 「可以当作任何牌」. In each position E (the dealer, to discard)
/// holds one wild that completes a set with tiles beside it; discarding it raises the
/// shanten, while a reading without wilds sees a loose tile no worse than E's others.
#[test]
fn greedy_keeps_a_wild_that_its_measure_values() {
    // (E's hand, indicator): the wild is the indicator's kind.
    let cases = [
        // 3p 5p and a wild read as 4p make a set; E and W are the loose tiles.
        ("123m456m789m1p3p5pEW", "1p"),
        // S S and a wild read as S make a pung, or C and a wild a pair; W is loose.
        ("123m456m789m9sSSCW", "9s"),
    ];
    for (hand, indicator) in cases {
        let deal = rigged([hand, OTHERS[0], OTHERS[1], OTHERS[2]], indicator, "");
        let wild = t(indicator);
        let mut legal = ActionList::new();
        deal.legal_actions(&mut legal);
        let view = deal.view(Wind::East);
        let rules = hand_rules(&view, sets_needed(&view));
        let action = GreedyAgent::new().act(&view, &legal);
        let Action::Discard(d) = action else {
            panic!("{hand}: {action:?}");
        };
        assert_ne!(d, wild, "{hand}: greedy gave up its wild");
        assert_eq!(shanten_after(&deal, Wind::East, d, rules), 0, "{hand}");
        assert_eq!(shanten_after(&deal, Wind::East, wild, rules), 1, "{hand}");
        // Without the wild the 1p/9s is one more loose tile: the position separates a
        // wild-aware measure from one that is not.
        let plain = HandRules::regular(rules.sets);
        assert!(
            shanten_after(&deal, Wind::East, wild, plain)
                <= shanten_after(&deal, Wind::East, d, plain),
            "{hand}"
        );
    }
}

/// The unseen copies of the kinds whose draw lowers the shanten of `hand`, one query per kind.
fn ukeire(hand: &Hand, rules: HandRules, unseen: &[u8; Tile::NUM]) -> u32 {
    let now = algo::shanten(hand, rules);
    let mut total = 0;
    for k in Tile::ALL {
        if unseen[k.index()] > 0 && hand.count(k) < 4 {
            let mut h = *hand;
            h.add(k);
            if algo::shanten(&h, rules) < now {
                total += u32::from(unseen[k.index()]);
            }
        }
    }
    total
}

/// Greedy discards a wild only when every other discard is worse by its own measure: a
/// higher shanten, or the same shanten and fewer unseen tiles to improve it. Checked at every
/// turn of greedy tables over many deals where greedy holds a wild.
#[test]
fn greedy_discards_a_wild_only_when_everything_else_is_worse() {
    let mut legal = ActionList::new();
    let mut agents = [0, 1, 2, 3].map(|_| GreedyAgent::new());
    let (mut held, mut given_up) = (0u32, 0u32);
    for seed in 0..400u64 {
        let mut deal = Deal::new(Rules::TAIZHOU, seed, DealContext::FIRST).unwrap();
        let wild = deal.wild().unwrap();
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            let action = agents[seat as usize].act(&view, &legal);
            let discards: Vec<Tile> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Discard(t) => Some(*t),
                    _ => None,
                })
                .collect();
            if discards.contains(&wild) && discards.len() > 1 {
                held += 1;
                if action == Action::Discard(wild) {
                    given_up += 1;
                    let rules = hand_rules(&view, sets_needed(&view));
                    let unseen = unseen_counts(&view);
                    let measure = |d: Tile| {
                        let mut h = *deal.hand(seat);
                        h.remove(d);
                        let sh = algo::shanten(&h, rules);
                        (sh, core::cmp::Reverse(ukeire(&h, rules, &unseen)))
                    };
                    let kept = measure(wild);
                    for &d in discards.iter().filter(|&&d| d != wild) {
                        assert!(
                            measure(d) > kept,
                            "seed {seed}: {d:?} is as good as the wild"
                        );
                    }
                }
            }
            deal.play(action).unwrap();
        }
    }
    assert!(held > 2_000, "{held} turns holding a wild");
    assert!(given_up < held / 10, "{given_up} of {held}");
}

/// taizhou.md 「全包情况」 2: a player who is not ready and deals in with a fresh 中/發/白
/// (「危险牌」: none played yet) pays for the whole table. E (the dealer, to discard) holds a
/// lone fresh dragon that greedy gives up (it helps only with its own copies); defensive
/// keeps the dragons when the hand left is not ready, even at a cost in shanten, and
/// discards as greedy does when the discard leaves it ready (the near miss).
#[test]
fn defensive_keeps_a_fresh_dragon_while_not_ready() {
    // (E's hand, whether discarding a dragon leaves E ready, whether another discard is as
    // close to ready).
    let cases = [
        // 9m 2s 8s are loose tiles with more to draw than C: greedy gives up C, defensive
        // one of them.
        ("123m456m78p55s9m2s8sC", false, true),
        // 白 and 中 both fresh: defensive breaks one of its three partial sets instead (only
        // two are needed).
        ("123m456m78p23s56sPC", false, true),
        ("123m456m789m23s55sC", true, true),
    ];
    let dragons = [t("P"), t("F"), t("C")];
    for (hand, ready_after, as_close) in cases {
        let deal = rigged([hand, OTHERS[0], OTHERS[1], OTHERS[2]], "1p", "");
        let mut legal = ActionList::new();
        deal.legal_actions(&mut legal);
        let view = deal.view(Wind::East);
        let rules = hand_rules(&view, sets_needed(&view));
        assert_eq!(shown_counts(&view)[t("C").index()], 0);
        let mut defensive = DefensiveAgent::new();
        assert_eq!(defensive.fresh_dragons(&view).len(), 3, "{hand}");
        let g = GreedyAgent::new().act(&view, &legal);
        let d = defensive.act(&view, &legal);
        let Action::Discard(given) = g else {
            panic!("{hand}: {g:?}")
        };
        assert!(dragons.contains(&given), "{hand}: greedy chose {g:?}");
        let dragon_shanten = shanten_after(&deal, Wind::East, given, rules);
        assert_eq!(dragon_shanten == 0, ready_after, "{hand}");
        if ready_after {
            assert_eq!(d, g, "{hand}: ready after the discard, no 全包 risk");
        } else {
            let Action::Discard(kept) = d else {
                panic!("{hand}: {d:?}")
            };
            assert!(
                !dragons.contains(&kept),
                "{hand}: defensive discarded the fresh dragon {kept:?}"
            );
            let after = shanten_after(&deal, Wind::East, kept, rules);
            assert_eq!(after == dragon_shanten, as_close, "{hand}: {after}");
        }
    }
}

/// The dragons stop being fresh once a copy lies face up: the indicator counts (with 中 as
/// the indicator, the other copies are wilds and the fresh ones are 發 and 白).
#[test]
fn a_dragon_turned_up_as_the_indicator_is_not_fresh() {
    let deal = rigged(
        ["123m456m78p23s56s9sF", OTHERS[0], OTHERS[1], OTHERS[2]],
        "C",
        "",
    );
    let view = deal.view(Wind::East);
    let fresh = DefensiveAgent::new().fresh_dragons(&view);
    assert!(!fresh.contains(t("C")));
    assert!(fresh.contains(t("F")) && fresh.contains(t("P")));
    // Under a Taiwanese variant no dragon is ever guarded.
    let deal = Deal::new(Rules::TAIWAN16, 3, DealContext::FIRST).unwrap();
    let view = deal.view(Wind::East);
    assert!(DefensiveAgent::new().fresh_dragons(&view).is_empty());
}
