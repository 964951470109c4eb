"""A value pasted into a command line (100,000 characters, a path holding a
newline) is quoted back cut short and on one line, in usage errors and in a
command's own errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import sheepfold


def test_replay_quotes_a_long_match_id_cut_short(tmp_path: Path) -> None:
    """A 100,000-character id was quoted back whole: 100 KB on one line."""
    from server.sqlite_store import SqliteStore

    db = tmp_path / "server.db"
    SqliteStore(db).close()
    done = sheepfold("replay", "x" * 100_000, "--db", str(db), timeout=30)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"sheepfold replay: no match '{'x' * 36}... in the server database {db}"
    )


PASTED = "9" * 100_000


@pytest.mark.parametrize(
    "args",
    [
        ("create", "--game", PASTED, "--players", "2"),
        ("create", "--game", "sheep-n-sheep", "--players", PASTED),
        ("create", "--game", "sheep-n-sheep", "--players", "2", "--option", PASTED),
        ("create", "--game", "sheep-n-sheep", "--players", "2", PASTED),
        ("replay", "--wait", PASTED, "m"),
        ("serve", "--port", PASTED),
    ],
    ids=["choice", "number", "option", "unrecognized", "custom type", "port"],
)
def test_a_usage_error_quotes_a_pasted_value_cut_short(args: tuple[str, ...]) -> None:
    """argparse's own errors and the commands' checks of a value quoted a pasted
    100,000-character value whole: 100 KB of usage error."""
    done = sheepfold(*args, timeout=30)
    assert done.returncode == 2, done.stderr[-300:]
    assert "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "9" * 40 in line and "9" * 100 not in line, line[:300]
    assert "..." in line and len(done.stderr) < 3000, line[:300]


@pytest.mark.parametrize("command", [("replay", "m"), ("db", "info")])
def test_a_pasted_database_path_is_quoted_cut_short(command: tuple[str, ...]) -> None:
    """A 100,000-character --db was quoted whole: "cannot use /tmp/xxx...: File
    name too long", 100 KB on one line."""
    done = sheepfold(*command, "--db", "/tmp/" + "x" * 100_000, timeout=30)
    assert done.returncode == 1, done.stderr[-300:]
    assert done.stderr.strip() == (
        f"sheepfold {command[0]}: cannot use /tmp/{'x' * 55}...: File name too long"
    )


LONG_PATH = "/tmp/" + "p" * 100_000


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("serve", "--port", "0", "--db", LONG_PATH), 1),
        (
            (
                "serve",
                "--port",
                "0",
                "--db",
                ":memory:",
                "--tls-cert",
                LONG_PATH,
                "--tls-key",
                LONG_PATH,
            ),
            1,
        ),
        (("serve", "--port", "0", "--db", ":memory:", "--admin-token-file", LONG_PATH), 1),
        (("tournament", "run", LONG_PATH), 2),
        (("tournament", "sprt", LONG_PATH), 2),
        (("tournament", "report", "--db", LONG_PATH), 1),
        (("tournament", "forget", "bot", "--db", LONG_PATH), 1),
        (("web", "--port", "0", "--tournament-db", LONG_PATH), 1),
    ],
    ids=["serve db", "tls", "token file", "run", "sprt", "report", "forget", "web"],
)
def test_a_commands_own_error_quotes_a_pasted_path_cut_short(
    args: tuple[str, ...], code: int
) -> None:
    """The one-line errors that are not usage errors (a SystemExit's line, or
    one a command prints itself before exit 1) quoted a 100,000-character path
    whole: "sheepfold serve: cannot open --db /tmp/ppp...", 100 KB on one line."""
    done = sheepfold(*args, timeout=60)
    assert done.returncode == code, done.stderr[-300:]
    assert "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("sheepfold "), line[:300]
    assert "p" * 40 in line and "p" * 100 not in line, line[:300]
    assert "..." in line and len(done.stderr) < 3000, line[:300]


@pytest.mark.parametrize(
    "args",
    [
        ("serve", "--port", "0", "--db", ":memory:", "--tls-cert", "{p}", "--tls-key", "{p}"),
        ("tournament", "report", "--db", "{p}"),
        ("db", "info", "--db", "{p}"),
        (
            "match",
            "--game",
            "sheep-n-sheep",
            "--players",
            "2",
            "--bots",
            "random,cmd:/bin/true",
            "--bot-dir",
            "{p}",
        ),
    ],
    ids=["serve tls", "report", "db info", "bot-dir"],
)
def test_a_path_with_a_newline_is_quoted_on_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    """A path holding a newline (pasted from two lines) was printed as it is,
    its error broken over two lines; it is shown escaped, as \\n."""
    path = tmp_path / "two\nlines"
    path.write_text("not a certificate, nor a database")
    done = sheepfold(*(arg.replace("{p}", str(path)) for arg in args), timeout=60)
    assert done.returncode in (1, 2), done.stderr[-300:]
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("sheepfold ") and "two\\nlines" in lines[-1], done.stderr
    assert not any(line.startswith("lines") for line in lines), done.stderr
