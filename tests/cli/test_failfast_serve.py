"""Fail fast and speak plainly, `sheepfold serve` and `sheepfold web`: a port,
host, socket, database, certificate or limit the server cannot use is refused
with one clear line and a non-zero exit, run as a user runs it (a
subprocess), never a hang or a traceback."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server import launch
from server.launch import ServerProcess
from server.listening import check_socket_folder
from server.settings import MIN_MAX_MESSAGE_BYTES
from tests.cli.helpers import command, one_line, resolver_can_answer, sheepfold
from tests.conftest import ROOT, start_server_process, stop_server_process
from tests.tls_files import encrypted, self_signed

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("port", ["99999", "70000", "-5", "http"])
def test_serve_refuses_a_port_outside_0_to_65535(port: str) -> None:
    done = sheepfold("serve", f"--port={port}", "--db", ":memory:")
    assert done.returncode == 2
    assert "argument --port:" in done.stderr and "port" in done.stderr.splitlines()[-1]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--port", "70000"), ("--port", "-5"), ("--server", "127.0.0.1:99999"), ("--server", "x")],
)
def test_web_refuses_a_bad_port_or_server_address(flag: str, value: str) -> None:
    done = sheepfold("web", f"{flag}={value}")
    assert done.returncode == 2
    assert f"argument {flag}:" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_second_server_on_a_taken_port_fails_at_once(server: ServerProcess) -> None:
    done = sheepfold("serve", "--port", str(server.port), "--db", ":memory:", timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: cannot listen on 127.0.0.1:{server.port}: address already in use"
    )


def test_serve_refuses_an_unknown_log_level() -> None:
    done = sheepfold("serve", "--log-level", "verbose", "--db", ":memory:")
    assert done.returncode == 2
    assert "argument --log-level: invalid choice: 'verbose'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        *(("--handshake-timeout", value) for value in ("0", "-1", "inf", "nan", "soon")),
        ("--handshake-timeout", "99999999999999999999"),
        ("--decision-seconds", "nan"),
        ("--decision-seconds", "-5"),
        ("--decision-seconds", "7200"),
        ("--decision-seconds", "1e-300"),
        ("--start-timeout", "nan"),
        ("--start-timeout", "0"),
        ("--keepalive-seconds", "-1"),
        ("--keepalive-seconds", "inf"),
        ("--keepalive-timeout", "1e400"),
        ("--max-live-matches", "-1"),
        ("--max-watchers", "-1"),
        ("--max-message-bytes", "-1"),
        ("--max-message-bytes", "99999999999999999999"),
        ("--max-streams-per-connection", "0"),
        ("--max-pending-joins", "0"),
    ],
)
def test_serve_refuses_a_number_it_cannot_use_before_it_starts(flag: str, value: str) -> None:
    """Each of these once started a broken server (every CreateMatch INTERNAL with
    a NaN deadline, matches that never start) or ended in a traceback."""
    done = sheepfold("serve", f"{flag}={value}", "--db", ":memory:", timeout=30)
    assert done.returncode == 2
    assert f"argument {flag}:" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("value", ["1", "65536", str(MIN_MAX_MESSAGE_BYTES - 1)])
def test_serve_refuses_a_message_bound_too_small_for_a_decision(value: str) -> None:
    """A decision is one message, and a Stubborn Sheep one with a crowded pen
    reaches about 400 KB: a server allowed less once started, and its match's first
    such decision failed the seat's stream RESOURCE_EXHAUSTED ("Sent message
    larger than max") mid-match, its moves then forced one strike after another."""
    done = sheepfold("serve", "--max-message-bytes", value, "--db", ":memory:", timeout=30)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("sheepfold serve: error: argument --max-message-bytes: ")
    assert f"{value!r} is too small for a decision" in line
    assert f"at least {MIN_MAX_MESSAGE_BYTES} (1 MiB)" in line


def test_serve_closes_a_silent_connection_after_its_handshake_timeout() -> None:
    server = start_server_process("--handshake-timeout", "1")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as raw:
            started = time.monotonic()
            while raw.recv(65536):
                pass
            assert 0.5 < time.monotonic() - started < 5
    finally:
        stop_server_process(server)


