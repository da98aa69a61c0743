//! Hand-algorithm throughput: each benchmark runs over a fixed array of 1024 hands, so the
//! per-call time is the reported time divided by 1024.

use std::time::Instant;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use taisim_sim::algo::{
    decompositions, for_each_decomposition, is_win, shanten, waits, warm_up, DecompositionList,
    Discards, HandRules, SpecialHands, Wild,
};
use taisim_sim::{Hand, Tile, TileSet};

const BATCH: usize = 1024;

/// A small xorshift so the bench needs no RNG crate; the hands only need to be varied.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 as u128 * n as u128) >> 64) as usize
    }
}

/// `n` tiles from a shuffled 136-tile wall.
fn random_hand(rng: &mut XorShift, n: usize) -> Hand {
    let mut wall: Vec<u8> = (0..136).map(|i| (i / 4) as u8).collect();
    let mut hand = Hand::EMPTY;
    for i in 0..n {
        let j = i + rng.below(136 - i);
        wall.swap(i, j);
        hand.add(Tile::new(wall[i]));
    }
    hand
}

/// `sets` random sets and a pair, no kind above four copies.
fn complete_hand(rng: &mut XorShift, sets: usize) -> Hand {
    loop {
        let mut counts = [0u8; 34];
        for _ in 0..sets {
            let k = rng.below(34);
            if k < 27 && k % 9 < 7 && rng.below(2) == 0 {
                (k..k + 3).for_each(|j| counts[j] += 1);
            } else {
                counts[k] += 3;
            }
        }
        counts[rng.below(34)] += 2;
        if let Ok(hand) = Hand::from_counts(&counts) {
            return hand;
        }
    }
}

/// A 16-tile hand: a complete hand minus one tile, so waits are usually nonempty.
fn ready_hand(rng: &mut XorShift) -> Hand {
    let mut hand = complete_hand(rng, 5);
    let tiles: Vec<Tile> = hand.tiles().collect();
    hand.remove(tiles[rng.below(tiles.len())]);
    hand
}

/// A taizhou hand of 4 sets and a pair (14 tiles) with up to `wilds` of its tiles replaced by
/// copies of the wild kind `wild` (never above four).
fn wild_hand(rng: &mut XorShift, wild: Tile, wilds: usize, complete: bool) -> Hand {
    let mut hand = if complete {
        complete_hand(rng, 4)
    } else {
        random_hand(rng, 14)
    };
    for _ in 0..wilds {
        let tiles: Vec<Tile> = hand.tiles().filter(|&t| t != wild).collect();
        if hand.count(wild) < 4 {
            hand.remove(tiles[rng.below(tiles.len())]);
            hand.add(wild);
        }
    }
    hand
}

fn bench(c: &mut Criterion) {
    let start = Instant::now();
    warm_up();
    println!(
        "table build: {:?}, {} bytes",
        start.elapsed(),
        taisim_sim::algo::table_bytes()
    );

    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mixed: Vec<Hand> = (0..BATCH)
        .map(|i| {
            if i % 2 == 0 {
                complete_hand(&mut rng, 5)
            } else {
                random_hand(&mut rng, 17)
            }
        })
        .collect();
    let random17: Vec<Hand> = (0..BATCH).map(|_| random_hand(&mut rng, 17)).collect();
    let ready16: Vec<Hand> = (0..BATCH).map(|_| ready_hand(&mut rng)).collect();
    let random16: Vec<Hand> = (0..BATCH).map(|_| random_hand(&mut rng, 16)).collect();
    let complete: Vec<Hand> = (0..BATCH).map(|_| complete_hand(&mut rng, 5)).collect();

    c.bench_function("is_win x1024 (half complete, 17 tiles)", |b| {
        b.iter(|| {
            let mut wins = 0;
            for h in &mixed {
                wins += usize::from(is_win(black_box(h), HandRules::regular(5)));
            }
            wins
        })
    });
    c.bench_function("shanten x1024 (random 17 tiles)", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for h in &random17 {
                sum += i32::from(shanten(black_box(h), HandRules::regular(5)));
            }
            sum
        })
    });
    c.bench_function("waits x1024 (16 tiles, one from complete)", |b| {
        b.iter(|| {
            let mut n = 0;
            for h in &ready16 {
                n += waits(black_box(h), HandRules::new(5, SpecialHands::NONE)).len();
            }
            n
        })
    });
    c.bench_function("waits x1024 (random 16 tiles)", |b| {
        b.iter(|| {
            let mut n = 0;
            for h in &random16 {
                n += waits(black_box(h), HandRules::new(5, SpecialHands::NONE)).len();
            }
            n
        })
    });
    c.bench_function("waits x1024 (16 tiles, all specials on)", |b| {
        b.iter(|| {
            let mut n = 0;
            for h in &ready16 {
                n += waits(black_box(h), HandRules::new(5, SpecialHands::ALL)).len();
            }
            n
        })
    });
    // Taizhou: 5p wild, 白板 standing in, every set holding a real tile; 0 to 3 wilds.
    let wild = Tile::new(13);
    let taizhou = HandRules::regular(4).with_wild(Wild::taizhou(wild, true));
    let wild14: Vec<Hand> = (0..BATCH)
        .map(|i| wild_hand(&mut rng, wild, i % 4, i % 2 == 0))
        .collect();
    let wild13: Vec<Hand> = wild14
        .iter()
        .map(|h| {
            let mut h = *h;
            let tiles: Vec<Tile> = h.tiles().collect();
            h.remove(tiles[rng.below(tiles.len())]);
            h
        })
        .collect();
    c.bench_function(
        "is_win x1024 (taizhou wild, half complete, 14 tiles)",
        |b| {
            b.iter(|| {
                let mut wins = 0;
                for h in &wild14 {
                    wins += usize::from(is_win(black_box(h), taizhou));
                }
                wins
            })
        },
    );
    c.bench_function("shanten x1024 (taizhou wild, 14 tiles)", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for h in &wild14 {
                sum += i32::from(shanten(black_box(h), taizhou));
            }
            sum
        })
    });
    c.bench_function("waits x1024 (taizhou wild, 13 tiles)", |b| {
        b.iter(|| {
            let mut n = 0;
            for h in &wild13 {
                n += waits(black_box(h), taizhou).len();
            }
            n
        })
    });
    // Greedy's tie-break under a wild: every discard's improving kinds, from one scan.
    let every_kind: TileSet = Tile::ALL.into_iter().collect();
    c.bench_function(
        "improving kinds of every discard x1024 (taizhou wild, 14 tiles)",
        |b| {
            b.iter(|| {
                let mut n = 0;
                for h in &wild14 {
                    let scan = Discards::new(black_box(h), taizhou);
                    let improving = scan.improving_kinds(h.kinds(), every_kind);
                    n += improving.iter().map(|s| s.len()).sum::<u32>();
                }
                n
            })
        },
    );
    // Scoring a win under a wild lists every reading of the hand.
    c.bench_function(
        "readings x1024 (taizhou wild, half complete, 14 tiles)",
        |b| {
            b.iter(|| {
                let mut n = 0;
                for h in &wild14 {
                    for_each_decomposition(black_box(h), taizhou, |_| n += 1);
                }
                n
            })
        },
    );
    c.bench_function("decompositions x1024 (complete 17 tiles)", |b| {
        let mut out = DecompositionList::new();
        b.iter(|| {
            let mut n = 0;
            for h in &complete {
                decompositions(black_box(h), HandRules::regular(5), &mut out);
                n += out.len();
            }
            n
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
