"""`--ray` alone starts a Ray instance of the run's own on this machine, and
nothing of it stays after the run."""

from __future__ import annotations

import glob
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tournament.executors.ray_connect import connected
from tournament.executors.ray_local import FOLDER_PREFIX
from tournament.executors.settings import ExecutorSettings


def _sessions() -> set[str]:
    """Ray's session folders in its usual place, this process's."""
    return set(glob.glob(f"/tmp/ray/session_*_{os.getpid()}"))


def test_starting_ray_here_keeps_its_session_and_token_in_a_folder_of_its_own(
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    cluster: Any,
) -> None:
    """Ray made a session folder in /tmp/ray on every run and left it there; it
    wrote its authentication token to ~/.ray/auth_token, readable by everyone
    (0644), and said it turned token authentication on, and how to turn it off,
    in a line of plain text among the run's JSON log lines."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    # Set first, so that what Ray puts in the environment is undone after.
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    before = _sessions()
    with connected(ExecutorSettings(kind="ray", num_cpus=1), {}):
        import ray

        # A new instance, not a cluster already running here.
        assert [node["Resources"].get("CPU") for node in ray.nodes()] == [1.0]
        session = Path(ray._private.worker._global_node.get_session_dir_path())
        folder = session.parent.parent  # Ray's own folder is in it
        token = folder / "auth_token"
        assert folder.name.startswith(FOLDER_PREFIX), session
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert stat.S_IMODE(token.stat().st_mode) == 0o600
        assert os.environ["RAY_AUTH_MODE"] == "token"
        assert _sessions() == before
    assert not folder.exists()
    assert not (home / ".ray").exists()
    assert "RAY_AUTH_TOKEN_PATH" not in os.environ
    output = capfd.readouterr()
    assert "Token authentication is enabled" not in output.out + output.err
    # Nor does its token mode, which Ray (2.60) leaves in the environment and in
    # its configuration: a later join of a cluster without tokens from this
    # process failed, "Token authentication is enabled but no authentication
    # token was found".
    assert "RAY_AUTH_MODE" not in os.environ
    with connected(ExecutorSettings(kind="ray", address=cluster.address), {}):
        assert ray.get_runtime_context().gcs_address == cluster.address
