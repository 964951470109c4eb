"""A local run on `--server ADDR` whose server dies says so as soon as it
starts asking the server for its health, not only at the end: for those 15 s
the live line stood still on its last game, its rate and ETA unchanged, as if
the run had hung, and a server back said only then that it had been gone."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import grpc
import pytest
from sheepfold.v1.arena_pb2 import ListGamesRequest
from sheepfold.v1.arena_pb2_grpc import ArenaStub

from clients.connect import open_channel
from server.inprocess import InProcessServer
from tests.conftest import start_server_process, stop_server_process
from tests.tournament.quick_cup import Recorder, cup_runner, quick_cup
from tournament import game_play, server_check
from tournament.batch_play import _Runner
from tournament.runner import RunError, run_tournament
from tournament.store import GameRecord, Store

pytestmark = pytest.mark.e2e

ASKING = "asking it for its health for up to 15 s before the run stops"


def test_a_dead_server_is_said_while_its_health_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_play, "RPC_SECONDS", 1.0)  # the next CreateMatch fails in 1 s
    server = start_server_process()
    notes_at_checks: list[list[str]] = []
    progress = Recorder(victim=server.pid)  # SIGKILLed once the first game is stored

    async def checked_later(seconds: float) -> None:
        notes_at_checks.append(list(progress.notes))

    monkeypatch.setattr(server_check, "_pause", checked_later)
    config = quick_cup(tmp_path, 4, concurrency=2)
    try:
        with pytest.raises(RunError, match=f"cannot reach the server at {server.address}"):
            run_tournament(
                config, server=server.address, database=str(tmp_path / "cup.sqlite"),
                progress=progress,
            )  # fmt: skip
    finally:
        stop_server_process(server)
    assert notes_at_checks, "the server was never asked for its health"
    # The other game's record, asked for as the server died, is waited for in
    # silence beside it (tournament.game_play._replay): its checks may come
    # first, so the note is looked for at any check, all of them before the end.
    noted = [notes for notes in notes_at_checks if any(ASKING in note for note in notes)]
    assert noted, notes_at_checks
    said = [note for note in noted[0] if ASKING in note]
    assert len(said) == 1, noted[0]
    assert said[0].startswith(f"cannot reach the server at {server.address}: "), said
    assert [note for note in progress.notes if ASKING in note] == said  # once, not per game


def test_a_server_that_answers_but_is_not_serving_is_said_while_its_health_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that lost its database answers, but refuses the next game
    (UNAVAILABLE) and says NOT_SERVING: the run waits the same 15 s on its
    health, and said nothing until it stopped."""
    notes_at_checks: list[list[str]] = []
    with InProcessServer() as server:

        class LosesItsDatabase(Recorder):
            def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
                super().game_done(game, elo)
                if len(self.keys) == 1:
                    server.run(lose_database())

        async def lose_database() -> None:
            server.server._refuse_new_matches("the database file was removed")
            await asyncio.gather(*server.server._health_updates)  # NOT_SERVING is set

        progress = LosesItsDatabase()

        async def checked_later(seconds: float) -> None:
            notes_at_checks.append(list(progress.notes))

        monkeypatch.setattr(server_check, "_pause", checked_later)
        with pytest.raises(RunError, match="its health check says NOT_SERVING"):
            run_tournament(
                quick_cup(tmp_path, 4, concurrency=1), server=server.address,
                database=str(tmp_path / "cup.sqlite"), progress=progress,
            )  # fmt: skip
    assert notes_at_checks, "the server was never asked for its health"
    said = [note for note in notes_at_checks[0] if ASKING in note]
    assert said == [
        f"cannot reach the server at {server.address}: its health check says NOT_SERVING: "
        f"{ASKING} (a server restarted meanwhile keeps it going)"
    ], notes_at_checks[0]
    assert [note for note in progress.notes if ASKING in note] == said  # once


def _runner_on(tmp_path: Path, address: str, store: Store, progress: Recorder) -> _Runner:
    """The runner of a quick cup on the server at `address`, its notes in `progress`."""
    return cup_runner(quick_cup(tmp_path, 4, concurrency=3), store, progress, address=address)[0]


async def _unavailable() -> grpc.aio.AioRpcError:
    """A game's call cut short (UNAVAILABLE), as a server gone makes it."""
    with InProcessServer() as closed:
        address = closed.address  # nobody listens there once it is closed
    async with open_channel(address, None) as channel:
        try:
            await ArenaStub(channel).ListGames(ListGamesRequest(), wait_for_ready=False, timeout=5)
        except grpc.aio.AioRpcError as error:
            return error
    raise AssertionError(f"a closed server at {address} answered")


def _serving(server: InProcessServer, serving: bool) -> Callable[[], Awaitable[None]]:
    async def set_serving() -> None:
        server.server._set_serving(serving)
        await asyncio.gather(*server.server._health_updates)

    async def on_the_server() -> None:
        await asyncio.wrap_future(server.submit(set_serving()))

    return on_the_server


def test_a_game_whose_check_is_answered_as_another_gives_up_does_not_say_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three games in flight find their server not serving: the first says the
    health checks begin, the second waits beside it in silence. The first gives
    up (the run stops), and the third's first check, answered just then, said
    the note a second time: the first's end had let it be said again, as if the
    server had come back."""
    monkeypatch.setattr(server_check, "_pause", _no_pause)
    real_check = server_check._check
    first_ended = asyncio.Event()
    late: list[asyncio.Task[bool]] = []

    async def answered_as_the_first_ends(address: str, tls: Any) -> str:
        why = await real_check(address, tls)
        if asyncio.current_task() in late:
            await first_ended.wait()
        return why

    monkeypatch.setattr(server_check, "_check", answered_as_the_first_ends)
    progress = Recorder()
    with InProcessServer() as server, Store(tmp_path / "cup.sqlite") as store:
        runner = _runner_on(tmp_path, server.address, store, progress)

        async def three_games() -> list[BaseException | bool]:
            error = await _unavailable()
            await _serving(server, False)()
            async with open_channel(server.address, None) as channel:
                runner.channel = channel
                first = asyncio.create_task(runner._server_back(error))
                beside = asyncio.create_task(runner._server_back(error))
                late.append(asyncio.create_task(runner._server_back(error)))
                await asyncio.wait([first])
                first_ended.set()
                return await asyncio.gather(first, beside, *late, return_exceptions=True)

        ended = asyncio.run(three_games())
    assert all(isinstance(end, RunError) for end in ended), ended
    said = [note for note in progress.notes if ASKING in note]
    assert len(said) == 1, said


def test_a_server_gone_again_after_it_came_back_is_said_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a game has found the server back, a later outage is a new one: its
    health checks are said to begin as the first's were."""
    progress = Recorder()
    with InProcessServer() as server, Store(tmp_path / "cup.sqlite") as store:
        runner = _runner_on(tmp_path, server.address, store, progress)

        async def back_meanwhile(seconds: float) -> None:
            await _serving(server, True)()

        monkeypatch.setattr(server_check, "_pause", back_meanwhile)

        async def two_outages() -> list[bool]:
            error = await _unavailable()
            async with open_channel(server.address, None) as channel:
                runner.channel = channel
                backs = []
                for _outage in range(2):
                    await _serving(server, False)()
                    backs.append(await runner._server_back(error))
                return backs

        assert asyncio.run(two_outages()) == [True, True]
    said = [note for note in progress.notes if ASKING in note]
    assert len(said) == 2, said
    assert all("its health check says NOT_SERVING" in note for note in said), said


async def _no_pause(seconds: float) -> None:
    await asyncio.sleep(0)
