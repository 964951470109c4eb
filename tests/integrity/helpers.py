"""Shared pieces of the integrity tests: small per-game set-ups, bots, a raw
Play stream, and the checks that compare what the server did with a local
engine replay of the recorded actions."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from clients.sdk import DecisionView, play
from server import convert, launch
from server.inprocess import InProcessServer
from server.match import Match
from server.records import ClockConfig, MatchRecord
from server.seats import MatchLimits, SeatStream
from server.store import MemoryStore
from server.streams import StreamClosed

# Small set-ups that keep every game short: one round of Sheep Showdown, two seats.
SMALL_OPTIONS: dict[str, dict[str, str]] = {"sheep-showdown": {"rounds": "1"}}


def match_without_grpc(
    game_name: str,
    seed: int,
    options: Mapping[str, str] | None = None,
    limits: MatchLimits | None = None,
    players: int = 2,
) -> Match:
    """A match in memory (2 players unless told), for tests that drive its seats
    themselves."""
    game = games.get(game_name)
    record = MatchRecord(
        match_id=f"m{seed}",
        game=game.name,
        players=players,
        options=dict(options or {}),
        seed=seed,
        clock=ClockConfig(decision_seconds=5),
        token_hashes=tuple("abcdef"[:players]),
        created_at=0.0,
    )
    store = MemoryStore()
    store.create_match(record)
    return Match(record, game, store, limits=limits)


def seat_streams(match: Match) -> list[SeatStream]:
    """A stream joined to each seat of a match driven without gRPC (not started)."""
    streams = [SeatStream() for _ in range(match.record.players)]
    for seat, stream in enumerate(streams):
        match.join(seat, stream)
    return streams


async def play_first_actions(match: Match, streams: Sequence[SeatStream]) -> None:
    """Every seat plays action 0 until the match ends (10 s at most)."""
    await asyncio.wait_for(
        asyncio.gather(
            *(answer_first_action(match, seat, stream) for seat, stream in enumerate(streams))
        ),
        10,
    )


async def answer_first_action(
    match: Match,
    seat: int,
    stream: SeatStream,
    on_decision: Callable[[], object] | None = None,
) -> None:
    """Seat `seat` of a match driven without gRPC plays action 0 until its
    stream closes, calling `on_decision()` (if given) before each answer."""
    while True:
        item = await stream.get()
        if isinstance(item, StreamClosed):
            return
        if isinstance(item, bytes):  # decisions and events go out pre-encoded
            item = arena_pb2.PlayResponse.FromString(item)
        if item.WhichOneof("kind") != "decision":
            continue
        if on_decision is not None:
            on_decision()
        match.answer(seat, item.decision.decision_id, 0)


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    options: dict[str, str]


def game_cases() -> list[Case]:
    """One small case for every registered game (two seats where allowed)."""
    cases = []
    for name in games.names():
        game = games.get(name)
        players = max(game.min_players, min(2, game.max_players))
        cases.append(Case(name, players, dict(SMALL_OPTIONS.get(name, {}))))
    return cases


def case_ids(cases: Sequence[Case]) -> list[str]:
    return [case.game for case in cases]


class SlowBot:
    """Random play that takes `delay` seconds per decision (so a test can act mid-match)."""

    def __init__(self, seed: int = 0, delay: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.delay = delay

    async def decide(self, decision: DecisionView) -> int:
        if self.delay:
            await asyncio.sleep(self.delay)
        return self.rng.randrange(len(decision.actions))


class SteadyBot(SlowBot):
    """SlowBot at 50 ms a decision, for `sheepfold bot --bot module:Class` (seed only)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, 0.05)


class PausedBot:
    """Random play, but the first decision waits `first_delay` seconds."""

    def __init__(self, seed: int = 0, first_delay: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.first_delay = first_delay
        self.clocks: list[arena_pb2.Clock] = []

    async def decide(self, decision: DecisionView) -> int:
        self.clocks.append(decision.clock)
        if len(self.clocks) == 1 and self.first_delay:
            await asyncio.sleep(self.first_delay)
        return self.rng.randrange(len(decision.actions))


def create_request(
    case: Case,
    seed: int,
    *,
    decision_seconds: float = 0.0,
    time_bank_seconds: float = 0.0,
    max_strikes: int = 0,
    admin_token: str = "",
) -> arena_pb2.CreateMatchRequest:
    return arena_pb2.CreateMatchRequest(
        game=case.game,
        players=case.players,
        options=case.options,
        seed=seed,
        clock=arena_pb2.ClockSettings(
            decision_seconds=decision_seconds,
            time_bank_seconds=time_bank_seconds,
            max_strikes=max_strikes,
        ),
        admin_token=admin_token,
    )


async def get_match(address: str, match_id: str) -> arena_pb2.MatchInfo:
    async with grpc.aio.insecure_channel(address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=10
        )


def get_match_blocking(address: str, match_id: str) -> arena_pb2.MatchInfo:
    """GetMatch over a synchronous channel: for polling from a test while another
    thread runs an asyncio client (a new event loop per poll, closed after each,
    can make grpc.aio lose the other loop's completions)."""
    with grpc.insecure_channel(address) as channel:
        return arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=10
        )


async def get_replay(address: str, match_id: str) -> arena_pb2.Replay:
    async with grpc.aio.insecure_channel(address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).GetReplay(
            arena_pb2.GetReplayRequest(match_id=match_id), timeout=10
        )


