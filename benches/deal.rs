//! Deal throughput: complete deals played by uniformly random legal actions (claims, kongs,
//! flowers and all), on one thread; and the perft fixture counts, asserted as they are timed.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use taisim_sim::{
    perft, play_randomly, rng_from_seed, Action, ActionList, Deal, DealContext, Rules,
};

fn random_deal(seed: u64, _: &mut ActionList) -> u16 {
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
    play_randomly(&mut deal, &mut rng, |_, _| {});
    deal.steps()
}

/// The engine's floor: every claim passed, every drawn tile discarded (no melds, no wins).
fn passive_deal(seed: u64, actions: &mut ActionList) -> u16 {
    let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
    while !deal.is_over() {
        deal.legal_actions(actions);
        let a = match deal.drawn_tile() {
            Some(t) if actions.contains(&Action::Discard(t)) => Action::Discard(t),
            _ if actions.contains(&Action::Pass) => Action::Pass,
            _ => *actions
                .iter()
                .rev()
                .find(|a| matches!(a, Action::Discard(_)))
                .unwrap(),
        };
        deal.play_unchecked(a);
    }
    deal.steps()
}

fn deals(c: &mut Criterion) {
    let mut group = c.benchmark_group("deal");
    const BATCH: u64 = 1_000;
    group.throughput(Throughput::Elements(BATCH));
    let mut actions = ActionList::new();
    let mut next = 0u64;
    type Policy = fn(u64, &mut ActionList) -> u16;
    let policies: [(&str, Policy); 2] = [
        ("random_agents_1000_deals", random_deal),
        ("passive_1000_deals", passive_deal),
    ];
    for (name, play) in policies {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut steps = 0u64;
                for _ in 0..BATCH {
                    steps += play(next, &mut actions) as u64;
                    next += 1;
                }
                steps
            })
        });
    }
    group.bench_function("deal_setup_1000", |b| {
        b.iter(|| {
            let mut left = 0u64;
            for _ in 0..BATCH {
                let deal = Deal::new(Rules::TAIWAN16, next, DealContext::FIRST).unwrap();
                left += deal.tiles_left() as u64;
                next += 1;
            }
            left
        })
    });
    group.finish();

    // The deepest fixture of the perft test, asserted while it is timed.
    let fixture = include_str!("../sim/tests/data/perft.txt")
        .lines()
        .rfind(|l| !l.starts_with('#') && !l.trim().is_empty())
        .expect("a perft fixture line");
    let [seed, depth, nodes]: [u64; 3] = fixture
        .split(';')
        .map(|f| f.trim().parse().expect("a number"))
        .collect::<Vec<_>>()
        .try_into()
        .expect("seed; depth; nodes");
    let deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
    c.bench_function(&format!("perft_seed{seed}_depth{depth}"), |b| {
        b.iter(|| {
            let n = perft(&deal, depth as u32);
            assert_eq!(n, nodes, "perft fixture (sim/tests/data/perft.txt)");
            n
        })
    });
}

criterion_group!(benches, deals);
criterion_main!(benches);
