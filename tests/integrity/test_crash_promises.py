"""What a SIGKILL may not take, shown at the moments the other crash tests do
not look at: a seat rejoining the restarted server gets the events of every
move after the restart once each and none of the moves before it, and no
seat hears of a move still waiting for a locked database to be written. Real
servers on loopback ports, killed with SIGKILL, restarted on the same database
file."""

from __future__ import annotations

import queue
import signal
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from server import convert
from tests.conftest import ServerProcess, start_server_process, stop_server_process
from tests.integrity.helpers import Case, create_request, get_match_blocking, wait_until
from tests.raw_stream import RawSeat
from tests.sqlite_locks import write_locked

pytestmark = pytest.mark.e2e

CASE = Case("sheep-n-sheep", 2, {})
SEED = 515
DECISIONS_BEFORE_THE_CRASH = 6
# Long enough that no clock runs out while the test drives the seats by hand.
DECISION_SECONDS = 60.0
WAITING = ("--start-timeout", "30")


@contextmanager
def _stub(address: str) -> Iterator[arena_pb2_grpc.ArenaStub]:
    with grpc.insecure_channel(address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


def _kill(server: ServerProcess) -> None:
    server.process.send_signal(signal.SIGKILL)
    assert server.process.wait(10) == -signal.SIGKILL


def _restart(db: Path, first: ServerProcess) -> ServerProcess:
    return start_server_process("--db", str(db), "--port", str(first.port), *WAITING)


def _stored_moves(db: Path, match_id: str) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
        row = reader.execute("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,))
        return int(row.fetchone()[0])


@dataclass
class _Played:
    """A match its two seats played by hand up to an open decision."""

    created: arena_pb2.CreateMatchResponse
    seats: list[RawSeat]
    open: arena_pb2.Decision | None = None  # the last one, not answered


def _play_until_a_decision_is_open(
    stub: arena_pb2_grpc.ArenaStub, address: str, decisions: int
) -> _Played:
    """Both seats joined; `decisions` decisions answered (action 0), the next one
    sent and left open."""
    created = stub.CreateMatch(
        create_request(CASE, SEED, decision_seconds=DECISION_SECONDS), timeout=10
    )
    seats = [RawSeat(stub) for _ in created.seat_tokens]
    for seat, (raw, token) in enumerate(zip(seats, created.seat_tokens, strict=True)):
        raw.join(created.match_id, token, seat=seat)
        raw.next("joined")
    played = _Played(created, seats)
    for answered in range(decisions + 1):
        # Once the last answer is applied: before, the seat to move is the last one.
        wait_until(
            lambda: get_match_blocking(address, created.match_id).moves == answered,  # noqa: B023
            what=f"move {answered} applied",
        )
        to_move = get_match_blocking(address, created.match_id).to_move
        decision = seats[to_move].next("decision").decision
        if answered == decisions:
            played.open = decision
        else:
            seats[to_move].answer(decision.decision_id, 0)
    return played


def _close(seats: list[RawSeat]) -> None:
    for seat in seats:
        seat.responses.cancel()
        seat.close()


def _expected_events(
    replay: arena_pb2.Replay, seat: int, after: int
) -> list[arena_pb2.EventMessage]:
    """The events the engine lets `seat` see, of the moves after move `after`."""
    game = games.get(replay.game)
    state = game.new_state(replay.players, replay.seed, dict(replay.options))
    found = []
    for action in replay.actions:
        for event in state.apply(state.legal_actions()[action.action_index]):
            payload = event.visible_to(seat)
            if action.move > after and payload is not None:
                found.append(convert.event(game.codec, action.move, payload))
    return found


def _play_out(raw: RawSeat, events: list[arena_pb2.EventMessage]) -> None:
    """Answer 0 to every decision to the end, keeping each event received."""
    for response in raw.responses:
        kind = response.WhichOneof("kind")
        if kind == "event":
            events.append(response.event)
        elif kind == "decision":
            raw.answer(response.decision.decision_id, 0)
        elif kind == "result":
            return
        else:
            assert kind == "joined", response


def test_seats_rejoining_after_a_sigkill_get_each_later_event_once_and_no_earlier_one(
    tmp_path: Path,
) -> None:
    """The events of the moves before the crash were sent before it; the restarted
    server sends none of them again (a seat would apply them twice), and every
    event of the moves after it exactly once, as the engine gives them."""
    db = tmp_path / "events.db"
    first = start_server_process("--db", str(db), *WAITING)
    with _stub(first.address) as stub:
        played = _play_until_a_decision_is_open(stub, first.address, DECISIONS_BEFORE_THE_CRASH)
        _kill(first)
        _close(played.seats)
    match_id = played.created.match_id
    moves_before = _stored_moves(db, match_id)
    assert moves_before == DECISIONS_BEFORE_THE_CRASH
    second = _restart(db, first)
    try:
        with _stub(second.address) as stub:
            received: list[list[arena_pb2.EventMessage]] = [[], []]
            seats = [RawSeat(stub) for _ in played.created.seat_tokens]
            threads = []
            for seat, (raw, token) in enumerate(
                zip(seats, played.created.seat_tokens, strict=True)
            ):
                raw.join(match_id, token, seat=seat)
                threads.append(threading.Thread(target=_play_out, args=(raw, received[seat])))
                threads[-1].start()
            for thread in threads:
                thread.join(120)
            assert not any(thread.is_alive() for thread in threads), "the match ended"
            replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id), timeout=10)
            _close(seats)
        for seat in range(CASE.players):
            expected = _expected_events(replay, seat, moves_before)
            assert expected, "moves after the restart have events to send"
            assert received[seat] == expected, f"seat {seat}"
    finally:
        assert stop_server_process(second) == 0


