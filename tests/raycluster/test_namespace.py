"""Runs the Ray tests (tests/ray) in a private network namespace.

Ray binds the machine's network interface by default, so its tests never run in
the main test process: this test starts them under `unshare --net` (`unshare
-rn` for a user who is not root) with only loopback up, where none of Ray's
traffic can leave this machine, and fails with their output if any fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Under the suite's per-test watchdog (tests/conftest.py).
RAY_TESTS_SECONDS = 300

pytestmark = pytest.mark.netns


def test_the_ray_cluster_tests_pass_inside_a_private_network_namespace() -> None:
    """tests/ray inside `unshare --net` with only loopback up (`ip link set lo up`)."""
    missing = [tool for tool in ("unshare", "ip") if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} not found: install util-linux and iproute2 "
            "(apt-get install util-linux iproute2) to run the Ray tests"
        )
    namespace = ["unshare", "--net"] if os.geteuid() == 0 else ["unshare", "-rn"]
    script = 'ip link set lo up && exec "$0" -m pytest tests/ray -q -p no:cacheprovider'
    result = subprocess.run(
        [*namespace, "sh", "-c", script, sys.executable],
        cwd=ROOT,
        env={**os.environ, "SHEEPFOLD_RAY_NAMESPACE": "1"},
        capture_output=True,
        text=True,
        timeout=RAY_TESTS_SECONDS,
        check=False,
    )
    output = "\n".join(
        line
        for line in (result.stdout + result.stderr).splitlines()
        if "network_util.cc" not in line  # Ray's note that it found no external route
    )
    assert result.returncode == 0, f"the Ray tests failed:\n{output[-6000:]}"
