"""`match --bot SPEC`, one seat each, beside `--bots`: the list is split at
every comma, so a `cmd:` bot whose arguments hold one could not be given, and
the refusal did not say how to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold

MATCH = ("match", "--game", "sheep-n-sheep", "--players", "2")
# What a refusal of a --bots list naming a cmd: bot ends with.
SPLIT_AT_COMMAS = (
    " (--bots is split at every comma, a cmd: bot's arguments too: give each seat "
    "its own --bot SPEC instead, e.g. --bot random --bot 'cmd:./mybot --teams a,b')"
)


def test_a_command_bot_s_argument_with_a_comma_reaches_it_whole(tmp_path: Path) -> None:
    written = tmp_path / "argument"
    program = f"cmd:/bin/sh -c 'printf %s \"$1\" > {written}' sh --teams=a,b"
    done = sheepfold(
        *MATCH,
        "--bot",
        "random",
        "--bot",
        program,
        "--no-sandbox",
        "--seed",
        "11",
        "--json",
        timeout=120,
    )
    # The program leaves without playing: a random stand-in plays its seat.
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["bots"] == ["random", program]
    assert written.read_text() == "--teams=a,b"


@pytest.mark.parametrize(
    ("bots", "players", "line"),
    [
        (
            "cmd:/bin/true a,b",
            "2",
            "unknown bot 'b': use a built-in (greedy, mcts, random) or module:Class",
        ),
        ("random,cmd:/bin/true a,random", "2", "--players is 2 but --bots names 3 bots"),
        (
            "cmd:/bin/true a,",
            "1",
            "--bots 'cmd:/bin/true a,': entry 2 is empty (of 2): give one bot spec per seat",
        ),
    ],
    ids=["unknown-bot", "count", "empty-entry"],
)
def test_a_bot_list_refused_with_a_command_bot_points_at_the_bot_flag(
    bots: str, players: str, line: str
) -> None:
    args = ("match", "--game", "sheep-n-sheep", "--players", players, "--bots", bots)
    done = sheepfold(*args, "--no-sandbox")
    assert (done.returncode, one_line(done)) == (2, f"sheepfold match: {line}{SPLIT_AT_COMMAS}")


def test_a_bot_list_without_a_command_bot_is_refused_as_it_was() -> None:
    done = sheepfold(*MATCH, "--bots", "random,random,random")
    assert (done.returncode, one_line(done)) == (
        2,
        "sheepfold match: --players is 2 but --bots names 3 bots",
    )


@pytest.mark.parametrize(
    ("flags", "line"),
    [
        (("--bot", "random"), "sheepfold match: --players is 2 but the --bot flags name 1 bot"),
        (
            ("--bot", "random", "--bot", " "),
            "sheepfold match: --bot '' is empty: give one bot spec per --bot",
        ),
        (
            ("--bot", "random", "--bot", "rnadom"),
            "sheepfold match: unknown bot 'rnadom': use a "
            "built-in (greedy, mcts, random) or module:Class",
        ),
    ],
    ids=["count", "empty", "unknown"],
)
def test_the_bot_flags_are_checked_as_the_list_is(flags: tuple[str, ...], line: str) -> None:
    done = sheepfold(*MATCH, *flags)
    assert (done.returncode, one_line(done)) == (2, line)


def test_the_bot_flags_and_the_list_do_not_go_together() -> None:
    done = sheepfold(*MATCH, "--bots", "random,random", "--bot", "random")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "sheepfold match: error: argument --bot: not allowed with argument --bots"
    )
