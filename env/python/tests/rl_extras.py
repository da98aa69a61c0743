"""The RL extras (scripts/requirements-rl.txt: torch, safetensors' torch side, Stable-Baselines3,
sb3-contrib) for the tests that need them.

Where they are meant to be installed (``TAISIM_RL`` unset or not ``0``, as in CI) they are
imported directly, so a broken install fails the tests that need it instead of skipping them;
with ``TAISIM_RL=0`` (scripts/python-env.sh then leaves them out) those tests are skipped, and
the skip reason names ``TAISIM_RL=0``, the only skip scripts/test.sh accepts."""

import importlib
import os

import pytest

#: Whether scripts/python-env.sh installed the RL extras.
WANTED = os.environ.get("TAISIM_RL", "1") != "0"

#: What every expected skip's reason says (conftest.py lets only these pass under test.sh).
SKIP_REASON = "TAISIM_RL=0: the RL extras are not installed"


def rl_import(name):
    """The module ``name``: imported directly when the RL extras are wanted, else imported if
    present and the calling test module skipped if not."""
    if WANTED:
        return importlib.import_module(name)
    try:
        return importlib.import_module(name)
    except ImportError:
        pytest.skip(f"{SKIP_REASON} ({name})", allow_module_level=True)
