"""Fail fast and speak plainly, the bots of `sheepfold match` and `python -m
benchmarks.strength`: a class bot or a command bot that cannot play is named
in one clear line (or its own traceback) and a non-zero exit, run as a user
runs it (a subprocess), never a hang."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import database_of, one_line, sheepfold
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e


def _module(folder: Path, source: str) -> dict[str, str]:
    (folder / "my_bots.py").write_text(source)
    return {"PYTHONPATH": f"{folder}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


def test_a_raising_class_bot_shows_its_own_traceback(tmp_path: Path) -> None:
    env = _module(
        tmp_path,
        "class Broken:\n"
        "    def decide(self, decision):\n"
        "        return decision.observation.no_such_field\n",
    )
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "my_bots:Broken,random",
        env=env,
    )
    assert done.returncode == 1
    first = done.stderr.splitlines()[0]
    assert first == (
        "sheepfold match: the bot in seat 0 (my_bots:Broken) raised AttributeError: no_such_field"
    )
    assert "Traceback (most recent call last):" in done.stderr
    assert f'File "{tmp_path / "my_bots.py"}", line 3, in decide' in done.stderr
    for sdk_file in ("clients/sdk.py", "clients/play_stream.py"):
        assert sdk_file not in done.stderr, "only the bot's own frames"


@pytest.mark.parametrize(
    ("returned", "shown"),
    [
        ('"first"', "'first'"),
        ("None", "None"),
        ("1.5", "1.5"),
        ("len(decision.actions) > 1", "True"),  # once played action 1
    ],
)
def test_a_class_bot_that_returns_no_action_index_is_one_line(
    tmp_path: Path, returned: str, shown: str
) -> None:
    env = _module(
        tmp_path,
        f"class Wrong:\n    def decide(self, decision):\n        return {returned}\n",
    )
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "random,my_bots:Wrong",
        env=env,
    )
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold match: the bot in seat 1 (my_bots:Wrong): decide returned {shown}, "
        "not an action index (a whole number)"
    )


def test_a_class_bot_that_returns_a_number_past_int32_is_one_line(tmp_path: Path) -> None:
    env = _module(tmp_path, "class Wrong:\n    def decide(self, decision):\n        return 2**40\n")
    done = sheepfold("match", "--game", "sheep-n-sheep", "--players", "2",
                     "--bots", "random,my_bots:Wrong", env=env)  # fmt: skip
    assert done.returncode == 1
    assert one_line(done) == (
        "sheepfold match: the bot in seat 1 (my_bots:Wrong): decide returned 1099511627776, "
        "not an action index (past the wire's int32: -2147483648 to 2147483647)"
    )


def test_match_prints_its_id_and_shows_a_disqualification(
    tmp_path: Path, server: ServerProcess
) -> None:
    env = _module(
        tmp_path,
        "import asyncio\n"
        "class Sleeper:\n"
        "    async def decide(self, decision):\n"
        "        await asyncio.sleep(1.2)  # past the 0.6 s deadline, every time\n"
        "        return 0\n",
    )
    args = ("match", "--game", "sheep-showdown", "--players", "2", "--option", "rounds=1")
    done = sheepfold(
        *args,
        "--bots",
        "my_bots:Sleeper,random",
        # Room for the random bot on a loaded machine: at 0.1 s it too missed
        # three deadlines once, and both seats were disqualified.
        "--decision-seconds",
        "0.6",
        "--seed",
        "4",
        "--server",
        server.address,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[0]
    match = re.fullmatch(
        r"sheep-showdown  seed 4  options double_trouble=false, rounds=1  match ([0-9a-f]{16})",
        header,
    )
    assert match, header
    seat0, seat1 = done.stdout.splitlines()[1:3]
    assert "DISQUALIFIED (ranked last)" in seat0 and "strikes 3" in seat0
    assert "rank 2" in seat0 and "rank 1" in seat1 and "DISQUALIFIED" not in seat1
    assert "the server played its moves at random and ranks it last" in done.stdout

    as_json = sheepfold(*args, "--bots", "random,random", "--server", server.address, "--json")
    assert as_json.returncode == 0, as_json.stderr
    match_id = json.loads(as_json.stdout)["match_id"]
    # The id is the one `sheepfold replay` takes.
    replay = sheepfold("replay", match_id, "--db", database_of(server))
    assert replay.returncode == 0, replay.stderr
    assert f"match {match_id}" in replay.stdout and "replay verified" in replay.stdout


def _strength(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m benchmarks.strength --game sheep-n-sheep ARGS`, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.strength", "--game", "sheep-n-sheep", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_strength_takes_a_module_class_bot_and_refuses_a_bad_one_in_one_line() -> None:
    def strength(*pairs: str) -> subprocess.CompletedProcess[str]:
        return _strength(*pairs, "--games", "2", "--workers", "1")

    done = strength("examples.simple_bots:FirstChoiceBot,random")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("examples.simple_bots:FirstChoiceBot vs random: ")
    bad = strength("nosuch:Bot,random")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines()[-1] == (
        "python -m benchmarks.strength: error: cannot import 'nosuch' for bot 'nosuch:Bot': "
        "No module named 'nosuch'"
    )


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("random,greedy", "--games", "0"), "argument --games: '0' must be a whole number from 1"),
        (
            ("random,greedy", "--games", "-3"),
            "argument --games: '-3' must be a whole number from 1",
        ),
        (
            ("random,greedy", "--workers", "0"),
            "argument --workers: '0' must be a whole number from 1",
        ),
        (("solo,random",), "'solo,random': sheep-n-sheep has no solo game (2 to 4 players)"),
        (("random,solo",), "'random,solo': a solo pair names solo first (solo,random)"),
    ],
)
def test_strength_refuses_numbers_and_solo_games_it_cannot_play_in_one_line(
    args: tuple[str, ...], error: str
) -> None:
    bad = _strength(*args)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
    assert (
        bad.stderr.strip()
        .splitlines()[-1]
        .startswith(f"python -m benchmarks.strength: error: {error}")
    ), bad.stderr


def _match_against_a_wrapped_command_bot(wrapper: Path, tmp_path: Path) -> Path:
    """`sheepfold match` of a random bot against `wrapper`, a command bot that does
    something of its own around the example command bot (unsandboxed, in a folder
    of its own, which it returns). The match must end well, with no crash."""
    folder = tmp_path / "bot"
    folder.mkdir()
    example = ROOT / "examples" / "command-bot" / "command_bot.py"
    done = sheepfold(
        "match",
        "--game",
        "sheep-showdown",
        "--players",
        "2",
        "--option",
        "rounds=1",
        "--no-sandbox",
        "--json",
        "--bots",
        f"random,cmd:{sys.executable} {wrapper} {example}",
        "--bot-dir",
        str(folder),
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["crashed"] == {}
    return folder


def test_match_ends_with_its_match_when_a_command_bot_lingers(tmp_path: Path) -> None:
    """A command bot that ignores SIGTERM and sleeps once its match is over once
    kept `sheepfold match` waiting forever. It is killed after a grace period, it
    is not counted as crashed: it played its seat."""
    folder = _match_against_a_wrapped_command_bot(
        Path(__file__).resolve().parent / "bots" / "lingering_bot.py", tmp_path
    )
    pid = int((folder / "pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_command_bot_cannot_create_matches_on_the_match_commands_own_server(
    tmp_path: Path,
) -> None:
    """Without --server, `sheepfold match` starts a server whose admin token only it
    knows: a bot given that server's address cannot create matches of its own."""
    folder = _match_against_a_wrapped_command_bot(
        ROOT / "tests" / "tournament" / "bots" / "match_maker.py", tmp_path
    )
    assert (folder / "create_status").read_text() == "UNAUTHENTICATED"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("cmd:./nothere --level 3", "no program './nothere'"),
        ("cmd:no-such-prog", "on PATH"),
        ("cmd:./" + "a" * 300, "File name too long"),  # was a traceback
    ],
)
def test_match_refuses_a_command_bot_that_cannot_start(spec: str, words: str) -> None:
    """It used to play the match with a random stand-in in that seat and exit 0;
    a path the system refused to look at (too long, in a folder the user cannot
    enter) was a traceback. A usage error (exit 2), as a tournament's command
    that names no program is a config error: it exited 1 like a match that
    could not be played."""
    done = sheepfold(
        "match", "--game", "stubborn-sheep", "--players", "2", "--bots", f"random,{spec}"
    )
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith("sheepfold match: ") and words in line


