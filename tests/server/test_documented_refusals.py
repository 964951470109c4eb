"""What docs/writing-a-bot.md and arena.proto promise about refusals a bot
written from them alone relies on: the order in which a join is checked,
which decision a PlayError names, and every INVALID_ARGUMENT one it can get."""

from __future__ import annotations

import queue
import re
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.conftest import random_opponent
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e


def _create(
    stub: arena_pb2_grpc.ArenaStub, decision_seconds: float = 0
) -> arena_pb2.CreateMatchResponse:
    clock = arena_pb2.ClockSettings(decision_seconds=decision_seconds)
    return stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=3, clock=clock)
    )


def _join_status(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, seat: int | None = None
) -> grpc.StatusCode:
    raw = RawSeat(stub, timeout=30)
    raw.join(match_id, token, seat)
    raw.close()
    return raw.status()


def test_a_join_on_a_finished_match_is_checked_id_then_token_then_seat_then_status(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = _create(stub)
    seats = [
        random_opponent(inprocess_server, created.match_id, token, seed=index)
        for index, token in enumerate(created.seat_tokens)
    ]
    for seat in seats:
        seat.result(10)

    match_id, token = created.match_id, created.seat_tokens[0]
    assert _join_status(stub, "no-such-match", "not-a-token") == grpc.StatusCode.NOT_FOUND
    assert _join_status(stub, match_id, "not-a-token", seat=1) == grpc.StatusCode.UNAUTHENTICATED
    assert _join_status(stub, match_id, token, seat=1) == grpc.StatusCode.PERMISSION_DENIED
    assert _join_status(stub, match_id, token) == grpc.StatusCode.FAILED_PRECONDITION


def test_a_play_error_names_the_id_answered_the_decision_missed_or_zero(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    # The two refusals must come back before the deadline passes: at 0.5 s a
    # loaded machine could let the deadline's error come first.
    created = _create(stub, decision_seconds=2.0)
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[0])
    seat.next("joined")
    decision = seat.next("decision").decision

    future = decision.decision_id + 1000
    seat.answer(future, 0)
    stale = seat.next("error").error
    assert (stale.code, stale.decision_id) == (grpc.StatusCode.FAILED_PRECONDITION.value[0], future)

    seat.send(arena_pb2.PlayRequest())
    empty = seat.next("error").error
    assert (empty.code, empty.decision_id) == (grpc.StatusCode.INVALID_ARGUMENT.value[0], 0)

    missed = seat.next("error").error  # no answer: the deadline passes
    assert missed.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    assert missed.decision_id == decision.decision_id
    seat.play_to_end()
    seat.close()
    assert len(opponent.result(10).scores) == 2


def _guide_row(opening: str) -> str:
    """The row of docs/writing-a-bot.md's table that starts with `opening`."""
    guide = Path(__file__).resolve().parents[2] / "docs" / "writing-a-bot.md"
    (row,) = [line for line in guide.read_text().splitlines() if line.startswith(opening)]
    return row


def _shape(text: str) -> str:
    return re.sub(r"\d+", "N", text)


def test_every_invalid_argument_play_error_is_quoted_in_the_guide(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """A bot written from the guide alone meets each of these; a C++ one meets
    the undecodable message too: C++ protobuf sends a string field that is not
    UTF-8 with no more than a log line, and the server refuses the message."""
    created = _create(stub, decision_seconds=30)
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    join = arena_pb2.PlayRequest(
        join=arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
    )
    not_utf8 = b"\x0a\x03\x0a\x01\xff"  # a join whose match_id is the byte 0xff
    outgoing: queue.Queue[bytes | None] = queue.Queue()
    for request in (join.SerializeToString(), join.SerializeToString(), b"", not_utf8):
        outgoing.put(request)

    def requests() -> Iterator[bytes]:
        while (item := outgoing.get()) is not None:
            yield item

    with grpc.insecure_channel(inprocess_server.address) as channel:
        play = channel.stream_stream(
            "/sheepfold.v1.Arena/Play", response_deserializer=arena_pb2.PlayResponse.FromString
        )
        responses = play(requests(), timeout=30)
        refusals: list[arena_pb2.PlayError] = []
        decision_ids: list[int] = []
        try:
            for response in responses:
                kind = response.WhichOneof("kind")
                assert kind != "result", "the match ended before the decision came again"
                if kind == "error":
                    refusals.append(response.error)
                elif kind == "decision":
                    decision_ids.append(response.decision.decision_id)
                    if len(decision_ids) == 2:
                        break
                    out_of_range = arena_pb2.Answer(
                        decision_id=response.decision.decision_id,
                        action_index=len(response.decision.actions),
                    )
                    outgoing.put(arena_pb2.PlayRequest(answer=out_of_range).SerializeToString())
        finally:
            outgoing.put(None)
    opponent.cancel()
    assert len(decision_ids) == 2 and decision_ids[0] == decision_ids[1], (
        f"the decision comes again after an out-of-range index: {decision_ids}"
    )
    assert [r.code for r in refusals] == [grpc.StatusCode.INVALID_ARGUMENT.value[0]] * 4
    assert [r.decision_id for r in refusals] == [0, 0, 0, decision_ids[0]]
    row = _shape(_guide_row("| 3 | `INVALID_ARGUMENT` |"))
    unquoted = [r.message for r in refusals if _shape(r.message) not in row]
    assert not unquoted, f"the guide's INVALID_ARGUMENT row does not quote {unquoted}"
