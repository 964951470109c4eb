"""Values a flag or a file cannot be used with: each is a usage error (exit 2)
or one line (exit 1) before anything starts, never a traceback, and a command
that only reads a database never writes to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import one_line, random_cup, sheepfold

pytestmark = pytest.mark.e2e


def _cup(folder: Path) -> str:
    config = folder / "cup.toml"
    config.write_text(random_cup("sheep-n-sheep", name=None))
    return str(config)


UNREACHABLE = "127.0.0.1:1"
MATCH = ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random")
MATCH += ("--server", UNREACHABLE)
CREATE = ("create", "--game", "sheep-n-sheep", "--players", "2", "--server", UNREACHABLE)


def _case_id(case: object) -> str:
    if isinstance(case, tuple):
        return "-".join(word for word in case[:2] if not word.startswith("-"))
    return str(case)


@pytest.mark.parametrize(
    ("command", "flag", "value"),
    [
        # an empty --db once meant "the config's database", silently
        (("tournament", "run", "@CUP", "--server", UNREACHABLE), "--db", ""),
        (("tournament", "sprt", "@CUP", "--server", UNREACHABLE), "--db", ""),
        (
            (
                "tournament",
                "report",
            ),
            "--db",
            "",
        ),
        (("tournament", "forget", "a"), "--db", ""),
        # a port bind() cannot take: once an OverflowError traceback
        (("tournament", "run", "@CUP", "--server", UNREACHABLE), "--metrics-port", "99999"),
        (("tournament", "run", "@CUP", "--server", UNREACHABLE), "--metrics-port", "-1"),
        (("tournament", "run", "@CUP", "--server", UNREACHABLE), "--ray-cpus", "0"),
        (("tournament", "run", "@CUP", "--server", UNREACHABLE), "--ray-cpus", "4097"),
        # nan once reached the SPRT as a bound no LLR ever crosses
        (("tournament", "sprt", "@CUP", "--server", UNREACHABLE), "--elo0", "nan"),
        (("tournament", "sprt", "@CUP", "--server", UNREACHABLE), "--elo1", "inf"),
        (("tournament", "sprt", "@CUP", "--server", UNREACHABLE), "--alpha", "nan"),
        (("tournament", "sprt", "@CUP", "--server", UNREACHABLE), "--beta", "-inf"),
        (("tournament", "sprt", "@CUP", "--server", UNREACHABLE), "--max-games", "0"),
        (("tournament", "sprt", "@CUP", "--server", UNREACHABLE), "--max-games", "1000001"),
        # 100,000,000 samples ran for minutes; -1 was taken
        (("tournament", "report", "--db", "@CUP"), "--bootstrap", "-1"),
        (("tournament", "report", "--db", "@CUP"), "--bootstrap", "100000000"),
        # the wire's int32: once a ValueError traceback from protobuf
        (("bot", "--match", "m", "--token", "t", "--server", UNREACHABLE), "--seat", str(2**31)),
        (("bot", "--match", "m", "--token", "t", "--server", UNREACHABLE), "--seat", "-1"),
        # a health check that waits nan, -1 or forever
        (("health", "--addr", UNREACHABLE), "--timeout", "nan"),
        (("health", "--addr", UNREACHABLE), "--timeout", "-1"),
        (("health", "--addr", UNREACHABLE), "--timeout", "inf"),
        (("health", "--addr", UNREACHABLE), "--timeout", "3601"),
        # float() reads them (3 s, 10 s), as a whole-number flag does not
        (("health", "--addr", UNREACHABLE), "--timeout", "\u0663"),
        (MATCH, "--decision-seconds", "1_0"),
        # once six lines of gRPC's own log, or port 99999 dialled as 34463
        (("health", "--timeout", "2"), "--addr", ""),
        (("health", "--timeout", "2"), "--addr", "127.0.0.1:99999"),
        # once "empty address list" from gRPC after the connect timeout
        (("health", "--timeout", "2"), "--addr", "unix:"),
        (("create", "--game", "sheep-n-sheep", "--players", "2"), "--server", "unix:"),
        # a deadline the server refuses anyway
        (MATCH, "--decision-seconds", "nan"),
        (MATCH, "--decision-seconds", "-1"),
        (MATCH, "--decision-seconds", "0.0005"),
        # create once sent these to the server and printed its refusal (exit 1)
        (CREATE, "--decision-seconds", "nan"),
        (CREATE, "--decision-seconds", "inf"),
        (CREATE, "--decision-seconds", "99999"),
        # a seed past what a game's seed may be (once a ValueError traceback), and a
        # demo that would not end
        (("demo",), "--seed", "-1"),
        (("demo",), "--seed", str(2**70)),
        (("demo",), "--games-per-pairing", "0"),
        (("demo",), "--games-per-pairing", "101"),
        # `--admin-token "$(cat FILE)"` with a FILE that could not be read once
        # started a server that let anyone create matches
        (("serve", "--port", "0", "--db", ":memory:"), "--admin-token", ""),
        (("serve", "--port", "0", "--db", ":memory:"), "--admin-token", "  "),
    ],
    ids=_case_id,
)
def test_a_flag_value_the_command_cannot_use_is_a_usage_error(
    command: tuple[str, ...], flag: str, value: str, tmp_path: Path
) -> None:
    cup = _cup(tmp_path)
    args = [cup if arg == "@CUP" else arg for arg in command]
    done = sheepfold(*args, f"{flag}={value}", timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].split(": error: ")[1].startswith(f"argument {flag}:")


def test_the_bootstrap_bound_reads_as_in_the_help(tmp_path: Path) -> None:
    """The error said 100000 where the help says 100,000."""
    done = sheepfold("tournament", "report", "--db", _cup(tmp_path), "--bootstrap", "100001")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith(
        "argument --bootstrap: '100001' must be a whole number from 0 to 100,000"
    )
    shown = sheepfold("tournament", "report", "--help")
    assert "0 to 100,000" in " ".join(shown.stdout.split())


@pytest.mark.parametrize("command", ["run", "sprt", "report", "forget"])
def test_a_tournament_database_that_is_a_folder_is_one_line(command: str, tmp_path: Path) -> None:
    """Once an sqlite3.OperationalError traceback ("unable to open database file")."""
    folder = tmp_path / "results"
    folder.mkdir()
    args = {
        "run": ("run", _cup(tmp_path), "--server", UNREACHABLE),
        "sprt": ("sprt", _cup(tmp_path), "--server", UNREACHABLE),
        "report": ("report",),
        "forget": ("forget", "a"),
    }[command]
    done = sheepfold("tournament", *args, "--db", str(folder), timeout=30)
    assert done.returncode == 1
    assert one_line(done) == f"sheepfold tournament: {folder} is a folder, not a database file"


@pytest.mark.parametrize("command", ["run", "report"])
def test_a_tournament_database_path_that_cannot_be_one_is_one_line(
    command: str, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("a file, not a folder\n")
    args = ("run", _cup(tmp_path), "--server", UNREACHABLE) if command == "run" else ("report",)
    under_a_file = sheepfold("tournament", *args, "--db", str(notes / "t.sqlite"), timeout=30)
    assert under_a_file.returncode == 1
    assert one_line(under_a_file) == (
        f"sheepfold tournament: cannot create {notes / 't.sqlite'}: {notes} is not a folder"
        if command == "run"
        else f"sheepfold tournament: no database at {notes / 't.sqlite'}"
    )
    device = sheepfold("tournament", *args, "--db", "/dev/null", timeout=30)
    assert device.returncode == 1
    assert one_line(device) == (
        "sheepfold tournament: /dev/null is not a regular file, so it cannot hold a database"
    )
    too_long = sheepfold("tournament", *args, "--db", "x" * 5000, timeout=30)
    assert too_long.returncode == 1
    assert one_line(too_long).startswith("sheepfold tournament: cannot use xxx")
    assert one_line(too_long).endswith("File name too long")


@pytest.mark.parametrize("command", ["tournament", "serve"])
def test_a_metrics_host_that_is_no_host_name_is_one_line(tmp_path: Path, command: str) -> None:
    """A label over 63 characters: once a UnicodeError traceback from the idna codec,
    then exit 1 on "cannot serve metrics on HOST:0"; no host name is the user's
    mistake (exit 2, the flag named with its value)."""
    host = "x" * 100
    if command == "tournament":
        args = ("tournament", "run", _cup(tmp_path), "--db", str(tmp_path / "t.sqlite"))
    else:
        args = ("serve", "--db", ":memory:", "--port", "0")
    done = sheepfold(*args, "--metrics-port", "0", "--metrics-host", host, timeout=30)
    assert done.returncode == 2
    line = f"sheepfold {command}: --metrics-host {host!r}: not a host name"
    assert one_line(done).startswith(line)


def test_the_sdk_refuses_a_seat_the_wire_cannot_carry_before_connecting() -> None:
    """`play(seat=2**31)` once failed deep in protobuf, after connecting."""
    import asyncio

    from clients.sdk import play

    class Idle:
        def decide(self, decision: object) -> int:
            return 0

    with pytest.raises(ValueError, match=r"^seat 2147483648 is out of range"):
        asyncio.run(play(Idle(), UNREACHABLE, "m", "t", 2**31))


def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path: Path) -> None:
    """Each once an OSError traceback ("File name too long")."""
    long_name = str(tmp_path / ("x" * 5000))
    for args in (
        ("replay", "m", "--db", long_name),
        ("web", "--port", "0", "--tournament-db", long_name),
        (
            "serve",
            "--db",
            ":memory:",
            "--port",
            "0",
            "--web-port",
            "0",
            "--tournament-db",
            long_name,
        ),
    ):
        done = sheepfold(*args, timeout=30)
        assert done.returncode == 1, args
        # The path, a word past 200 characters, is quoted by its first 60 and "...".
        line = one_line(done)
        assert line.startswith(f"sheepfold {args[0]}: cannot use {long_name[:60]}..."), args
        assert line.endswith("File name too long") and len(line) < 200, args


@pytest.mark.parametrize("command", ["web", "serve"])
@pytest.mark.parametrize(
    ("host", "reason"),
    [
        # A label over 63 characters: once a UnicodeError traceback from the idna codec.
        ("x" * 100, "not a host name"),
        # serve once said "unknown error -2": getaddrinfo's error number read as errno's.
        ("no such host", "no such host (Name or service not known)"),
    ],
    ids=["label-too-long", "unresolved"],
)
def test_a_web_host_that_is_no_host_name_is_one_line(command: str, host: str, reason: str) -> None:
    """The user's mistake, as a malformed address is (exit 2, the flag named with
    its value): it once exited 1 on "cannot listen on HOST:0", the status of a
    server that could not start."""
    args = (
        ("web", "--port", "0", "--host", host)
        if command == "web"
        else ("serve", "--db", ":memory:", "--port", "0", "--web-port", "0", "--web-host", host)
    )
    done = sheepfold(*args, timeout=30)
    assert done.returncode == 2
    flag = "--host" if command == "web" else "--web-host"
    assert one_line(done).startswith(f"sheepfold {command}: {flag} {host!r}: {reason}")


@pytest.mark.parametrize("command", ["report", "forget"])
def test_reading_an_empty_tournament_database_leaves_it_empty(command: str, tmp_path: Path) -> None:
    """`report` once wrote a schema into an empty file, then said it held no tournament."""
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    args = ("report",) if command == "report" else ("forget", "a")
    done = sheepfold("tournament", *args, "--db", str(empty), timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold tournament: {empty} is an empty file, not a tournament database"
    )
    assert empty.stat().st_size == 0
