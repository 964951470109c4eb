"""The baseline: a bare grpc.aio bidirectional-stream server, no engine.

It speaks the `Arena/Play` method on raw bytes, so the SDK client joins it
exactly as it joins `sheepfold serve`. Per match it replays a transcript of a
real random game (the same decisions, events and result bytes the real server
sends, see `transcript.py`): every answer, whatever it says, releases the next
pre-serialised messages. Nothing is parsed but the join. What it costs is
gRPC itself plus one queue hop per message, which is what we compare against.
It runs on the same event loop as `sheepfold serve` by default (uvloop where
installed), so the two compare like with like.

`--burn-us N` makes it spend N microseconds of CPU on every answer: a what-if
for a server that costs N us more per decision and does nothing else
differently (docs/performance.md uses it to show that the server's rate, p99
and ramp follow from its CPU per decision alone).

A seat that joins with `events_in_decisions` gets the same game's traffic as
the server sends it then: its events inside its next decision.

`--no-events` sends the decisions and the result but none of the event
messages: a what-if for a protocol that sends fewer messages per decision,
which shows what the events cost gRPC (about half of its CPU per decision).

    python -m benchmarks.baseline_server --game sheep-n-sheep --players 2 \
        [--burn-us 250] [--no-events]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import time
import zlib
from collections.abc import AsyncIterator

import grpc
from sheepfold.v1 import arena_pb2

import games
from benchmarks.transcript import Transcript, record, with_events_in_decisions
from cli.values import port, whole_number
from server import loops
from server.app import ServerConfig, grpc_options
from server.listening import bind_failure


def burn(seconds: float) -> None:
    """Spend `seconds` of this thread's CPU (not wall time: a preempted spin
    would burn less than asked)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


class Room:
    """One match: its seats' outbound queues and how far the transcript got."""

    def __init__(
        self, transcript: Transcript, burn_seconds: float = 0.0, events: bool = True
    ) -> None:
        self.transcript = transcript
        self.burn_seconds = burn_seconds
        self.events = events
        self.queues: list[asyncio.Queue[bytes | None] | None] = [None] * transcript.players
        self.position = -1

    def join(self, seat: int, queue: asyncio.Queue[bytes | None]) -> None:
        self.queues[seat] = queue
        if self.position < 0 and all(q is not None for q in self.queues):
            self.position = 0
            self._release()

    def answer(self) -> None:
        if self.burn_seconds:
            burn(self.burn_seconds)
        self.position += 1
        self._release()

    def _release(self) -> None:
        transcript = self.transcript
        if self.position < len(transcript.steps):
            step = transcript.steps[self.position]
            self._send_all(step.before)
            self._send(step.seat, step.decision)
            return
        self._send_all(transcript.after)
        for seat in range(transcript.players):
            self._send(seat, transcript.result)
            self._send(seat, None)  # end of stream

    def _send_all(self, messages: tuple[tuple[int, bytes], ...]) -> None:
        if not self.events:
            return
        for seat, message in messages:
            self._send(seat, message)

    def _send(self, seat: int, message: bytes | None) -> None:
        queue = self.queues[seat]
        if queue is not None:
            queue.put_nowait(message)


class Baseline:
    def __init__(
        self, transcripts: list[Transcript], burn_seconds: float = 0.0, events: bool = True
    ) -> None:
        self.transcripts = transcripts
        self.in_decisions = [with_events_in_decisions(t) for t in transcripts]
        self.burn_seconds = burn_seconds
        self.events = events
        self.rooms: dict[str, Room] = {}

    async def play(
        self, requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        first = arena_pb2.PlayRequest.FromString(await anext(requests))
        match_id, seat = first.join.match_id, first.join.seat
        room = self.rooms.get(match_id)
        if room is None:
            pick = zlib.crc32(match_id.encode()) % len(self.transcripts)
            chosen = self.in_decisions if first.join.events_in_decisions else self.transcripts
            room = self.rooms[match_id] = Room(chosen[pick], self.burn_seconds, self.events)
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        queue.put_nowait(
            arena_pb2.PlayResponse(
                joined=arena_pb2.Joined(match_id=match_id, seat=seat)
            ).SerializeToString()
        )
        room.join(seat, queue)
        reader = asyncio.create_task(_read_answers(requests, room))
        try:
            while (message := await queue.get()) is not None:
                yield message
        finally:
            reader.cancel()
            self.rooms.pop(match_id, None)


async def _read_answers(requests: AsyncIterator[bytes], room: Room) -> None:
    async for _ in requests:
        room.answer()


async def serve(
    host: str,
    port: int,
    transcripts: list[Transcript],
    burn_seconds: float = 0.0,
    events: bool = True,
) -> None:
    baseline = Baseline(transcripts, burn_seconds, events)
    server = grpc.aio.server(options=grpc_options(ServerConfig()))
    handler = grpc.stream_stream_rpc_method_handler(baseline.play)
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("sheepfold.v1.Arena", {"Play": handler}),)
    )
    try:
        bound = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:
        raise CannotListen(f"cannot listen on {host}:{port}: {_bind_problem(host, port)}") from None
    await server.start()
    print(json.dumps({"event": "server started", "port": bound}), file=sys.stderr, flush=True)
    try:
        await server.wait_for_termination()
    finally:  # Ctrl-C: stop it while its loop runs, not in its finalizer after
        await server.stop(None)


def _bind_problem(host: str, port: int) -> str:
    """Why gRPC could not bind, found by binding a plain socket there."""
    try:
        socket.getaddrinfo(host, port)
    except socket.gaierror as error:  # an errno of its own, which strerror does not know
        return str(error.strerror).lower()
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        return bind_failure(error)
    return "gRPC could not bind it"


class CannotListen(Exception):
    """The baseline's address is taken or cannot be bound."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.baseline_server",
        description="Bare grpc.aio Play server replaying recorded random games (the baseline).",
    )
    parser.add_argument(
        "--game", required=True, choices=games.names(), help="game whose traffic to replay"
    )
    parser.add_argument("--players", type=whole_number(1, 64), required=True)
    parser.add_argument(
        "--transcripts",
        type=whole_number(1, 10_000),
        default=8,
        help="recorded games to cycle, 1 to 10,000",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=port, default=0, help="0 = any free port")
    parser.add_argument(
        "--burn-us",
        type=_microseconds,
        default=0.0,
        metavar="N",
        help="spend N microseconds of CPU on every answer (a server costing N us more)",
    )
    parser.add_argument(
        "--no-events",
        dest="events",
        action="store_false",
        help="send decisions and results but no event messages (what the events cost)",
    )
    loops.add_loop_argument(parser, "the same default as `sheepfold serve`, like with like")
    args = parser.parse_args(argv)
    game = games.get(args.game)
    if not game.min_players <= args.players <= game.max_players:
        parser.error(
            f"--players {args.players}: {game.name} takes "
            f"{game.min_players} to {game.max_players} players"
        )
    transcripts = [record(args.game, args.players, seed) for seed in range(args.transcripts)]
    try:
        loops.run(
            serve(args.host, args.port, transcripts, args.burn_us / 1e6, args.events), args.loop
        )
    except CannotListen as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


def _microseconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of microseconds: {text!r}") from None
    if not 0 <= value <= 1_000_000:
        raise argparse.ArgumentTypeError(f"{text} us: give 0 to 1000000")
    return value


if __name__ == "__main__":
    raise SystemExit(main())
