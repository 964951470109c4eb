"""Nothing that follows a move leaves the server before the move is committed.

Crash recovery rests on that order: a server killed at any moment restores
each match from its committed moves, so no seat may have heard of a move (a
decision, an event or a result after it) that a restart would not find. The
test reads the database from another connection at the moment a seat receives
each message and checks that what the message follows is there. (It caught a
message following move 60 with 59 stored when a trial let the commit of a
loop turn's moves wait for a later callback: docs/performance-history.md, nineteenth
round.)
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections import Counter
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.sdk import DecisionView, play
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import Case, create_request


def _reader(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)


def _moves(db: sqlite3.Connection, match_id: str) -> int:
    row = db.execute("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,)).fetchone()
    return int(row[0])


def _status(db: sqlite3.Connection, match_id: str) -> str:
    row = db.execute("SELECT status FROM matches WHERE match_id = ?", (match_id,)).fetchone()
    return "not there" if row is None else str(row[0])


class _CheckingBot:
    """Random play that, at every message its seat receives, reads the database
    from a connection of its own and notes what that message follows and is
    not there yet: the moves answered before a decision, an event's move."""

    def __init__(
        self, path: Path, match_id: str, answered: Counter[str], late: list[str], seed: int
    ) -> None:
        self.db = _reader(path)
        self.match_id = match_id
        self.answered = answered  # answers sent by the match's seats so far
        self.late = late
        self.rng = random.Random(seed)
        self.checked = 0

    def on_event(self, event: arena_pb2.EventMessage) -> None:
        self._check(event.move, "event")

    def decide(self, decision: DecisionView) -> int:
        self._check(self.answered[self.match_id], "decision")
        self.answered[self.match_id] += 1
        return self.rng.randrange(len(decision.actions))

    def _check(self, follows: int, what: str) -> None:
        self.checked += 1
        stored = _moves(self.db, self.match_id)
        if stored < follows:
            self.late.append(f"{self.match_id}: a {what} after move {follows}, {stored} stored")


@pytest.mark.e2e
def test_no_message_that_follows_a_move_is_sent_before_the_move_is_committed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.db"
    server = start_server_process("--db", str(path))
    try:
        checked, late = asyncio.run(_play_and_check(server.address, path))
    finally:
        assert stop_server_process(server) == 0
    assert checked > 1000, "enough messages to catch a move sent ahead of its commit"
    assert late == []


async def _play_and_check(address: str, path: Path) -> tuple[int, list[str]]:
    case = Case("sheep-n-sheep", 2, {})
    answered: Counter[str] = Counter()
    late: list[str] = []
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = [await stub.CreateMatch(create_request(case, seed=700 + n)) for n in range(8)]
    bots: list[_CheckingBot] = []
    seats = []
    for number, response in enumerate(created):
        for seat, token in enumerate(response.seat_tokens):
            bot = _CheckingBot(path, response.match_id, answered, late, 2 * number + seat)
            bots.append(bot)
            # Half the seats take their events as messages of their own.
            seats.append(_played(bot, address, token, seat, events_in_decisions=number % 2 == 0))
    await asyncio.wait_for(asyncio.gather(*seats), timeout=120)
    for bot in bots:
        bot.db.close()
    return sum(bot.checked for bot in bots), late


async def _played(
    bot: _CheckingBot, address: str, token: str, seat: int, events_in_decisions: bool
) -> None:
    result = await play(
        bot, address, bot.match_id, token, seat, events_in_decisions=events_in_decisions
    )
    assert result.end_reason
    status = _status(bot.db, bot.match_id)
    if status != "finished":
        bot.late.append(f"{bot.match_id}: its result arrived, stored as {status}")
