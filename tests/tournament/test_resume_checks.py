"""A stored tournament resumed with a config that would play other deals beside
its stored ones (or an SPRT on a round robin's games) is refused, naming the
field, rather than rating more games than scheduled."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest
import structlog.testing
from sheepfold.v1 import arena_pb2

import games
from tests.tournament.stored_records import finished_record, two_seat_record
from tests.tournament.tournament_command import tournament_main
from tournament.config import SprtSettings, TournamentConfig, load_config
from tournament.runner import open_tournament, schedule_for
from tournament.store import Store, StoreError


def _config(tmp_path: Path, settings: str = "") -> TournamentConfig:
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\ngames_per_pairing = 2\nseed = 1\n'
        f"bootstrap = 20\n{settings}\n[options]\nrounds = 1\n"
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    return load_config(path)


def _store_games(store: Store, config: TournamentConfig) -> int:
    """Open the tournament for `config` and store every game of its schedule."""
    schedule = schedule_for(config)
    tid = open_tournament(store, config, len(schedule), [list(config.bot_names)])
    for scheduled in schedule:
        store.record_game(tid, two_seat_record(scheduled))
    return tid


def _reopen(store: Store, config: TournamentConfig) -> int:
    return open_tournament(store, config, len(schedule_for(config)), [list(config.bot_names)])


def test_another_seed_is_refused_once_games_are_stored(tmp_path: Path) -> None:
    """It played the new seed's deals beside the old ones: "8/4 games", all rated."""
    config = _config(tmp_path)
    with Store(tmp_path / "t.sqlite") as store:
        open_tournament(store, config, 4, [["a", "b"]])
        # nothing stored yet: nothing to mix, so a corrected seed is fine
        _store_games(store, dataclasses.replace(config, seed=7))
        with pytest.raises(StoreError, match=r"^seed: tournament 'cup' in .* seed = 7 .*not 1"):
            _reopen(store, config)
        assert _reopen(store, dataclasses.replace(config, seed=7))


def test_games_per_pairing_may_grow_but_not_shrink(tmp_path: Path) -> None:
    config = _config(tmp_path)
    with Store(tmp_path / "t.sqlite") as store:
        _store_games(store, config)
        with pytest.raises(StoreError, match=r"^games_per_pairing: .*may grow, not shrink"):
            _reopen(store, dataclasses.replace(config, games_per_pairing=1))
        assert _reopen(store, dataclasses.replace(config, games_per_pairing=5))


def test_an_sprt_and_a_round_robin_never_share_a_tournament(tmp_path: Path) -> None:
    """The SPRT counted the round robin's games as its blocks and rewrote its
    schedule count ("28/12 games"), and the other way round."""
    config = _config(tmp_path)
    sprt = dataclasses.replace(config, schedule="sprt")
    with Store(tmp_path / "rr.sqlite") as store:
        _store_games(store, config)
        with pytest.raises(StoreError, match=r"^schedule: tournament 'cup' .* is a round robin"):
            _reopen(store, sprt)
    with Store(tmp_path / "sprt.sqlite") as store:
        _reopen(store, sprt)
        with pytest.raises(StoreError, match=r"^schedule: tournament 'cup' .* is an SPRT"):
            _reopen(store, config)
        assert _reopen(store, sprt), "an SPRT resumes as an SPRT"


@pytest.mark.e2e
def test_run_with_another_seed_stops_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path)
    db = str(tmp_path / "cup.sqlite")
    path = str(tmp_path / "cup.toml")
    assert tournament_main(["run", path, "--db", db, "--no-report"]) == 0
    Path(path).write_text(Path(path).read_text().replace("seed = 1", "seed = 5"))
    capsys.readouterr()
    assert tournament_main(["run", path, "--db", db, "--no-report"]) == 1
    err = capsys.readouterr().err.splitlines()
    (line,) = [line for line in err if line.startswith("sheepfold tournament:")]
    assert line.startswith("sheepfold tournament: seed: tournament 'cup' in ")
    assert "game finished" not in "\n".join(err), "refused before any game"
    with Store(db) as store:
        record = store.tournament("cup")
        assert len(store.games(record.id)) == record.scheduled == len(schedule_for(config))


@pytest.mark.parametrize(
    "written",
    [
        {"rounds": "1", "double_trouble": "false"},  # a default written out
        {"rounds": "01"},
        {"rounds": "1", "double_trouble": "no"},
    ],
)
def test_options_that_mean_the_same_resume(tmp_path: Path, written: dict[str, str]) -> None:
    """Options are compared by what the game makes of them: writing out
    `double_trouble = false`, the default, stopped the resume with "was played
    with options = {'rounds': '1'}, not {'double_trouble': 'false', ...}"."""
    config = _config(tmp_path)
    options = tuple(sorted(written.items()))
    with Store(tmp_path / "t.sqlite") as store:
        tid = _store_games(store, config)
        assert _reopen(store, dataclasses.replace(config, options=options)) == tid
        assert store.tournaments()[0].options == {"rounds": "1"}, "stored as first written"
        with pytest.raises(StoreError, match=r"^options: tournament 'cup' .*not \{'rounds': '2'\}"):
            _reopen(store, dataclasses.replace(config, options=(("rounds", "2"),)))


