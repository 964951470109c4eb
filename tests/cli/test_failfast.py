"""Fail fast and speak plainly: every command, run as a user runs it (a subprocess),
answers a mistake with one clear line and a non-zero exit, never a hang or a
traceback."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server import launch
from server.launch import ServerProcess
from server.listening import check_socket_folder
from tests.cli.helpers import command, database_of, one_line, sheepfold
from tests.conftest import ROOT, start_server_process, stop_server_process

pytestmark = pytest.mark.e2e


@pytest.fixture
def refused_address() -> Iterator[str]:
    """A loopback port that is bound but not listening: connecting is refused."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield f"127.0.0.1:{holder.getsockname()[1]}"


# ---------------------------------------------------------------- unreachable


def test_every_client_command_reports_an_unreachable_server_in_one_line(
    refused_address: str, tmp_path: Path
) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-n-sheep"\nplayers = 2\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    runs = {
        "match": ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random"),
        "bot": ("bot", "--match", "m", "--token", "t"),
        "create": ("create", "--game", "sheep-n-sheep", "--players", "2"),
        "tournament": ("tournament", "run", str(config), "--db", str(tmp_path / "t.sqlite")),
    }
    started = time.monotonic()
    processes = {
        name: subprocess.Popen(
            command(*args, "--server", refused_address),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, args in runs.items()
    }
    outputs = {name: process.communicate(timeout=60) for name, process in processes.items()}
    elapsed = time.monotonic() - started
    expected = f"cannot reach the server at {refused_address}: connection refused"
    for name, process in processes.items():
        _stdout, stderr = outputs[name]
        assert process.returncode == 1, (name, stderr)
        lines = [line for line in stderr.splitlines() if "cannot reach" in line]
        assert lines and lines[0].endswith(expected), (name, stderr)
        assert "Traceback" not in stderr, (name, stderr)
    # Four commands side by side, each waiting 3 s for the server: well under a minute.
    assert elapsed < 45, f"took {elapsed:.0f} s"


def test_bot_checks_the_server_and_the_match_before_starting_its_program(
    refused_address: str, server: ServerProcess
) -> None:
    # The program would wait for a minute: `bot` must not start it for a server
    # that is not there, or a match that is not on it.
    program = ("--token", "t", "--bot", "cmd:sleep 60", "--no-sandbox")
    gone = sheepfold("bot", "--server", refused_address, "--match", "m", *program, timeout=30)
    assert gone.returncode == 1
    assert one_line(gone) == (
        f"sheepfold bot: cannot reach the server at {refused_address}: connection refused"
    )
    unknown = sheepfold("bot", "--server", server.address, "--match", "nope", *program, timeout=30)
    assert unknown.returncode == 1
    assert one_line(unknown) == "sheepfold bot: NOT_FOUND: no match 'nope'"


def test_bad_server_addresses_are_refused_before_connecting() -> None:
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "random,random",
        "--server",
        "127.0.0.1:99999",
    )
    assert done.returncode == 2
    assert "99999 is not a port: use 1 to 65535" in done.stderr


# ---------------------------------------------------------------- serve


@pytest.mark.parametrize("port", ["99999", "70000", "-5", "http"])
def test_serve_refuses_a_port_outside_0_to_65535(port: str) -> None:
    done = sheepfold("serve", f"--port={port}", "--db", ":memory:")
    assert done.returncode == 2
    assert "argument --port:" in done.stderr and "port" in done.stderr.splitlines()[-1]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random"),
        ("create", "--server", "127.0.0.1:1", "--game", "sheep-n-sheep", "--players", "2"),
    ],
    ids=["match", "create"],
)
@pytest.mark.parametrize(
    ("flag", "value"),
    [("--seed", "-1"), ("--seed", str(2**64)), ("--players", "0"), ("--players", str(2**31))],
)
def test_a_seed_or_seat_count_the_wire_cannot_carry_is_a_usage_error(
    command: tuple[str, ...], flag: str, value: str
) -> None:
    done = sheepfold(*command, f"{flag}={value}")
    assert done.returncode == 2
    assert f"argument {flag}:" in done.stderr
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


# ---------------------------------------------------------------- the command line


