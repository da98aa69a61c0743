"""Stable-Baselines3 and sb3-contrib on the package: MaskablePPO on the Rust batching
(``taisim.sb3.SB3VecEnv``), ``SubprocVecEnv`` over ``taisim.Env``, saving a model. Skipped
where scripts/requirements-rl.txt is not installed (TAISIM_RL=0); where it is meant to be, a
broken install fails here (rl_extras.py)."""

import numpy as np
import pytest

import taisim
from rl_extras import rl_import

rl_import("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import SubprocVecEnv, VecEnv  # noqa: E402

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
