"""Batched environments stepped in Rust, as a Gymnasium ``VectorEnv``."""

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv as _GymVectorEnv
from gymnasium.vector.utils import batch_space

from taisim._copy import NoCopy
from taisim._native import (ACTION_SPACE_SIZE, MAX_NUM_ENVS, OBS_SHAPE, IllegalActionError,
                            NativeVecEnv, UsageError)
from taisim.wrappers import legal_replacement
from taisim._seed import (ResetNeeded, check_seed, numpy_info, optional_int, reraise_in_use,
                          search_arg, str_arg, timeout_arg, to_u64, variant_arg)


class VecEnv(NoCopy, _GymVectorEnv):
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

    Seeds: ``reset(seed=[s_0, s_1, ...])``, one entry per environment as Gymnasium's vector
    API takes it, gives environment ``i`` the seed stream ``s_i`` itself (``None``: one drawn
    from the batch's ``np_random``): it plays the deals ``taisim.Env`` plays after
    ``reset(seed=s_i)``, its reset the deal seeded ``s_i`` and each auto-reset the stream's
    next, as the Env's unseeded resets do, at any place in any batch. So
    ``reset(seed=[s + i for i in range(num_envs)])`` plays the deals of Gymnasium's own
    vectorisers over ``taisim.Env`` reset with ``seed=s`` (``gymnasium.make_vec(...,
    vectorization_mode="sync")``) and of ``taisim.sb3.SB3VecEnv.seed(s)``. ``reset(seed=s)``
    (one int in ``0 .. 2**64 - 1``) gives environment ``i`` a stream derived from ``(s, i)``
    instead of ``s + i``, so that batches reset with consecutive seeds share no deals. The
    batch is the same whatever the thread count.

    Tools that sample the action space blindly or want other conventions (TorchRL's
    ``GymWrapper`` does all three; :meth:`for_torchrl` sets them): ``illegal="legalize"``
    replaces an illegal action by pass where pass is legal, else by the lowest legal index
    (``infos["illegal"]`` says which environments' were) instead of raising
    ``taisim.IllegalActionError``;
    ``mask_dtype="bool"`` gives the masks as ``bool``;
    ``final_info="regular"`` makes ``final_info`` stackable, where Gymnasium's layout keeps
    ``None`` and lists in object arrays: ``None`` entries left out (``wild`` without a wild,
    ``payer`` and ``win_tile`` of a draw; their ``_key`` flags cleared), ``rewards`` a
    ``(num_envs, 4)`` array, ``winners`` comma-joined strings; and it gives the finished
    deal an ``action_mask`` with every action open (a finished deal has no decision; an
    all-false row would become TorchRL's action mask until the reset, where a random step
    fails).

    Ctrl-C during a ``reset`` or ``step`` whose opponents take long (a ``search``, an
    ``exec:`` bot) raises ``KeyboardInterrupt`` at once and abandons every deal of the
    batch: ``step`` then raises ``taisim.ResetNeeded`` until the next ``reset``.

    Args:
        num_envs: 1 to ``taisim.MAX_NUM_ENVS``.
        variant, seat, opponents, reward, base, per_tai, bot_timeout: as for
            :class:`taisim.Env` (the opponents default to ``random`` here).
        threads: threads stepping the batch, the calling thread among them: it steps its
            share instead of waiting (default: one per core). ``threads=1`` steps every
            environment on the calling thread. A thread that steps a batch with the default
            joins a pool of one thread per core for its lifetime, which other rayon work it
            starts (``taisim.load_decisions``) then runs on.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}
    #: The same mode as an attribute, where Gymnasium's own vector classes keep it (TorchRL's
    #: ``GymWrapper`` reads it there).
    autoreset_mode = AutoresetMode.SAME_STEP

    def __init__(self, num_envs=256, variant="taiwan16", seat="E", opponents="random", reward="points",
                 threads=None, base=None, per_tai=None, illegal="raise", mask_dtype="int8",
                 final_info="gymnasium", bot_timeout=None):
        for name, value, allowed in (("illegal", illegal, ("raise", "legalize")),
                                     ("mask_dtype", mask_dtype, ("int8", "bool")),
                                     ("final_info", final_info, ("gymnasium", "regular"))):
            if value not in allowed:
                raise UsageError(f"{name} must be one of {', '.join(map(repr, allowed))}, "
                                 f"not {value!r}")
        # Checked here as Env checks them: pyo3 would name only the type it cannot convert.
        for name, value in (("seat", seat), ("opponents", opponents), ("reward", reward)):
            str_arg(name, value)
        self._legalize = illegal == "legalize"
        self._bool_masks = mask_dtype == "bool"
        self._regular = final_info == "regular"
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
            bot_timeout=timeout_arg(bot_timeout),
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
        streams = None
        if isinstance(seed, (list, tuple, np.ndarray)):
            streams = self._streams(seed)
        elif seed is not None:
            seed = to_u64(seed, None)
            self._np_random, self._np_random_seed = gym.utils.seeding.np_random(seed)
        try:
            if streams is None:
                obs, masks = self._native.reset(to_u64(seed, self.np_random))
            else:
                obs, masks = self._native.reset_streams(streams)
        except RuntimeError as e:
            reraise_in_use(e, "VecEnv")
            raise
        except KeyboardInterrupt:
            # Ctrl-C while the opponents played: every deal of the batch was abandoned.
            self._masks = None
            raise
        self._masks = masks
        return obs, {"action_mask": self._mask_out(masks),
                     "_action_mask": np.ones(self.num_envs, dtype=np.bool_)}

    def _streams(self, seeds):
        """A list of seeds as Gymnasium's vector API takes it: one per environment, each an
        int (environment ``i``'s seed stream) or ``None`` (a stream drawn from the batch's
        ``np_random``), checked before any is drawn."""
        if isinstance(seeds, np.ndarray) and seeds.ndim != 1:
            raise UsageError(f"seed must be one int or a flat sequence of them, not an array of shape {seeds.shape}")
        seeds = list(seeds)
        if len(seeds) != self.num_envs:
            raise UsageError(f"{len(seeds)} seeds given for a batch of {self.num_envs} environments: "
                             "give one per environment (an int or None), or one int for the batch")
        checked = []
        for i, s in enumerate(seeds):
            try:
                checked.append(check_seed(s))
            except (TypeError, UsageError) as e:
                raise type(e)(f"seed[{i}]: {e}") from None
        return [to_u64(s, self.np_random) for s in checked]

    @classmethod
    def for_torchrl(cls, num_envs=256, **kwargs):
        """A batch set up for TorchRL's ``GymWrapper`` (``illegal="legalize"``,
        ``mask_dtype="bool"``, ``final_info="regular"``): it samples a random step when it
        wraps the batch, stacks every info entry (``None`` and lists of different lengths
        break its reader) and wants ``bool`` masks for its ``ActionMask`` transform::

            from torchrl.envs import ActionMask, GymWrapper, TransformedEnv
            env = TransformedEnv(GymWrapper(taisim.VecEnv.for_torchrl(64, opponents="greedy"),
                                            categorical_action_encoding=True), ActionMask())
        """
        kwargs = {"illegal": "legalize", "mask_dtype": "bool", "final_info": "regular", **kwargs}
        return cls(num_envs, **kwargs)

    def _mask_out(self, masks):
        """The masks as this batch hands them out: int8 as stepped, or as bool. Legalizing
        steps read the batch's own copy, which a caller writing into what it was handed
        (TorchRL clears the masks of finished environments in place) must not change."""
        if self._bool_masks:
            return masks.astype(np.bool_)
        return masks.copy() if self._legalize else masks

    def step(self, actions):
        if self._masks is None:
            raise ResetNeeded("call reset() before step()")
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {actions.dtype}")
        if actions.shape != (self.num_envs,):
            raise IllegalActionError(
                f"actions must have shape (num_envs,) = ({self.num_envs},), one index per environment; "
                f"got shape {actions.shape}"
            )
        if (not self._legalize and actions.dtype.kind == "u" and actions.dtype.itemsize == 8
                and (actions >= (1 << 63)).any()):
            i = int(np.flatnonzero(actions >= (1 << 63))[0])
            raise IllegalActionError(f"environment {i}: action {int(actions[i])} is out of range: "
                             f"the action space is 0 to {ACTION_SPACE_SIZE - 1}")
        illegal = None
        if self._legalize:
            # Past 2**63 an index wraps negative here: outside the space, so legalized too.
            actions = actions.astype(np.int64)
            inside = (actions >= 0) & (actions < ACTION_SPACE_SIZE)
            rows = np.arange(self.num_envs)
            illegal = ~inside
            illegal[inside] = self._masks[rows[inside], actions[inside]] == 0
            actions[illegal] = legal_replacement(self._masks[illegal])
        # One native call steps the batch and builds the whole info dict, ``final_info``
        # included, in the layout ``VectorEnv._add_info`` gives it.
        try:
            obs, rewards, terminations, truncations, infos = self._native.step_gym(
                np.ascontiguousarray(actions, dtype=np.int64)
            )
        except RuntimeError as e:
            reraise_in_use(e, "VecEnv")
            raise
        except KeyboardInterrupt:
            self._masks = None
            raise
        self._masks = infos["action_mask"]
        infos["action_mask"] = self._mask_out(self._masks)
        if illegal is not None:
            infos["illegal"] = illegal
            infos["_illegal"] = np.ones(self.num_envs, dtype=np.bool_)
        if self._regular and "final_info" in infos:
            final = infos["final_info"]
            _regular(final)
            # A finished deal leaves its seat no decision. TorchRL's reader takes every info
            # key's terminal row from final_info (zeros where it has none), and its
            # ActionMask transform then holds that row as the action spec's mask until the
            # reset: an all-false mask there breaks a random step before the reset
            # (check_env_specs samples one after its rollout) and a masked maximum over next
            # states. Every action is open instead, as TorchRL's PettingZoo wrapper marks
            # agents without a decision.
            final["action_mask"] = self._mask_out(
                np.ones((self.num_envs, ACTION_SPACE_SIZE), dtype=np.int8))
            final["_action_mask"] = np.asarray(terminations, dtype=np.bool_).copy()
        return obs, rewards, terminations, truncations, infos

    def action_masks(self):
        """The ``(num_envs, ACTION_SPACE_SIZE)`` masks of the current states (int8, or bool
        with ``mask_dtype="bool"``)."""
        if self._masks is None:
            raise ResetNeeded("call reset() before action_masks()")
        return self._mask_out(self._masks)

    def review(self, search=None):
        """The search agent's review of every environment's decision now, as ``Env.review``
        gives it for one, with the batch as the first axis: ``search_plays``, ``best``,
        ``default``, ``greedy``, ``determinizations`` and ``step`` of shape ``(num_envs,)``
        (``best`` -1 where nothing was searched);
        ``rollouts``, ``mean``, ``std_error``, ``advantage`` and ``advantage_error`` of shape
        ``(num_envs, ACTION_SPACE_SIZE)``, 0 or NaN where an action is not legal, and their
        ``decided_`` twins (the estimates ``search_plays`` was chosen on); ``search``,
        ``budget``, ``default_by`` and ``seat`` once. The searches run on the batch's threads
        with the GIL released, each deciding on its environment's view alone, so the result
        does not depend on the thread count: a teacher's labels for a whole batch (plain
        ``search``: about 70 ms of wall time an environment on 2 threads,
        ``scripts/bench_review.py``). ``search`` names the
        reviewing search as agents are named; ``None`` is plain ``search``. Ctrl-C stops the
        searches under way and raises ``KeyboardInterrupt``, the batch as it was. Before
        ``reset()`` it raises ``UsageError``."""
        try:
            return self._native.review(search=search_arg(search))
        except RuntimeError as e:
            reraise_in_use(e, "VecEnv")
            raise

    def info(self, i):
        """The info of environment ``i``: its finished deal's right after an auto-reset, else
        its current deal's. Before ``reset()``, ``UsageError``."""
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"i must be an int, not {type(i).__name__}")
        if not 0 <= int(i) < self.num_envs:
            raise UsageError(f"environment {int(i)} does not exist ({self.num_envs} environments)")
        try:
            return numpy_info(self._native.info(int(i)))
        except RuntimeError as e:
            reraise_in_use(e, "VecEnv")
            raise


