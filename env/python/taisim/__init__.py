"""taisim: Taiwanese 16-tile mahjong (and Taizhou mahjong) environments over the taisim Rust
engine.

- ``taisim.Env``: a Gymnasium ``Env``; the learner holds one seat, built-in agents the rest.
- ``taisim.aec_env()``: a PettingZoo AEC environment of all four seats.
- ``taisim.VecEnv``: many environments stepped together in Rust, numpy batches out.
- ``taisim.simulate()``: seeded self-play into a Parquet dataset, as ``taisim simulate``.
- ``taisim.compare()``: two runs of the same walls compared deal by deal, as ``taisim
  compare --json``.
- ``taisim.score()``, ``taisim.score_many()``: the tai of winning hands, as ``taisim score
  --json`` and ``--jsonl``.
- ``taisim.arena()``: a duplicate match of two agents on the same walls, as ``taisim arena
  --json``.
- ``taisim.replay()``: a deal of a run as its deal log, as ``taisim replay RUN DEAL --json``;
  ``taisim.review()``: the search agent's reasons for one seat's decisions in it (every legal
  action's expected points and standard error), as ``taisim review --json``.
- ``taisim.bot.serve()``: a bot for taisim's table (``exec:COMMAND``, ``docs/protocol.md``)
  deciding on the observation and mask the environments give.

Errors are exception classes that can be caught by kind, all ``ValueError`` subclasses for
bad input: ``UsageError`` (an argument or directory the call cannot use), ``VariantError``,
``AgentError`` (an unknown agent name), ``PolicyError`` (a policy file that cannot be
loaded, built or exported), ``StakesError``, ``ScoreRequestError``, ``IllegalActionError``,
``CorruptRunError`` (a run directory whose files disagree with its manifest); failed I/O is
an ``OSError`` (``FileNotFoundError``, ``PermissionError``, ...); ``EngineError`` (a
``RuntimeError``) is a bug in taisim, reported with the deal to replay; ``BotError`` (a
``RuntimeError``) an outside player (``exec:``) that failed, and ``ProtocolError`` (a
``ValueError``) a protocol line a Python bot cannot follow.

Actions are indices into a fixed discrete space of ``ACTION_SPACE_SIZE``; every step comes
with a 0/1 ``int8`` mask of the legal ones. ``action_name(i)`` names an index;
``PASS_ACTION`` is pass's (declining a claim or a rob).

Importing ``taisim`` registers Gymnasium ids, one per shipped variant:
``taisim/Taiwan16-v0``, ``taisim/Taiwan16-House-v0``, ``taisim/Taiwan16-2015-v0``,
``taisim/MahjongTime-v0`` and ``taisim/Taizhou-v0`` (13 tiles, a wild: the observation's
wild row and ``info["wild"]`` show its kind)
(``gymnasium.make("taisim/Taiwan16-v0", opponents="greedy")``;
without importing first, ``gymnasium.make("taisim:taisim/Taiwan16-v0")``). Keyword
arguments are those of :class:`taisim.Env`. ``gymnasium.make_vec("taisim/Taiwan16-v0",
num_envs=64, opponents="greedy")`` gives a :class:`taisim.VecEnv` stepped in Rust (the ids'
vector entry point; ``vectorization_mode="sync"`` or ``"async"`` still builds Gymnasium's own).

- ``taisim.obs_rows(version)``: the observation's rows by name, with their meaning;
  ``taisim.obs_scalar_columns()``: the scalar row's columns.
- ``taisim.sb3`` (Stable-Baselines3's ``VecEnv`` over ``taisim.VecEnv``, and the export of a
  ``MaskablePPO`` policy to a policy file), ``taisim.torch_policy`` and ``taisim.policy``
  are loaded when first used (``import taisim`` does not import torch or SB3).
"""

import collections as _collections
import json as _json
import os as _os
import sys as _sys

import gymnasium as _gym
import numpy as _np

from taisim._native import (ACTION_SPACE_SIZE, MAX_NUM_ENVS, OBS_SHAPE, OBS_VERSION, PASS_ACTION,
                            action_name)
from taisim._native import __version__
from taisim._native import (AgentError, BotError, CorruptRunError, EngineError,
                            IllegalActionError, PolicyError, ProtocolError, ScoreRequestError,
                            StakesError, UsageError, VariantError)
