"""Tournaments on a real three-node Ray cluster on this machine (see conftest.py).

Every test here runs inside a private network namespace with only loopback up
(`unshare --net`, then `ip link set lo up`; conftest.py fails the tests
anywhere else), so Ray's traffic never leaves loopback.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sqlite3
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.tournament.quick_cup import Recorder
from tournament.config import load_config
from tournament.deals import secret_seed
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError, open_tournament, run_tournament, schedule_for
from tournament.store import GameRecord, Store

REPO = Path(__file__).resolve().parents[2]

# A seeded random bot that refuses to run from the driver's disk inside a Ray
# worker: a worker's current folder is Ray's unpacked copy of the config's folder,
# so a bot module found anywhere else did not come through the runtime environment.
BOT_MODULE = """
import os
import random
import time

if "_ray_pkg_" in os.getcwd() and "_ray_pkg_" not in __file__:
    raise ImportError(f"{{__file__}} was read from the driver's disk, not shipped by Ray")


class {name}:
    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def decide(self, decision):
        time.sleep({pause})
        return self.rng.randrange(len(decision.actions))
"""


def _bot(folder: Path, module: str, name: str, pause: float = 0.0) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{module}.py").write_text(BOT_MODULE.format(name=name, pause=pause))


def _config(folder: Path, bots: str, python_path: list[str], seeds: int = 1) -> Path:
    """A one-round Sheep Showdown config in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cup.toml"
    path.write_text(
        textwrap.dedent(
            f"""\
            game = "sheep-showdown"
            players = 2
            games_per_pairing = {seeds}
            bootstrap = 0
            python_path = {python_path!r}
            [options]
            rounds = 1
            """
        ).replace("'", '"')
        + textwrap.dedent(bots)
    )
    return path


def _on(cluster: Any) -> ExecutorSettings:
    return ExecutorSettings(kind="ray", address=cluster.address, setup_timeout_seconds=60)


def _results(games: tuple[GameRecord, ...]) -> dict[str, tuple[Any, ...]]:
    """What a game's outcome is, leaving out when, where and under which match id."""
    return {game.key: (game.seats, game.end_reason, game.details_json) for game in games}


def _stored(db: Path) -> tuple[GameRecord, ...]:
    with Store(str(db)) as store:
        return store.games(store.tournament(None).id)


def test_same_results_as_the_local_runner_with_class_and_command_bots(
    cluster: Any, tmp_path: Path
) -> None:
    """Seeded class bots (one from the config's folder, one from a python_path
    folder outside it) and a command bot (sandboxed, as command bots are by
    default, reaching its task's own server through a Unix socket) play on the
    worker nodes, from the files Ray shipped, and store exactly what the local
    runner stores, each game with its full record (the Replay the worker's server
    gave)."""
    _bot(tmp_path / "cup" / "mine", "near_bots", "NearBot")
    _bot(tmp_path / "elsewhere", "far_bots", "FarBot")
    (tmp_path / "cup" / "cmd").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "command-bot" / "command_bot.py", tmp_path / "cup" / "cmd")
    path = _config(
        tmp_path / "cup",
        """
        [[bots]]
        name = "near"
        class = "near_bots:NearBot"
        [[bots]]
        name = "far"
        class = "far_bots:FarBot"
        [[bots]]
        name = "cmd"
        command = ["{python}", "command_bot.py"]
        cwd = "cmd"
        """,
        ["mine", str(tmp_path / "elsewhere")],
    )
    config = load_config(path)
    local = run_tournament(config, database=str(tmp_path / "local.sqlite"))
    # The same tournament, with its deal secret, its games forgotten: Ray deals them again.
    shutil.copy(tmp_path / "local.sqlite", tmp_path / "ray.sqlite")
    with Store(str(tmp_path / "ray.sqlite")) as store:
        tid = store.tournament(None).id
        secret = store.deal_secret(tid)
        assert secret is not None
        store.forget(tid, store.done_keys(tid))
    recorder = Recorder()
    remote = run_tournament(
        config, database=str(tmp_path / "ray.sqlite"), progress=recorder, executor=_on(cluster)
    )
    assert local.played == remote.played == len(schedule_for(config)) == 6
    scheduled = sorted(game.key for game in schedule_for(config))
    assert not recorder.errors and sorted(recorder.keys) == scheduled
    here, there = _stored(tmp_path / "local.sqlite"), _stored(tmp_path / "ray.sqlite")
    assert _results(there) == _results(here)
    assert all(seat.failure is None for game in there for seat in game.seats)
    assert {game.node for game in here} == {""}
    nodes = {game.node for game in there}
    assert len(nodes) == 2 and all("(node " in node for node in nodes), nodes
    with Store(str(tmp_path / "ray.sqlite")) as store:
        replays = [store.replay(game.match_id) for game in there]
    assert all(replay is not None and replay.actions for replay in replays)
    assert [replay.seed for replay in replays] == [secret_seed(secret, g.seed) for g in there]


