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

import copy

import numpy as np
from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv

from taisim._native import PolicyError, UsageError
from taisim._seed import U64, check_seed
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
    (``outcome``, ``winners``, ...). A batch made with ``illegal="legalize"`` puts
    ``"illegal"`` (whether that environment's action was replaced) in every environment's
    info at every step, so a learner can be penalised for it. Auto-reset is SB3's own
    convention (the returned observation of a done environment is its next deal's). No
    ``terminal_observation`` is given: deals end by themselves, nothing is truncated, so SB3
    never bootstraps from one.

    ``get_attr``, ``set_attr`` and ``env_method`` act, as SB3 documents them, on each
    environment of ``indices`` (all by default; an int or a sequence), one list entry per
    index. Environment ``i`` is an :class:`EnvView` (``venv.env_views[i]``):
    ``observation_space`` and ``action_space`` (the single spaces), ``spec``,
    ``metadata``, ``render_mode`` (None: a batch stepped in Rust draws nothing), the methods
    ``action_masks()`` (what MaskablePPO calls), ``info()``, ``render()`` (None) and
    ``get_wrapper_attr(name)``, and whatever ``set_attr`` stored on it. Any other name raises
    ``AttributeError`` naming it; ``set_attr`` of one of those names raises too (the batch
    is configured when made, not per environment).
    """

    def __init__(self, envs):
        if not isinstance(envs, VecEnv):
            raise TypeError(f"SB3VecEnv wraps a taisim.VecEnv, not {type(envs).__name__}")
        self.envs = envs
        self.env_views = [EnvView(envs, i) for i in range(envs.num_envs)]
        self._actions = None
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)

    def reset(self):
        seeds = self._seeds
        obs, _ = self.envs.reset(seed=None if all(s is None for s in seeds) else seeds)
        self._reset_seeds()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions):
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_async() must come before step_wait()")
        obs, rewards, terminations, truncations, batch_infos = self.envs.step(self._actions)
        self._actions = None
        dones = terminations | truncations
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = dict(self.envs.info(int(i)), **{"TimeLimit.truncated": bool(truncations[i])})
        illegal = batch_infos.get("illegal")
        if illegal is not None:
            for i, info in enumerate(infos):
                info["illegal"] = bool(illegal[i])
        return obs, rewards, dones, infos

    def seed(self, seed=None):
        """Seeds the next reset as SB3's own vector environments do: environment ``i`` gets
        ``seed + i`` as its seed stream (as ``VecEnv.reset(seed=[...])`` takes one per
        environment), so it plays the same deals at any place in any batch; the list of seeds
        is returned. ``None`` leaves the streams to the batch's generator (SB3's own draw a
        random seed for ``None``; this batch's generator is itself seeded by ``VecEnv``)."""
        seed = check_seed(seed)
        if seed is None:
            self._seeds = [None] * self.num_envs
            return self._seeds
        if seed + self.num_envs - 1 > U64:
            raise UsageError(f"seed {seed} is out of range for {self.num_envs} environments: "
                             f"environment i gets seed + i, which must be at most 2**64 - 1")
        self._seeds = [seed + i for i in range(self.num_envs)]
        return self._seeds

    def close(self):
        self.envs.close()

    def action_masks(self):
        """The ``(num_envs, ACTION_SPACE_SIZE)`` masks at once."""
        return self.envs.action_masks()

    def _views(self, indices):
        if isinstance(indices, np.integer):
            indices = int(indices)
        return [self.env_views[i] for i in self._get_indices(indices)]

    def get_attr(self, attr_name, indices=None):
        """``attr_name`` of each environment of ``indices`` (see the class)."""
        return [getattr(view, attr_name) for view in self._views(indices)]

    def set_attr(self, attr_name, value, indices=None):
        """Sets ``attr_name`` on each environment of ``indices``: a name of the user's own,
        read back by ``get_attr``; the names the batch defines are refused (see the class)."""
        for view in self._views(indices):
            setattr(view, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        """``method_name(*method_args, **method_kwargs)`` of each environment of ``indices``
        (see the class)."""
        views = self._views(indices)
        if method_name == "action_masks" and not method_args and not method_kwargs:
            # The batch's masks read once, not once per environment (MaskablePPO asks at
            # every step).
            masks = self.envs.action_masks()
            return [masks[view.index] for view in views]
        return [getattr(view, method_name)(*method_args, **method_kwargs) for view in views]

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._views(indices))


#: The arguments of ``gymnasium.make_vec`` and of :class:`taisim.VecEnv` that no single
#: environment takes.
_BATCH_ONLY = ("num_envs", "vectorization_mode", "vector_kwargs", "wrappers", "threads",
               "illegal", "mask_dtype", "final_info")


class EnvView:
    """Environment ``index`` of a :class:`taisim.VecEnv`, as SB3's ``get_attr``,
    ``set_attr`` and ``env_method`` see it (:class:`SB3VecEnv`). The batch steps and resets
    its environments together, so nothing here steps or resets one; its generators live in
    Rust (environment ``i``'s seed stream is ``seed + i`` after ``SB3VecEnv.seed(seed)``,
    else drawn from the batch's generator), so it has no ``np_random`` either."""

    #: What the batch defines for each environment; ``set_attr`` refuses these names.
    DEFINED = ("index", "observation_space", "action_space", "spec", "metadata", "render_mode",
               "action_masks", "info", "render", "get_wrapper_attr")

    def __init__(self, batch, index):
        object.__setattr__(self, "_batch", batch)
        object.__setattr__(self, "index", index)

    @property
    def observation_space(self):
        return self._batch.single_observation_space

    @property
    def action_space(self):
        return self._batch.single_action_space

    @property
    def spec(self):
        """The spec ``gymnasium.make`` gives one environment of the batch: the batch's
        (``gymnasium.make_vec``'s) without the batch's own arguments, so ``spec.make()``
        builds the same environment as a ``taisim.Env``; None for a batch made by hand."""
        spec = self._batch.spec
        if spec is None:
            return None
        single = copy.deepcopy(spec)
        single.kwargs = {k: v for k, v in spec.kwargs.items() if k not in _BATCH_ONLY}
        return single

    @property
    def metadata(self):
        return self._batch.metadata

    @property
    def render_mode(self):
        return None

    def action_masks(self):
        """This environment's row of the batch's masks."""
        return self._batch.action_masks()[self.index]

    def info(self):
        """This environment's info (``taisim.VecEnv.info``)."""
        return self._batch.info(self.index)

    def render(self):
        """None: a batch stepped in Rust renders nothing (``render_mode`` is None)."""
        return None

    def get_wrapper_attr(self, name):
        return getattr(self, name)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        why = {
            "np_random": "its generators live in Rust (its seed stream is seed + index after "
                         "SB3VecEnv.seed(seed), else drawn from the batch's generator)",
            "reset": "the batch resets its environments together (SB3VecEnv.reset)",
            "step": "the batch steps its environments together (SB3VecEnv.step)",
        }.get(name, "")
        raise AttributeError(
            f"environment {self.index} of a taisim.VecEnv has no attribute {name!r}"
            f"{': ' + why if why else ''}; it has {', '.join(self.DEFINED)} and what set_attr "
            f"stored")

    def __setattr__(self, name, value):
        if name in self.DEFINED or name.startswith("_"):
            raise AttributeError(
                f"environment {self.index} of a taisim.VecEnv cannot set {name!r}: the batch "
                f"defines it, configured when it is made (make another taisim.VecEnv)")
        object.__setattr__(self, name, value)