from taisim._native import arena as _arena
from taisim._native import score_json as _score_json
from taisim._native import score_many_json as _score_many_json
from taisim._native import simulate as _simulate
from taisim._native import load_decisions as _load_decisions
from taisim import bot
from taisim._seed import search_arg as _search_arg
from taisim._seed import I64 as _I64, U32 as _U32, U64 as _U64
from taisim._seed import int_arg as _int_arg, optional_int as _optional_int
from taisim._seed import path_arg as _path_arg, variant_arg as _variant_arg
from taisim._seed import timeout_arg as _timeout_arg
from taisim._seed import bool_arg as _bool_arg, names_arg as _names_arg
from taisim._seed import optional_str as _optional_str, str_arg as _str_arg
from taisim._seed import ResetNeeded
from taisim._native import compare_json as _compare_json
from taisim._native import replay_jsonl as _replay_jsonl
from taisim._native import review_json as _review_json
from taisim._native import obs_rows as _obs_rows
from taisim._native import obs_scalar_columns as _obs_scalar_columns
from taisim.aec import TaisimAEC, aec_env
from taisim.gym_env import Env
from taisim.policy import (convert_json_policy, export_policy, export_policy_bytes, policy_logits,
                           policy_metadata)
from taisim.vec_env import VecEnv
from taisim.wrappers import LegalizeActions

#: The Gymnasium id of each shipped variant.
GYM_IDS = {
    "taisim/Taiwan16-v0": "taiwan16",
    "taisim/Taiwan16-House-v0": "taiwan16-house",
    "taisim/Taiwan16-2015-v0": "taiwan16-2015",
    "taisim/MahjongTime-v0": "mahjongtime",
    "taisim/Taizhou-v0": "taizhou",
}

for _id, _variant in GYM_IDS.items():
    if _id not in _gym.registry:
        # No TimeLimit: every deal ends by itself (the wall runs out).
        _gym.register(id=_id, entry_point="taisim.gym_env:Env",
                      vector_entry_point="taisim.vec_env:vector_entry_point",
                      kwargs={"variant": _variant})



#: One row of an observation layout: its index, stable name and meaning.
ObsRow = _collections.namedtuple("ObsRow", ["index", "name", "meaning"])


def obs_rows(version=OBS_VERSION):
    """The rows of observation layout ``version`` (default: the one this build encodes), in
    order, each an :data:`ObsRow` ``(index, name, meaning)``: named from the layout's own row
    offsets in Rust (``agents/src/obs.rs``), e.g. ``obs[:, rows.index("waits")]`` with
    ``rows = [r.name for r in taisim.obs_rows()]``. Relative seats are ``self``, ``next``
    (下家), ``across`` and ``previous`` (上家). A version this build does not know raises
    ``UsageError``."""
    # numpy integers too, as every other integer argument (a version read from an array).
    if isinstance(version, (bool, _np.bool_)) or not isinstance(version, (int, _np.integer)):
        raise TypeError(f"obs_rows(): version must be an int, not {type(version).__name__}")
    version = int(version)
    # Past a u32 no version is known either: said as for any other, not as an OverflowError.
    if not 0 <= version <= _U32:
        raise UsageError(f"observation version {version} is not one this build knows "
                         f"(1 to {OBS_VERSION})")
    return [ObsRow(i, name, meaning) for i, (name, meaning) in enumerate(_obs_rows(version))]


def obs_scalar_columns():
    """The names of the columns of the scalar row (``scalars``), the same in every version:
    ``dealer_self``, ``streak``, ``drawable``, ``ready_next``, ..., ``unused_N`` for the
    columns that hold 0."""
    return list(_obs_scalar_columns())


_LAZY = ("sb3", "torch_policy")


def __getattr__(name):
    """Submodules that need torch or Stable-Baselines3 (``taisim.sb3``,
    ``taisim.torch_policy``) are imported when first used, so ``import taisim`` stays light."""
    if name in _LAZY:
        import importlib

        return importlib.import_module(f"taisim.{name}")
    raise AttributeError(f"module 'taisim' has no attribute {name!r}")


