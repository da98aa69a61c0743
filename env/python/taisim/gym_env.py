"""The single-agent Gymnasium environment."""

import gymnasium as gym
import numpy as np

from taisim._native import ACTION_SPACE_SIZE, OBS_SHAPE, NativeEnv
from taisim._seed import to_u64


class MaskedDiscrete(gym.spaces.Discrete):
    """``Discrete(ACTION_SPACE_SIZE)`` whose ``sample()`` draws from the legal actions of its
    environment's current state unless a mask is given, so generic tools that sample the
    action space (``check_env``, quick baselines) take legal actions."""

    def __init__(self, n, current_mask):
        super().__init__(n)
        self._current_mask = current_mask

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None:
            mask = self._current_mask()
        return super().sample(mask=mask, probability=probability)


class Env(gym.Env):
    """One seat of a Taiwanese 16-tile deal; built-in agents play the other three.

    Each step is one decision of the learner: its turn (discard, declare ready, kong, win)
    or an answer to another seat's discard, kong or flower (claim, rob, pass). The deal ends
    the episode. ``info["action_mask"]`` (int8, 0/1) marks the legal actions; an illegal
    action raises ``ValueError`` naming it and the legal ones, and changes nothing.

    Args:
        variant: rule variant name (``taiwan16``, ``taiwan16-house``, ``taiwan16-2015``,
            ``mahjongtime``).
        seat: the learner's seat, ``E``, ``S``, ``W`` or ``N``.
        opponents: built-in agents, one name for all seats or four comma-separated names in
            seat order E,S,W,N (``random``, ``greedy``, ``defensive``, ``policy:PATH``).
        reward: ``points`` (the seat's settlement for the deal) or ``win_loss`` (+1/-1/0).
    """

    metadata = {"render_modes": []}

    def __init__(self, variant="taiwan16", seat="E", opponents="greedy", reward="points"):
        for name, value in (("variant", variant), ("seat", seat), ("opponents", opponents), ("reward", reward)):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a str, not {type(value).__name__}")
        self._native = NativeEnv(variant=variant, seat=seat, opponents=opponents, reward=reward)
        self.observation_space = gym.spaces.Box(low=0.0, high=1.0, shape=OBS_SHAPE, dtype=np.float32)
        self.action_space = MaskedDiscrete(ACTION_SPACE_SIZE, lambda: self._mask)
        self._mask = None

    def reset(self, *, seed=None, options=None):
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        super().reset(seed=None if seed is None else int(seed))
        obs, mask, info = self._native.reset(to_u64(seed, self.np_random))
        self._mask = mask
        info["action_mask"] = mask
        return obs, info

    def step(self, action):
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int, not {type(action).__name__}")
        if self._mask is None:
            raise RuntimeError("call reset() before step()")
        obs, mask, reward, terminated, truncated, info = self._native.step(int(action))
        self._mask = mask
        info["action_mask"] = mask
        return obs, float(reward), bool(terminated), bool(truncated), info

    def action_masks(self):
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask
