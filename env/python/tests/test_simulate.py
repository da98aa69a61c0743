"""taisim.simulate: the same harness as `taisim simulate`, from Python."""

import json
import os

import pytest

import taisim


def test_writes_a_complete_dataset(tmp_path):
    out = taisim.simulate(tmp_path / "run", deals=600, seed=3, agents="greedy,random,greedy,random",
                          part_size=250, threads=2)
    assert out == str(tmp_path / "run")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["rows"]["deals"] == 600
    assert manifest["spec"]["agents"] == ["greedy", "random", "greedy", "random"]
    for table in ("deals", "wins", "tai"):
        parts = sorted(os.listdir(tmp_path / "run" / table))
        assert parts == [f"part-0000{i}.parquet" for i in range(3)]


def test_same_arguments_same_files(tmp_path):
    a = taisim.simulate(tmp_path / "a", deals=300, seed=11, part_size=100, threads=1)
    b = taisim.simulate(tmp_path / "b", deals=300, seed=11, part_size=100, threads=2)
    parts = lambda run: [(p["deals"]["sha256"], p["wins"]["sha256"], p["tai"]["sha256"])
                         for p in json.loads(open(os.path.join(run, "manifest.json")).read())["parts"]]
    assert parts(a) == parts(b)


def test_bad_arguments_raise(tmp_path):
    with pytest.raises(taisim.VariantError, match="taiwan16-house"):
        taisim.simulate(tmp_path / "x", deals=10, variant="taiwan17")
    with pytest.raises(taisim.AgentError, match="known agents"):
        taisim.simulate(tmp_path / "y", deals=10, agents="clever")
    with pytest.raises(taisim.UsageError, match="not both"):
        taisim.simulate(tmp_path / "z", deals=10, games=2)
    with pytest.raises(taisim.StakesError, match="base"):
        taisim.simulate(tmp_path / "s", deals=10, variant="taizhou", base=3)
    # A policy file that is not there is an I/O error; one that is there but is no policy, a
    # PolicyError.
    with pytest.raises(FileNotFoundError, match="nothing-here"):
        taisim.simulate(tmp_path / "p", deals=10, agents="policy:nothing-here.safetensors")
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"\x00" * 40)
    with pytest.raises(taisim.PolicyError, match="not a safetensors file"):
        taisim.simulate(tmp_path / "q", deals=10, agents=f"policy:{junk}")
    with pytest.raises(TypeError):
        taisim.simulate(tmp_path / "w", deals="ten")
    taisim.simulate(tmp_path / "v", deals=10, part_size=5)
    with pytest.raises(taisim.UsageError, match="resume"):
        taisim.simulate(tmp_path / "v", deals=10, part_size=5)
    with pytest.raises(taisim.UsageError, match="out"):
        taisim.simulate(resume=True)


def test_a_run_played_otherwise_is_not_resumed(tmp_path):
    run = tmp_path / "run"
    taisim.simulate(run, deals=300, seed=5, part_size=100, agents="search:4,greedy,greedy,greedy")
    path = run / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["play"]["deal_id"] == 0
    assert manifest["play"]["agents"] == ["search:4", "greedy", "greedy", "greedy"]
    assert len(manifest["play"]["sha256"]) == 64
    # As a taisim whose search:4 plays the first deal otherwise would have recorded it.
    manifest["play"]["sha256"] = "0" * 64
    path.write_text(json.dumps(manifest))
    os.remove(run / "deals" / "part-00001.parquet")
    with pytest.raises(taisim.UsageError, match="play deal 0 otherwise"):
        taisim.simulate(run, resume=True)
    assert not (run / "deals" / "part-00001.parquet").exists()
    assert json.loads(path.read_text()) == manifest


def test_what_a_resume_says_reaches_python_as_warnings(tmp_path):
    run = tmp_path / "run"
    taisim.simulate(run, deals=300, seed=5, part_size=100)
    path = run / "manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["play"]  # as a taisim that did not record how its agents played
    path.write_text(json.dumps(manifest))
    os.remove(run / "deals" / "part-00002.parquet")
    with pytest.warns(UserWarning) as caught:
        taisim.simulate(run, resume=True)
    said = [str(w.message) for w in caught]
    assert "played again: part 2: deals/part-00002.parquet is missing" in said, said
    assert any("manifest.json records no play fingerprint" in s for s in said), said
    # Parts this taisim did not play are not vouched for in its name.
    assert "play" not in json.loads(path.read_text())


def test_ctrl_c_stops_a_run_that_resume_finishes(tmp_path):
    """Ctrl-C (SIGINT) during ``taisim.simulate`` raises ``KeyboardInterrupt`` once the run has
    stopped between deals: the parts complete so far are kept (the manifest still running),
    and ``resume=True`` finishes the run. Before, the signal waited for the whole run."""
    import signal
    import threading

    out = tmp_path / "run"
    args = dict(deals=100_000, part_size=1_000, seed=9, threads=1)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            taisim.simulate(out, **args)
    finally:
        timer.cancel()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "running"
    kept = len(os.listdir(out / "deals"))
    assert kept < 100, "the run went on to the end"
    taisim.simulate(out, resume=True, **args)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["rows"]["deals"] == 100_000
