//! Runs of every kind the harness writes, byte for byte as before the restructure of issue 26
//! (one variant object, the `table/` room, settlement through the scorer's model): taizhou's
//! all-pairs columns, full games, the decisions table, the action log, the shipped policy,
//! mixed agents and overridden stakes. `tai_variant_runs_are_byte_identical_to_before`
//! (tests/taizhou.rs) pins the plain greedy runs of the tai variants.
//!
//! Each figure is the SHA-256 of the run's files' SHA-256s as its manifest lists them (part by
//! part: decisions, wins, tai, deals), computed with the `taisim` binary of d6ab366, the commit
//! before that restructure: `taisim simulate ARGS --threads 2 --quiet --out DIR`.

use taisim_datasets::{sha256_hex, simulate, DecisionSeats, Manifest, RunOptions, RunRequest};

/// What a run of `request` writes, as one hash.
fn files_hash(request: &RunRequest) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let spec = request.spec(&out, false).unwrap();
    let options = RunOptions {
        threads: Some(2),
        ..RunOptions::default()
    };
    simulate(&spec, &out, &options).unwrap();
    let manifest = Manifest::read(&out.join("manifest.json")).unwrap();
    let mut all = String::new();
    for part in &manifest.parts {
        let files = [
            part.decisions.as_ref(),
            Some(&part.wins),
            Some(&part.tai),
            Some(&part.deals),
        ];
        for file in files.into_iter().flatten() {
            all.push_str(&file.sha256);
        }
    }
    sha256_hex(all.as_bytes())
}

fn request(variant: &str, agents: &str, seed: u64) -> RunRequest {
    RunRequest {
        variant: Some(variant.into()),
        agents: Some(agents.into()),
        seed: Some(seed),
        ..RunRequest::default()
    }
}

#[test]
fn runs_of_every_kind_are_byte_identical_to_before() {
    let seats = |s: &str| Some(s.parse::<DecisionSeats>().unwrap());
    let cases: [(&str, RunRequest, &str); 8] = [
        (
            "--variant taizhou --deals 600 --part-size 300 --agents greedy --seed 4",
            RunRequest {
                deals: Some(600),
                part_size: Some(300),
                ..request("taizhou", "greedy", 4)
            },
            "1a497bac8cd0dd6e018d8020d53effa912fe3c585ffa0d5ef760b90ebc22eb2b",
        ),
        (
            "--games 20 --part-size 10 --agents greedy --seed 8",
            RunRequest {
                games: Some(20),
                part_size: Some(10),
                ..request("taiwan16", "greedy", 8)
            },
            "d88912a52be41ecccdf32be2909b991c0dfe3e10aadf49fcdf980a954a723326",
        ),
        (
            "--deals 100 --part-size 50 --decisions all --agents greedy --seed 6",
            RunRequest {
                deals: Some(100),
                part_size: Some(50),
                decisions: seats("all"),
                ..request("taiwan16", "greedy", 6)
            },
            "b338e955034acfbf547ad0a31051131def0347aa47df3d525567eb2eb9328269",
        ),
        (
            "--deals 3000 --part-size 1000 --log-actions --agents random --seed 1",
            RunRequest {
                deals: Some(3000),
                part_size: Some(1000),
                log_actions: true,
                ..request("taiwan16", "random", 1)
            },
            "8bb26bac46d17c8017a089fee65c244f811a45275cbcb02d12b69241747920f9",
        ),
        (
            "--variant taizhou --deals 60 --decisions E,W --agents trained --seed 6",
            RunRequest {
                deals: Some(60),
                decisions: seats("E,W"),
                ..request("taizhou", "trained", 6)
            },
            "00ee336c2f3f361577ff7f90e03b145882fe0cd732081ec11cd2611212cf0e6a",
        ),
        (
            "--variant taiwan16-house --deals 300 --agents greedy,defensive,random,trained --seed 3 --log-actions",
            RunRequest {
                deals: Some(300),
                log_actions: true,
                ..request("taiwan16-house", "greedy,defensive,random,trained", 3)
            },
            "72b8bdc3054dbc60f3826d2b2fc1ca8f78ae0cf4a9ac0d163dabfc693d786417",
        ),
        (
            "--variant taizhou --games 6 --agents defensive --seed 8 --part-size 3",
            RunRequest {
                games: Some(6),
                part_size: Some(3),
                ..request("taizhou", "defensive", 8)
            },
            "750cc4e7a6b500bc9f3c6a7bf4704f001ba174f8373d6205b2ed0584965beaf3",
        ),
        (
            "--variant mahjongtime --deals 300 --agents greedy --seed 2 --base 10 --per-tai 5",
            RunRequest {
                deals: Some(300),
                base: Some(10),
                per_tai: Some(5),
                ..request("mahjongtime", "greedy", 2)
            },
            "2ff909036833bdc5432a992cfcc8bba7f6c6a9159832e08ac70ad2bdaa863cc2",
        ),
    ];
    for (args, request, expected) in cases {
        assert_eq!(files_hash(&request), expected, "taisim simulate {args}");
    }
}
