"""A sandboxed bot that floods the server with connections keeps only its own
socket's share: the other bots of a run, each on a socket of its own, still
connect and play.

A tournament on its own server (no --server), as `sheepfold tournament run`
starts it: the hostile bot opens 200 connections, checks that the server closed
those past its socket's cap (else it exits "ESCAPED", a crash), and holds the
rest while three honest bots play game after game. The honest bots do not
retry a refused connection: on a socket the flood has filled they would crash.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import sheepfold
from tournament.store import Store

pytestmark = pytest.mark.e2e

HOSTILE = Path(__file__).resolve().parent / "bots" / "hostile" / "hostile_bot.py"
HONEST = ("honest-a", "honest-b", "honest-c")


def _config(tmp: Path) -> Path:
    bots = [
        f'[[bots]]\nname = "flood"\ncommand = ["{{python}}", "hostile_bot.py", "connections"]\n'
        f'cwd = "{HOSTILE.parent}"\n'
    ]
    for name in HONEST:
        bots.append(
            f'[[bots]]\nname = "{name}"\ncommand = ["{{python}}", "hostile_bot.py", "impatient"]\n'
            f'cwd = "{HOSTILE.parent}"\n'
        )
    path = tmp / "flood.toml"
    path.write_text(
        'game = "stubborn-sheep"\nplayers = 1\ngames_per_pairing = 3\nconcurrency = 4\n'
        f'decision_seconds = 20.0\nbootstrap = 10\ndatabase = "{tmp / "results.sqlite"}"\n'
        + "".join(bots)
    )
    return path


def test_a_connection_flood_fills_only_the_flooding_bots_socket(
    tmp_path: Path, sandbox_ready: None
) -> None:
    run = sheepfold("tournament", "run", str(_config(tmp_path)), "--no-report", timeout=240)
    assert run.returncode == 0, run.stderr[-3000:]
    with Store(tmp_path / "results.sqlite") as store:
        record = store.tournament()
        games = store.games(record.id)
    assert len(games) == record.scheduled == 3 * (1 + len(HONEST))
    for game in games:
        (seat,) = game.seats
        crashes = json.loads(game.details_json).get("crashes", {})
        # The flood bot saw its extra connections closed (or it would have
        # crashed "ESCAPED"); the honest bots were never kept out.
        assert (seat.failure, seat.strikes, crashes) == (None, 0, {}), (seat.bot, crashes)
