"""Policy files without torch: how a file is written (``export_policy``,
``export_maskable_ppo`` and ``convert_json_policy`` share one writer, exercised here through
the converter, which needs no torch) and the shipped policy named ``trained``."""

import json
import os
import pathlib

import numpy as np
import pytest

import taisim

OBS_LEN = taisim.OBS_SHAPE[0] * taisim.OBS_SHAPE[1]


@pytest.fixture(scope="module")
def json_policy(tmp_path_factory):
    """A JSON policy file of the current version (one zero layer), for the converter."""
    path = tmp_path_factory.mktemp("json") / "old.json"
    path.write_text(json.dumps({
        "format": "taisim-policy", "obs_version": taisim.OBS_VERSION,
        "action_space": taisim.ACTION_SPACE_SIZE,
        "layers": [{"inputs": OBS_LEN, "outputs": taisim.ACTION_SPACE_SIZE,
                    "weights": [0] * (OBS_LEN * taisim.ACTION_SPACE_SIZE),
                    "bias": list(range(taisim.ACTION_SPACE_SIZE))}]}))
    return path


def test_a_directory_is_refused_before_anything_is_written(json_policy, tmp_path):
    """``export_policy(model, "/tmp")`` once left ``/tmp.tmp`` behind: the write went to
    ``PATH.tmp`` and only the rename failed."""
    target = tmp_path / "dir"
    target.mkdir()
    with pytest.raises(IsADirectoryError) as err:
        taisim.convert_json_policy(json_policy, target)
    assert sorted(os.listdir(tmp_path)) == ["dir"]
    assert os.listdir(target) == []
    assert f"{target} is a directory" in str(err.value)


def test_a_failed_write_leaves_no_temporary_file(json_policy, tmp_path, monkeypatch):
    def refuse(src, dst):
        raise PermissionError(f"cannot rename {src} to {dst}")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        taisim.convert_json_policy(json_policy, tmp_path / "p.safetensors")
    assert os.listdir(tmp_path) == []


def test_another_writer_s_temporary_file_is_not_taken(json_policy, tmp_path):
    """Two processes exporting to one path each write a temporary file of their own: a file
    at ``PATH.tmp`` (the name every writer once shared) is neither overwritten nor moved."""
    target = tmp_path / "p.safetensors"
    other = tmp_path / "p.safetensors.tmp"
    other.write_bytes(b"another process's half-written policy")
    assert taisim.convert_json_policy(json_policy, target) == target
    assert other.read_bytes() == b"another process's half-written policy"
    assert sorted(os.listdir(tmp_path)) == ["p.safetensors", "p.safetensors.tmp"]
    obs = np.zeros((1, OBS_LEN), dtype=np.float32)
    assert taisim.policy_logits(target, obs)[0].tolist() == list(range(taisim.ACTION_SPACE_SIZE))
    # Written again over itself, through the same rename.
    taisim.convert_json_policy(json_policy, os.fsencode(target))
    assert sorted(os.listdir(tmp_path)) == ["p.safetensors", "p.safetensors.tmp"]


TRAINED_FILE = (pathlib.Path(__file__).resolve().parents[3] / "agents" / "policies"
                / "trained.safetensors")


def test_trained_names_the_shipped_policy_everywhere_a_policy_file_is_read():
    """``"trained"`` is the shipped policy for ``load_policy``, ``arena`` and
    ``Env(opponents=...)``; the scores and the metadata take the name too, and give what the
    shipped file gives."""
    obs, _ = taisim.Env(opponents="random").reset(seed=5)
    obs = obs[None]
    assert np.array_equal(taisim.policy_logits("trained", obs),
                          taisim.policy_logits(TRAINED_FILE, obs))
    meta = taisim.policy_metadata("trained")
    assert meta == taisim.policy_metadata(TRAINED_FILE)
    assert meta["format"] == "taisim-policy"
    assert meta["obs_version"] == str(taisim.OBS_VERSION)
