"""Wrappers for tools that cannot mask actions."""

import gymnasium as gym
import numpy as np

from taisim._native import PASS_ACTION
from taisim._seed import one_action


def legal_replacement(masks):
    """The legal action that replaces an illegal one, for a mask or each row of a batch of
    masks: pass where pass is legal (a claim or a rob declined, so that an illegal action
    never becomes a win or a meld nobody chose), else the lowest legal index (a discard, on
    one's turn)."""
    masks = np.asarray(masks)
    return np.where(masks[..., PASS_ACTION] != 0, PASS_ACTION, masks.argmax(axis=-1))


class LegalizeActions(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Replaces an illegal action by a legal one before it reaches the environment: pass
    where pass is legal (a claim or a rob declined), else the lowest legal index (a discard).

    ``taisim.Env`` raises ``taisim.IllegalActionError`` (a ``ValueError``) on an illegal
    action, which is what a learner that masks wants. Generic tools that sample the action
    space blindly (Gymnasium's ``check_env``, agents without masking) can use this wrapper
    instead; ``info["illegal"]`` tells when an action was replaced, so a learner can still be
    penalised for it.

    It records its constructor arguments as Gymnasium's own wrappers do, so the spec of a
    wrapped ``gymnasium.make`` environment names it and ``env.spec.make()`` rebuilds it
    (``check_env`` does that).
    """

    def __init__(self, env):
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.ActionWrapper.__init__(self, env)
        self._replaced = False

    def action(self, action):
        # One action, as taisim.Env takes it: an array of several is IllegalActionError,
        # what is no int TypeError, before any mask is read.
        action = one_action(action)
        mask = self.env.unwrapped.action_masks()
        self._replaced = not (0 <= action < mask.shape[0] and mask[action] == 1)
        if self._replaced and mask.any():
            return int(legal_replacement(mask))
        # No legal action: the deal is over, and the environment says so when stepped
        # ("reset before step"); nothing is replaced.
        self._replaced = False
        return action

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(self.action(action))
        info["illegal"] = self._replaced
        return obs, reward, terminated, truncated, info