def replay_locally(replay: arena_pb2.Replay) -> games.State:
    """Play the recorded action indices on a fresh engine with the same seed."""
    game = games.get(replay.game)
    state = game.new_state(replay.players, replay.seed, dict(replay.options))
    for number, action in enumerate(replay.actions, start=1):
        assert action.move == number
        assert state.to_move == action.seat, f"move {number}: recorded for the wrong seat"
        legal = state.legal_actions()
        assert legal[action.action_index].label == action.label
        state.apply(legal[action.action_index])
    assert state.terminal, "the recorded actions do not finish the game"
    return state


def assert_replay_reproduces_result(replay: arena_pb2.Replay) -> None:
    """The engine, fed the record, ends with the scores and ranks the server reported
    (disqualified seats are ranked last by the server, so ranks are compared without DQs)."""
    state = replay_locally(replay)
    expected = state.result()
    assert list(replay.result.scores) == [float(s) for s in expected.scores]
    assert json.loads(replay.result.details_json) == json.loads(
        json.dumps(expected.details, sort_keys=True, default=str)
    )
    if not any(seat.disqualified for seat in replay.result.seats):
        assert list(replay.result.ranks) == list(expected.ranks)


def expected_watch_stream(replay: arena_pb2.Replay) -> list[arena_pb2.WatchResponse]:
    """Everything a spectator may see of the match, built independently from the
    engine: `observation(None)` after each move and `Event.visible_to(None)`."""
    game = games.get(replay.game)
    codec = game.codec
    state = game.new_state(replay.players, replay.seed, dict(replay.options))

    def snapshot(move: int) -> arena_pb2.WatchResponse:
        message = arena_pb2.Snapshot(
            move=move, observation=convert.observation(codec, state.observation(None))
        )
        if state.to_move is not None:
            message.to_move = state.to_move
        return arena_pb2.WatchResponse(snapshot=message)

    out = [snapshot(0)]
    for action in replay.actions:
        events = state.apply(state.legal_actions()[action.action_index])
        for event in events:
            payload = event.visible_to(None)
            if payload is not None:
                out.append(
                    arena_pb2.WatchResponse(event=convert.event(codec, action.move, payload))
                )
        out.append(snapshot(action.move))
    out.append(arena_pb2.WatchResponse(result=replay.result))
    return out


def private_payload_messages(replay: arena_pb2.Replay) -> list[arena_pb2.EventMessage]:
    """The full (unredacted) form of every private event, as a seat would get it."""
    game = games.get(replay.game)
    state = game.new_state(replay.players, replay.seed, dict(replay.options))
    found = []
    for action in replay.actions:
        for event in state.apply(state.legal_actions()[action.action_index]):
            if event.seat is not None and event.payload != event.redacted:
                found.append(convert.event(game.codec, action.move, event.payload))
    return found


def wait_until(condition: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or condition}")


def log_entries(lines: Sequence[str]) -> list[Mapping[str, object]]:
    entries = []
    for line in list(lines):
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return entries


def logged(lines: Sequence[str], event: str) -> list[dict[str, object]]:
    """The JSON log entries of `lines` whose event is `event`, in order."""
    return [dict(entry) for entry in log_entries(lines) if entry["event"] == event]


@contextlib.contextmanager
def stopped_by_the_end(server: InProcessServer) -> Iterator[Callable[[], None]]:
    """`stop()` starts the server's shutdown beside the test and returns once
    the server is closing; the shutdown is done by the end of the block either
    way."""
    stopping = threading.Thread(target=server.stop)

    def stop() -> None:
        stopping.start()
        while server.server.registry.closing is None:
            time.sleep(0.001)

    try:
        yield stop
    finally:
        if stopping.ident is None:
            server.stop()
        else:
            stopping.join(60)


def health_status(address: str, service: str = "") -> int:
    """What the server's health service says of `service` ("" the whole server)."""
    with grpc.insecure_channel(address) as channel:
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=5
        )
    return int(answer.status)


def assert_every_case_plays_through(server: launch.ServerProcess, where: str) -> None:
    """Three matches of every case on `server`, played to their end by random
    bots at full speed, as written (their replays agree), the server SERVING
    throughout and no write waiting: where a few hundred moves of write-ahead
    log (several KB each) are more than `where` has room for. Stops `server`."""
    address = server.address
    try:
        with grpc.insecure_channel(address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = [
                stub.CreateMatch(create_request(case, seed, decision_seconds=5.0))
                for seed in range(3)
                for case in game_cases()
            ]

        async def seats() -> None:
            await asyncio.gather(
                *(
                    play(SlowBot(seat), address, response.match_id, token, seat)
                    for response in created
                    for seat, token in enumerate(response.seat_tokens)
                )
            )

        bots = threading.Thread(target=lambda: asyncio.run(seats()), daemon=True)
        bots.start()
        bots.join(timeout=120)
        assert not bots.is_alive(), f"every match finished {where}"
        assert health_status(address) == health_pb2.HealthCheckResponse.SERVING
        for response in created:
            assert_replay_reproduces_result(asyncio.run(get_replay(address, response.match_id)))
    finally:
        assert launch.stop(server) == 0
    waited = [e for e in log_entries(server.log_lines) if e["event"] == "database write waiting"]
    assert not waited, waited
