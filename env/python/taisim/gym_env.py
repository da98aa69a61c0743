"""The single-agent Gymnasium environment."""

import gymnasium as gym
import numpy as np

from taisim._copy import NativeCopy
from taisim._native import ACTION_SPACE_SIZE, OBS_SHAPE, NativeEnv, UsageError
from taisim._seed import (ResetNeeded, check_action, numpy_info, optional_int, reraise_in_use,
                          search_arg, str_arg, timeout_arg, to_u64, variant_arg)


class Env(NativeCopy, gym.Env):
    """One seat of a Taiwanese 16-tile deal; built-in agents play the other three.

    Each step is one decision of the learner: its turn (discard, declare ready, kong, win)
    or an answer to another seat's discard, kong or flower (claim, rob, pass). The deal ends
    the episode (it always ends by itself, so nothing is truncated).

    The action space is a plain ``Discrete(ACTION_SPACE_SIZE)``; the legal actions of each
    state are the 0/1 ``int8`` mask ``info["action_mask"]`` (what every wrapper passes on)
    and ``action_masks()`` (the method sb3-contrib's MaskablePPO calls; through Gymnasium
    wrappers reach it with ``env.get_wrapper_attr("action_masks")()``). An illegal action
    raises ``taisim.IllegalActionError`` (a ``ValueError``) naming it and the legal ones, and
    changes nothing; an index outside the action space raises it too, saying it is out of
    range. An unknown opponent raises ``taisim.AgentError``, a bad variant
    ``taisim.VariantError``, another bad argument ``taisim.UsageError`` (all ``ValueError``s).

    Args:
        variant: a shipped variant's name (``taiwan16``, ``taiwan16-house``,
            ``taiwan16-2015``, ``mahjongtime``) or the path of a variant file (``str`` or any
            path-like).
        seat: the learner's seat, ``E``, ``S``, ``W`` or ``N``.
        opponents: built-in agents, one name for all seats or four comma-separated names in
            seat order E,S,W,N (``random``, ``greedy``, ``defensive``, ``trained``, ``policy:PATH``,
            ``search``, ``search:N``, ``exec:COMMAND``: a program speaking ``docs/protocol.md``,
            one process serving every seat that names it).
        reward: ``points`` (the seat's settlement for the deal, zero-sum) or ``win_loss``
            (+1/-1/0). Rewards are float32 (``info["rewards"]`` too): a settlement is exact,
            and the four seats' rewards sum to exactly zero, while no payment passes
            ``2**24`` (16,777,216) points. The default stakes stay far below it; stakes that
            make a deal's payments pass it (``base`` or ``per_tai`` in the millions, or
            hundreds of thousands with a hand of tens of tai) give rewards rounded to
            float32, which then need not sum to zero. The engine knows no bound of a deal's
            largest payment under a variant, so such stakes are not refused: scale them
            down (a learner plays the same game at any scale).
        base, per_tai: the points reward pays ``base + tai × per_tai``. Unset, ``per_tai`` is
            the variant's and ``base`` the variant's 底, or one tai's worth where that is 0 (as
            in every shipped variant), so every win earns a positive reward, 0-tai wins too,
            but a win below a variant's minimum (起胡), which taiwan16-2015 fines as a false
            win (詐胡): the action mask offers it, as the table lets a player declare it.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the table as text) or
            ``"human"`` (the table is printed to stdout after every ``reset()`` and
            ``step()``, and by ``render()``, which returns None: Gymnasium's convention).
        bot_timeout: seconds an ``exec:`` opponent may take over one decision (default 10);
            a bot that exits, hangs, or answers wrongly raises ``taisim.BotError`` (a
            ``RuntimeError``) naming it.

    Seeds are ints in ``0 .. 2**64 - 1`` (others raise ``taisim.UsageError``). A seed starts a
    stream of deals: ``reset(seed=s)`` deals the deal seeded ``s``, and each
    ``reset(seed=None)`` after it the stream's next. An environment reset with ``s`` thus
    plays the deals that environment ``i`` of a ``VecEnv`` reset with ``seed=[..., s, ...]``
    plays through its auto-resets, and Gymnasium's own vectorisers
    (``gymnasium.make_vec(..., vectorization_mode="sync")``, whose ``reset(seed=s)`` gives
    environment ``i`` the seed ``s + i``) play the deals of ``VecEnv.reset(seed=[s, s + 1,
    ...])``. Never seeded, the first reset draws a stream from the environment's generator. A deal that ends before the learner's first decision
    (another seat's heavenly or flower win; about 1 in 2,000 taizhou deals for seat N, none
    in 20,000 of taiwan16) gives the learner nothing to decide: the environment skips it for
    the stream's next deal, and ``info["deal_seed"]`` names the deal played, which is then
    not ``seed``. ``taisim play --seed`` shows the skipped deal.

    ``copy.deepcopy(env)`` (and ``copy.copy``) clones the engine: the copy goes on exactly as
    the original would, independently of it (an ``exec:`` opponent's process cannot be
    copied: ``TypeError``). Pickling raises ``TypeError``: pass the function that makes the
    environment to another process instead.

    Ctrl-C during a ``reset`` or ``step`` whose opponents take long (a ``search``, an
    ``exec:`` bot) raises ``KeyboardInterrupt`` at once and abandons the deal: ``step`` then
    raises ``taisim.ResetNeeded`` until the next ``reset``. An ``exec:`` bot being waited for
    is ended with it (the environment raises its ``BotError`` from then on).
    """

    _copy_what = "Env"

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, variant="taiwan16", seat="E", opponents="greedy", reward="points",
                 base=None, per_tai=None, render_mode=None, bot_timeout=None):
        variant = variant_arg(variant)
        for name, value in (("seat", seat), ("opponents", opponents), ("reward", reward)):
            str_arg(name, value)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']} or None")
        self._native = NativeEnv(variant=variant, seat=seat, opponents=opponents, reward=reward,
                                 base=optional_int("base", base), per_tai=optional_int("per_tai", per_tai),
                                 bot_timeout=timeout_arg(bot_timeout))
        self.render_mode = render_mode
        # Whether a reset has started a seed stream for unseeded resets to go on with.
        self._streaming = False
        self.observation_space = gym.spaces.Box(low=0.0, high=1.0, shape=OBS_SHAPE, dtype=np.float32)
        self.action_space = gym.spaces.Discrete(ACTION_SPACE_SIZE)
        self._mask = None

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            seed = to_u64(seed, None)
            super().reset(seed=seed)
        elif not self._streaming:
            # Never seeded: a stream drawn from the generator, as Gymnasium's unseeded reset.
            super().reset()
            seed = to_u64(None, self.np_random)
        # A reset started, even one stopped by Ctrl-C, starts its stream.
        streaming, self._streaming = self._streaming, True
        try:
            if seed is None and streaming:
                # The next deal of the stream the last reset started: the deals a VecEnv
                # environment given that seed plays through its auto-resets.
                obs, mask, info = self._native.reset_next()
            else:
                obs, mask, info = self._native.reset(seed)
        except RuntimeError as e:
            reraise_in_use(e, "Env")
            raise
        except KeyboardInterrupt:
            # Ctrl-C while the opponents played: the deal was abandoned.
            self._mask = None
            raise
        info = numpy_info(info)
        self._mask = mask
        info["action_mask"] = mask
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action):
        action = check_action(action)
        if self._mask is None:
            raise ResetNeeded("call reset() before step()")
        try:
            obs, mask, reward, terminated, truncated, info = self._native.step(action)
        except RuntimeError as e:
            reraise_in_use(e, "Env")
            raise
        except KeyboardInterrupt:
            self._mask = None
            raise
        info = numpy_info(info)
        self._mask = mask
        info["action_mask"] = mask
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), bool(terminated), bool(truncated), info

    def action_masks(self):
        """The legal-action mask of the current state (the name sb3-contrib's MaskablePPO
        looks for), ``int8`` 0/1 of length ``ACTION_SPACE_SIZE``."""
        if self._mask is None:
            raise ResetNeeded("call reset() before action_masks()")
        return self._mask

    def review(self, search=None):
        """The search agent's reasons at the learner's decision now: every legal action's
        estimated expected points with its standard error, as ``taisim review`` gives them for
        a deal of a run; a teacher's labels for the state the learner is in.
        ``search`` names the reviewing search as agents are named (``"search:512"``,
        ``"search:2048:own=value"``; ``None`` is plain ``search``). It decides on the seat's
        view alone, as the search agent does at the table, so the review never reads a hidden
        tile: ``search_plays`` is exactly what that agent would play here. The dict holds
        ``search``, ``budget``, ``default_by``, ``seat``, ``step``; ``search_plays``,
        ``best``, ``default`` and ``greedy`` as action indices (``best`` None when nothing
        was searched); ``determinizations``; and ``rollouts``, ``mean`` (the
        seat's expected points at the end of the deal), ``std_error``, ``advantage`` (over the
        default) and ``advantage_error``, arrays of ``ACTION_SPACE_SIZE`` indexed by action,
        0 or NaN where an action is not legal or not estimated. ``decided_rollouts``,
        ``decided_mean``, ``decided_std_error``, ``decided_advantage`` and
        ``decided_advantage_error`` are the estimates ``search_plays`` was chosen on: the
        agent's own search, which at a turn races only the candidates its prior keeps (0
        rollouts and NaN for the others), on determinizations of its own; the same as the others where it
        prunes nothing (answering a discard, or ``prune=all``). Every legal action is searched:
        tens of milliseconds a decision at the default budget, 0.3 s at most
        (``scripts/bench_review.py``); the GIL is released, and Ctrl-C stops the search and
        raises ``KeyboardInterrupt``, the environment as it was.
        Another agent's name raises ``UsageError``, a name of no agent ``AgentError``.
        Before ``reset()`` or after the deal ends it raises ``UsageError``."""
        try:
            return self._native.review(search=search_arg(search))
        except RuntimeError as e:
            reraise_in_use(e, "Env")
            raise

    def render(self):
        """The table as ``taisim deal`` prints it: returned with ``render_mode="ansi"``,
        printed to stdout with ``"human"`` (returning None), else None. Before ``reset()``
        there is no table: ``UsageError``."""
        if self.render_mode == "ansi":
            return self._native.render()
        if self.render_mode == "human":
            print(self._native.render(), flush=True)
        return None
