"""A `--server` that fails one game of a Ray run but answers again (a reset
connection, a restart by its supervisor) is not dropped for the rest of the
run: the worker asks for its health a few times first, and the driver plays
the game again. Only a server that stays away is dropped. Played here without
Ray: the worker's function on real servers, the driver's decision directly."""

from __future__ import annotations

import asyncio
import os
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from clients.connect import Unreachable
from server.inprocess import InProcessServer
from tests.conftest import start_server_process, stop_server_process
from tests.tls_files import self_signed
from tests.tournament.quick_cup import quick_cup
from tournament import server_check
from tournament.executors import ray_task
from tournament.executors.ray import RayExecutor
from tournament.executors.ray_task import GameJob, GameOutcome, play_on_worker
from tournament.executors.servers import ServerPool
from tournament.executors.settings import ExecutorSettings
from tournament.runner import schedule_for
from tournament.schedule import make_schedule
from tournament.server_check import MAX_HICCUPS
from tournament.turns import DealTurns


def _job(tmp_path: Path, address: str) -> GameJob:
    config = quick_cup(tmp_path, 1)
    return GameJob(config, schedule_for(config)[0], address, "")


def test_a_reset_on_a_healthy_server_does_not_report_it_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = start_server_process()

    async def reset(job: GameJob, config: object) -> None:
        raise Unreachable(job.server or "", "connection reset by peer")

    monkeypatch.setattr(ray_task, "_play", reset)
    try:
        outcome = play_on_worker(_job(tmp_path, server.address))
    finally:
        stop_server_process(server)
    assert outcome.server_back and not outcome.server_gone and not outcome.fatal
    assert outcome.error is not None and "connection reset by peer" in outcome.error


def test_a_server_restarted_while_it_is_checked_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed mid-game (the game's call fails), restarted on the same port by
    its supervisor after the first health check found nobody there."""
    db = str(tmp_path / "server.db")
    servers = [start_server_process("--db", db)]
    port = servers[0].port

    async def killed(job: GameJob, config: object) -> None:
        os.kill(servers[0].pid, signal.SIGKILL)
        servers[0].process.wait()
        raise Unreachable(job.server or "", "connection refused")

    async def supervisor(seconds: float) -> None:
        if len(servers) == 1:
            servers.append(start_server_process("--db", db, "--port", str(port)))

    monkeypatch.setattr(ray_task, "_play", killed)
    monkeypatch.setattr(server_check, "_pause", supervisor)
    try:
        outcome = play_on_worker(_job(tmp_path, servers[0].address))
    finally:
        for server in servers:
            stop_server_process(server)
    assert len(servers) == 2  # the first check found it gone
    assert outcome.server_back and not outcome.server_gone


def test_a_server_that_stays_away_is_reported_gone_after_its_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks: list[float] = []

    async def counted(seconds: float) -> None:
        checks.append(seconds)

    monkeypatch.setattr(server_check, "_pause", counted)
    with InProcessServer() as closed:
        address = closed.address  # nobody listens there once it is closed
    outcome = play_on_worker(_job(tmp_path, address))
    assert outcome.server_gone and not outcome.server_back
    assert len(checks) == server_check.CHECKS - 1
    assert outcome.error is not None
    assert outcome.error.startswith(f"cannot reach the server at {address}: connection refused")
    assert f"not back after {server_check.WAIT_SECONDS:g} s of health checks" in outcome.error


class _Runner:
    def __init__(self) -> None:
        self.rejected: list[str] = []
        self.progress = _Notes()

    def reject(self, key: str, error: str) -> None:
        self.rejected.append(error)


class _Notes:
    def __init__(self) -> None:
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)


def _executor(servers: tuple[str, ...]) -> RayExecutor:
    executor = object.__new__(RayExecutor)
    executor.settings = ExecutorSettings(kind="ray")
    executor.nodes = Counter()
    executor.pool = ServerPool(servers)
    return executor


def _ended(outcome: GameOutcome, game: Any, server: str) -> list[tuple[Any, Any, str]]:
    async def done() -> asyncio.Future[Any]:
        future = asyncio.get_running_loop().create_future()
        future.set_result(outcome)
        return future

    return [(asyncio.run(done()), game, server)]


def test_the_only_server_answering_again_keeps_the_run_going() -> None:
    executor = _executor(("127.0.0.1:7001",))
    games = make_schedule(["a", "b"], 2, games_per_pairing=2, base_seed=1)
    turns = DealTurns(games)
    runner = _Runner()
    first, second = turns.take(), turns.take()
    for game in (first, second):
        back = GameOutcome(game.key, "n", error="cannot reach ...: reset", server_back=True)
        retry = asyncio.run(
            executor.settle_all(runner, _ended(back, game, "127.0.0.1:7001"), turns)
        )
        assert retry == [(game, None)]  # played again at once, keeping its deal's turn
    assert executor.pool.live == ("127.0.0.1:7001",) and executor.dropped == {}
    assert runner.rejected == []
    assert len(runner.progress.notes) == 1  # said once, not once per game
    assert "127.0.0.1:7001 failed a game but answers again" in runner.progress.notes[0]


def test_a_game_that_keeps_failing_on_a_server_that_answers_is_given_up() -> None:
    executor = _executor(("127.0.0.1:7001", "127.0.0.1:7002"))
    games = make_schedule(["a", "b"], 2, games_per_pairing=1, base_seed=1)
    turns = DealTurns(games)
    runner = _Runner()
    game = turns.take()
    assert game is not None
    for attempt in range(MAX_HICCUPS):
        back = GameOutcome(game.key, "n", error="UNAVAILABLE again", server_back=True)
        retry = asyncio.run(
            executor.settle_all(runner, _ended(back, game, "127.0.0.1:7001"), turns)
        )
        assert retry == ([] if attempt == MAX_HICCUPS - 1 else [(game, None)])
    assert len(runner.rejected) == 1 and "a resume plays it" in runner.rejected[0]
    assert executor.dropped == {}
    assert turns.left == len(games) - 1 and turns.take() is not None  # its deal's turn is free


def test_a_server_that_lost_its_database_is_still_reported_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It answers, but CreateMatch says UNAVAILABLE and its health NOT_SERVING for
    good: the checks must not take it for a server back up."""
    monkeypatch.setattr(server_check, "_pause", _no_pause)
    with InProcessServer() as server:

        async def lose_database() -> None:
            server.server._refuse_new_matches("the database file was removed")
            await asyncio.gather(*server.server._health_updates)  # NOT_SERVING is set

        server.run(lose_database())
        outcome = play_on_worker(_job(tmp_path, server.address))
    assert outcome.server_gone and not outcome.server_back
    assert outcome.error is not None and "the database file was removed" in outcome.error


async def _no_pause(seconds: float) -> None:
    return None


def test_a_server_reached_the_wrong_way_is_not_checked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plaintext to a TLS server fails every check alike: one check says so,
    not five over ten seconds."""
    pauses: list[float] = []

    async def counted(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(server_check, "_pause", counted)
    cert, key = self_signed(tmp_path / "tls")
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        why = asyncio.run(server_check.still_gone(server.address))
    finally:
        stop_server_process(server)
    assert why is not None and "if it serves TLS" in why
    assert pauses == []
