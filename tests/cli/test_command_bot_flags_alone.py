"""`match` and `bot` given the flags of command bots (--bot-dir, --no-sandbox,
--limit, --read-only) but no command bot: they play, and say in one line on
stderr that those flags were ignored. They once did nothing with them without
a word, a --read-only path that does not exist included."""

from __future__ import annotations

import json

from tests.cli.helpers import sheepfold

MATCH = ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random")
ALL_FOUR = (
    "--bot-dir", ".", "--no-sandbox", "--limit", "cpus=1", "--read-only", "/no/such/path",
)  # fmt: skip


def test_match_plays_and_names_the_command_bot_flags_it_ignores() -> None:
    done = sheepfold(*MATCH, *ALL_FOUR, "--json")
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) >= {"scores", "ranks"}
    assert done.stderr.splitlines() == [
        "sheepfold match: --bot-dir, --no-sandbox, --limit and --read-only apply only to "
        "command bots (cmd:PROGRAM), and --bots names none: ignored"
    ]
    one = sheepfold(*MATCH, "--read-only", "/no/such/path", "--json")
    assert one.returncode == 0, one.stderr
    assert one.stderr.splitlines() == [
        "sheepfold match: --read-only applies only to command bots (cmd:PROGRAM), and "
        "--bots names none: ignored"
    ]


def test_match_without_those_flags_says_nothing_of_them() -> None:
    done = sheepfold(*MATCH, "--json")
    assert done.returncode == 0 and done.stderr == "", done.stderr


def _bot_of_no_server(*flags: str) -> list[str]:
    """`sheepfold bot FLAGS` for a server nobody runs: its lines on stderr."""
    done = sheepfold("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", *flags)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert "cannot reach the server" in lines[-1], done.stderr
    return lines


def test_bot_names_the_command_bot_flags_it_ignores() -> None:
    lines = _bot_of_no_server("--bot", "random", "--no-sandbox", "--limit", "memory_mb=512")
    assert lines[0] == (
        "sheepfold bot: --no-sandbox and --limit apply only to command bots (cmd:PROGRAM), "
        "and --bot is none: ignored"
    ), lines


def test_bot_names_rejoin_seconds_it_ignores_for_a_command_bot() -> None:
    """--rejoin-seconds is the SDK's, which a command bot's program does not run
    (it rejoins as it was written to): given with one, it once did nothing
    without a word, and a user waiting for a server to come back thought it set."""
    command_bot = ("--no-sandbox", "--bot", "cmd:{python} examples/command-bot/command_bot.py")
    lines = _bot_of_no_server(*command_bot, "--rejoin-seconds", "600")
    assert lines[0] == (
        "sheepfold bot: --rejoin-seconds applies only to built-in and module:Class bots "
        "(a command bot's program rejoins as it was written to): ignored"
    ), lines
    assert not any("--rejoin-seconds" in line for line in _bot_of_no_server(*command_bot))
