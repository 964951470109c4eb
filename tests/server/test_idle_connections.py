"""Connections with no call in flight are closed after `--connection-idle-timeout`.

A client that opened a connection for every attempt and never closed the old
ones (a leaked channel each time: its process still answers the server's
pings, so keepalive never drops them) held them for as long as it ran: 60 such
connections to a server with `--max-connections 50` took every place, and a
real bot's match then failed, "the server closed the connection". A seat's
Play stream is a call in flight: a seat that waits a long time for its turn
keeps its connection.
"""

from __future__ import annotations

import asyncio
import socket

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import serving_here
from server.settings import ServerConfig, grpc_options

# An HTTP/2 client's opening: the preface and an empty SETTINGS frame. The
# handshake is then over, and the connection holds one of the port's places.
OPENING = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\0\0\0\4\0\0\0\0\0"
PLACES = 8


async def _list_games(address: str) -> str:
    """A bystander's call on a connection of its own: OK, or the code that refused it."""
    own = [("grpc.use_local_subchannel_pool", 1)]
    async with grpc.aio.insecure_channel(address, options=own) as channel:
        try:
            await arena_pb2_grpc.ArenaStub(channel).ListGames(
                arena_pb2.ListGamesRequest(), timeout=2
            )
        except grpc.aio.AioRpcError as error:
            return error.code().name
    return "OK"


def test_connections_left_idle_are_closed_and_a_newcomer_gets_in() -> None:
    config = ServerConfig(max_connections=PLACES, connection_idle_seconds=1.0)

    async def run() -> tuple[str, list[str]]:
        async with serving_here(config) as address:
            host, _, port = address.rpartition(":")
            held = [socket.create_connection((host, int(port)), timeout=10) for _ in range(PLACES)]
            try:
                for connection in held:
                    connection.sendall(OPENING)
                await asyncio.sleep(0.2)
                full = await _list_games(address)
                # gRPC times idleness loosely: within a few times the setting.
                answers: list[str] = []
                for _ in range(30):
                    answers.append(await _list_games(address))
                    if answers[-1] == "OK":
                        break
                    await asyncio.sleep(0.5)
                return full, answers
            finally:
                for connection in held:
                    connection.close()

    full, answers = asyncio.run(run())
    assert full == "UNAVAILABLE"  # every place held by a connection asking nothing
    assert answers[-1] == "OK", answers


def test_seats_waiting_for_a_move_keep_their_connection_past_the_idle_bound() -> None:
    config = ServerConfig(connection_idle_seconds=0.3)

    async def run() -> tuple[list[bool], list[bool]]:
        async with (
            serving_here(config) as address,
            grpc.aio.insecure_channel(address) as channel,
        ):
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = await stub.CreateMatch(
                arena_pb2.CreateMatchRequest(
                    game="sheep-n-sheep",
                    players=2,
                    clock=arena_pb2.ClockSettings(decision_seconds=60),
                )
            )
            calls = [stub.Play() for _ in created.seat_tokens]
            for call, token in zip(calls, created.seat_tokens, strict=True):
                join = arena_pb2.Join(match_id=created.match_id, token=token)
                await call.write(arena_pb2.PlayRequest(join=join))
            # Ten times the idle bound, nobody answering the decision: the
            # seats' streams are calls in flight, not idleness.
            await asyncio.sleep(3.0)
            ended = [call.done() for call in calls]
            info = await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
            for call in calls:
                call.cancel()
            return ended, [seat.connected for seat in info.seats]

    ended, connected = asyncio.run(run())
    assert ended == [False, False]
    assert connected == [True, True]


def test_the_idle_bound_is_grpcs_and_zero_keeps_idle_connections() -> None:
    assert ("grpc.max_connection_idle_ms", 300_000) in grpc_options(ServerConfig())
    options = dict(grpc_options(ServerConfig(connection_idle_seconds=0)))
    assert "grpc.max_connection_idle_ms" not in options
