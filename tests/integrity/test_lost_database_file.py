"""The database file deleted or replaced under a running server: the server
says so in one error line, turns NOT_SERVING and refuses new matches with the
reason, lets the match in play go on, and at its stop saves everything it
holds to a new file, from which a restart restores the match.

Before, nothing said so: the server kept writing to a file no name led to, a
read opened afresh made a new empty file at the name, and the next server
started on that empty file, every match and move gone."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2_grpc

from clients.sdk import play
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import (
    SlowBot,
    create_request,
    game_cases,
    get_match,
    health_status,
    logged,
    wait_until,
)

pytestmark = pytest.mark.e2e


async def _play_then_lose_the_file(db: Path, replace: bool) -> tuple[str, int]:
    server = await asyncio.to_thread(start_server_process, "--db", str(db))
    address = server.address
    try:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            case = game_cases()[0]
            created = await stub.CreateMatch(create_request(case, seed=3, decision_seconds=10))
            bots = [
                asyncio.create_task(
                    play(SlowBot(seat, 0.05), address, created.match_id, token, seat)
                )
                for seat, token in enumerate(created.seat_tokens)
            ]
            while (await get_match(address, created.match_id)).moves < 3:
                await asyncio.sleep(0.02)
            if replace:
                db.rename(db.with_name("moved-aside.db"))
                db.write_bytes(b"")
            else:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{db}{suffix}").unlink()
            await asyncio.to_thread(
                wait_until,
                lambda: bool(logged(server.log_lines, "database file deleted or replaced")),
                10,
                "the server noticing",
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.CreateMatch(create_request(case, seed=4))
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "database file" in str(refused.value.details())
            health = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest()
            )
            assert health.status == health_pb2.HealthCheckResponse.NOT_SERVING
            moves = (await get_match(address, created.match_id)).moves
            assert moves > 3 or not all(b.done() for b in bots), "the match goes on"
            for bot in bots:
                bot.cancel()
            moves = (await get_match(address, created.match_id)).moves
    finally:
        assert await asyncio.to_thread(stop_server_process, server) == 0
    saved = logged(
        server.log_lines, "database saved to a new file: its file had been deleted or replaced"
    )
    assert len(saved) == 1, server.log_lines[-5:]
    return str(saved[0]["saved_to"]), moves


@pytest.mark.parametrize("replace", [False, True], ids=["deleted", "replaced"])
def test_a_database_file_lost_under_the_server_is_told_and_saved(
    tmp_path: Path, replace: bool
) -> None:
    db = tmp_path / "s.db"
    saved, moves = asyncio.run(_play_then_lose_the_file(db, replace))
    if replace:
        assert saved.startswith(f"{db}.saved-"), "what took the name is left alone"
        assert db.read_bytes() == b""
        os.replace(saved, db)
    else:
        assert saved == str(db), "nothing at the name: saved there"
    assert oct(db.stat().st_mode & 0o777) == oct(0o600)
    again = start_server_process("--db", str(db))
    try:
        started = logged(again.log_lines, "server started")
        assert started[0]["restored_matches"] == 1
        (match_id,) = [e["match_id"] for e in logged(again.log_lines, "match restored")]
        info = asyncio.run(get_match(again.address, str(match_id)))
        assert info.moves >= moves, "every move made after the file was lost is kept"
    finally:
        stop_server_process(again)


def test_a_lost_database_file_fails_the_liveness_probe(tmp_path: Path) -> None:
    """Only a restart mends a lost file (the stop saves what it held): the
    `liveness` service, which deploy/kubernetes' liveness probe asks on the
    health port, once stayed SERVING, so the pod was never restarted and never
    took a match again."""
    db = tmp_path / "s.db"
    server = start_server_process("--db", str(db), "--health-port", "0")
    try:
        (started,) = logged(server.log_lines, "server started")
        health = f"127.0.0.1:{started['health_port']}"
        serving = health_pb2.HealthCheckResponse.SERVING
        assert health_status(health, "liveness") == serving
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink()
        wait_until(
            lambda: bool(logged(server.log_lines, "database file deleted or replaced")),
            10,
            "the server noticing",
        )
        wait_until(lambda: health_status(health, "liveness") != serving, 5, "liveness failing")
        assert health_status(health, "liveness") == health_pb2.HealthCheckResponse.NOT_SERVING
        assert health_status(health, "") == health_pb2.HealthCheckResponse.NOT_SERVING
    finally:
        assert stop_server_process(server) == 0
    assert logged(
        server.log_lines, "database saved to a new file: its file had been deleted or replaced"
    )
