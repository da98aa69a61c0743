"""``taisim.arena``: the duplicate arena of ``taisim arena --json``, the same Rust
implementation, its report as a dict with the same fields and values."""

import json
import os
import subprocess

import pytest

import taisim

# `taisim arena --candidate policy:tests/fixtures/policy_obs_v2.safetensors --baseline greedy
# --deals 200 --seed 5 --json`, as tests/cli_arena_obs_prefix.rs pins it (recorded when that
# file was the shipped `trained`, so the line names the candidate `trained`).
PINNED = json.loads(
    '{"candidate":"trained","baseline":"greedy","variant":"taiwan16","seed":5,"deals":200,'
    '"deals_played":1000,"mean_diff":-0.5425,"std_error":0.07479263628333377,'
    '"ci95_low":-0.6890908734241379,"ci95_high":-0.3959091265758621,'
    '"candidate_stats":{"points_per_deal":-0.5425,"win_rate":0.1225,"self_draw_rate":0.025,'
    '"deal_in_rate":0.2},"baseline_stats":{"points_per_deal":0.0,"win_rate":0.24375,'
    '"self_draw_rate":0.0625,"deal_in_rate":0.18125}}')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def newest_binary():
    builds = [os.path.join(ROOT, "target", profile, "taisim")
              for profile in ("release", "debug")]
    builds = [b for b in builds if os.path.exists(b)]
    return max(builds, key=os.path.getmtime) if builds else None


def test_arena_is_the_cli_report():
    candidate = "policy:" + os.path.join(ROOT, "tests", "fixtures", "policy_obs_v2.safetensors")
    got = taisim.arena(candidate, "greedy", deals=200, seed=5)
    assert got["candidate"] == candidate
    assert dict(got, candidate="trained") == PINNED


def test_arena_matches_the_binary_on_taizhou():
    # scripts/test.sh builds the CLI (cargo test) before these tests run.
    binary = newest_binary()
    assert binary is not None, "no taisim binary under target/: run cargo build first"
    args = ["--candidate", "defensive", "--baseline", "greedy", "--deals", "40", "--seed", "4",
            "--variant", "taizhou", "--json"]
    done = subprocess.run([binary, "arena", *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = taisim.arena("defensive", "greedy", deals=40, seed=4, variant="taizhou", threads=1)
    assert got == json.loads(done.stdout)
    assert set(got) == {"candidate", "baseline", "variant", "seed", "deals", "deals_played",
                        "mean_diff", "std_error", "ci95_low", "ci95_high", "candidate_stats",
                        "baseline_stats"}


def test_arena_does_not_depend_on_threads():
    one = taisim.arena("greedy", "random", deals=300, seed=9, threads=1)
    two = taisim.arena("greedy", "random", deals=300, seed=9, threads=2)
    assert one == two and one["deals_played"] == 1500
    same = taisim.arena("greedy", "greedy", deals=10, seed=1)
    assert same["mean_diff"] == 0.0 and same["candidate_stats"] == same["baseline_stats"]


def test_arena_errors_by_kind(tmp_path):
    with pytest.raises(taisim.AgentError, match="clever"):
        taisim.arena("clever", "greedy", deals=3)
    with pytest.raises(taisim.PolicyError, match="missing.safetensors"):
        taisim.arena(f"policy:{tmp_path / 'missing.safetensors'}", "greedy", deals=3)
    with pytest.raises(taisim.VariantError, match="taiwan17"):
        taisim.arena("greedy", "greedy", deals=3, variant="taiwan17")
    with pytest.raises(taisim.UsageError, match="at least 1"):
        taisim.arena("greedy", "greedy", deals=0)
    with pytest.raises(taisim.UsageError, match="negative"):
        taisim.arena("greedy", "greedy", deals=3, seed=-1)
    with pytest.raises(TypeError):
        taisim.arena("greedy", "greedy", deals="3")
    for kind in (taisim.AgentError, taisim.PolicyError, taisim.VariantError, taisim.UsageError):
        assert issubclass(kind, ValueError)
