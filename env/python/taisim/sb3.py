"""Stable-Baselines3's ``VecEnv`` over :class:`taisim.VecEnv`, so SB3 and sb3-contrib's
MaskablePPO train on the Rust batching (needs ``pip install taisim[rl]``), and the export of
a trained MaskablePPO to the policy file the Rust agent plays, end to end::

    import torch
    from sb3_contrib import MaskablePPO
    import taisim
    from taisim.sb3 import SB3VecEnv, export_maskable_ppo

    venv = SB3VecEnv(taisim.VecEnv(num_envs=64, opponents="greedy"))
    # ReLU between the layers: the policy file holds ReLU MLPs (SB3's default is Tanh).
    model = MaskablePPO("MlpPolicy", venv, policy_kwargs={"activation_fn": torch.nn.ReLU,
                                                          "net_arch": [256, 256]})
    model.learn(100_000)
    export_maskable_ppo(model, "sb3.safetensors")
    # taisim arena --candidate policy:sb3.safetensors --baseline greedy --deals 2000

``import taisim`` makes ``taisim.sb3`` reachable without importing SB3 until it is used.
"""

import numpy as np
from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv

from taisim._native import PolicyError
from taisim.policy import export_policy
from taisim.vec_env import VecEnv


def export_maskable_ppo(model, path):
    """Writes the policy of ``model`` (an sb3-contrib ``MaskablePPO``, or SB3 ``PPO``/``A2C``,
    trained on taisim's observation with ``"MlpPolicy"``; or its ``.policy``) as a policy file
    at ``path`` and returns ``path``: the actor's layers (``mlp_extractor.policy_net``, then
    ``action_net``) over the flattened observation, which is what the Rust agent computes
    (it plays the best-scoring legal action, as ``predict(..., deterministic=True)`` with
    the action masks does).

    Refused with ``taisim.PolicyError``, naming the fix: an activation other than ReLU
    (SB3's ``MlpPolicy`` default is ``Tanh``: train with ``policy_kwargs={"activation_fn":
    torch.nn.ReLU}``), a features extractor other than the flattening one, an observation
    space of another shape."""
    import torch.nn as nn
    from stable_baselines3.common.torch_layers import FlattenExtractor

    policy = getattr(model, "policy", model)
    for name in ("mlp_extractor", "action_net", "observation_space"):
        if not hasattr(policy, name):
            raise PolicyError(f"export_maskable_ppo: {type(policy).__name__} has no {name}: "
                              f"export an SB3 ActorCriticPolicy (\"MlpPolicy\")")
    from taisim._native import OBS_SHAPE

    if tuple(policy.observation_space.shape) != tuple(OBS_SHAPE):
        raise PolicyError(f"export_maskable_ppo: the model observes shape "
                          f"{tuple(policy.observation_space.shape)}, not taisim's {tuple(OBS_SHAPE)}")
    extractors = [getattr(policy, n, None) for n in
                  ("features_extractor", "pi_features_extractor")]
    if any(e is not None and type(e) is not FlattenExtractor for e in extractors):
        kind = next(type(e).__name__ for e in extractors
                    if e is not None and type(e) is not FlattenExtractor)
        raise PolicyError(f"export_maskable_ppo: the features extractor {kind} is not "
                          f"part of the policy format (the observation flattened, then ReLU "
                          f"layers); train with the default FlattenExtractor")
    layers = list(policy.mlp_extractor.policy_net)
    for layer in layers:
        if isinstance(layer, (nn.Linear, nn.ReLU)):
            continue
        raise PolicyError(
            f"export_maskable_ppo: the actor has {type(layer).__name__} between its layers; "
            f"the policy file holds ReLU networks. SB3's MlpPolicy uses Tanh unless told: "
            f"train with policy_kwargs={{\"activation_fn\": torch.nn.ReLU}}")
    return export_policy(nn.Sequential(*layers, policy.action_net), path)


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
