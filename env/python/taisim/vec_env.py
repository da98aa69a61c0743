"""Batched environments stepped in Rust."""

import numpy as np

from taisim._native import ACTION_SPACE_SIZE, OBS_SHAPE, NativeVecEnv
from taisim._seed import to_u64


class VecEnv:
    """``num_envs`` single-agent environments stepped together (in parallel, in Rust).

    ``reset(seed)`` returns ``(obs, mask)``; ``step(actions)`` returns ``(obs, reward,
    terminated, truncated, mask)``, numpy arrays with a leading ``num_envs`` axis. An
    environment whose deal ends is reset at once: its ``reward``/``terminated`` report the
    finished deal and its ``obs``/``mask`` rows already show the next deal
    (Stable-Baselines3's convention); ``info(i)`` describes the finished deal until the next
    step.
    """

    def __init__(self, num_envs=256, variant="taiwan16", seat="E", opponents="random", reward="points", threads=None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, not {type(num_envs).__name__}")
        self._native = NativeVecEnv(
            num_envs=int(num_envs), variant=variant, seat=seat, opponents=opponents, reward=reward, threads=threads
        )
        self.num_envs = int(num_envs)
        self.observation_shape = OBS_SHAPE
        self.action_space_size = ACTION_SPACE_SIZE
        self._rng = np.random.default_rng()

    def reset(self, seed=None):
        return self._native.reset(to_u64(seed, self._rng))

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {actions.dtype}")
        return self._native.step(np.ascontiguousarray(actions, dtype=np.int64).reshape(-1))

    def info(self, i):
        return self._native.info(int(i))
