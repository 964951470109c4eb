"""`sheepfold serve --web-port` and `sheepfold web`, run as a user runs them."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import grpc
import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.sqlite_store import SqliteStore
from tests.conftest import ROOT, start_server_process, stop_server_process
from tests.tls_files import self_signed
from tournament.store import Store

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _web_command(
    server: str, port: int, *flags: str, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """`sheepfold web` in front of `server`, as a user starts it (`env`: its
    environment's variables besides this process's)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cli", "web", "--server", server, "--port", str(port), *flags],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_serve_with_web_port_runs_both_in_one_process() -> None:
    port = free_port()
    server = start_server_process("--web-port", str(port))
    try:
        page = wait_http(f"http://127.0.0.1:{port}/")
        assert "Matches" in page and "Sheep Showdown" in page
        assert json.loads(wait_http(f"http://127.0.0.1:{port}/api/matches")) == []
    finally:
        assert stop_server_process(server) == 0


def test_ctrl_c_after_a_replay_ends_the_web_command_without_a_traceback() -> None:
    """Ctrl-C reaches the whole process group, the replay process included: it
    leaves the interrupt to the viewer instead of printing its own traceback."""
    server = start_server_process()
    port = free_port()
    web = subprocess.Popen(
        [sys.executable, "-m", "cli", "web", "--server", server.address, "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        try:
            wait_http(f"http://127.0.0.1:{port}/")
            bots = [RandomBot(1), RandomBot(2)]
            outcome = asyncio.run(play_match(server.address, "sheep-n-sheep", bots, seed=3))
            frames = wait_http(f"http://127.0.0.1:{port}/api/match/{outcome.match_id}/frames")
        except Exception:
            web.kill()
            print("sheepfold web said:", web.communicate(timeout=30)[1])
            raise
        assert json.loads(frames)["frames"]
        os.killpg(web.pid, signal.SIGINT)
        _, err = web.communicate(timeout=30)
        assert web.returncode == 0, err
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    finally:
        if web.poll() is None:
            web.kill()
        stop_server_process(server)


def test_web_command_in_front_of_a_server(tmp_path: Path) -> None:
    server = start_server_process()
    port = free_port()
    web = _web_command(server.address, port)
    try:
        assert "Matches" in wait_http(f"http://127.0.0.1:{port}/")
    finally:
        web.terminate()
        assert web.wait(15) == 0
        stop_server_process(server)


@pytest.mark.parametrize(
    "signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT], ids=["SIGHUP", "SIGTERM", "SIGQUIT"]
)
def test_the_web_command_stops_cleanly_on_sighup_as_on_sigterm(signum: signal.Signals) -> None:
    """A closed terminal (SIGHUP) stops `sheepfold web` as SIGTERM does, as it
    stops `serve`: exit 0, no traceback. It once died by the signal (129)."""
    port = free_port()
    web = _web_command("127.0.0.1:1", port)  # the viewer needs no server to start
    try:
        wait_http(f"http://127.0.0.1:{port}/static/style.css")
        web.send_signal(signum)
        _, err = web.communicate(timeout=30)
    finally:
        if web.poll() is None:
            web.kill()
    assert web.returncode == 0, err
    assert "Traceback" not in err, err


def test_a_server_with_private_replays_shows_them_in_its_viewer_and_to_web_with_the_token(
    tmp_path: Path,
) -> None:
    """The viewer is the operator's window: `serve --web-port` lends it the admin
    token, `sheepfold web` takes one; without it the page says what to do."""
    port = free_port()
    env = {"SHEEPFOLD_ADMIN_TOKEN": "view-token"}
    server = start_server_process("--private-replays", "--web-port", str(port), env=env)
    other = free_port()
    web = _web_command(server.address, other)
    try:
        outcome = asyncio.run(
            play_match(
                server.address,
                "sheep-n-sheep",
                [RandomBot(1), RandomBot(2)],
                admin_token="view-token",
            )
        )
        listed = json.loads(wait_http(f"http://127.0.0.1:{port}/api/matches"))
        assert [row["match_id"] for row in listed] == [outcome.match_id]
        frames = wait_http(f"http://127.0.0.1:{port}/api/match/{outcome.match_id}/frames")
        assert json.loads(frames)["frames"]
        wait_http(f"http://127.0.0.1:{other}/")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{other}/api/matches", timeout=10)
        assert refused.value.code == 403
        assert "--admin-token" in refused.value.read().decode()
    finally:
        web.terminate()
        assert web.wait(15) == 0
        assert stop_server_process(server) == 0


@pytest.mark.parametrize(
    ("server_flags", "web_flags", "web_env", "refused"),
    [
        # A viewer started with a wrong --admin-token came up and answered 403
        # on every page; the server's refusal now stops it at start, in one line.
        (
            ("--private-replays",),
            ("--admin-token", "WRONG"),
            {},
            "the --admin-token (wrong admin token): give it that server's admin token",
        ),
        # A server with an admin token refuses a wrong one on every call, its
        # replays open or not: one left in $SHEEPFOLD_ADMIN_TOKEN for another
        # server stops the viewer, and the line once named --admin-token, a
        # flag the user had not given.
        (
            (),
            (),
            {"SHEEPFOLD_ADMIN_TOKEN": "WRONG"},
            "the admin token in $SHEEPFOLD_ADMIN_TOKEN (wrong admin token): give it that "
            "server's admin token (--admin-token wins over the variable), or unset the variable",
        ),
    ],
    ids=["flag", "environment"],
)
def test_the_web_command_refuses_to_start_with_a_wrong_admin_token(
    server_flags: tuple[str, ...],
    web_flags: tuple[str, ...],
    web_env: dict[str, str],
    refused: str,
) -> None:
    server = start_server_process(*server_flags, env={"SHEEPFOLD_ADMIN_TOKEN": "right"})
    web = _web_command(server.address, free_port(), *web_flags, env=web_env)
    try:
        _, err = web.communicate(timeout=60)
    finally:
        if web.poll() is None:
            web.kill()
        assert stop_server_process(server) == 0
    assert web.returncode == 1, err
    assert err.strip() == f"sheepfold web: the game server {server.address} refuses {refused}"


def test_the_web_command_starts_with_a_token_when_the_server_is_away() -> None:
    """A server that does not answer at start may come up later: its token is not
    checked then, and the viewer starts as it did."""
    port = free_port()
    web = _web_command("127.0.0.1:1", port, "--admin-token", "unchecked")
    try:
        wait_http(f"http://127.0.0.1:{port}/static/style.css")
    finally:
        web.terminate()
        _, err = web.communicate(timeout=30)
    assert web.returncode == 0, err


def test_web_command_names_a_missing_tournament_db(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "web", "--tournament-db", str(tmp_path / "none.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "no tournament database at" in done.stderr and "Traceback" not in done.stderr


def _not_tournament_dbs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Files a user may give --tournament-db by mistake, each with the end of
    the line that refuses it."""
    server_db = tmp_path / "sheepfold.db"
    SqliteStore(str(server_db)).close()
    garbage = tmp_path / "notes.db"
    garbage.write_bytes(b"not SQLite at all " * 100)
    folder = tmp_path / "results"
    folder.mkdir()
    # `touch results.db`, or a file of /proc, whose size is 0: it was called
    # "a SQLite file but not a tournament database".
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    return {
        "server": (
            server_db,
            "is a game server's database (sheepfold serve --db), not a tournament's",
        ),
        "garbage": (garbage, "is not a SQLite database (file is not a database)"),
        "folder": (folder, "is a folder, not a tournament database"),
        "empty": (empty, "is an empty file, not a tournament database"),
    }


@pytest.mark.parametrize("kind", ["server", "garbage", "folder", "empty"])
@pytest.mark.parametrize("command", ["web", "serve"])
def test_a_file_that_is_not_a_tournament_db_is_refused_at_start(
    tmp_path: Path, command: str, kind: str
) -> None:
    """A server's database, a file that is not SQLite or a folder given as
    --tournament-db: the viewer started as if all was well (the folder was
    "no tournament database at"), and only its tournaments page said what
    was wrong. Now the command stops at once, naming the file (exit 1)."""
    path, says = _not_tournament_dbs(tmp_path)[kind]
    flags = _viewer_command(command)
    done = subprocess.run(
        [sys.executable, "-m", "cli", *flags, "--tournament-db", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    assert lines[0] == f"sheepfold {command}: --tournament-db {path} {says}"
    assert done.returncode == 1


def _viewer_command(command: str) -> list[str]:
    """`web`, or `serve` with its viewer, on a free port (`web` with no server
    behind it: the tests of --tournament-db stop before it asks)."""
    port = str(free_port())
    if command == "web":
        return ["web", "--port", port, "--server", "127.0.0.1:1"]
    return ["serve", "--port", "0", "--db", ":memory:", "--web-port", port]


@pytest.mark.parametrize("command", ["web", "serve"])
def test_one_tournament_db_given_twice_is_refused_at_start(tmp_path: Path, command: str) -> None:
    """The same file given twice as --tournament-db (once by another path):
    the viewer started, and its tournaments page listed each tournament of it
    twice, under two addresses. Now the command stops at once naming both."""
    database = tmp_path / "tournament.db"
    with Store(database):
        pass
    (tmp_path / "again").mkdir()
    other = tmp_path / "again" / ".." / "tournament.db"
    twice = ["--tournament-db", str(database), "--tournament-db", str(other)]
    flags = _viewer_command(command)
    done = subprocess.run(
        [sys.executable, "-m", "cli", *flags, *twice],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=20,  # it used to serve on: the test fails on the timeout
    )
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    assert lines[0] == (
        f"sheepfold {command}: --tournament-db {other} is {database} again: give each file once"
    )
    assert done.returncode == 1


def test_serve_with_tls_and_web_port_shows_matches_played_over_tls(tmp_path: Path) -> None:
    """--web-port was refused with TLS ("does not work with TLS yet"): the viewer
    is a plaintext client. It now reaches its server through a Unix socket of its
    own, in a private folder that is gone once the server stops."""
    cert, key = self_signed(tmp_path)
    port = free_port()
    server = start_server_process(
        "--tls-cert", str(cert), "--tls-key", str(key), "--web-port", str(port)
    )
    try:
        assert json.loads(wait_http(f"http://127.0.0.1:{port}/api/matches")) == []
        credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        outcome = asyncio.run(
            play_match(
                server.address,
                "sheep-n-sheep",
                [RandomBot(1), RandomBot(2)],
                seed=3,
                credentials=credentials,
            )
        )
        deadline = time.monotonic() + 20  # the viewer refreshes its list every few seconds
        while not (listed := json.loads(wait_http(f"http://127.0.0.1:{port}/api/matches"))):
            assert time.monotonic() < deadline, "the match never showed in the viewer"
            time.sleep(0.3)
        assert [match["match_id"] for match in listed] == [outcome.match_id]
        started = next(json.loads(line) for line in server.log_lines if '"server started"' in line)
        (private,) = [a for a in started["listen"] if a.startswith("unix:")]
        folder = Path(private.removeprefix("unix:")).parent
        assert folder.stat().st_mode & 0o077 == 0, "only the server's user may enter it"
    finally:
        assert stop_server_process(server) == 0
    assert not folder.exists()


def test_serve_on_unix_sockets_alone_gives_its_viewer_one_of_them(tmp_path: Path) -> None:
    """With every --listen a Unix socket the viewer dialled 127.0.0.1:0 and
    answered every page 502."""
    port = free_port()
    sock = tmp_path / "arena.sock"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli",
            "serve",
            "--db",
            ":memory:",
            "--listen",
            f"unix:{sock}",
            "--web-port",
            str(port),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert json.loads(wait_http(f"http://127.0.0.1:{port}/api/matches")) == []
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0


def test_the_web_command_reaches_a_tls_server_with_its_certificate(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    port, plain_port = free_port(), free_port()
    viewer = _web_command(server.address, port, "--tls-ca", str(cert))
    plain = _web_command(server.address, plain_port)
    try:
        credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        outcome = asyncio.run(
            play_match(
                server.address, "stubborn-sheep", [RandomBot(1), RandomBot(2)], seed=2,
                credentials=credentials,
            )
        )  # fmt: skip
        listed = json.loads(wait_http(f"http://127.0.0.1:{port}/api/matches"))
        assert [match["match_id"] for match in listed] == [outcome.match_id]
        frames = json.loads(
            wait_http(f"http://127.0.0.1:{port}/api/match/{outcome.match_id}/frames")
        )
        assert frames["match_id"] == outcome.match_id
        with pytest.raises(urllib.error.HTTPError) as refused:
            wait_http(f"http://127.0.0.1:{plain_port}/api/matches", timeout=3)
        assert refused.value.code == 502, "without --tls-ca the viewer cannot reach a TLS server"
    finally:
        for process in (viewer, plain):
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)
        assert stop_server_process(server) == 0
