"""A Ray worker's game on one of several `--server` addresses (played here
without Ray): a server that refuses it names itself, so the run's one line
says which of the servers to fix."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import start_server_process, stop_server_process
from tournament.config import load_config
from tournament.executors.ray_task import GameJob, play_on_worker
from tournament.runner import schedule_for

CONFIG = """
name = "cup"
game = "sheep-showdown"
players = 2
games_per_pairing = 1
[options]
rounds = 1
[[bots]]
name = "a"
builtin = "random"
[[bots]]
name = "b"
builtin = "random"
"""


def test_a_server_that_refuses_the_game_is_named_in_the_fatal_error(tmp_path: Path) -> None:
    (tmp_path / "cup.toml").write_text(CONFIG)
    config = load_config(tmp_path / "cup.toml")
    server = start_server_process("--admin-token", "the-right-one")
    try:
        job = GameJob(config, schedule_for(config)[0], server.address, "a-wrong-one")
        outcome = play_on_worker(job)
    finally:
        stop_server_process(server)
    assert outcome.fatal and outcome.record is None
    assert outcome.error is not None
    assert outcome.error.startswith(
        f"the server at {server.address} refused game {job.scheduled.key}: PERMISSION_DENIED"
    ), outcome.error
