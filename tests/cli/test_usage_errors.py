"""Bad flag values that once ended in a bare "sheepfold: ..." line with exit 1,
a database path that is no file, and a serve flag that was silently ignored."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from tests.cli.helpers import one_line, random_cup, sheepfold

MATCH = ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,cmd:/bin/true")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("create", "--game", "sheep-showdown", "--players", "2", "--option", "rounds"),
            "sheepfold create: error: argument --option: 'rounds' must look like key=value",
        ),
        (
            (*MATCH, "--limit", "memory_mb"),
            "sheepfold match: error: argument --limit: 'memory_mb' must look like key=value",
        ),
        (
            (*MATCH, "--limit", "memory_mb=abc"),
            "sheepfold match: error: argument --limit: memory_mb: 'abc' is not a number",
        ),
        (
            (*MATCH, "--limit", "foo=1"),
            "sheepfold match: error: argument --limit: foo: unknown limit",
        ),
        (
            ("tournament", "sprt", "c.toml", "--server", "127.0.0.1:1,127.0.0.1:2"),
            "sheepfold tournament sprt: error: argument --server: '127.0.0.1:1,127.0.0.1:2' "
            "names several servers; this command plays on one HOST:PORT",
        ),
        (
            ("create", "--game", "sheep-n-sheep", "--players", "2", "--server", "a:1,b:2"),
            "sheepfold create: error: argument --server: 'a:1,b:2' names several servers",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--tournament-db", "t.sqlite"),
            "sheepfold serve: --tournament-db is for the web viewer: add --web-port PORT",
        ),
        # The viewer's other flags were taken without --web-port and did nothing.
        (
            ("serve", "--port", "0", "--db", ":memory:", "--web-allowed-host", "viewer.example"),
            "sheepfold serve: --web-allowed-host is for the web viewer: add --web-port PORT",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--web-host", "0.0.0.0"),
            "sheepfold serve: --web-host is for the web viewer: add --web-port PORT",
        ),
        # Its default too: it was counted as given only when it differed.
        (
            ("serve", "--port", "0", "--db", ":memory:", "--web-host", "127.0.0.1"),
            "sheepfold serve: --web-host is for the web viewer: add --web-port PORT",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--web-max-connections", "5"),
            "sheepfold serve: --web-max-connections is for the web viewer",
        ),
        (
            ("serve", "--port", "0", "--web-max-connections-per-address", "5"),
            "sheepfold serve: --web-max-connections-per-address is for the web viewer",
        ),
        # A number typed at its default too: it was counted as given only when it differed.
        (
            ("serve", "--port", "0", "--db", ":memory:", "--web-max-connections", "1000"),
            "sheepfold serve: --web-max-connections is for the web viewer",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--web-max-connections-per-address=64"),
            "sheepfold serve: --web-max-connections-per-address is for the web viewer",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--metrics-host", "0.0.0.0"),
            "sheepfold serve: --metrics-host is for the metrics port: add --metrics-port PORT",
        ),
        # An empty path is the current folder to pathlib, which was named instead.
        (("tournament", "run", ""), "sheepfold tournament: no config file given"),
        (("tournament", "sprt", ""), "sheepfold tournament: no config file given"),
    ],
)
def test_a_bad_flag_is_a_usage_error(args: tuple[str, ...], message: str) -> None:
    done = sheepfold(*args, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(message), done.stderr


def test_replay_says_what_its_db_path_is(tmp_path: Path) -> None:
    fifo = tmp_path / "db.fifo"
    os.mkfifo(fifo)
    for path, said in (
        (tmp_path, f"{tmp_path} is a folder, not a database file"),
        (Path("/dev/zero"), "/dev/zero is not a regular file, so it holds no database"),
        (fifo, f"{fifo} is not a regular file, so it holds no database"),
    ):
        done = sheepfold("replay", "some-match", "--db", str(path), timeout=30)
        assert done.returncode == 1
        assert done.stderr.strip() == f"sheepfold replay: {said}"


# A byte that is not UTF-8 (a Latin-1 "ÿ"), as a shell passes `$'\xff'`.
NOT_UTF8 = os.fsdecode(b"\xff")


@pytest.mark.parametrize(
    "args",
    [
        ("replay", NOT_UTF8, "--db", "{folder}/t.sqlite"),
        ("create", "--game", NOT_UTF8, "--players", "2", "--server", "127.0.0.1:1"),
        ("health", "--addr", "127.0.0.1:1", "--service", NOT_UTF8),
        ("bot", "--server", f"{NOT_UTF8}:1", "--match", "m", "--token", "t"),
        ("serve", "--port", "0", "--db", f"{{folder}}/{NOT_UTF8}.db"),
    ],
)
def test_an_argument_that_is_not_utf8_is_a_usage_error(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Each once ended in a UnicodeEncodeError traceback (gRPC, SQLite and the
    protocol take UTF-8 alone), `serve --db` after it had made the file."""
    done = sheepfold(*(arg.format(folder=tmp_path) for arg in args), timeout=30)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"sheepfold {args[0]}: an argument '"), line
    assert line.endswith("' is not UTF-8 text (names, ids, tokens, addresses and paths are UTF-8)")
    assert "\\xff" in line, line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("variable", "args"),
    [
        ("SHEEPFOLD_SERVER", ("create", "--game", "sheep-showdown", "--players", "2")),
        ("SHEEPFOLD_HEALTH_ADDR", ("health",)),
        ("SHEEPFOLD_ADMIN_TOKEN", ("create", "--game", "sheep-showdown", "--players", "2")),
    ],
)
def test_a_variable_that_is_not_utf8_is_a_usage_error(variable: str, args: tuple[str, ...]) -> None:
    done = sheepfold(*args, env={variable: f"{NOT_UTF8}:1"}, timeout=30)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"sheepfold {args[0]}: ${variable} '\\xff:1' is not UTF-8 text "
        "(names, ids, tokens, addresses and paths are UTF-8)"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "2", "--bots", "random,random", "--option", "rounds=9"),
         "sheepfold match: option 'rounds' must be at most 3"),
        (("--players", "2", "--bots", "random,random", "--option", "rounds=nan"),
         "sheepfold match: option 'rounds' must be a whole number, not 'nan'"),
        (("--players", "2", "--bots", "random,random", "--option", "colour=red"),
         "sheepfold match: unknown option 'colour' (this game's options: double_trouble, rounds)"),
        (("--players", "7", "--bots", ",".join(["random"] * 7)),
         "sheepfold match: sheep-showdown takes 2 to 6 players, not 7"),
    ],
)  # fmt: skip
def test_a_match_option_or_player_count_the_game_refuses_is_a_usage_error(
    args: tuple[str, ...], message: str
) -> None:
    """As the same value in a tournament's config is (exit 2); `match` once exited 1."""
    done = sheepfold("match", "--game", "sheep-showdown", *args, timeout=30)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [message]


