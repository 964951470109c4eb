"""Who sits right before whom: at 3 or more players each group plays every seed
in its seat order's rotations and in the reversed order's, so every bot sits
right before every other as often as right after it. The rotations alone
seated `a` right before `b` in every game they shared (6 times, never after,
in a 7-bot 3-player round robin), and a game that favours the seat before
another's gave identical bots 67/33 head to head."""

from __future__ import annotations

import itertools
import sqlite3
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.tournament.stored_records import finished_record
from tests.tournament.tournament_command import tournament_main
from tournament.config import ConfigError, load_config
from tournament.database_check import check_database
from tournament.run_schedule import seat_orders_for
from tournament.runner import ladder_stages, open_tournament
from tournament.schedule import ScheduledGame, make_schedule
from tournament.store import Store
from tournament.store_lock import SILENT_WAIT
from tournament.stored_schedule import scheduled_keys

NAMES = [f"b{i}" for i in range(12)]


def _before(games: Iterable[ScheduledGame], cyclic: bool) -> Counter[tuple[str, str]]:
    """How often each bot sits in the seat right before another's (seat i
    before seat i + 1; `cyclic`: the last seat before the first too)."""
    counts: Counter[tuple[str, str]] = Counter()
    for game in games:
        k = len(game.seats)
        for seat in range(k if cyclic else k - 1):
            counts[game.seats[seat], game.seats[(seat + 1) % k]] += 1
    return counts


def _assert_balanced(schedule: tuple[ScheduledGame, ...]) -> None:
    by_seed: dict[int, list[ScheduledGame]] = {}
    for game in schedule:
        by_seed.setdefault(game.seed, []).append(game)
    for games in [list(schedule), *by_seed.values()]:
        for cyclic in (True, False):
            counts = _before(games, cyclic)
            uneven = {
                (a, b): (counts[a, b], counts[b, a])
                for a, b in itertools.combinations(
                    sorted({bot for g in games for bot in g.seats}), 2
                )
                if counts[a, b] != counts[b, a]
            }
            assert not uneven, (cyclic, uneven)
    assert len({game.key for game in schedule}) == len(schedule)


def _seats(schedule: tuple[ScheduledGame, ...]) -> dict[str, Counter[int]]:
    seats: dict[str, Counter[int]] = {}
    for game in schedule:
        for seat, bot in enumerate(game.seats):
            seats.setdefault(bot, Counter())[seat] += 1
    return seats


@pytest.mark.parametrize(
    ("bots", "players", "max_groups"),
    [
        *[(4, 3, 60), (5, 3, 60), (7, 3, 60), (6, 4, 60), (7, 4, 60), (7, 5, 60), (8, 5, 60)],
        # balanced designs (more k-subsets than max_groups)
        *[(10, 3, 30), (9, 4, 18), (12, 5, 40)],
    ],
)
def test_a_round_robin_seats_every_bot_before_every_other_as_often_as_after(
    bots: int, players: int, max_groups: int
) -> None:
    schedule = make_schedule(NAMES[:bots], players, 3, 1, max_groups)
    _assert_balanced(schedule)
    # still every bot in every seat equally often
    counts = {count for seats in _seats(schedule).values() for count in seats.values()}
    assert len(counts) == 1
    assert all(len(seats) == players for seats in _seats(schedule).values())


@pytest.mark.parametrize(
    ("bots", "candidates", "players", "max_groups"),
    [(4, 1, 3, 60), (7, 2, 3, 60), (6, 1, 4, 60), (8, 2, 4, 60), (7, 1, 5, 60), (9, 1, 4, 14)],
)
def test_a_gauntlet_seats_every_bot_before_every_other_as_often_as_after(
    bots: int, candidates: int, players: int, max_groups: int
) -> None:
    names = NAMES[:bots]
    schedule = make_schedule(names, players, 2, 5, max_groups, names[:candidates])
    _assert_balanced(schedule)
    # every bot sits in every seat equally often (candidates play more games)
    for seats in _seats(schedule).values():
        assert len(seats) == players and len(set(seats.values())) == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_seed_is_played_in_both_orders_of_a_group(players: int) -> None:
    """2k games per group and seed: k = 3 plays all 6 seat orders."""
    group = tuple(NAMES[:players])
    schedule = make_schedule(group, players, 2, 1)
    assert len(schedule) == 2 * 2 * players
    for seed in (1, 2):
        orders = [game.seats for game in schedule if game.seed == seed]
        rotations = [group[i:] + group[:i] for i in range(players)]
        backwards = [order[::-1] for order in rotations]
        assert sorted(orders) == sorted(rotations + backwards)
        assert sorted(g.rotation for g in schedule if g.seed == seed) == list(range(2 * players))
    if players == 3:
        assert {game.seats for game in schedule} == set(itertools.permutations(group))


