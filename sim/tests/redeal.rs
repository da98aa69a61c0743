//! Determinizations ([`View::redeal`]): at every decision of random deals of every rules set,
//! a uniformly redealt deal is a legal deal (`validate`), shows the deciding seat exactly what
//! the real one shows it, offers it the same actions, and plays on to an end; and it depends on
//! nothing the seat cannot see: redealing a redealt deal with the same fill gives the same deal.

#[path = "support/rule_sets.rs"]
mod rule_sets;

use taisim_sim::{
    bounded, rng_from_seed, Action, ActionList, Deal, DealContext, Fill, MeldKind, RedealError,
    Seat, View, Wind,
};

/// Everything `view` shows, in one comparable value.
fn shown(view: &View<'_>) -> String {
    let mut s = format!(
        "seat {} hand {:?} seen {:?} left {} drawable {} offer {:?} drawn {:?} wild {:?} \
         missed {} barred {:?} waits {:?} ctx {:?} to_act {:?}",
        view.seat(),
        view.hand(),
        view.seen_counts(),
        view.tiles_left(),
        view.drawable(),
        view.tile_on_offer(),
        view.drawn_tile(),
        view.wild_indicator(),
        view.is_missed(),
        view.pung_barred(),
        view.waits(),
        view.context(),
        view.to_act().is_some(),
    );
    for seat in Wind::ALL {
        s += &format!(
            " | {seat}: len {} flowers {:?} ready {} melds {:?}",
            view.hand_len(seat),
            view.flowers(seat),
            view.declared_ready(seat),
            view.melds(seat).collect::<Vec<_>>(),
        );
    }
    s += &format!(" | river {:?}", view.discards());
    s
}

/// Answers with the first legal action until `seat` must decide (the seats asked before it
/// about a discard are asked again in a redealt deal); false if the offer passes it by.
fn advance_to(deal: &mut Deal, seat: Seat) -> bool {
    let mut legal = ActionList::new();
    while let Some(s) = deal.to_act() {
        if s == seat {
            return true;
        }
        deal.legal_actions(&mut legal);
        let pass = legal.iter().copied().find(|&a| a == Action::Pass);
        deal.play(pass.unwrap_or(legal[0])).unwrap();
        if deal.tile_on_offer().is_none() {
            return false;
        }
    }
    false
}

#[test]
fn redealt_deals_are_legal_show_the_same_and_play_to_the_end() {
    const DEALS: u64 = 300;
    let mut checked = 0u64;
    let mut with_hidden_kongs = 0u64;
    for (name, rules) in rule_sets::rule_sets() {
        for i in 0..DEALS {
            let context = DealContext {
                round_wind: Wind::new((i / 4) as u8),
                dealer: Wind::new(i as u8),
                streak: 0,
            };
            let mut deal = Deal::new(rules, i, context).unwrap();
            let mut rng = rng_from_seed(i ^ 0x5eed);
            let mut legal = ActionList::new();
            while let Some(seat) = deal.to_act() {
                let view = deal.view(seat);
                let unseen = view.unseen();
                assert_eq!(
                    unseen.counts.iter().map(|&n| n as usize).sum::<usize>(),
                    unseen.places(),
                    "{name} deal {i}: the unseen tiles fill the hidden places"
                );
                match Fill::shuffled(&unseen, &mut rng).map(|f| (view.redeal(&f), f)) {
                    Some((Ok(mut redealt), fill)) => {
                        assert!(view.can_redeal(), "{name} deal {i}");
                        redealt
                            .validate()
                            .unwrap_or_else(|e| panic!("{name} deal {i}: {e}"));
                        with_hidden_kongs +=
                            u64::from(unseen.hidden_kongs.0.iter().any(|&n| n > 0));
                        if advance_to(&mut redealt, seat) {
                            assert_eq!(shown(&redealt.view(seat)), shown(&deal.view(seat)));
                            assert_eq!(redealt.legal(), deal.legal(), "{name} deal {i}");
                            // The redealt deal differs from the real one in everything hidden
                            // (hands, kongs, wall, the answers of the seats asked before):
                            // redealing either with the same fill gives the same deal.
                            let again = redealt.view(seat).redeal(&fill).unwrap();
                            assert_eq!(again, view.redeal(&fill).unwrap(), "{name} deal {i}");
                            let other = Fill::shuffled(&unseen, &mut rng).unwrap();
                            assert_eq!(
                                view.redeal(&other).unwrap(),
                                redealt.view(seat).redeal(&other).unwrap(),
                                "{name} deal {i}: a redeal depends on the view alone"
                            );
                        } else {
                            // A seat asked before the viewer won on the redealt hands.
                            assert!(deal.tile_on_offer().is_some());
                        }
                        // Played on by random choices to an end, checked at every step.
                        while !redealt.is_over() {
                            redealt.legal_actions(&mut legal);
                            let a = legal[bounded(&mut rng, legal.len() as u32) as usize];
                            redealt.play(a).unwrap();
                            redealt
                                .validate()
                                .unwrap_or_else(|e| panic!("{name} deal {i}: {e}"));
                        }
                        checked += 1;
                    }
                    Some((Err(RedealError::NotDeciding(_)), _)) => {
                        // Only the flower and kong robs, which the viewer answers at once.
                        assert!(!view.can_redeal(), "{name} deal {i}");
                        assert!(deal.tile_on_offer().is_some() || view.flower_on_offer().is_some());
                        let legal = deal.legal();
                        assert!(legal.contains(Action::Win) && legal.len() == 2);
                    }
                    Some((Err(e), _)) => panic!("{name} deal {i}: {e}"),
                    None => panic!("{name} deal {i}: no fill"),
                }
                deal.legal_actions(&mut legal);
                let a = legal[bounded(&mut rng, legal.len() as u32) as usize];
                deal.play(a).unwrap();
            }
        }
    }
    assert!(checked > 6 * DEALS * 20, "{checked} decisions redealt");
    assert!(with_hidden_kongs > 0, "no decision faced a face-down kong");
}

#[test]
fn a_fill_that_does_not_match_the_unseen_tiles_is_refused() {
    let deal = Deal::new(taisim_sim::Rules::TAIWAN16, 3, DealContext::FIRST).unwrap();
    let seat = deal.to_act().unwrap();
    let view = deal.view(seat);
    let unseen = view.unseen();
    let mut rng = rng_from_seed(1);
    let good = Fill::shuffled(&unseen, &mut rng).unwrap();
    assert!(view.redeal(&good).is_ok());

    let mut short = good.clone();
    short.wall.pop();
    assert!(matches!(view.redeal(&short), Err(RedealError::Wall { .. })));

    // One tile swapped for one the seat holds four of or can see.
    let other = seat.next();
    let mut swapped = good.clone();
    let t = swapped.hands[other].tiles().next().unwrap();
    swapped.hands[other].remove(t);
    let seen = view.seen_counts();
    let full = taisim_sim::Tile::ALL
        .into_iter()
        .find(|k| seen[k.index()] > 0 && *k != t)
        .unwrap();
    swapped.hands[other].add(full);
    let err = view.redeal(&swapped).unwrap_err();
    assert!(matches!(err, RedealError::Counts { .. }), "{err}");

    let mut small = good.clone();
    small.hands[other].remove(t);
    assert!(matches!(
        view.redeal(&small),
        Err(RedealError::HandSize { .. })
    ));

    let mut kong = good;
    kong.kongs[other].push(t);
    assert!(matches!(view.redeal(&kong), Err(RedealError::Kongs { .. })));
    let _ = MeldKind::ConcealedKong;
}