@pytest.mark.parametrize(
    ("variable", "value", "args", "message"),
    [
        (
            "SHEEPFOLD_PORT",
            "abc",
            ("serve", "--db", ":memory:"),
            "sheepfold serve: error: argument --port: $SHEEPFOLD_PORT: 'abc' is not a port number",
        ),
        (
            "SHEEPFOLD_METRICS_PORT",
            "9100x",
            ("serve", "--db", ":memory:"),
            "sheepfold serve: error: argument --metrics-port: $SHEEPFOLD_METRICS_PORT: '9100x'",
        ),
        (
            "SHEEPFOLD_HEALTH_PORT",
            "70000",
            ("serve", "--db", ":memory:"),
            "sheepfold serve: error: argument --health-port: $SHEEPFOLD_HEALTH_PORT: '70000'",
        ),
        (
            "SHEEPFOLD_HEALTH_PORT",
            "abc",
            ("health",),
            "sheepfold health: error: argument --addr: $SHEEPFOLD_HEALTH_PORT: '127.0.0.1:abc'",
        ),
        (
            "SHEEPFOLD_SERVER",
            "nowhere",
            ("create", "--game", "sheep-n-sheep"),
            "sheepfold create: error: argument --server: $SHEEPFOLD_SERVER: 'nowhere'",
        ),
        (
            "SHEEPFOLD_SEAT",
            "first",
            ("bot",),
            "sheepfold bot: error: argument --seat: $SHEEPFOLD_SEAT: 'first' must be a whole",
        ),
    ],
)
def test_a_bad_variable_is_named_in_its_usage_error(
    variable: str, value: str, args: tuple[str, ...], message: str
) -> None:
    # A container given `-e SHEEPFOLD_PORT=abc` and no flag once read only
    # "argument --port: 'abc' ...", naming a flag nobody had typed.
    done = sheepfold(*args, env={variable: value}, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(message), done.stderr


def test_a_flag_given_wins_over_a_bad_variable_and_its_error_names_the_flag() -> None:
    done = sheepfold(
        "serve", "--db", ":memory:", "--port", "x", env={"SHEEPFOLD_PORT": "abc"}, timeout=30
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "sheepfold serve: error: argument --port: 'x' is not a port number (0 to 65535)"
    )


@pytest.mark.parametrize(
    ("flags", "line"),
    [
        (
            ("--candidate", "nosuch"),
            "--candidate: must be the name of one of the bots, not 'nosuch'",
        ),
        (("--elo0", "5", "--elo1", "1"), "--elo1: must be above elo0 (5.0), not 1.0"),
    ],
)
def test_a_bad_sprt_flag_is_named_as_the_flag_not_the_config(
    tmp_path: Path, flags: tuple[str, ...], line: str
) -> None:
    """`tournament sprt cup.toml --candidate nosuch` once blamed 'cup.toml:
    sprt.candidate', a table the file does not have: the user looked there."""
    config = tmp_path / "cup.toml"
    config.write_text(random_cup())
    done = sheepfold("tournament", "sprt", str(config), *flags)
    assert (done.returncode, one_line(done)) == (2, f"sheepfold tournament: {line}")


@pytest.mark.parametrize(
    ("bots", "line"),
    [
        ("random,", "--bots 'random,': entry 2 is empty (of 2)"),
        (",random", "--bots ',random': entry 1 is empty (of 2)"),
        ("random,,random", "--bots 'random,,random': entry 2 is empty (of 3)"),
        ("random, ,", "--bots 'random, ,': entries 2, 3 are empty (of 3)"),
        ("", "--bots is empty"),
    ],
)
def test_an_empty_entry_in_a_bot_list_is_named(bots: str, line: str) -> None:
    """ "random," was refused as naming 1 bot for 2 players, the empty entry
    that made it one unsaid; with 1 player it played a match."""
    for players in ("2", "1"):
        args = ("match", "--game", "sheep-and-garden", "--players", players, "--bots", bots)
        done = sheepfold(*args)
        assert (done.returncode, one_line(done)) == (
            2,
            f"sheepfold match: {line}: give one bot spec per seat",
        )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,rnadom"),
            "sheepfold match: unknown bot 'rnadom': use a built-in (greedy, mcts, random) "
            "or module:Class",
        ),
        (
            ("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", "--bot", "./x.py"),
            "sheepfold bot: unknown bot './x.py': use a built-in (greedy, mcts, random) "
            "or module:Class",
        ),
        (
            # A pasted screenful, once quoted back whole.
            (
                "match",
                "--game",
                "sheep-n-sheep",
                "--players",
                "2",
                "--bots",
                "random," + "r" * 100_000,
            ),
            "sheepfold match: unknown bot '" + "r" * 36 + "...: use a built-in (greedy, mcts, "
            "random) or module:Class",
        ),
    ],
    ids=["match", "bot", "long"],
)
def test_a_bot_name_that_is_no_built_in_is_a_usage_error(args: tuple[str, ...], line: str) -> None:
    """Exit 1 once, the status of a bot that failed to load or to play; an
    unknown --game, and an unknown builtin in a tournament config, are 2."""
    done = sheepfold(*args)
    assert done.returncode == 2
    assert one_line(done) == line


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            (
                "create",
                "--game",
                "sheep-showdown",
                "--players",
                "2",
                "--option",
                "rounds=1",
                "--option",
                "rounds=3",
            ),
            "sheepfold create: error: argument --option: rounds given twice ('1', then '3'): "
            "give it once",
        ),
        (
            (*MATCH, "--option", "rounds=1", "--option", "rounds = 2"),
            "sheepfold match: error: argument --option: rounds given twice ('1', then '2'): "
            "give it once",
        ),
        (
            (*MATCH, "--limit", "memory_mb=100", "--limit", "memory_mb=200"),
            "sheepfold match: error: argument --limit: memory_mb given twice (100, then 200): "
            "give it once",
        ),
    ],
    ids=["create-option", "match-option", "match-limit"],
)
def test_a_key_given_twice_with_two_values_is_a_usage_error(
    args: tuple[str, ...], line: str
) -> None:
    """The later value once won without a word, as a TOML table refuses."""
    done = sheepfold(*args)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == line
    assert "Traceback" not in done.stderr


