"""Seeds and other integer arguments checked the same way by every environment.

A seed is ``None`` (draw a fresh one) or an int in ``0 .. 2**64 - 1``: the engine's seeds are
u64. Negative seeds and seeds of ``2**64`` or more are refused with ``taisim.UsageError`` (a
``ValueError``) by ``Env``, ``VecEnv`` and the AEC env alike, rather than wrapped into another
seed silently.
"""

import os

import numpy as np

from taisim._native import ACTION_SPACE_SIZE, IllegalActionError, UsageError

_U64 = (1 << 64) - 1


def check_seed(seed):
    """``seed`` as a Python int, or None; a clear error for anything else."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    seed = int(seed)
    if not 0 <= seed <= _U64:
        raise UsageError(f"seed {seed} is out of range: seeds are 0 .. 2**64 - 1")
    return seed


def to_u64(seed, rng: np.random.Generator) -> int:
    """``seed`` checked as by :func:`check_seed`, or a fresh u64 from ``rng`` when it is None."""
    seed = check_seed(seed)
    if seed is None:
        return int(rng.integers(0, _U64, dtype=np.uint64, endpoint=True))
    return seed


def check_action(action):
    """One action index as a Python int: ints and 0-d integer arrays only. The range is
    checked by the engine, which names the action space."""
    if isinstance(action, np.ndarray):
        if action.ndim != 0:
            raise IllegalActionError(f"one action expected, got an array of shape {action.shape}")
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action must be an int, not {type(action).__name__}")
    action = int(action)
    # The engine takes an i64; beyond it the action is out of range all the same.
    if not -(1 << 63) <= action < (1 << 63):
        raise IllegalActionError(f"action {action} is out of range: the action space is 0..{ACTION_SPACE_SIZE}")
    return action


def variant_arg(variant):
    """A variant name or any path-like (``str``, ``pathlib.Path``, ``os.PathLike``) as the
    string the engine looks up."""
    if isinstance(variant, str):
        return variant
    if isinstance(variant, os.PathLike):
        path = os.fspath(variant)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        return path
    raise TypeError(f"variant must be a name or a path, not {type(variant).__name__}")


def optional_int(name, value):
    """``value`` (``base``, ``per_tai``) as an int or None; negative values are refused by the engine."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
    value = int(value)
    if not 0 <= value < (1 << 63):
        raise UsageError(f"{name} must be between 0 and 2**63 - 1, got {value}")
    return value


def numpy_info(info):
    """An info dict from the engine, its ``deal_seed`` a ``numpy.uint64``: a u64 seed often
    exceeds a C long, and vector environments batch info ints into int64 arrays unless the
    value carries its own numpy type."""
    info["deal_seed"] = np.uint64(info["deal_seed"])
    return info


def search_arg(search):
    """A review's ``search`` argument: None (plain ``search``) or an agent's name."""
    if search is not None and not isinstance(search, str):
        raise TypeError(f"review(): search must be a str, not {type(search).__name__}")
    return search
