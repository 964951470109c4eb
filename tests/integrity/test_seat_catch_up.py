"""What a seat is sent besides its plain decisions and events holds nothing it
may not see: the decision sent again to a rejoining seat and after a refused
answer, the events held inside decisions (events_in_decisions), the
PlayErrors of refused answers, the Joined and the result. Every message each
seat receives, on every stream it opened, is checked against a local engine
replay: a decision must be exactly what the engine shows that seat at that
move, an event one the engine lets that seat see at its move."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from server import convert
from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.integrity.helpers import Case, case_ids, create_request, game_cases, get_replay

pytestmark = pytest.mark.e2e

# Every game at two seats, and Sheep 'n' Sheep at four too.
CASES = [*game_cases(), Case("sheep-n-sheep", 4, {})]
ERRORS = re.compile(
    r"action index -?\d+ is out of range 0\.\.\d+"
    r"|stale decision id \d+; the open decision is \d+"
)


@dataclass
class SeatLog:
    seat: int
    received: list[arena_pb2.PlayResponse] = field(default_factory=list)
    streams: int = 0
    refused: int = 0


def _answer(decision_id: int, index: int) -> arena_pb2.PlayRequest:
    return arena_pb2.PlayRequest(
        answer=arena_pb2.Answer(decision_id=decision_id, action_index=index)
    )


async def play_unruly_seat(
    address: str, match_id: str, token: str, log: SeatLog, seed: int
) -> None:
    """Random play that often answers out of range or with a stale id, and
    drops its stream and rejoins at random decisions (a new stream each time,
    with events in decisions on every other one)."""
    rng = random.Random(seed)
    while True:
        log.streams += 1
        join = arena_pb2.Join(
            match_id=match_id, token=token, events_in_decisions=(log.streams + log.seat) % 2 == 0
        )
        outgoing: asyncio.Queue[arena_pb2.PlayRequest | None] = asyncio.Queue()
        outgoing.put_nowait(arena_pb2.PlayRequest(join=join))

        async def requests(
            queue: asyncio.Queue[arena_pb2.PlayRequest | None] = outgoing,
        ) -> AsyncIterator[arena_pb2.PlayRequest]:
            while (request := await queue.get()) is not None:
                yield request

        async with grpc.aio.insecure_channel(address) as channel:
            call = arena_pb2_grpc.ArenaStub(channel).Play(requests())
            dropped = False
            async for response in call:
                log.received.append(response)
                kind = response.WhichOneof("kind")
                if kind == "result":
                    outgoing.put_nowait(None)
                    return
                if kind != "decision":
                    continue
                decision = response.decision
                roll = rng.random()
                if roll < 0.1:  # out of range: a PlayError, and the decision again
                    log.refused += 1
                    outgoing.put_nowait(_answer(decision.decision_id, len(decision.actions)))
                    continue
                if roll < 0.2:  # a stale id: a PlayError, and still open
                    log.refused += 1
                    outgoing.put_nowait(_answer(decision.decision_id + 1000, 0))
                if roll > 0.85 and log.streams < 12:  # gone: the rejoin gets it again
                    dropped = True
                    break
                outgoing.put_nowait(
                    _answer(decision.decision_id, rng.randrange(len(decision.actions)))
                )
            call.cancel()
            outgoing.put_nowait(None)
            assert dropped, f"seat {log.seat}: the stream ended before the result: {call.code()}"


@dataclass(frozen=True)
class Expected:
    """What the engine shows: by move, the decision (seat, prompt, observation,
    labels) and the events each seat may see."""

    decisions: dict[int, tuple[int, str, arena_pb2.Observation, list[str]]]
    events: list[dict[int, set[bytes]]]  # by seat, then move


def _expected(replay: arena_pb2.Replay) -> Expected:
    game = games.get(replay.game)
    codec = game.codec
    state = game.new_state(replay.players, replay.seed, dict(replay.options))
    decisions = {}
    events: list[dict[int, set[bytes]]] = [{} for _ in range(replay.players)]
    for action in replay.actions:
        seat = state.to_move
        legal = state.legal_actions()
        decisions[action.move] = (
            seat,
            state.prompt(),
            convert.observation(codec, state.observation(seat)),
            [a.label for a in legal],
        )
        for event in state.apply(legal[action.action_index]):
            for viewer in range(replay.players):
                payload = event.visible_to(viewer)
                if payload is not None:
                    message = convert.event(codec, action.move, payload).SerializeToString()
                    events[viewer].setdefault(action.move, set()).add(message)
    assert state.terminal
    return Expected(decisions, events)


def _check_seat(log: SeatLog, expected: Expected, replay: arena_pb2.Replay, first: int) -> None:
    seat = log.seat
    kinds = [message.WhichOneof("kind") for message in log.received]
    assert kinds.count("joined") == log.streams and kinds[-1] == "result", kinds
    assert log.received[-1].result == replay.result
    for message in log.received:
        kind = message.WhichOneof("kind")
        if kind == "joined":
            joined = message.joined
            assert (joined.match_id, joined.seat, joined.game, joined.players) == (
                replay.match_id,
                seat,
                replay.game,
                replay.players,
            )
            assert dict(joined.options) == dict(replay.options)
        elif kind == "decision":
            decision = message.decision
            move = decision.decision_id - first + 1
            to_move, prompt, observation, labels = expected.decisions[move]
            assert (decision.seat, to_move) == (seat, seat), f"decision {move} of another seat"
            assert decision.prompt == prompt
            assert decision.observation == observation, f"seat {seat} move {move}: not its view"
            assert [a.label for a in decision.actions] == labels
            for event in decision.events:
                assert event.move < move, f"seat {seat}: an event of move {event.move} early"
                seen = expected.events[seat].get(event.move, set())
                assert event.SerializeToString() in seen, f"seat {seat}: {event} not its to see"
        elif kind == "event":
            seen = expected.events[seat].get(message.event.move, set())
            assert message.event.SerializeToString() in seen, f"seat {seat}: {message.event}"
        elif kind == "error":
            assert message.error.code in (3, 9), message.error
            assert ERRORS.fullmatch(message.error.message), message.error.message
        else:
            assert kind == "result", kind


@pytest.mark.parametrize("case", CASES, ids=[*case_ids(game_cases()), "sheep-n-sheep-4"])
def test_rejoins_refusals_and_held_events_show_each_seat_only_its_view(case: Case) -> None:
    with InProcessServer(ServerConfig()) as server:

        async def scenario() -> tuple[str, list[SeatLog]]:
            async with grpc.aio.insecure_channel(server.address) as channel:
                created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                    create_request(case, 11)
                )
            logs = [SeatLog(seat) for seat in range(case.players)]
            await asyncio.gather(
                *(
                    play_unruly_seat(server.address, created.match_id, token, logs[seat], seat)
                    for seat, token in enumerate(created.seat_tokens)
                )
            )
            return created.match_id, logs

        match_id, logs = server.run(scenario(), timeout=120)
        replay = server.run(get_replay(server.address, match_id))
    assert not any(action.forced for action in replay.actions)
    expected = _expected(replay)
    first = min(
        m.decision.decision_id for log in logs for m in log.received if m.HasField("decision")
    )
    for log in logs:
        _check_seat(log, expected, replay, first)
    # The paths this is about were all taken.
    assert sum(log.streams - 1 for log in logs) >= 2, [log.streams for log in logs]
    assert sum(log.refused for log in logs) >= 2
    assert any(m.decision.events for log in logs for m in log.received if m.HasField("decision"))
    again = [m.decision.decision_id for log in logs for m in log.received if m.HasField("decision")]
    assert len(again) > len(set(again)), "no decision was sent again"
