"""A match that outlasts `match_timeout_seconds` is lost by the seat that held it
up, so that a bot cannot void a game it is losing by answering slowly (each
answer inside its deadline): a random stand-in finishes its seat and the match
ends with real scores. With no seat to blame it is not counted, as before."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from pathlib import Path

import pytest
import structlog
from sheepfold.v1 import arena_pb2

from clients.bots.random_bot import RandomBot
from clients.launch import Launcher
from clients.matchplay import play_match
from clients.sdk import DecisionView
from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.tournament.test_runner import HERE, Recorder
from tournament.config import TournamentConfig, load_config, parse_config
from tournament.game_play import NEVER_JOINED, GamePlayer
from tournament.runner import run_tournament
from tournament.stalling import MoveClock
from tournament.store import Store


def _cup(tmp_path: Path, bots: str, match_timeout: int = 2) -> Path:
    path = tmp_path / "cup.toml"
    path.write_text(
        # About 40 decisions a seat: 8 s of the staller's, far past the 2 s allowed.
        f'game = "sheep-n-sheep"\npython_path = ["{HERE}"]\ngames_per_pairing = 1\n'
        f"concurrency = 2\ndecision_seconds = 1.0\nmatch_timeout_seconds = {match_timeout}\n"
        f"bootstrap = 0\n{bots}"
    )
    return path


def _two_random_bots() -> TournamentConfig:
    return parse_config(
        {
            "game": "sheep-n-sheep",
            "bots": [{"name": "a", "builtin": "random"}, {"name": "b", "builtin": "random"}],
        }
    )


STALLER = '[[bots]]\nname = "staller"\nclass = "tournament_test_bots:StallingBot"\n'
STALLER_2 = STALLER.replace('"staller"', '"staller-2"')
QUICK = '[[bots]]\nname = "quick"\nbuiltin = "random"\n'


@pytest.mark.e2e
def test_the_seat_that_held_the_match_up_loses_it(tmp_path: Path) -> None:
    config = load_config(_cup(tmp_path, STALLER + QUICK))
    recorder = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "t.sqlite"), progress=recorder)
    assert summary.played == summary.scheduled == 2 and summary.errors == 0, recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        games = store.games(store.tournament().id)
        # A stand-in finished the staller's seat: the match ended and was recorded.
        assert len(store.replays()) == 2
    for game in games:
        seats = {seat.bot: seat for seat in game.seats}
        assert (seats["staller"].failure, seats["staller"].rank) == ("slow", 2)
        assert (seats["quick"].failure, seats["quick"].rank) == (None, 1)
        assert game.end_reason == "game over"
        staller = game.bots.index("staller")
        (why,) = json.loads(game.details_json)["slow"].values()
        assert why.startswith(f"held the match up: seat {staller} kept it waiting ")
        assert why.endswith(" of the 2 s a match may take")


@pytest.mark.e2e
def test_a_match_nobody_held_up_plays_on_and_counts(tmp_path: Path) -> None:
    """Two bots as slow as each other share the time: neither is to blame, and
    the match, moving all along, is played to its end and counted. It was not
    counted, which let a bot losing to a slow thinker void the game by matching
    its pace, every answer inside its deadline (a real attack: 0.2 s a decision
    against 0.2 s, each side half the time, under the two thirds that blame).

    Sheep & Garden, because its two seats take turns strictly: each holds half
    of any stretch. In a game that gives one seat more decisions in a row (Sheep
    Showdown), that seat had over two thirds of the first 4 s on about one deal
    in twenty-five, and was rightly blamed: the shares count time, not pace."""
    path = tmp_path / "cup.toml"
    # Some 36 decisions, 7 s at 0.2 s each, 4 s allowed (time enough for the bots
    # to join on a busy machine).
    path.write_text(
        f'game = "sheep-and-garden"\npython_path = ["{HERE}"]\ngames_per_pairing = 1\n'
        "concurrency = 2\ndecision_seconds = 1.0\nmatch_timeout_seconds = 4\nbootstrap = 0\n"
        f"{STALLER}{STALLER_2}"
    )
    recorder = Recorder()
    summary = run_tournament(
        load_config(path), database=str(tmp_path / "t.sqlite"), progress=recorder
    )
    assert summary.played == summary.scheduled == 2 and summary.errors == 0, recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        games = store.games(store.tournament().id)
    for game in games:
        assert game.end_reason == "game over"
        assert [seat.failure for seat in game.seats] == [None, None]
        assert game.duration_seconds > 4  # it outlasted the 4 s a match may take


@pytest.mark.e2e
def test_two_bots_late_alike_share_the_wait_and_nobody_is_blamed(tmp_path: Path) -> None:
    late = '[[bots]]\nname = "late"\nclass = "tournament_test_bots:LateBot"\n'
    config = load_config(_cup(tmp_path, late + late.replace('"late"', '"late-2"', 1)))
    recorder = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "t.sqlite"), progress=recorder)
    assert summary.played == 0 and summary.errors == 2, recorder.errors


@pytest.mark.e2e
def test_a_bot_that_joins_late_is_charged_for_the_wait(tmp_path: Path) -> None:
    """The wait for a seat to join is that seat's, never the seat to move first's:
    an attack joined late to spend a third of the match's time unseen, then
    stalled just under the share that would have blamed it."""
    # Joined after 6 s of a match's 4: the wait before the quick seat joins is
    # shared, and on a loaded machine that took 1.4 s of the 2 a match once had,
    # leaving the late seat under the two thirds that blame it.
    late = '[[bots]]\nname = "late"\nclass = "tournament_test_bots:LaterBot"\n'
    config = load_config(_cup(tmp_path, late + QUICK, match_timeout=4))
    recorder = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "t.sqlite"), progress=recorder)
    assert summary.played == 2 and summary.errors == 0, recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        games = store.games(store.tournament().id)
    for game in games:
        seats = {seat.bot: seat for seat in game.seats}
        assert (seats["late"].failure, seats["quick"].failure) == ("slow", None), game.key


def test_the_move_clock_adds_the_waits_to_join_to_the_servers_thinking_times() -> None:
    clock = MoveClock()
    clock.polled(0.0, [0, 1], {})  # waiting for both seats: they share the wait
    clock.polled(0.5, [1], {})  # seat 0 is there
    clock.polled(2.0, [], {0: 0.0, 1: 0.0})  # running: the server counts from here
    clock.polled(9.0, [], {0: 0.25, 1: 6.0})
    assert clock.waiting == {0: 0.25, 1: 1.75}
    assert clock.seconds == {0: 0.5, 1: 7.75}
    assert clock.staller(11) == 1  # 7.75 s of 11: more than two thirds
    assert clock.staller(12) is None  # 7.75 s of 12: less
    assert MoveClock().staller(10) is None


def test_a_tie_blames_nobody() -> None:
    clock = MoveClock()
    clock.polled(0.0, [0, 1], {})
    clock.polled(3.0, [], {0: 4.0, 1: 4.0})
    assert clock.seconds == {0: 5.5, 1: 5.5}
    assert clock.staller(6) is None


def test_blame_takes_more_than_two_thirds_of_the_match_time() -> None:
    """ "More than STALLING_SHARE (2/3) of `timeout`": of a 3 s match, a seat
    that held it up exactly 2 s is not blamed; 2.25 s is."""
    clock = MoveClock()
    clock.polled(0.0, [], {0: 2.0, 1: 0.5})
    assert clock.staller(3.0) is None
    clock.polled(1.0, [], {0: 2.25, 1: 0.5})
    assert clock.staller(3.0) == 0


def test_a_server_that_counts_no_thinking_time_is_named_once() -> None:
    player = GamePlayer(
        _two_random_bots(), "127.0.0.1:1", "", Launcher(None), structlog.get_logger()
    )
    seats = [arena_pb2.SeatInfo(seat=0), arena_pb2.SeatInfo(seat=1)]
    with structlog.testing.capture_logs() as logs:
        player._check_server_counts(arena_pb2.MatchInfo(moves=3, seats=seats))
        assert logs == []  # too early to tell
        player._check_server_counts(arena_pb2.MatchInfo(moves=12, seats=seats))
        player._check_server_counts(arena_pb2.MatchInfo(moves=20, seats=seats))
        counted = [arena_pb2.SeatInfo(seat=0, thinking_seconds=0.5), seats[1]]
        GamePlayer(
            _two_random_bots(), "127.0.0.1:1", "", Launcher(None), structlog.get_logger()
        )._check_server_counts(arena_pb2.MatchInfo(moves=20, seats=counted))
    assert [entry["event"][:47] for entry in logs] == [
        "this server does not count its seats' thinking "
    ]


class _SlowRandomBot(RandomBot):
    def decide(self, decision: DecisionView) -> int:
        time.sleep(0.05)
        return super().decide(decision)


def test_the_server_counts_each_seats_thinking_time() -> None:
    """What the blame rests on: `SeatInfo.thinking_seconds`, the open decision included."""
    with InProcessServer() as server:
        bots = [_SlowRandomBot(1), RandomBot(2)]
        outcome = asyncio.run(play_match(server.address, "sheep-n-sheep", bots))
    slow, quick = outcome.result.seats
    moves = 30  # each seat has about 40 decisions in a two-player game
    assert slow.thinking_seconds > moves * 0.05
    # The quick seat's time is its round trips alone: a few ms a decision on a
    # busy machine (2 ms each made "a twentieth of the slow seat's" fail in CI).
    assert 0 < quick.thinking_seconds < slow.thinking_seconds / 4


@pytest.mark.e2e
def test_bots_that_never_join_lose_the_game_the_server_gave_up_on(tmp_path: Path) -> None:
    """A server aborts a match nobody joined within its start timeout, unplayed
    (it used to play it out by the clocks, the bots losing it). The runner then
    has random stand-ins play the deal, and the bots lose the game: it counts."""
    late = '[[bots]]\nname = "late"\nclass = "tournament_test_bots:LateBot"\n'
    path = tmp_path / "solo.toml"
    path.write_text(
        f'game = "stubborn-sheep"\nplayers = 1\npython_path = ["{HERE}"]\n'
        f"games_per_pairing = 1\nbootstrap = 0\n{late}"
    )
    config = load_config(path)
    recorder = Recorder()
    with InProcessServer(ServerConfig(start_timeout=1)) as server:
        summary = run_tournament(
            config, server=server.address, database=str(tmp_path / "t.sqlite"), progress=recorder
        )
    assert summary.played == summary.scheduled == 1 and summary.errors == 0, recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        (game,) = store.games(store.tournament().id)
        record = store.replay(game.match_id)
    (seat,) = game.seats
    assert seat.failure == "slow"
    assert json.loads(game.details_json)["slow"] == {"0": NEVER_JOINED}
    assert record is not None and record.actions, "the stand-in played the deal"
    assert not any(action.forced for action in record.actions)


@pytest.mark.e2e
def test_every_bot_of_a_game_nobody_joined_loses_it(tmp_path: Path) -> None:
    """Of two bots that never joined, each held the match up: both fail `slow`
    and share the last place, whatever their stand-ins scored; blaming one
    seat alone handed the other its stand-in's win."""
    late = '[[bots]]\nname = "late"\nclass = "tournament_test_bots:LateBot"\n'
    config = load_config(_cup(tmp_path, late + late.replace('"late"', '"late-2"', 1)))
    recorder = Recorder()
    with InProcessServer(ServerConfig(start_timeout=1)) as server:
        summary = run_tournament(
            config, server=server.address, database=str(tmp_path / "t.sqlite"), progress=recorder
        )
    assert summary.played == summary.scheduled == 2 and summary.errors == 0, recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        games = store.games(store.tournament().id)
    for game in games:
        assert [(seat.failure, seat.rank) for seat in game.seats] == [("slow", 1)] * 2
        assert json.loads(game.details_json)["slow"] == {"0": NEVER_JOINED, "1": NEVER_JOINED}