@pytest.mark.parametrize("value", ["0", "-1", "1e3", "many", str(2**31)])
def test_serve_refuses_a_connection_bound_that_is_not_a_positive_count(value: str) -> None:
    done = sheepfold("serve", f"--max-connections={value}", "--db", ":memory:")
    assert done.returncode == 2
    assert "argument --max-connections:" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_accepts_fewer_connections_than_its_open_file_limit_allows() -> None:
    """Started with a soft limit of 600 files under a hard one of 700: serve raises
    the soft limit to 700, keeps 576 files for itself and its health port, and
    says that it accepts 124 connections, not the 10,000 asked for."""
    limited = [
        sys.executable,
        "-c",
        "import os, resource, sys; "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (600, 700)); "
        "os.execv(sys.argv[1], sys.argv[1:])",
        *launch.serve_command("--db", ":memory:"),
    ]
    server = launch.start(limited)
    try:
        entries = [json.loads(line) for line in server.log_lines if line.startswith("{")]
        warning = next(e for e in entries if e.get("level") == "warning")
        assert "open file limit allows fewer connections" in warning["event"]
        assert (warning["open_file_limit"], warning["accepting"]) == (700, 124)
        started = next(e for e in entries if e["event"] == "server started")
        assert started["max_connections"] == 124
    finally:
        stop_server_process(server)


