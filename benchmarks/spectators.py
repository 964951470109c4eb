"""What spectators of whole matches cost the live ones.

`python -m benchmarks.spectators` starts `sheepfold serve` on a fresh SQLite
file, fills it with finished matches, then plays live matches on a tight
deadline four times: alone, while clients cycle `Watch(from_start)` over the
finished matches, while they all watch the same one, and while they cycle
`Watch(from_start)` on long live matches (one each, played to `--held-moves`
moves and then left waiting), each reading one message before it cancels. It prints
each run's gap between decisions (p50, p99, max) and the deadlines missed: a
match's history rebuilt at once on the event loop holds every live match up
for as long as the rebuild takes. A measurement, not part of `make bench`.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event as EventType
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from benchmarks import procs
from clients.sdk import play
from server.records import MAX_STRIKES


@dataclass(slots=True)
class Gaps:
    """Seconds between one decision and the next, over every live seat."""

    values: list[float]
    strikes: int = 0

    def row(self, label: str, watches: int, seconds: float) -> str:
        ordered = sorted(self.values)
        p99 = ordered[int(len(ordered) * 0.99)]
        return (
            f"| {label} | {watches / seconds:,.1f} | {statistics.median(ordered) * 1000:.2f} "
            f"| {p99 * 1000:.1f} | {ordered[-1] * 1000:.1f} | {self.strikes} |"
        )


class _Timed:
    """A random bot that notes when each of the match's decisions reached it."""

    def __init__(self, gaps: Gaps, last: list[float]) -> None:
        self.gaps, self.last = gaps, last

    def decide(self, decision: object) -> int:
        now = time.perf_counter()
        if self.last:
            self.gaps.values.append(now - self.last[0])
            self.last[:] = [now]
        else:
            self.last.append(now)
        return random.randrange(len(decision.actions))  # type: ignore[attr-defined]


async def _matches(address: str, game: str, players: int, count: int, deadline: float) -> Gaps:
    gaps = Gaps([])
    # As many strikes as the server allows: a seat that misses deadlines plays on.
    clock = arena_pb2.ClockSettings(
        decision_seconds=deadline,
        time_bank_seconds=0.001 if deadline else 0,
        max_strikes=MAX_STRIKES,
    )
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for _ in range(count):
            created = await stub.CreateMatch(
                arena_pb2.CreateMatchRequest(game=game, players=players, clock=clock)
            )
            last: list[float] = []
            results = await asyncio.gather(
                *(
                    play(_Timed(gaps, last), address, created.match_id, token)
                    for token in created.seat_tokens
                )
            )
            gaps.strikes += sum(seat.strikes for seat in results[0].seats)
    return gaps


@dataclass(frozen=True, slots=True)
class Flood:
    """What the watching clients watch: every finished match in turn, one
    finished match, or one long live match (reading one message of each Watch)."""

    label: str
    clients: int
    target: str  # "finished" | "one finished" | "live"
    # The live matches held for "live": one a client, of this game, so many moves in.
    game: str = "stubborn-sheep"
    players: int = 5
    held_moves: int = 100


async def _held_match(
    stub: arena_pb2_grpc.ArenaStub, game: str, players: int, moves: int
) -> tuple[str, list[asyncio.Task[None]]]:
    """A live match played to `moves` moves, then left waiting on an hour's
    clock: its seats' streams stay open (the tasks) and nobody answers."""
    created = await stub.CreateMatch(
        arena_pb2.CreateMatchRequest(
            game=game, players=players, clock=arena_pb2.ClockSettings(decision_seconds=3600)
        )
    )
    reached = asyncio.Event()
    answered = 0  # by every seat: a match's decision ids do not count from 1

    async def seat(token: str) -> None:
        nonlocal answered
        call = stub.Play()
        await call.write(
            arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=created.match_id, token=token))
        )
        while (response := await call.read()) is not grpc.aio.EOF:
            if response.WhichOneof("kind") != "decision":
                continue
            decision = response.decision
            if answered >= moves:
                reached.set()
                continue
            answered += 1
            answer = arena_pb2.Answer(
                decision_id=decision.decision_id,
                action_index=random.randrange(len(decision.actions)),
            )
            await call.write(arena_pb2.PlayRequest(answer=answer))

    seats = [asyncio.create_task(seat(token)) for token in created.seat_tokens]
    await asyncio.wait_for(reached.wait(), 60)
    return created.match_id, seats


