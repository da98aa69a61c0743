"""The training recipe's whole path, tiny, in seconds on CPU: a decisions dataset ->
behaviour cloning -> a few masked PPO updates through ``taisim.VecEnv`` -> export -> the Rust
agent loads the file and plays -> evaluation (the library's arena, ``taisim.arena``). Also: a
resumed run makes exactly the updates of one never stopped. Skipped with TAISIM_RL=0; a broken
torch fails here where the RL extras are meant to be installed (rl_extras.py)."""

import csv
import importlib.util
import json
import os
from pathlib import Path

import numpy as np
import pytest

import taisim
from rl_extras import rl_import

torch = rl_import("torch")

ROOT = Path(__file__).resolve().parents[3]


def load_script():
    spec = importlib.util.spec_from_file_location("train_policy", ROOT / "scripts" / "train_policy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tp = load_script()


def teacher(mask):
    """A fixed rule for the in-test dataset: win when it may, else the highest legal index
    below the win (a discard, a claim or a kong), else pass."""
    legal = np.flatnonzero(mask)
    if mask[141]:
        return 141
    below = legal[legal < 141]
    return int(below[-1]) if len(below) else int(legal[-1])


def decisions(n, seed=0):
    """``n`` decisions in ``taisim.load_decisions``'s layout (uint8 numerators and a scale),
    recorded from seeded deals against greedy opponents with the teacher playing."""
    env = taisim.VecEnv(num_envs=8, opponents="greedy", threads=1)
    obs, info = env.reset(seed=seed)
    rows, masks, actions = [], [], []
    while sum(len(a) for a in actions) < n:
        mask = info["action_mask"].astype(bool)
        act = np.array([teacher(m) for m in mask])
        rows.append(obs.copy())
        masks.append(mask)
        actions.append(act)
        obs, _, _, _, info = env.step(act)
    obs = np.concatenate(rows)[:n]
    scale = np.full(taisim.OBS_SHAPE, 1 / 240, dtype=np.float32)
    return {
        "obs": np.rint(obs / scale).astype(np.uint8),
        "obs_scale": scale,
        "mask": np.concatenate(masks)[:n],
        "action": np.concatenate(actions)[:n].astype(np.int64),
        "reward": np.zeros(n, dtype=np.float32),
        "obs_version": taisim.OBS_VERSION,
    }


@pytest.fixture(scope="module")
def data():
    return decisions(3000)


def run(out, monkeypatch, data, *extra):
    monkeypatch.setattr(tp, "load_decisions", lambda run: data)
    args = ["--out", str(out), "--seed", "5", "--threads", "1", "--hidden", "32",
            "--num-envs", "16", "--rollout", "16", "--minibatch", "128",
            "--checkpoint-every", "2", "--eval-deals", "0", *extra]
    return tp.main(args)


def metrics(out):
    with open(out / "metrics.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_dataset_to_bc_to_ppo_to_rust_agent(tmp_path, monkeypatch, data):
    out = tmp_path / "run"
    path = run(out, monkeypatch, data, "--bc-run", "in-test", "--bc-epochs", "4",
               "--bc-batch", "256", "--steps", "512", "--eval-deals", "40",
               "--eval-baseline", "greedy")
    rows = metrics(out)
    bc = [r for r in rows if r["phase"] == "bc"]
    ppo = [r for r in rows if r["phase"] == "ppo"]
    assert len(bc) == 4 and len(ppo) == 2
    # Cloning learnt the teacher: far above a uniform guess among the legal actions.
    assert float(bc[-1]["heldout_accuracy"]) > 0.8
    assert float(bc[-1]["loss"]) < float(bc[0]["loss"])
    assert [int(r["step"]) for r in ppo] == [256, 512]
    for r in ppo:
        assert np.isfinite(float(r["policy_loss"])) and float(r["entropy"]) > 0
    # The exported file is the trained policy head, scored identically in Rust.
    # The default network: an MLP and a per-kind head of 64 (exported as mlp_kinds).
    model = tp.PolicyNet((32,), 64)
    model.load_state_dict(torch.load(out / "checkpoint.pt", weights_only=False)["model"])
    assert model.kinds is not None
    obs = data["obs"][:200].astype(np.float32) * data["obs_scale"]
    with torch.no_grad():
        ref = model.policy()(torch.from_numpy(obs).reshape(200, -1)).numpy()
    np.testing.assert_allclose(taisim.policy_logits(path, obs), ref, rtol=1e-4, atol=1e-4)
    # The Rust agent loads it and plays deals to the end, as an opponent.
    env = taisim.VecEnv(num_envs=4, opponents=f"policy:{path}", threads=1)
    o, info = env.reset(seed=1)
    ended = 0
    for _ in range(400):
        o, r, term, _, info = env.step(info["action_mask"].argmax(1))
        ended += int(term.sum())
    assert ended > 0
    # Evaluated in the library's arena: the report of `taisim arena --json`.
    result = json.loads((out / "eval.json").read_text())
    assert [a["baseline"] for a in result["arena"]] == ["greedy"]
    assert result["arena"][0] == taisim.arena(f"policy:{path}", "greedy", deals=40,
                                              seed=2**40 + 5)


def test_resume_continues_exactly(tmp_path, monkeypatch, data):
    common = ["--bc-run", "in-test", "--bc-epochs", "1", "--bc-batch", "512"]
    # Checkpoints every 2 updates of 256 decisions: the first run stops at one.
    straight = run(tmp_path / "a", monkeypatch, data, *common, "--steps", "1024")
    run(tmp_path / "b", monkeypatch, data, *common, "--steps", "512")
    # As if the run had gone on past its checkpoint and been killed: the update it logged
    # after the checkpoint is made again by the resumed run and must be logged once.
    with open(tmp_path / "b" / "metrics.csv", "a", newline="") as f:
        f.write("ppo,768" + "," * (len(metrics(tmp_path / "b")[0]) - 2) + "\n")
    resumed = run(tmp_path / "b", monkeypatch, data, *common, "--steps", "1024", "--resume")
    obs = data["obs"][:300].astype(np.float32) * data["obs_scale"]
    np.testing.assert_array_equal(taisim.policy_logits(straight, obs),
                                  taisim.policy_logits(resumed, obs))
    assert [r["step"] for r in metrics(tmp_path / "b")] == [r["step"] for r in metrics(tmp_path / "a")]


def test_resuming_another_network_is_refused_by_name(tmp_path, monkeypatch, data):
    run(tmp_path / "c", monkeypatch, data, "--kind-hidden", "0")
    with pytest.raises(SystemExit, match="--hidden 32 --kind-hidden 0; this command asks for "
                                         "--hidden 32 --kind-hidden 16"):
        run(tmp_path / "c", monkeypatch, data, "--kind-hidden", "16", "--resume")
    # A plain MLP resumes as one and exports as one.
    path = run(tmp_path / "c", monkeypatch, data, "--kind-hidden", "0", "--resume")
    tensors = __import__("safetensors.numpy").numpy.load_file(str(path))
    assert not any(k.startswith("kinds.") for k in tensors)


def test_resuming_after_cloning_takes_the_commands_rate(tmp_path, monkeypatch, data):
    # Cloning alone, then PPO resumed with its own rate, equals the run never stopped: the
    # saved optimiser state must not bring back the rate the cloning run saved with.
    common = ["--bc-run", "in-test", "--bc-epochs", "1", "--bc-batch", "512", "--lr", "1e-3"]
    straight = run(tmp_path / "a", monkeypatch, data, *common, "--steps", "512")
    run(tmp_path / "b", monkeypatch, data, "--bc-run", "in-test", "--bc-epochs", "1", "--bc-batch", "512")
    resumed = run(tmp_path / "b", monkeypatch, data, *common, "--steps", "512", "--resume")
    obs = data["obs"][:300].astype(np.float32) * data["obs_scale"]
    np.testing.assert_array_equal(taisim.policy_logits(straight, obs),
                                  taisim.policy_logits(resumed, obs))


def test_value_warmup_leaves_the_cloned_policy_untouched(tmp_path, monkeypatch, data):
    common = ["--bc-run", "in-test", "--bc-epochs", "1", "--bc-batch", "512"]
    cloned = run(tmp_path / "bc", monkeypatch, data, *common)
    warmed = run(tmp_path / "warm", monkeypatch, data, *common, "--steps", "512", "--value-warmup", "2")
    moved = run(tmp_path / "ppo", monkeypatch, data, *common, "--steps", "512")
    obs = data["obs"][:300].astype(np.float32) * data["obs_scale"]
    np.testing.assert_array_equal(taisim.policy_logits(cloned, obs), taisim.policy_logits(warmed, obs))
    # Without the warm-up the same updates do move the policy: the test can fail.
    assert not np.array_equal(taisim.policy_logits(cloned, obs), taisim.policy_logits(moved, obs))
    warm = [r for r in metrics(tmp_path / "warm") if r["phase"] == "ppo"]
    assert len(warm) == 2 and all(float(r["value_loss"]) >= 0 for r in warm)


def test_bad_datasets_are_refused(data):
    with pytest.raises(SystemExit, match="observation version"):
        tp.Decisions(dict(data, obs_version=taisim.OBS_VERSION + 1))
    bad = dict(data, action=data["action"].copy())
    bad["action"][7] = int(np.flatnonzero(~data["mask"][7])[0])
    with pytest.raises(SystemExit, match="outside its mask"):
        tp.Decisions(bad)
    with pytest.raises(SystemExit, match="expected"):
        tp.Decisions(dict(data, mask=data["mask"][:-1]))


def test_byte_observations_are_the_float_ones(data):
    # A minibatch from the stored bytes equals the env's float32 observation exactly.
    d = tp.Decisions(data)
    idx = torch.arange(0, len(d), 7)
    obs, mask, action = d.batch(idx, "cpu")
    want = data["obs"][idx.numpy()].astype(np.float32) * data["obs_scale"]
    np.testing.assert_array_equal(obs.numpy(), want.reshape(len(idx), -1))
    np.testing.assert_array_equal(mask.numpy(), data["mask"][idx.numpy()])
    np.testing.assert_array_equal(action.numpy(), data["action"][idx.numpy()])


def test_ci_path_with_the_real_dataset_and_arena(tmp_path):
    run_dir = taisim.simulate(tmp_path / "decisions", decisions="all", agents="greedy",
                              deals=40, seed=3)
    out = tmp_path / "run"
    path = tp.main(["--out", str(out), "--seed", "1", "--threads", "1", "--hidden", "32",
                    "--bc-run", str(run_dir), "--bc-epochs", "1", "--num-envs", "16",
                    "--rollout", "16", "--minibatch", "128", "--steps", "256",
                    "--eval-deals", "50", "--eval-baseline", "greedy"])
    assert os.path.exists(path)
    result = json.loads((out / "eval.json").read_text())
    assert result["arena"] and result["arena"][0]["deals"] == 50
