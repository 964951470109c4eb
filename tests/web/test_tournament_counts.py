"""The tournaments list and a tournament's page count its games played alike:
the rated games of its current schedule. A round robin with a bot removed from
its config once listed that bot's old games too ("13 of 24 games played") while
its page said 5."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.stored_records import two_seat_record
from tests.tournament.test_outside_schedule import _config, _run
from tournament.runner import ladder_stages, open_tournament, schedule_for
from tournament.store import Store
from web import tournaments


def test_a_removed_bots_games_count_neither_on_the_list_nor_on_the_page(tmp_path: Path) -> None:
    db = tmp_path / "cup.sqlite"
    with Store(db) as store:
        assert _run(store, _config(tmp_path, ["a", "b", "c"])) == 12
        # c leaves, d and e join: a schedule of 24, of which a-b's 4 are stored.
        config = _config(tmp_path, ["a", "b", "d", "e"])
        stages = ladder_stages(store, config)
        schedule = schedule_for(config, stages)
        tid = open_tournament(store, config, len(schedule), stages)
        assert len(schedule) == 24 and len(store.done_keys(tid)) == 12
        store.record_game(tid, two_seat_record(next(g for g in schedule if "d" in g.seats)))
    (listed,), damaged = tournaments.listed_tournaments(db)
    page = tournaments.load(db, listed.record.name, samples=0)
    assert not damaged
    assert page.report["games_played"] == 5
    assert listed.played == 5