def test_one_seat_order_is_the_schedule_of_tournaments_stored_before() -> None:
    """`seat_orders = 1` rebuilds the rotations of each group's own order alone."""
    schedule = make_schedule(NAMES[:4], 3, 1, 1, seat_orders=1)
    assert [game.key for game in schedule[:3]] == ["1:b0|b1|b2", "1:b1|b2|b0", "1:b2|b0|b1"]
    assert len(schedule) == 4 * 3


def _cup(tmp_path: Path) -> Path:
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-n-sheep"\nplayers = 3\ngames_per_pairing = 1\nbootstrap = 0\n'
        + "".join(f'[[bots]]\nname = "{bot}"\nbuiltin = "random"\n' for bot in "abcd")
    )
    return path


@pytest.mark.e2e
def test_a_tournament_stored_before_keeps_its_one_seat_order(tmp_path: Path) -> None:
    """A tournament stored before a group played its reversed seat order too
    (its stored config holds no `seat_orders`) resumes with exactly the games
    it scheduled, and keeps doing so; a new one of the same config plays both."""
    path = _cup(tmp_path)
    config = load_config(path)
    db = str(tmp_path / "cup.sqlite")
    old = make_schedule(config.bot_names, 3, 1, 1, seat_orders=1)
    assert len(old) == 12  # 4 groups of 3, 3 rotations each
    with Store(db) as store:
        stages = ladder_stages(store, config)
        tid = open_tournament(store, config, len(old), stages)
        for game in old[:5]:
            store.record_game(tid, finished_record(game, [3.0, 2.0, 1.0], [1, 2, 3]))
    # as a version before `seat_orders` stored it
    with sqlite3.connect(db) as raw:
        raw.execute(
            "UPDATE tournaments SET config_json = json_remove(config_json, '$.seat_orders')"
        )
    raw.close()

    for _ in range(2):  # and still so once this version stored it again
        assert tournament_main(["run", str(path), "--db", db, "--no-report"]) == 0
        with Store(db) as store:
            record = store.tournament("cup")
            assert store.done_keys(record.id) == {game.key for game in old}
            assert record.scheduled == 12 and record.config["seat_orders"] == 1
            assert scheduled_keys(record) == {game.key for game in old}
            assert seat_orders_for(store, config) == 1

    path.write_text('name = "new-cup"\n' + path.read_text())
    assert tournament_main(["run", str(path), "--db", db, "--no-report"]) == 0
    with Store(db) as store:
        record = store.tournament("new-cup")
        assert record.scheduled == 24 and record.config["seat_orders"] == 2
        assert len(store.done_keys(record.id)) == 24
        assert scheduled_keys(record) == {
            game.key for game in make_schedule(config.bot_names, 3, 1, 1)
        }


def test_the_size_check_counts_the_seat_orders_a_stored_tournament_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tournament stored with one seat order plays half the games of a new
    one: 900,000 here, within the bound, and it resumes; the size check once
    counted both orders (1,800,000) and refused it at every run. A new one of
    the same config is refused before any game, as the config's mistake."""
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-n-sheep"\nplayers = 3\ngames_per_pairing = 100000\n'
        'schedule = "gauntlet"\ncandidates = ["a"]\n'
        + "".join(f'[[bots]]\nname = "{bot}"\nbuiltin = "random"\n' for bot in "abcd")
    )
    config = load_config(path)  # 900,000 games in one seat order: not refused
    db = str(tmp_path / "cup.sqlite")
    line = (
        f"sheepfold tournament: {path}: games_per_pairing: would schedule 1,800,000 games "
        "(3 groups of bots, each in 6 seat orders on 100,000 seeds)"
    )
    assert tournament_main(["run", str(path), "--db", db, "--no-report"]) == 2
    assert capsys.readouterr().err.startswith(line)
    with pytest.raises(ConfigError, match="would schedule 1,800,000 games"):
        check_database(db, SILENT_WAIT, config)

    with Store(db) as store:
        open_tournament(store, config, 900_000, ladder_stages(store, config))
    with sqlite3.connect(db) as raw:  # as a version before `seat_orders` stored it
        raw.execute(
            "UPDATE tournaments SET config_json = json_remove(config_json, '$.seat_orders')"
        )
    raw.close()
    assert check_database(db, SILENT_WAIT, config) is True
