//! Perft fixtures: the number of distinct legal action sequences to a small depth.
//!
//! `tests/data/perft.txt` counts from the opening of taiwan16 deals (lines `seed; depth;
//! nodes`). `tests/data/perft/<rules set>.txt`, one file per rules set (each shipped variant,
//! 13 tiles without flowers, Taizhou's procedure), counts from mid-deal positions: lines
//! `seed; steps; depth; nodes`, the position being the deal of `seed` after `steps` random
//! legal actions (see [`position`]). A change in any count means the rules of play changed:
//! if that was intended, regenerate the files with
//! `PERFT_BLESS=1 cargo test -p taisim-sim --test perft` and say why in the commit.

use taisim_sim::{bounded, perft, rng_from_seed, Deal, DealContext, Rules};

#[path = "support/rule_sets.rs"]
mod rule_sets;

const FIXTURES: &str = include_str!("data/perft.txt");

fn bless() -> bool {
    std::env::var_os("PERFT_BLESS").is_some()
}

#[test]
fn perft_counts_match_fixtures() {
    let mut lines = Vec::new();
    let mut checked = 0;
    for line in FIXTURES.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            lines.push(line.to_string());
            continue;
        }
        let fields: Vec<u64> = line.split(';').map(|f| f.trim().parse().unwrap()).collect();
        let [seed, depth, nodes] = fields[..] else {
            panic!("bad fixture line {line:?}")
        };
        let deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
        let counted = perft(&deal, depth as u32);
        if bless() {
            lines.push(format!("{seed}; {depth}; {counted}"));
        } else {
            assert_eq!(counted, nodes, "seed {seed} depth {depth}");
        }
        checked += 1;
    }
    if bless() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    }
    assert!(checked >= 6);
}

/// The deal of `seed` (first of a game) after `steps` uniformly random legal actions drawn
/// with the generator of `seed ^ 0x9e7f`, or earlier if it ends first.
fn position(rules: Rules, seed: u64, steps: u64) -> Deal {
    let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
    let mut rng = rng_from_seed(seed ^ 0x9e7f);
    for _ in 0..steps {
        if deal.is_over() {
            break;
        }
        let legal = deal.legal();
        deal.play(legal.get(bounded(&mut rng, legal.len() as u32) as usize))
            .unwrap();
    }
    deal
}

/// The positions a fresh fixture file holds: seeds 1–4 after 0, 12, 30 and 55 steps, to
/// depth 3 (depth 4 from the opening).
fn fresh_lines() -> Vec<(u64, u64, u32)> {
    let mut lines = Vec::new();
    for seed in 1..=4 {
        for steps in [0, 12, 30, 55] {
            lines.push((seed, steps, if steps == 0 { 4 } else { 3 }));
        }
    }
    lines
}

#[test]
fn mid_deal_perft_counts_match_each_rule_sets_fixtures() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft");
    for (name, rules) in rule_sets::rule_sets() {
        let path = format!("{dir}/{name}.txt");
        if bless() {
            let mut text = format!(
                "# seed; steps; depth; nodes — {name} rules, first deal of a game, the \
                 position after `steps` random legal actions (tests/perft.rs `position`)\n"
            );
            for (seed, steps, depth) in fresh_lines() {
                let counted = perft(&position(rules, seed, steps), depth);
                text += &format!("{seed}; {steps}; {depth}; {counted}\n");
            }
            std::fs::write(&path, text).unwrap();
        }
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e} (bless with PERFT_BLESS=1)"));
        let mut checked = 0;
        let mut mid_deal = 0;
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fields: Vec<u64> = line.split(';').map(|f| f.trim().parse().unwrap()).collect();
            let [seed, steps, depth, nodes] = fields[..] else {
                panic!("{path}: bad fixture line {line:?}")
            };
            let deal = position(rules, seed, steps);
            mid_deal += u64::from(!deal.is_over() && deal.steps() as u64 == steps && steps > 0);
            assert_eq!(
                perft(&deal, depth as u32),
                nodes,
                "{name}: seed {seed} after {steps} steps, depth {depth}"
            );
            checked += 1;
        }
        assert!(checked >= 12, "{path}: {checked} lines");
        assert!(mid_deal >= 8, "{path}: {mid_deal} mid-deal positions");
    }
}

#[test]
fn perft_depth_one_is_the_legal_action_count() {
    let deal = Deal::new(Rules::TAIWAN16, 1, DealContext::FIRST).unwrap();
    let mut list = taisim_sim::ActionList::new();
    deal.legal_actions(&mut list);
    assert_eq!(perft(&deal, 1), list.len() as u64);
    assert_eq!(perft(&deal, 0), 1);
}