# A bot reading its data at its first move (the check before the first game only
# imports it), from a folder beside it that a .gitignore lists, as weights often are.
DATA_BOT_MODULE = """
from pathlib import Path


class {name}:
    def __init__(self, seed=0):
        self.data = None

    def decide(self, decision):
        self.data = self.data or (Path(__file__).parent / "weights" / "w.txt").read_text()
        return 0
"""


def test_files_a_gitignore_lists_still_reach_the_workers(cluster: Any, tmp_path: Path) -> None:
    """Ray leaves out what .gitignore files list unless told otherwise: such a bot
    played locally but crashed in every game on Ray (FileNotFoundError on Ray's
    copy of its folder), in the config's folder and in a python_path folder alike."""
    for folder, module, name in (
        (tmp_path / "cup", "near_data", "NearData"),
        (tmp_path / "elsewhere", "far_data", "FarData"),
    ):
        (folder / "weights").mkdir(parents=True)
        (folder / "weights" / "w.txt").write_text("0.5\n")
        (folder / ".gitignore").write_text("weights/\n*.txt\n")
        (folder / f"{module}.py").write_text(DATA_BOT_MODULE.format(name=name))
    path = _config(
        tmp_path / "cup",
        """
        [[bots]]
        name = "near"
        class = "near_data:NearData"
        [[bots]]
        name = "far"
        class = "far_data:FarData"
        """,
        [".", str(tmp_path / "elsewhere")],
    )
    recorder = Recorder()
    summary = run_tournament(
        load_config(path),
        database=str(tmp_path / "data.sqlite"),
        progress=recorder,
        executor=_on(cluster),
    )
    assert summary.played == 2 and not recorder.errors
    games = _stored(tmp_path / "data.sqlite")
    assert [seat.failure for game in games for seat in game.seats] == [None] * 4
    assert all("(node " in game.node for game in games)


def test_a_worker_node_killed_mid_run_still_counts_every_game_once(
    cluster: Any, tmp_path: Path
) -> None:
    """One of the two worker nodes dies while games run on it: Ray plays its games
    again on the other node, and every game is stored and counted exactly once."""
    for index in range(4):
        _bot(tmp_path / "cup", f"slow{index}", "SlowBot", pause=0.03)
    bots = "".join(
        f'[[bots]]\nname = "slow{index}"\nclass = "slow{index}:SlowBot"\n' for index in range(4)
    )
    config = load_config(_config(tmp_path / "cup", bots, ["."]))
    db = tmp_path / "killed.sqlite"
    victim = next(iter(cluster.worker_nodes))
    killed = threading.Event()

    def kill_after_two_games() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if db.exists():
                with sqlite3.connect(db) as connection:
                    try:
                        count = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                    except sqlite3.OperationalError:
                        count = 0
                if count >= 2:
                    cluster.remove_node(victim, allow_graceful=False)
                    killed.set()
                    return
            time.sleep(0.1)

    killer = threading.Thread(target=kill_after_two_games, daemon=True)
    killer.start()
    recorder = Recorder()
    try:
        summary = run_tournament(config, database=str(db), progress=recorder, executor=_on(cluster))
    finally:
        killer.join(130)
        cluster.add_node(num_cpus=1)  # the next tests get two worker nodes again
        cluster.wait_for_nodes()
    assert killed.is_set(), "the tournament ended before a node could be killed"
    scheduled = sorted(game.key for game in schedule_for(config))
    assert not recorder.errors and sorted(recorder.keys) == scheduled
    assert summary.played == len(scheduled) == 12
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT key, COUNT(*) FROM games GROUP BY key").fetchall()
    assert sorted(key for key, _ in rows) == scheduled and {n for _, n in rows} == {1}


