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

from tournament.executors.ray_connect import connected
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
    with connected(ExecutorSettings(kind="ray"), {}):
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


# What ray.init raises (RuntimeEnvSetupError) when the folders to ship are too big.
TOO_BIG = (
    "Failed to set up runtime environment.\n"
    "Failed to upload working_dir /srv/cup to the Ray cluster: Package size (550.17MiB) "
    "exceeds the maximum size of 512.00MiB. To exclude large files, add them to "
    "'.gitignore' or '.rayignore' files, or use the 'excludes' option in the runtime_env, "
    "or provide a URI of a remote zip file. For more information, refer to "
    "https://docs.ray.io/en/latest/ray-core/handling-dependencies.html#api-reference."
)


def test_a_config_folder_too_big_to_ship_says_so_and_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first line alone was "Failed to set up runtime environment.", without
    the reason, and Ray's advice (.gitignore, `excludes`) does not apply to a
    tournament."""

    def init(**_: object) -> None:
        raise RuntimeError(TOO_BIG)

    _stub_ray(monkeypatch, init)
    with pytest.raises(RunError) as raised:
        _start()
    assert str(raised.value) == (
        "cannot start or join a local Ray instance: the files to ship from /srv/cup come to "
        "550.17MiB, above Ray's limit of 512.00MiB: leave big files out with a .rayignore "
        "file there (one pattern a line, as in .gitignore), or move them"
    )


def test_a_runtime_environment_failure_keeps_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    def init(**_: object) -> None:
        raise RuntimeError("Failed to set up runtime environment.\nPermission denied: '/srv/cup'")

    _stub_ray(monkeypatch, init)
    with pytest.raises(RunError, match=r"environment: Permission denied: '/srv/cup'$"):
        _start()


def test_what_ray_started_before_ctrl_c_is_shut_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C or SIGTERM once ray.init had started Ray's processes left its
    dashboard and runtime-environment agents running for about a minute after
    the command had exited: nothing shut down the half-started instance."""
    shut: list[bool] = []

    def init(**_: object) -> None:
        raise KeyboardInterrupt

    _stub_ray(monkeypatch, init)
    monkeypatch.setattr(sys.modules["ray"], "shutdown", lambda: shut.append(True))
    with pytest.raises(KeyboardInterrupt):
        _start()
    assert shut == [True]
