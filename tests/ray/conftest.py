"""One small multi-node Ray cluster on this machine, shared by every Ray test.

These tests run only inside a private network namespace whose one interface is
loopback (tests/tournament/test_ray_cluster.py starts them that way: `unshare
--net`, then `ip link set lo up`), because Ray binds the machine's network
interface by default: in the namespace, none of its traffic can leave loopback.
A run outside such a namespace fails at once and says so.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

NAMESPACE_HELP = (
    "the Ray tests must run inside a private network namespace with only loopback up; "
    "run them as `make test-ray`, or: unshare --net sh -c 'ip link set lo up && "
    ".venv/bin/python -m pytest tests/ray'"
)


def interfaces() -> list[str]:
    """The network interfaces of this process's network namespace."""
    return [name for _index, name in socket.if_nameindex()]


@pytest.fixture(scope="session", autouse=True)
def private_network() -> None:
    """Fail every test here unless loopback is the only interface, and it is up."""
    others = [name for name in interfaces() if name != "lo"]
    if others:
        pytest.fail(f"network interfaces {', '.join(others)} are visible: {NAMESPACE_HELP}")
    try:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
    except OSError as error:
        pytest.fail(f"loopback is not up ({error}): {NAMESPACE_HELP}")


@pytest.fixture(scope="session")
def cluster(private_network: None) -> Iterator[Any]:
    """A head node that plays no games and two one-CPU worker nodes.

    Tests may remove a worker node and must add one back (see `replace_node`)."""
    try:
        from ray.cluster_utils import Cluster
    except ImportError:
        pytest.fail("Ray is not installed: pip install -e '.[dev]' (it brings sheepfold[ray])")
    # Its sessions in a folder removed after, not added to /tmp/ray on every run
    # (short: a Unix socket's path has at most 107 bytes).
    folder = tempfile.mkdtemp(prefix="sheepfold-tests-ray-", dir="/tmp")
    try:
        ray_cluster = _head_in(folder, Cluster)
        try:
            for _ in range(2):
                ray_cluster.add_node(num_cpus=1)
            ray_cluster.wait_for_nodes()
            yield ray_cluster
        finally:
            ray_cluster.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _head_in(folder: str, cluster: Any) -> Any:
    """A Cluster whose head keeps its session in `folder`. Starting the head also
    writes its address into Ray's default temp folder, whatever temp_dir says,
    and fails where /tmp/ray does not exist (a fresh machine): RAY_TMPDIR moves
    that file into `folder` while the head starts, and only then, since the
    runs the tests start choose their own folders by it."""
    os.mkdir(os.path.join(folder, "ray"))
    saved = os.environ.get("RAY_TMPDIR")
    os.environ["RAY_TMPDIR"] = folder
    try:
        return cluster(
            initialize_head=True,
            head_node_args={"num_cpus": 0, "include_dashboard": False, "temp_dir": folder},
        )
    finally:
        if saved is None:
            os.environ.pop("RAY_TMPDIR", None)
        else:
            os.environ["RAY_TMPDIR"] = saved
