"""``taisim.arena``: the duplicate arena of ``taisim arena --json``, the same Rust
implementation, its report as a dict with the same fields and values."""

import hashlib
import json
import os
import pathlib
import subprocess
import sys

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


@pytest.mark.parametrize("candidate,variant", [("defensive", "taizhou"),
                                               ("value", "taiwan16-2015")])
def test_arena_matches_the_binary(candidate, variant):
    # scripts/test.sh builds the CLI (cargo test) before these tests run.
    binary = newest_binary()
    assert binary is not None, "no taisim binary under target/: run cargo build first"
    args = ["--candidate", candidate, "--baseline", "greedy", "--deals", "40", "--seed", "4",
            "--variant", variant, "--json"]
    done = subprocess.run([binary, "arena", *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = taisim.arena(candidate, "greedy", deals=40, seed=4, variant=variant, threads=1)
    assert got == json.loads(done.stdout)
    assert got["candidate"] == candidate
    assert set(got) == {"candidate", "baseline", "variant", "seed", "deals", "deals_played",
                        "mean_diff", "std_error", "ci95_low", "ci95_high", "candidate_stats",
                        "baseline_stats"}


def test_a_field_is_the_cli_report():
    """``field=``: both sides against the field, as ``taisim arena --field``; the candidate's
    side is its own match against the field, and a field that names no agent is refused."""
    binary = newest_binary()
    assert binary is not None, "no taisim binary under target/: run cargo build first"
    args = ["--candidate", "value", "--baseline", "defensive", "--field", "greedy",
            "--deals", "30", "--seed", "6", "--json"]
    done = subprocess.run([binary, "arena", *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = taisim.arena("value", "defensive", field="greedy", deals=30, seed=6, threads=1)
    assert got == json.loads(done.stdout)
    assert got["field"] == "greedy" and got["deals_played"] == 240
    alone = taisim.arena("value", "greedy", deals=30, seed=6)
    assert "field" not in alone and got["candidate_stats"] == alone["candidate_stats"]
    with pytest.raises(taisim.AgentError, match="field"):
        taisim.arena("value", "greedy", field="greedier", deals=3)


def test_arena_does_not_depend_on_threads():
    one = taisim.arena("greedy", "random", deals=300, seed=9, threads=1)
    two = taisim.arena("greedy", "random", deals=300, seed=9, threads=2)
    assert one == two and one["deals_played"] == 1500
    same = taisim.arena("greedy", "greedy", deals=10, seed=1)
    assert same["mean_diff"] == 0.0 and same["candidate_stats"] == same["baseline_stats"]


def test_arena_errors_by_kind(tmp_path):
    with pytest.raises(taisim.AgentError, match="clever"):
        taisim.arena("clever", "greedy", deals=3)
    with pytest.raises(taisim.AgentError, match="search"):
        taisim.arena("search:0", "greedy", deals=3)
    # A missing policy file is an I/O error of its kind; a file that is no policy, bad input.
    with pytest.raises(FileNotFoundError, match="missing.safetensors"):
        taisim.arena(f"policy:{tmp_path / 'missing.safetensors'}", "greedy", deals=3)
    with pytest.raises(FileNotFoundError, match="missing.safetensors"):
        taisim.arena("greedy", tmp_path / "missing.safetensors", deals=3)
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"\x00" * 40)
    with pytest.raises(taisim.PolicyError, match="baseline .*junk.safetensors.*not a safetensors"):
        taisim.arena("greedy", f"policy:{junk}", deals=3)
    with pytest.raises(taisim.PolicyError, match="not a safetensors"):
        taisim.arena(b"\x00" * 40, "greedy", deals=3)
    with pytest.raises(taisim.VariantError, match="taiwan17"):
        taisim.arena("greedy", "greedy", deals=3, variant="taiwan17")
    with pytest.raises(taisim.UsageError, match="deals must be 1 to"):
        taisim.arena("greedy", "greedy", deals=0)
    with pytest.raises(taisim.UsageError, match="thread count"):
        taisim.arena("greedy", "greedy", deals=3, threads=0)
    with pytest.raises(taisim.UsageError, match="negative"):
        taisim.arena("greedy", "greedy", deals=3, seed=-1)
    with pytest.raises(TypeError):
        taisim.arena("greedy", "greedy", deals="3")
    with pytest.raises(TypeError, match="candidate"):
        taisim.arena(3, "greedy", deals=3)
    for kind in (taisim.AgentError, taisim.PolicyError, taisim.VariantError, taisim.UsageError):
        assert issubclass(kind, ValueError)


def test_a_policy_in_memory_plays_as_its_file():
    path = os.path.join(ROOT, "tests", "fixtures", "policy_obs_v2.safetensors")
    data = open(path, "rb").read()
    by_name = taisim.arena(f"policy:{path}", "greedy", deals=60, seed=2, threads=1)
    by_path = taisim.arena(pathlib.Path(path), "greedy", deals=60, seed=2, threads=1)
    in_memory = taisim.arena(data, "greedy", deals=60, seed=2, threads=1)
    name = "policy:<memory sha256:" + hashlib.sha256(data).hexdigest()[:16] + ">"
    assert in_memory["candidate"] == name
    assert by_path == by_name
    assert dict(in_memory, candidate=by_name["candidate"]) == by_name
    # As the baseline too, and against itself the difference is nil.
    same = taisim.arena(data, bytearray(data), deals=20, seed=2)
    assert same["baseline"] == name and same["mean_diff"] == 0.0


def test_a_torch_module_plays_as_its_export(tmp_path):
    torch = pytest.importorskip("torch")
    from taisim.policy import OBS_LEN

    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(OBS_LEN, 32), torch.nn.ReLU(),
                                 torch.nn.Linear(32, taisim.ACTION_SPACE_SIZE))
    path = taisim.export_policy(module, tmp_path / "p.safetensors")
    assert taisim.export_policy_bytes(module) == open(path, "rb").read()
    from_file = taisim.arena(f"policy:{path}", "random", deals=40, seed=3)
    from_module = taisim.arena(module, "random", deals=40, seed=3)
    assert from_module["candidate"].startswith("policy:<memory sha256:")
    assert dict(from_module, candidate=from_file["candidate"]) == from_file


def test_search_agents_play_the_arena():
    # The search seeds every decision from the deal, so the thread count changes nothing.
    one = taisim.arena("search:4", "greedy", deals=6, seed=11, threads=1)
    two = taisim.arena("search:4", "greedy", deals=6, seed=11, threads=2)
    assert one == two and one["candidate"] == "search:4" and one["deals_played"] == 30


def test_an_exec_bot_plays_the_arena_as_the_agent_it_serves():
    # `taisim bot greedy` behind the protocol plays as the built-in greedy, to the byte.
    binary = newest_binary()
    assert binary is not None, "no taisim binary under target/: run cargo build first"
    bot = f"exec:{binary} bot greedy"
    through = taisim.arena(bot, "random", deals=8, seed=6, threads=1, bot_timeout=30)
    built_in = taisim.arena("greedy", "random", deals=8, seed=6, threads=1)
    assert through["candidate"] == bot
    assert dict(through, candidate="greedy") == built_in
    with pytest.raises(taisim.BotError, match="exec:"):
        taisim.arena(f"exec:{sys.executable} -c 'print(1)'", "greedy", deals=2, bot_timeout=2)
    with pytest.raises(taisim.UsageError, match="bot_timeout"):
        taisim.arena("greedy", "greedy", deals=2, bot_timeout=0)


@pytest.mark.parametrize("candidate", ["greedy", "search:1048576:indifference=0"])
def test_ctrl_c_stops_a_match(interrupted, candidate):
    """Ctrl-C during ``taisim.arena`` stops the match (a search side's decision under way,
    then each worker before its next table) and raises ``KeyboardInterrupt``: a billion
    walls would take days, and that search hours a decision. Before, the signal waited for
    the whole match."""
    call = f"taisim.arena({candidate!r}, 'greedy', deals=10**9, seed=3, threads=2)"
    assert interrupted(call) == "interrupted"
