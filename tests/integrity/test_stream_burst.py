"""A burst of thousands of Play streams from one client must not break anyone
else's calls: a match between SDK bots and a bystander polling the server run
through it untouched. Streams that have not joined are bounded per client
address (RESOURCE_EXHAUSTED at once beyond it) and streams per connection by
HTTP/2 (the client's further streams wait on its side)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.sdk import play
from tests.conftest import ROOT, start_server_process, stop_server_process
from tests.integrity.helpers import Case, SlowBot, create_request

pytestmark = pytest.mark.e2e

CASE = Case("sheep-n-sheep", 2, {})


def _flooder(
    address: str,
    match_id: str,
    count: int,
    seconds: float,
    connections: int,
    at_least: float,
    at_most_open: int,
) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.integrity.flood",
            address,
            match_id,
            str(count),
            str(seconds),
            str(connections),
            str(at_least),
            str(at_most_open),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "started"
    return process


def test_a_burst_of_3000_streams_leaves_other_clients_alone() -> None:
    server = start_server_process()
    try:
        asyncio.run(_burst(server.address))
    finally:
        assert stop_server_process(server) == 0
    errors = [line for line in server.log_lines if '"level": "error"' in line]
    assert errors == []


async def _burst(address: str) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = await stub.CreateMatch(create_request(CASE, 9, decision_seconds=5))
        target = await stub.CreateMatch(create_request(CASE, 10))
        bots = asyncio.gather(
            *(
                play(SlowBot(seat, 0.01), address, created.match_id, token, seat, max_reconnects=0)
                for seat, token in enumerate(created.seat_tokens)
            )
        )
        # The flooder watches until no more than the bound are open, 60 s at most:
        # a loaded machine takes a while to refuse 2,900 streams.
        flooder = await asyncio.to_thread(
            _flooder, address, target.match_id, 3000, 60.0, 30, 3.0, 100
        )
        bystander: list[str] = []
        while flooder.poll() is None:
            try:
                await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=5)
                bystander.append("OK")
            except grpc.aio.AioRpcError as error:
                bystander.append(error.code().name)
            await asyncio.sleep(0.05)
        out, _ = flooder.communicate(timeout=30)
        ends = json.loads(out)
        results = await asyncio.wait_for(bots, timeout=60)
        info = await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
    assert set(bystander) == {"OK"}, f"a bystander's call failed: {bystander}"
    assert results[0] == results[1]
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    assert [s.strikes for s in info.seats] == [0, 0], "the bots never lost a decision"
    # The streams that never join are bounded: 100 from this address wait for their
    # join, the rest are refused at once (the forged joins too, while those 100 wait).
    assert ends["still open"] <= 100, ends
    assert ends.get("RESOURCE_EXHAUSTED", 0) >= 1000, ends


def test_streams_beyond_the_per_connection_limit_wait_on_the_client() -> None:
    server = start_server_process("--max-streams-per-connection", "20")
    try:
        with grpc.insecure_channel(server.address) as channel:
            created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(create_request(CASE, 3))
        flooder = _flooder(server.address, created.match_id, 40, 3.0, 1, 3.0, 40)
        # 20 streams that never join hold the flooder's connection; its forged
        # joins wait behind them, while another client is answered at once.
        with grpc.insecure_channel(server.address) as channel:
            started = time.monotonic()
            with pytest.raises(grpc.RpcError) as caught:
                list(
                    arena_pb2_grpc.ArenaStub(channel).Play(
                        iter(
                            [
                                arena_pb2.PlayRequest(
                                    join=arena_pb2.Join(match_id=created.match_id, token="x")
                                )
                            ]
                        ),
                        timeout=10,
                    )
                )
            assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert time.monotonic() - started < 2
        ends = json.loads(flooder.communicate(timeout=30)[0])
        assert ends.get("UNAUTHENTICATED", 0) == 0, f"joins past the limit waited: {ends}"
        assert ends["still open"] == 40
    finally:
        assert stop_server_process(server) == 0
