"""A `module:Class` bot that prints (the first thing a newcomer does to see what
it is given) runs inside `match` and `bot`: its lines went to their stdout, in
front of the result, so `sheepfold match --json | jq` read no JSON. They go to
stderr now, where they are still seen, and stdout holds the result only."""

from __future__ import annotations

import json
from pathlib import Path

from server.launch import ServerProcess
from tests.cli.helpers import sheepfold_in

CHATTY = (
    'print("loading my bot")\n\n\n'
    "class Bot:\n"
    "    def decide(self, decision):\n"
    '        print("choosing among", len(decision.actions))\n'
    "        return 0\n"
)


def test_match_json_is_the_only_thing_on_stdout(tmp_path: Path) -> None:
    (tmp_path / "chatty.py").write_text(CHATTY)
    done = sheepfold_in(
        tmp_path, "match", "--game", "sheep-n-sheep", "--players", "2",
        "--bots", "random,chatty:Bot", "--seed", "1", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["bots"] == ["random", "chatty:Bot"]
    assert "loading my bot" in done.stderr and "choosing among" in done.stderr


def test_bot_prints_its_result_alone_on_stdout(tmp_path: Path, server: ServerProcess) -> None:
    (tmp_path / "chatty.py").write_text(CHATTY)
    created = sheepfold_in(
        tmp_path, "create", "--game", "sheep-and-garden", "--players", "1",
        "--server", server.address, "--json",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    match = json.loads(created.stdout)
    done = sheepfold_in(
        tmp_path, "bot", "--bot", "chatty:Bot", "--server", server.address,
        "--match", match["match_id"], "--token", match["seat_tokens"][0],
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == {"scores", "ranks"}
    assert "choosing among" in done.stderr


def test_a_tournament_prints_its_standings_alone_on_stdout(tmp_path: Path) -> None:
    """The same for `tournament run` and `sprt`, which play class bots in their
    own process: `tournament run cup.toml > standings.txt` held the bot's lines."""
    (tmp_path / "chatty.py").write_text(CHATTY)
    (tmp_path / "cup.toml").write_text(
        'name = "cup"\ngame = "sheep-and-garden"\nplayers = 1\ngames_per_pairing = 1\n'
        'python_path = ["."]\n'
        '[sprt]\ncandidate = "chatty"\nbaseline = "random"\nmax_games = 1\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
        '[[bots]]\nname = "chatty"\nclass = "chatty:Bot"\n'
    )
    run = sheepfold_in(tmp_path, "tournament", "run", "cup.toml", "--db", "run.sqlite")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("cup: sheep-and-garden"), run.stdout
    assert "choosing among" in run.stderr
    sprt = sheepfold_in(tmp_path, "tournament", "sprt", "cup.toml", "--db", "sprt.sqlite")
    assert sprt.returncode == 4, sprt.stderr
    assert "choosing among" not in sprt.stdout and "choosing among" in sprt.stderr
