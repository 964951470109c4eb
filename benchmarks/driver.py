"""The bot driver: one process running many SDK clients over asyncio.

It keeps `--matches` matches of random bots going (a finished match is replaced
by a new one), waits until every match has seen its first decision, and then
measures for `--seconds`: decisions played and the decision round trip, the
time from a seat answering (its bot returns) to the next decision of that
match arriving at any seat. That round trip is the server's whole cost per
decision as a client sees it: read the answer, apply it, stream the events,
build and send the next decision.

It runs against `sheepfold serve` (`--mode server`: CreateMatch, then one
`clients.sdk.play` per seat) or the baseline (`--mode baseline`: the same
`play` calls with made-up match ids). Prints one JSON object on stdout.

    python -m benchmarks.driver --address 127.0.0.1:50051 --game sheep-n-sheep \
        --players 2 --matches 10 --seconds 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from dataclasses import asdict, dataclass, field

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from benchmarks import procs
from clients import sdk
from clients.sdk import DecisionView, play
from server.logs import configure_logging

# Real bots run in processes of their own, one TCP connection each. Without this
# every channel in this process shares one connection (gRPC's global subchannel
# pool) and that single connection, not the server, limits the rate.
OWN_CONNECTION = ("grpc.use_local_subchannel_pool", 1)


@dataclass
class Recorder:
    """Decisions and round trips seen while `measuring` is on."""

    measuring: bool = False
    decisions: int = 0
    round_trips: list[float] = field(default_factory=list)
    matches_started: int = 0
    matches_finished: int = 0


@dataclass
class MatchClock:
    """When a seat of this match last answered (None before the first decision)."""

    last_answer: float | None = None


class TimedRandomBot:
    """A seeded random bot that notes when each decision arrives."""

    def __init__(
        self, recorder: Recorder, clock: MatchClock, first: asyncio.Event, seed: int
    ) -> None:
        self.recorder = recorder
        self.clock = clock
        self.first = first
        self.rng = random.Random(seed)

    def decide(self, decision: DecisionView) -> int:
        now = time.perf_counter()
        recorder, clock = self.recorder, self.clock
        if recorder.measuring:
            recorder.decisions += 1
            if clock.last_answer is not None:
                recorder.round_trips.append(now - clock.last_answer)
        self.first.set()
        choice = self.rng.randrange(len(decision.actions))
        # The SDK writes the answer right after decide() returns.
        clock.last_answer = time.perf_counter()
        return choice


@dataclass(frozen=True, slots=True)
class DriverResult:
    mode: str
    game: str
    players: int
    matches: int
    seconds: float
    decisions: int
    decisions_per_second: float
    round_trips: int
    p50_ms: float
    p99_ms: float
    mean_ms: float
    matches_finished: int
    ramp_seconds: float
    server_cpu_seconds: float | None
    driver_cpu_seconds: float
    server_rss_before: int | None
    server_rss_after: int | None


async def _slot(
    index: int,
    args: argparse.Namespace,
    recorder: Recorder,
    first: asyncio.Event,
    stub: arena_pb2_grpc.ArenaStub | None,
) -> None:
    round_number = 0
    while True:
        seed = index * 100_003 + round_number
        if stub is not None:
            created = await stub.CreateMatch(
                arena_pb2.CreateMatchRequest(
                    game=args.game,
                    players=args.players,
                    options=dict(option.split("=", 1) for option in args.option),
                    seed=seed,
                ),
                wait_for_ready=True,
            )
            match_id, tokens = created.match_id, list(created.seat_tokens)
        else:
            match_id, tokens = f"bench-{index}-{round_number}", ["-"] * args.players
        clock = MatchClock()
        recorder.matches_started += 1
        await asyncio.gather(
            *(
                play(
                    TimedRandomBot(recorder, clock, first, seed * 8 + seat),
                    args.address,
                    match_id,
                    token,
                    seat,
                    # As bots do: a join refused in a burst from one address
                    # (RESOURCE_EXHAUSTED) or cancelled before it started is tried
                    # again; a server that is gone still fails the run in seconds.
                    max_reconnects=5,
                    events_in_decisions=args.events_in_decisions,
                )
                for seat, token in enumerate(tokens)
            )
        )
        recorder.matches_finished += 1
        first = asyncio.Event()  # only the first match of a slot gates the ramp
        round_number += 1


async def drive(args: argparse.Namespace) -> DriverResult:
    recorder = Recorder()
    channel = grpc.aio.insecure_channel(args.address)
    stub = arena_pb2_grpc.ArenaStub(channel) if args.mode == "server" else None
    firsts = [asyncio.Event() for _ in range(args.matches)]
    tasks = [
        asyncio.create_task(_slot(i, args, recorder, firsts[i], stub)) for i in range(args.matches)
    ]
    started = time.perf_counter()
    waiting = asyncio.gather(*(event.wait() for event in firsts))
    with contextlib.suppress(TimeoutError):  # measure what has started
        await asyncio.wait_for(waiting, args.ramp_timeout)
    for task in tasks:
        if task.done() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    ramp = time.perf_counter() - started
    await asyncio.sleep(args.warmup)
    before = procs.sample(args.server_pid) if args.server_pid else None
    recorder.measuring = True
    driver_cpu = time.process_time()
    window_start = time.perf_counter()
    finished_before = recorder.matches_finished
    await asyncio.sleep(args.seconds)
    recorder.measuring = False
    window = time.perf_counter() - window_start
    driver_cpu = time.process_time() - driver_cpu
    after = procs.sample(args.server_pid) if args.server_pid else None
    for task in tasks:
        if task.done() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    trips = sorted(recorder.round_trips)
    return DriverResult(
        mode=args.mode,
        game=args.game,
        players=args.players,
        matches=args.matches,
        seconds=window,
        decisions=recorder.decisions,
        decisions_per_second=recorder.decisions / window,
        round_trips=len(trips),
        p50_ms=_quantile(trips, 0.50) * 1000,
        p99_ms=_quantile(trips, 0.99) * 1000,
        mean_ms=(sum(trips) / len(trips) * 1000) if trips else float("nan"),
        matches_finished=recorder.matches_finished - finished_before,
        ramp_seconds=ramp,
        server_cpu_seconds=(after.cpu_seconds - before.cpu_seconds) if before and after else None,
        driver_cpu_seconds=driver_cpu,
        server_rss_before=before.rss_bytes if before else None,
        server_rss_after=after.rss_bytes if after else None,
    )


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.driver",
        description="Drive many matches of random SDK bots against a server; print JSON.",
    )
    parser.add_argument("--address", required=True)
    parser.add_argument("--mode", choices=("server", "baseline"), default="server")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    parser.add_argument("--matches", type=int, default=10, help="concurrent matches")
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring window")
    parser.add_argument("--warmup", type=float, default=0.5, help="seconds after the ramp")
    parser.add_argument("--ramp-timeout", type=float, default=60.0)
    parser.add_argument("--server-pid", type=int, help="sample this process's CPU and memory")
    parser.add_argument(
        "--events-in-decisions",
        action="store_true",
        help="seats join with events_in_decisions (default: every event a message of its own)",
    )
    parser.add_argument(
        "--shared-connection",
        action="store_true",
        help="let every seat share one TCP connection (gRPC's default in one process)",
    )
    args = parser.parse_args(argv)
    if args.shared_connection:
        sdk.CHANNEL_OPTIONS = [o for o in sdk.CHANNEL_OPTIONS if o != OWN_CONNECTION]
    # stdout carries the JSON result: the SDK's logs go to stderr, warnings only.
    configure_logging("console", "warning")
    result = asyncio.run(_run_and_report(args))
    return result


async def _run_and_report(args: argparse.Namespace) -> int:
    result = await drive(args)
    print(json.dumps(asdict(result)), flush=True)
    # Hundreds of open streams take long to close politely; the numbers are out.
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    raise SystemExit(main())
