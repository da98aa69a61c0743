"""Stable-Baselines3's ``VecEnv`` over :class:`taisim.VecEnv`, so SB3 and sb3-contrib's
MaskablePPO train on the Rust batching (needs ``pip install taisim[rl]``)::

    from sb3_contrib import MaskablePPO
    from taisim.sb3 import SB3VecEnv

    venv = SB3VecEnv(taisim.VecEnv(num_envs=64, opponents="greedy"))
    MaskablePPO("MlpPolicy", venv).learn(100_000)
"""

import numpy as np
from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv

from taisim.vec_env import VecEnv


class SB3VecEnv(_SB3VecEnv):
    """Adapts a :class:`taisim.VecEnv` (Gymnasium's vector API) to SB3's ``VecEnv`` API.

    ``step_wait`` returns ``(obs, rewards, dones, infos)`` with one info dict per
    environment; an environment whose deal ended has the finished deal's info there
    (``outcome``, ``winners``, ...). ``env_method("action_masks")`` (what MaskablePPO calls)
    returns each environment's mask row. Auto-reset is SB3's own convention (the returned
    observation of a done environment is its next deal's). No ``terminal_observation`` is
    given: deals end by themselves, nothing is truncated, so SB3 never bootstraps from one.
    """

    def __init__(self, envs):
        if not isinstance(envs, VecEnv):
            raise TypeError(f"SB3VecEnv wraps a taisim.VecEnv, not {type(envs).__name__}")
        self.envs = envs
        self._actions = None
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)

    def reset(self):
        seed = self._seeds[0]
        obs, _ = self.envs.reset(seed=seed)
        self._reset_seeds()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions):
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_async() must come before step_wait()")
        obs, rewards, terminations, truncations, _ = self.envs.step(self._actions)
        self._actions = None
        dones = terminations | truncations
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = dict(self.envs.info(int(i)), **{"TimeLimit.truncated": bool(truncations[i])})
        return obs, rewards, dones, infos

    def seed(self, seed=None):
        """Seeds the next reset: one seed for the whole batch (each environment derives its
        own stream from it), so the returned list repeats it."""
        self._seeds = [seed] * self.num_envs
        return self._seeds

    def close(self):
        self.envs.close()

    def action_masks(self):
        """The ``(num_envs, ACTION_SPACE_SIZE)`` masks at once."""
        return self.envs.action_masks()

    def get_attr(self, attr_name, indices=None):
        n = len(list(self._get_indices(indices)))
        if attr_name == "render_mode":
            return [None] * n
        if attr_name == "action_masks":
            masks = self.envs.action_masks
            return [lambda i=i: masks()[i] for i in self._get_indices(indices)]
        if attr_name in ("single_observation_space", "single_action_space", "metadata"):
            return [getattr(self.envs, attr_name)] * n
        raise AttributeError(f"taisim.VecEnv environments have no attribute {attr_name!r} for SB3")

    def set_attr(self, attr_name, value, indices=None):
        raise AttributeError(f"taisim.VecEnv environments cannot set {attr_name!r}: they are configured at creation")

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.envs.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        raise AttributeError(f"taisim.VecEnv environments have no method {method_name!r} for SB3")

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(list(self._get_indices(indices)))
