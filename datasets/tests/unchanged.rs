//! Runs of every kind the harness writes, byte for byte as before the restructure of issue 26
//! (one variant object, the `table/` room, settlement through the scorer's model): taizhou's
//! all-pairs columns, full games, the decisions table, the action log, the shipped policy,
//! mixed agents and overridden stakes. `tai_variant_runs_are_byte_identical_to_before`
//! (tests/taizhou.rs) pins the plain greedy runs of the tai variants.
//!
//! Each figure is the SHA-256 of the run's files' SHA-256s as its manifest lists them (part by
//! part: decisions, wins, tai, deals), computed with the `taisim` binary of d6ab366, the commit
//! before that restructure: `taisim simulate ARGS --threads 2 --quiet --out DIR`.
//!
//! Re-pinned in issue 25, when the wins and tai tables gained their `variant` column and every
//! footer's format became taisim-part/2. Before re-pinning, each run was written by the binary
//! of 78d0fed (which gave the old figures, all eight) and by this one, and read back with
//! DuckDB: every table had the same rows, column for column, and the only new column was the
//! wins' and tai's `variant`, holding the run's variant's name in every row.
//!
//! Re-pinned when observation version 4 appended its claim row (the two runs with a
//! decisions table). Before re-pinning, both were written by the binary of a305b8a and by
//! this one: the wins, tai and deals files were identical, and in the decisions table every
//! column but two was the same; `obs_version` went from 3 to 4, and each observation's first
//! 64 rows (2,176 bytes) were byte for byte the old one, followed by the new row.
//!
//! Re-pinned when the shipped policy `trained` changed (2026-11-28, the student of the
//! search's turns): the two runs that seat `trained`. Before re-pinning, this build with the
//! policy shipped before (SHA-256 5a87d77d…, `git show f61da65:agents/policies/
//! trained.safetensors`) put back in its place gave every old figure, all eight; with the new
//! policy only those two runs changed.
//!
//! Re-pinned for the mahjongtime rule fixes (branch fix-rules): the mahjongtime run's footers
//! record the variant file's SHA-256, which moved with its new keys and citations; its row
//! groups are byte for byte those of the binary before the fixes (checked part by part).
//!
//! Re-pinned when mahjongtime's insurance stopped paying the dealer's bonus for all losers
//! (rules.txt:73, "just for himself, not for all losers"): the mahjongtime run, written by the
//! binary of 23bf5be and by this one and read back row by row. One row of its 300 deals
//! differs, and one win: deal 298, the dealer E wins on an insured discard of N; E's gain and
//! N's payment fall from 105 to 95, the bonus's 5 (1 tai at 5 a tai) paid for two losers no
//! more. Every other row of the deals, wins and tai tables is the same.

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
            "f06b55de5ae2fd3bd79605ad16189caef8af4e62d22d3dd0e3777d3310be0ecc",
        ),
        (
            "--games 20 --part-size 10 --agents greedy --seed 8",
            RunRequest {
                games: Some(20),
                part_size: Some(10),
                ..request("taiwan16", "greedy", 8)
            },
            "5267c802f4f992ac36f792fa69a1f46d54d7baee582905756ee344e7dff0ceec",
        ),
        (
            "--deals 100 --part-size 50 --decisions all --agents greedy --seed 6",
            RunRequest {
                deals: Some(100),
                part_size: Some(50),
                decisions: seats("all"),
                ..request("taiwan16", "greedy", 6)
            },
            "3d8d1d8f0486f00d722c4ac141bfb9c5ef23dc4d3918ecc1614c0d0413e35a52",
        ),
        (
            "--deals 3000 --part-size 1000 --log-actions --agents random --seed 1",
            RunRequest {
                deals: Some(3000),
                part_size: Some(1000),
                log_actions: true,
                ..request("taiwan16", "random", 1)
            },
            "3354a6de1522a7f76ec43da12687950ce8972fe843eec28513f2c4bc5279fe64",
        ),
        (
            "--variant taizhou --deals 60 --decisions E,W --agents trained --seed 6",
            RunRequest {
                deals: Some(60),
                decisions: seats("E,W"),
                ..request("taizhou", "trained", 6)
            },
            "4e059e2108e34d8877143a78c69351b225bf8defb40486657fa2a2a00a0d7a7d",
        ),
        (
            "--variant taiwan16-house --deals 300 --agents greedy,defensive,random,trained --seed 3 --log-actions",
            RunRequest {
                deals: Some(300),
                log_actions: true,
                ..request("taiwan16-house", "greedy,defensive,random,trained", 3)
            },
            "09c8e1fb562c41216363389272c7427fd01e291937b8a84fc0ade36b5dedb2d9",
        ),
        (
            "--variant taizhou --games 6 --agents defensive --seed 8 --part-size 3",
            RunRequest {
                games: Some(6),
                part_size: Some(3),
                ..request("taizhou", "defensive", 8)
            },
            "f2f80e81f999c0eb040f37bd85927c2993f79f62836f8ece1a9a903dcc111585",
        ),
        (
            "--variant mahjongtime --deals 300 --agents greedy --seed 2 --base 10 --per-tai 5",
            RunRequest {
                deals: Some(300),
                base: Some(10),
                per_tai: Some(5),
                ..request("mahjongtime", "greedy", 2)
            },
            "c966463382eae8160d3fadf942526a31873fa878a45f14546ac62c60d4e1dddf",
        ),
    ];
    for (args, request, expected) in cases {
        assert_eq!(files_hash(&request), expected, "taisim simulate {args}");
    }
}