def test_tournament_run_refuses_metrics_host_without_metrics_port(tmp_path: Path) -> None:
    """It was taken and ignored: the run played, serving no metrics, while the
    user believed them served (serve refused the same flags already)."""
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(database=str(tmp_path / "cup.sqlite")))
    done = sheepfold("tournament", "run", str(config), "--metrics-host", "127.0.0.1")
    assert done.returncode == 2
    assert one_line(done) == (
        "sheepfold tournament: --metrics-host is for the metrics port: add --metrics-port PORT"
    )
    assert not (tmp_path / "cup.sqlite").exists()


@pytest.mark.parametrize("subcommand", ["run", "sprt"])
def test_a_tournament_refuses_an_admin_token_without_a_server(
    tmp_path: Path, subcommand: str
) -> None:
    """It was taken and unused (the in-process server makes its own token), as
    `match --admin-token` without --server is not."""
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(database=str(tmp_path / "cup.sqlite")))
    done = sheepfold("tournament", subcommand, str(config), "--admin-token", "s3cret")
    assert done.returncode == 2
    assert one_line(done) == (
        "sheepfold tournament: --admin-token is for --server (the in-process "
        "server makes its own token)"
    )
    assert not (tmp_path / "cup.sqlite").exists()


def test_a_tournament_without_a_server_ignores_the_admin_token_variable(tmp_path: Path) -> None:
    """$SHEEPFOLD_ADMIN_TOKEN, set for other commands, stops no local run."""
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=1, database=str(tmp_path / "cup.sqlite")))
    done = sheepfold(
        "tournament", "run", str(config), "--no-report", env={"SHEEPFOLD_ADMIN_TOKEN": "s3cret"}
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            (*MATCH, "--server", "127.0.0.1:1"),
            "sheepfold match: sandboxed command bots reach the server only through its Unix "
            "socket: pass --server unix:PATH (sheepfold serve --listen unix:PATH)",
        ),
        (
            ("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t",
             "--bot", "cmd:/bin/true"),
            "sheepfold bot: a sandboxed command bot reaches the server only through its Unix "
            "socket: pass --server unix:PATH (sheepfold serve --listen unix:PATH)",
        ),
        (
            ("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t",
             "--bot", "cmd:/bin/true", "--tls"),
            "sheepfold bot: --tls and --tls-ca are for this command's own calls; a command bot "
            "connects to the server by itself (sandboxed ones through a Unix socket)",
        ),
    ],
)  # fmt: skip
def test_flags_that_cannot_go_together_are_a_usage_error(args: tuple[str, ...], line: str) -> None:
    """Found once the flags are parsed, they once exited 1, the status of a
    command that could not do its work."""
    done = sheepfold(*args)
    assert (done.returncode, one_line(done)) == (2, line)