@pytest.mark.e2e
def test_bots_stuck_while_they_are_built_leave_room_for_their_stand_ins(tmp_path: Path) -> None:
    """Eight bots stuck in their constructors once filled the loop's thread pool
    (six threads here), where the stand-ins are built too: the last games were
    aborted a second time and went uncounted. Bots are built on threads of
    their own now."""
    stuck = '[[bots]]\nname = "stuck"\nclass = "tournament_test_bots:SlowToBuildBot"\n'
    path = tmp_path / "solo.toml"
    path.write_text(
        f'game = "stubborn-sheep"\nplayers = 1\npython_path = ["{HERE}"]\n'
        f"games_per_pairing = 8\nconcurrency = 8\nbootstrap = 0\n{stuck}"
    )
    recorder = Recorder()
    started = time.monotonic()
    with InProcessServer(ServerConfig(start_timeout=1)) as server:
        summary = run_tournament(
            load_config(path), server.address, str(tmp_path / "t.sqlite"), progress=recorder
        )
    assert summary.played == summary.scheduled == 8 and summary.errors == 0, recorder.errors
    assert time.monotonic() - started < 25, "it waited for the stuck constructors"


def test_the_time_given_again_outlasts_a_decision_twice_over() -> None:
    """A match held up with nobody to blame plays on only while a move comes in
    each period: one decision may take its deadline and the seat's whole time
    bank, and a busy server may force the move late, so the period leaves room
    for two such decisions (one barely over was voided as a match that stopped)."""
    config = dataclasses.replace(
        _two_random_bots(), decision_seconds=10.0, time_bank_seconds=5.0, match_timeout_seconds=2
    )
    player = GamePlayer(config, "127.0.0.1:1", "", Launcher(None), structlog.get_logger())
    assert player._overtime(2.0) == 30.0
    assert player._overtime(100.0) == 100.0
