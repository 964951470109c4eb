"""The replay turn and the reader threads go round the clients: one client's
flood of replays or reads waits behind itself, not ahead of another client.

An outside audit found both first come first served: 200 `Watch(from_start)`
streams of finished matches from one client made another spectator's
157-move replay take 56 s, and 64 `ListMatches(limit=1000)` loops made other
clients' reads time out. Here a real server (`sheepfold serve` in a process of
its own) is flooded by one client while a second one watches or reads.

A client is an address and, within it, a connection (server/fairness.py).
Both clients here are on 127.0.0.1, so they are told apart by connection: each
channel is opened with a subchannel pool of its own, or gRPC would give two
channels of one process with the same target one connection (one peer), as it
would not two separate programs.

What is asserted is how much the flooding client was served while the second
client's replay or read waited, against how much the second client was
served: the same on a fast machine and a loaded one. First come first served,
the flood got about as many turns as it had requests waiting (100 streams,
32 loops) for each of the second client's; taking turns, two or three.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.app import ServerConfig
from server.fairness import FairQueue
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.conftest import ServerProcess, start_server_process, stop_server_process

# A channel of its own connection: another client, as far as the server can tell.
OWN_CONNECTION = (("grpc.use_local_subchannel_pool", 1),)
STORED_MATCHES = 1_000
FLOOD_WATCHERS = 100
# Copies of the played match the flood watches, as one address may hold only 16
# watchers of a match: 8 streams on each at most, 16 if every one's previous
# place were not yet free when it watches again.
FLOOD_MATCHES = 13
FLOOD_READERS = 32


@dataclasses.dataclass(frozen=True)
class Stored:
    server: ServerProcess
    match_id: str  # a finished match of about a hundred moves, with its moves
    moves: int
    copies: tuple[str, ...]  # FLOOD_MATCHES more of it, under ids of their own


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stored]:
    """A server whose database holds one played match and a thousand more
    finished ones (copies of its row without moves: what a listing reads)."""
    db = tmp_path_factory.mktemp("fair") / "fair.db"
    with InProcessServer(ServerConfig(), SqliteStore(db)) as server:
        outcome = server.run(
            play_match(server.address, "stubborn-sheep", [RandomBot(1), RandomBot(2)], seed=5)
        )
    store = SqliteStore(db)
    try:
        played = store.load(outcome.match_id)
        assert played is not None and played.result is not None
        for number in range(STORED_MATCHES):
            record = dataclasses.replace(
                played.record,
                match_id=f"{number:016x}",
                created_at=played.record.created_at - 1 - number,
            )
            store.create_match(record)
            if number < FLOOD_MATCHES:
                for move in played.moves:
                    store.record_move(record.match_id, move)
            store.finish_match(record.match_id, "finished", played.result, "")
    finally:
        store.close()
    process = start_server_process("--db", str(db))
    copies = tuple(f"{number:016x}" for number in range(FLOOD_MATCHES))
    try:
        yield Stored(process, outcome.match_id, len(played.moves), copies)
    finally:
        stop_server_process(process)


def _channel(address: str) -> grpc.aio.Channel:
    options = (*OWN_CONNECTION, ("grpc.max_receive_message_length", 64 << 20))
    return grpc.aio.insecure_channel(address, options=options)


@pytest.mark.e2e
def test_a_replay_is_not_held_up_by_another_clients_hundred_replays(stored: Stored) -> None:
    assert stored.moves >= 60, "a long enough match to be replayed in many steps"

    async def scenario() -> tuple[int, int, float]:
        request = arena_pb2.WatchRequest(match_id=stored.match_id, from_start=True)
        flood_sent = 0
        stop = asyncio.Event()

        async def flood_one(stub: arena_pb2_grpc.ArenaStub, match_id: str) -> None:
            nonlocal flood_sent
            flooding = arena_pb2.WatchRequest(match_id=match_id, from_start=True)
            while not stop.is_set():
                async for _ in stub.Watch(flooding, timeout=120):
                    flood_sent += 1

        async with (
            _channel(stored.server.address) as flooding,
            _channel(stored.server.address) as watching,
        ):
            flood_stub = arena_pb2_grpc.ArenaStub(flooding)
            copies = stored.copies
            flood = [
                asyncio.create_task(flood_one(flood_stub, copies[n % len(copies)]))
                for n in range(FLOOD_WATCHERS)
            ]
            try:
                while flood_sent < 10 * FLOOD_WATCHERS:  # every flood stream under way
                    await asyncio.sleep(0.05)
                before, started = flood_sent, time.monotonic()
                received = [
                    message
                    async for message in arena_pb2_grpc.ArenaStub(watching).Watch(
                        request, timeout=30
                    )
                ]
                took = time.monotonic() - started
                during = flood_sent - before
            finally:
                stop.set()
                for task in flood:
                    task.cancel()
                results = await asyncio.gather(*flood, return_exceptions=True)
            # Every flood stream was let in: none was refused and left the flood smaller.
            errors = [r for r in results if not isinstance(r, asyncio.CancelledError | None)]
            assert not errors, errors[:1]
        assert received[-1].HasField("result"), "the whole match was replayed"
        return len(received), during, took

    received, flood_during, took = asyncio.run(asyncio.wait_for(scenario(), 60))
    # Taking turns, the flood's connection is sent two or three times as much
    # as the watcher meanwhile; first come first served, a hundred times.
    assert flood_during < 20 * received, (
        f"the flood was sent {flood_during} messages while the watcher's replay "
        f"of {received} took {took:.2f} s"
    )


@pytest.mark.e2e
def test_a_read_is_not_held_up_by_another_clients_flood_of_listings(stored: Stored) -> None:
    async def scenario() -> tuple[list[int], list[float]]:
        listed = 0
        stop = asyncio.Event()

        async def flood_one(stub: arena_pb2_grpc.ArenaStub) -> None:
            nonlocal listed
            while not stop.is_set():
                try:
                    found = await stub.ListMatches(
                        arena_pb2.ListMatchesRequest(limit=1000), timeout=60
                    )
                except grpc.aio.AioRpcError as error:
                    # The flood may be told to try again: it waits behind itself.
                    assert error.code() == grpc.StatusCode.UNAVAILABLE, error
                    continue
                assert len(found.matches) == 1000
                listed += 1

        async with (
            _channel(stored.server.address) as flooding,
            _channel(stored.server.address) as reading,
        ):
            flood_stub, stub = arena_pb2_grpc.ArenaStub(flooding), arena_pb2_grpc.ArenaStub(reading)
            flood = [asyncio.create_task(flood_one(flood_stub)) for _ in range(FLOOD_READERS)]
            overtaken: list[int] = []  # flood listings served while each read waited
            took: list[float] = []
            try:
                while listed < 2 * FLOOD_READERS:  # the flood has filled the line
                    await asyncio.sleep(0.05)
                for number in range(8):
                    before, started = listed, time.monotonic()
                    if number % 2:
                        info = await stub.GetMatch(
                            arena_pb2.GetMatchRequest(match_id=stored.match_id), timeout=10
                        )
                        assert info.status == arena_pb2.MATCH_STATUS_FINISHED
                    else:
                        found = await stub.ListMatches(
                            arena_pb2.ListMatchesRequest(limit=5), timeout=10
                        )
                        assert len(found.matches) == 5
                    overtaken.append(listed - before)
                    took.append(time.monotonic() - started)
            finally:
                stop.set()
                for task in flood:
                    task.cancel()
                results = await asyncio.gather(*flood, return_exceptions=True)
            errors = [r for r in results if not isinstance(r, asyncio.CancelledError | None)]
            assert not errors, errors[:1]
        return overtaken, took

    overtaken, took = asyncio.run(asyncio.wait_for(scenario(), 60))
    # Taking turns, a read waits for the listings on the two reader threads
    # and at most one more; first come first served, for the whole line (32).
    assert sum(overtaken) / len(overtaken) < 8, (
        f"listings served to the flood while each read waited: {overtaken}; "
        f"the reads took {[round(t, 2) for t in took]} s"
    )


def test_turns_go_round_addresses_then_connections_and_leave_nothing_behind() -> None:
    async def scenario() -> None:
        line = FairQueue(1)
        order: list[str] = []
        await line.acquire(("a", "a:1"))  # held: everyone below waits

        async def wait(address: str, connection: str, name: str) -> None:
            async with line.turn((address, connection)):
                order.append(name)

        names = [
            ("a", "a:1", "a1-first"),
            ("a", "a:1", "a1-second"),
            ("a", "a:1", "a1-third"),
            ("a", "a:2", "a2-first"),
            ("b", "b:1", "b-first"),
            ("b", "b:1", "b-second"),
            ("c", "c:1", "c-gone"),
        ]
        tasks = {name: asyncio.create_task(wait(*key, name)) for *key, name in names}
        await asyncio.sleep(0)
        assert line.clients_waiting() == 4
        tasks["c-gone"].cancel()  # went away while waiting: nothing of it stays
        await asyncio.sleep(0)
        assert line.clients_waiting() == 3
        line.release()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
        # Round the addresses (a, b), and within a round its connections (a:1, a:2).
        assert order == ["a1-first", "b-first", "a2-first", "b-second", "a1-second", "a1-third"]
        assert (line.holders, line.waiting, line.clients_waiting()) == (0, 0, 0)

        # Many clients, each gone once served or cancelled: nothing is kept for them.
        await line.acquire(("x", "x"))
        waiting = [
            asyncio.create_task(line.acquire((f"10.0.{n // 250}.{n % 250}", f"peer {n}")))
            for n in range(2_000)
        ]
        await asyncio.sleep(0)
        for task in waiting[::2]:
            task.cancel()
        line.release()
        for task in waiting[1::2]:
            await task
            line.release()
        await asyncio.gather(*waiting, return_exceptions=True)
        assert (line.holders, line.waiting, line.clients_waiting()) == (0, 0, 0)
        assert not line._waiting

    asyncio.run(scenario())


def test_a_waiter_cancelled_just_as_it_was_let_in_hands_its_slot_on() -> None:
    """A waiter is let in (its future given its result, the slot counted as
    held) and cancelled before its task runs again: it must give the slot back,
    or the line holds a slot for nobody and, with one slot, nobody else is ever
    let in."""

    async def scenario() -> None:
        line = FairQueue(1)
        await line.acquire(("a", "a:1"))
        late = asyncio.create_task(line.acquire(("b", "b:1")))
        await asyncio.sleep(0)
        assert line.waiting == 1
        line.release()  # b is let in: the slot is counted as b's
        assert (line.holders, line.waiting) == (1, 0)
        late.cancel()  # before b's task has run again
        await asyncio.gather(late, return_exceptions=True)
        assert late.cancelled()
        assert (line.holders, line.waiting) == (0, 0), "b's slot was handed back"
        next_one = asyncio.create_task(line.acquire(("c", "c:1")))
        await asyncio.sleep(0)
        assert next_one.done() and line.holders == 1
        line.release()

    asyncio.run(scenario())
