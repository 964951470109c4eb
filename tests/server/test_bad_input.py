"""Bad input gets a clear error with the right gRPC status, and the match goes on."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.conftest import random_opponent
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

GAME = "sheep-n-sheep"


def _create(stub: arena_pb2_grpc.ArenaStub, **clock: float) -> arena_pb2.CreateMatchResponse:
    return stub.CreateMatch(
        arena_pb2.CreateMatchRequest(
            game=GAME, players=2, seed=5, clock=arena_pb2.ClockSettings(**clock)
        )
    )


def test_wrong_token_is_unauthenticated(stub: arena_pb2_grpc.ArenaStub) -> None:
    created = _create(stub)
    seat = RawSeat(stub)
    seat.join(created.match_id, "not-a-token")
    with pytest.raises(grpc.RpcError) as caught:
        seat.next("joined")
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
    seat.close()


def test_another_seats_token_is_permission_denied(stub: arena_pb2_grpc.ArenaStub) -> None:
    created = _create(stub)
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[1], seat=0)
    with pytest.raises(grpc.RpcError) as caught:
        seat.next("joined")
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    seat.close()


def test_unknown_match_is_not_found(stub: arena_pb2_grpc.ArenaStub) -> None:
    seat = RawSeat(stub)
    seat.join("no-such-match", "token")
    with pytest.raises(grpc.RpcError) as caught:
        seat.next("joined")
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    seat.close()


LONG_ID = "m" * 10_000  # within the 16 KiB a request may take


@pytest.mark.parametrize("call", ["GetMatch", "GetReplay", "Watch", "Play"])
def test_a_long_unknown_match_id_is_not_echoed_whole(
    stub: arena_pb2_grpc.ArenaStub, call: str
) -> None:
    """The id was quoted back whole, up to the 1,000 characters a status message
    is cut to: a screenful of the caller's own input to say "no match"."""
    with pytest.raises(grpc.RpcError) as caught:
        if call == "Play":
            seat = RawSeat(stub)
            seat.join(LONG_ID, "token")
            try:
                seat.next("joined")
            finally:
                seat.close()
        elif call == "Watch":
            next(stub.Watch(arena_pb2.WatchRequest(match_id=LONG_ID)))
        else:
            request = getattr(arena_pb2, f"{call}Request")(match_id=LONG_ID)
            getattr(stub, call)(request)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    assert caught.value.details() == "no match '" + "m" * 36 + "..."


def test_first_message_must_be_a_join(stub: arena_pb2_grpc.ArenaStub) -> None:
    seat = RawSeat(stub)
    seat.answer(1, 0)
    with pytest.raises(grpc.RpcError) as caught:
        seat.next("joined")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    seat.close()


def test_bad_answers_get_errors_and_the_match_still_finishes(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = _create(stub)
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[0])
    assert seat.next("joined").joined.seat == 0
    decision = seat.next("decision").decision
    count = len(decision.actions)

    seat.answer(decision.decision_id, count)  # one past the end
    error = seat.next("error").error
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "out of range" in error.message
    again = seat.next("decision").decision
    assert again.decision_id == decision.decision_id, "the same decision is asked again"

    seat.answer(decision.decision_id, -1)
    assert seat.next("error").error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    seat.next("decision")

    seat.answer(decision.decision_id + 1000, 0)  # a decision id that is not open
    stale = seat.next("error").error
    assert stale.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert "stale" in stale.message

    seat.join(created.match_id, created.seat_tokens[0])
    assert seat.next("error").error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]

    # Now play properly to the end: the match was not harmed.
    seat.answer(decision.decision_id, 0)
    previous = decision.decision_id
    for response in seat.responses:
        kind = response.WhichOneof("kind")
        if kind == "decision":
            assert response.decision.decision_id > previous
            previous = response.decision.decision_id
            seat.answer(previous, 0)
        elif kind == "result":
            assert len(response.result.scores) == 2
            break
        else:
            assert kind == "event", response
    else:
        raise AssertionError("no result")
    seat.close()
    opponent.result(10)
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    assert info.seed == 5, "the seed is revealed once the match is over"