def test_games_are_spread_over_the_given_servers(cluster: Any, tmp_path: Path) -> None:
    """With two --server addresses the workers' bots play on those servers (in this
    test process, on loopback), each server hosting some of the games."""
    _bot(tmp_path / "cup", "near_bots", "NearBot")
    config = load_config(
        _config(
            tmp_path / "cup",
            '[[bots]]\nname = "near"\nclass = "near_bots:NearBot"\n'
            '[[bots]]\nname = "random"\nbuiltin = "random"\n',
            ["."],
            seeds=2,
        )
    )
    with InProcessServer() as first, InProcessServer() as second:
        summary = run_tournament(
            config,
            server=f"{first.address},{second.address}",
            database=str(tmp_path / "servers.sqlite"),
            executor=_on(cluster),
        )
        games = _stored(tmp_path / "servers.sqlite")
        hosted = {first.address: 0, second.address: 0}
        for game in games:
            for address in hosted:
                with grpc.insecure_channel(address) as channel:
                    stub = arena_pb2_grpc.ArenaStub(channel)
                    try:
                        stub.GetMatch(arena_pb2.GetMatchRequest(match_id=game.match_id), timeout=10)
                    except grpc.RpcError as error:
                        assert error.code() == grpc.StatusCode.NOT_FOUND
                        continue
                    hosted[address] += 1
    assert summary.played == 4 and len(games) == 4
    assert sorted(hosted.values()) == [2, 2], hosted


def test_a_server_anyone_can_read_is_named_once_with_command_bots(
    cluster: Any, tmp_path: Path
) -> None:
    """On a server without private replays the command bots could read the
    deals of finished games: the driver says so, once, before the games."""
    example = REPO / "examples" / "command-bot" / "command_bot.py"
    config = load_config(
        _config(
            tmp_path / "cup",
            f'[[bots]]\nname = "cmd"\ncommand = ["{{python}}", "{example}"]\nsandbox = false\n'
            '[[bots]]\nname = "random"\nbuiltin = "random"\n',
            ["."],
        )
    )
    with InProcessServer() as server, structlog.testing.capture_logs() as logs:
        summary = run_tournament(
            config,
            server=server.address,
            database=str(tmp_path / "open.sqlite"),
            executor=_on(cluster),
        )
    assert summary.played == 2
    warned = [e for e in logs if str(e["event"]).startswith("this server lets anyone list")]
    assert [e["server"] for e in warned] == [server.address]


def _random_pair(tmp_path: Path, seeds: int) -> Any:
    return load_config(
        _config(
            tmp_path / "cup",
            '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n',
            [],
            seeds=seeds,
        )
    )


def _closed_address() -> str:
    with InProcessServer() as gone:
        return gone.address  # a port nobody listens on once this server is closed


