"""Seeds, paths and other arguments checked the same way by every environment and function.

A seed is ``None`` (draw a fresh one) or an int in ``0 .. 2**64 - 1``: the engine's seeds are
u64. Negative seeds and seeds of ``2**64`` or more are refused with ``taisim.UsageError`` (a
``ValueError``) by ``Env``, ``VecEnv`` and the AEC env alike, rather than wrapped into another
seed silently. Every integer argument goes through :func:`int_arg`, which names the argument
and its range where the engine's fixed-width ints would give a bare ``OverflowError``.
"""

import os

import numpy as np

from taisim._native import ACTION_SPACE_SIZE, IllegalActionError, UsageError

U64 = (1 << 64) - 1
U32 = (1 << 32) - 1
I64 = (1 << 63) - 1


def _bound(n):
    """A range's end as the reader knows it: ``2**64 - 1`` rather than its twenty digits."""
    for bits in (64, 63, 32):
        if n == (1 << bits) - 1:
            return f"2**{bits} - 1"
    return str(n)


def int_arg(name, value, lo, hi, *, optional=False, who=""):
    """``value`` as a Python int in ``lo .. hi`` (both included): ``TypeError`` for what is no
    int (a bool included), ``taisim.UsageError`` naming ``name`` (after ``who``, the function,
    as ``"simulate(): "``) and the range for an int outside it. ``None`` passes when
    ``optional``. The one check of every integer argument, so none reaches the engine's
    fixed-width ints to fail there as a bare ``OverflowError``."""
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        allowed = "an int or None" if optional else "an int"
        raise TypeError(f"{who}{name} must be {allowed}, not {type(value).__name__}")
    value = int(value)
    if not lo <= value <= hi:
        negative = ", not negative" if value < 0 == lo else ""
        raise UsageError(f"{who}{name} {value} is out of range: {name} must be "
                         f"{_bound(lo)} to {_bound(hi)}{negative}")
    return value


def check_seed(seed):
    """``seed`` as a Python int, or None; a clear error for anything else."""
    return int_arg("seed", seed, 0, U64, optional=True)


def to_u64(seed, rng: np.random.Generator) -> int:
    """``seed`` checked as by :func:`check_seed`, or a fresh u64 from ``rng`` when it is None."""
    seed = check_seed(seed)
    if seed is None:
        return int(rng.integers(0, U64, dtype=np.uint64, endpoint=True))
    return seed


def one_action(action):
    """One action as a Python int, of any size: ints and 0-d integer arrays only (an array of
    more raises ``IllegalActionError``, what is no int ``TypeError``)."""
    if isinstance(action, np.ndarray):
        if action.ndim != 0:
            raise IllegalActionError(f"one action expected, got an array of shape {action.shape}")
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action must be an int, not {type(action).__name__}")
    return int(action)


def check_action(action):
    """One action index as a Python int (:func:`one_action`). The range is checked by the
    engine, which names the action space."""
    action = one_action(action)
    # The engine takes an i64; beyond it the action is out of range all the same.
    if not -(1 << 63) <= action < (1 << 63):
        raise IllegalActionError(f"action {action} is out of range: the action space is "
                                 f"0 to {ACTION_SPACE_SIZE - 1}")
    return action


def variant_arg(variant):
    """A variant name or any path-like (``str``, ``bytes``, ``pathlib.Path``,
    ``os.PathLike``) as the string the engine looks up."""
    if isinstance(variant, str):
        return variant
    if isinstance(variant, (bytes, os.PathLike)):
        return path_arg(variant, "variant")
    raise TypeError(f"variant must be a name or a path, not {type(variant).__name__}")


def str_arg(name, value, what="a str", who=""):
    """``value`` when it is a ``str``; anything else is a ``TypeError`` naming ``name`` (after
    ``who``, the function) and ``what`` it takes, where pyo3 would say only that an int
    "cannot be converted to 'PyString'"."""
    if not isinstance(value, str):
        raise TypeError(f"{who}{name} must be {what}, not {type(value).__name__}")
    return value


def optional_str(name, value, what="a str", who=""):
    """:func:`str_arg`, ``None`` passing as the argument's default."""
    return None if value is None else str_arg(name, value, f"{what} or None", who)


def bool_arg(name, value, who=""):
    """``value`` as a bool: ``True`` or ``False`` (a numpy bool too), never a truthy string
    such as ``"no"``; anything else is a ``TypeError`` naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{who}{name} must be True or False, not {type(value).__name__}")
    return bool(value)


def names_arg(name, value, what, who=""):
    """A comma-separated list the engine reads (``agents``, ``decisions``) given as a ``str``
    or as a list or tuple of ``str``, joined with commas; ``None`` passes. An entry that holds
    a comma would be split into two by the engine: ``UsageError``. Anything else is a
    ``TypeError`` naming ``name`` and ``what`` it takes."""
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{who}{name} must be {what}, not {type(value).__name__}")
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise TypeError(f"{who}{name}[{i}] must be a str, not {type(v).__name__}")
        if "," in v:
            raise UsageError(f"{who}{name}[{i}] {v!r} holds a comma, which separates the "
                             f"entries of the list (a command that needs one goes in a "
                             f"script)")
    return ",".join(value)


def timeout_arg(value, who=""):
    """``bot_timeout``: seconds as a float, or None for the default. ``TypeError`` naming it
    for what is no real number (a bool, a string), rather than ``float()``'s own message;
    the engine names a value out of its range."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{who}bot_timeout must be a number of seconds or None, "
                        f"not {type(value).__name__}")
    return float(value)


class ResetNeeded(UsageError, RuntimeError):
    """A call out of order: ``step()`` or ``action_masks()`` before the first ``reset()`` (or
    ``step()`` after the deal ended). A ``taisim.UsageError`` as the other calls that need a
    deal raise, and a ``RuntimeError`` as it was first raised. The extension raises it
    itself (``errors.rs``), so no caller reads the engine's message to tell it."""


def reraise_in_use(error, what):
    """Raises ``taisim.UsageError`` in place of ``error`` when it is pyo3's refusal of a
    second borrow of a native object (``RuntimeError: Already borrowed``): ``what`` (an
    ``Env``, a ``VecEnv``) is in use by another thread. Any other error is left to the caller
    to re-raise."""
    if type(error) is RuntimeError and str(error) in ("Already borrowed",
                                                      "Already mutably borrowed"):
        raise UsageError(f"this {what} is in use by another thread: one environment takes "
                         f"one call at a time") from None


def optional_int(name, value, who=""):
    """``value`` (``base``, ``per_tai``) as an int or None; the engine refuses stakes past the
    settlement's bounds."""
    return int_arg(name, value, 0, I64, optional=True, who=who)


def path_arg(path, name="path"):
    """A path given as ``str``, ``bytes`` or any ``os.PathLike``, as the ``str`` the engine
    opens; anything else (an int, None) is a ``TypeError`` naming ``name``, as
    ``os.fspath`` gives it, never a directory named after it."""
    try:
        path = os.fspath(path)
    except TypeError:
        raise TypeError(f"{name} must be a path (str, bytes or os.PathLike), "
                        f"not {type(path).__name__}") from None
    return os.fsdecode(path) if isinstance(path, bytes) else path


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