def test_version_and_a_subcommands_own_usage() -> None:
    version = sheepfold("--version")
    assert version.returncode == 0
    assert re.fullmatch(r"sheepfold \d+\.\d+\.\d+\n", version.stdout)
    bogus = sheepfold(
        "match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "r,r", "--bogus"
    )
    assert bogus.returncode == 2
    assert bogus.stderr.startswith("usage: sheepfold match ")
    assert bogus.stderr.strip().endswith("sheepfold match: error: unrecognized arguments: --bogus")


def test_output_closed_early_is_one_line() -> None:
    process = subprocess.Popen(
        command("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # like `| head -c 0`: the reader is gone before anything is written
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == 1
    assert stderr.strip() == "sheepfold: the output was closed before all of it was written"


def test_replay_help_explains_the_board_symbols() -> None:
    done = sheepfold("replay", "--help")
    assert done.returncode == 0
    for text in ("How to read the boards", "S shepherd", "K black", "l lake", "< left"):
        assert text in done.stdout, text


# ---------------------------------------------------------------- match


def _module(folder: Path, source: str) -> dict[str, str]:
    (folder / "my_bots.py").write_text(source)
    return {"PYTHONPATH": f"{folder}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


def test_a_raising_class_bot_shows_its_own_traceback(tmp_path: Path) -> None:
    env = _module(
        tmp_path,
        "class Broken:\n"
        "    def decide(self, decision):\n"
        "        return decision.observation.no_such_field\n",
    )
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "my_bots:Broken,random",
        env=env,
    )
    assert done.returncode == 1
    first = done.stderr.splitlines()[0]
    assert first == (
        "sheepfold match: the bot in seat 0 (my_bots:Broken) raised AttributeError: no_such_field"
    )
    assert "Traceback (most recent call last):" in done.stderr
    assert f'File "{tmp_path / "my_bots.py"}", line 3, in decide' in done.stderr
    assert "clients/sdk.py" not in done.stderr, "only the bot's own frames"


@pytest.mark.parametrize(
    ("returned", "shown"),
    [
        ('"first"', "'first'"),
        ("None", "None"),
        ("1.5", "1.5"),
        ("2**40", "1099511627776"),
        ("len(decision.actions) > 1", "True"),  # once played action 1
    ],
)
def test_a_class_bot_that_returns_no_action_index_is_one_line(
    tmp_path: Path, returned: str, shown: str
) -> None:
    env = _module(
        tmp_path,
        f"class Wrong:\n    def decide(self, decision):\n        return {returned}\n",
    )
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "random,my_bots:Wrong",
        env=env,
    )
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold match: the bot in seat 1 (my_bots:Wrong): decide returned {shown}, "
        "not an action index (a whole number)"
    )


