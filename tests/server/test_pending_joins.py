"""Play streams waiting for their join are bounded per address and in all; at a
bound the one waiting longest is pushed out, and told which bound it was."""

from __future__ import annotations

import asyncio

import grpc
from sheepfold.v1 import arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import serving_here
from server.peers import PendingJoins

PER_ADDRESS = "2 newer Play streams from this address are waiting to join"
IN_ALL = "3 newer Play streams are waiting to join on this server"


def test_the_oldest_stream_from_the_address_at_its_bound_is_pushed_out() -> None:
    joins = PendingJoins(per_address=2, total=10)
    pushed: list[int] = []
    first = joins.enter("a", lambda: pushed.append(1))
    joins.enter("a", lambda: pushed.append(2))
    joins.enter("b", lambda: pushed.append(3))
    joins.enter("a", lambda: pushed.append(4))
    assert pushed == [1]
    assert joins.leave("a", first) == PER_ADDRESS
    assert (joins.waiting("a"), joins.waiting("b")) == (2, 1)


def test_the_oldest_stream_anywhere_is_pushed_out_at_the_bound_in_all() -> None:
    """Streams from many addresses, each within its own bound, once held 640 MB."""
    joins = PendingJoins(per_address=2, total=3)
    pushed: list[str] = []
    tickets = {name: joins.enter(name, lambda n=name: pushed.append(n)) for name in "abc"}
    joins.enter("d", lambda: pushed.append("d"))
    assert pushed == ["a"]
    assert joins.leave("a", tickets["a"]) == IN_ALL
    assert joins.leave("b", tickets["b"]) is None, "joined in time: not pushed out"
    joins.enter("e", lambda: pushed.append("e"))  # a place came free: nobody goes
    assert pushed == ["a"]
    assert [joins.waiting(name) for name in "abcde"] == [0, 0, 1, 1, 1]


def test_a_stream_that_pushes_out_its_address_last_waiting_one_is_still_counted() -> None:
    """The pushed-out stream was its address's only one (a bound of one per
    address, or the oldest on the server at the bound in all): the newcomer
    was once kept where nothing found it. Its join then failed INTERNAL
    (KeyError), and so did the shutdown's push-out of every waiting stream:
    `serve` exited 1 without writing what it still held."""
    per_address = PendingJoins(per_address=1, total=10)
    pushed: list[str] = []
    per_address.enter("a", lambda: pushed.append("first"))
    second = per_address.enter("a", lambda: pushed.append("second"))
    assert per_address.waiting("a") == 1
    assert per_address.leave("a", second) is None
    assert per_address.waiting("a") == 0

    in_all = PendingJoins(per_address=2, total=2)
    in_all.enter("a", lambda: pushed.append("a1"))
    in_all.enter("b", lambda: pushed.append("b"))
    in_all.enter("a", lambda: pushed.append("a2"))  # pushes out a1, the oldest
    assert (in_all.waiting("a"), in_all.waiting("b")) == (1, 1)
    in_all.push_out_all("the server is shutting down")
    assert pushed == ["first", "a1", "b", "a2"]
    assert (in_all.waiting("a"), in_all.waiting("b")) == (0, 0)


def test_a_seat_joins_past_streams_held_open_from_other_addresses() -> None:
    """Through a real server: its bound in all pushes out an idle stream for a seat."""

    async def scenario() -> tuple[grpc.StatusCode, str, int]:
        config = ServerConfig(max_pending_joins=3)
        async with serving_here(config) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=5)
            async with grpc.aio.insecure_channel(address) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                idle = [stub.Play() for _ in range(3)]  # opened, never join: the bound
                await asyncio.sleep(0.3)
                seats = [
                    play(RandomBot(s), address, created.match_id, t, max_reconnects=0)
                    for s, t in enumerate(created.seat_tokens)
                ]
                results = await asyncio.wait_for(asyncio.gather(*seats), 60)
                # Each seat pushed out the idle stream the server had seen first.
                ends = {asyncio.ensure_future(stream.code()): stream for stream in idle}
                done, _ = await asyncio.wait(ends, timeout=5, return_when="FIRST_COMPLETED")
                first = ends[done.pop()]
                code, details = await first.code(), await first.details()
                for stream in idle:
                    stream.cancel()
            return code, details, len(results[0].scores)

    code, details, scores = asyncio.run(scenario())
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert details == f"pushed out before joining: {IN_ALL}"
    assert scores == 2, "both seats joined at once (no retries allowed) and played"
