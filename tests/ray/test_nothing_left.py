"""`--ray` on a tournament whose games are all stored (see conftest.py: these
run inside a private network namespace)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.sockets import closed_loopback_address
from tournament.config import load_config
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError, run_tournament
from tournament.store import Store


def _cup(folder: Path, seeds: int) -> Path:
    path = folder / "cup.toml"
    path.write_text(
        textwrap.dedent(
            f"""\
            name = "cup"
            game = "sheep-showdown"
            players = 2
            games_per_pairing = {seeds}
            bootstrap = 0
            [options]
            rounds = 1
            [[bots]]
            name = "a"
            builtin = "random"
            [[bots]]
            name = "b"
            builtin = "random"
            """
        )
    )
    return path


def test_a_run_with_every_game_stored_ends_without_ray(tmp_path: Path) -> None:
    """Running the same command again once a tournament is done started (or
    joined) Ray to play nothing: seconds, up to a minute on a busy machine,
    where Ray's start also failed on its own ("The current node timed out
    during startup"), exit 1 for a finished tournament. Now it ends at once,
    as without --ray; here the cluster's address answers nothing, which a
    run that joins it refuses."""
    database = str(tmp_path / "cup.sqlite")
    run_tournament(load_config(_cup(tmp_path, seeds=1)), database=database)
    nowhere = ExecutorSettings(kind="ray", address=closed_loopback_address())

    summary = run_tournament(
        load_config(_cup(tmp_path, seeds=1)), database=database, executor=nowhere
    )

    assert (summary.scheduled, summary.played, summary.done) == (2, 0, 2)
    with Store(database) as store:
        assert len(store.games(store.tournament("cup").id)) == 2


def test_a_run_with_games_left_still_joins_ray(tmp_path: Path) -> None:
    """With a game not stored (one more deal), the run joins the cluster as
    before, and an address where nothing answers is still refused."""
    database = str(tmp_path / "cup.sqlite")
    run_tournament(load_config(_cup(tmp_path, seeds=1)), database=database)
    nowhere = ExecutorSettings(kind="ray", address=closed_loopback_address())

    with pytest.raises(RunError, match="nothing listens at"):
        run_tournament(load_config(_cup(tmp_path, seeds=2)), database=database, executor=nowhere)
