"""The PettingZoo AEC environment: all four seats, one decision at a time."""

import gymnasium as gym
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from taisim._copy import NativeCopy
from taisim._native import ACTION_SPACE_SIZE, OBS_SHAPE, NativeAec, UsageError
from taisim._seed import (check_action, check_seed, optional_int, reraise_in_use, search_arg,
                          str_arg, to_u64, variant_arg)

SEATS = ["E", "S", "W", "N"]


class TaisimAEC(NativeCopy, AECEnv):
    """A whole deal as a turn-based game of the four seats ``E S W N``.

    ``agent_selection`` is the seat to decide: on its turn, or when it may claim a discard,
    rob a kong or take the eighth flower (seats are asked in turn order, priority is resolved
    after). Observations are ``{"observation": float32 tensor, "action_mask": int8}``.
    Rewards arrive when the deal ends; each seat is then stepped once with ``None``.

    ``variant``, ``reward``, ``base`` and ``per_tai`` are as for :class:`taisim.Env`; seeds
    are ints in ``0 .. 2**64 - 1``, and as there a seed starts a stream of deals:
    ``reset(seed=s)`` deals the deal seeded ``s``, each ``reset()`` after it the stream's
    next (the stream ``taisim.Env`` reset alike plays, but for the deals it skips, which
    end before its learner's first decision). ``render_mode="ansi"`` makes ``render()`` return the table;
    ``render_mode="human"`` prints it to stdout after every ``reset()`` and every step that
    plays an action, and on ``render()``, which returns None (PettingZoo's convention).

    ``copy.deepcopy(env)`` (and ``copy.copy``) clones the engine: the copy goes on exactly as
    the original would, independently of it. Pickling raises ``TypeError``.
    """

    _copy_what = "AEC env"

    metadata = {"render_modes": ["ansi", "human"], "name": "taisim_v0", "is_parallelizable": False, "render_fps": 4}

    def __init__(self, variant="taiwan16", reward="points", base=None, per_tai=None, render_mode=None):
        super().__init__()
        variant = variant_arg(variant)
        if not isinstance(reward, str):
            raise TypeError(f"reward must be a str, not {type(reward).__name__}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self._native = NativeAec(variant=variant, reward=reward, base=optional_int("base", base),
                                 per_tai=optional_int("per_tai", per_tai))
        self.possible_agents = list(SEATS)
        self._obs_space = gym.spaces.Dict(
            {
                "observation": gym.spaces.Box(low=0.0, high=1.0, shape=OBS_SHAPE, dtype=np.float32),
                "action_mask": gym.spaces.Box(low=0, high=1, shape=(ACTION_SPACE_SIZE,), dtype=np.int8),
            }
        )
        self._act_space = gym.spaces.Discrete(ACTION_SPACE_SIZE)
        self._np_random = np.random.default_rng()
        # Whether a reset has started a seed stream for unseeded resets to go on with.
        self._streaming = False
        self.agents = []
        self.rewards = {}
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}
        self.agent_selection = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def _sync(self):
        """Mirror the native state into PettingZoo's dicts."""
        live = self._native.agents()
        rewards = self._native.rewards()
        cumulative = self._native.cumulative_rewards()
        terminations = self._native.terminations()
        truncations = self._native.truncations()
        self.agents = live
        self.rewards = {a: float(rewards[SEATS.index(a)]) for a in live}
        self._cumulative_rewards = {a: float(cumulative[SEATS.index(a)]) for a in live}
        self.terminations = {a: bool(terminations[SEATS.index(a)]) for a in live}
        self.truncations = {a: bool(truncations[SEATS.index(a)]) for a in live}
        result = self._native.result()
        # The wild kind (taizhou's 得牌) in every seat's info, as Env's and VecEnv's give it.
        info = {"wild": self._native.wild()}
        if result is not None:
            info.update(outcome=result[0], winners=result[1], payer=result[2])
        self.infos = {a: dict(info) for a in live}
        self.agent_selection = self._native.agent_selection()

    def reset(self, seed=None, options=None):
        seed = check_seed(seed)
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        streaming, self._streaming = self._streaming, True
        try:
            if seed is None and streaming:
                # The next deal of the stream the last reset started, as taisim.Env's.
                self._native.reset_next()
            else:
                self._native.reset(to_u64(seed, self._np_random))
        except RuntimeError as e:
            reraise_in_use(e, "AEC env")
            raise
        self._sync()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        """``agent``'s observation dict now; before ``reset()``, ``UsageError`` (no deal is
        dealt: PettingZoo asks nothing of ``observe`` then)."""
        obs, mask = self._native.observe(str_arg("agent", agent, "a seat (E, S, W or N)",
                                                 who="observe(): "))
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        try:
            self._native.step(None if action is None else check_action(action))
        except RuntimeError as e:
            reraise_in_use(e, "AEC env")
            raise
        self._sync()
        # A dead step (None, after the deal ended) changes nothing on the table.
        if self.render_mode == "human" and action is not None:
            self.render()

    def review(self, search=None):
        """The search agent's reasons at the decision of ``agent_selection`` now, as
        ``taisim.Env.review`` gives them for a learner (the same dict). Before ``reset()``, or
        when no seat is to act (the deal is over), it raises ``UsageError``."""
        try:
            return self._native.review(search=search_arg(search))
        except RuntimeError as e:
            reraise_in_use(e, "AEC env")
            raise

    def render(self):
        """The table as ``taisim deal`` prints it: returned with ``render_mode="ansi"``,
        printed to stdout with ``"human"`` (returning None), else None; before ``reset()``,
        ``UsageError``."""
        if self.render_mode == "ansi":
            return self._native.render()
        if self.render_mode == "human":
            print(self._native.render(), flush=True)
        return None

    def close(self):
        pass


def raw_env(variant="taiwan16", reward="points", base=None, per_tai=None, render_mode=None):
    """The AEC environment without wrappers (PettingZoo's ``raw_env`` convention)."""
    return TaisimAEC(variant=variant, reward=reward, base=base, per_tai=per_tai, render_mode=render_mode)


def env(variant="taiwan16", reward="points", base=None, per_tai=None, render_mode=None):
    """The AEC environment as PettingZoo's ``env()`` factories give theirs: wrapped in
    ``OrderEnforcingWrapper`` (which refuses ``step`` before ``reset``). Illegal actions
    raise ``taisim.IllegalActionError``, a ``ValueError`` (the mask in each observation says
    which are legal), so no illegal-move wrapper is needed."""
    return wrappers.OrderEnforcingWrapper(
        raw_env(variant=variant, reward=reward, base=base, per_tai=per_tai, render_mode=render_mode)
    )


def aec_env(variant="taiwan16", reward="points", base=None, per_tai=None, render_mode=None):
    """A PettingZoo AEC environment of a whole deal (unwrapped, as :func:`raw_env`)."""
    return raw_env(variant=variant, reward=reward, base=base, per_tai=per_tai, render_mode=render_mode)