def _regular(batch):
    """Makes a ``final_info`` batch (Gymnasium's layout) regular for readers that stack its
    values (TorchRL's): entries whose value is ``None`` are left out (their ``_key`` flag
    cleared, the key gone where no environment has a value); lists of one length become a
    numeric array with a row per environment (``rewards``: ``(num_envs, 4)``, zeros where
    the flag is clear); lists of different lengths become comma-joined strings (``winners``:
    ``"E,W"``, ``""`` for none)."""
    for key in [k for k in batch if not k.startswith("_")]:
        values = batch[key]
        if isinstance(values, dict):
            _regular(values)
            continue
        if not (isinstance(values, np.ndarray) and values.dtype == object):
            continue
        present = batch.get(f"_{key}")
        if present is None:
            present = np.ones(len(values), dtype=np.bool_)
        present &= np.array([v is not None for v in values], dtype=np.bool_)
        if not present.any():
            del batch[key]
            batch.pop(f"_{key}", None)
            continue
        shown = [values[i] for i in np.flatnonzero(present)]
        if not all(isinstance(v, (list, tuple)) for v in shown):
            continue
        lengths = {len(v) for v in shown}
        numeric = all(isinstance(x, (int, float)) for v in shown for x in v)
        if len(lengths) == 1 and lengths != {0} and numeric:
            rows = np.zeros((len(values), lengths.pop()), dtype=np.float64)
            for i in np.flatnonzero(present):
                rows[i] = values[i]
            batch[key] = rows
        else:
            joined = np.empty(len(values), dtype=object)
            joined[:] = [",".join(map(str, v)) if p else None for v, p in zip(values, present)]
            batch[key] = joined


def vector_entry_point(num_envs=1, opponents="greedy", render_mode=None, **kwargs):
    """What ``gymnasium.make_vec("taisim/...", num_envs=N, ...)`` builds (the ids' registered
    ``vector_entry_point``): a :class:`VecEnv` of ``num_envs`` environments with the keyword
    arguments of ``gymnasium.make`` for the same id, so the batch is ``N`` copies of what
    ``make`` gives (greedy opponents unless told otherwise, as :class:`taisim.Env`).
    ``render_mode`` must be None: a batch stepped in Rust draws nothing."""
    if render_mode is not None:
        raise UsageError(f"render_mode={render_mode!r}: taisim.VecEnv renders nothing; use "
                         f"gymnasium.make(...) for a rendered environment")
    return VecEnv(num_envs=num_envs, opponents=opponents, **kwargs)
