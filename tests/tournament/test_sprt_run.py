"""SPRT runs: block scoring, and real tests through an in-process server."""

from __future__ import annotations

import json
import math
import re
import sqlite3
from pathlib import Path

import pytest

from tests.tournament.tournament_command import killed_after, tournament_main
from tournament.config import load_config
from tournament.report import report_data
from tournament.schedule import sprt_block
from tournament.sprt import block_values
from tournament.sprt_blocks import SprtPlan, block_index, comparisons, games_per_block, tally
from tournament.sprt_run import EXIT_H0, EXIT_H1, EXIT_INCONCLUSIVE
from tournament.store import GameRecord, SeatRecord, TournamentRecord

HERE = Path(__file__).resolve().parent


def _record(key: str, seed: int, bots: tuple[str, ...], ranks: tuple[int, ...], scores=None):
    scores = scores or tuple(float(-r) for r in ranks)
    seats = tuple(
        SeatRecord(bot, score, rank, rank, 0, False, None)
        for bot, rank, score in zip(bots, ranks, scores, strict=True)
    )
    return GameRecord(key, "m", seed, 0, 0, seats, "done", "{}", 1.0, 0.0)


def test_a_four_player_block_scores_the_head_to_head_over_its_rotations() -> None:
    block = sprt_block(3, 10, "new", "old", ["f1", "f2", "f3"], 4)
    assert [game.seed for game in block] == [13] * 8
    assert {frozenset(game.seats) for game in block} == {frozenset({"new", "old", "f1", "f2"})}
    # new ahead of old in four games, tied in two, behind in two: (4*2 + 2*1 + 0) of 16
    outcomes = [(1, 2), (2, 4), (3, 3), (4, 1)] * 2
    games = []
    for game, (new_rank, old_rank) in zip(block, outcomes, strict=True):
        others = iter(r for r in (1, 2, 3, 4) if r not in (new_rank, old_rank))
        ranks = tuple(
            new_rank if bot == "new" else old_rank if bot == "old" else next(others, 4)
            for bot in game.seats
        )
        games.append(_record(game.key, game.seed, game.seats, ranks))
    assert block_index(games, "new", "old", 4) == (10, None)
    assert block_values(comparisons(4))[10] == 10 / 16
    # the next block seats the next two others in turn
    assert set(sprt_block(4, 10, "new", "old", ["f1", "f2", "f3"], 4)[0].seats) == {
        "new",
        "old",
        "f3",
        "f1",
    }


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_block_is_fair_to_a_bot_against_itself_whatever_the_seat_order(players: int) -> None:
    """A game that ranks its seats in order (seat 0 first, seat 1 second, ...)
    gives a bot exactly half of every block against itself. Cyclic rotations of
    (candidate, baseline, others) alone always seated the baseline right after
    the candidate: the candidate then scored 2/3 of each block at 3 players and
    3/4 at 4, and such an SPRT of a bot against itself accepted H1."""
    others = ["f1", "f2", "f3", "f4"]
    for index in range(4):
        block = sprt_block(index, 1, "new", "old", others, players)
        seated = [(game.seats.index("new"), game.seats.index("old")) for game in block]
        # every seat pair the two take, they take the other way round as often
        assert sorted(seated) == sorted((old, new) for new, old in seated)
        games = [
            _record(game.key, game.seed, game.seats, tuple(range(1, players + 1))) for game in block
        ]
        value, _ = block_index(games, "new", "old", players)
        assert block_values(comparisons(players))[value] == 0.5
        assert len({game.key for game in block}) == len(block) == games_per_block(players)