def test_an_answer_before_the_match_starts_does_not_say_it_is_not_the_seats_turn(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """While the match waits for its other seat no decision is open, though
    GetMatch names the joined seat as the one to move first: the refusal must
    not tell that seat it is not its turn."""
    created = _create(stub)
    first = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id)).to_move
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[first])
    assert seat.next("joined").joined.seat == first
    seat.answer(1, 0)
    error = seat.next("error").error
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert error.message == "decision 1 is not open: no decision is open now"
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1 - first])
    decision = seat.next("decision").decision
    assert decision.seat == first, "the match goes on once the other seat joins"
    seat.play_to_end(decision)
    seat.close()
    assert len(opponent.result(10).scores) == 2


def test_a_decision_id_from_another_match_is_stale(stub: arena_pb2_grpc.ArenaStub) -> None:
    """Two matches of the same game, each with its first decision open: an
    answer on one's stream naming the other's decision id is refused as stale
    and changes nothing, and the match goes on. Every match once counted its
    ids from 1, so the other match's id was this one's and the answer was
    played (a bot with two games at once, mixing up its streams, moved in the
    wrong one)."""
    firsts = []
    for _ in range(2):
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="stubborn-sheep", players=1, seed=9)
        )
        seat = RawSeat(stub)
        seat.join(created.match_id, created.seat_tokens[0])
        seat.next("joined")
        firsts.append((created.match_id, seat, seat.next("decision").decision))
    (match_id, seat, decision), (_, other, foreign) = firsts
    seat.answer(foreign.decision_id, 0)
    stale = seat.next("error").error
    assert stale.code == grpc.StatusCode.FAILED_PRECONDITION.value[0], stale
    assert f"the open decision is {decision.decision_id}" in stale.message
    assert stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).moves == 0
    assert len(seat.play_to_end(decision).scores) == 1, "the match goes on"
    assert len(other.play_to_end(foreign).scores) == 1
    seat.close()
    other.close()


def test_seed_is_hidden_while_the_match_runs(stub: arena_pb2_grpc.ArenaStub) -> None:
    created = _create(stub)
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
    assert info.status == arena_pb2.MATCH_STATUS_WAITING
    assert not info.HasField("seed")


