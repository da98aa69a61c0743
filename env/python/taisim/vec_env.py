"""Batched environments stepped in Rust, as a Gymnasium ``VectorEnv``."""

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv as _GymVectorEnv
from gymnasium.vector.utils import batch_space

from taisim._native import (ACTION_SPACE_SIZE, MAX_NUM_ENVS, OBS_SHAPE, IllegalActionError,
                            NativeVecEnv, UsageError)
from taisim._seed import numpy_info, optional_int, to_u64, variant_arg


class VecEnv(_GymVectorEnv):
    """``num_envs`` copies of :class:`taisim.Env` stepped together, in parallel, in Rust: a
    ``gymnasium.vector.VectorEnv``.

    ``reset(seed=..)`` returns ``(obs, infos)``; ``step(actions)`` returns ``(obs, rewards,
    terminations, truncations, infos)``, numpy arrays with a leading ``num_envs`` axis.
    ``infos["action_mask"]`` is the ``(num_envs, ACTION_SPACE_SIZE)`` int8 0/1 mask of every
    environment's legal actions (also ``action_masks()``). Each step's observations are
    written by Rust straight into the returned array.

    Auto-reset is Gymnasium's same-step mode (``metadata["autoreset_mode"]`` is
    ``AutoresetMode.SAME_STEP``, as Stable-Baselines3's ``VecEnv``): when an environment's
    deal ends at a step, its ``rewards``/``terminations`` entries report the finished deal,
    its ``obs`` row and mask already show its next deal, and ``infos["final_info"]`` (with
    the mask ``infos["_final_info"]``) holds the finished deal's info (``outcome``,
    ``winners``, ``rewards`` of every seat, ...). There is no ``final_obs``: a deal always
    ends by itself, so ``truncations`` is always false and no value is ever bootstrapped
    from a final observation.

    Seeds: ``reset(seed=s)`` (one int in ``0 .. 2**64 - 1``) gives environment ``i`` its own
    seed stream derived from ``(s, i)``; the batch is the same whatever the thread count.

    Args:
        num_envs: 1 to ``taisim.MAX_NUM_ENVS``.
        variant, seat, opponents, reward, base, per_tai: as for :class:`taisim.Env` (the
            opponents default to ``random`` here).
        threads: threads stepping the batch, the calling thread among them: it steps its
            share instead of waiting (default: one per core). ``threads=1`` steps every
            environment on the calling thread. A thread that steps a batch with the default
            joins a pool of one thread per core for its lifetime, which other rayon work it
            starts (``taisim.load_decisions``) then runs on.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs=256, variant="taiwan16", seat="E", opponents="random", reward="points",
                 threads=None, base=None, per_tai=None):
        if isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, not {type(num_envs).__name__}")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, (int, np.integer))):
            raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
        if not 1 <= int(num_envs) <= MAX_NUM_ENVS:
            raise UsageError(f"num_envs must be between 1 and {MAX_NUM_ENVS}, got {int(num_envs)}")
        if threads is not None and not 1 <= int(threads) <= 1024:
            raise UsageError(f"threads must be between 1 and 1024, got {int(threads)}")
        # The engine allocates the batch fallibly: MemoryError where memory runs short.
        self._native = NativeVecEnv(
            num_envs=int(num_envs), variant=variant_arg(variant), seat=seat,
            opponents=opponents, reward=reward, threads=None if threads is None else int(threads),
            base=optional_int("base", base), per_tai=optional_int("per_tai", per_tai),
        )
        self.num_envs = int(num_envs)
        self.single_observation_space = gym.spaces.Box(low=0.0, high=1.0, shape=OBS_SHAPE, dtype=np.float32)
        self.single_action_space = gym.spaces.Discrete(ACTION_SPACE_SIZE)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # Kept from the first releases of this class.
        self.observation_shape = OBS_SHAPE
        self.action_space_size = ACTION_SPACE_SIZE
        self._masks = None

    def reset(self, *, seed=None, options=None):
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise TypeError(
                "taisim.VecEnv.reset takes one int seed (each environment's deals derive from it), not a sequence"
            )
        if seed is not None:
            seed = to_u64(seed, None)
            self._np_random, self._np_random_seed = gym.utils.seeding.np_random(seed)
        obs, masks = self._native.reset(to_u64(seed, self.np_random))
        self._masks = masks
        return obs, {"action_mask": masks, "_action_mask": np.ones(self.num_envs, dtype=np.bool_)}

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {actions.dtype}")
        if actions.shape != (self.num_envs,):
            raise IllegalActionError(
                f"actions must have shape (num_envs,) = ({self.num_envs},), one index per environment; "
                f"got shape {actions.shape}"
            )
        if actions.dtype.kind == "u" and actions.dtype.itemsize == 8 and (actions >= (1 << 63)).any():
            i = int(np.flatnonzero(actions >= (1 << 63))[0])
            raise IllegalActionError(f"environment {i}: action {int(actions[i])} is out of range: "
                             f"the action space is 0..{ACTION_SPACE_SIZE}")
        # One native call steps the batch and builds the whole info dict, ``final_info``
        # included, in the layout ``VectorEnv._add_info`` gives it.
        obs, rewards, terminations, truncations, infos = self._native.step_gym(
            np.ascontiguousarray(actions, dtype=np.int64)
        )
        self._masks = infos["action_mask"]
        return obs, rewards, terminations, truncations, infos

    def action_masks(self):
        """The ``(num_envs, ACTION_SPACE_SIZE)`` int8 masks of the current states."""
        if self._masks is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._masks

    def info(self, i):
        """The info of environment ``i``: its finished deal's right after an auto-reset, else
        its current deal's."""
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"i must be an int, not {type(i).__name__}")
        if not 0 <= int(i) < self.num_envs:
            raise UsageError(f"environment {int(i)} does not exist ({self.num_envs} environments)")
        return numpy_info(self._native.info(int(i)))
