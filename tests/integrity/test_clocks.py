"""Clocks: the deadline per decision, the time bank, strikes and
disqualification, as the result, GetMatch, the replay and the logs show them.

DESIGN: "A seat that misses it gets a random legal action played for it and a
strike; after 3 strikes (set per match) it is disqualified: the rest of its
decisions are played at random and it ranks last. Both are recorded in the
result and the logs."
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from clients.bots.random_bot import RandomBot
from clients.sdk import play, play_blocking
from server.match_restore import restored_match
from server.records import ClockConfig, MatchRecord, RecordedMove, StoredMatch
from server.seats import decision_ids_start
from server.store import MemoryStore
from tests.conftest import ServerProcess, start_server_process, stop_server_process
from tests.integrity.helpers import (
    Case,
    PausedBot,
    SlowBot,
    assert_replay_reproduces_result,
    create_request,
    get_match,
    get_match_blocking,
    get_replay,
    log_entries,
    wait_until,
)
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

CASE = Case("sheep-n-sheep", 2, {})


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    server = start_server_process()
    try:
        yield server
    finally:
        assert stop_server_process(server) == 0


def _match_logs(server: ServerProcess, match_id: str) -> list[dict]:
    """The log lines about a finished match, once its last one has been read:
    the server writes them through a queue and the test reads them on a thread
    of its own, so on a loaded machine they can arrive after the result."""

    def about_it() -> list[dict]:
        return [e for e in log_entries(server.log_lines) if e.get("match_id") == match_id]

    wait_until(
        lambda: any(e["event"] == "match finished" for e in about_it()),
        what="the match's end in the server's log",
    )
    return about_it()


def test_missed_deadlines_strike_then_disqualify_everywhere(served: ServerProcess) -> None:
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        # The random opponent must never miss: 0.1 s was missed under a load of 18.
        created = stub.CreateMatch(create_request(CASE, 31, decision_seconds=0.5, max_strikes=2))
        opponent = threading.Thread(
            target=play_blocking,
            args=(RandomBot(3), served.address, created.match_id, created.seat_tokens[1]),
            daemon=True,
        )
        opponent.start()
        silent = RawSeat(stub)
        silent.join(created.match_id, created.seat_tokens[0])
        decision = silent.next("decision", skip=("joined", "event")).decision
        error = silent.next("error", skip=("event",)).error
        assert error.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
        assert error.decision_id == decision.decision_id
        assert "strike 1 of 2" in error.message
        result = silent.next("result", skip=("decision", "error", "event")).result
        silent.close()
        opponent.join(20)
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))

    # The result and GetMatch both carry the strikes and the disqualification.
    for seats in (result.seats, info.seats, info.result.seats):
        assert [(s.strikes, s.disqualified) for s in seats] == [(2, True), (0, False)]
    assert list(result.ranks) == [2, 1], "a disqualified seat ranks last"
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED

    # The replay marks every move the server played for the seat.
    replay = asyncio.run(get_replay(served.address, created.match_id))
    seat0 = [a for a in replay.actions if a.seat == 0]
    assert all(a.forced for a in seat0), "seat 0 never answered: all its moves were forced"
    assert not any(a.forced for a in replay.actions if a.seat == 1)
    assert_replay_reproduces_result(replay)

    # The logs say it too.
    logs = _match_logs(served, created.match_id)
    missed = [e for e in logs if e["event"] == "decision deadline missed"]
    assert [(e["seat"], e["strikes"], e["disqualified"]) for e in missed] == [
        (0, 1, False),
        (0, 2, True),
    ]
    finished = [e for e in logs if e["event"] == "match finished"]
    assert len(finished) == 1
    assert finished[0]["disqualified"] == [0]
    assert finished[0]["strikes"] == [2, 0]
    assert finished[0]["reason"] == "game over"
    assert finished[0]["forced_moves"] == len(seat0)


def test_a_slow_answer_within_the_bank_is_accepted_and_the_bank_shrinks(
    served: ServerProcess,
) -> None:
    """Deadline 1 s, bank 1 s: an answer after 1.3 s costs about 0.3 s of bank.
    Every other answer must beat the deadline, or it too would cost bank: 0.2 s
    left a loaded machine no room for them."""

    async def scenario() -> tuple[PausedBot, arena_pb2.MatchResult, arena_pb2.MatchInfo, str]:
        async with grpc.aio.insecure_channel(served.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = await stub.CreateMatch(
                create_request(CASE, 32, decision_seconds=1.0, time_bank_seconds=1.0)
            )
        slow = PausedBot(seed=1, first_delay=1.3)
        tasks = [
            asyncio.create_task(
                play(slow, served.address, created.match_id, created.seat_tokens[0])
            ),
            asyncio.create_task(
                play(RandomBot(2), served.address, created.match_id, created.seat_tokens[1])
            ),
        ]
        # While the match runs, GetMatch already shows the smaller bank.
        while len(slow.clocks) < 2:
            await asyncio.sleep(0.01)
        info = await get_match(served.address, created.match_id)
        results = await asyncio.gather(*tasks)
        return slow, results[0], info, created.match_id

    slow, result, info, match_id = asyncio.run(scenario())
    assert slow.clocks[0].time_bank_seconds == pytest.approx(1.0)
    assert slow.clocks[0].decision_seconds == pytest.approx(1.0)
    left = slow.clocks[1].time_bank_seconds
    assert 0.4 < left < 0.8, f"about 0.3 s of the bank is spent, {left} s left"
    assert slow.clocks[1].strikes == 0, "an answer within the bank is no strike"
    assert info.seats[0].time_bank_seconds == pytest.approx(left)
    assert info.seats[1].time_bank_seconds == pytest.approx(1.0)
    assert [s.strikes for s in result.seats] == [0, 0]
    replay = asyncio.run(get_replay(served.address, match_id))
    assert not any(a.forced for a in replay.actions), "the slow answer was played, not replaced"
    used = [e for e in _match_logs(served, match_id) if e["event"] == "time bank used"]
    assert used and used[0]["seat"] == 0
    assert used[0]["bank_left_seconds"] == pytest.approx(left, abs=0.01)


def test_an_answer_later_than_deadline_plus_bank_is_a_strike_and_empties_the_bank(
    served: ServerProcess,
) -> None:
    async def scenario() -> PausedBot:
        async with grpc.aio.insecure_channel(served.address) as channel:
            created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                create_request(
                    CASE, 33, decision_seconds=0.1, time_bank_seconds=0.2, max_strikes=50
                )
            )
        # Late past deadline + bank (0.3 s); the decisions missed while it sleeps
        # are strikes too, so max_strikes is high enough that the match is still
        # on when it wakes and reads its next decision's clock.
        late = PausedBot(seed=1, first_delay=0.45)
        await asyncio.gather(
            play(late, served.address, created.match_id, created.seat_tokens[0]),
            play(RandomBot(2), served.address, created.match_id, created.seat_tokens[1]),
        )
        return late

    late = asyncio.run(scenario())
    assert (late.clocks[1].strikes, late.clocks[1].time_bank_seconds) == (1, 0.0)


def test_a_restored_match_gives_each_seat_back_its_strikes_and_bank() -> None:
    """Clocks survive a restart: the replayed record restores them."""
    record = MatchRecord(
        match_id="r",
        game="sheep-n-sheep",
        players=2,
        options={},
        seed=9,
        clock=ClockConfig(decision_seconds=1, time_bank_seconds=5, max_strikes=2),
        token_hashes=("a", "b"),
        created_at=0.0,
        rules_version=games.get("sheep-n-sheep").rules_version,
    )
    game = games.get("sheep-n-sheep")
    state = game.new_state(2, 9, {})
    moves = []
    banks = {0: 4.5, 1: 5.0}
    forced = {0: "", 1: "timeout"}
    for number in range(1, 5):
        seat = state.to_move
        assert seat is not None
        state.apply(state.legal_actions()[0])
        bank = 0.0 if forced[seat] else banks[seat]
        moves.append(RecordedMove(number, seat, 0, "x", forced[seat], bank))
    match = restored_match(StoredMatch(record, moves), game, MemoryStore())
    timeouts = sum(1 for m in moves if m.forced == "timeout")
    assert match.seats[1].strikes == timeouts
    assert match.seats[1].disqualified == (timeouts >= 2)
    assert match.seats[0].bank == 4.5 and match.seats[0].strikes == 0
    assert match.seats[1].bank == 0.0
    assert match.info().moves == 4
    assert match._decision_counter == decision_ids_start("r") + 4, (
        "decision ids go on from where they were"
    )


def test_clock_settings_are_validated(served: ServerProcess) -> None:
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for clock, text in [
            ({"time_bank_seconds": -1}, "time_bank_seconds must be 0 (none) to 86,400, not -1"),
            ({"max_strikes": -1}, "max_strikes must be 0 (the server's default, 3) or 1 to"),
            ({"decision_seconds": 4000}, "or 0.001 to 3,600, not 4000"),
        ]:
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateMatch(create_request(CASE, 1, **clock))
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert text in caught.value.details()
        created = stub.CreateMatch(create_request(CASE, 1))
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
        assert (info.clock.decision_seconds, info.clock.max_strikes) == (10.0, 3), "defaults"


def test_a_server_frozen_past_a_deadline_strikes_no_seat(tmp_path: Path) -> None:
    """A frozen machine (SIGSTOP, a paused VM) once struck the seat whose
    decision was open: when the server ran again its timer fired first, the
    frozen seconds counted as the seat's, and its answer, waiting unread, was
    refused for a random move. The clock of a decision whose timer runs that
    late now starts again."""
    server = start_server_process("--db", str(tmp_path / "frozen.db"))
    try:
        with grpc.insecure_channel(server.address) as channel:
            created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                create_request(CASE, seed=8, decision_seconds=1.0)
            )

        # Slow until the freeze, so that a decision is open when it comes.
        slow = [SlowBot(seat, delay=0.2) for seat in range(len(created.seat_tokens))]

        async def seats() -> list[arena_pb2.MatchResult]:
            return await asyncio.gather(
                *(
                    play(slow[seat], server.address, created.match_id, token, seat)
                    for seat, token in enumerate(created.seat_tokens)
                )
            )

        results: list[arena_pb2.MatchResult] = []
        bots = threading.Thread(target=lambda: results.extend(asyncio.run(seats())), daemon=True)
        bots.start()
        wait_until(
            lambda: get_match_blocking(server.address, created.match_id).moves >= 2,
            what="the match going",
        )
        os.kill(server.process.pid, signal.SIGSTOP)
        time.sleep(3.0)  # three deadlines' worth, the decision open
        os.kill(server.process.pid, signal.SIGCONT)
        for bot in slow:  # the rest of the match need not crawl: its end is what is checked
            bot.delay = 0.0
        bots.join(timeout=90)
        assert not bots.is_alive(), "the match finished"
        replay = asyncio.run(get_replay(server.address, created.match_id))
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
        assert stop_server_process(server) == 0
    assert [seat.strikes for seat in results[0].seats] == [0, 0]
    assert not any(action.forced for action in replay.actions)
    assert_replay_reproduces_result(replay)
