"""A `module:Class` bot whose module cannot be loaded: a syntax error, or an
exception raised while importing or constructing it, is the newcomer's first
mistake. `match` and `bot` answer it in one line naming the module, the error
and where it is, as a tournament's bot check does, not with a traceback
through sheepfold's and importlib's frames; and exit 2, a usage error, as a
tournament does and as they do for a bot named by a word that is no built-in
(`./mybot.py`): a bot that cannot be loaded once exited 1, the status of a
match that could not be played."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold_in

SOURCES = {
    "syntax": "class Bot\n    def decide(self, decision):\n        return 0\n",
    "at_import": "import os\n\nLIMIT = os.environ['NO_SUCH_VARIABLE_FOR_SHEEPFOLD']\n",
    "in_init": (
        "class Bot:\n"
        "    def __init__(self, seed=0):\n"
        "        raise RuntimeError('no model file')\n\n"
        "    def decide(self, decision):\n"
        "        return 0\n"
    ),
    # A constructor that gives up with sys.exit (a model file missing, say):
    # `match` and `bot` once exited 0 having printed nothing.
    "exits_in_init": (
        "import sys\n\n"
        "class Bot:\n"
        "    def __init__(self, seed=0):\n"
        "        sys.exit(0)\n\n"
        "    def decide(self, decision):\n"
        "        return 0\n"
    ),
    # GeneratorExit is no Exception: it went past the handlers, a traceback.
    "leaves_at_import": "raise GeneratorExit('no model file')\n",
    "leaves_in_init": (
        "class Bot:\n"
        "    def __init__(self, seed=0):\n"
        "        raise GeneratorExit('no model file')\n\n"
        "    def decide(self, decision):\n"
        "        return 0\n"
    ),
}


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("syntax", "module 'syntax' raised SyntaxError: expected ':' ({file}:1)"),
        (
            "at_import",
            "module 'at_import' raised KeyError: 'NO_SUCH_VARIABLE_FOR_SHEEPFOLD' ({file}:3)",
        ),
        ("in_init", "cannot construct 'in_init:Bot': RuntimeError: no model file ({file}:3)"),
        ("exits_in_init", "constructing 'exits_in_init:Bot' called sys.exit(0) ({file}:5)"),
        (
            "leaves_at_import",
            "module 'leaves_at_import' raised GeneratorExit: no model file ({file}:1)",
        ),
        (
            "leaves_in_init",
            "cannot construct 'leaves_in_init:Bot': GeneratorExit: no model file ({file}:3)",
        ),
    ],
)
def test_match_names_a_bot_module_that_fails_in_one_line(
    tmp_path: Path, module: str, expected: str
) -> None:
    (tmp_path / f"{module}.py").write_text(SOURCES[module])
    done = sheepfold_in(
        tmp_path, "match", "--game", "sheep-n-sheep", "--players", "2",
        "--bots", f"random,{module}:Bot", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    file = tmp_path / f"{module}.py"
    assert one_line(done) == f"sheepfold match: {expected.format(file=file)}"


def test_bot_names_a_bot_module_with_a_syntax_error_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "syntax.py").write_text(SOURCES["syntax"])
    done = sheepfold_in(
        tmp_path, "bot", "--bot", "syntax:Bot",
        "--server", "127.0.0.1:1", "--match", "m", "--token", "t",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert one_line(done) == (
        f"sheepfold bot: module 'syntax' raised SyntaxError: expected ':' ({tmp_path}/syntax.py:1)"
    )


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("syntax", "module 'syntax' raised SyntaxError: expected ':' ({file}:1)"),
        (
            "leaves_at_import",
            "module 'leaves_at_import' raised GeneratorExit: no model file ({file}:1)",
        ),
    ],
)
def test_a_tournament_names_a_module_that_fails_where_it_fails(
    tmp_path: Path, module: str, expected: str
) -> None:
    """The check before the first game named importlib's frame instead:
    "(broken.py, line 1) (<frozen importlib._bootstrap>:241)". A GeneratorExit
    raised at import went past the check's handler: a traceback, exit 1."""
    (tmp_path / f"{module}.py").write_text(SOURCES[module])
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-n-sheep"\nplayers = 2\npython_path = ["."]\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        f'[[bots]]\nname = "s"\nclass = "{module}:Bot"\n'
    )
    done = sheepfold_in(tmp_path, "tournament", "run", "cup.toml", "--db", "t.db")
    assert done.returncode == 2, done.stderr
    file = tmp_path / f"{module}.py"
    assert one_line(done) == (
        f"sheepfold tournament: cup.toml: bots[1].class: {expected.format(file=file)}"
    )


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (
            "./mybot:Bot",
            "bot './mybot:Bot' must look like module:Class, with the module's name as "
            "`import` takes it (mybot:Bot for mybot.py in the current folder), not a path",
        ),
        (
            ".mybot:Bot",
            "bot '.mybot:Bot' must look like module:Class, with the module's name as "
            "`import` takes it (mybot:Bot for mybot.py in the current folder), not a path",
        ),
        (
            ":Bot",
            "bot ':Bot' must look like module:Class, with the module's name as "
            "`import` takes it (mybot:Bot for mybot.py in the current folder), not a path",
        ),
        (
            "mybot.py:Bot",
            "cannot import 'mybot.py' for bot 'mybot.py:Bot': the module of mybot.py is "
            "mybot: write mybot:Bot",
        ),
    ],
)
def test_a_file_path_given_as_a_bot_module_is_named_as_such(
    tmp_path: Path, spec: str, expected: str
) -> None:
    """`cmd:./mybot` is how the docs name a program; `./mybot:Bot` for a class
    once blamed the bot's module for importlib's own TypeError ("module './mybot'
    raised TypeError: the 'package' argument is required ... (importlib/__init__.py:121)")."""
    (tmp_path / "mybot.py").write_text(
        "class Bot:\n    def decide(self, decision):\n        return 0\n"
    )
    done = sheepfold_in(
        tmp_path, "match", "--game", "sheep-n-sheep", "--players", "2",
        "--bots", f"random,{spec}", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert one_line(done) == f"sheepfold match: {expected}"


@pytest.mark.parametrize("command", ["match", "bot"])
@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("./mybot:Bot", "bot './mybot:Bot' must look like module:Class"),
        ("./mybot.py", "unknown bot './mybot.py': use a built-in"),
        ("mybot:NoSuchBot", "module 'mybot' has no 'NoSuchBot'"),
        ("mybot:Quits", "constructing 'mybot:Quits' called sys.exit(0)"),
    ],
)
def test_a_bot_that_cannot_be_loaded_is_a_usage_error(
    tmp_path: Path, command: str, spec: str, said: str
) -> None:
    """`--bot ./mybot.py` exited 2 and `--bot ./mybot:Bot` 1: both are the
    user's mistake in naming the bot, found before anything is played."""
    (tmp_path / "mybot.py").write_text(
        "import sys\n\n"
        "class Bot:\n    def decide(self, decision):\n        return 0\n\n"
        "class Quits:\n    def __init__(self):\n        sys.exit(0)\n"
    )
    if command == "match":
        flags = ("--game", "sheep-n-sheep", "--players", "2", "--bots", f"random,{spec}")
    else:
        flags = ("--bot", spec, "--server", "127.0.0.1:1", "--match", "m", "--token", "t")
    done = sheepfold_in(tmp_path, command, *flags)
    assert done.returncode == 2, done.stderr
    assert one_line(done).startswith(f"sheepfold {command}: {said}")
