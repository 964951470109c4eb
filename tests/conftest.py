"""Fixtures shared by the end-to-end tests: real servers on loopback ports."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
import structlog
from sheepfold.stop_signals import STOP_SIGNALS
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from clients.sdk import play
from server import launch
from server.app import ServerConfig
from server.inprocess import InProcessServer, serving_here
from server.launch import ServerProcess

ROOT = launch.ROOT


# The folders of the servers' own databases, removed when the test session ends.
_SERVER_DB_FOLDERS: list[Path] = []


def start_server_process(*extra: str, env: dict[str, str] | None = None) -> ServerProcess:
    """`sheepfold serve` as a subprocess on a free port; waits until it listens.

    Each server gets a fresh SQLite file unless `extra` names its own `--db`.
    """
    if "--db" not in extra:
        folder = Path(tempfile.mkdtemp(prefix="sheepfold-test-server-"))
        _SERVER_DB_FOLDERS.append(folder)
        extra = ("--db", str(folder / "server.db"), *extra)
    return launch.start(launch.serve_command(*extra), env=env)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for folder in _SERVER_DB_FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)


def stop_server_process(server: ServerProcess) -> int:
    """SIGTERM, as an operator would; returns the exit code."""
    return launch.stop(server)


@contextlib.contextmanager
def server_logging_no_fault(*extra: str) -> Iterator[ServerProcess]:
    """`start_server_process(*extra)`, stopped at the end, whose log must then
    hold nothing a client's mistake may cause: a traceback, an error or
    critical entry, gRPC core's own error lines."""
    server = start_server_process(*extra)
    try:
        yield server
    finally:
        assert stop_server_process(server) == 0
        faults = [line for line in server.log_lines if _is_fault(line)]
        assert not faults, "".join(faults[:5])


def _is_fault(line: str) -> bool:
    if "Traceback" in line:
        return True
    try:
        entry = json.loads(line)
    except json.JSONDecodeError:
        return re.match(r"E\d{4} ", line) is not None  # gRPC core's own error lines
    return entry.get("level") in ("error", "critical")


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    """Fails the test with the sandbox's own message (what to install) when it cannot run."""
    from clients.launch import Launcher, SandboxUnavailable

    try:
        Launcher().check()
    except SandboxUnavailable as error:
        pytest.fail(f"the bot sandbox cannot run on this machine: {error}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the sandbox is marked so: `make test` runs those as a step
    of their own, reported NOT RUN (not failed) where bubblewrap is missing."""
    for item in items:
        if "sandbox_ready" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.sandbox)


# A test still running after this long is stuck. pytest's faulthandler_timeout
# (pyproject.toml, 300 s) dumps every thread's stack first; then this ends the
# run, so a hang fails at once instead of holding CI until its limit.
TEST_WATCHDOG_SECONDS = 330


@pytest.fixture(autouse=True)
def _watchdog(request: pytest.FixtureRequest) -> Iterator[None]:
    # @pytest.mark.watchdog(SECONDS): a test that runs others and bounds them itself.
    marker = request.node.get_closest_marker("watchdog")
    seconds = float(marker.args[0]) if marker else TEST_WATCHDOG_SECONDS
    timer = threading.Timer(seconds, os._exit, args=(3,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def pytest_configure(config: pytest.Config) -> None:
    # Started in the background by a shell without job control (`make test &`
    # in a script), the suite ignores SIGINT, and so would every program a test
    # starts (an ignored signal is inherited): each test of a Ctrl-C failed.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _stop_signals_as_they_were() -> Iterator[None]:
    """Each test leaves the stop signals handled as it found them: a command's
    main() run in the test process takes SIGTERM and SIGHUP as Ctrl-C, as its
    program should, and they are put back after the test. A test that leaves
    one ignored fails: every program a later test started would ignore it."""
    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    yield
    ignored = [
        signal.Signals(signum).name
        for signum, handler in before.items()
        if signal.getsignal(signum) is signal.SIG_IGN and handler is not signal.SIG_IGN
    ]
    for signum, handler in before.items():
        # None: a handler set outside Python (Ray's), which Python cannot put back.
        if handler is not None and signal.getsignal(signum) is not handler:
            signal.signal(signum, handler)
    if ignored:
        pytest.fail(f"this test left {', '.join(ignored)} ignored")


@pytest.fixture(autouse=True)
def _ray_only_in_its_namespace() -> Iterator[None]:
    """A test that leaves Ray started outside tests/ray's private network
    namespace fails: Ray listens on the machine's interface. Some Ray calls
    start it by themselves (asking for the runtime context did, in a test that
    played a worker's game outside Ray)."""
    yield
    if os.environ.get("SHEEPFOLD_RAY_NAMESPACE"):
        return
    ray = sys.modules.get("ray")
    is_initialized = getattr(ray, "is_initialized", None)
    if callable(is_initialized) and is_initialized() is True:
        ray.shutdown()  # type: ignore[union-attr]
        pytest.fail("this test started Ray outside a private network namespace (tests/ray)")


@pytest.fixture
def server_process() -> Iterator[ServerProcess]:
    server = start_server_process()
    try:
        yield server
    finally:
        stop_server_process(server)


def random_opponent(
    server: InProcessServer, match_id: str, token: str, seed: int = 1
) -> concurrent.futures.Future:
    """A seeded random bot playing one seat, on the server's own event loop
    (async clients never get a loop of their own beside an in-process server:
    see server/inprocess.py). `.result(timeout)` waits for its match result."""
    return server.submit(play(RandomBot(seed), server.address, match_id, token))


def play_lineups(
    game: str, lineups: Sequence[tuple[Sequence[Any], Mapping[str, str]]], first_seed: int
) -> list[arena_pb2.MatchResult]:
    """Play each (bots, options) lineup as one match through a real in-process
    server, seeds counting up from `first_seed`. Every seat must get a score and
    a rank and no seat may miss a deadline; returns the results."""

    async def run() -> list[arena_pb2.MatchResult]:
        results = []
        async with serving_here(ServerConfig()) as address:
            for number, (bots, options) in enumerate(lineups):
                outcome = await play_match(
                    address, game, list(bots), seed=first_seed + number, options=options
                )
                results.append(outcome.result)
        return results

    results = asyncio.run(run())
    for (bots, _), result in zip(lineups, results, strict=True):
        assert len(result.scores) == len(bots) and len(result.ranks) == len(bots)
        assert all(not seat.disqualified and seat.strikes == 0 for seat in result.seats)
    return results


@pytest.fixture
def inprocess_server() -> Iterator[InProcessServer]:
    with InProcessServer(ServerConfig()) as server:
        yield server


@pytest.fixture
def stub(inprocess_server: InProcessServer) -> Iterator[arena_pb2_grpc.ArenaStub]:
    """An Arena client of a fresh server in this process (a file with a server of
    its own, a process say, defines its own `stub`)."""
    with grpc.insecure_channel(inprocess_server.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


# The Ray tests (tests/ray) run only inside a private network namespace: the main
# run leaves them out and tests/raycluster starts them in one, with this set.
collect_ignore = [] if os.environ.get("SHEEPFOLD_RAY_NAMESPACE") else ["ray"]


@pytest.fixture(autouse=True)
def _logging_configuration_restored() -> Iterator[None]:
    """Each test starts from the structlog configuration the session began with.

    A command a test runs in this process configures structlog (a level of
    warning among it), and `structlog.testing.capture_logs` in a later test
    replaces the processors, not the level: without this, whether a test sees
    info lines depended on what ran before it."""
    before = structlog.get_config()
    try:
        yield
    finally:
        structlog.configure(**before)
