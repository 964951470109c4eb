"""Durability: a server killed in the middle of matches (SIGKILL) or stopped
(SIGTERM) loses nothing; restarted on the same port and database it restores
every unfinished match, the bots rejoin and every match finishes with the
result a local engine replay of the recorded seed and actions gives."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.sdk import play
from tests.cli.helpers import command
from tests.conftest import ROOT, ServerProcess, start_server_process, stop_server_process
from tests.integrity.helpers import (
    SlowBot,
    assert_replay_reproduces_result,
    create_request,
    game_cases,
    get_match,
    get_replay,
    log_entries,
)

pytestmark = pytest.mark.e2e


async def _start(*flags: str) -> ServerProcess:
    return await asyncio.to_thread(start_server_process, *flags)


async def _wait_for_moves(address: str, match_ids: list[str], at_least: int) -> list[int]:
    """Poll until every match has applied `at_least` moves; returns the counts."""
    for _ in range(500):
        infos = [await get_match(address, match_id) for match_id in match_ids]
        if all(info.moves >= at_least for info in infos):
            assert all(info.status == arena_pb2.MATCH_STATUS_RUNNING for info in infos), (
                "a match finished before the crash: slow the bots down"
            )
            return [info.moves for info in infos]
        await asyncio.sleep(0.02)
    raise AssertionError("the matches did not get going")


def test_sigkill_mid_match_then_restart_restores_and_finishes_every_game(
    tmp_path: Path,
) -> None:
    asyncio.run(_sigkill_scenario(tmp_path / "crash.db"))


async def _sigkill_scenario(db: Path) -> None:
    first = await _start("--db", str(db), "--start-timeout", "20")
    address, port = first.address, first.port
    cases = game_cases()
    created = []
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for number, case in enumerate(cases):
            created.append(
                await stub.CreateMatch(
                    create_request(case, seed=4000 + number, decision_seconds=10)
                )
            )
    bots = [
        asyncio.create_task(
            play(
                SlowBot(seed=seat, delay=0.03),
                address,
                response.match_id,
                token,
                seat,
                max_reconnects=60,
            )
        )
        for response in created
        for seat, token in enumerate(response.seat_tokens)
    ]
    match_ids = [response.match_id for response in created]
    before_crash = await _wait_for_moves(address, match_ids, at_least=4)

    first.process.send_signal(signal.SIGKILL)
    assert await asyncio.to_thread(first.process.wait, 10) == -signal.SIGKILL

    second = await _start("--db", str(db), "--port", str(port), "--start-timeout", "20")
    try:
        started = next(e for e in log_entries(second.log_lines) if e["event"] == "server started")
        assert started["restored_matches"] == len(cases)
        results = await asyncio.wait_for(asyncio.gather(*bots), timeout=90)
        seat = 0
        for case, response, moves_before in zip(cases, created, before_crash, strict=True):
            seat_results = results[seat : seat + case.players]
            seat += case.players
            assert all(r == seat_results[0] for r in seat_results), "every seat, one result"
            replay = await get_replay(address, response.match_id)
            assert len(replay.actions) > moves_before, f"{case.game}: no move after the restart"
            assert not any(a.forced for a in replay.actions), "nobody lost a move to the crash"
            assert replay.result == seat_results[0]
            assert_replay_reproduces_result(replay)
        entries = log_entries(second.log_lines)
        resumed = {e["match_id"] for e in entries if e["event"] == "match resumed"}
        assert resumed == set(match_ids)
    finally:
        for task in bots:
            task.cancel()
        assert stop_server_process(second) == 0


def test_sigterm_exits_0_keeps_the_match_on_disk_and_a_restart_finishes_it(
    tmp_path: Path,
) -> None:
    """Bots here are separate `sheepfold bot` processes."""
    db = tmp_path / "term.db"
    case = game_cases()[0]
    first = start_server_process("--db", str(db), "--start-timeout", "20")
    with grpc.insecure_channel(first.address) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            create_request(case, seed=77, decision_seconds=10)
        )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    bots = [
        subprocess.Popen(
            command(
                "bot",
                "--server",
                first.address,
                "--match",
                created.match_id,
                "--token",
                token,
                "--bot",
                "tests.integrity.helpers:SteadyBot",
            ),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=None,
            text=True,
        )
        for token in created.seat_tokens
    ]
    try:
        asyncio.run(_wait_for_moves(first.address, [created.match_id], at_least=3))
        assert stop_server_process(first) == 0, "SIGTERM must exit 0"
        entries = log_entries(first.log_lines)
        suspended = [e for e in entries if e["event"] == "match suspended"]
        stopped = [e for e in entries if e["event"] == "server stopped"]
        assert stopped, "the server logs that it stopped"
        from server.sqlite_store import SqliteStore

        store = SqliteStore(db)
        stored = store.load(created.match_id)
        store.close()
        assert stored is not None and stored.status == "running", "kept unfinished on disk"
        assert [e["match_id"] for e in suspended] == [created.match_id]
        moves_on_disk = len(stored.moves)
        assert moves_on_disk >= 3

        second = start_server_process("--db", str(db), "--port", str(first.port))
        try:
            try:
                outputs = [bot.communicate(timeout=20)[0] for bot in bots]
            except subprocess.TimeoutExpired:
                print("".join(second.log_lines))
                raise
            assert [bot.returncode for bot in bots] == [0, 0]
            scores = [json.loads(out)["scores"] for out in outputs]
            assert scores[0] == scores[1]
            replay = asyncio.run(get_replay(second.address, created.match_id))
            assert len(replay.actions) >= moves_on_disk
            assert list(replay.result.scores) == scores[0]
            assert_replay_reproduces_result(replay)
        finally:
            assert stop_server_process(second) == 0
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
