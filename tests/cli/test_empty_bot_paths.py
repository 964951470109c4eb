"""`--read-only ""` and `--bot-dir ""`, as `--read-only "$DATA"` gives with DATA
unset: an empty path is no folder, yet it was taken as the current one, so a
sandboxed bot was shown the folder the command ran in (its database, its
files) besides its own. A tournament config's `read_only = [""]` was refused
already, as an empty `--db` is: these are usage errors too."""

from __future__ import annotations

import pytest

from tests.cli.helpers import sheepfold

MATCH = ("match", "--game", "sheep-n-sheep", "--players", "2", "--bot", "random")
COMMAND_BOT = ("--bot", "cmd:{python} bot.py")


@pytest.mark.parametrize("flag", ["--read-only", "--bot-dir"])
def test_an_empty_bot_path_is_a_usage_error(flag: str) -> None:
    done = sheepfold(*MATCH, *COMMAND_BOT, flag, "", timeout=30)
    assert done.returncode == 2, done.stdout + done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"sheepfold match: error: argument {flag}: an empty path: name a folder or file"
    assert "seat 0" not in done.stdout


def test_an_empty_read_only_path_is_refused_by_bot_too() -> None:
    bot = ("bot", "--server", "unix:/nonexistent.sock", "--match", "m", "--token", "t")
    done = sheepfold(*bot, *COMMAND_BOT, "--read-only", "", timeout=30)
    assert done.returncode == 2, done.stderr
    refusal = "argument --read-only: an empty path: name a folder or file"
    assert done.stderr.strip().endswith(refusal)
