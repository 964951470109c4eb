"""`sheepfold match` and `sheepfold replay` print a finished solo match's
rulebook title under its score, as the viewer shows it: it was in the
result's details (`--json`) alone."""

from __future__ import annotations

import json

from games.solo_title import solo_title
from server.launch import ServerProcess
from tests.cli.helpers import database_of, sheepfold


def test_match_and_replay_print_the_solo_title(server: ServerProcess) -> None:
    solo = ["--game", "stubborn-sheep", "--players", "1", "--bots", "random", "--seed", "3"]
    played = sheepfold("match", *solo, "--server", server.address, "--json")
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    title = summary["details"]["players"][0]["rating"]
    assert title and solo_title(summary["details"]) == title
    again = sheepfold("match", *solo, "--server", server.address)
    assert f"  solo rating: {title}" in again.stdout.splitlines(), again.stdout
    replay = sheepfold("replay", summary["match_id"], "--db", database_of(server))
    assert replay.returncode == 0, replay.stderr
    assert f"  solo rating: {title}" in replay.stdout.splitlines(), replay.stdout[-500:]
    pair = ["--game", "stubborn-sheep", "--players", "2", "--bots", "random,random"]
    assert "solo rating" not in sheepfold("match", *pair, "--server", server.address).stdout
