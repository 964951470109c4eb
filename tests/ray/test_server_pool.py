"""`--ray --server A,B` keeps going when a server dies or is no Sheepfold
server, and waits for room on a full one (a real Ray cluster on this machine,
see conftest.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import start_server_process, stop_server_process
from tests.ray.test_cluster_runs import _bot, _config, _on, _stored
from tests.tournament.quick_cup import Recorder
from tournament import room
from tournament.config import load_config
from tournament.runner import open_tournament, run_tournament, schedule_for
from tournament.store import Store

BOTS = (
    '[[bots]]\nname = "slow"\nclass = "slow_bots:SlowBot"\n'
    '[[bots]]\nname = "random"\nbuiltin = "random"\n'
)


def _cup(tmp_path: Path, seeds: int) -> Any:
    _bot(tmp_path / "cup", "slow_bots", "SlowBot", pause=0.02)
    return load_config(_config(tmp_path / "cup", BOTS, ["."], seeds=seeds))


def test_a_server_killed_mid_run_is_dropped_and_its_games_played_elsewhere(
    cluster: Any, tmp_path: Path
) -> None:
    config = _cup(tmp_path, seeds=3)
    kept, killed = start_server_process(), start_server_process()
    progress = Recorder(victim=killed.pid)
    db = tmp_path / "cup.sqlite"
    try:
        summary = run_tournament(
            config, server=f"{kept.address},{killed.address}", database=str(db),
            progress=progress, executor=_on(cluster),
        )  # fmt: skip
    finally:
        stop_server_process(kept)
        stop_server_process(killed)
    scheduled = sorted(game.key for game in schedule_for(config))
    assert progress.errors == []
    assert sorted(progress.keys) == scheduled  # each game counted once
    assert sorted(game.key for game in _stored(db)) == scheduled
    assert [server for server, _why in summary.dropped_servers] == [killed.address]
    assert any(f"dropped the server at {killed.address}" in note for note in progress.notes)


def test_games_wait_for_room_on_a_full_server(
    cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(room, "FIRST_WAIT", 0.05)
    config = _cup(tmp_path, seeds=2)
    server = start_server_process("--max-live-matches", "1")
    progress = Recorder()
    db = tmp_path / "cup.sqlite"
    try:
        summary = run_tournament(
            config, server=server.address, database=str(db), progress=progress,
            executor=_on(cluster),
        )  # fmt: skip
    finally:
        stop_server_process(server)
    scheduled = sorted(game.key for game in schedule_for(config))
    assert progress.errors == [] and summary.errors == 0
    assert sorted(progress.keys) == scheduled
    assert sorted(game.key for game in _stored(db)) == scheduled
    assert any("waiting for room" in note for note in progress.notes)


@contextmanager
def _web_server() -> Iterator[str]:
    """An HTTP/1 server on loopback (another program's port), as HOST:PORT."""
    web = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    thread = threading.Thread(target=web.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{web.server_address[1]}"
    finally:
        web.shutdown()
        web.server_close()


def test_an_address_that_is_no_sheepfold_server_is_dropped_like_a_dead_one(
    cluster: Any, tmp_path: Path
) -> None:
    """A web server's port among the --server addresses stopped the whole run
    ("it does not speak gRPC"), where one where nothing listens is dropped and
    the run goes on on the others. (On a resume: a new tournament's servers
    are asked before it is stored, and such a one is refused then.)"""
    config = _cup(tmp_path, seeds=2)
    server = start_server_process()
    progress = Recorder()
    db = tmp_path / "cup.sqlite"
    with Store(str(db)) as store:
        open_tournament(store, config, len(schedule_for(config)), [list(config.bot_names)])
    try:
        with _web_server() as web:
            summary = run_tournament(
                config, server=f"{server.address},{web}", database=str(db),
                progress=progress, executor=_on(cluster),
            )  # fmt: skip
    finally:
        stop_server_process(server)
    scheduled = sorted(game.key for game in schedule_for(config))
    assert progress.errors == [] and summary.errors == 0
    assert sorted(game.key for game in _stored(db)) == scheduled
    [(dropped, why)] = summary.dropped_servers
    assert dropped == web and "it does not speak gRPC" in why
