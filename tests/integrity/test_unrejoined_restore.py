"""A match in play when its server was killed (SIGKILL) or stopped (SIGTERM),
whose bots never come back (a tournament runner that moved the game to another
server): the restarted server waits the start timeout, then its clocks play the
absent seats, a strike a missed deadline, until both are disqualified and the
rest of the match is forced. It ends "game over", in the database too; it does
not stay "running"."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.sqlite_store import SqliteStore
from tests.cli.helpers import command
from tests.conftest import ROOT, start_server_process, stop_server_process
from tests.integrity.helpers import (
    Case,
    assert_replay_reproduces_result,
    create_request,
    get_match_blocking,
    get_replay,
    log_entries,
    wait_until,
)

pytestmark = pytest.mark.e2e

CASE = Case("sheep-showdown", 2, {})
START_TIMEOUT = 1.0
DECISION_SECONDS = 0.3
MAX_STRIKES = 2


def _bot(address: str, match_id: str, token: str) -> subprocess.Popen[str]:
    """`sheepfold bot` for one seat, 50 ms a decision, in a process of its own."""
    bot = command("bot", "--server", address, "--match", match_id, "--token", token)
    bot += ["--bot", "tests.integrity.helpers:SteadyBot"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(bot, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, text=True)


def _stored(db: Path, match_id: str) -> tuple[str, int]:
    """The match's status and move count as the database file has them."""
    store = SqliteStore(db)
    try:
        stored = store.load(match_id)
    finally:
        store.close()
    assert stored is not None
    return stored.status, len(stored.moves)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["sigkill", "sigterm"])
def test_a_restored_match_nobody_rejoins_is_ended_by_its_clocks(
    tmp_path: Path, stop: signal.Signals
) -> None:
    db = tmp_path / "abandoned.db"
    # The bots' processes may take longer than START_TIMEOUT to start on a busy
    # machine: only the restarted server, which nobody joins, has the short one.
    first = start_server_process("--db", str(db))
    with grpc.insecure_channel(first.address) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            create_request(
                CASE, seed=31, decision_seconds=DECISION_SECONDS, max_strikes=MAX_STRIKES
            )
        )
    bots = [_bot(first.address, created.match_id, token) for token in created.seat_tokens]
    try:
        wait_until(
            lambda: get_match_blocking(first.address, created.match_id).moves >= 3,
            what="the bots play a few moves",
        )
        first.process.send_signal(stop)
        for bot in bots:
            bot.kill()
        assert first.process.wait(10) in (0, -signal.SIGKILL)
        for bot in bots:
            bot.wait(10)
    finally:
        for process in (*bots, first.process):
            if process.poll() is None:
                process.kill()
    status, moves_before = _stored(db, created.match_id)
    assert status == "running" and moves_before >= 3, "stopped mid-match"

    timeout = ("--start-timeout", str(START_TIMEOUT))
    second = start_server_process("--db", str(db), "--port", str(first.port), *timeout)
    restarted = time.monotonic()
    try:
        wait_until(
            lambda: (
                get_match_blocking(second.address, created.match_id).status
                == arena_pb2.MATCH_STATUS_FINISHED
            ),
            timeout=60,
            what="the restored match nobody rejoined ends",
        )
        assert time.monotonic() - restarted >= START_TIMEOUT, "not before the start timeout"
        info = get_match_blocking(second.address, created.match_id)
        assert info.result.end_reason == "game over"
        replay = asyncio.run(get_replay(second.address, created.match_id))
        # A seat that answered before the restart joined once, as its SeatInfo says.
        answered = {action.seat for action in replay.actions[:moves_before] if not action.forced}
        assert [(s.joined, s.strikes, s.disqualified) for s in info.seats] == [
            (seat in answered, MAX_STRIKES, True) for seat in range(CASE.players)
        ], "each absent seat struck out by its clock"
        assert all(action.forced for action in replay.actions[moves_before:]), "no seat came back"
        assert_replay_reproduces_result(replay)
        entries = log_entries(second.log_lines)
        resuming = [e for e in entries if e["event"] == "match resuming without every seat"]
        assert [e["missing_seats"] for e in resuming] == [list(range(CASE.players))]
    finally:
        assert stop_server_process(second) == 0
    assert _stored(db, created.match_id)[0] == "finished", "ended in the database too"