def score(request):
    """Scores a winning hand: ``request`` has the fields of ``taisim score --json``
    (``hand``, ``win_tile``, ``win``, ``seat``, ``melds``, ``flowers``, ``context``,
    ``variant``, ``base``, ``per_tai``, ...); the answer has ``total_tai``, ``dealer_tai``,
    ``patterns`` and, with ``base`` and ``per_tai``, ``settlement``. Numbers may be numpy
    scalars, as the environments take them. An impossible request raises
    ``ScoreRequestError`` (``VariantError`` for a variant that cannot be used), both
    ``ValueError``s, naming the problem; an integer past 64 bits, a NaN or an infinity is
    refused so by the field's name."""
    if not isinstance(request, dict):
        raise TypeError(f"score() takes a dict, not {type(request).__name__}")
    return _json.loads(_score_json(_json.dumps(_plain(request))))


def score_many(requests, *, errors="raise"):
    """Scores many requests (each a dict as for :func:`score`) in one call into Rust and
    returns their answers in order. Each variant is parsed once per process.

    ``errors="raise"`` (the default) raises ``ScoreRequestError`` (or ``VariantError``) naming
    the first bad request's index and problem; ``errors="return"`` puts ``{"error": "..."}``
    in its place instead and scores the rest."""
    if errors not in ("raise", "return"):
        raise UsageError(f'errors must be "raise" or "return", not {errors!r}')
    texts = []
    # Requests refused before the scorer (a value JSON would lose), by index: their errors
    # take their places among the answers, as the scorer's own do.
    refused = {}
    for i, request in enumerate(requests):
        if not isinstance(request, dict):
            raise TypeError(f"score_many(): request {i} is a {type(request).__name__}, not a dict")
        try:
            texts.append(_json.dumps(_plain(request)))
        except ScoreRequestError as e:
            refused[i] = str(e)
    scored = iter(_score_many_json(texts))
    answers = []
    for i in range(len(texts) + len(refused)):
        if i in refused:
            ok, text, kind = False, refused[i], "ScoreRequestError"
        else:
            ok, text, kind = next(scored)
        if ok:
            answers.append(_json.loads(text))
        elif errors == "raise":
            raise {"VariantError": VariantError}.get(kind, ScoreRequestError)(
                f"request {i}: {text}")
        else:
            answers.append({"error": text})
    return answers


def _plain(request):
    """``request`` as the JSON values the scorer reads: a path-like ``variant`` as its
    string, numpy scalars and arrays as Python's (as the environments take numpy integers),
    every value checked where JSON would lose it (:func:`_json_value`)."""
    variant = request.get("variant")
    if variant is not None and not isinstance(variant, str):
        request = dict(request, variant=_variant_arg(variant))
    return {key: _json_value(str(key), value) for key, value in request.items()}


