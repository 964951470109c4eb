"""`create --help` and `match --help` give `--decision-seconds` the range the
commands take: 0 (the server's default) or 0.001 to 3,600. They said "0 to
3,600" while refusing 0.0005 as "too short: at least 0.001 seconds", so a
reader of the help could not tell a deadline of half a millisecond would be
refused."""

from __future__ import annotations

import pytest

from tests.cli.helpers import flag_help, sheepfold


@pytest.mark.parametrize("command", ["create", "match"])
def test_help_gives_the_range_the_command_takes(command: str) -> None:
    assert "0 (the server's default) or 0.001 to 3,600" in flag_help(
        (command,), "--decision-seconds"
    )
    refused = sheepfold(
        command,
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        *(["--bots", "random,random"] if command == "match" else ["--server", "127.0.0.1:1"]),
        "--decision-seconds",
        "0.0009",
    )
    assert refused.returncode == 2
    assert "at least 0.001 seconds" in refused.stderr
