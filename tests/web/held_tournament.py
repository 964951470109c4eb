"""A tournament held in play for the browser tests of its page: one game of a
gate bot (tests.tournament.test_run_claims.GATE_BOT) against random, which
waits at its first decision while the file `hold` exists, behind a viewer of
the tournament's database on an in-process game server."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.tournament.test_run_claims import GATE_BOT
from tournament.config import parse_config
from tournament.runner import RunSummary, run_tournament_async
from web.app import WebConfig, start_web
from web.showcase import Showcase


@dataclass(frozen=True)
class HeldTournament:
    viewer: Showcase
    run: Future[RunSummary]
    database: Path
    match_id: str  # the game held in play
    hold: Path  # remove it to let the game go on

    def release(self) -> None:
        self.hold.unlink()
        self.run.result(120)


def waited(condition: Callable[[], object], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@contextmanager
def held_tournament(tmp_path: Path, name: str) -> Iterator[HeldTournament]:
    """The tournament `name` (its page /tournaments/0/NAME), its one game held at
    its first decision until `release()`."""
    (tmp_path / f"{name}_gate.py").write_text(GATE_BOT)
    hold = tmp_path / "hold"
    hold.touch()
    database = tmp_path / f"{name}.db"
    server = InProcessServer(ServerConfig())
    server.start()
    viewer = Showcase(server, tournament_dbs=(database,))
    config = parse_config(
        {
            "name": name,
            "game": "sheep-showdown",
            "players": 2,
            "games_per_pairing": 1,
            "concurrency": 1,
            "decision_seconds": 60,
            "python_path": [str(tmp_path)],
            "options": {"rounds": 1},
            "bots": [
                {"name": "gate", "class": f"{name}_gate:Bot"},
                {"name": "random", "builtin": "random"},
            ],
        }
    )
    try:
        viewer.web = server.run(start_web(WebConfig(server.address, (database,)), "127.0.0.1", 0))
        run = server.submit(run_tournament_async(config, server.address, str(database)))
        waited(lambda: (tmp_path / "asked").exists() or run.done(), "no game was played")
        assert not run.done(), run.exception()
        with closing(sqlite3.connect(database)) as raw:
            ((match_id,),) = raw.execute("SELECT match_id FROM games_in_play").fetchall()
        yield HeldTournament(viewer, run, database, match_id, hold)
    finally:
        hold.unlink(missing_ok=True)
        viewer.stop()
