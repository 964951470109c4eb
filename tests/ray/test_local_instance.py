"""`--ray` alone starts a Ray instance of the run's own on this machine."""

from __future__ import annotations

import pytest

from tournament.executors.ray import _connected
from tournament.executors.settings import ExecutorSettings


def test_starting_ray_here_prints_no_notice_about_its_token(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray turns token authentication on for an instance it starts when
    RAY_AUTH_MODE is unset, and said so, with how to turn it off, in a line of
    plain text among the run's JSON log lines, on every `--ray` run."""
    # Set first, so that the mode Ray puts in the environment is undone after.
    monkeypatch.setenv("RAY_AUTH_MODE", "")
    monkeypatch.delenv("RAY_AUTH_MODE")
    with _connected(ExecutorSettings(kind="ray", num_cpus=1), {}):
        import ray

        assert ray.is_initialized()
    output = capfd.readouterr()
    assert "Token authentication is enabled" not in output.out + output.err
