"""A worker's game names its node; played outside Ray (a test, a worker
function called directly) it must not start Ray to find out: asking Ray for
its runtime context starts a local Ray instance, listening on the machine's
interface, and once did so in the middle of the main test run."""

from __future__ import annotations

import socket
import sys
import types

import pytest

from tournament.executors.ray_task import node_name


def _ray_that_counts_its_starts(monkeypatch: pytest.MonkeyPatch, initialized: bool) -> list[str]:
    """A stand-in for the ray module: asking for the runtime context is what
    started Ray; it is counted, never done."""
    asked: list[str] = []
    ray = types.ModuleType("ray")

    def get_runtime_context() -> types.SimpleNamespace:
        asked.append("runtime context")
        return types.SimpleNamespace(get_node_id=lambda: "1a2b3c4d5e6f")

    ray.get_runtime_context = get_runtime_context  # type: ignore[attr-defined]
    ray.is_initialized = lambda: initialized  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)
    return asked


def test_outside_ray_the_node_is_the_host_and_ray_is_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _ray_that_counts_its_starts(monkeypatch, initialized=False)
    assert node_name() == socket.gethostname()
    assert asked == []


def test_inside_ray_the_node_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _ray_that_counts_its_starts(monkeypatch, initialized=True)
    assert node_name() == f"{socket.gethostname()} (node 1a2b3c4d)"
    assert asked == ["runtime context"]