def _next_message(raw: RawSeat) -> queue.Queue[arena_pb2.PlayResponse | Exception]:
    """The stream's messages, read on a thread of their own as they come."""
    arrived: queue.Queue[arena_pb2.PlayResponse | Exception] = queue.Queue()

    def read() -> None:
        try:
            for response in raw.responses:
                arrived.put(response)
        except grpc.RpcError as error:
            arrived.put(error)

    threading.Thread(target=read, daemon=True).start()
    return arrived


def test_no_seat_hears_of_a_move_that_waits_for_a_locked_database_and_a_sigkill_loses(
    tmp_path: Path,
) -> None:
    """A move whose write waits (another process holds the database's write lock)
    is not told to any seat before it is written: killed meanwhile, the server
    loses only the answer, which nobody was told was taken. (Without a lock in
    the way the write is made in the same turn of the event loop as the move,
    and no test could tell the order.)"""
    db = tmp_path / "locked.db"
    first = start_server_process("--db", str(db), *WAITING)
    heard: list[arena_pb2.PlayResponse] = []
    with _stub(first.address) as stub:
        played = _play_until_a_decision_is_open(stub, first.address, DECISIONS_BEFORE_THE_CRASH)
        assert played.open is not None
        match_id = played.created.match_id
        mover = get_match_blocking(first.address, match_id).to_move
        # What is still on its way from before (events of the moves written)
        # may come too: only news of a later move counts.
        streams = [_next_message(raw) for raw in played.seats]
        with write_locked(db):
            played.seats[mover].answer(played.open.decision_id, 0)
            # Long enough for a move told before its write to reach its seats.
            for stream in streams:
                try:
                    while True:
                        message = stream.get(timeout=1.5)
                        if isinstance(message, arena_pb2.PlayResponse):
                            heard.append(message)
                except queue.Empty:
                    pass
            _kill(first)
        _close(played.seats)
    stored = _stored_moves(db, match_id)
    told = [m.event.move for m in heard if m.WhichOneof("kind") == "event"]
    assert all(move <= stored for move in told), (
        f"seats heard of move {max(told)}, and the database has {stored} after the SIGKILL"
    )
    decisions = [m for m in heard if m.WhichOneof("kind") == "decision"]
    assert not [d for d in decisions if d.decision.decision_id > played.open.decision_id], (
        "a decision that follows the unwritten move was sent"
    )
    assert stored == DECISIONS_BEFORE_THE_CRASH, "the answer waiting for the lock is lost"