def test_match_refuses_a_sandboxed_program_its_sandbox_cannot_see(tmp_path: Path) -> None:
    """A program outside --bot-dir and the runtime (pyenv's shims, nvm's node) was
    found on the host, then failed to start in the sandbox: the match was played
    by a random stand-in in that seat."""
    program = tmp_path / "elsewhere" / "bot"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    (tmp_path / "bot").mkdir()
    done = sheepfold(
        "match", "--game", "stubborn-sheep", "--players", "2",
        "--bots", f"random,cmd:{program}", "--bot-dir", str(tmp_path / "bot"),
    )  # fmt: skip
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith("sheepfold match: ")
    assert f"needs {program}, which the bot's sandbox does not see" in line


EXAMPLE_BOT_DIR = str(ROOT / "examples" / "command-bot")


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", "/proc"),
         "--bot-dir /proc is in the host's /proc: a sandbox has its own /proc and /dev"),
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", "/"),
         "--bot-dir / would show the bot the whole host"),
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", EXAMPLE_BOT_DIR,
          "--read-only", "/proc/1"),
         "--read-only /proc/1 is the host's /proc: a sandbox has its own /proc and /dev"),
        (("--bots", "random,cmd:{python} command_bot.py", "--bot-dir", EXAMPLE_BOT_DIR,
          "--read-only", "/dev/null"),
         "--read-only /dev/null is the host's /dev"),
        (("--bots", 'random,cmd:"{python} command_bot.py', "--bot-dir", EXAMPLE_BOT_DIR),
         "No closing quotation"),
    ],
)  # fmt: skip
def test_match_refuses_a_command_bot_that_would_see_the_hosts_state(
    extra: tuple[str, ...], said: str
) -> None:
    """A sandboxed bot's folder and read-only paths are checked as a tournament's
    are: the host's /proc shows every process's command line (the match's seed
    among them). Each is a usage error (exit 2), as the config's is."""
    done = sheepfold("match", "--game", "sheep-n-sheep", "--players", "2", *extra, timeout=30)
    assert done.returncode == 2, done.stderr
    assert said in one_line(done), done.stderr
    assert "Traceback" not in done.stderr