def test_solo_blocks_compare_scores_on_the_same_deal_and_only_complete_blocks_count(
    tmp_path: Path,
) -> None:
    path = tmp_path / "solo.toml"
    path.write_text(
        'game = "stubborn-sheep"\nplayers = 1\nseed = 5\nschedule = "sprt"\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "greedy"\n'
    )
    config = load_config(path)
    assert config.sprt is not None and config.sprt.candidate == "a"
    stored = [
        _record("5:a", 5, ("a",), (1,), (30.0,)),
        _record("5:b", 5, ("b",), (1,), (25.0,)),  # block 0: a +5, a win
        _record("6:a", 6, ("a",), (1,), (10.0,)),
        _record("6:b", 6, ("b",), (1,), (10.0,)),  # block 1: a draw
        _record("7:a", 7, ("a",), (1,), (10.0,)),  # block 2: b has not played it yet
    ]
    counts, differences, complete = tally(SprtPlan.from_config(config, config.sprt), stored)
    assert counts == [0, 1, 1] and sorted(differences) == [0.0, 5.0] and complete == {0, 1}


def test_a_failed_solo_seat_loses_its_block_whatever_its_stand_in_scored() -> None:
    """A failed seat is ranked last: solo, its random stand-in's score does not
    count, and it loses to a seat that did not fail on the same deal."""

    def solo(bot: str, score: float, failure: str | None) -> GameRecord:
        seat = SeatRecord(bot, score, 1, 1, 0, False, failure)
        return GameRecord(f"5:{bot}", "m", 5, 0, 0, (seat,), "done", "{}", 1.0, 0.0)

    crashed_high = [solo("new", 30.0, "crash"), solo("old", 10.0, None)]
    assert block_index(crashed_high, "new", "old", 1) == (0, 0.0)
    baseline_crashed = [solo("new", 10.0, None), solo("old", 30.0, "crash")]
    assert block_index(baseline_crashed, "new", "old", 1) == (2, 0.0)
    both = [solo("new", 30.0, "crash"), solo("old", 10.0, "timeout")]
    assert block_index(both, "new", "old", 1) == (1, 0.0)
    lower_stand_in = [solo("new", 5.0, "crash"), solo("old", 10.0, None)]
    assert block_index(lower_stand_in, "new", "old", 1) == (0, -5.0)


def _config(tmp_path: Path, candidate: str, baseline: str, max_games: int) -> Path:
    path = tmp_path / "sprt.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\nschedule = "sprt"\nconcurrency = 2\n'
        f'python_path = ["{HERE}"]\n'
        "[options]\nrounds = 1\n"
        f'[sprt]\ncandidate = "{candidate}"\nbaseline = "{baseline}"\n'
        f"elo0 = 0\nelo1 = 100\nmax_games = {max_games}\n"
        '[[bots]]\nname = "mcts"\nclass = "tournament_test_bots:QuickMCTSBot"\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
    )
    return path


def _games(path: Path) -> int:
    with sqlite3.connect(path.with_suffix(".sqlite")) as raw:
        return raw.execute("SELECT COUNT(*) FROM games").fetchone()[0]


@pytest.mark.e2e
def test_mcts_against_random_accepts_h1_in_a_few_dozen_games_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _config(tmp_path, "mcts", "random", max_games=6)
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    assert _games(path) == 6
    capsys.readouterr()

    # a bigger limit resumes from the 6 stored games, printing the test as it goes
    assert tournament_main(["sprt", str(path), "--max-games", "200"]) == EXIT_H1
    out = capsys.readouterr()
    looks = re.findall(r"LLR ([-+][\d.]+) \(-2.944, \+2.944\), (\d+) games", out.err)
    assert looks[0][1] == "6" and len(looks) > 2
    llrs = [float(value) for value, _ in looks]
    games = int(looks[-1][1])
    assert llrs[-1] >= 2.944 > llrs[-2] and 12 <= games <= 60 and _games(path) == games
    assert f"{games - 6} games played this run" in out.out and "H1 accepted" in out.out
    assert re.search(r"Elo [-+][\d.inf]+ \[", out.err)

    # decided: running again plays nothing and gives the same verdict
    assert tournament_main(["sprt", str(path), "--max-games", "200"]) == EXIT_H1
    assert "0 games played this run" in capsys.readouterr().out and _games(path) == games


