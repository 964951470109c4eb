"""Fail fast and speak plainly: every command, run as a user runs it (a subprocess),
answers a mistake with one clear line and a non-zero exit, never a hang or a
traceback. The server's own refusals are in test_failfast_serve.py, the bots'
in test_failfast_bots.py."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import command, database_of, one_line, random_cup, sheepfold
from tests.conftest import ROOT

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
    config.write_text(random_cup("sheep-n-sheep", name=None))
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


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("127.0.0.1:5_0", "'5_0' is not a port number"),
        ("127.0.0.1: 50", "' 50' is not a port number"),
        ("127.0.0.1:\u0665\u0660", "is not a port number"),
        ("::1:50051", "an IPv6 address goes in brackets (e.g. [::1]:50051)"),
        ("[::1:50051", "an IPv6 address goes in brackets (e.g. [::1]:50051)"),
        ("[::1]", "is not HOST:PORT"),
        (" 127.0.0.1:50051", "' 127.0.0.1' is not a host name or address (it holds a space)"),
        ("arena host:50051", "'arena host' is not a host name or address (it holds a space)"),
        ("arena\thost:50051", "is not a host name or address (it holds a space)"),
        ("dns:arena host:50051", "'dns:arena host:50051' has a space in its address"),
    ],
)
def test_a_malformed_address_is_refused_not_looked_up(address: str, said: str) -> None:
    """int() takes '5_0', ' 50' and Arabic digits, so these went to gRPC, which
    answered "the host name does not resolve" (or, for an unbracketed IPv6
    address, nothing until the deadline): the mistake is in the address."""
    done = sheepfold("health", "--addr", address)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert said in done.stderr.splitlines()[-1]


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


def test_a_mistyped_flag_is_told_the_flag_it_resembles() -> None:
    """An organiser's `serve --metric-port 9100` was told only "unrecognized
    arguments", under 40 lines of usage, with the flag it meant not named."""
    typo = sheepfold("serve", "--metric-port", "9199", "--db", ":memory:")
    assert typo.returncode == 2
    assert typo.stderr.strip().splitlines()[-1] == (
        "sheepfold serve: error: unrecognized arguments: --metric-port 9199 "
        "(did you mean --metrics-port?)"
    )
    joined = sheepfold("tournament", "report", "--db=x.sqlite", "--formatt=json")
    assert joined.stderr.strip().splitlines()[-1] == (
        "sheepfold tournament report: error: unrecognized arguments: --formatt=json "
        "(did you mean --format?)"
    )


@pytest.mark.parametrize("subcommand", ["run", "sprt"])
def test_a_shortened_flag_is_a_usage_error_naming_the_full_one(
    subcommand: str, tmp_path: Path
) -> None:
    """argparse took `--serv ADDR` as `--server ADDR`, but what main does before
    parsing (gRPC's own lines quietened for a run on a server) looked for the
    full spelling: one flag, two readings. A flag is now taken only in full."""
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(database=str(tmp_path / "cup.sqlite")))
    done = sheepfold("tournament", subcommand, str(config), "--serv", "127.0.0.1:1")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"sheepfold tournament {subcommand}: error: unrecognized arguments: "
        "--serv 127.0.0.1:1 (did you mean --server?)"
    )
    assert not (tmp_path / "cup.sqlite").exists()


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
    assert stderr.strip() == "sheepfold match: the output was closed before all of it was written"


def test_replay_help_explains_the_board_symbols() -> None:
    done = sheepfold("replay", "--help")
    assert done.returncode == 0
    for text in ("How to read the boards", "S shepherd", "K black", "l lake", "< left"):
        assert text in done.stdout, text


# ---------------------------------------------------------------- the other commands


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


def test_naming_what_a_tournament_database_does_not_hold_is_one_line_exit_1(
    tmp_path: Path,
) -> None:
    """A bot, a tournament or a match the database does not hold is found out
    only by reading it, as a server that is not there is found out by calling
    it: one line naming what is there, exit 1, for `report --anchor`,
    `report --tournament`, `forget` and `replay` alike. Exit 2 is for a
    command line that is wrong wherever it is run."""
    config = tmp_path / "cup.toml"
    config.write_text(random_cup("sheep-n-sheep", games_per_pairing=1))
    db = str(tmp_path / "cup.sqlite")
    assert sheepfold("tournament", "run", str(config), "--db", db, "--no-report").returncode == 0
    for args, line in (
        (
            ("tournament", "report", "--db", db, "--anchor", "zz"),
            "sheepfold tournament: anchor 'zz' is not a bot of this tournament (a, b)",
        ),
        (
            ("tournament", "report", "--db", db, "--tournament", "zz"),
            f"sheepfold tournament: no tournament 'zz' in {db} (it holds: cup)",
        ),
        (
            ("tournament", "forget", "zz", "--db", db),
            "sheepfold tournament: bot 'zz' played no stored game of tournament 'cup'",
        ),
        (
            ("replay", "deadbeef", "--db", db),
            f"sheepfold replay: no match 'deadbeef' in the tournament database {db}",
        ),
    ):
        done = sheepfold(*args)
        assert (done.returncode, one_line(done)) == (1, line)


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
    config.write_text(random_cup(games_per_pairing=1))
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


@pytest.mark.parametrize(
    "command_args",
    [
        ("serve", "--port", "0"),
        ("replay", "some-match"),
        ("db", "info"),
        ("db", "vacuum"),
        ("tournament", "report"),
        ("tournament", "forget", "some-bot"),
        ("tournament", "run", str(ROOT / "examples" / "round-robin.toml"), "--no-report"),
    ],
    ids=["serve", "replay", "db-info", "db-vacuum", "report", "forget", "run"],
)
@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_a_db_path_ending_in_a_slash_is_a_usage_error(
    tmp_path: Path, command_args: tuple[str, ...], existing: bool
) -> None:
    """`--db data/sheepfold.db/`: `serve` once ended in a NotADirectoryError
    traceback (after SQLite had made an empty `sheepfold.db`), `tournament
    run` played every game into `sheepfold.db` and then ended in a StoreError
    traceback ("no database at ...db/"), and the readers said "Not a directory"."""
    database = tmp_path / "sheepfold.db"
    if existing:
        database.write_bytes(b"")
    given = f"{database}/"
    done = sheepfold(*command_args, "--db", given, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        f"argument --db: {given!r} ends in '/', which names a folder: name a file"
    )
    assert database.exists() == existing, "nothing is made"


def test_health_of_an_unknown_service_says_which(server: ServerProcess) -> None:
    done = sheepfold("health", "--addr", server.address, "--service", "nope", timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold health: {server.address}: NOT_FOUND: the server has no service 'nope'"
    )


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
    assert one_line(done) == f"sheepfold health: {address}: DEADLINE_EXCEEDED: no answer within 1 s"


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
        f"sheepfold health: {address}: UNAVAILABLE: it does not speak gRPC (it answered in "
        "something other than HTTP/2: a web server?)"
    )


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


def test_bot_help_warns_that_a_token_flag_is_in_the_process_list() -> None:
    """Whoever reads `ps` on the machine and joins with a seat's token plays that
    seat: the help says so and names the variable that keeps it out of sight, as
    `serve --admin-token` does."""
    done = sheepfold("bot", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "$SHEEPFOLD_TOKEN" in text
    assert "process list" in text
