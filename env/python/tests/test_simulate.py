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
    with pytest.raises(taisim.PolicyError, match="nothing-here"):
        taisim.simulate(tmp_path / "p", deals=10, agents="policy:nothing-here.safetensors")
    with pytest.raises(TypeError):
        taisim.simulate(tmp_path / "w", deals="ten")
    taisim.simulate(tmp_path / "v", deals=10, part_size=5)
    with pytest.raises(taisim.UsageError, match="resume"):
        taisim.simulate(tmp_path / "v", deals=10, part_size=5)
    with pytest.raises(taisim.UsageError, match="out"):
        taisim.simulate(resume=True)