@pytest.mark.e2e
def test_a_weaker_candidate_accepts_h0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _config(tmp_path, "random", "mcts", max_games=200)
    assert tournament_main(["run", str(path)]) == EXIT_H0  # `run` follows schedule = "sprt"
    assert "H0 accepted" in capsys.readouterr().out and _games(path) <= 60

    # The report gives the verdict, and the games against the SPRT's limit: it once
    # read "16/200 games", as if a decided test had games still to play.
    db = str(path.with_suffix(".sqlite"))
    assert tournament_main(["report", "--db", db]) == 0
    text = capsys.readouterr().out
    played = _games(path)
    assert f"{played} games of an SPRT (at most 200)" in text and "/200 games" not in text
    assert re.search(r"SPRT random vs mcts \[elo0 0, elo1 100\]: LLR -[\d.]+ .* H0 accepted", text)
    assert tournament_main(["report", "--db", db, "--format", "json"]) == 0
    sprt = json.loads(capsys.readouterr().out)["sprt"]
    assert sprt["verdict"] == "H0" and sprt["llr"] <= sprt["lower"] == -2.944
    assert sprt["games"] == 2 * sprt["blocks"] <= played and sprt["max_games"] == 200
    assert tournament_main(["report", "--db", db, "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert "games played of an SPRT (at most 200): random vs mcts, H0 accepted, LLR -" in page


def test_a_hand_edited_sprt_table_leaves_the_report_without_the_test() -> None:
    config = {
        "schedule": "sprt",
        "seed": 5,
        "bots": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
        "sprt": {"candidate": "a", "baseline": "b", "elo0": 0, "elo1": 10, "alpha": 0.05},
    }
    record = TournamentRecord(1, "t", "sheep-showdown", 3, {}, None, 60, config, 0.0, 0.0)
    assert SprtPlan.from_stored(record) is None  # no beta or max_games
    config["sprt"] |= {"beta": 0.1, "max_games": 60}
    plan = SprtPlan.from_stored(record)
    assert plan is not None and plan.others == ("c",) and plan.seed == 5
    assert plan.limit == 10 and plan.hypotheses().upper == pytest.approx(math.log(0.9 / 0.05))
    config["sprt"]["elo1"] = "ten"
    assert SprtPlan.from_stored(record) is None


def test_the_json_report_gives_the_sprt_elo_and_its_interval_as_numbers() -> None:
    """The JSON carried the test's Elo estimate and interval only inside its
    `status` line: a script had to parse "Elo +inf [-113.4, +inf]" to read them."""
    config = {
        "schedule": "sprt",
        "seed": 1,
        "bots": [{"name": "new"}, {"name": "old"}],
        "sprt": {
            "candidate": "new",
            "baseline": "old",
            "elo0": 0,
            "elo1": 10,
            "alpha": 0.05,
            "beta": 0.05,
            "max_games": 100,
        },
    }
    record = TournamentRecord(1, "t", "sheep-showdown", 2, {}, None, 100, config, 0.0, 0.0)

    def won(seed: int, winner: str) -> list[GameRecord]:
        return [
            _record(f"{seed}:{a}|{b}", seed, (a, b), (1, 2) if a == winner else (2, 1))
            for a, b in (("new", "old"), ("old", "new"))
        ]

    sprt = report_data(record, [*won(1, "new"), *won(2, "new")], samples=0)["sprt"]
    # Two won pairs: a score of 100%, whose Elo is +inf: null, like the interval's open end.
    assert sprt["score"] == 1.0 and sprt["score_low"] == 0.3424
    assert sprt["score_high"] == 1.0
    assert sprt["elo"] is None and sprt["elo_low"] == -113.4 and sprt["elo_high"] is None
    assert "Elo +inf [-113.4, +inf]" in sprt["status"]
    sprt = report_data(record, [*won(1, "new"), *won(2, "old"), *won(3, "new")], samples=0)["sprt"]
    assert sprt["blocks"] == 3 and sprt["score"] == pytest.approx(2 / 3, abs=1e-4)
    # Its normal interval reaches past a score of 1: an open end again.
    assert (sprt["elo"], sprt["elo_low"], sprt["elo_high"]) == (120.4, -325.3, None)
    assert sprt["score_high"] == 1.0 and "Elo +120.4 [-325.3, +inf]" in sprt["status"]
    # Without a complete block there is no estimate at all.
    sprt = report_data(record, won(1, "new")[:1], samples=0)["sprt"]
    assert sprt["blocks"] == 0
    assert [sprt[key] for key in ("score", "score_low", "score_high")] == [None] * 3
    assert [sprt[key] for key in ("elo", "elo_low", "elo_high")] == [None] * 3
    json.dumps(sprt, allow_nan=False)  # never Infinity, which is no JSON


def test_bad_sprt_options_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _config(tmp_path, "mcts", "random", max_games=10)
    assert tournament_main(["sprt", str(path), "--elo1", "-5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tournament: --elo1: must be above elo0" in err, "the flag"
    assert tournament_main(["sprt", str(path), "--baseline", "nobody"]) == 2
    assert "tournament: --baseline: " in capsys.readouterr().err


@pytest.mark.e2e
def test_an_sprt_killed_mid_run_resumes_from_its_stored_games(tmp_path: Path) -> None:
    """SIGKILL after 3 stored games (possibly mid-block); the next run keeps
    them, finishes the cut block and stops at the game limit, undecided."""
    path = tmp_path / "sprt.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\nschedule = "sprt"\nconcurrency = 1\n'
        f'python_path = ["{HERE}"]\n[options]\nrounds = 1\n'
        '[sprt]\ncandidate = "slow"\nbaseline = "random"\nelo0 = 0\nelo1 = 100\n'
        "max_games = 200\n"
        '[[bots]]\nname = "slow"\nclass = "tournament_test_bots:SlowBot"\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
    )
    db = path.with_suffix(".sqlite")
    before = killed_after(3, db, ["sprt", str(path)])
    assert 3 <= len(before) < 10

    # 5 pairs cannot reach the bound (+2.94 needs about 12 won pairs at these settings)
    assert tournament_main(["sprt", str(path), "--max-games", "10"]) == EXIT_INCONCLUSIVE
    with sqlite3.connect(db) as raw:
        after = {row[0] for row in raw.execute("SELECT key FROM games")}
    assert before < after and len(after) == 10
    assert after == {
        game.key for i in range(5) for game in sprt_block(i, 1, "slow", "random", [], 2)
    }


@pytest.mark.e2e
def test_a_three_player_sprt_seats_the_other_bots_in_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "three.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 3\nschedule = "sprt"\nconcurrency = 3\n'
        "[options]\nrounds = 1\n"
        '[sprt]\ncandidate = "greedy"\nbaseline = "random"\nmax_games = 12\n'
        + "".join(
            f'[[bots]]\nname = "{name}"\nbuiltin = "{kind}"\n'
            for name, kind in [
                ("greedy", "greedy"),
                ("random", "random"),
                ("other", "random"),
                ("other-2", "random"),
            ]
        )
    )
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    with sqlite3.connect(path.with_suffix(".sqlite")) as raw:
        keys = sorted(row[0] for row in raw.execute("SELECT key FROM games"))
    # each block: every rotation, then every rotation with the two tested bots swapped
    assert keys == sorted(
        [f"1:{a}|{b}|{c}" for a, b, c in _rotations(("greedy", "random", "other"))]
        + [f"1:{a}|{b}|{c}" for a, b, c in _rotations(("random", "greedy", "other"))]
        + [f"2:{a}|{b}|{c}" for a, b, c in _rotations(("greedy", "random", "other-2"))]
        + [f"2:{a}|{b}|{c}" for a, b, c in _rotations(("random", "greedy", "other-2"))]
    )
    assert "12 games (2 blocks)" in capsys.readouterr().err


def _rotations(group: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [group[i:] + group[:i] for i in range(len(group))]


@pytest.mark.e2e
def test_a_three_player_sprt_keeps_the_bots_that_filled_its_stored_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Block i seats the others in turn from the config's list, so another list
    gives the stored blocks other keys: they stopped counting and the test played
    them again with other bots (24 games stored for 2 blocks)."""
    path = tmp_path / "three.toml"

    def write(others: list[str]) -> None:
        path.write_text(
            'game = "sheep-showdown"\nplayers = 3\nschedule = "sprt"\nconcurrency = 3\n'
            "[options]\nrounds = 1\n"
            '[sprt]\ncandidate = "greedy"\nbaseline = "random"\nmax_games = 12\n'
            + "".join(
                f'[[bots]]\nname = "{name}"\nbuiltin = "{kind}"\n'
                for name, kind in [("greedy", "greedy"), ("random", "random")]
                + [(name, "random") for name in others]
            )
        )

    write(["other", "other-2"])
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    assert _games(path) == 12
    capsys.readouterr()
    write(["other-2", "other"])
    assert tournament_main(["sprt", str(path)]) == 1
    err = capsys.readouterr().err
    line = err.strip().splitlines()[-1]
    assert "Traceback" not in err and line.startswith("sheepfold tournament: bots:")
    assert "'other', 'other-2'" in line
    assert _games(path) == 12
    # the same others, in the same order, resume as before
    write(["other", "other-2"])
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    assert "12 games (2 blocks)" in capsys.readouterr().err and _games(path) == 12


def test_rerun_crashed_on_an_sprt_is_refused_not_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`run --rerun-crashed` on an SPRT config played the test on as if the flag
    were not there: the crashed games stayed stored and kept counting."""
    path = _config(tmp_path, "mcts", "random", max_games=2)
    assert tournament_main(["run", str(path), "--rerun-crashed"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rerun-crashed" in err
    assert not path.with_suffix(".sqlite").exists()


@pytest.mark.e2e
def test_an_sprt_against_a_bot_that_crashed_in_every_game_is_no_success(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A baseline that crashes at its first decision loses every game to the
    candidate (a failed seat ranks last): the test accepted H1 with exit 0, the
    verdict of a CI job, though only random stand-ins had played the baseline.
    A round robin with such a bot fails (exit 1); the SPRT now does too."""
    path = _config(tmp_path, "random", "broken", max_games=40)
    text = path.read_text().replace("elo1 = 100", "elo1 = 400")
    text += '[[bots]]\nname = "broken"\nclass = "tournament_test_bots:CrashingBot"\n'
    path.write_text(text)
    assert tournament_main(["sprt", str(path)]) == 1
    out = capsys.readouterr()
    assert "H1 accepted: random is stronger than broken" in out.out, "the verdict still shows"
    lines = [line for line in out.err.splitlines() if line.startswith("sheepfold tournament:")]
    db = path.with_suffix(".sqlite")
    games = _games(path)  # 5 won pairs decide; a look plays 2 blocks at concurrency 2
    assert games in (10, 12)
    assert lines == [
        f"sheepfold tournament: bot 'broken' crashed in every one of its {games} games: "
        "RuntimeError: this bot has a bug",
        "sheepfold tournament: the verdict measured random stand-ins, not 'broken': fix the "
        f"bot, delete its games (`sheepfold tournament forget broken --db {db} --tournament "
        "sprt`), then test again",
    ]
    # Decided, it plays nothing more, and still fails: the crashed games are stored.
    assert tournament_main(["run", str(path)]) == 1
    out = capsys.readouterr()
    assert "0 games played this run" in out.out
    assert f"bot 'broken' crashed in every one of its {games} games (see the log" in out.err


LATE_IN_FIRST_GAME = '''
import itertools
import random
import time

_built = itertools.count()


class Bot:
    """Both seats of the first game are slow to start, alike: that match is held
    up with nobody to blame, so it is not counted. Every later game is quick."""

    def __init__(self, seed=0):
        if next(_built) < 2:
            time.sleep(2.0)
        self.rng = random.Random(seed)

    def decide(self, decision):
        return self.rng.randrange(len(decision.actions))
'''


def _first_game_not_counted_config(tmp_path: Path, max_games: int) -> Path:
    """An SPRT whose first game is held up (not counted) and played again in the
    next look. The bots' module is named after the test: it counts its bots."""
    module = f"late_first_{tmp_path.name}"
    (tmp_path / f"{module}.py").write_text(LATE_IN_FIRST_GAME)
    path = tmp_path / "sprt.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\nschedule = "sprt"\nconcurrency = 1\n'
        f'match_timeout_seconds = 1\npython_path = ["{tmp_path}"]\n[options]\nrounds = 1\n'
        f'[sprt]\ncandidate = "a"\nbaseline = "b"\nmax_games = {max_games}\n'
        f'[[bots]]\nname = "a"\nclass = "{module}:Bot"\n'
        f'[[bots]]\nname = "b"\nclass = "{module}:Bot"\n'
    )
    return path


@pytest.mark.e2e
def test_an_sprt_that_played_every_block_of_its_limit_is_undecided_though_a_game_failed_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """max_games = 3 is one block of 2 games. Its first game was not counted and
    was played again: the block is complete, so the test is undecided at its
    limit (exit 4). It exited 1 ("1 games could not be played; the test stopped
    undecided") because 2 games are fewer than 3, as the default 10,000 is at 3
    or 6 players (blocks of 6 or 12 games)."""
    path = _first_game_not_counted_config(tmp_path, max_games=3)
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    out = capsys.readouterr()
    assert "2 games (1 block)" in out.out and "undecided after the game limit" in out.out
    assert "could not be played" not in out.err
    assert _games(path) == 2


@pytest.mark.e2e
def test_sprt_says_which_game_it_could_not_count_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tournament sprt` logged nothing about a game it could not count (its
    progress was silent), while `run` did, and its "games could not be played
    ... (see the log)" pointed at a log without them."""
    path = _first_game_not_counted_config(tmp_path, max_games=3)
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "game not played" in line]
    assert len(lines) == 1, err
    assert re.search(r'"key": "1:(a\|b|b\|a)"', lines[0])
    assert "did not finish within 1 s" in lines[0]


def _most_matches_at_once(log: str) -> int:
    """The most matches the in-process server ran at once, from its log lines."""
    live = most = 0
    for line in log.splitlines():
        if '"event": "match running"' in line:
            live += 1
            most = max(most, live)
        elif '"event": "match finished"' in line:
            live -= 1
    return most


@pytest.mark.e2e
def test_an_sprt_keeps_concurrency_matches_busy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A block's games share its deal and both tested bots, so they are played
    one after the other (no bot plays two games of one deal at once). A look
    took ceil(concurrency / games per block) blocks: at concurrency = 2 one
    block, so one match at a time, half what the config asked for."""
    path = tmp_path / "sprt.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\nschedule = "sprt"\nconcurrency = 2\n'
        f'python_path = ["{HERE}"]\n[options]\nrounds = 1\n'
        '[sprt]\ncandidate = "slow"\nbaseline = "random"\nelo1 = 100\nmax_games = 8\n'
        '[[bots]]\nname = "slow"\nclass = "tournament_test_bots:SlowBot"\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
    )
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    err = capsys.readouterr().err
    assert _games(path) == 8
    assert _most_matches_at_once(err) == 2, err


@pytest.mark.e2e
def test_a_solo_sprts_report_says_what_tournament_sprt_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report of a solo SPRT once gave its status line alone, without the
    mean score difference on the same deals that `tournament sprt` printed."""
    path = tmp_path / "solo.toml"
    path.write_text(
        'game = "sheep-and-garden"\nplayers = 1\nseed = 5\nschedule = "sprt"\n'
        "[sprt]\nmax_games = 4\n"
        '[[bots]]\nname = "a"\nbuiltin = "greedy"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("SPRT a vs b [elo0 0, elo1 10]: LLR ")
    assert re.fullmatch(
        r"mean score difference on the same deals: [-+][\d.]+ \[[-+][\d.]+, [-+][\d.]+\]",
        printed[1],
    )

    db = str(path.with_suffix(".sqlite"))
    assert tournament_main(["report", "--db", db]) == 0
    text = capsys.readouterr().out.splitlines()
    at = text.index(f"{printed[0]}  undecided")
    assert text[at + 1] == printed[1]
    assert tournament_main(["report", "--db", db, "--format", "json"]) == 0
    sprt = json.loads(capsys.readouterr().out)["sprt"]
    assert sprt["lines"] == printed[:2]
    mean = float(printed[1].split(": ")[1].split()[0])
    assert sprt["score_difference"] == mean
    assert sprt["score_difference_low"] <= mean <= sprt["score_difference_high"]


@pytest.mark.e2e
def test_a_bot_seated_beside_the_tested_pair_that_always_crashed_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """At 3 players the third seat goes to another bot of the config. When it
    crashed in every game, the verdict still compared the candidate and the
    baseline, at tables of its random stand-ins; the line said the verdict
    "measured random stand-ins, not 'broken'", as if 'broken' were tested."""
    path = tmp_path / "sprt.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 3\nschedule = "sprt"\nconcurrency = 2\n'
        f'python_path = ["{HERE}"]\n'
        "[options]\nrounds = 1\n"
        '[sprt]\ncandidate = "new"\nbaseline = "old"\nmax_games = 6\n'
        '[[bots]]\nname = "new"\nbuiltin = "random"\n'
        '[[bots]]\nname = "old"\nbuiltin = "random"\n'
        '[[bots]]\nname = "broken"\nclass = "tournament_test_bots:CrashingBot"\n'
    )
    assert tournament_main(["sprt", str(path)]) == 1
    lines = [
        line
        for line in capsys.readouterr().err.splitlines()
        if line.startswith("sheepfold tournament:")
    ]
    db = path.with_suffix(".sqlite")
    assert lines == [
        "sheepfold tournament: bot 'broken' crashed in every one of its 6 games: "
        "RuntimeError: this bot has a bug",
        "sheepfold tournament: the verdict compared 'new' and 'old' beside random stand-ins, "
        f"not 'broken': fix the bot, delete its games (`sheepfold tournament forget broken "
        f"--db {db} --tournament sprt`), then test again",
    ]


@pytest.mark.e2e
def test_a_resumed_test_looks_where_one_run_through_looks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A look comes after every `concurrency` blocks. A test resumed from a
    count between two looks (a raised limit here, a kill mid-batch alike) once
    played the next `concurrency` blocks from there, so every later look fell
    elsewhere than in the same config run through (blocks 5, 7, ... for 4, 6,
    ...), and it could stop at another count with another LLR."""
    path = _config(tmp_path, "mcts", "random", max_games=6)
    path.write_text(path.read_text().replace("elo1 = 100", "elo1 = 5"))
    assert tournament_main(["sprt", str(path)]) == EXIT_INCONCLUSIVE
    assert _games(path) == 6  # 3 blocks: looks at 2, then 3 at the limit
    capsys.readouterr()
    assert tournament_main(["sprt", str(path), "--max-games", "12"]) == EXIT_INCONCLUSIVE
    err = capsys.readouterr().err
    looks = [int(n) for n in re.findall(r"\((\d+) blocks?\), Elo", err)]
    assert looks == [3, 4, 6], err
