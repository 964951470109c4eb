"""A tournament database the run cannot use stops `run` and `sprt` before
they start a server or a Ray instance: with a newer version's database, or
one in a folder it may not write, a run once started its in-process server
(logging its start and stop around the one line that mattered) and, with
--ray, a whole Ray instance, only to be stopped by the database."""

from __future__ import annotations

import contextlib
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from concurrent import futures
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health, health_pb2_grpc

from tests.conftest import ROOT
from tests.tournament.quick_cup import quick_cup
from tournament import runner, sprt_run
from tournament.config import SprtSettings, load_config
from tournament.database_check import check_database
from tournament.executors.settings import ExecutorSettings
from tournament.store import Store, StoreError
from tournament.store_lock import SILENT_WAIT


def _newer_database(tmp_path: Path) -> Path:
    db = tmp_path / "newer.sqlite"
    Store(db).close()
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("UPDATE schema_version SET version = 99")
    return db


@contextlib.asynccontextmanager
async def _no_server(*args: Any, **kwargs: Any) -> AsyncIterator[None]:
    raise AssertionError("an in-process server was started")
    yield  # pragma: no cover


def _no_ray(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("a Ray run was started")


@pytest.mark.parametrize("command", ["run", "run --ray", "sprt"])
def test_a_database_it_cannot_use_stops_the_run_before_any_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    config = quick_cup(tmp_path)
    db = str(_newer_database(tmp_path))
    monkeypatch.setattr(runner, "local_server", _no_server)  # an SPRT's too (play_claimed)
    import tournament.executors.ray as ray_executor

    monkeypatch.setattr(ray_executor, "run_on_ray", _no_ray)
    with pytest.raises(StoreError, match=r"has schema version 99, newer than this sheepfold"):
        if command == "sprt":
            sprt_run.run_sprt(config, database=db)
        elif command == "run --ray":
            runner.run_tournament(config, database=db, executor=ExecutorSettings(kind="ray"))
        else:
            runner.run_tournament(config, database=db)


@pytest.mark.parametrize("command", ["run", "run --ray", "sprt"])
def test_a_stored_tournament_played_otherwise_stops_the_run_before_any_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Another game, player count or options than the stored tournament's was
    found by the store once the run's in-process server had started (its start
    and stop logged around the one line that mattered), and with --ray once a
    whole Ray instance had."""
    db = str(tmp_path / "cup.sqlite")
    with Store(db) as store:
        runner.open_tournament(store, quick_cup(tmp_path), 4, [["a", "b"]])
    path = tmp_path / "cup.toml"
    path.write_text(path.read_text().replace("rounds = 1", "rounds = 2"))
    config = load_config(path)
    monkeypatch.setattr(runner, "local_server", _no_server)  # an SPRT's too (play_claimed)
    import tournament.executors.ray as ray_executor

    monkeypatch.setattr(ray_executor, "run_on_ray", _no_ray)
    with pytest.raises(StoreError) as raised:
        if command == "sprt":
            sprt = SprtSettings(candidate="a", baseline="b")
            sprt_run.run_sprt(replace(config, schedule="sprt", sprt=sprt), database=db)
        elif command == "run --ray":
            runner.run_tournament(config, database=db, executor=ExecutorSettings(kind="ray"))
        else:
            runner.run_tournament(config, database=db)
    # An SPRT is refused first for the round robin stored under its name.
    field = "schedule" if command == "sprt" else "options"
    assert str(raised.value).startswith(f"{field}: tournament 'cup' in {db} ")
    assert str(raised.value).endswith("; use another name or database")


def test_a_database_not_there_yet_is_checked_without_being_created(tmp_path: Path) -> None:
    """A run stopped after the check (by an unreachable server or Ray address)
    leaves no empty database behind; a path that can hold none is refused."""
    fresh = tmp_path / "sub" / "fresh.sqlite"
    check_database(str(fresh), SILENT_WAIT)
    assert not fresh.exists()
    (tmp_path / "file").write_text("")
    with pytest.raises(StoreError, match=r"is not a folder"):
        check_database(str(tmp_path / "file" / "t.sqlite"), SILENT_WAIT)


def _tournament(command: str, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`sheepfold tournament COMMAND CONFIG ARGS...`, run to its end (at most 40 s)."""
    return subprocess.run(
        [sys.executable, "-m", "cli", "tournament", command, str(config), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=40,
    )


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_server_that_is_not_there_is_one_line_and_leaves_no_database(
    tmp_path: Path, command: str
) -> None:
    """A run on a mistyped --server created its database and stored its
    tournament before finding nobody at the address (logging its start and
    stop around the one line that mattered), so the corrected config of a
    tournament that never played a game could be refused as a changed resume."""
    config = tmp_path / "cup.toml"
    quick_cup(tmp_path)
    done = _tournament(command, config, "--server", "127.0.0.1:1")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "sheepfold tournament: cannot reach the server at 127.0.0.1:1: connection refused"
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cup.toml"]


@contextlib.contextmanager
def _handshake_then_silence() -> Iterator[str]:
    """An address whose listener sends HTTP/2's SETTINGS frame to each connection
    and then nothing: a server whose transport is up but whose calls are never
    answered (its event loop stuck, say)."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = listener.accept()
                held.append(connection)
                connection.sendall(b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")  # empty SETTINGS

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
        for connection in held:
            connection.close()


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_server_that_connects_but_never_answers_is_one_line_and_leaves_no_database(
    tmp_path: Path, command: str
) -> None:
    """The check asked only that the connection come up: a server that finished
    the handshake and answered nothing passed it, so the run created its
    database, stored its tournament and logged its start and stop, and ended
    after a minute of unanswered games."""
    config = tmp_path / "cup.toml"
    quick_cup(tmp_path)
    with _handshake_then_silence() as address:
        started = time.monotonic()
        done = _tournament(command, config, "--server", address)
        took = time.monotonic() - started
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"sheepfold tournament: cannot reach the server at {address}: no answer within 3 s"
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cup.toml"]
    assert took < 20, took


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_server_that_is_not_there_stores_nothing_in_a_database_of_other_tournaments(
    tmp_path: Path, command: str
) -> None:
    """The check was skipped for any database already there, so a mistyped
    address stored a new tournament in a database shared with others (its start
    and stop logged around the one line), and its config put right was then
    refused as a changed resume of a tournament that had played nothing."""
    db = tmp_path / "shared.sqlite"
    with Store(db) as store:
        runner.open_tournament(store, quick_cup(tmp_path), 4, [["a", "b"]])
    config = tmp_path / "league.toml"
    config.write_text((tmp_path / "cup.toml").read_text().replace('"cup"', '"league"'))
    done = _tournament(command, config, "--server", "127.0.0.1:1", "--db", str(db))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "sheepfold tournament: cannot reach the server at 127.0.0.1:1: connection refused"
    ]
    with Store(db) as store:
        assert store.find("league") is None
        assert store.find("cup") is not None


@contextlib.contextmanager
def _health_only_server() -> Iterator[str]:
    """A gRPC server with the health service alone, as `serve --health-port` runs."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(grace=None)


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_port_without_the_game_service_is_one_line_and_leaves_no_database(
    tmp_path: Path, command: str
) -> None:
    """A health port (or another program's gRPC server) answered the check's
    call with UNIMPLEMENTED, which passed as an answer: the run created its
    database and stored its tournament before its first game was refused."""
    config = tmp_path / "cup.toml"
    quick_cup(tmp_path)
    with _health_only_server() as address:
        done = _tournament(command, config, "--server", address)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(
        f"sheepfold tournament: cannot reach the server at {address}: it is not a Sheepfold server"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cup.toml"]