@pytest.mark.parametrize("limit", [24, 100, 500])
def test_serve_refuses_an_open_file_limit_too_low_to_serve_in_one_line(limit: int) -> None:
    """Once: at 20 to 30 files gRPC's core could crash the server (SIGSEGV or
    SIGABRT, not a word); up to 576 it started holding one connection per
    address, too few for a match between two bot processes, with a warning."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, resource, sys; "
            f"resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, {limit})); "
            "os.execv(sys.argv[1], sys.argv[1:])",
            *launch.serve_command("--db", ":memory:"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1, done.stderr
    line = one_line(done)
    assert line.startswith(f"sheepfold serve: the open file limit is {limit}, too low to serve")
    assert "ulimit -n" in line


def _under_limit(limit: str, size: int, *command: str) -> list[str]:
    """`command` run with the soft and hard resource `limit` at `size` bytes."""
    return [
        sys.executable,
        "-c",
        "import os, resource, sys; "
        f"resource.setrlimit(resource.{limit}, ({size}, {size})); "
        "os.execv(sys.argv[1], sys.argv[1:])",
        *command,
    ]


@pytest.mark.parametrize(
    ("limit", "mib", "named"),
    [("RLIMIT_AS", 128, "ulimit -v"), ("RLIMIT_DATA", 100, "ulimit -d")],
)
def test_serve_refuses_a_memory_limit_too_low_to_serve_in_one_line(
    tmp_path: Path, limit: str, mib: int, named: str
) -> None:
    """Once: gRPC's threads could not start under it, and the server stopped
    with a Python traceback (can't start new thread, MemoryError) or, after
    ten seconds of gRPC's own error lines, its abort (exit 134); a little
    higher it started and answered some calls INTERNAL."""
    db = tmp_path / "never.db"
    done = subprocess.run(
        _under_limit(limit, mib * 2**20, *launch.serve_command("--db", str(db))),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    line = one_line(done)
    assert line.startswith("sheepfold serve: the ") and f"limit is {mib} MiB ({named}" in line
    assert "raise it to 256 MiB" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("limit", ["RLIMIT_AS", "RLIMIT_DATA"])
def test_serve_plays_matches_at_the_lowest_memory_limit_it_takes(limit: str) -> None:
    """The floor the server refuses below leaves it room to play: six
    four-player matches at once, its metrics and health ports serving."""
    from server.memory_limits import MIN_MEMORY_LIMIT

    server = launch.start(
        _under_limit(
            limit,
            MIN_MEMORY_LIMIT,
            *launch.serve_command("--db", ":memory:", "--metrics-port", "0", "--health-port", "0"),
        )
    )
    try:
        matches = [
            subprocess.Popen(
                [
                    *launch.serve_command()[:3],
                    "match",
                    "--server",
                    f"127.0.0.1:{server.port}",
                    "--game",
                    "sheep-n-sheep",
                    "--players",
                    "4",
                    "--bots",
                    "random,random,random,random",
                    "--seed",
                    str(seed),
                ],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for seed in range(6)
        ]
        for match in matches:
            out, err = match.communicate(timeout=120)
            assert match.returncode == 0, err
            assert "winner" in out
    finally:
        assert stop_server_process(server) == 0
    assert not any("Traceback" in line or line.startswith("E") for line in server.log_lines)


def test_serve_refuses_a_tournament_database_in_one_line(tmp_path: Path) -> None:
    """A tournament's file keeps a schema version too: it was taken for an
    up-to-date server database and ended in a sqlite3 traceback."""
    from tournament.store import Store

    path = tmp_path / "results.sqlite"
    with Store(path):
        pass
    before = path.read_bytes()
    done = sheepfold("serve", "--port", "0", "--db", str(path), timeout=30)
    assert done.returncode == 1
    assert "is not a Sheepfold server database: it is a tournament database" in one_line(done)
    assert path.read_bytes() == before


@pytest.mark.parametrize("flag", ["--port", "--health-port", "--metrics-port", "--web-port"])
def test_a_server_that_cannot_listen_leaves_no_database_behind(
    server: ServerProcess, tmp_path: Path, flag: str
) -> None:
    db = tmp_path / "never.db"
    port = ["--port", "0"] if flag != "--port" else []
    done = sheepfold("serve", *port, flag, str(server.port), "--db", str(db), timeout=30)
    assert done.returncode == 1 and "address already in use" in one_line(done)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("second", "web_host"),
    [("--metrics-port", ()), ("--health-port", ()), ("--web-port", ("--web-host", "0.0.0.0"))],
)
def test_two_flags_asking_for_one_port_are_both_named(
    tmp_path: Path, second: str, web_host: tuple[str, ...]
) -> None:
    with socket.socket() as probe:  # a port free now; serve must refuse before binding it
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    db = tmp_path / "never.db"
    done = sheepfold("serve", "--port", port, second, port, *web_host, "--db", str(db))
    assert done.returncode == 2, "a usage error, as a flag refused by itself is"
    assert one_line(done) == (
        f"sheepfold serve: --port and {second} both ask for port {port}: give each its own"
    )
    assert list(tmp_path.iterdir()) == []


def test_two_ports_from_the_environment_name_their_variables(tmp_path: Path) -> None:
    """The image's ports are set with `docker run -e`: `-e SHEEPFOLD_PORT=8081`
    beside the image's SHEEPFOLD_HEALTH_PORT=8081 was refused as "--port and
    --health-port both ask for port 8081", two flags nobody had given."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    db = tmp_path / "never.db"
    env = {"SHEEPFOLD_PORT": port, "SHEEPFOLD_HEALTH_PORT": port}
    done = sheepfold("serve", "--db", str(db), env=env)
    assert done.returncode == 2
    assert one_line(done) == (
        f"sheepfold serve: --port ($SHEEPFOLD_PORT) and --health-port ($SHEEPFOLD_HEALTH_PORT)"
        f" both ask for port {port}: give each its own"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("host", ["127.0.0.999", "a" * 64])
@pytest.mark.parametrize("port", ["0", "5"])
def test_serve_names_a_host_it_cannot_resolve_once_and_only_once(host: str, port: str) -> None:
    """One line, whatever the port: a usage error naming the flag (exit 2),
    or, where no resolver can answer (offline: "temporary failure"), the
    failure to listen (exit 1)."""
    done = sheepfold("serve", "--host", host, "--port", port, "--db", ":memory:")
    line = one_line(done)
    if len(host) > 63:
        assert done.returncode == 2, line
        assert line.startswith(f"sheepfold serve: --host {host!r}: not a host name"), line
    elif resolver_can_answer(host):
        assert done.returncode == 2, line
        assert line.startswith(f"sheepfold serve: --host {host!r}: no such host"), line
    else:
        assert done.returncode == 1, line
        assert line.startswith(f"sheepfold serve: cannot listen on {host}:{port}:"), line


def test_serve_refuses_a_listen_port_that_is_not_ascii_digits() -> None:
    done = sheepfold("serve", "--listen", "127.0.0.1:\u00b2", "--db", ":memory:")
    assert done.returncode == 2
    assert "use HOST:PORT or unix:PATH" in one_line(done)


def test_serve_leaves_another_programs_database_untouched(tmp_path: Path) -> None:
    path = tmp_path / "theirs.sqlite"
    with sqlite3.connect(path) as theirs:
        theirs.execute("CREATE TABLE t (x)")
    before = path.read_bytes()
    done = sheepfold("serve", "--port", "0", "--db", str(path), timeout=30)
    assert done.returncode == 1 and "holds another program's tables" in one_line(done)
    assert path.read_bytes() == before
    with sqlite3.connect(path) as theirs:
        assert theirs.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_serve_names_the_tls_flag_whose_file_is_missing(tmp_path: Path) -> None:
    missing = tmp_path / "nothere.pem"
    done = sheepfold(
        "serve", "--port", "0", "--db", ":memory:", "--tls-cert", str(missing), "--tls-key",
        str(missing), timeout=30,
    )  # fmt: skip
    assert done.returncode == 1
    assert one_line(done) == f"sheepfold serve: --tls-key {missing}: No such file or directory"


def test_serve_refuses_a_key_encrypted_with_a_pass_phrase_in_one_line(tmp_path: Path) -> None:
    """`openssl req` without `-nodes` encrypts the key. OpenSSL then asked for
    its pass phrase on the terminal ("Enter PEM pass phrase:"), holding `serve`
    there, and with none to read `serve` said "[Errno 22] Invalid argument"."""
    cert, key = self_signed(tmp_path)
    locked = encrypted(key)
    tls_serve = ["serve", "--port", "0", "--db", ":memory:", "--tls-cert", str(cert)]
    tls_serve += ["--tls-key", str(locked)]
    done = subprocess.run(
        command(*tls_serve),
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # no terminal to prompt on, as under a supervisor
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: --tls-key {locked} is encrypted with a pass phrase, which the "
        f"server cannot be given: serve an unencrypted copy (openssl pkey -in {locked} "
        "-out NEW.pem), readable by the server's user only"
    )


def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    """Both would restore the file's unfinished matches and play them twice; an
    operator's check once saw the second write moves until a UNIQUE constraint
    stopped its match. Readers (`db info`) are not refused."""
    db = tmp_path / "one.db"
    first = start_server_process("--db", str(db))
    try:
        second = sheepfold("serve", "--port", "0", "--db", str(db), timeout=30)
        assert second.returncode == 1, second.stderr
        assert one_line(second) == (
            f"sheepfold serve: cannot open --db {db}: another sheepfold server is "
            "serving this file (one server per file)"
        )
        info = sheepfold("db", "info", "--db", str(db), timeout=30)
        assert info.returncode == 0, info.stderr
    finally:
        assert stop_server_process(first) == 0
    # Stopped, the first lets the file go.
    again = start_server_process("--db", str(db))
    assert stop_server_process(again) == 0


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/dev/null", "it is not a regular file, so it cannot hold a database"),
        ("@folder", "it is a folder, not a database file"),
    ],
)
def test_serve_refuses_a_database_path_that_is_no_file_in_one_line(
    path: str, why: str, tmp_path: Path
) -> None:
    """SQLite opened /dev/null, wrote /dev/null-journal beside it and then said
    "disk I/O error"; a folder was "unable to open database file"."""
    path = str(tmp_path) if path == "@folder" else path
    journal = Path(f"{path}-journal")
    there_before = journal.exists()  # left by some other program: nothing to tell
    done = sheepfold("serve", "--port", "0", "--db", path, timeout=30)
    assert done.returncode == 1
    assert one_line(done) == f"sheepfold serve: cannot open --db {path}: {why}"
    assert there_before or not journal.exists()


