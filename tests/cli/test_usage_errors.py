"""Bad flag values that once ended in a bare "sheepfold: ..." line with exit 1,
a database path that is no file, and a serve flag that was silently ignored."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from cli.addresses import ray_address
from cli.main import main
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
        # Ray's own check, after the config was read, said "is not HOST:PORT"
        (
            ("tournament", "run", "c.toml", "--ray", "127.0.0.1:99999"),
            "sheepfold tournament run: error: argument --ray: '127.0.0.1:99999': "
            "99999 is not a port: use 1 to 65535",
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


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (("health", "--server", "127.0.0.1:1"), "--addr"),
        (("health", "--port", "50051"), "--addr"),
        (("bot", "--addr", "127.0.0.1:1"), "--server"),
        (("web", "--address", "127.0.0.1:1"), "--server"),
        (("tournament", "run", "cup.toml", "--addr=127.0.0.1:1"), "--server"),
        (("health", "--servic", "x"), "--service"),  # a typo still gets the flag it resembles
    ],
)
def test_another_command_s_address_flag_is_told_this_command_s(
    args: tuple[str, ...], meant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`health --server ADDR`, as every other client command takes its server,
    was told "did you mean --service?" (a gRPC service's name), by spelling
    alone; `bot --addr ADDR`, as health takes it, was told nothing."""
    with pytest.raises(SystemExit) as stopped:
        main(list(args))
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(f"(did you mean {meant}?)")


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "ray://head:0", "[::1]:65536"])
def test_a_ray_address_s_port_out_of_range_is_told_the_range(address: str) -> None:
    port = address.rpartition(":")[2]
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        ray_address(address)
    assert str(refused.value) == f"{address!r}: {port} is not a port: use 1 to 65535"
    assert ray_address("ray://head:10001") == "ray://head:10001"
    assert ray_address("auto") == "auto"