def test_an_argument_that_is_not_utf8_before_any_command_is_the_programs() -> None:
    """No command named first (or the command's name itself not UTF-8): the
    line is the program's, `sheepfold:`; with one, it names it, as every other
    line of that command does (it once said `sheepfold:` for all)."""
    for args in ((NOT_UTF8,), ("--version", NOT_UTF8)):
        done = sheepfold(*args, timeout=30)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("sheepfold: an argument '\\xff' is not UTF-8"), done.stderr


def test_the_commands_named_before_parsing_are_the_parsers() -> None:
    from cli.main import COMMANDS, build_parser

    parser = build_parser()
    [commands] = [
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    ]
    assert set(commands.choices) == COMMANDS


@pytest.mark.parametrize(
    ("args", "per_address", "total"),
    [
        (
            ("web", "--server", "127.0.0.1:1", "--port", "0", "--max-connections", "5",
             "--max-connections-per-address", "6"),
            "--max-connections-per-address 6", "--max-connections 5",
        ),
        (
            ("web", "--server", "127.0.0.1:1", "--port", "0",
             "--max-connections-per-address", "1001"),
            "--max-connections-per-address 1001", "--max-connections 1000",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--web-port", "0",
             "--web-max-connections", "5", "--web-max-connections-per-address", "6"),
            "--web-max-connections-per-address 6", "--web-max-connections 5",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--max-pending-joins", "11",
             "--max-pending-joins-total", "10"),
            "--max-pending-joins 11", "--max-pending-joins-total 10",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--max-watchers-per-address", "101"),
            "--max-watchers-per-address 101", "--max-watchers 100",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--max-watch-streams", "6",
             "--max-watch-streams-per-address", "7"),
            "--max-watch-streams-per-address 7", "--max-watch-streams 6",
        ),
        # A bound typed at its default is given too: it was taken when its total
        # was lowered below it, as if the user had set only the total.
        (
            ("serve", "--port", "0", "--db", ":memory:", "--max-watchers", "5",
             "--max-watchers-per-address", "16"),
            "--max-watchers-per-address 16", "--max-watchers 5",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--max-pending-joins-total", "50",
             "--max-pending-joins=100"),
            "--max-pending-joins 100", "--max-pending-joins-total 50",
        ),
        (
            ("web", "--server", "127.0.0.1:1", "--port", "0", "--max-connections", "10",
             "--max-connections-per-address", "64"),
            "--max-connections-per-address 64", "--max-connections 10",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--max-request-bytes", "4194305"),
            "--max-request-bytes 4194305", "--max-message-bytes 4194304",
        ),
        (
            ("serve", "--port", "0", "--db", ":memory:", "--max-message-bytes", "1048576",
             "--max-request-bytes", "2000000"),
            "--max-request-bytes 2000000", "--max-message-bytes 1048576",
        ),
    ],
)  # fmt: skip
def test_a_bound_above_the_bound_holding_it_is_a_usage_error(
    args: tuple[str, ...], per_address: str, total: str
) -> None:
    """Taken, the bound on one address told the user a client could hold more
    than the bound on every address together lets it, and it was never reached;
    a --max-request-bytes above --max-message-bytes was cut to it without a word."""
    done = sheepfold(*args, timeout=30)
    flag, total_flag = per_address.split()[0], total.split()[0]
    assert (done.returncode, one_line(done)) == (
        2,
        f"sheepfold {args[0]}: {per_address} is above {total}, so it can never be reached: "
        f"lower {flag} or raise {total_flag}",
    )


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