def test_a_server_the_workers_cannot_reach_ends_the_run_at_once(
    cluster: Any, tmp_path: Path
) -> None:
    """Each game once waited out its 30-second CreateMatch deadline and was
    counted as not played, the next game the same; now the first node that
    cannot connect ends the run with the reason (old runs ended with a summary
    of errors, never with this RunError). The tournament is stored already:
    a resume's server is not asked before the run (see the test below)."""
    config = _random_pair(tmp_path, seeds=4)
    address = _closed_address()
    db = tmp_path / "unreachable.sqlite"
    with Store(str(db)) as store:
        open_tournament(store, config, len(schedule_for(config)), [list(config.bot_names)])
    with pytest.raises(RunError) as raised:
        run_tournament(config, server=address, database=str(db), executor=_on(cluster))
    assert str(raised.value).startswith(f"cannot reach the server at {address}: "), raised.value
    assert "(from " in str(raised.value) and "not back after" in str(raised.value)
    assert not _stored(db)


def test_a_server_no_node_reaches_stops_a_new_tournament_before_it_is_stored(
    cluster: Any, tmp_path: Path
) -> None:
    """A Ray run asked nothing of its --server before it stored its tournament:
    a mistyped address left the database with the tournament and no game (a
    config put right was then refused as a changed resume), and one mistyped
    among others was found only by a game. The nodes that play the games ask
    each server first, as a run without Ray asks from here: one line, nothing
    stored."""
    config = _random_pair(tmp_path, seeds=1)
    address = _closed_address()
    db = tmp_path / "new.sqlite"
    with InProcessServer() as live, pytest.raises(RunError) as raised:
        run_tournament(
            config, server=f"{live.address},{address}", database=str(db), executor=_on(cluster)
        )
    said = str(raised.value)
    assert said.startswith(f"cannot reach the server at {address}: "), said
    assert "(from " in said and "\n" not in said and live.address not in said
    assert not db.exists()


