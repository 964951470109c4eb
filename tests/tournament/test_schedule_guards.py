"""Schedule promises that no test guarded: each test here fails under a
plausible fault in the schedule code that the other tournament tests let
through (a match seed per seating or per place in a resumed batch, games
ordered group by group, a grown ladder not sorted by deal, a balanced design
that moves between processes, a game in play counted as played, timeouts
replayed by `--rerun-crashed`, a reordered config rescheduling its groups).
Every expectation is counted over the schedule itself, from what
docs/tournament.md promises, never copied from a run's output."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.tournament.stored_records import finished_record
from tournament.config import TournamentConfig, load_config
from tournament.deals import dealt, secret_seed
from tournament.run_schedule import ladder_stages, schedule_for, seat_orders_for
from tournament.runner import open_tournament
from tournament.schedule import ScheduledGame, ladder_schedule, make_schedule, sprt_block
from tournament.store import Store
from tournament.store_records import InPlay

NAMES = [f"b{i:02d}" for i in range(10)]
SECRET = bytes(range(16))
REPO = Path(__file__).resolve().parents[2]


def _seeds_by_deal(games: list[ScheduledGame]) -> dict[int, set[int]]:
    seeds: dict[int, set[int]] = defaultdict(set)
    for game in games:
        assert game.secret_seed is not None
        seeds[game.seed].add(game.secret_seed)
    return seeds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_deal_number_is_one_match_seed_for_every_seating_and_group(players: int) -> None:
    """Under a secret, every game of a deal number (both seatings of a pair,
    every rotation, every group) plays the same match seed, and two deal
    numbers play two seeds: a seed per seating would give the seats of a pair
    different deals, and the swap would no longer cancel a lucky deal."""
    schedule = make_schedule(NAMES[:5], players, games_per_pairing=3, base_seed=40)
    seeds = _seeds_by_deal(dealt(schedule, SECRET))
    assert set(seeds) == {40, 41, 42}
    assert all(len(drawn) == 1 for drawn in seeds.values())
    assert len({next(iter(drawn)) for drawn in seeds.values()}) == 3
    assert seeds[40] == {secret_seed(SECRET, 40)}


def test_a_resumed_batch_plays_the_deals_the_whole_schedule_does() -> None:
    """A resume deals only the games still to play: each must get the seed it
    had in the whole schedule (a seed from its place in the batch would give
    a resumed game another deal than its pair's first game)."""
    schedule = make_schedule(NAMES[:4], 2, games_per_pairing=2, base_seed=1)
    whole = {game.key: game.match_seed for game in dealt(schedule, SECRET)}
    for start in (1, 5, len(schedule) - 1):
        rest = dealt(schedule[start:], SECRET)
        assert {game.key: game.match_seed for game in rest} == {
            key: seed for key, seed in whole.items() if key in {g.key for g in rest}
        }


def _groups(schedule: tuple[ScheduledGame, ...]) -> set[frozenset[str]]:
    return {frozenset(game.seats) for game in schedule}


@pytest.mark.parametrize(("bots", "players", "max_groups"), [(5, 2, 60), (6, 3, 60), (10, 3, 30)])
def test_a_partial_run_covers_every_group_before_the_next_deal(
    bots: int, players: int, max_groups: int
) -> None:
    """ "Games are ordered seed by seed, so a partial run covers every group":
    the deal numbers never go down along the schedule, and the games of the
    first deal hold every group."""
    schedule = make_schedule(NAMES[:bots], players, 3, 1, max_groups)
    deals = [game.seed for game in schedule]
    assert deals == sorted(deals)
    first = tuple(game for game in schedule if game.seed == 1)
    assert schedule[: len(first)] == first and _groups(first) == _groups(schedule)


@pytest.mark.parametrize(("players", "max_groups"), [(2, 60), (3, 12)])
def test_a_grown_ladder_is_still_ordered_deal_by_deal(players: int, max_groups: int) -> None:
    """A newcomer's games are woven in deal by deal, not put after every
    deal of the old field: a run stopped early would otherwise have played
    the old field's later deals and none of the newcomer's."""
    stages = [NAMES[:5], NAMES[:6]]
    schedule = ladder_schedule(stages, players, 3, 1, max_groups)
    deals = [game.seed for game in schedule]
    assert deals == sorted(deals)
    first = [game for game in schedule if game.seed == 1]
    assert any(NAMES[5] in game.seats for game in first)
    assert _groups(tuple(first)) == _groups(schedule)


_DESIGN = (
    "import json, sys\n"
    "from tournament.schedule import make_schedule\n"
    "names = json.loads(sys.argv[1])\n"
    "print(json.dumps([g.key for g in make_schedule(names, 3, 1, 1, max_groups=30)]))\n"
)


def _design_in_a_process(hash_seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", _DESIGN, json.dumps(NAMES)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout
    keys: list[str] = json.loads(out)
    return keys


def test_a_balanced_design_is_the_same_in_every_process() -> None:
    """A tournament past `max_groups` is rebuilt from its config on every run
    and report: a design that moved between runs (a random draw, or string
    hashing, which Python seeds anew in each process) would leave stored
    games outside the new groups and play others."""
    here = [game.key for game in make_schedule(NAMES, 3, 1, 1, max_groups=30)]
    assert len(_groups(make_schedule(NAMES, 3, 1, 1, max_groups=30))) < len(
        list(itertools.combinations(NAMES, 3))
    )
    assert [game.key for game in make_schedule(NAMES, 3, 1, 1, max_groups=30)] == here
    assert _design_in_a_process("1") == here
    assert _design_in_a_process("2") == here


def test_a_game_in_play_is_not_counted_as_played(tmp_path: Path) -> None:
    """A resume plays the scheduled games whose keys are not stored: a game a
    killed run left in play was never finished and is still to play."""
    schedule = make_schedule(["x", "y", "z"], 2, 1, 1)
    with Store(str(tmp_path / "cup.sqlite")) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.start_run(tid, "run", 1.0)
        store.record_game(tid, finished_record(schedule[0], [1.0, 0.0], [1, 2]))
        store.game_in_play(tid, InPlay(schedule[1].key, "m2", schedule[1].seats, "", 2.0))
        assert store.done_keys(tid) == {schedule[0].key}


def test_rerun_crashed_picks_the_crashed_games_alone(tmp_path: Path) -> None:
    """`--rerun-crashed` replays the games in which a bot crashed: not one a
    bot lost by missing deadlines, by disqualification or cleanly, which
    would hand a slow bot another deal of its choosing."""
    schedule = make_schedule(["x", "y", "z"], 2, 1, 1)
    crashed, timed_out, disqualified, clean = schedule[:4]
    with Store(str(tmp_path / "cup.sqlite")) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.record_game(
            tid, finished_record(crashed, [1.0, 0.0], [1, 2], match_id="a", crashed={1: "boom"})
        )
        store.record_game(
            tid, finished_record(timed_out, [1.0, 0.0], [1, 2], match_id="b", strikes=[0, 2])
        )
        store.record_game(
            tid,
            finished_record(
                disqualified, [1.0, 0.0], [1, 2], match_id="c", disqualified=[False, True]
            ),
        )
        store.record_game(tid, finished_record(clean, [1.0, 0.0], [1, 2], match_id="d"))
        assert store.crashed_keys(tid) == {crashed.key}


def _cup_config(tmp_path: Path, bots: list[str]) -> TournamentConfig:
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 4\ngames_per_pairing = 1\nbootstrap = 0\n'
        + "".join(f'[[bots]]\nname = "{bot}"\nbuiltin = "random"\n' for bot in bots)
    )
    return load_config(path)


def _run_schedule(store: Store, config: TournamentConfig) -> set[str]:
    stages = ladder_stages(store, config)
    return {game.key for game in schedule_for(config, stages, seat_orders_for(store, config))}


def test_the_bots_listed_in_another_order_resume_the_same_games(tmp_path: Path) -> None:
    """At 4 players a group plays 8 of its 24 seat orders, picked from the
    order its bots were listed in when the tournament was first stored. A
    config that lists them in another order later must resume those games,
    not schedule 8 others per group (and replay every group's deals), and a
    bot added then plays only the groups it sits in."""
    first = _cup_config(tmp_path, ["a", "b", "c", "d", "e"])
    with Store(str(tmp_path / "cup.sqlite")) as store:
        stored = _run_schedule(store, first)
        assert len(stored) == 5 * 8  # 5 groups of 4, 2 orders of 4 rotations
        open_tournament(store, first, len(stored), ladder_stages(store, first))
        reordered = _cup_config(tmp_path, ["e", "c", "a", "d", "b"])
        assert _run_schedule(store, reordered) == stored
        grown = _cup_config(tmp_path, ["e", "c", "a", "d", "b", "f"])
        added = _run_schedule(store, grown) - stored
        assert stored <= _run_schedule(store, grown)
        assert {frozenset(key.split(":")[1].split("|")) for key in added} == {
            frozenset(("f", *rest)) for rest in itertools.combinations("abcde", 3)
        }


def test_a_bot_removed_from_the_field_has_no_game_left_to_play() -> None:
    """A bot taken out of the config gets no games: the schedule of the
    smaller field is every game of the bots still in it, and none of the
    removed bot's (which would otherwise be played or counted as missing)."""
    schedule = ladder_schedule([["a", "b", "c", "d"], ["a", "b", "c"]], 2, 2, 1)
    assert all("d" not in game.seats for game in schedule)
    pairs = {frozenset(pair) for pair in itertools.combinations("abc", 2)}
    assert _groups(schedule) == pairs
    assert len(schedule) == len(pairs) * 2 * 2  # seats swapped, two deals


@pytest.mark.parametrize(("players", "needed"), [(3, "1 bot"), (4, "2 bots")])
def test_an_sprt_block_short_of_other_bots_says_how_many_it_needs(
    players: int, needed: str
) -> None:
    """It once said "3-player games need 1 bots"."""
    with pytest.raises(ValueError) as refused:
        sprt_block(0, 1, "new", "old", (), players)
    assert str(refused.value) == f"{players}-player games need {needed} beside the two tested"
