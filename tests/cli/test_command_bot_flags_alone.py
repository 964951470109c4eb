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


def test_bot_names_the_command_bot_flags_it_ignores() -> None:
    done = sheepfold(
        "bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", "--bot", "random",
        "--no-sandbox", "--limit", "memory_mb=512",
    )  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0] == (
        "sheepfold bot: --no-sandbox and --limit apply only to command bots (cmd:PROGRAM), "
        "and --bot is none: ignored"
    ), done.stderr
    assert "cannot reach the server" in lines[-1], done.stderr