def test_a_bot_missing_on_the_workers_stops_before_the_first_game(
    cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class bot importable on the driver only (its folder is on the driver's
    sys.path, not in the config's python_path) is named before any game is played."""
    _bot(tmp_path / "driver-only", "driver_bots", "DriverBot")
    monkeypatch.syspath_prepend(str(tmp_path / "driver-only"))
    config = load_config(
        _config(
            tmp_path / "cup",
            '[[bots]]\nname = "driver"\nclass = "driver_bots:DriverBot"\n'
            '[[bots]]\nname = "random"\nbuiltin = "random"\n',
            [],
        )
    )
    db = tmp_path / "missing.sqlite"
    started = time.monotonic()
    with pytest.raises(RunError) as raised:
        run_tournament(config, database=str(db), executor=_on(cluster))
    message = str(raised.value)
    assert "bot 'driver'" in message and "driver_bots" in message, message
    assert "python_path" in message, message
    assert time.monotonic() - started < 60
    assert not db.exists() or not _stored(db)


def test_a_bot_still_loading_on_the_workers_is_not_told_to_move_its_files(
    cluster: Any, tmp_path: Path
) -> None:
    """A class bot whose constructor does not return on the workers stops the run
    at the check's timeout; the message said "files a bot needs must be in the
    config's folder or its python_path", which is not what is wrong. (The check
    makes a class that sets `decide` in __init__, as a local run's does; one
    with a `decide` method it only imports.)"""
    (tmp_path / "cup").mkdir()
    (tmp_path / "cup" / "stuck_bots.py").write_text(
        "import os, time\n\n\nclass StuckBot:\n"
        "    def __init__(self, seed=0):\n"
        "        if '_ray_pkg_' in os.getcwd():\n"
        "            time.sleep(3600)\n"
        "        self.decide = lambda decision: 0\n"
    )
    config = load_config(
        _config(
            tmp_path / "cup",
            '[[bots]]\nname = "stuck"\nclass = "stuck_bots:StuckBot"\n'
            '[[bots]]\nname = "random"\nbuiltin = "random"\n',
            ["."],
        )
    )
    settings = dataclasses.replace(_on(cluster), setup_timeout_seconds=5)
    with pytest.raises(RunError) as raised:
        run_tournament(config, database=str(tmp_path / "stuck.sqlite"), executor=settings)
    message = str(raised.value)
    assert "no answer to the check within 5 s" in message and "a bot still loading" in message
    assert "python_path" not in message, message


def test_a_class_bot_whose_constructor_raises_crashes_as_in_a_local_run(
    cluster: Any, tmp_path: Path
) -> None:
    """A class with a `decide` method whose constructor raises is a crash in
    each of its games without --ray, and the run plays on; on Ray the nodes'
    check made it and stopped the whole run before its first game."""
    (tmp_path / "cup").mkdir()
    (tmp_path / "cup" / "broken_bots.py").write_text(
        "class Broken:\n"
        "    def __init__(self, seed=0):\n"
        "        raise RuntimeError('no weights file')\n\n"
        "    def decide(self, decision):\n        return 0\n"
    )
    config = load_config(
        _config(
            tmp_path / "cup",
            '[[bots]]\nname = "broken"\nclass = "broken_bots:Broken"\n'
            '[[bots]]\nname = "random"\nbuiltin = "random"\n',
            ["."],
        )
    )
    local = run_tournament(config, database=str(tmp_path / "local.sqlite"))
    remote = run_tournament(config, database=str(tmp_path / "ray.sqlite"), executor=_on(cluster))
    assert local.played == remote.played == len(schedule_for(config)) == 2

    def crashed(db: Path) -> list[str]:
        return sorted(
            seat.bot + ":" + str(seat.failure) for game in _stored(db) for seat in game.seats
        )

    assert (
        crashed(tmp_path / "ray.sqlite")
        == crashed(tmp_path / "local.sqlite")
        == [
            "broken:crash",
            "broken:crash",
            "random:None",
            "random:None",
        ]
    )


def test_a_node_without_sheepfold_stops_before_the_first_game(cluster: Any, tmp_path: Path) -> None:
    """A node whose Python cannot import sheepfold (simulated: a `tournament`
    package that fails to import shadows it on that node) is named, with what to
    install, before any game is played."""
    shadow = tmp_path / "shadow" / "tournament"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'tournament'\")\n"
    )
    bare = cluster.add_node(num_cpus=1, env_vars={"PYTHONPATH": str(shadow.parent)})
    try:
        cluster.wait_for_nodes()
        config = load_config(
            _config(
                tmp_path / "cup",
                '[[bots]]\nname = "a"\nbuiltin = "random"\n'
                '[[bots]]\nname = "b"\nbuiltin = "random"\n',
                [],
            )
        )
        db = tmp_path / "bare.sqlite"
        with pytest.raises(RunError) as raised:
            run_tournament(config, database=str(db), executor=_on(cluster))
    finally:
        cluster.remove_node(bare)
    message = str(raised.value)
    assert bare.node_id[:8] in message, message
    assert "No module named 'tournament'" in message and "pip install" in message, message
    assert not db.exists() or not _stored(db)


def test_a_program_missing_on_the_workers_says_to_install_it_there(
    cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command bot's program on the driver's PATH only (as `node` or `java` on a
    head where it is installed, not on the workers) is named before any game,
    with what to do: install it on every node. The check once sent the operator
    to put files in the config's folder instead, or, as this bot's name says
    "sheepfold", to install sheepfold on every node."""
    driver_only = tmp_path / "driver-bin"
    driver_only.mkdir()
    program = driver_only / "driver-only-bot"
    program.write_text("#!/bin/sh\nexit 1\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{driver_only}:{os.environ['PATH']}")
    config = load_config(
        _config(
            tmp_path / "cup",
            '[[bots]]\nname = "sheepfold-fan"\ncommand = ["driver-only-bot"]\nsandbox = false\n'
            '[[bots]]\nname = "random"\nbuiltin = "random"\n',
            [],
        )
    )
    db = tmp_path / "program.sqlite"
    with pytest.raises(RunError) as raised:
        run_tournament(config, database=str(db), executor=_on(cluster))
    message = str(raised.value)
    assert "bot 'sheepfold-fan': program 'driver-only-bot' not found" in message, message
    assert "must be installed on every node" in message, message
    assert "config's folder" not in message and "pip install" not in message, message
    assert not db.exists() or not _stored(db)
