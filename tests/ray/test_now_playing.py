"""A `--ray` run's games in play are listed for the web viewer's "Now playing"
(see conftest.py: these run inside a private network namespace).

A Ray worker played its game without the driver seeing its match created, so
a tournament played on a Ray cluster never had a row in games_in_play: the
viewer showed nothing under "Now playing" for the whole run.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.quick_cup import Recorder
from tournament.config import TournamentConfig, load_config
from tournament.executors import ray as ray_executor
from tournament.executors.ray_in_play import InPlayMessages
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunSummary, run_tournament
from tournament.store import Store

GAMES = 4  # two deals of two games
IN_PLAY = 2  # one game of each deal at once, on the two worker nodes
# Seconds a test waits for what it polls before it fails instead of hanging.
WAIT_SECONDS = 120.0
# Seconds a game played after the inbox actor died is waited for in the list.
LISTED_SECONDS = 30.0

# A bot whose first decision waits until the test lets it go (files in the
# folder GATE: a worker's own folder is Ray's copy of the config's, so the paths
# are absolute), so that its game is in play while the test looks: a bot of the
# first games (made before GATE/first exists) waits until GATE/first exists,
# leaving its process's pid (the Ray worker playing the game) in PIDS as it
# waits, a bot of the games after them until GATE/all does; GATE/all lets every
# bot go.
BOT = """
import os
import random
import time

GATE = {gate!r}
PIDS = {pids!r}


class GatedBot:
    def __init__(self, seed=0):
        self.rng = random.Random(seed)
        self.waited = False
        self.gate = "all" if os.path.exists(os.path.join(GATE, "first")) else "first"

    def decide(self, decision):
        if not self.waited and self.gate == "first":
            open(os.path.join(PIDS, str(os.getpid())), "w").close()
        deadline = time.monotonic() + 100
        while not self.waited and time.monotonic() < deadline and not any(
            os.path.exists(os.path.join(GATE, name)) for name in (self.gate, "all")
        ):
            time.sleep(0.05)
        self.waited = True
        return self.rng.randrange(len(decision.actions))
