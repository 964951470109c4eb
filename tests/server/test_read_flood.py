"""A flood of expensive reads cannot take the server from the matches in play.

`ListMatches(limit=1000)` of stored matches, asked again and again by many
concurrent calls, kept both reader threads busy without pause; they share the
interpreter lock with the event loop, and a match played beside such a flood
made a tenth of its moves, its decisions up to 250 ms apart. Now a reader
thread rests after each read (server/storage.py, READ_REST), and the reads
a connection (and an address) may have waiting are bounded: past the bound a
read is refused at once, RESOURCE_EXHAUSTED, where it used to wait out the read
timeout and end UNAVAILABLE "the database did not answer", a fault of the
database that was not there.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.sqlite_store import SqliteStore
from server.storage import StoreWorker
from server.store_reads import READS_WAITING_PER_CONNECTION
from tests.conftest import server_logging_no_fault
from tests.server.stored_matches import fill

STORED = 1_500
# Twice what its connections may have waiting, all fired at once (three
# connections: four would pass the address's own bound too).
CONNECTIONS = 3
FLOOD_CALLS = CONNECTIONS * 2 * READS_WAITING_PER_CONNECTION
CROWDED = "reads waiting their turn at the database"
IN_LINE = "in line for the database, behind other reads"


async def _flood(address: str) -> list[grpc.StatusCode | str]:
    """FLOOD_CALLS ListMatches(limit=1000) at once over CONNECTIONS connections:
    OK, the details of a RESOURCE_EXHAUSTED, or the code's name and details."""
    # Connections of their own: gRPC otherwise shares one between every channel
    # of a process to one address, the seats' and their SDK's GetMatch among them.
    own = [("grpc.use_local_subchannel_pool", 1)]
    channels = [grpc.aio.insecure_channel(address, options=own) for _ in range(CONNECTIONS)]
    stubs = [arena_pb2_grpc.ArenaStub(channel) for channel in channels]

    async def listing(number: int) -> grpc.StatusCode | str:
        stub = stubs[number % len(stubs)]
        try:
            await stub.ListMatches(arena_pb2.ListMatchesRequest(limit=1000), timeout=60)
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                return error.details() or ""
            return f"{error.code().name} {error.details()}"
        return grpc.StatusCode.OK

    try:
        return await asyncio.gather(*(listing(number) for number in range(FLOOD_CALLS)))
    finally:
        for channel in channels:
            await channel.close()


async def _bystander(socket: str, match_id: str) -> tuple[str, int]:
    """What another client (over the Unix socket: another address) reads meanwhile."""
    async with grpc.aio.insecure_channel(socket) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        info = await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=60)
        page = await stub.ListMatches(arena_pb2.ListMatchesRequest(limit=10), timeout=60)
    return info.match_id, len(page.matches)


def test_a_read_flood_is_refused_past_its_line_while_a_seat_plays_and_others_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.db"
    stored = fill(path, STORED, time.time())
    socket = f"unix:{tmp_path / 'server.sock'}"
    with server_logging_no_fault(
        "--db", str(path), "--listen", "127.0.0.1:0", "--listen", socket
    ) as server:

        async def run() -> tuple[
            list[grpc.StatusCode | str], arena_pb2.MatchResult, tuple[str, int]
        ]:
            flood = asyncio.ensure_future(_flood(server.address))
            await asyncio.sleep(0.2)  # the flood's calls are in
            # A seat's decisions get through while the flood runs, on a clock
            # that allows no slack for a held-up loop but what a bot needs.
            clock = arena_pb2.ClockSettings(decision_seconds=5.0, max_strikes=1)
            played = play_match(
                server.address, "sheep-n-sheep", [RandomBot(1), RandomBot(2)], clock=clock
            )
            outcome, read = await asyncio.gather(played, _bystander(socket, stored[0]))
            return await flood, outcome.result, read

        answers, result, read = asyncio.run(run())
    refused = [a for a in answers if isinstance(a, str) and not a.startswith("UNAVAILABLE")]
    assert refused, f"no call of the flood was refused: {set(answers)}"
    assert all(CROWDED in details for details in refused), refused[:3]
    assert f"this connection already has {READS_WAITING_PER_CONNECTION} reads waiting" in refused[0]
    # Those let in were answered, or waited out the read timeout behind the
    # flood's own reads and were told so: not "the database did not answer".
    others = {
        a if a == grpc.StatusCode.OK else a.split(" ")[0] for a in answers if a not in refused
    }
    assert others <= {grpc.StatusCode.OK, "UNAVAILABLE"}, others
    assert all(IN_LINE in a for a in answers if isinstance(a, str) and a.startswith("UNAVAILABLE"))
    assert result.end_reason == "game over"
    assert [seat.strikes for seat in result.seats] == [0, 0]
    assert read == (stored[0], 10)


def test_a_reader_thread_rests_after_a_read_before_it_takes_the_next(tmp_path: Path) -> None:
    """A read answers as soon as it is made, but its thread takes the next read
    only after resting READ_REST times the read's CPU time: the read that
    follows waits in line meanwhile, and then is made."""
    burn = 0.05  # CPU seconds of the first read: its thread then rests 0.35 s

    def busy() -> str:
        start = time.thread_time()
        while time.thread_time() - start < burn:
            pass
        return "first"

    second_started = threading.Event()

    def second() -> str:
        second_started.set()
        return "second"

    async def run() -> tuple[str, int, bool, str]:
        worker = StoreWorker(SqliteStore(tmp_path / "server.db"), readers=1)
        try:
            first = await worker.run(busy)
            following = asyncio.ensure_future(worker.run(second))
            for _ in range(3):
                await asyncio.sleep(0)
            waiting, started = worker.reads_waiting, second_started.is_set()
            return first, waiting, started, await following
        finally:
            await worker.close()

    first, waiting, started, after = asyncio.run(run())
    assert first == "first"
    assert (waiting, started) == (1, False)
    assert after == "second"
