"""Which deals a stored tournament still has games of to play (the web viewer
holds back every game of such a deal: they are dealt the same cards)."""

from __future__ import annotations

from typing import Any

from tournament.deals import secret_seed
from tournament.schedule import ladder_schedule, sprt_block
from tournament.store import TournamentRecord
from tournament.stored_schedule import DealSeeds, deal_in_play, deal_of_seed

ROUND_ROBIN: dict[str, Any] = {
    "seed": 7,
    "games_per_pairing": 2,
    "bots": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
}
SPRT: dict[str, Any] = {
    "schedule": "sprt",
    "seed": 5,
    "bots": [{"name": "new"}, {"name": "old"}],
    "sprt": {"candidate": "new", "baseline": "old", "elo0": 0, "elo1": 10, "alpha": 0.05,
             "beta": 0.05, "max_games": 8},
}  # fmt: skip


def _record(config: dict[str, Any], scheduled: int) -> TournamentRecord:
    return TournamentRecord(1, "t", "sheep-showdown", 2, {}, None, scheduled, config, 0.0, 0.0)


def test_a_round_robin_deal_is_in_play_until_its_last_game_is_stored() -> None:
    schedule = ladder_schedule([["a", "b", "c"]], 2, 2, 7)
    record = _record(ROUND_ROBIN, len(schedule))
    every = {game.key for game in schedule}
    deals = sorted({game.seed for game in schedule})
    assert len(deals) >= 2
    last = next(game for game in schedule if game.seed == deals[0])
    done = every - {last.key}
    assert deal_in_play(record, done, deals[0])
    assert not any(deal_in_play(record, done, deal) for deal in deals[1:])
    assert not deal_in_play(record, every, deals[0])
    # Games of a bot no longer in the field count for nothing.
    assert deal_in_play(record, done | {"old-1", "old-2", "old-3"}, deals[0])
    # A config that no longer rebuilds its schedule: any deal may be in play.
    edited = _record({**ROUND_ROBIN, "games_per_pairing": "two"}, len(schedule))
    assert deal_in_play(edited, done, deals[1])
    assert not deal_in_play(edited, every, deals[1])


def test_an_sprt_deal_is_in_play_until_its_block_is_stored() -> None:
    record = _record(SPRT, 8)  # four blocks of two games
    blocks = [sprt_block(index, 5, "new", "old", (), 2) for index in range(4)]
    done = {game.key for block in blocks[:2] for game in block} | {blocks[2][0].key}
    assert not deal_in_play(record, done, 5) and not deal_in_play(record, done, 6)
    assert deal_in_play(record, done, 7) and deal_in_play(record, done, 8)
    assert not deal_in_play(record, done, 99)  # no block of the test
    assert deal_in_play(_record({**SPRT, "sprt": {}}, 8), done, 5)  # edited: any may be


def test_a_match_seed_names_its_deal_under_the_secret_or_as_the_number() -> None:
    """deal_of_seed: the viewer knows a deal's matches the database never
    stored (a first try no bot joined) by their seed."""
    secret = b"k" * 16
    schedule = ladder_schedule([["a", "b", "c"]], 2, 2, 7)
    record = _record(ROUND_ROBIN, len(schedule))
    deals = sorted({game.seed for game in schedule})
    for deal in deals:
        assert deal_of_seed(record, secret, secret_seed(secret, deal), set(), list, {}) == deal
        assert deal_of_seed(record, None, deal, set(), list, {}) == deal  # no secret: the number
        assert deal_of_seed(record, secret, deal, set(), list, {}) is None
    assert deal_of_seed(record, secret, secret_seed(secret, 99), set(), list, {}) is None
    assert deal_of_seed(record, None, 99, set(), list, {}) is None
    # Another secret deals other seeds.
    assert deal_of_seed(record, b"x" * 16, secret_seed(secret, deals[0]), set(), list, {}) is None
    # An SPRT: its blocks' deals, 5 to 8 here.
    sprt = _record(SPRT, 8)
    found = [
        deal_of_seed(sprt, secret, secret_seed(secret, d), set(), list, {}) for d in range(4, 10)
    ]
    assert found == [None, 5, 6, 7, 8, None]
    # A config that no longer rebuilds its schedule: the stored games' deals.
    edited = _record({**ROUND_ROBIN, "games_per_pairing": "two"}, len(schedule))
    assert deal_of_seed(edited, secret, secret_seed(secret, 7), set(), lambda: [7], {}) == 7
    assert deal_of_seed(edited, secret, secret_seed(secret, 8), set(), lambda: [7], {}) is None
    # A caller's table keeps a secret's hashed deals for its next look.
    tables: dict[bytes, DealSeeds] = {}
    seed = secret_seed(secret, deals[0])
    assert deal_of_seed(record, secret, seed, set(), list, tables) == deals[0]
    assert set(tables) == {secret} and deals[0] in tables[secret].hashed