async def _watch_flood(address: str, flood: Flood, ready: EventType, stop: EventType) -> int:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        held: list[asyncio.Task[None]] = []
        ids: list[str] = []
        if flood.target == "live":
            # One each: a client alone on its match makes it rebuild the history
            # every time, as nobody else holds it.
            for _ in range(flood.clients):
                match_id, seats = await _held_match(
                    stub, flood.game, flood.players, flood.held_moves
                )
                ids.append(match_id)
                held.extend(seats)
        else:
            listed = await stub.ListMatches(
                arena_pb2.ListMatchesRequest(status=arena_pb2.MATCH_STATUS_FINISHED, limit=1000)
            )
            ids = [match.match_id for match in listed.matches]
            ids = ids[:1] if flood.target == "one finished" else ids
        ready.set()
        watched = 0

        async def client(first: int) -> None:
            nonlocal watched
            turn = first
            while not stop.is_set():
                request = arena_pb2.WatchRequest(match_id=ids[turn % len(ids)], from_start=True)
                call = stub.Watch(request)
                try:
                    async for _ in call:
                        if flood.target == "live":
                            call.cancel()
                            break
                except grpc.aio.AioRpcError as error:
                    if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                        raise
                    # The server bounds an address's watchers of one match, and a
                    # watch just cancelled may hold its place a moment on a busy
                    # machine: wait for it rather than end the flood.
                    await asyncio.sleep(0.05)
                    continue
                watched += 1
                turn += flood.clients

        await asyncio.gather(*(client(k) for k in range(flood.clients)))
        for task in held:
            task.cancel()
        return watched


def _flood_process(
    address: str, flood: Flood, ready: EventType, stop: EventType, watched: Synchronized[int]
) -> None:
    """The watching clients, in a process of their own as they would be on
    other machines: on the bots' event loop they would slow the bots instead."""
    watched.value = asyncio.run(_watch_flood(address, flood, ready, stop))


async def _run(address: str, args: argparse.Namespace) -> list[str]:
    await _matches(address, args.game, args.players, args.finished, 0)
    context = multiprocessing.get_context("spawn")
    rows = []
    clients = args.clients
    for flood in (
        Flood("alone", 0, "finished"),
        Flood(f"{clients} clients watching every finished match in turn", clients, "finished"),
        Flood(f"{clients} clients watching one finished match", clients, "one finished"),
        Flood(
            f"{clients} clients watching a live match of {args.held_moves} moves from the start, "
            "one each",
            clients,
            "live",
            game=args.game,
            players=args.players,
            held_moves=args.held_moves,
        ),
    ):
        ready, stop, watched = context.Event(), context.Event(), context.Value("i", 0)
        flooding = context.Process(
            target=_flood_process,
            args=(address, flood, ready, stop, watched),
        )
        flooding.start()
        await asyncio.to_thread(ready.wait, 120)
        await asyncio.sleep(1.0 if flood.clients else 0.0)  # the flood under way
        started = time.monotonic()
        gaps = await _matches(address, args.game, args.players, args.live, args.deadline)
        seconds = time.monotonic() - started
        stop.set()
        await asyncio.to_thread(flooding.join)
        rows.append(gaps.row(flood.label, watched.value, seconds))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.spectators", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--game", default="stubborn-sheep")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--finished", type=int, default=30, help="finished matches to watch")
    parser.add_argument("--live", type=int, default=5, help="live matches per run")
    parser.add_argument("--deadline", type=float, default=0.05, help="seconds per decision")
    parser.add_argument("--clients", type=int, default=8, help="watching clients")
    parser.add_argument(
        "--held-moves", type=int, default=100, help="moves played in the live match watched"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        # Every client watches from this host: one address, allowed one place each.
        command = procs.sheepfold_serve_command(str(Path(folder) / "watch.db"))
        command += ["--max-watchers-per-address", str(max(args.clients, 1))]
        server = procs.start(command)
        try:
            rows = asyncio.run(_run(server.address, args))
        finally:
            procs.stop(server)
    print(
        f"{args.live} live {args.game} matches of {args.players} seats, "
        f"{args.deadline * 1000:g} ms a decision"
    )
    print("| run | watches/s | gap p50 ms | gap p99 ms | gap max ms | deadlines missed |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
