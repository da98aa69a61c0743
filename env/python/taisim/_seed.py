"""Seeds: Python ints of any size become the engine's u64 seeds."""

import numpy as np

_U64 = (1 << 64) - 1


def to_u64(seed, rng: np.random.Generator) -> int:
    """``seed`` as a u64, or a fresh one from ``rng`` when it is None."""
    if seed is None:
        return int(rng.integers(0, _U64, dtype=np.uint64))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    return int(seed) & _U64
