"""A bot program that writes its problem to stderr and exits 0 before its match
is over (a bot that catches its own error and returns) crashed, and its stderr
says why, as it does for a program that exits non-zero. `match` and
`tournament run` said only "left before the match was over", the bot's own
words kept from the organiser. Unsandboxed here, so that no bubblewrap is
needed: the sandbox does not change what the program writes."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import sheepfold

WHY = "cannot parse my config: bad line 3"


def _quitter(tmp_path: Path) -> Path:
    folder = tmp_path / "quitter"
    folder.mkdir()
    (folder / "quit.py").write_text(f"import sys\nprint({WHY!r}, file=sys.stderr)\n")
    return folder


def test_match_names_what_a_program_that_left_early_wrote(tmp_path: Path) -> None:
    folder = _quitter(tmp_path)
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--seed",
        "1",
        "--no-sandbox",
        "--bot-dir",
        str(folder),
        "--bots",
        "random,cmd:{python} quit.py",
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    crashed = [line for line in done.stdout.splitlines() if "seat 1 crashed" in line]
    assert crashed == [
        "  seat 1 crashed (a random stand-in finished it; ranked last): "
        f"left before the match was over: {WHY}"
    ], done.stdout


def test_a_tournament_names_what_a_program_that_left_early_wrote(tmp_path: Path) -> None:
    _quitter(tmp_path)
    config = tmp_path / "cup.toml"
    config.write_text(
        'name = "cup"\ngame = "sheep-n-sheep"\nplayers = 2\ngames_per_pairing = 1\n'
        '[[bots]]\nname = "r"\nbuiltin = "random"\n'
        '[[bots]]\nname = "q"\ncommand = ["{python}", "quit.py"]\ncwd = "quitter"\n'
        "sandbox = false\n"
    )
    done = sheepfold("tournament", "run", str(config), "--no-report", timeout=120)
    assert done.returncode == 1, done.stderr
    assert (
        "sheepfold tournament: bot 'q' crashed in every one of its 2 games: "
        f"left before the match was over: {WHY}"
    ) in done.stderr.splitlines(), done.stderr
