"""A hostile client racing the server's clock and a match's end, against a
real `sheepfold serve` on loopback: a seat that joins again on a new stream
just as each decision's deadline runs out, and answers there; readers asking
for the replay and the match while its last moves are played. Each forced
move is one strike and nothing more, each refused answer says why, no read
ever shows a record cut short or the seed before the end, and the server logs
no error for any of it."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ServerProcess, server_logging_no_fault
from tests.integrity.helpers import assert_replay_reproduces_result
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

# One seat, 36 decisions at most: the whole match is the seat's.
GAME = "sheep-and-garden"
DEADLINE = 0.2


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    with server_logging_no_fault("--start-timeout", "30") as server:
        yield server


@pytest.fixture
def stub(served: ServerProcess) -> Iterator[arena_pb2_grpc.ArenaStub]:
    with grpc.insecure_channel(served.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


def _create(
    stub: arena_pb2_grpc.ArenaStub, seed: int, decision_seconds: float = 0.0, max_strikes: int = 0
) -> arena_pb2.CreateMatchResponse:
    clock = arena_pb2.ClockSettings(decision_seconds=decision_seconds, max_strikes=max_strikes)
    return stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game=GAME, players=1, seed=seed, clock=clock)
    )


def _joined(stub: arena_pb2_grpc.ArenaStub, created: arena_pb2.CreateMatchResponse) -> RawSeat:
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[0])
    seat.next("joined")
    return seat


def test_a_seat_rejoining_as_each_deadline_runs_out_gets_one_strike_per_forced_move(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    """At each decision the seat waits about its deadline, joins on a new
    stream and answers there. Whichever comes first, its answer or the clock,
    the old stream ends ABORTED, an answer the clock beat is refused
    FAILED_PRECONDITION, and a move forced for a missed deadline is a strike."""
    created = _create(stub, seed=3, decision_seconds=DEADLINE, max_strikes=1000)
    rng = random.Random(3)
    seat = _joined(stub, created)
    refused: list[str] = []
    result = None
    decision = seat.next("decision").decision
    while result is None:
        time.sleep(rng.uniform(DEADLINE - 0.1, DEADLINE + 0.05))
        newer = RawSeat(stub)
        newer.join(created.match_id, created.seat_tokens[0])
        try:
            newer.next("joined")
        except grpc.RpcError as error:
            # The clock played the last move first: the result is on the old stream,
            # behind the decisions it asked while this thread was late to wake.
            assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error
            result = seat.next("result", skip=("event", "error", "decision")).result
            break
        newer.answer(decision.decision_id, 0)
        assert seat.status() == grpc.StatusCode.ABORTED
        seat.close()
        seat = newer
        for response in seat.responses:
            kind = response.WhichOneof("kind")
            if kind == "error":
                told = response.error
                assert told.code in (
                    grpc.StatusCode.FAILED_PRECONDITION.value[0],
                    grpc.StatusCode.DEADLINE_EXCEEDED.value[0],
                ), told
                if told.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]:
                    refused.append(told.message)
            elif kind == "decision":
                decision = response.decision
                break
            elif kind == "result":
                result = response.result
                break
    seat.close()
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
    replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
    forced = [action.move for action in replay.actions if action.forced]
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    assert info.seats[0].strikes == len(forced) == result.seats[0].strikes
    assert 0 < len(forced) < len(replay.actions), "the race went both ways"
    # An answer the clock beat names the decision it came too late for.
    assert all(
        message.startswith("decision ") and ("timed out" in message or "is not open" in message)
        for message in refused
    ), refused
    assert_replay_reproduces_result(replay)


def test_reads_during_a_matchs_last_moves_never_show_it_cut_short(
    served: ServerProcess, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """GetReplay and GetMatch asked over and over, from other connections,
    while a match plays to its end: the replay is refused FAILED_PRECONDITION
    until the match is over and then holds every move and the result; the
    match shows no seed while it runs, and its result and seed once over."""
    problems: list[object] = []
    replays: list[arena_pb2.Replay] = []
    for seed in range(4):
        created = _create(stub, seed=seed)
        match_id = created.match_id
        done = threading.Event()

        readers = [
            threading.Thread(
                target=_read_until, args=(served.address, match_id, done, problems, replays)
            )
            for _ in range(2)
        ]
        for thread in readers:
            thread.start()
        seat = _joined(stub, created)
        result = seat.play_to_end()
        seat.close()
        time.sleep(0.05)  # reads of the finished match too
        done.set()
        for thread in readers:
            thread.join(30)
        moves = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).moves
        assert all(
            len(replay.actions) == moves and replay.result.scores == result.scores
            for replay in replays
            if replay.match_id == match_id
        )
    assert not problems, problems[:5]
    assert replays, "some replays were read once the matches were over"


def _read_until(
    address: str,
    match_id: str,
    done: threading.Event,
    problems: list[object],
    replays: list[arena_pb2.Replay],
) -> None:
    """GetReplay and GetMatch of `match_id` in a loop until `done`, noting in
    `problems` what a read must never show."""
    with grpc.insecure_channel(address) as channel:
        reader = arena_pb2_grpc.ArenaStub(channel)
        while not done.is_set():
            try:
                replay = reader.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id))
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    problems.append((error.code(), error.details()))
            else:
                replays.append(replay)
                if not replay.HasField("result") or not replay.actions:
                    problems.append(("a replay cut short", len(replay.actions)))
            info = reader.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
            over = info.status == arena_pb2.MATCH_STATUS_FINISHED
            if info.HasField("seed") != over or info.HasField("result") != over:
                problems.append(("match", info.status, info.HasField("seed")))