def test_serve_names_a_missing_socket_folder_in_one_line(tmp_path: Path) -> None:
    """gRPC logged a line of its own, then "gRPC could not bind it" without a reason."""
    address = f"unix:{tmp_path / 'missing' / 'arena.sock'}"
    db = tmp_path / "never.db"
    done = sheepfold("serve", "--listen", address, "--db", str(db), timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: cannot listen on {address}: no folder {tmp_path / 'missing'}"
    )
    assert not db.exists()


def test_serve_names_why_no_socket_file_can_be_made_in_a_folder(tmp_path: Path) -> None:
    """/proc is a folder we may write in by its mode, yet no file can be made
    there: gRPC logged a line of its own and serve said only "gRPC could not
    bind it"."""
    done = sheepfold("serve", "--listen", "unix:/proc/arena.sock", "--db", ":memory:", timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        "sheepfold serve: cannot listen on unix:/proc/arena.sock: no socket file can be "
        "made there (no such file or directory)"
    )


def test_serve_refuses_a_unix_socket_another_server_listens_on(tmp_path: Path) -> None:
    """gRPC removed the live socket file and took the address over: the first
    server was left unreachable, and once the second stopped nobody had it."""
    path = tmp_path / "arena.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as first:
        first.bind(str(path))
        first.listen()
        done = sheepfold("serve", "--listen", f"unix:{path}", "--db", ":memory:", timeout=30)
        assert done.returncode == 1
        assert one_line(done) == (
            f"sheepfold serve: cannot listen on unix:{path}: address already in use"
        )
        assert path.is_socket()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(str(path))  # the first one still has its address