def test_another_max_groups_is_refused_once_its_games_are_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past `max_groups` a k-player round robin plays a balanced design of that
    many groups, and designs of two sizes share few of them. Changed once games
    were stored, the new design left stored groups out, whose games stayed
    rated: "42/21 games", as a lower games_per_pairing once said."""
    path = tmp_path / "cup.toml"
    bots = "".join(f'[[bots]]\nname = "b{i}"\nbuiltin = "random"\n' for i in range(7))
    path.write_text(
        'game = "sheep-n-sheep"\nplayers = 3\nmax_groups = 14\n'
        "games_per_pairing = 1\nbootstrap = 0\n" + bots
    )
    db = str(tmp_path / "cup.sqlite")
    config = load_config(path)
    schedule = schedule_for(config)
    with Store(db) as store:
        tid = open_tournament(store, config, len(schedule), [list(config.bot_names)])
        for game in schedule:
            ranks = list(range(1, len(game.seats) + 1))
            store.record_game(
                tid,
                finished_record(game, [3.0, 2.0, 1.0], ranks),
            )
    path.write_text(path.read_text().replace("max_groups = 14", "max_groups = 7"))
    capsys.readouterr()
    assert tournament_main(["run", str(path), "--db", db, "--no-report"]) == 1
    err = capsys.readouterr().err.splitlines()
    (line,) = [line for line in err if line.startswith("sheepfold tournament:")]
    assert line.startswith("sheepfold tournament: max_groups: tournament 'cup' in "), line
    assert "42 stored games of groups that max_groups = 7 leaves out" in line, line
    with Store(db) as store:
        assert store.tournament("cup").scheduled == 84, "the stored schedule is left as it was"
    path.write_text(path.read_text().replace("max_groups = 7", "max_groups = 14"))
    assert tournament_main(["run", str(path), "--db", db, "--no-report"]) == 0


def test_another_player_count_is_named_as_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An organiser who raised `players` from 2 to 3 was told of `max_groups`
    ("holds 4 stored games of groups that max_groups = 60 leaves out"), a
    setting never touched: the new schedule's groups left the old games out
    before the player count itself was compared."""
    config = _config(tmp_path)
    db = str(tmp_path / "cup.sqlite")
    with Store(db) as store:
        _store_games(store, config)
    path = tmp_path / "cup.toml"
    path.write_text(
        path.read_text().replace("players = 2", "players = 3")
        + '[[bots]]\nname = "c"\nbuiltin = "random"\n'
    )
    capsys.readouterr()
    assert tournament_main(["run", str(path), "--db", db, "--no-report"]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if line.startswith("sheepfold tournament:")] == [
        f"sheepfold tournament: players: tournament 'cup' in {db} was played with "
        "players = 2, not 3; use another name or database"
    ]


@pytest.mark.parametrize(
    ("setting", "changed", "shown"),
    [
        ("decision_seconds", 2.5, "decision_seconds = 2.5, not 10.0; set it back to 2.5 "),
        ("time_bank_seconds", 30.0, "time_bank_seconds = 30.0, not 0.0; set it back to 30.0 "),
        ("max_strikes", 1, "max_strikes = 1, not 3; set it back to 1 "),
        ("forfeit_on_timeout", False, "forfeit_on_timeout = false, not true; set it back"),
    ],
)
def test_another_clock_is_refused_once_games_are_stored(
    tmp_path: Path, setting: str, changed: object, shown: str
) -> None:
    """The clock and the cost of missing it resumed silently changed: games
    played at 10 s a decision were rated beside games played at 2.5 s."""
    config = _config(tmp_path)
    other = dataclasses.replace(config, **{setting: changed})
    with Store(tmp_path / "t.sqlite") as store:
        open_tournament(store, config, 4, [["a", "b"]])
        tid = _store_games(store, other)  # nothing stored yet: a fix is fine
        with pytest.raises(StoreError) as caught:
            _reopen(store, config)
        line = str(caught.value)
        assert line.startswith(f"{setting}: tournament 'cup' in ")
        assert shown in line and line.endswith("use another name or database")
        assert "\n" not in line
        assert _reopen(store, other) == tid


