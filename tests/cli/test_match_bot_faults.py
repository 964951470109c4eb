"""`sheepfold match` plays every seat on one event loop (and, without --server,
its server too): a bot whose plain `decide` blocked for longer than the
deadline made the other seats miss theirs, so an innocent seat was struck and
disqualified with it."""

from __future__ import annotations

import json
import subprocess

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import sheepfold


def _match(bot: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """`sheepfold match` of a random bot against `bot`, Sheep Showdown, seed 5."""
    return sheepfold(
        "match",
        *extra,
        "--game",
        "sheep-showdown",
        "--players",
        "2",
        "--bots",
        f"random,tests.cli.bots.faulty_bots:{bot}",
        "--seed",
        "5",
        timeout=120,
    )


@pytest.mark.parametrize("bot", ["SleepyBot", "AsyncSleepyBot"])
@pytest.mark.parametrize("elsewhere", [False, True], ids=["own-server", "--server"])
def test_a_blocking_bot_costs_only_its_own_seat(
    elsewhere: bool, bot: str, server: ServerProcess
) -> None:
    where = ["--server", server.address] if elsewhere else []
    done = _match(bot, *where, "--decision-seconds", "1", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["disqualified"] == [1]
    assert summary["strikes"][0] == 0, summary


def test_a_blocking_on_event_costs_only_its_own_seat() -> None:
    """A plain `on_event` ran on the loop, not on the bot's thread as `decide`
    does: blocked, it stalled the other seat and the server, and once the bot
    was left on its thread, the SDK still awaited it after the match had ended:
    `match` hung until killed."""
    done = sheepfold(
        "match", "--game", "sheep-showdown", "--players", "2",
        "--bots", "random,tests.tournament.tournament_test_bots:EventHangingBot", "--seed", "5",
        "--decision-seconds", "0.5", "--json",
        timeout=15,  # under the 20 s the bot blocks for
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["disqualified"] == [1]
    assert summary["strikes"][0] == 0, summary


def test_an_on_event_that_raises_is_reported_as_the_bots_own_error() -> None:
    """As for `decide`: one line naming the seat, then the bot's own frames, not
    the SDK's (on_event's exception escaped unguarded through the SDK)."""
    done = _match("EventRaisingBot")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert lines[0] == (
        "sheepfold match: the bot in seat 1 (tests.cli.bots.faulty_bots:EventRaisingBot) "
        "raised ValueError: cannot read this event"
    ), done.stderr
    for sdk_file in ("clients/sdk.py", "clients/play_stream.py"):
        assert sdk_file not in done.stderr, done.stderr


def test_a_seat_lost_for_refused_answers_is_named() -> None:
    """A bot out of range every time floods its stream with refused answers and
    the server ends it: `match` said "RESOURCE_EXHAUSTED: more than 100 rejected
    messages on this stream", and not which of its seats that was."""
    done = sheepfold(
        "match", "--game", "sheep-showdown", "--players", "3",
        "--bots", "random,tests.cli.bots.faulty_bots:OutOfRangeBot,random", "--seed", "5",
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "sheepfold match: seat 1 (tests.cli.bots.faulty_bots:OutOfRangeBot): RESOURCE_EXHAUSTED: "
        "more than 100 rejected messages"
    ), done.stderr
    assert "action index 999 is out of range" in last, done.stderr