def test_serve_refuses_a_unix_socket_path_that_is_another_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("mine\n")
    done = sheepfold("serve", "--listen", f"unix:{path}", "--db", ":memory:", timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: cannot listen on unix:{path}: {path} exists and is not a socket"
    )
    assert path.read_text() == "mine\n"


def test_a_socket_file_left_by_a_server_that_has_gone_is_reused(tmp_path: Path) -> None:
    path = tmp_path / "arena.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as gone:
        gone.bind(str(path))  # closed without removing its file, as after a kill -9
    assert path.is_socket()
    check_socket_folder(f"unix:{path}")  # no error: the address is free


def test_a_taken_web_port_is_named_plainly(server: ServerProcess) -> None:
    """asyncio's message once came through whole: "[Errno 98] error while attempting
    to bind on address ('127.0.0.1', PORT): address already in use"."""
    web = sheepfold("web", "--port", str(server.port), "--server", server.address)
    assert web.returncode == 1
    assert one_line(web) == (
        f"sheepfold web: cannot listen on 127.0.0.1:{server.port}: address already in use"
    )
    taken = str(server.port)
    same = sheepfold("serve", "--port", "0", "--web-port", taken, "--db", ":memory:", timeout=30)
    assert same.returncode == 1
    assert same.stderr.strip().splitlines()[-1] == (
        f"sheepfold serve: the web viewer cannot listen on 127.0.0.1:{taken}: "
        "address already in use"
    )


def _serve_on_a_taken_port(
    tmp_path: Path, host: str, *flags: str
) -> tuple[int, subprocess.CompletedProcess[str]]:
    """`sheepfold serve FLAGS PORT`, PORT one that another socket on `host` holds."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as holder:
        holder.bind((host, 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = sheepfold("serve", *flags, str(port), "--db", str(tmp_path / "s.db"), timeout=30)
    return port, done


def test_a_taken_ipv6_port_is_named_in_brackets(tmp_path: Path) -> None:
    """The refusal once wrote an IPv6 address and its port run together,
    "cannot listen on :::50051" (and "::1:50051"), which names no address:
    they are written as everywhere else, "[::1]:50051"."""
    port, done = _serve_on_a_taken_port(tmp_path, "::1", "--host", "::1", "--port")
    assert done.returncode == 1
    assert (
        one_line(done) == f"sheepfold serve: cannot listen on [::1]:{port}: address already in use"
    )


def test_a_taken_health_port_is_named_as_the_health_port(tmp_path: Path) -> None:
    """`--health-port` on a port another program holds once said "cannot
    listen on 127.0.0.1:PORT", as the main port does, so which of the two was
    taken was left to the reader; the metrics and web ports each say theirs."""
    port, done = _serve_on_a_taken_port(tmp_path, "127.0.0.1", "--port", "0", "--health-port")
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: cannot serve health checks on 127.0.0.1:{port}: address already in use"
    )
