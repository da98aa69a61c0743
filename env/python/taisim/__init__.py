"""taisim: Taiwanese 16-tile mahjong environments over the taisim Rust engine.

- ``taisim.Env``: a Gymnasium ``Env``; the learner holds one seat, built-in agents the rest.
- ``taisim.aec_env()``: a PettingZoo AEC environment of all four seats.
- ``taisim.VecEnv``: many environments stepped together in Rust, numpy batches out.

Actions are indices into a fixed discrete space of ``ACTION_SPACE_SIZE``; every step comes
with a 0/1 ``int8`` mask of the legal ones. ``action_name(i)`` names an index.
"""

import json as _json

from taisim._native import ACTION_SPACE_SIZE, OBS_SHAPE, OBS_VERSION, action_name
from taisim._native import score_json as _score_json
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
    "aec_env",
]
