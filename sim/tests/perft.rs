//! Perft fixtures: for fixed seeds, the number of distinct legal action sequences to a small
//! depth (`tests/data/perft.txt`, lines `seed; depth; nodes`). A change in any count means the
//! rules of play changed: if that was intended, regenerate the file with
//! `PERFT_BLESS=1 cargo test -p taisim-sim --test perft` and say why in the commit.

use taisim_sim::{perft, Deal, DealContext, Rules};

const FIXTURES: &str = include_str!("data/perft.txt");

#[test]
fn perft_counts_match_fixtures() {
    let bless = std::env::var_os("PERFT_BLESS").is_some();
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
        if bless {
            lines.push(format!("{seed}; {depth}; {counted}"));
        } else {
            assert_eq!(counted, nodes, "seed {seed} depth {depth}");
        }
        checked += 1;
    }
    if bless {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    }
    assert!(checked >= 6);
}

#[test]
fn perft_depth_one_is_the_legal_action_count() {
    let deal = Deal::new(Rules::TAIWAN16, 1, DealContext::FIRST).unwrap();
    let mut list = taisim_sim::ActionList::new();
    deal.legal_actions(&mut list);
    assert_eq!(perft(&deal, 1), list.len() as u64);
    assert_eq!(perft(&deal, 0), 1);
}
