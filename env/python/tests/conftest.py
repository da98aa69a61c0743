import os

import pytest

import taisim
from rl_extras import SKIP_REASON



@pytest.fixture
def legal():
    """The legal indices of a mask."""

    def indices(mask):
        return [int(i) for i in (mask == 1).nonzero()[0]]

    return indices


@pytest.fixture
def space_size():
    return taisim.ACTION_SPACE_SIZE


# Tests must not go quiet: under scripts/test.sh (TAISIM_NO_UNEXPECTED_SKIPS=1) a skipped test
# or module fails the session unless its reason is the one expected skip, the RL extras left
# out with TAISIM_RL=0. A broken install, a missing reader or a stray skip marker shows as a
# failure with its reason, not as a quiet "s".
_skipped = []


def _reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append((report.nodeid, _reason(report)))


def pytest_collectreport(report):
    if report.skipped:
        _skipped.append((report.nodeid, _reason(report)))


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("TAISIM_NO_UNEXPECTED_SKIPS") != "1":
        return
    unexpected = [(node, why) for node, why in _skipped if SKIP_REASON not in why]
    if unexpected:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"{len(unexpected)} unexpected skip(s) (TAISIM_NO_UNEXPECTED_SKIPS=1):"]
        lines += [f"  {node}: {why}" for node, why in unexpected]
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line("\n".join(lines), red=True)
        session.exitstatus = 1


@pytest.fixture
def interrupted():
    """Runs ``call`` (Python source using ``taisim``) in a fresh interpreter that sends itself
    SIGINT (Ctrl-C) ``after`` seconds in, and returns what it printed: ``interrupted`` when
    the call raised ``KeyboardInterrupt``. A call that does not answer the signal runs to its
    end, which the callers make days away, so the child is killed at ``limit`` seconds and
    the test fails there instead of hanging."""
    import subprocess
    import sys

    def run(call, after=0.5, limit=120):
        code = ("import os, signal, threading, taisim\n"
                f"threading.Timer({after}, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
                "try:\n"
                f"    {call}\n"
                "    print('returned')\n"
                "except KeyboardInterrupt:\n"
                "    print('interrupted')\n")
        try:
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  timeout=limit)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{call} did not stop within {limit} s of Ctrl-C")
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    return run
