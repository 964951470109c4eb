"""A server's log at its default level, and its metrics, may be shipped to a
dashboard: they carry no match's seed and no text of a private event, while
seats rejoin, answer out of range or too late, and miss deadlines."""

from __future__ import annotations

import asyncio
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2_grpc

from server.launch import ServerProcess
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import (
    create_request,
    get_replay,
    log_entries,
    private_payload_messages,
    wait_until,
)
from tests.integrity.test_seat_catch_up import CASES, SeatLog, play_unruly_seat

pytestmark = pytest.mark.e2e

SEED = 742_019_366_581  # long enough that its digits turn up nowhere by chance


@pytest.fixture
def metered() -> Iterator[tuple[ServerProcess, int]]:
    server = start_server_process("--metrics-port", "0")
    try:
        started = next(e for e in log_entries(server.log_lines) if "metrics_port" in e)
        yield server, int(str(started["metrics_port"]))
    finally:
        assert stop_server_process(server) == 0


def test_the_log_and_metrics_hold_no_seed_and_no_private_event(
    metered: tuple[ServerProcess, int],
) -> None:
    server, metrics_port = metered

    async def scenario() -> list[str]:
        match_ids = []
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            for offset, case in enumerate(CASES):
                created = await stub.CreateMatch(create_request(case, SEED + offset))
                await asyncio.gather(
                    *(
                        play_unruly_seat(
                            server.address, created.match_id, token, SeatLog(seat), seat + offset
                        )
                        for seat, token in enumerate(created.seat_tokens)
                    )
                )
                match_ids.append(created.match_id)
        return match_ids

    match_ids = asyncio.run(scenario())
    wait_until(
        lambda: (
            sum(e.get("event") == "match finished" for e in log_entries(server.log_lines))
            == len(CASES)
        ),
        what="every match to finish in the log",
    )
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=30) as page:
        metrics = page.read().decode()
    text = "".join(server.log_lines)
    assert "seat stream replaced" in text or "seat joined" in text, "the log describes seats"
    assert "bad answer" in text, "the log describes refused answers"
    private = 0
    for offset, match_id in enumerate(match_ids):
        replay = asyncio.run(get_replay(server.address, match_id))
        assert replay.seed == SEED + offset
        for where in (text, metrics):
            assert str(replay.seed) not in where
        for event in private_payload_messages(replay):
            private += 1
            assert event.text not in text and event.text not in metrics, event.text
    assert private, "no private event was played"