@pytest.mark.parametrize(
    ("request_fields", "code", "text"),
    [
        ({"game": "chess", "players": 2}, grpc.StatusCode.INVALID_ARGUMENT, "unknown game"),
        ({"game": GAME, "players": 9}, grpc.StatusCode.INVALID_ARGUMENT, "players"),
        (
            {"game": GAME, "players": 2, "options": {"colour": "red"}},
            grpc.StatusCode.INVALID_ARGUMENT,
            "unknown option",
        ),
        (
            {"game": GAME, "players": 2, "clock": arena_pb2.ClockSettings(decision_seconds=-1)},
            grpc.StatusCode.INVALID_ARGUMENT,
            "decision_seconds must be 0",
        ),
        *[
            (
                {"game": GAME, "players": 2, "clock": arena_pb2.ClockSettings(max_strikes=n)},
                grpc.StatusCode.INVALID_ARGUMENT,
                "max_strikes must be 0 (the server's default, 3) or 1 to 1,000",
            )
            for n in (1001, 2**31 - 1)
        ],
    ],
)
def test_create_match_rejects_bad_requests(
    stub: arena_pb2_grpc.ArenaStub, request_fields: dict, code: grpc.StatusCode, text: str
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(arena_pb2.CreateMatchRequest(**request_fields))
    assert caught.value.code() == code
    assert text in caught.value.details()


@pytest.mark.parametrize(
    ("clock", "text"),
    [
        (
            {"decision_seconds": 3600.0000001},
            "decision_seconds must be 0 (the server's default) or 0.001 to 3,600, not 3600.0000001",
        ),
        (
            {"decision_seconds": -1},
            "decision_seconds must be 0 (the server's default) or 0.001 to 3,600, not -1",
        ),
        (
            {"decision_seconds": 5e-324},
            "decision_seconds must be 0 (the server's default) or 0.001 to 3,600, not 5e-324",
        ),
        (
            {"decision_seconds": 2, "time_bank_seconds": 1e308},
            "time_bank_seconds must be 0 (none) to 86,400, not 1e+308",
        ),
        ({"time_bank_seconds": -0.5}, "time_bank_seconds must be 0 (none) to 86,400, not -0.5"),
        (
            {"time_bank_seconds": float("nan")},
            "time_bank_seconds must be a finite number of seconds, not nan",
        ),
        (
            {"decision_seconds": float("-inf")},
            "decision_seconds must be a finite number of seconds, not -inf",
        ),
        (
            {"max_strikes": -1},
            "max_strikes must be 0 (the server's default, 3) or 1 to 1,000, not -1",
        ),
    ],
)
def test_a_bad_clock_is_refused_naming_its_field_value_and_bounds(
    stub: arena_pb2_grpc.ArenaStub, clock: dict, text: str
) -> None:
    """Each clock field out of its bounds is named with its value and what it may
    be: "clock times are too long" once said neither which of the two times nor
    how long they may be, and "must not be negative" not which field."""
    with pytest.raises(grpc.RpcError) as caught:
        _create(stub, **clock)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == text


@pytest.mark.parametrize(
    ("request_fields", "names"),
    [
        ({"game": "g" * 5000, "players": 2}, "(games: sheep-showdown, sheep-n-sheep,"),
        (
            {"game": "sheep-showdown", "players": 2, "options": {"x" * 5000: "1"}},
            "(this game's options: double_trouble, rounds)",
        ),
    ],
    ids=["game", "option"],
)
def test_a_long_unknown_name_still_gets_the_names_it_may_be(
    stub: arena_pb2_grpc.ArenaStub, request_fields: dict, names: str
) -> None:
    """The error quotes the unknown name cut short, so the list of the names the
    server knows survives the cut every status message gets (1,000 characters):
    the whole name was quoted, and the list was cut off after it."""
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(arena_pb2.CreateMatchRequest(**request_fields))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert names in caught.value.details()
    assert len(caught.value.details()) < 200


def test_missed_deadlines_strike_then_disqualify(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """A seat that never answers gets random moves, strikes, and at 2 strikes
    is disqualified and ranked last; the match still finishes."""
    # The opponent's answers must beat the deadline: at 0.05 s it too was
    # disqualified on a slowed CPU.
    created = _create(stub, decision_seconds=0.5, max_strikes=2)
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    silent = RawSeat(stub)
    silent.join(created.match_id, created.seat_tokens[0])
    result = silent.next("result", skip=("joined", "decision", "error", "event")).result
    silent.close()
    opponent.result(10)
    assert result.seats[0].strikes == 2
    assert result.seats[0].disqualified
    assert not result.seats[1].disqualified
    assert result.ranks[0] == 2 and result.ranks[1] == 1
    assert list(result.winners) == [1]


def test_a_match_whose_every_seat_is_disqualified_has_no_winner(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    """They all share the last place, which is also the first: nobody won."""
    created = _create(stub, decision_seconds=0.05, max_strikes=1)
    silent = [RawSeat(stub) for _ in created.seat_tokens]
    for seat, token in zip(silent, created.seat_tokens, strict=True):
        seat.join(created.match_id, token)
    result = silent[0].next("result", skip=("joined", "decision", "error", "event")).result
    for seat in silent:
        seat.close()
    assert [seat.disqualified for seat in result.seats] == [True, True]
    assert list(result.ranks) == [1, 1]
    assert list(result.winners) == []


@pytest.mark.parametrize("method", ["/sheepfold.v1.Arena/NoSuchCall", "/no.such.Service/Call"])
def test_a_method_the_server_lacks_is_unimplemented(
    inprocess_server: InProcessServer, method: str
) -> None:
    """gRPC's own UNIMPLEMENTED "Method not found!", which clients name as "no
    sheepfold.v1.Arena there" (a client of a newer API, or the wrong address),
    not an UNKNOWN carrying one of the server's interceptors' own errors."""
    with (
        grpc.insecure_channel(inprocess_server.address) as channel,
        pytest.raises(grpc.RpcError) as refused,
    ):
        channel.unary_unary(method)(b"", timeout=10)
    assert (refused.value.code(), refused.value.details()) == (
        grpc.StatusCode.UNIMPLEMENTED,
        "Method not found!",
    )