def test_match_prints_its_id_and_shows_a_disqualification(
    tmp_path: Path, server: ServerProcess
) -> None:
    env = _module(
        tmp_path,
        "import asyncio\n"
        "class Sleeper:\n"
        "    async def decide(self, decision):\n"
        "        await asyncio.sleep(0.25)  # past the 0.1 s deadline, every time\n"
        "        return 0\n",
    )
    args = ("match", "--game", "sheep-showdown", "--players", "2", "--option", "rounds=1")
    done = sheepfold(
        *args,
        "--bots",
        "my_bots:Sleeper,random",
        "--decision-seconds",
        "0.1",
        "--seed",
        "4",
        "--server",
        server.address,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[0]
    match = re.fullmatch(r"sheep-showdown  seed 4  match ([0-9a-f]{16})", header)
    assert match, header
    seat0, seat1 = done.stdout.splitlines()[1:3]
    assert "DISQUALIFIED (ranked last)" in seat0 and "strikes 3" in seat0
    assert "rank 2" in seat0 and "rank 1" in seat1 and "DISQUALIFIED" not in seat1
    assert "the server played its moves at random and ranks it last" in done.stdout

    as_json = sheepfold(*args, "--bots", "random,random", "--server", server.address, "--json")
    assert as_json.returncode == 0, as_json.stderr
    match_id = json.loads(as_json.stdout)["match_id"]
    # The id is the one `sheepfold replay` takes.
    replay = sheepfold("replay", match_id, "--db", database_of(server))
    assert replay.returncode == 0, replay.stderr
    assert f"match {match_id}" in replay.stdout and "replay verified" in replay.stdout


# ---------------------------------------------------------------- report


def test_report_on_a_file_that_is_no_tournament_database_is_one_line(
    tmp_path: Path, server: ServerProcess
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all\n" * 100)
    done = sheepfold("tournament", "report", "--db", str(text))
    assert done.returncode == 1
    assert one_line(done).startswith(f"sheepfold tournament: {text} is not a tournament database")

    done = sheepfold("tournament", "report", "--db", database_of(server))
    assert done.returncode == 1
    assert one_line(done).endswith("is not a tournament database: it is a server's database")
    tables = {
        row[0]
        for row in sqlite3.connect(database_of(server)).execute("SELECT name FROM sqlite_master")
    }
    assert "tournaments" not in tables, "the server's database was left alone"


def _strength(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m benchmarks.strength --game sheep-n-sheep ARGS`, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.strength", "--game", "sheep-n-sheep", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_strength_takes_a_module_class_bot_and_refuses_a_bad_one_in_one_line() -> None:
    def strength(*pairs: str) -> subprocess.CompletedProcess[str]:
        return _strength(*pairs, "--games", "2", "--workers", "1")

    done = strength("examples.simple_bots:FirstChoiceBot,random")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("examples.simple_bots:FirstChoiceBot vs random: ")
    bad = strength("nosuch:Bot,random")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines()[-1] == (
        "python -m benchmarks.strength: error: cannot import 'nosuch' for bot 'nosuch:Bot': "
        "No module named 'nosuch'"
    )


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("random,greedy", "--games", "0"), "argument --games: '0' must be a whole number from 1"),
        (
            ("random,greedy", "--games", "-3"),
            "argument --games: '-3' must be a whole number from 1",
        ),
        (
            ("random,greedy", "--workers", "0"),
            "argument --workers: '0' must be a whole number from 1",
        ),
        (("solo,random",), "'solo,random': sheep-n-sheep has no solo game (2 to 4 players)"),
        (("random,solo",), "'random,solo': a solo pair names solo first (solo,random)"),
    ],
)
def test_strength_refuses_numbers_and_solo_games_it_cannot_play_in_one_line(
    args: tuple[str, ...], error: str
) -> None:
    bad = _strength(*args)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
    assert (
        bad.stderr.strip()
        .splitlines()[-1]
        .startswith(f"python -m benchmarks.strength: error: {error}")
    ), bad.stderr


def _match_against_a_wrapped_command_bot(wrapper: Path, tmp_path: Path) -> Path:
    """`sheepfold match` of a random bot against `wrapper`, a command bot that does
    something of its own around the example command bot (unsandboxed, in a folder
    of its own, which it returns). The match must end well, with no crash."""
    folder = tmp_path / "bot"
    folder.mkdir()
    example = ROOT / "examples" / "command-bot" / "command_bot.py"
    done = sheepfold(
        "match",
        "--game",
        "sheep-showdown",
        "--players",
        "2",
        "--option",
        "rounds=1",
        "--no-sandbox",
        "--json",
        "--bots",
        f"random,cmd:{sys.executable} {wrapper} {example}",
        "--bot-dir",
        str(folder),
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["crashed"] == {}
    return folder


def test_match_ends_with_its_match_when_a_command_bot_lingers(tmp_path: Path) -> None:
    """A command bot that ignores SIGTERM and sleeps once its match is over once
    kept `sheepfold match` waiting forever. It is killed after a grace period, it
    is not counted as crashed: it played its seat."""
    folder = _match_against_a_wrapped_command_bot(
        Path(__file__).resolve().parent / "bots" / "lingering_bot.py", tmp_path
    )
    pid = int((folder / "pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_command_bot_cannot_create_matches_on_the_match_commands_own_server(
    tmp_path: Path,
) -> None:
    """Without --server, `sheepfold match` starts a server whose admin token only it
    knows: a bot given that server's address cannot create matches of its own."""
    folder = _match_against_a_wrapped_command_bot(
        ROOT / "tests" / "tournament" / "bots" / "match_maker.py", tmp_path
    )
    assert (folder / "create_status").read_text() == "UNAUTHENTICATED"


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


@pytest.mark.parametrize("command_args", [("tournament", "report"), ("tournament", "forget", "a")])
def test_a_symlink_loop_as_a_tournament_database_is_not_called_missing(
    tmp_path: Path, command_args: tuple[str, ...]
) -> None:
    loop = tmp_path / "cup.sqlite"
    loop.symlink_to(tmp_path / "other.sqlite")
    (tmp_path / "other.sqlite").symlink_to(loop)
    done = sheepfold(*command_args, "--db", str(loop), timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold tournament: cannot use {loop}: Too many levels of symbolic links"
    )


def test_a_database_under_proc_is_not_said_to_be_on_a_full_disk(tmp_path: Path) -> None:
    """/proc holds no files of anyone's: its 0 bytes free once read as a full disk."""
    done = sheepfold("serve", "--port", "0", "--db", "/proc/sheepfold.db", timeout=30)
    assert done.returncode == 1
    line = one_line(done)
    assert "/proc/sheepfold.db" in line and "full" not in line, line
    assert "cannot hold files" in line, line
    config = tmp_path / "cup.toml"
    config.write_text(
        'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\ngames_per_pairing = 1\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    done = sheepfold("tournament", "run", str(config), "--db", "/proc/sheepfold.db", timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "/proc/sheepfold.db" in last and "full" not in last, last
    assert "cannot hold files" in last, last


@pytest.mark.parametrize("command_args", [("serve", "--port", "0"), ("replay", "some-match")])
def test_an_empty_db_path_is_a_usage_error(command_args: tuple[str, ...]) -> None:
    done = sheepfold(*command_args, "--db", "", timeout=30)
    assert done.returncode == 2
    assert "argument --db: an empty path" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("flag", ["--port", "--health-port", "--metrics-port", "--web-port"])
def test_a_server_that_cannot_listen_leaves_no_database_behind(
    server: ServerProcess, tmp_path: Path, flag: str
) -> None:
    db = tmp_path / "never.db"
    port = ["--port", "0"] if flag != "--port" else []
    done = sheepfold("serve", *port, flag, str(server.port), "--db", str(db), timeout=30)
    assert done.returncode == 1 and "address already in use" in one_line(done)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("host", ["127.0.0.999", "a" * 64])
@pytest.mark.parametrize("port", ["0", "5"])
def test_serve_names_a_host_it_cannot_resolve_once_and_only_once(host: str, port: str) -> None:
    done = sheepfold("serve", "--host", host, "--port", port, "--db", ":memory:")
    assert done.returncode == 1
    assert one_line(done).startswith(f"sheepfold serve: cannot listen on {host}:{port}:")


def test_serve_refuses_a_listen_port_that_is_not_ascii_digits() -> None:
    done = sheepfold("serve", "--listen", "127.0.0.1:\u00b2", "--db", ":memory:")
    assert done.returncode == 1
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


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("cmd:./nothere --level 3", "no program './nothere'"),
        ("cmd:no-such-prog", "on PATH"),
        ("cmd:./" + "a" * 300, "File name too long"),  # was a traceback
    ],
)
def test_match_refuses_a_command_bot_that_cannot_start(spec: str, words: str) -> None:
    """It used to play the match with a random stand-in in that seat and exit 0;
    a path the system refused to look at (too long, in a folder the user cannot
    enter) was a traceback."""
    done = sheepfold(
        "match", "--game", "stubborn-sheep", "--players", "2", "--bots", f"random,{spec}"
    )
    assert done.returncode == 1
    line = one_line(done)
    assert line.startswith("sheepfold match: ") and words in line


def test_match_refuses_a_sandboxed_program_its_sandbox_cannot_see(tmp_path: Path) -> None:
    """A program outside --bot-dir and the runtime (pyenv's shims, nvm's node) was
    found on the host, then failed to start in the sandbox: the match was played
    by a random stand-in in that seat."""
    program = tmp_path / "elsewhere" / "bot"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    (tmp_path / "bot").mkdir()
    done = sheepfold(
        "match", "--game", "stubborn-sheep", "--players", "2",
        "--bots", f"random,cmd:{program}", "--bot-dir", str(tmp_path / "bot"),
    )  # fmt: skip
    assert done.returncode == 1
    line = one_line(done)
    assert line.startswith("sheepfold match: ")
    assert f"needs {program}, which the bot's sandbox does not see" in line


def test_serve_names_the_tls_flag_whose_file_is_missing(tmp_path: Path) -> None:
    missing = tmp_path / "nothere.pem"
    done = sheepfold(
        "serve", "--port", "0", "--db", ":memory:", "--tls-cert", str(missing), "--tls-key",
        str(missing), timeout=30,
    )  # fmt: skip
    assert done.returncode == 1
    assert one_line(done) == f"sheepfold serve: --tls-key {missing}: No such file or directory"


def test_health_of_an_unknown_service_says_which(server: ServerProcess) -> None:
    done = sheepfold("health", "--addr", server.address, "--service", "nope", timeout=30)
    assert done.returncode == 1
    assert one_line(done).endswith("NOT_FOUND: the server has no service 'nope'")


def test_health_of_a_server_that_never_answers_says_so_as_the_other_commands_do() -> None:
    """A port that accepts connections and then says nothing (a frozen server):
    `create`, `bot` and `match` say "no answer within 3 s"; health said gRPC's
    own "DEADLINE_EXCEEDED: Deadline Exceeded"."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        done = sheepfold("health", "--addr", address, "--timeout", "1", timeout=30)
    assert done.returncode == 1
    assert one_line(done) == f"{address}: DEADLINE_EXCEEDED: no answer within 1 s"


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (("serve", "--keepalive-seconds", "1e9", "--db", ":memory:"), "at most 2,147,483 seconds"),
        (
            ("match", "--game", "stubborn-sheep", "--players", "2", "--bots",
             "random,cmd:{python} command_bot.py", "--bot-dir", str(ROOT / "examples" /
             "command-bot"), "--limit", "memory_mb=1"),
            "between 64 and 1,048,576, not 1",
        ),
    ],
)  # fmt: skip
def test_a_range_is_shown_in_plain_numbers(args: tuple[str, ...], shown: str) -> None:
    done = sheepfold(*args, timeout=30)
    assert done.returncode != 0 and shown in done.stderr, done.stderr
    assert "e+0" not in done.stderr


EXAMPLE_BOT_DIR = str(ROOT / "examples" / "command-bot")


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", "/proc"),
         "--bot-dir /proc is in the host's /proc: a sandbox has its own /proc and /dev"),
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", "/"),
         "--bot-dir / would show the bot the whole host"),
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", EXAMPLE_BOT_DIR,
          "--read-only", "/proc/1"),
         "--read-only /proc/1 is the host's /proc: a sandbox has its own /proc and /dev"),
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", EXAMPLE_BOT_DIR,
          "--read-only", "/dev/null"),
         "--read-only /dev/null is the host's /dev"),
        (("--bots", 'random,cmd:"{python} command_bot.py', "--bot-dir", EXAMPLE_BOT_DIR),
         "No closing quotation"),
    ],
)  # fmt: skip
def test_match_refuses_a_command_bot_that_would_see_the_hosts_state(
    extra: tuple[str, ...], said: str
) -> None:
    """A sandboxed bot's folder and read-only paths are checked as a tournament's
    are: the host's /proc shows every process's command line (the match's seed
    among them)."""
    done = sheepfold("match", "--game", "sheep-n-sheep", "--players", "2", *extra, timeout=30)
    assert done.returncode == 1, done.stderr
    assert said in one_line(done), done.stderr
    assert "Traceback" not in done.stderr


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
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    same = sheepfold("serve", "--port", port, "--web-port", port, "--db", ":memory:", timeout=30)
    assert same.returncode == 1
    assert same.stderr.strip().splitlines()[-1] == (
        f"sheepfold serve: the web viewer cannot listen on 127.0.0.1:{port}: address already in use"
    )


def test_a_server_that_does_not_speak_grpc_is_named_plainly() -> None:
    """An HTTP/1 server was "failed parsing HTTP/2 (Expected SETTINGS frame as the
    first frame, got frame type 79)"."""
    from http.server import HTTPServer, SimpleHTTPRequestHandler
    from threading import Thread

    web = HTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
    Thread(target=web.serve_forever, daemon=True).start()
    address = f"127.0.0.1:{web.server_address[1]}"
    try:
        done = sheepfold("health", "--addr", address, "--timeout", "5")
    finally:
        web.shutdown()
        web.server_close()
    assert done.returncode == 1
    assert one_line(done) == (
        f"{address}: UNAVAILABLE: it does not speak gRPC (it answered in something other "
        "than HTTP/2: a web server?)"
    )


def test_a_class_bot_beside_the_command_is_found_without_pythonpath(tmp_path: Path) -> None:
    """The README's `sheepfold bot --bot mymodule:FirstActionBot` failed as written,
    run beside mymodule.py: "No module named 'mymodule'"."""
    (tmp_path / "mymodule.py").write_text(
        "class FirstActionBot:\n    def decide(self, decision):\n        return 0\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "sheepfold"), "match", "--game", "sheep-n-sheep",
         "--players", "2", "--bots", "mymodule:FirstActionBot,random", "--json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["bots"] == ["mymodule:FirstActionBot", "random"] and not result["crashed"]


def test_a_class_bot_that_exits_at_import_is_named(tmp_path: Path) -> None:
    """sys.exit(3) in a bot's module ended match, and a tournament run, with status
    3 and not a word: for an SPRT, 3 means "H0 accepted"."""
    env = _module(tmp_path, "import sys\nsys.exit(3)\nclass Quitter:\n    pass\n")
    done = sheepfold(
        "match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "my_bots:Quitter,random",
        env=env,
    )  # fmt: skip
    assert done.returncode == 1
    assert one_line(done) == (
        "sheepfold match: importing 'my_bots' for bot 'my_bots:Quitter' called sys.exit(3)"
    )
    config = tmp_path / "cup.toml"
    config.write_text(
        f'game = "sheep-n-sheep"\nplayers = 2\npython_path = ["{tmp_path}"]\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "q"\nclass = "my_bots:Quitter"\n'
    )
    for subcommand in ("run", "sprt"):
        run = sheepfold("tournament", subcommand, str(config), "--db", str(tmp_path / "t.db"))
        assert run.returncode == 2, (subcommand, run.stderr)
        assert "bots[1].class: module 'my_bots' raised SystemExit: 3" in run.stderr


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("bot",), "sheepfold bot: missing --server, --match, --token (or the environment)"),
        (
            ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random"),
            "sheepfold match: --players is 2 but --bots names 1 bot",
        ),
    ],
)
def test_flags_that_do_not_fit_together_are_usage_errors(args: tuple[str, ...], line: str) -> None:
    """Exit status 2, as for any other usage error (they were 1)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHEEPFOLD_")}
    done = subprocess.run(
        command(*args), cwd=ROOT, capture_output=True, text=True, timeout=60, env=env
    )
    assert (done.returncode, one_line(done)) == (2, line)


@pytest.mark.parametrize(
    ("returned", "error"),
    [
        ("-1", "decide returned -1, not one of the "),
        ("10_000", "decide returned 10000, not one of the "),
        ("1.5", "decide returned 1.5, not an action index (a whole number)"),
    ],
)
def test_strength_refuses_an_answer_that_names_no_action_in_one_line(
    tmp_path: Path, returned: str, error: str
) -> None:
    """As a server would: -1 is no action (Python's list once took it as the
    last one, a move the bot never chose), nor 1.5 (once a traceback)."""
    env = _module(
        tmp_path, f"class Wrong:\n    def decide(self, decision):\n        return {returned}\n"
    )
    bad = _strength("my_bots:Wrong,random", "--games", "2", "--workers", "1", env=env)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr, bad.stderr
    assert (
        bad.stderr.strip()
        .splitlines()[-1]
        .startswith(f"python -m benchmarks.strength: my_bots:Wrong (seat 0): {error}")
    ), bad.stderr
