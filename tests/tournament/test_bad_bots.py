"""A tournament with a bot that cannot play: refused before the first game when
the config is wrong, a failed run when a bot crashed in every game, and the
ways out (`--rerun-crashed`, `tournament forget`). Run as a user runs it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

BOTS_OK = '[[bots]]\nname = "steady"\nbuiltin = "random"\n'


def tournament(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", "tournament", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


def _config(folder: Path, bots: str) -> Path:
    path = folder / "cup.toml"
    path.write_text(
        'name = "cup"\ngame = "sheep-n-sheep"\nplayers = 2\ngames_per_pairing = 1\n'
        f'python_path = ["."]\n{BOTS_OK}{bots}'
    )
    return path


def test_every_bot_is_checked_before_the_first_game(tmp_path: Path) -> None:
    (tmp_path / "nodecide.py").write_text("class Bot:\n    pass\n")
    config = _config(
        tmp_path,
        '[[bots]]\nname = "typo"\nbuiltin = "alphazero"\n'
        '[[bots]]\nname = "nomod"\nclass = "nosuchmod:Bot"\n'
        '[[bots]]\nname = "nodecide"\nclass = "nodecide:Bot"\n'
        '[[bots]]\nname = "noprog"\ncommand = ["/no/such/program"]\n'
        '[[bots]]\nname = "notonpath"\ncommand = ["no-such-program-on-path", "--x"]\n'
        '[[bots]]\nname = "byfile"\nclass = "nodecide.py:Bot"\n',
    )
    done = tournament("run", str(config))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    prefix = f"sheepfold tournament: {config}: "
    assert done.stderr.splitlines() == [
        prefix + "bots[1].builtin: no built-in bot 'alphazero' (known: greedy, mcts, random)",
        prefix + "bots[2].class: no module 'nosuchmod' (looked in the python_path folders and "
        "the installed packages)",
        prefix + "bots[3].class: 'nodecide:Bot' has no decide(decision) method",
        prefix + "bots[4].command: no program '/no/such/program' (looked at /no/such/program)",
        prefix + "bots[5].command: no program 'no-such-program-on-path' on PATH",
        # named by its file, as `match` tells how to name it (it once said only "no module")
        prefix + "bots[6].class: the module of nodecide.py is nodecide: write nodecide:Bot",
    ]
    assert not (tmp_path / "cup.sqlite").exists(), "nothing was played or stored"


def test_a_bot_whose_decide_comes_from_its_constructor_or_a_factory_plays(
    tmp_path: Path,
) -> None:
    """`sheepfold match` plays a class that sets `decide` in __init__, or a
    function that returns a bot; the tournament's check looked for `decide` on
    what the config names and refused both. A constructor that raises, or
    makes no `decide`, is still refused before the first game."""
    (tmp_path / "made.py").write_text(
        "from clients.bots import load_bot\n"
        "class Late:\n"
        "    def __init__(self, seed=0):\n"
        "        self.decide = load_bot('random', seed).decide\n"
        "def factory(seed=0):\n"
        "    return load_bot('random', seed)\n"
        "def nothing(seed=0):\n"
        "    return object()\n"
        "class Broken:\n"
        "    def __init__(self, seed=0):\n"
        "        raise RuntimeError('no weights file')\n"
    )
    bad = _config(
        tmp_path,
        '[[bots]]\nname = "nothing"\nclass = "made:nothing"\n'
        '[[bots]]\nname = "broken"\nclass = "made:Broken"\n',
    )
    refused = tournament("run", str(bad))
    assert refused.returncode == 2, refused.stderr
    prefix = f"sheepfold tournament: {bad}: "
    assert refused.stderr.splitlines() == [
        prefix + "bots[1].class: 'made:nothing' has no decide(decision) method",
        prefix + "bots[2].class: cannot construct 'made:Broken': RuntimeError: no weights file "
        f"({tmp_path / 'made.py'}:11)",
    ]
    good = _config(
        tmp_path,
        '[[bots]]\nname = "late"\nclass = "made:Late"\n'
        '[[bots]]\nname = "factory"\nclass = "made:factory"\n',
    )
    played = tournament("run", str(good))
    assert played.returncode == 0, played.stderr
    shown = tournament("report", "--db", str(tmp_path / "cup.sqlite"), "--format", "json")
    standings = {row["bot"]: row for row in json.loads(shown.stdout)["standings"]}
    for name in ("late", "factory"):
        assert standings[name]["games"] == 4
        assert standings[name]["crashes"] == 0


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_bad_bot_is_one_line_before_any_server_starts(tmp_path: Path, command: str) -> None:
    """`sprt` started its in-process server before checking the bots, so a typo
    in a class name printed the server's `server started` and `server stopped`
    log lines around the one line that said what was wrong."""
    config = _config(tmp_path, '[[bots]]\nname = "nomod"\nclass = "nosuchmod:Bot"\n')
    done = tournament(command, str(config))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"sheepfold tournament: {config}: bots[1].class: no module 'nosuchmod' "
        "(looked in the python_path folders and the installed packages)"
    ]
    assert not (tmp_path / "cup.sqlite").exists(), "nothing was played or stored"


def test_a_python_path_folder_that_is_not_there_is_refused_before_the_first_game(
    tmp_path: Path,
) -> None:
    """It was accepted without --ray (a class bot then failed to import, or found
    an installed module of the same name) and refused with it."""
    config = tmp_path / "cup.toml"
    config.write_text(
        'name = "cup"\ngame = "sheep-n-sheep"\nplayers = 2\ngames_per_pairing = 1\n'
        f'python_path = [".", "bots"]\n{BOTS_OK}[[bots]]\nname = "other"\nbuiltin = "greedy"\n'
    )
    done = tournament("run", str(config))
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"sheepfold tournament: {config}: python_path[1]: no folder 'bots' "
        f"(looked at {tmp_path / 'bots'})"
    ]
    assert not (tmp_path / "cup.sqlite").exists(), "nothing was played or stored"


def _flaky(folder: Path, crash: bool) -> None:
    body = "raise RuntimeError('flaky is broken')" if crash else "return 0"
    (folder / "flaky.py").write_text(
        f"class Bot:\n    def decide(self, decision):\n        {body}\n"
    )


def test_a_bot_that_always_crashed_fails_the_run_until_its_games_are_played_again(
    tmp_path: Path,
) -> None:
    config = _config(tmp_path, '[[bots]]\nname = "flaky"\nclass = "flaky:Bot"\n')
    db = tmp_path / "cup.sqlite"
    _flaky(tmp_path, crash=True)
    first = tournament("run", str(config), "--no-report")
    assert first.returncode == 1, first.stderr
    summary = [line for line in first.stderr.splitlines() if line.startswith("sheepfold")]
    assert summary == [
        "sheepfold tournament: bot 'flaky' crashed in every one of its 2 games: "
        "RuntimeError: flaky is broken",
        f"sheepfold tournament: fix the bot, then `sheepfold tournament run {config} "
        "--rerun-crashed` plays those games again",
    ]
    # Each per-game log line names the match, so `sheepfold replay` finds it.
    finished = [
        json.loads(line)
        for line in first.stderr.splitlines()
        if line.startswith("{") and json.loads(line).get("event") == "game finished"
    ]
    assert len(finished) == 2 and all(len(entry["match_id"]) == 16 for entry in finished)
    # And every line about a match (the server's, the crash's, the game's) names its game too.
    logged = [json.loads(line) for line in first.stderr.splitlines() if line.startswith("{")]
    about_a_match = [entry for entry in logged if "match_id" in entry]
    assert len(about_a_match) > len(finished)
    gameless = [entry["event"] for entry in about_a_match if entry.get("game") != "sheep-n-sheep"]
    assert gameless == []
    replay = subprocess.run(
        [sys.executable, "-m", "cli", "replay", finished[0]["match_id"], "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replay.returncode == 0 and "replay verified" in replay.stdout, replay.stderr

    # Running again plays nothing and still fails: the crashed results are there.
    again = tournament("run", str(config), "--no-report")
    assert again.returncode == 1 and "crashed in every one of its 2 games" in again.stderr

    _flaky(tmp_path, crash=False)
    fixed = tournament("run", str(config), "--rerun-crashed", "--no-report")
    assert fixed.returncode == 0, fixed.stderr
    assert "2 games with a crash were deleted and played again" in fixed.stderr
    with sqlite3.connect(db) as raw:
        failures = raw.execute("SELECT COUNT(*) FROM game_seats WHERE failure = 'crash'")
        assert failures.fetchone()[0] == 0
        assert raw.execute("SELECT COUNT(*) FROM game_replays").fetchone()[0] == 2


def test_forget_drops_every_game_of_a_bot(tmp_path: Path) -> None:
    _flaky(tmp_path, crash=False)
    config = _config(tmp_path, '[[bots]]\nname = "flaky"\nclass = "flaky:Bot"\n')
    db = tmp_path / "cup.sqlite"
    assert tournament("run", str(config), "--no-report").returncode == 0
    done = tournament("forget", "flaky", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "forgot 2 games of 'flaky' in tournament 'cup'"
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
        assert raw.execute("SELECT COUNT(*) FROM game_replays").fetchone()[0] == 0
    nothing = tournament("forget", "flaky", "--db", str(db))
    assert nothing.returncode == 1
    assert nothing.stderr.strip() == (
        "sheepfold tournament: bot 'flaky' played no stored game of tournament 'cup'"
    )
    missing = tournament("forget", "flaky", "--db", str(tmp_path / "none.sqlite"))
    assert missing.returncode == 1 and "no database at" in missing.stderr


def test_a_bot_that_always_crashed_fails_no_run_once_removed_from_the_config(
    tmp_path: Path,
) -> None:
    """Dropping the broken bot is a way out too: its games are no longer rated,
    so they no longer fail every run (with advice to play them again, which
    no run would do)."""
    other = '[[bots]]\nname = "other"\nbuiltin = "greedy"\n'
    config = _config(tmp_path, other + '[[bots]]\nname = "flaky"\nclass = "flaky:Bot"\n')
    _flaky(tmp_path, crash=True)
    first = tournament("run", str(config), "--no-report")
    assert first.returncode == 1 and "crashed in every one of its 4 games" in first.stderr
    _config(tmp_path, other)
    without = tournament("run", str(config), "--no-report")
    assert without.returncode == 0, without.stderr
    assert "crashed" not in without.stderr


def test_rerun_crashed_deletes_only_the_games_it_plays_again(tmp_path: Path) -> None:
    """The crashed games of a bot no longer in the config are not scheduled, so
    they stay (a report with --include-removed still counts them), where they
    were deleted and said to be "played again"."""
    other = '[[bots]]\nname = "other"\nbuiltin = "greedy"\n'
    config = _config(tmp_path, other + '[[bots]]\nname = "flaky"\nclass = "flaky:Bot"\n')
    _flaky(tmp_path, crash=True)
    assert tournament("run", str(config), "--no-report").returncode == 1
    _config(tmp_path, other)
    rerun = tournament("run", str(config), "--rerun-crashed", "--no-report")
    assert rerun.returncode == 0, rerun.stderr
    assert "deleted" not in rerun.stderr
    with sqlite3.connect(tmp_path / "cup.sqlite") as raw:
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 6


# Where a class bot's code runs, and what it calls there that is no Exception.
PLACES = {
    "decide": "class Bot:\n    def decide(self, decision):\n        {call}\n",
    "on_event": (
        "class Bot:\n    def decide(self, decision):\n        return 0\n\n"
        "    def on_event(self, event):\n        {call}\n"
    ),
}
NOT_EXCEPTIONS = {
    "sys.exit": ("sys.exit(0)", "BotExited: sys.exit(0)"),
    "GeneratorExit": ("raise GeneratorExit('gone')", "GeneratorExit: gone"),
    "KeyboardInterrupt": ("raise KeyboardInterrupt('pressed')", "KeyboardInterrupt: pressed"),
}


@pytest.mark.parametrize("where", sorted(PLACES))
@pytest.mark.parametrize("what", sorted(NOT_EXCEPTIONS))
def test_a_class_bot_raising_what_is_no_exception_crashes_its_games_not_the_run(
    tmp_path: Path, where: str, what: str
) -> None:
    """`sys.exit()` in a class bot's `decide` once ended the whole run, exit 0,
    logged as "tournament interrupted" with none of its games played: the
    bot's SystemExit came back from its worker thread to the runner's loop
    (from `on_event`, run on that loop, it ended the run directly).
    GeneratorExit, a BaseException too, came back from the bot's thread as
    itself, past the seat's handler for a bot's errors, and the summary said
    only "gone", not what was raised. A KeyboardInterrupt the bot raised
    ended the run as a Ctrl-C does ("interrupted", exit 130), though nobody
    pressed one: the run's Ctrl-C cancels its task and raises nothing in a
    bot's code."""
    call, crash = NOT_EXCEPTIONS[what]
    (tmp_path / "leaver.py").write_text("import sys\n\n" + PLACES[where].format(call=call))
    config = _config(tmp_path, '[[bots]]\nname = "leaver"\nclass = "leaver:Bot"\n')
    done = tournament("run", str(config), "--no-report")
    assert done.returncode == 1, done.stderr
    summary = [line for line in done.stderr.splitlines() if line.startswith("sheepfold")]
    assert (
        summary[0]
        == f"sheepfold tournament: bot 'leaver' crashed in every one of its 2 games: {crash}"
    )
    assert "Traceback" not in done.stderr
    with sqlite3.connect(tmp_path / "cup.sqlite") as raw:
        assert raw.execute("SELECT COUNT(*) FROM game_replays").fetchone()[0] == 2


def test_the_rerun_hint_keeps_the_database_and_server_the_run_was_given(tmp_path: Path) -> None:
    """Run with --db elsewhere, the hint said `tournament run CONFIG
    --rerun-crashed`: copied as it was, it played the crashed games again in
    the config's own database, not the one that held them."""
    config = _config(tmp_path, '[[bots]]\nname = "flaky"\nclass = "flaky:Bot"\n')
    _flaky(tmp_path, crash=True)
    elsewhere = tmp_path / "other place.sqlite"
    done = tournament("run", str(config), "--db", str(elsewhere), "--no-report")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"sheepfold tournament: fix the bot, then `sheepfold tournament run {config} "
        f"--db '{elsewhere}' --rerun-crashed` plays those games again"
    )
