"""Ctrl-C or SIGTERM while `tournament run --ray` starts Ray stops the run as
Ctrl-C does; it was reported as "cannot start or join a local Ray instance:
KeyboardInterrupt" (or ": 15"), exit 1. Ray itself is stubbed: it is never
started outside a network namespace."""

from __future__ import annotations

import signal
import sys
import types
from collections.abc import Callable, Iterator

import pytest

from tournament.executors.ray import _connected
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError


def _stub_ray(monkeypatch: pytest.MonkeyPatch, init: Callable[..., None]) -> None:
    ray = types.ModuleType("ray")
    ray.init = init  # type: ignore[attr-defined]
    ray.shutdown = lambda: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)


@pytest.fixture
def own_sigterm() -> Iterator[Callable[..., None]]:
    def handler(signum: int, frame: object) -> None:
        pass

    before = signal.signal(signal.SIGTERM, handler)
    try:
        yield handler
    finally:
        signal.signal(signal.SIGTERM, before)


def _start() -> None:
    with _connected(ExecutorSettings(kind="ray"), {}):
        pass


def test_ctrl_c_while_ray_starts_is_an_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    def init(**_: object) -> None:
        raise KeyboardInterrupt

    _stub_ray(monkeypatch, init)
    with pytest.raises(KeyboardInterrupt):
        _start()


def test_sigterm_while_ray_starts_is_an_interrupt_and_the_handler_comes_back(
    monkeypatch: pytest.MonkeyPatch, own_sigterm: Callable[..., None]
) -> None:
    def init(**_: object) -> None:
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(signum))  # as Ray does
        sys.exit(signal.SIGTERM)

    _stub_ray(monkeypatch, init)
    with pytest.raises(KeyboardInterrupt):
        _start()
    assert signal.getsignal(signal.SIGTERM) is own_sigterm


def test_a_failing_ray_start_is_still_a_run_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def init(**_: object) -> None:
        raise RuntimeError("no room")

    _stub_ray(monkeypatch, init)
    with pytest.raises(RunError, match="cannot start or join a local Ray instance: no room"):
        _start()