def test_a_clock_setting_not_stored_is_not_checked(tmp_path: Path) -> None:
    """A tournament stored before a setting was written to its config resumes."""
    config = _config(tmp_path)
    with Store(tmp_path / "t.sqlite") as store:
        tid = _store_games(store, config)
        stored = store.tournaments()[0].config
        del stored["time_bank_seconds"]
        with sqlite3.connect(store.path) as db:
            db.execute("UPDATE tournaments SET config_json = ?", (json.dumps(stored),))
        assert _reopen(store, dataclasses.replace(config, time_bank_seconds=5.0)) == tid
        with pytest.raises(StoreError, match=r"^time_bank_seconds: .* = 5.0, not 0.0"):
            _reopen(store, config)  # stored from then on


def test_a_bot_redefined_under_its_name_is_named_once(tmp_path: Path) -> None:
    """A bot's fix between runs may be legitimate, so it resumes; but its stored
    games were played by the old definition, which once went without a word."""
    config = _config(tmp_path)
    b = config.bots[1]
    fixed = dataclasses.replace(b, builtin="greedy", env=(("TOKEN", "s3cret"),))
    renewed = dataclasses.replace(config, bots=(config.bots[0], fixed))
    with Store(tmp_path / "t.sqlite") as store:
        tid = _store_games(store, config)
        with structlog.testing.capture_logs() as logs:
            assert _reopen(store, renewed) == tid
        (entry,) = logs
        line = entry["event"]
        assert entry["log_level"] == "warning" and "\n" not in line
        assert line.startswith("bot 'b' is not defined as when its stored games were played")
        assert "(builtin, env changed)" in line and "s3cret" not in line
        assert "sheepfold tournament forget b --db " in line
        with structlog.testing.capture_logs() as logs:
            _reopen(store, renewed)
        assert logs == [], "said once: the new definition is stored"


def test_a_redefined_bot_without_stored_games_says_nothing(tmp_path: Path) -> None:
    config = _config(tmp_path)
    with Store(tmp_path / "t.sqlite") as store:
        open_tournament(store, config, 4, [["a", "b"]])
        greedy = dataclasses.replace(config.bots[1], builtin="greedy")
        with structlog.testing.capture_logs() as logs:
            _reopen(store, dataclasses.replace(config, bots=(config.bots[0], greedy)))
        assert logs == []


def test_an_sprt_keeps_its_bounds_once_blocks_are_stored(tmp_path: Path) -> None:
    """An SPRT's verdict is recomputed from every stored block: elo1 lowered
    after seeing them decided the test by bounds chosen from its data."""
    config = _config(tmp_path)
    sprt = dataclasses.replace(config, schedule="sprt", sprt=SprtSettings("a", "b"))
    lower = dataclasses.replace(sprt, sprt=SprtSettings("a", "b", elo1=5.0))
    more = dataclasses.replace(sprt, sprt=SprtSettings("a", "b", max_games=50))
    with Store(tmp_path / "t.sqlite") as store:
        _reopen(store, lower)  # nothing stored yet: bounds may still be corrected
        tid = _reopen(store, sprt)
        for scheduled in schedule_for(config):
            store.record_game(tid, two_seat_record(scheduled))
        with pytest.raises(StoreError) as caught:
            _reopen(store, lower)
        assert str(caught.value).startswith(
            "sprt.elo1: tournament 'cup' in "
        ) and "was tested with elo1 = 10.0, not 5.0; set it back to 10.0" in str(caught.value)
        assert _reopen(store, more) == tid, "max_games may change"


def test_an_sprt_s_game_limit_may_grow_but_not_leave_stored_blocks_out(tmp_path: Path) -> None:
    """A lower max_games than the stored blocks' once cut the test to its first
    blocks: 50 stored blocks judged by the first alone, "300 games of an SPRT
    (at most 6)", a verdict from a prefix the organiser chose after seeing the
    data (as a changed bound would be)."""
    config = _config(tmp_path)  # deals 1 and 2: two blocks of the pair
    sprt = dataclasses.replace(config, schedule="sprt", sprt=SprtSettings("a", "b"))
    one_block = dataclasses.replace(sprt, sprt=SprtSettings("a", "b", max_games=3))
    two_blocks = dataclasses.replace(sprt, sprt=SprtSettings("a", "b", max_games=4))
    with Store(tmp_path / "t.sqlite") as store:
        tid = _reopen(store, sprt)
        for scheduled in schedule_for(config):
            store.record_game(tid, two_seat_record(scheduled))
        with pytest.raises(StoreError) as caught:
            _reopen(store, one_block)
        assert str(caught.value) == (
            f"sprt.max_games: tournament 'cup' in {store.path} holds blocks on deals 1 to "
            "2, but max_games = 3 counts 1 block (deal 1 alone): it may grow, not shrink "
            "(its verdict counts every stored block); use another name or database"
        )
        assert _reopen(store, two_blocks) == tid


