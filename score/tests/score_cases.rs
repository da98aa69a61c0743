//! Table-driven cases, one file per variant under `tests/data/score/`: each case gives a win
//! and the exact patterns it must score, the near misses that must not count, and where given
//! the wait, the dealer tai and every seat's payment. Every pattern a variant counts must
//! appear in some case and be a near miss in another.

use std::collections::BTreeMap;

use serde::Deserialize;
use taisim_score::{score, settle, Circumstances, PatternId, Variant, WinInput};
use taisim_sim::{
    parse_flowers, parse_hand, parse_tile, parse_tiles, FlowerSet, Hand, Meld, MeldKind, MeldList,
    Wind,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    variant: String,
    /// Require every pattern of the variant to apply in a case and be a near miss in
    /// another.
    #[serde(default = "yes")]
    coverage: bool,
    case: Vec<Case>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    cite: String,
    #[serde(default = "south")]
    seat: String,
    #[serde(default = "east")]
    dealer: String,
    #[serde(default = "east")]
    round: String,
    #[serde(default)]
    streak: u8,
    hand: String,
    #[serde(default)]
    melds: Vec<String>,
    #[serde(default)]
    flowers: String,
    win_tile: Option<String>,
    win: String,
    #[serde(default = "west")]
    discarder: String,
    #[serde(default)]
    context: Vec<String>,
    discards: Option<u8>,
    wait: Option<String>,
    patterns: BTreeMap<String, u16>,
    #[serde(default)]
    absent: Vec<String>,
    total: Option<u16>,
    dealer_tai: Option<u16>,
    meets_minimum: Option<bool>,
    settle: Option<BTreeMap<String, i64>>,
}

fn south() -> String {
    "S".into()
}
fn east() -> String {
    "E".into()
}
fn west() -> String {
    "W".into()
}

fn wind(s: &str) -> Wind {
    Wind::from_char(s.chars().next().unwrap()).unwrap()
}

fn input(c: &Case) -> WinInput {
    let seat = wind(&c.seat);
    let self_draw = match c.win.as_str() {
        "self_draw" => true,
        "discard" => false,
        w => panic!("{}: win {w:?}", c.name),
    };
    let mut facts = Circumstances::new(self_draw);
    for x in &c.context {
        // Cases may also name the discard a replaced kong was claimed from.
        if x == "exposed_kong_replacement" {
            facts.add("kong_replacement").unwrap();
            facts.context.exposed_kong_from = Some(wind(&c.discarder));
        } else {
            facts.add(x).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        }
    }
    let Circumstances {
        context,
        ready,
        last_copy,
        late_fresh_discard,
    } = facts;
    let mut melds = MeldList::new();
    for m in &c.melds {
        let (kind, tiles) = m.split_once(':').unwrap();
        let kind = MeldKind::from_name(kind).unwrap();
        let tiles = parse_tiles(tiles).unwrap();
        let lowest = *tiles.iter().min().unwrap();
        melds.push(Meld::new(kind, lowest, seat.add(3), 0));
    }
    WinInput {
        seat,
        dealer: wind(&c.dealer),
        round_wind: wind(&c.round),
        streak: c.streak,
        hand: if c.hand.is_empty() {
            Hand::EMPTY
        } else {
            parse_hand(&c.hand).unwrap()
        },
        melds,
        flowers: if c.flowers.is_empty() {
            FlowerSet::EMPTY
        } else {
            parse_flowers(&c.flowers).unwrap()
        },
        win_tile: c.win_tile.as_deref().map(|t| parse_tile(t).unwrap()),
        discarder: (!self_draw || context.exposed_kong_from.is_some()).then(|| wind(&c.discarder)),
        context,
        ready,
        last_copy,
        discards: c.discards,
        late_fresh_discard,
        wild: None,
    }
}

/// Runs one case file; returns the failures (all of them, not just the first).
fn run(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let variant = Variant::builtin(&file.variant).unwrap();
    let mut failures = Vec::new();
    let mut applies = 0u128;
    let mut missed = 0u128;
    for c in &file.case {
        assert!(!c.cite.is_empty(), "{}: no citation", c.name);
        let inp = input(c);
        let s = match score(&inp, &variant) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: {e}", c.name));
                continue;
            }
        };
        let got: BTreeMap<String, u16> = s
            .patterns
            .iter()
            .map(|p| (p.id.id().to_string(), p.tai))
            .collect();
        if got != c.patterns {
            failures.push(format!(
                "{}: expected {:?}\n   got {:?}",
                c.name, c.patterns, got
            ));
        }
        let total = c.total.unwrap_or_else(|| c.patterns.values().sum());
        if s.total != total {
            failures.push(format!("{}: total {} != {total}", c.name, s.total));
        }
        for id in &c.patterns {
            applies |= PatternId::from_id(id.0)
                .unwrap_or_else(|| panic!("{}: unknown id {}", c.name, id.0))
                .bit();
        }
        for id in &c.absent {
            let p = PatternId::from_id(id).unwrap_or_else(|| panic!("{}: unknown id {id}", c.name));
            missed |= p.bit();
            if s.has(p) {
                failures.push(format!("{}: near miss {id} was counted", c.name));
            }
        }
        if let Some(w) = &c.wait {
            if s.wait.name() != w {
                failures.push(format!("{}: wait {} != {w}", c.name, s.wait.name()));
            }
        }
        if let Some(d) = c.dealer_tai {
            if s.dealer_tai != d {
                failures.push(format!("{}: dealer tai {} != {d}", c.name, s.dealer_tai));
            }
        }
        if let Some(m) = c.meets_minimum {
            if s.meets_minimum != m {
                failures.push(format!("{}: meets_minimum {}", c.name, s.meets_minimum));
            }
        }
        if let Some(st) = &c.settle {
            let pay = settle(&s, &inp, &variant, st["base"], st["per_tai"]);
            assert_eq!(pay.0.iter().sum::<i64>(), 0);
            for w in Wind::ALL {
                let want = st.get(&w.to_string()).copied().unwrap_or(0);
                if pay[w] != want {
                    failures.push(format!("{}: {w} pays {} not {want}", c.name, pay[w]));
                }
            }
        }
    }
    for (p, _) in variant.patterns().filter(|_| file.coverage) {
        if applies & p.bit() == 0 {
            failures.push(format!("{path}: no case where {} applies", p.id()));
        }
        if missed & p.bit() == 0 {
            failures.push(format!("{path}: no near miss for {}", p.id()));
        }
    }
    failures
}

fn check(file: &str) {
    let path = format!("{}/tests/data/score/{file}", env!("CARGO_MANIFEST_DIR"));
    let failures = run(&path);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn taiwan16_cases() {
    check("taiwan16.toml");
}

#[test]
fn taiwan16_house_cases() {
    check("taiwan16-house.toml");
}

#[test]
fn taiwan16_2015_cases() {
    check("taiwan16-2015.toml");
}

#[test]
fn mahjongtime_cases() {
    check("mahjongtime.toml");
}
