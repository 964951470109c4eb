"""Runs the Ray tests (tests/ray) in a private network namespace.

Ray binds the machine's network interface by default, so its tests never run in
the main test process: this test starts them under `unshare --net` (`unshare
-rn` for a user who is not root) with only loopback up, where none of Ray's
traffic can leave this machine, and fails with their output if any fails.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# They take about 145 s on 2 idle cores; `make test` runs them beside the
# browser step, where they took 220 s and once more than 300.
RAY_TESTS_SECONDS = 540

pytestmark = [pytest.mark.netns, pytest.mark.watchdog(RAY_TESTS_SECONDS + 30)]


def test_the_ray_cluster_tests_pass_inside_a_private_network_namespace() -> None:
    """tests/ray inside `unshare --net` with only loopback up (`ip link set lo up`)."""
    missing = [tool for tool in ("unshare", "ip") if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} not found: install util-linux and iproute2 "
            "(apt-get install util-linux iproute2) to run the Ray tests"
        )
    namespace = ["unshare", "--net"] if os.geteuid() == 0 else ["unshare", "-rn"]
    script = (
        'ip link set lo up && exec "$0" -m pytest tests/ray -v -p no:cacheprovider --durations=10'
    )
    # Each test's line as it ends (-v) names the one that hung; pytest's own
    # stack dump (faulthandler_timeout, 300 s) would come before the bound.
    faulthandler.dump_traceback_later(RAY_TESTS_SECONDS + 10)
    # A process group of their own: stopped at the bound, the servers and bots
    # they started go with them (a killed run once left a `serve` behind).
    process = subprocess.Popen(
        [*namespace, "sh", "-c", script, sys.executable],
        cwd=ROOT,
        env={**os.environ, "SHEEPFOLD_RAY_NAMESPACE": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        said, _ = process.communicate(timeout=RAY_TESTS_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        said, _ = process.communicate()
        pytest.fail(f"the Ray tests took over {RAY_TESTS_SECONDS} s:\n{_shown(said)}")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, f"the Ray tests failed:\n{_shown(said)}"


def _shown(output: str) -> str:
    """The end of the Ray tests' output, without Ray's note that it found no
    external route (one a process)."""
    lines = [line for line in output.splitlines() if "network_util.cc" not in line]
    return "\n".join(lines)[-6000:]