@pytest.mark.parametrize(
    ("pair", "setting", "was"),
    [(("b", "a"), "candidate", "a"), (("a", "c"), "baseline", "b")],
)
def test_an_sprt_keeps_its_pair_once_blocks_are_stored(
    tmp_path: Path, pair: tuple[str, str], setting: str, was: str
) -> None:
    """The candidate and baseline changed without a word: swapped, the new
    test counted the stored blocks (the same keys) as its own, scored the other
    way round; another baseline's test was rated beside the old pair's games."""
    two = _config(tmp_path)
    config = dataclasses.replace(two, bots=(*two.bots, dataclasses.replace(two.bots[0], name="c")))
    sprt = dataclasses.replace(config, schedule="sprt", sprt=SprtSettings("a", "b"))
    other = dataclasses.replace(sprt, sprt=SprtSettings(*pair))
    with Store(tmp_path / "t.sqlite") as store:
        _reopen(store, other)  # nothing stored yet: the pair may still be corrected
        tid = _reopen(store, sprt)
        for scheduled in schedule_for(two):  # blocks of a against b
            store.record_game(tid, two_seat_record(scheduled))
        with pytest.raises(StoreError) as caught:
            _reopen(store, other)
        line = str(caught.value)
        now = pair[0] if setting == "candidate" else pair[1]
        assert line.startswith(f"sprt.{setting}: tournament 'cup' in "), line
        assert f"was tested with {setting} = {was!r}, not {now!r}; " in line
        assert "\n" not in line and "stored blocks are a against b" in line
        assert f"`sheepfold tournament forget {was} --db {store.path} --tournament cup`" in line
        assert line.endswith("use another name or database")
        assert _reopen(store, sprt) == tid, "the stored pair resumes"
        store.forget(tid, store.keys_of_bot(tid, was))
        assert _reopen(store, other) == tid, "once its blocks are forgotten, another pair"


@pytest.mark.parametrize("first", [True, False])
def test_a_changed_secret_deals_says_it_changes_nothing(tmp_path: Path, first: bool) -> None:
    """The choice is made when the tournament is first stored; turned on later
    (to keep bots from knowing their deals) it was ignored without a word."""
    config = dataclasses.replace(_config(tmp_path), secret_deals=first)
    with Store(tmp_path / "t.sqlite") as store:
        tid = _reopen(store, config)
        with structlog.testing.capture_logs() as logs:
            assert _reopen(store, dataclasses.replace(config, secret_deals=not first)) == tid
        (entry,) = logs
        assert entry["event"].startswith(
            f"secret_deals = {str(not first).lower()} changes nothing: tournament 'cup' "
        )
        kept = "under its stored secret" if first else "its deal numbers as seeds"
        assert kept in entry["event"]
        assert (store.deal_secret(tid) is not None) is first, "the stored choice stays"


def test_a_redefined_bot_is_named_by_the_config_s_own_keys(tmp_path: Path) -> None:
    """A built-in bot turned into a class: the warning named `cls`, the field of
    the runner's own record, where the config (and the docs) say `class`."""
    config = _config(tmp_path)
    mine = dataclasses.replace(config.bots[1], builtin=None, cls="simple_bots:FirstChoiceBot")
    with Store(tmp_path / "t.sqlite") as store:
        _store_games(store, config)
        with structlog.testing.capture_logs() as logs:
            _reopen(store, dataclasses.replace(config, bots=(config.bots[0], mine)))
        (entry,) = logs
        assert "(builtin, class changed)" in entry["event"], entry["event"]


@pytest.mark.parametrize("played_under", [-1, 0])
def test_a_resume_under_other_rules_says_so(tmp_path: Path, played_under: int) -> None:
    """An upgrade that changes a game's rules (Sheep Showdown's version 5 added
    the diagonal slide) once resumed a tournament whose stored games the old
    rules played without a word: both were rated together as one field."""
    config = _config(tmp_path)
    now = games.get("sheep-showdown").rules_version
    with Store(tmp_path / "t.sqlite") as store:
        schedule = schedule_for(config)
        tid = open_tournament(store, config, len(schedule), [list(config.bot_names)])
        for scheduled in schedule:
            replay = arena_pb2.Replay(rules_version=now + played_under)
            store.record_game(tid, two_seat_record(scheduled), replay)
        with structlog.testing.capture_logs() as logs:
            _reopen(store, config)
    lines = [entry["event"] for entry in logs if entry["log_level"] == "warning"]
    if played_under == 0:
        assert lines == []
        return
    assert lines == [
        f"sheep-showdown is at rules version {now} in this sheepfold, and the newest stored "
        f"game of tournament 'cup' was played under version {now - 1}: the games played now "
        "are rated beside it (a new tournament name keeps them apart)"
    ]
