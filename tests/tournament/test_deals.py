"""Each game's match seed is drawn from its public deal number under a secret
the tournament keeps: every group still plays the same deals, and nobody who
knows only the config can tell which deal a game is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tournament.config import load_config
from tournament.deals import SECRET_BYTES, dealt, new_secret, secret_seed
from tournament.runner import run_tournament
from tournament.schedule import make_schedule
from tournament.store import Store
from tournament.store_schema import MIGRATIONS


def test_the_same_deal_number_gives_every_group_the_same_seed_and_only_under_its_secret() -> None:
    schedule = make_schedule(["a", "b", "c"], 2, games_per_pairing=3, base_seed=7)
    secret = new_secret()
    assert len(secret) == SECRET_BYTES and secret != new_secret()
    games = dealt(schedule, secret)
    assert [g.key for g in games] == [g.key for g in schedule]  # resume keys unchanged
    by_deal: dict[int, set[int]] = {}
    for game in games:
        by_deal.setdefault(game.seed, set()).add(game.match_seed)
    assert sorted(by_deal) == [7, 8, 9]
    assert all(len(seeds) == 1 for seeds in by_deal.values())  # every group, every seat order
    seeds = [next(iter(s)) for s in by_deal.values()]
    assert len(set(seeds)) == 3 and not set(seeds) & {7, 8, 9}
    assert all(0 <= seed < 2**63 for seed in seeds)
    assert dealt(schedule, secret) == games  # the same secret deals the same again
    assert [g.match_seed for g in dealt(schedule, new_secret())] != [g.match_seed for g in games]
    assert [g.match_seed for g in dealt(schedule, None)] == [g.seed for g in schedule]
    assert secret_seed(secret, 7) == by_deal[7].pop()


def _config(folder: Path, extra: str = "", per_pairing: int = 1) -> Path:
    path = folder / "cup.toml"
    path.write_text(
        f'name = "cup"\ngame = "sheep-showdown"\ngames_per_pairing = {per_pairing}\n'
        f"bootstrap = 0\n{extra}[options]\nrounds = 1\n"
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "greedy"\n'
    )
    return path


def _seeds(db: Path) -> tuple[bytes | None, dict[str, tuple[int, int]]]:
    """The tournament's secret, and each game's (deal number, seed it was played from)."""
    with Store(db) as store:
        tid = store.tournament("cup").id
        found = {}
        for game in store.games(tid):
            replay = store.replay(game.match_id)
            assert replay is not None
            found[game.key] = (game.seed, replay.seed)
        return store.deal_secret(tid), found


@pytest.mark.e2e
def test_a_stored_secret_gives_the_same_seeds_in_every_version() -> None:
    """A tournament resumed by a later sheepfold must play the deals its
    secret gave before: the seed is the deal number's decimal text hashed by
    BLAKE2b keyed with the secret (8 bytes, big-endian), its top bit cleared.
    Worked with hashlib apart from tournament.deals for the secret bytes 0..15;
    deal 123456789's digest has its top bit set, so the mask shows."""
    secret = bytes(range(SECRET_BYTES))
    assert secret_seed(secret, 0) == 320548698972188155
    assert secret_seed(secret, 7) == 453525143739174951
    assert secret_seed(secret, 123456789) == 1285003837341764972


def test_two_databases_deal_differently_and_a_resumed_tournament_keeps_its_deals(
    tmp_path: Path,
) -> None:
    config = load_config(_config(tmp_path))
    for db in ("one.sqlite", "two.sqlite"):
        assert run_tournament(config, database=str(tmp_path / db)).played == 2
    secret, one = _seeds(tmp_path / "one.sqlite")
    other, two = _seeds(tmp_path / "two.sqlite")
    assert secret is not None and other is not None and secret != other
    assert one.keys() == two.keys()
    assert {seed for _, seed in one.values()} == {secret_seed(secret, 1)}  # both seat orders
    assert {seed for _, seed in two.values()} == {secret_seed(other, 1)}
    # Resumed with a second deal: the secret stays, the first deal's games stay as played.
    more = load_config(_config(tmp_path, per_pairing=2))
    assert run_tournament(more, database=str(tmp_path / "one.sqlite")).played == 2
    kept, now = _seeds(tmp_path / "one.sqlite")
    assert kept == secret
    assert {key: now[key] for key in one} == one
    assert {now[key] for key in now.keys() - one.keys()} == {(2, secret_seed(secret, 2))}


@pytest.mark.e2e
def test_without_secret_deals_the_deal_numbers_are_the_seeds_and_stay_so(tmp_path: Path) -> None:
    db = tmp_path / "open.sqlite"
    run_tournament(load_config(_config(tmp_path, "secret_deals = false\n")), database=str(db))
    secret, seeds = _seeds(db)
    assert secret is None and set(seeds.values()) == {(1, 1)}
    # The choice is made when the tournament is first stored: resuming with the
    # default keeps its games comparable, on the deal numbers.
    run_tournament(load_config(_config(tmp_path, per_pairing=2)), database=str(db))
    secret, seeds = _seeds(db)
    assert secret is None and set(seeds.values()) == {(1, 1), (2, 2)}


def test_a_tournament_stored_before_there_were_secrets_keeps_its_deal_numbers(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as raw:
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version (version) VALUES (3)")
        for migration in MIGRATIONS[:3]:
            raw.executescript(migration)
        raw.execute(
            "INSERT INTO tournaments (name, game, players, options_json, config_json,"
            " created_at, updated_at) VALUES ('cup', 'sheep-showdown', 2, '{}', '{}', 0, 0)"
        )
    with Store(db) as store:
        assert store.version == len(MIGRATIONS) == 6
        assert store.deal_secret(store.tournament("cup").id) is None