def _json_value(where, value):
    """``value`` (the field ``where``, as ``others.E.hand``) as a plain JSON value. An
    integer past 64 bits would reach the scorer as a float ("invalid type: floating point
    1.18e21") and a NaN or infinity as no JSON at all, neither naming the field: both are
    refused here by name (``ScoreRequestError``); what JSON cannot hold is a ``TypeError``
    naming the field."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, _np.bool_)):
        return bool(value)
    if isinstance(value, (int, _np.integer)):
        value = int(value)
        if not -(1 << 63) <= value <= _I64:
            raise ScoreRequestError(f"{where} = {value} is out of range: no number of a score "
                                    f"request passes 64 bits (-2**63 to 2**63 - 1)")
        return value
    if isinstance(value, (float, _np.floating)):
        value = float(value)
        if value != value:
            raise ScoreRequestError(f"{where} is NaN, not a number")
        if value in (float("inf"), float("-inf")):
            raise ScoreRequestError(f"{where} is {value}, not a finite number")
        return value
    if isinstance(value, _np.ndarray):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: _json_value(f"{where}.{k}", v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(f"{where}[{i}]", v) for i, v in enumerate(value)]
    raise TypeError(f"{where} is a {type(value).__name__}, which a score request cannot hold "
                    f"(a str, number, bool, None, list or dict)")


def simulate(out=None, *, variant=None, deals=None, games=None, seed=None, agents=None,
             threads=None, part_size=None, shard=None, log_actions=False, base=None,
             per_tai=None, resume=False, progress=False, decisions=None, bot_timeout=None,
             label_with=None):
    """Plays seeded self-play deals (or full ``games``) in parallel into a Parquet dataset and
    returns its directory, exactly as ``taisim simulate`` does with the same arguments:
    ``deals/``, ``wins/`` and ``tai/`` part files and a ``manifest.json``. Unset arguments
    take the CLI's defaults (1,000,000 deals of ``taiwan16``, greedy agents, seed 0, into
    ``runs/<UTC timestamp>``). ``agents`` is one name or four comma-separated in seat order
    E,S,W,N (or a list of four names); ``shard`` is ``"K/N"``; ``resume=True`` continues the
    run in ``out``; ``decisions`` (``"all"``, or seats as ``"E,S"`` or ``["E", "S"]``) also
    writes the decisions table that :func:`load_decisions` reads; ``bot_timeout`` is the
    seconds an ``exec:`` agent may take over one decision (default 10); with a search agent
    at a recorded seat the table carries its estimates (``search_*``), and
    ``label_with="search:N"`` labels every recorded
    decision with that search's estimates and choice while the seats play their own agents'
    actions (DAgger: the states a student reaches, labelled by the expert).

    Bad arguments raise a ``ValueError`` subclass naming the problem (``UsageError``,
    ``VariantError``, ``AgentError``, ``PolicyError``, ``StakesError``; ``TypeError`` for a
    wrong type); a failed write raises ``OSError`` and keeps the complete parts; an
    ``exec:`` agent that fails raises ``BotError`` (a ``RuntimeError``) and keeps them too.
    What ``taisim simulate`` prints on stderr (parts played again, a resume that could not
    check how its parts were played, files that belong to no part) is a ``UserWarning``
    each; a run whose agents play its first deal otherwise than when it was started is not
    resumed (``UsageError``). Ctrl-C stops the run between deals and raises
    ``KeyboardInterrupt``; the parts complete so far are kept, and ``resume=True`` finishes
    it."""
    who = "simulate(): "
    # A run plays at least one deal or game, as the command line's counts say.
    deals, games, seed, part_size = (
        _int_arg(name, value, least, _U64, optional=True, who=who)
        for name, value, least in (("deals", deals, 1), ("games", games, 1), ("seed", seed, 0),
                                   ("part_size", part_size, 0)))
    threads = _int_arg("threads", threads, 0, _U32, optional=True, who=who)
    base, per_tai = (_optional_int(name, value, who=who)
                     for name, value in (("base", base), ("per_tai", per_tai)))
    if out is not None:
        out = _path_arg(out, "out")
    if variant is not None:
        variant = _variant_arg(variant)
    # Each checked here, by name: pyo3 would name only the type it cannot convert, and
    # would not take the lists that load_decisions takes for seats.
    agents = _names_arg("agents", agents, "an agent's name, four comma-separated names or a "
                        "list of four", who)
    decisions = _names_arg("decisions", decisions, '"all", seats as "E,S" or a list of seats',
                           who)
    shard = _optional_str("shard", shard, 'a str "K/N" (part K of N)', who)
    label_with = _optional_str("label_with", label_with, "a search agent's name", who)
    log_actions, resume, progress = (_bool_arg(name, value, who) for name, value in (
        ("log_actions", log_actions), ("resume", resume), ("progress", progress)))
    return _simulate(out, variant=variant, deals=deals, games=games, seed=seed,
                     agents=agents, threads=threads, part_size=part_size, shard=shard,
                     log_actions=log_actions, base=base, per_tai=per_tai, resume=resume,
                     progress=progress, decisions=decisions,
                     bot_timeout=_timeout_arg(bot_timeout, "simulate(): "),
                     label_with=label_with)


def compare(run_a, run_b, *, verify_checksums=True):
    """Two runs of the same walls (``taisim simulate`` directories of the same seed and
    deals, typically of two variants) compared deal by deal, as ``taisim compare --json``
    gives it: ``outcome_changed``, ``per_deal`` and ``per_win`` figures, ``seats`` and
    ``patterns``, each with A's and B's values, ``difference`` (B − A) and its paired
    ``ci95``; ``a`` and ``b`` name each run's variant and agents and whether each agent
    ``responds_to_scoring`` (true, false, or None where taisim cannot know: an ``exec:``
    bot); ``engine_rule_changes`` lists the engine rules that differ (``key``, ``a``,
    ``b``), ``scoring_table_changes`` the scoring table's keys that differ (None where a
    run's variant file cannot be read); ``warnings`` says what a reader must know first (no agent
    responds to the scoring table, the agents differ, ...). Runs of other walls raise
    ``ValueError`` naming the difference; a directory that is not a run, ``ValueError``."""
    return _json.loads(_compare_json(_path_arg(run_a, "run_a"), _path_arg(run_b, "run_b"),
                                     verify_checksums=bool(verify_checksums)))


def replay(run, deal_id):
    """Deal ``deal_id`` of a ``taisim simulate`` run as a deal log, as ``taisim replay RUN DEAL
    --json`` writes it: a list of dicts, the bot protocol's events (``docs/protocol.md``) with
    every seat's view merged and each decision between them. The deal is played back from the
    run's action log (``log_actions=True``), or else by the run's agents again, once their
    play fingerprint is checked; either way the deal's end is checked against the deals table.
    A deal the run does not hold, or a directory that is not a run, raises ``UsageError``;
    agents that play otherwise than the run recorded, ``UsageError`` naming the seat or deal;
    a run whose files disagree with the replay, ``CorruptRunError``."""
    text = _replay_jsonl(_path_arg(run, "run"), _deal_id(deal_id))
    return [_json.loads(line) for line in text.splitlines() if line]


def review(run, deal_id, seat, *, search=None):
    """The search agent's review of ``seat``'s decisions (``"E"``, ``"S"``, ``"W"`` or
    ``"N"``) in deal ``deal_id`` of a run, as ``taisim review --json`` prints it: a dict with
    ``deal``, ``seat``, ``search`` (the reviewing agent's name), ``budget``, ``default_by`` and
    ``decisions``; each decision has its ``step``, the ``hand``, the ``offer`` answered, the
    action ``played``, what the search agent plays there (``search_plays``), its ``best`` and
    ``default`` (greedy's or the value agent's choice), ``greedy``'s choice, the
    ``determinizations`` and every legal action's ``estimates`` (``rollouts``, ``mean`` points,
    ``std_error``, and the ``advantage`` over the default with its ``advantage_error``), and
    ``decided_on``, the estimates ``search_plays`` was chosen on: the agent's own search, which
    at a turn races only the candidates its prior keeps, on determinizations of its own.
    ``search`` names the reviewing agent as agents are named (``"search"``, ``"search:512"``,
    ``"search:2048:own=value"``); ``None`` is plain ``search``. Another agent's name raises
    ``UsageError``, a name of no agent ``AgentError``. It searches every legal action at each
    decision: seconds a deal at the default budget. Ctrl-C stops it at once (the search under
    way is cut short) and raises ``KeyboardInterrupt``."""
    seat = _str_arg("seat", seat, "a str (E, S, W or N)", "review(): ")
    return _json.loads(_review_json(_path_arg(run, "run"), _deal_id(deal_id), seat,
                                    search=_search_arg(search)))


def _deal_id(deal_id):
    # bool is an int to Python; a deal id of True is a mistake, not deal 1.
    return _int_arg("deal_id", deal_id, 0, _U64)


def load_decisions(run, seats=None, out=None):
    """The decisions table of the run in directory ``run`` (made with ``taisim simulate
    --decisions``) as a dict of numpy arrays, one row per decision: ``obs`` (uint8,
    ``(n, C, 34)``: the observation's numerators), ``obs_scale`` (float32, ``(C, 34)``:
    ``obs * obs_scale`` is exactly the float32 observation the environment produces),
    ``mask`` (bool, ``(n, 144)``), ``action`` (int64), ``reward`` (float32: the seat's
    settlement points for the deal at the run's stakes, which ``simulate`` takes from the
    variant: base 0 for taiwan16, where ``Env``'s default base is one tai's worth; run with
    ``base=`` or make the ``Env`` with ``base=0`` to train both on one scale), ``seat``
    (uint8, 0 = E), ``deal`` (uint64, the deal id), ``step`` (uint32, the decision's number in its deal), and ``obs_version`` (int).

    A search-labelled table (a search agent at a recorded seat, or ``simulate(...,
    label_with="search:N")``) adds the search's labels, in the action space the policy
    scores: ``search_action`` (int64, the search's choice; -1 where no search decided),
    ``search_mean`` (float32, ``(n, 144)``: each action's mean points for the seat at the
    end of the deal; NaN where the search did not estimate it), ``search_advantage``
    (float32, ``(n, 144)``: mean points more than its default, greedy's choice or the value
    agent's under ``own=value``, on the same determinizations; NaN where not estimated) and ``search_rollouts`` (uint32, ``(n,
    144)``: the rollouts behind each mean, 0 where not estimated). A table without labels
    has none of these keys.

    The arrays are filled in Rust, each page of the parts decompressed and copied into place on
    every core, and handed to numpy without a copy (``scripts/bench_load_decisions.py`` times
    it).

    ``seats`` keeps only those seats' rows: ``"E,S"`` or a list such as ``["E", "S"]``.
    A missing run or a run without a decisions table raises ``UsageError``; a damaged part
    ``CorruptRunError`` (both ``ValueError``s; ``OSError`` if it cannot be read), each naming
    the file. A part is checked against the manifest's row count and the table's schema, and
    its rows for what no run records (the row is named): a seat, action or mask byte out of
    range, an action its own mask forbids, a reward that is NaN or infinite, an observation
    numerator above its denominator (outside ``[0, 1]`` once scaled). Its SHA-256 is not
    compared with the manifest's: a part rewritten by another tool (other pages,
    compression) reads as long as its rows pass; ``taisim.compare`` verifies checksums.

    ``out`` reads the table into existing arrays instead of new ones: a dict holding
    ``obs``, ``mask``, ``action``, ``reward``, ``seat``, ``deal`` and ``step`` arrays of the
    dtypes above (``mask`` may be uint8), C-contiguous, all of the table's number of rows,
    such as the dict of a previous call on the same run (or of another run of as many
    decisions) or arrays the caller allocated with ``numpy.empty``. The dict returned holds
    those same arrays, refilled (and the search labels, if any, in fresh arrays). A training loop that reloads its data this way skips the
    kernel's mapping of ~2 GB of fresh memory per million decisions, about two fifths of a
    load's CPU time. Arrays of another shape, dtype or number of rows, or two arrays that
    share memory (one a view of another), raise ``UsageError`` before any is written; after
    any other error their contents are unspecified."""
    if seats is not None and not isinstance(seats, str):
        try:
            seats = ",".join(seats)
        except TypeError:
            raise TypeError(f"load_decisions(): seats must be a str such as \"E,S\" or a list "
                            f"of seats, not {type(seats).__name__}") from None
    if out is not None:
        if not isinstance(out, dict):
            raise TypeError(f"load_decisions(): out must be a dict of arrays "
                            f"({', '.join(_OUT_KEYS)}) or None, not {type(out).__name__}")
        _separate_arrays(out)
    return _load_decisions(_path_arg(run, "run"), seats, out)


#: The arrays ``load_decisions(out=...)`` refills.
_OUT_KEYS = ("obs", "mask", "action", "reward", "seat", "deal", "step")


def _separate_arrays(out):
    """Refuses ``out`` arrays that share memory: filling one would overwrite another's
    rows. The arrays are C-contiguous (checked in Rust), so numpy's bounds test is exact."""
    import numpy as np

    arrays = [(k, out.get(k)) for k in _OUT_KEYS if isinstance(out.get(k), np.ndarray)]
    for i, (a, x) in enumerate(arrays):
        for b, y in arrays[i + 1:]:
            if np.may_share_memory(x, y):
                raise UsageError(f"out[{a!r}] and out[{b!r}] share memory: each table column "
                                 f"needs an array of its own")