"""


def _cup(folder: Path, gate: Path, pids: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    gate.mkdir(parents=True, exist_ok=True)
    pids.mkdir(parents=True, exist_ok=True)
    (folder / "gated.py").write_text(BOT.format(gate=str(gate), pids=str(pids)))
    path = folder / "cup.toml"
    path.write_text(
        textwrap.dedent(
            """\
            name = "cup"
            game = "sheep-showdown"
            players = 2
            games_per_pairing = 2
            bootstrap = 0
            decision_seconds = 300
            python_path = ["."]
            [options]
            rounds = 1
            [[bots]]
            name = "a"
            class = "gated:GatedBot"
            [[bots]]
            name = "b"
            class = "gated:GatedBot"
            """
        )
    )
    return path


def _snapshot(db: Path) -> tuple[list[tuple[str, str, str]], set[str]]:
    """The rows of games_in_play (key, match id, node) and the keys stored, read
    in one transaction; nothing while the database is not made yet."""
    try:
        with sqlite3.connect(db) as connection:
            connection.execute("BEGIN")
            rows = connection.execute("SELECT key, match_id, node FROM games_in_play").fetchall()
            stored = {key for (key,) in connection.execute("SELECT key FROM games")}
            return [tuple(row) for row in rows], stored
    except sqlite3.Error:  # not made yet, or its tables not yet
        return [], set()


def _on(cluster: Any) -> ExecutorSettings:
    return ExecutorSettings(kind="ray", address=cluster.address, setup_timeout_seconds=60)


def _run_watched(
    cluster: Any, config: TournamentConfig, db: Path, gate: Path, watch: Callable[[], None]
) -> tuple[RunSummary, Recorder]:
    """Run the tournament on the cluster while `watch` looks on from a thread;
    every bot is let go at the end (GATE/all), whatever `watch` did."""
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    recorder = Recorder()
    try:
        summary = run_tournament(config, database=str(db), progress=recorder, executor=_on(cluster))
    finally:
        (gate / "all").touch()
        watcher.join(WAIT_SECONDS)
    return summary, recorder


def test_games_a_ray_cluster_plays_are_listed_in_play_until_stored(
    cluster: Any, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    config = load_config(_cup(tmp_path / "cup", gate, tmp_path / "pids"))
    db = tmp_path / "cup.sqlite"
    seen: dict[str, tuple[str, str]] = {}  # key -> (match id, node), as listed in play
    both: list[str] = []  # keys a snapshot showed stored and in play at once

    def watch() -> None:
        """Polls the database until two games (of two deals: a deal's games are
        played one after the other) are listed at once, then lets them go on."""
        stored: set[str] = set()
        try:
            deadline = time.monotonic() + WAIT_SECONDS
            while len(seen) < IN_PLAY and time.monotonic() < deadline:
                rows, stored = _snapshot(db)
                for key, match_id, node in rows:
                    seen.setdefault(key, (match_id, node))
                    if key in stored:
                        both.append(key)
                time.sleep(0.1)
        finally:
            (gate / "all").touch()
        while len(stored) < GAMES:
            rows, stored = _snapshot(db)
            both.extend(key for key, _match, _node in rows if key in stored)
            if time.monotonic() > deadline + WAIT_SECONDS:
                return
            time.sleep(0.05)

    summary, recorder = _run_watched(cluster, config, db, gate, watch)

    assert summary.played == GAMES and not recorder.errors
    with Store(str(db)) as store:
        tournament = store.tournament("cup")
        games = {game.key: game for game in store.games(tournament.id)}
        assert store.games_in_play(tournament.id) == ()
    # Games were listed while in play, with their match and the Ray node playing them.
    assert len(seen) >= IN_PLAY, seen
    for key, (match_id, node) in seen.items():
        assert (match_id, node) == (games[key].match_id, games[key].node)
        assert "(node " in node
    assert both == []


def test_a_game_ray_plays_again_after_its_worker_died_is_listed_with_its_new_match(
    cluster: Any, tmp_path: Path
) -> None:
    """A worker killed mid-game: Ray plays its game again, under a new match,
    and the game's row names that match, not the dead one's."""
    gate, pids = tmp_path / "gate", tmp_path / "pids"
    config = load_config(_cup(tmp_path / "cup", gate, pids))
    db = tmp_path / "cup.sqlite"
    first: dict[str, str] = {}  # key -> the match id first listed in play
    replaced: dict[str, str] = {}  # key -> the match id listed after its worker died
    killed: list[int] = []

    def watch() -> None:
        """Once two games are listed and their workers wait, kills one worker,
        and lets the games go on once a row names a new match."""
        try:
            deadline = time.monotonic() + WAIT_SECONDS
            while (len(first) < IN_PLAY or len(list(pids.iterdir())) < IN_PLAY) and (
                time.monotonic() < deadline
            ):
                for key, match_id, _node in _snapshot(db)[0]:
                    first.setdefault(key, match_id)
                time.sleep(0.1)
            if len(first) < IN_PLAY:
                return
            victim = int(sorted(pids.iterdir())[0].name)
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
            while not replaced and time.monotonic() < deadline:
                for key, match_id, _node in _snapshot(db)[0]:
                    if key in first and match_id != first[key]:
                        replaced[key] = match_id
                time.sleep(0.1)
        finally:
            (gate / "all").touch()

    summary, recorder = _run_watched(cluster, config, db, gate, watch)

    assert killed and len(first) == IN_PLAY, first
    assert summary.played == GAMES and not recorder.errors
    assert len(replaced) == 1, (first, replaced)
    [(key, match_id)] = replaced.items()
    with Store(str(db)) as store:
        tournament = store.tournament("cup")
        games = {game.key: game for game in store.games(tournament.id)}
        assert store.games_in_play(tournament.id) == ()
    assert games[key].match_id == match_id != first[key]


def test_games_are_still_listed_after_the_inbox_actor_died(
    cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The actor the workers tell of their matches dies (its process, or its
    node), once the first games are listed: Ray makes it again, and the games
    played after are listed too. Made without restarts, the listing stopped
    there for the rest of the run, quietly."""
    gate, pids = tmp_path / "gate", tmp_path / "pids"
    config = load_config(_cup(tmp_path / "cup", gate, pids))
    db = tmp_path / "cup.sqlite"
    made: list[InPlayMessages] = []

    class Kept(InPlayMessages):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(ray_executor, "InPlayMessages", Kept)
    first: set[str] = set()  # the keys listed before the actor died
    later: set[str] = set()  # the keys listed after

    def watch() -> None:
        import ray

        try:
            deadline = time.monotonic() + WAIT_SECONDS
            while (len(first) < IN_PLAY or len(list(pids.iterdir())) < IN_PLAY) and (
                time.monotonic() < deadline
            ):
                first.update(key for key, _match, _node in _snapshot(db)[0])
                time.sleep(0.1)
            if len(first) < IN_PLAY or not made:
                return
            ray.kill(made[0].inbox, no_restart=False)  # as its process dying would
            (gate / "first").touch()  # the first games go on, the next wait
            deadline = time.monotonic() + LISTED_SECONDS
            while not later and time.monotonic() < deadline:
                later.update(key for key, _m, _n in _snapshot(db)[0] if key not in first)
                time.sleep(0.1)
        finally:
            (gate / "all").touch()

    summary, recorder = _run_watched(cluster, config, db, gate, watch)

    assert len(first) == IN_PLAY and len(made) == 1, (first, made)
    assert summary.played == GAMES and not recorder.errors
    assert later, "no game was listed in play after the inbox actor died"
