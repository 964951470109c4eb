"""The bot command `create --help` shows plays a seat as written. It said
`sheepfold bot --match ID --token T`, but `bot` has no default server (only
$SHEEPFOLD_SERVER): run as shown it stopped with "missing --server (or the
environment)", where `create` itself defaults to 127.0.0.1:50051 and its own
output line names the server."""

from __future__ import annotations

import re

from tests.cli.helpers import sheepfold


def test_the_bot_line_in_create_help_names_the_server() -> None:
    shown = sheepfold("create", "--help")
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    line = re.search(r"`(sheepfold bot [^`]*)`", text)
    assert line is not None, text
    assert "--server" in line.group(1).split()


def test_bot_without_server_or_its_variable_is_refused() -> None:
    """Why the line needs it: `bot` finds no server by itself."""
    # An empty variable counts as unset, as every empty SHEEPFOLD_ variable does.
    refused = sheepfold("bot", "--match", "m", "--token", "t", env={"SHEEPFOLD_SERVER": ""})
    assert refused.returncode == 2
    assert "missing --server" in refused.stderr
