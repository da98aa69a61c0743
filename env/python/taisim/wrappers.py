"""Wrappers for tools that cannot mask actions."""

import gymnasium as gym
import numpy as np


class LegalizeActions(gym.ActionWrapper):
    """Replaces an illegal action by the lowest legal one before it reaches the environment.

    ``taisim.Env`` raises ``taisim.IllegalActionError`` (a ``ValueError``) on an illegal
    action, which is what a learner that masks wants. Generic tools that sample the action
    space blindly (Gymnasium's ``check_env``, agents without masking) can use this wrapper
    instead; ``info["illegal"]`` tells when an action was replaced, so a learner can still be
    penalised for it.
    """

    def __init__(self, env):
        super().__init__(env)
        self._replaced = False

    def action(self, action):
        mask = self.env.unwrapped.action_masks()
        self._replaced = not (0 <= int(action) < mask.shape[0] and mask[int(action)] == 1)
        if self._replaced:
            return int(np.flatnonzero(mask)[0])
        return action

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(self.action(action))
        info["illegal"] = self._replaced
        return obs, reward, terminated, truncated, info
