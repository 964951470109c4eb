"""A bot added to a ladder plays deals never played before.

The first field's games are finished, and the web viewer shows a finished
deal whole (its match seed, every hand). A newcomer's author who read those
seeds could build the bot to find its deal among them with the public
engines at its first decision (tried: a sandboxed command bot named the
other seat's hand and the deck in every one of its 12 games), so a later
field's games are dealt under seeds of that field's own."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tournament.config import load_config
from tournament.deals import secret_seed
from tournament.runner import run_tournament
from tournament.store import Store
from tournament.stored_schedule import deal_of_seed


def _config(folder: Path, bots: tuple[str, ...]) -> Path:
    path = folder / "ladder.toml"
    entries = "".join(f'[[bots]]\nname = "{bot}"\nbuiltin = "random"\n' for bot in bots)
    path.write_text(
        'name = "ladder"\ngame = "sheep-showdown"\ngames_per_pairing = 2\nseed = 5\n'
        f"bootstrap = 0\n[options]\nrounds = 1\n{entries}"
    )
    return path


def _seeds(db: Path) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """The tournament's secret, and each game's (deal number, seed it was played from)."""
    with Store(db) as store:
        tid = store.tournament("ladder").id
        found = {}
        for game in store.games(tid):
            replay = store.replay(game.match_id)
            assert replay is not None
            found[game.key] = (game.seed, replay.seed)
        secret = store.deal_secret(tid)
        assert secret is not None
        return secret, found


def _grow(tmp_path: Path, db: Path, before_growing: str = "") -> None:
    assert run_tournament(load_config(_config(tmp_path, ("a", "b"))), database=str(db)).played == 4
    if before_growing:
        with sqlite3.connect(db) as connection:
            connection.execute(before_growing)
    grown = load_config(_config(tmp_path, ("a", "b", "c")))
    assert run_tournament(grown, database=str(db)).played == 8  # c's games alone


@pytest.mark.e2e
def test_a_newcomer_plays_deals_the_first_field_never_played(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    _grow(tmp_path, db)
    secret, seeds = _seeds(db)
    first = {key: seed for key, seed in seeds.items() if "c" not in key.split(":")[1].split("|")}
    later = {key: seed for key, seed in seeds.items() if key not in first}
    assert len(first) == 4 and len(later) == 8
    # The first field keeps the seeds every tournament gave its deals.
    assert all(seed == secret_seed(secret, deal) for deal, seed in first.values())
    published = {seed for _, seed in first.values()}
    for deal in (5, 6):
        dealt = {seed for number, seed in later.values() if number == deal}
        # One deal per number for the newcomer's games (both seat orders, both
        # opponents), and not one whose record the first field left.
        assert len(dealt) == 1 and not dealt & published
    # The viewer still knows a newcomer's match by its seed as a deal of the
    # tournament's (it holds back a match of a deal still in play).
    with Store(db) as store:
        record = store.tournament("ladder")
        done = store.done_keys(record.id)
        for deal, seed in later.values():
            assert deal_of_seed(record, secret, seed, done, lambda: (), {}) == deal


@pytest.mark.e2e
def test_a_ladder_stored_before_fields_had_deals_keeps_one_deal_per_number(
    tmp_path: Path,
) -> None:
    """Resuming must play the deals a tournament's secret gave before: one
    stored without `field_deals` deals its newcomers the first field's deals."""
    db = tmp_path / "ladder.sqlite"
    _grow(
        tmp_path,
        db,
        "UPDATE tournaments SET config_json = json_remove(config_json, '$.field_deals')",
    )
    secret, seeds = _seeds(db)
    assert len(seeds) == 12
    assert all(seed == secret_seed(secret, deal) for deal, seed in seeds.values())
    with Store(db) as store:  # kept as it was first stored, for the runs to come
        assert store.tournament("ladder").config["field_deals"] is False