def arena(candidate, baseline, *, deals, seed=0, variant="taiwan16", threads=None,
          bot_timeout=None, field=None):
    """A duplicate match of agent ``candidate`` against agent ``baseline`` on ``deals`` walls,
    exactly as ``taisim arena --json`` plays and reports it (the same Rust implementation):
    every wall is played five times, with the candidate in each seat in turn and the baseline
    in the other three, and by four baselines; each seat's difference on the same wall
    cancels the luck of the tiles. With ``field`` (an agent, given as a side is) the other
    three seats are the field's around both sides, each played in every seat against it
    (eight tables a wall, ``--field``): two agents measured head to head among the players
    they will meet.

    Each side is an agent named as on the command line (one name: ``"random"``,
    ``"greedy"``, ``"defensive"``, ``"value"``, ``"trained"``, ``"search"``, ``"search:N"``,
    ``"policy:PATH"``), a policy file's path (``pathlib.Path`` or any path-like), or a policy
    in memory: a policy file's ``bytes`` (:func:`export_policy_bytes`) or a ``torch.nn``
    module :func:`export_policy` accepts, exported on the fly. The report names a policy in
    memory ``policy:<memory sha256:…>`` after its file's bytes. ``variant`` is a shipped
    name or a variant file's path; ``seed`` deals wall ``i`` from ``(seed, i)``; ``threads``
    (default: every core) does not change the result; ``bot_timeout`` is the seconds an
    ``exec:`` side may take over one decision (default 10). The GIL is released while the
    walls are played; Ctrl-C stops the match at once (a search side's decision under way is
    cut short, every table under way ends) and raises ``KeyboardInterrupt``.

    Returns a dict with the fields of ``--json``: ``candidate``, ``baseline``, ``field``
    (only with a field other than the baseline), ``variant``,
    ``seed``, ``deals``, ``deals_played``, ``mean_diff`` (points per deal, candidate minus
    baseline), ``std_error``, ``ci95_low``, ``ci95_high`` (``None`` with one wall),
    ``candidate_stats`` and ``baseline_stats`` (``points_per_deal``, ``win_rate``,
    ``self_draw_rate``, ``deal_in_rate``); ``candidate_in_full``, ``baseline_in_full`` and
    ``field_in_full`` spell out the settings of a side whose name does not (plain
    ``search``). An unknown agent raises ``AgentError``, a policy
    that cannot be played ``PolicyError``, a bad variant ``VariantError``, no walls or a bad
    thread count ``UsageError`` (all ``ValueError``s); a policy file that cannot be read an
    ``OSError`` (``FileNotFoundError`` for a missing one); an ``exec:`` side that fails
    ``BotError``."""
    deals = _int_arg("deals", deals, 1, _U64, who="arena(): ")
    seed = _int_arg("seed", seed, 0, _U64, who="arena(): ")
    threads = _int_arg("threads", threads, 0, _U32, optional=True, who="arena(): ")
    sides = [_arena_side(name, value) for name, value in (("candidate", candidate),
                                                          ("baseline", baseline))]
    if field is not None:
        field = _arena_side("field", field)
    if variant is not None:
        variant = _variant_arg(variant)
    return _json.loads(_arena(*sides, deals=deals, seed=seed, variant=variant,
                              threads=threads,
                              bot_timeout=_timeout_arg(bot_timeout, "arena(): "),
                              field=field))


