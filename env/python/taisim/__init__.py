"""taisim: Taiwanese 16-tile mahjong environments over the taisim Rust engine.

- ``taisim.Env``: a Gymnasium ``Env``; the learner holds one seat, built-in agents the rest.
- ``taisim.aec_env()``: a PettingZoo AEC environment of all four seats.
- ``taisim.VecEnv``: many environments stepped together in Rust, numpy batches out.
- ``taisim.simulate()``: seeded self-play into a Parquet dataset, as ``taisim simulate``.
- ``taisim.score()``: the tai of one winning hand, as ``taisim score --json``.

Actions are indices into a fixed discrete space of ``ACTION_SPACE_SIZE``; every step comes
with a 0/1 ``int8`` mask of the legal ones. ``action_name(i)`` names an index.
"""

import json as _json

from taisim._native import ACTION_SPACE_SIZE, OBS_SHAPE, OBS_VERSION, action_name
from taisim._native import score_json as _score_json
from taisim._native import simulate as _simulate
from taisim.aec import TaisimAEC, aec_env
from taisim.gym_env import Env
from taisim.vec_env import VecEnv
from taisim.wrappers import LegalizeActions



def score(request):
    """Scores a winning hand: ``request`` has the fields of ``taisim score --json``
    (``hand``, ``win_tile``, ``win``, ``seat``, ``melds``, ``flowers``, ``context``,
    ``variant``, ``base``, ``per_tai``, ...); the answer has ``total_tai``, ``dealer_tai``,
    ``patterns`` and, with ``base`` and ``per_tai``, ``settlement``. An impossible request
    raises ``ValueError`` naming the problem."""
    if not isinstance(request, dict):
        raise TypeError(f"score() takes a dict, not {type(request).__name__}")
    return _json.loads(_score_json(_json.dumps(request)))


def simulate(out=None, *, variant=None, deals=None, games=None, seed=None, agents=None,
             threads=None, part_size=None, shard=None, log_actions=False, base=None,
             per_tai=None, resume=False, progress=False):
    """Plays seeded self-play deals (or full ``games``) in parallel into a Parquet dataset and
    returns its directory, exactly as ``taisim simulate`` does with the same arguments:
    ``deals/``, ``wins/`` and ``tai/`` part files and a ``manifest.json``. Unset arguments
    take the CLI's defaults (1,000,000 deals of ``taiwan16``, greedy agents, seed 0, into
    ``runs/<UTC timestamp>``). ``agents`` is one name or four comma-separated in seat order
    E,S,W,N; ``shard`` is ``"K/N"``; ``resume=True`` continues the run in ``out``.

    Bad arguments raise ``ValueError`` (``TypeError`` for a wrong type); a failed write
    raises ``OSError`` and keeps the complete parts."""
    for name, value in (("deals", deals), ("games", games), ("seed", seed),
                        ("threads", threads), ("part_size", part_size)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise TypeError(f"simulate(): {name} must be an int, not {type(value).__name__}")
        if value is not None and value < 0:
            raise ValueError(f"simulate(): {name} must not be negative, got {value}")
    if out is not None:
        out = str(out)
    return _simulate(out, variant=variant, deals=deals, games=games, seed=seed,
                     agents=agents, threads=threads, part_size=part_size, shard=shard,
                     log_actions=log_actions, base=base, per_tai=per_tai, resume=resume,
                     progress=progress)


__all__ = [
    "ACTION_SPACE_SIZE",
    "OBS_SHAPE",
    "OBS_VERSION",
    "Env",
    "LegalizeActions",
    "TaisimAEC",
    "VecEnv",
    "action_name",
    "score",
    "simulate",
    "aec_env",
]