def test_a_class_bot_beside_the_command_is_found_without_pythonpath(tmp_path: Path) -> None:
    """The README's `sheepfold bot --bot mymodule:FirstActionBot` failed as written,
    run beside mymodule.py: "No module named 'mymodule'"."""
    (tmp_path / "mymodule.py").write_text(
        "class FirstActionBot:\n    def decide(self, decision):\n        return 0\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "sheepfold"), "match", "--game", "sheep-n-sheep",
         "--players", "2", "--bots", "mymodule:FirstActionBot,random", "--json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["bots"] == ["mymodule:FirstActionBot", "random"] and not result["crashed"]


def test_a_class_bot_that_exits_at_import_is_named(tmp_path: Path) -> None:
    """sys.exit(3) in a bot's module ended match, and a tournament run, with status
    3 and not a word: for an SPRT, 3 means "H0 accepted"."""
    env = _module(tmp_path, "import sys\nsys.exit(3)\nclass Quitter:\n    pass\n")
    done = sheepfold(
        "match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "my_bots:Quitter,random",
        env=env,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert one_line(done) == (
        "sheepfold match: importing 'my_bots' for bot 'my_bots:Quitter' called sys.exit(3)"
    )
    config = tmp_path / "cup.toml"
    config.write_text(
        f'game = "sheep-n-sheep"\nplayers = 2\npython_path = ["{tmp_path}"]\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "q"\nclass = "my_bots:Quitter"\n'
    )
    for subcommand in ("run", "sprt"):
        run = sheepfold("tournament", subcommand, str(config), "--db", str(tmp_path / "t.db"))
        assert run.returncode == 2, (subcommand, run.stderr)
        assert "bots[1].class: module 'my_bots' raised SystemExit: 3" in run.stderr


@pytest.mark.parametrize(
    ("returned", "error"),
    [
        ("-1", "decide returned -1, not one of the "),
        ("10_000", "decide returned 10000, not one of the "),
        ("1.5", "decide returned 1.5, not an action index (a whole number)"),
    ],
)
def test_strength_refuses_an_answer_that_names_no_action_in_one_line(
    tmp_path: Path, returned: str, error: str
) -> None:
    """As a server would: -1 is no action (Python's list once took it as the
    last one, a move the bot never chose), nor 1.5 (once a traceback)."""
    env = _module(
        tmp_path, f"class Wrong:\n    def decide(self, decision):\n        return {returned}\n"
    )
    bad = _strength("my_bots:Wrong,random", "--games", "2", "--workers", "1", env=env)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr, bad.stderr
    assert (
        bad.stderr.strip()
        .splitlines()[-1]
        .startswith(f"python -m benchmarks.strength: my_bots:Wrong (seat 0): {error}")
    ), bad.stderr


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,cmd:"),
         "sheepfold match: 'cmd:' names no program"),
        (("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,cmd:true",
          "--bot-dir", "/no/such/folder"),
         "sheepfold match: --bot-dir /no/such/folder is not a folder"),
        (("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,cmd:true",
          "--read-only", "/no/such/path"),
         "sheepfold match: --read-only /no/such/path does not exist"),
        (("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", "--no-sandbox",
          "--bot", "cmd:/no/such"),
         "sheepfold bot: 'cmd:/no/such': no program '/no/such' (looked at /no/such)"),
        (("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", "--no-sandbox",
          "--bot", "cmd:"),
         "sheepfold bot: 'cmd:' names no program"),
    ],
)  # fmt: skip
def test_a_command_bot_named_wrong_is_a_usage_error(args: tuple[str, ...], line: str) -> None:
    """A command that names no program, or a --bot-dir or --read-only that is not
    there, exited 1, the status of a match that could not be played, while the
    same mistakes in a tournament's config exit 2, as a module:Class bot that
    cannot be loaded does in match and bot."""
    done = sheepfold(*args, timeout=30)
    assert done.returncode == 2, done.stderr
    assert one_line(done) == line
