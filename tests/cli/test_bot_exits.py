"""A `module:Class` bot whose `decide` calls `sys.exit`: `match` and `bot` once
ended at once with the bot's exit status and not a word (sys.exit(3): exit 3,
nothing on stderr), the in-process server and the other seats with them. It
is the bot's mistake, answered as one that raises: a line naming the seat and
the bot, then its own traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import sheepfold_in

pytestmark = pytest.mark.e2e

QUITTER = "import sys\n\n\nclass Bot:\n    def decide(self, decision):\n        sys.exit(3)\n"


def test_match_names_a_bot_that_calls_sys_exit(tmp_path: Path) -> None:
    (tmp_path / "quitter.py").write_text(QUITTER)
    done = sheepfold_in(
        tmp_path, "match", "--game", "sheep-n-sheep", "--players", "2",
        "--bots", "random,quitter:Bot", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == (
        "sheepfold match: the bot in seat 1 (quitter:Bot) raised BotExited: sys.exit(3)"
    )
    assert f'File "{tmp_path / "quitter.py"}", line 6, in decide' in done.stderr


ON_EVENT = (
    "import sys\n\n\nclass Bot:\n    def decide(self, decision):\n        return 0\n\n"
    "    def on_event(self, event):\n        sys.exit(3)\n"
)


def test_match_names_a_bot_whose_on_event_calls_sys_exit(tmp_path: Path) -> None:
    (tmp_path / "quitter.py").write_text(ON_EVENT)
    done = sheepfold_in(
        tmp_path, "match", "--game", "sheep-n-sheep", "--players", "2",
        "--bots", "random,quitter:Bot", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[0] == (
        "sheepfold match: the bot in seat 1 (quitter:Bot) raised BotExited: sys.exit(3)"
    )


# A BaseException that is no Exception, raised where a bot's code runs: a plain
# `decide`, an `async` one (awaited on the loop), and `on_event`.
NOT_EXCEPTIONS = {
    "decide": "class Bot:\n    def decide(self, decision):\n        raise GeneratorExit('gone')\n",
    "async decide": (
        "class Bot:\n    async def decide(self, decision):\n        raise GeneratorExit('gone')\n"
    ),
    "on_event": (
        "class Bot:\n    def decide(self, decision):\n        return 0\n\n"
        "    def on_event(self, event):\n        raise GeneratorExit('gone')\n"
    ),
    "KeyboardInterrupt": (
        "class Bot:\n    def decide(self, decision):\n        raise KeyboardInterrupt('gone')\n"
    ),
    "own class": (
        "class Mine(BaseException):\n    pass\n\n\n"
        "class Bot:\n    def decide(self, decision):\n        raise Mine('gone')\n"
    ),
    # Raised by the bot itself, nothing cancelled: taken for the command's task
    # being cancelled, it ended `match` in a traceback through the SDK's frames.
    "async CancelledError": (
        "import asyncio\n\n\n"
        "class Bot:\n    async def decide(self, decision):\n"
        "        raise asyncio.CancelledError('gone')\n"
    ),
    "async on_event CancelledError": (
        "import asyncio\n\n\n"
        "class Bot:\n    def decide(self, decision):\n        return 0\n\n"
        "    async def on_event(self, event):\n        raise asyncio.CancelledError('gone')\n"
    ),
    "CancelledError": (
        "import asyncio\n\n\n"
        "class Bot:\n    def decide(self, decision):\n"
        "        raise asyncio.CancelledError('gone')\n"
    ),
}


@pytest.mark.parametrize("where", sorted(NOT_EXCEPTIONS))
def test_match_names_a_bot_that_raises_what_is_no_exception(tmp_path: Path, where: str) -> None:
    """GeneratorExit (or a BaseException of the bot's own) once ended `match` in
    a traceback through the SDK's frames ("RuntimeError: coroutine ignored
    GeneratorExit"), where a ValueError is one line and the bot's traceback.
    A KeyboardInterrupt the bot raised ended it as a Ctrl-C does ("sheepfold
    match: interrupted", exit 130), though nobody pressed one: a Ctrl-C cancels
    the command's task and raises nothing in a bot's code."""
    (tmp_path / "leaver.py").write_text(NOT_EXCEPTIONS[where])
    done = sheepfold_in(
        tmp_path, "match", "--game", "sheep-n-sheep", "--players", "2",
        "--bots", "random,leaver:Bot", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    name = {"own class": "Mine", "KeyboardInterrupt": "KeyboardInterrupt"}.get(
        where, "CancelledError" if "CancelledError" in where else "GeneratorExit"
    )
    assert lines[0] == f"sheepfold match: the bot in seat 1 (leaver:Bot) raised {name}: gone"
    assert lines[1] == "Traceback (most recent call last):"
    assert f'File "{tmp_path / "leaver.py"}"' in lines[2]
    assert "sheepfold" not in "\n".join(lines[1:]).replace(str(tmp_path), "")
