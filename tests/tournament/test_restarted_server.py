"""A local run on `--server ADDR` whose server goes away and is restarted by
its supervisor while the runner checks on it goes on: the run asks the server
for its health a few times before it gives up, and plays the failed game again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import start_server_process, stop_server_process
from tests.tournament.quick_cup import Recorder, quick_cup
from tests.tournament.test_server_gone_said import ASKING
from tournament import game_play, server_check
from tournament.runner import run_tournament, schedule_for

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("failed_checks", [1, 8], ids=["at-once", "after-8-checks"])
def test_a_server_restarted_while_the_runner_checks_on_it_keeps_the_run_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failed_checks: int
) -> None:
    """`failed_checks`: the health checks that find nobody before it is back. A
    restart slower than five checks (a second apart) once ended the run."""
    # The next game's CreateMatch waits for the dead server 1 s, not 30.
    monkeypatch.setattr(game_play, "RPC_SECONDS", 1.0)
    db = str(tmp_path / "server.db")
    servers = [start_server_process("--db", db)]
    port = servers[0].port

    pauses: list[float] = []

    async def supervisor(seconds: float) -> None:
        pauses.append(seconds)
        if len(servers) == 1 and len(pauses) == failed_checks:  # nobody there: restart it
            servers[0].process.wait()
            servers.append(start_server_process("--db", db, "--port", str(port)))

    monkeypatch.setattr(server_check, "_pause", supervisor)
    config = quick_cup(tmp_path, 2, concurrency=1)
    progress = Recorder(victim=servers[0].pid)
    try:
        summary = run_tournament(
            config, server=servers[0].address, database=str(tmp_path / "cup.sqlite"),
            progress=progress,
        )  # fmt: skip
    finally:
        for server in servers:
            stop_server_process(server)
    assert len(servers) == 2
    assert progress.errors == [] and summary.errors == 0
    assert sorted(progress.keys) == sorted(game.key for game in schedule_for(config))
    assert any("answers again" in note for note in progress.notes), progress.notes
    # Said gone once, as soon as its health is asked, and before it is back.
    asking = [i for i, note in enumerate(progress.notes) if ASKING in note]
    back = [i for i, note in enumerate(progress.notes) if "answers again" in note]
    assert len(asking) == 1 and asking[0] < back[0], progress.notes
