"""Stable-Baselines3 and sb3-contrib on the package: MaskablePPO on the Rust batching
(``taisim.sb3.SB3VecEnv``), ``SubprocVecEnv`` over ``taisim.Env``, saving a model. Skipped
where scripts/requirements-rl.txt is not installed (TAISIM_RL=0); where it is meant to be, a
broken install fails here (rl_extras.py)."""

import gymnasium as gym
import numpy as np
import pytest

import taisim
from rl_extras import rl_import

rl_import("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import SubprocVecEnv, VecEnv, VecMonitor  # noqa: E402

from taisim.sb3 import SB3VecEnv  # noqa: E402


@pytest.fixture(autouse=True)
def sb3_logs_in_tmp_path(tmp_path, monkeypatch):
    """SB3's logger otherwise makes a fresh tempdir/SB3-<time> folder for every model and
    never removes it."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3-logs"))


def test_adapter_is_an_sb3_vec_env_with_masks():
    venv = SB3VecEnv(taisim.VecEnv(num_envs=4, opponents="random"))
    assert isinstance(venv, VecEnv)
    assert is_masking_supported(venv)
    venv.seed(9)
    obs = venv.reset()
    assert obs.shape == (4, *taisim.OBS_SHAPE)
    masks = get_action_masks(venv)
    assert masks.shape == (4, taisim.ACTION_SPACE_SIZE)
    done_seen = False
    for _ in range(300):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        assert len(infos) == 4
        for i in np.flatnonzero(dones):
            done_seen = True
            assert infos[i]["outcome"] and infos[i]["TimeLimit.truncated"] is False
        masks = get_action_masks(venv)
    assert done_seen
    with pytest.raises(TypeError):
        SB3VecEnv(taisim.Env())


def test_maskable_ppo_trains_on_the_rust_batching_and_saves(tmp_path):
    venv = SB3VecEnv(taisim.VecEnv(num_envs=8, opponents="random", threads=1))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    path = tmp_path / "model.zip"
    model.save(path)
    loaded = MaskablePPO.load(path, device="cpu")
    obs = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = loaded.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i, a] == 1 for i, a in enumerate(actions)), "masked predictions are legal"


def test_subproc_vec_env_over_env():
    # Lambdas travel to the workers by value (cloudpickle); the spaces pickle as they are.
    venv = SubprocVecEnv([lambda: taisim.Env(opponents="random")] * 2)
    try:
        assert is_masking_supported(venv)
        venv.reset()
        for _ in range(30):
            masks = get_action_masks(venv)
            venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    finally:
        venv.close()


def test_a_maskable_ppo_exports_to_the_policy_the_rust_agent_plays(tmp_path):
    import torch

    from taisim.sb3 import export_maskable_ppo

    venv = SB3VecEnv(taisim.VecEnv(num_envs=8, opponents="greedy", threads=1))
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=1,
                        policy_kwargs={"net_arch": [32, 16], "activation_fn": torch.nn.ReLU},
                        device="cpu")
    model.learn(total_timesteps=256)
    path = export_maskable_ppo(model, tmp_path / "sb3.safetensors")
    # The file scores as SB3's actor does: the same log-probabilities over the actions.
    obs = venv.reset()
    with torch.no_grad():
        sb3 = model.policy.get_distribution(torch.as_tensor(obs)).distribution.logits.numpy()
    rust = taisim.policy_logits(path, obs)
    rust = rust - np.log(np.exp(rust - rust.max(1, keepdims=True)).sum(1, keepdims=True)) \
        - rust.max(1, keepdims=True)
    np.testing.assert_allclose(rust, sb3, rtol=1e-4, atol=1e-4)
    # And the Rust agent plays it, as a masked deterministic predict() would choose.
    masks = get_action_masks(venv)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    scores = np.where(masks == 1, taisim.policy_logits(path, obs), -np.inf)
    assert (scores.argmax(1) == actions).all()
    duel = taisim.arena(f"policy:{path}", "random", deals=2, seed=3, threads=1)
    assert duel["deals"] == 2


def test_sb3_defaults_are_refused_with_the_fix(tmp_path):
    from taisim.sb3 import export_maskable_ppo

    venv = SB3VecEnv(taisim.VecEnv(num_envs=2, opponents="random", threads=1))
    tanh = MaskablePPO("MlpPolicy", venv, n_steps=8, batch_size=16, seed=0,
                       policy_kwargs={"net_arch": [8]}, device="cpu")
    with pytest.raises(taisim.PolicyError, match=r"Tanh.*activation_fn.*torch\.nn\.ReLU"):
        export_maskable_ppo(tanh, tmp_path / "tanh.safetensors")
    assert not (tmp_path / "tanh.safetensors").exists()
    with pytest.raises(taisim.PolicyError, match="ActorCriticPolicy"):
        export_maskable_ppo(object(), tmp_path / "x.safetensors")


def test_seed_gives_each_environment_its_own_seed_as_sb3_does():
    venv = SB3VecEnv(taisim.VecEnv(num_envs=3, opponents="random", threads=1))
    assert venv.seed(7) == [7, 8, 9]
    first = venv.reset()
    deals = [venv.envs.info(i)["deal_seed"] for i in range(3)]
    assert len(set(deals)) == 3
    # Environment i plays stream 7 + i wherever it stands in a batch.
    alone = taisim.VecEnv(num_envs=1, opponents="random", threads=1)
    for i in range(3):
        obs, _ = alone.reset(seed=[7 + i])
        assert alone.info(0)["deal_seed"] == deals[i]
        assert np.array_equal(obs[0], first[i])
    # The seeds are spent by the reset, as SB3's are: the next one draws fresh streams.
    venv.reset()
    assert [venv.envs.info(i)["deal_seed"] for i in range(3)] != deals
    assert venv.seed(None) == [None] * 3
    with pytest.raises(taisim.UsageError, match="seed 18446744073709551614 is out of range for 3 environments"):
        venv.seed(2**64 - 2)
    with pytest.raises(taisim.UsageError, match="seed"):
        venv.seed(-1)


def test_get_attr_env_method_set_attr_act_per_environment_as_sb3_documents():
    venv = SB3VecEnv(taisim.VecEnv(num_envs=3, opponents="random", threads=1))
    venv.seed(5)
    venv.reset()
    single = taisim.VecEnv(1).single_observation_space
    assert venv.get_attr("observation_space") == [single] * 3
    assert venv.get_attr("action_space", indices=[0, 2]) == [gym.spaces.Discrete(taisim.ACTION_SPACE_SIZE)] * 2
    assert venv.get_attr("spec", indices=1) == [None]
    assert venv.get_attr("render_mode") == [None] * 3
    assert venv.get_attr("metadata")[0]["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    masks = venv.action_masks()
    assert np.array_equal(np.stack(venv.env_method("action_masks")), masks)
    assert np.array_equal(venv.env_method("action_masks", indices=[2])[0], masks[2])
    assert np.array_equal(venv.get_attr("action_masks", indices=1)[0](), masks[1])
    assert np.array_equal(venv.env_method("get_wrapper_attr", "action_masks", indices=0)[0](), masks[0])
    assert venv.env_method("render") == [None] * 3
    seeds = [info["deal_seed"] for info in venv.env_method("info", indices=[0, 2])]
    assert seeds == [venv.envs.info(0)["deal_seed"], venv.envs.info(2)["deal_seed"]]
    # Made by gymnasium.make_vec, each environment's spec is what gymnasium.make gives.
    made = SB3VecEnv(gym.make_vec("taisim/Taiwan16-v0", num_envs=2, opponents="random", threads=1))
    specs = made.get_attr("spec")
    assert [spec.id for spec in specs] == ["taisim/Taiwan16-v0"] * 2
    assert specs[0].kwargs == {"variant": "taiwan16", "opponents": "random"}
    assert isinstance(specs[1].make().unwrapped, taisim.Env)
    # A name of the user's own is stored per environment and read back; nothing else.
    venv.set_attr("difficulty", 3, indices=[1])
    assert venv.get_attr("difficulty", indices=1) == [3]
    with pytest.raises(AttributeError, match="environment 0 .* no attribute 'difficulty'"):
        venv.get_attr("difficulty")
    for name, why in (("np_random", "Rust"), ("no_such_thing", "has index, observation_space")):
        with pytest.raises(AttributeError, match=f"'{name}'.*{why}"):
            venv.get_attr(name)
    with pytest.raises(AttributeError, match="'reset'.*together"):
        venv.env_method("reset", indices=[0])
    with pytest.raises(AttributeError, match="cannot set 'observation_space'"):
        venv.set_attr("observation_space", single)
    # SB3's wrappers reach them through the adapter.
    assert VecMonitor(venv).get_attr("render_mode", indices=[0]) == [None]


def test_the_illegal_flag_reaches_sb3_at_every_step():
    venv = SB3VecEnv(taisim.VecEnv(num_envs=4, opponents="random", threads=1, illegal="legalize"))
    venv.seed(3)
    venv.reset()
    masks = venv.action_masks()
    actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    actions[1] = int(np.flatnonzero(masks[1] == 0)[0])
    _, _, dones, infos = venv.step(actions)
    assert [info["illegal"] for info in infos] == [False, True, False, False]
    done_seen = dones.any()
    rng = np.random.default_rng(0)
    for _ in range(400):
        actions = rng.integers(0, taisim.ACTION_SPACE_SIZE, size=4)
        _, _, dones, infos = venv.step(actions)
        assert all(isinstance(info["illegal"], bool) for info in infos)
        for i in np.flatnonzero(dones):
            done_seen = True
            assert "outcome" in infos[i]
    assert done_seen
    # A batch that raises on illegal actions has nothing to report.
    plain = SB3VecEnv(taisim.VecEnv(num_envs=2, opponents="random", threads=1))
    plain.reset()
    _, _, _, infos = plain.step(np.array([int(np.flatnonzero(m)[0]) for m in plain.action_masks()]))
    assert all("illegal" not in info for info in infos)