def _arena_side(name, value):
    """One side of :func:`arena` as the native call takes it: an agent's name or a policy
    file's bytes."""
    if isinstance(value, str):
        return value
    if isinstance(value, _os.PathLike):
        return "policy:" + _os.fspath(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    # A torch module is exported in memory; torch is only looked for when it is loaded.
    torch = _sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.nn.Module):
        return export_policy_bytes(value)
    raise TypeError(f"arena(): {name} must be an agent name (str), a policy file's path or "
                    f"bytes, or a torch.nn module, not {type(value).__name__}")


__all__ = [
    "ACTION_SPACE_SIZE",
    "GYM_IDS",
    "MAX_NUM_ENVS",
    "__version__",
    "score_many",
    "OBS_SHAPE",
    "OBS_VERSION",
    "PASS_ACTION",
    "Env",
    "LegalizeActions",
    "TaisimAEC",
    "VecEnv",
    "action_name",
    "score",
    "simulate",
    "arena",
    "compare",
    "AgentError",
    "CorruptRunError",
    "EngineError",
    "BotError",
    "ProtocolError",
    "IllegalActionError",
    "PolicyError",
    "ScoreRequestError",
    "StakesError",
    "UsageError",
    "ResetNeeded",
    "VariantError",
    "load_decisions",
    "aec_env",
    "obs_rows",
    "obs_scalar_columns",
    "ObsRow",
]
