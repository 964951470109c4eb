"""A tournament plays each deal in several games (every group, every seating),
all dealt the same cards from the same seed. While one of them is still to be
played (live now, or later), the viewer shows no other game of that deal: its
record holds the seed, every hand and the deck order of the game being played.
"""

from __future__ import annotations

import functools
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.inprocess import InProcessServer
from server.settings import ServerConfig
from tests.integrity.helpers import get_match
from tests.web.conftest import OwnServerTournament
from tests.web.test_http import get, get_with_headers
from tests.web.test_tournament_replays import stored_games
from tournament.store import Store
from tournament.store_records import GameRecord
from web import showcase, tournaments
from web.app import start_web
from web.showcase import Showcase, start_showcase
from web.state import WebConfig

pytestmark = pytest.mark.e2e

VIEWS = ("public", "all", "seat-0", "seat-1")


def _forget(database: Path, match_id: str) -> None:
    """The database as it was while game `match_id` was still being played:
    a tournament stores a game only once it is over."""
    with sqlite3.connect(database) as connection:
        game_id = "(SELECT id FROM games WHERE match_id = ?)"
        connection.execute(f"DELETE FROM game_seats WHERE game_id = {game_id}", (match_id,))
        connection.execute(f"DELETE FROM game_replays WHERE game_id = {game_id}", (match_id,))
        connection.execute("DELETE FROM games WHERE match_id = ?", (match_id,))
    connection.close()


def _a_deal_in_play(database: Path) -> tuple[GameRecord, GameRecord]:
    """A stored game of the showcase tournament whose deal another game, taken
    out of the database, still plays; and a game of another deal."""
    with Store(database) as store:
        played = store.games(store.tournament("showcase").id)
    deal = played[0].seed
    shown, live = [game for game in played if game.seed == deal][:2]
    other = next(game for game in played if game.seed != deal)
    _forget(database, live.match_id)
    return shown, other


def _one_game_of_a_deal_in_play(viewer: Showcase, database: Path) -> tuple[GameRecord, int]:
    """One stored game of the showcase tournament whose deal another game,
    taken out of the database, still plays; and the deal's seed."""
    shown, _ = _a_deal_in_play(database)
    return shown, viewer.server.run(viewer_seed(viewer.server.address, shown.match_id))


def test_no_game_of_a_deal_still_in_play_is_shown(
    own_server_tournament: OwnServerTournament, tmp_path: Path
) -> None:
    """Its page and every view of its frames are a 403 that gives neither seed
    nor cards, also when its frames were kept from before (a tournament run
    again with a new bot plays old deals again); a deal every game of which is
    over is shown, and so is the first once its last game is stored."""
    database = tmp_path / "running.db"
    shutil.copyfile(own_server_tournament.database, database)
    played = stored_games(own_server_tournament)
    deal = played[0].seed
    same_deal = [game for game in played if game.seed == deal]
    other_deals = [game for game in played if game.seed != deal]
    assert len(same_deal) == 2 and len(other_deals) == 2, played
    shown, live = same_deal
    with Store(database) as store:
        record = store.replay(shown.match_id)
    assert record is not None
    name = own_server_tournament.name
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        page = f"{viewer.url}/tournaments/0/{name}/match"
        api = f"{viewer.url}/api/tournaments/0/{name}/match"
        for view in VIEWS:  # kept by the viewer from here on
            status, _, body = get(f"{api}/{shown.match_id}/frames?view={view}")
            assert status == 200 and str(record.seed) in body, body[:300]
        _forget(database, live.match_id)
        for url in [
            f"{page}/{shown.match_id}",
            *(f"{api}/{shown.match_id}/frames?view={view}" for view in VIEWS),
        ]:
            status, _, body = get(url)
            assert status == 403, (url, status, body[:300])
            assert "still has games to play on this" in body, body[:300]
            assert str(record.seed) not in body and '"frames"' not in body
        for game in other_deals:
            for view in VIEWS:
                status, _, body = get(f"{api}/{game.match_id}/frames?view={view}")
                assert status == 200, body[:300]
        shutil.copyfile(own_server_tournament.database, database)  # the last game stored
        status, _, body = get(f"{api}/{shown.match_id}/frames?view=all")
        assert status == 200 and str(record.seed) in body, body[:300]
    finally:
        viewer.stop()


def test_a_viewer_of_the_tournaments_game_server_holds_its_deals_back_too(
    tmp_path: Path,
) -> None:
    """In front of the game server that played the tournament, `/match/ID` of a
    game whose deal is still in play gives no frames (every view a 403), no
    seed and no breakdown of its result (the page and its JSON: scores and ranks
    only); another deal's game is shown whole, until its tournament's row is
    edited into nonsense (which deals are over cannot be read then)."""
    database = tmp_path / "cup.db"
    viewer = start_showcase(games=(), tournament_dbs=[database])  # plays it there
    try:
        shown, other = _a_deal_in_play(database)
        seed = viewer.server.run(viewer_seed(viewer.server.address, shown.match_id))
        api = f"{viewer.url}/api/match"
        for view in VIEWS:
            status, _, body = get(f"{api}/{shown.match_id}/frames?view={view}")
            assert status == 403 and "still has games to play on this" in body, body[:300]
            assert str(seed) not in body
        for url in (f"{api}/{shown.match_id}", f"{viewer.url}/match/{shown.match_id}"):
            status, _, body = get(url)
            assert status == 200 and str(seed) not in body, body[:300]
            # The result's breakdown tells the deal too (each round's sheep
            # points and wolves here; Sheep and Garden's face-down objectives).
            assert "round_score" not in body and "sheep_points" not in body, body[:300]
        status, _, body = get(f"{api}/{shown.match_id}")
        result = json.loads(body)["result"]
        assert result["details"] == {} and len(result["scores"]) == 2, result
        other_seed = viewer.server.run(viewer_seed(viewer.server.address, other.match_id))
        for url in (f"{api}/{other.match_id}/frames?view=all", f"{api}/{other.match_id}"):
            status, _, body = get(url)
            assert status == 200 and str(other_seed) in body, body[:300]
            assert "round_score" in body, body[:300]
        # Its tournament's row edited by hand into nonsense: the schedule that
        # tells which deals are over cannot be read, so no game of it is shown.
        with sqlite3.connect(database) as connection:
            connection.execute("UPDATE tournaments SET players = 'many'")
        connection.close()
        status, _, body = get(f"{api}/{other.match_id}/frames?view=all")
        assert status == 403 and str(other_seed) not in body, body[:300]
    finally:
        viewer.stop()


async def viewer_seed(address: str, match_id: str) -> int:
    """The seed the game server gives for a finished match."""
    return (await get_match(address, match_id)).seed


def test_another_match_dealt_a_deal_in_play_is_held_back_too(tmp_path: Path) -> None:
    """A deal's seed reaches matches the tournament database never stores as
    its games: the first try of a game that no bot joined (the server aborts
    it, and stand-ins play the deal again in a new match), a game whose runner
    was stopped before it stored it. The viewer knows such a match by its seed,
    not its id: while the deal is in play its frames are a 403 in every view
    and its JSON has no seed (they once showed the seed and, in "all", every
    hand, while the stored games of that deal were held back)."""
    database = tmp_path / "cup.db"
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        _, seed = _one_game_of_a_deal_in_play(viewer, database)
        bots = [RandomBot(seat) for seat in range(2)]
        again = viewer.server.run(
            play_match(viewer.server.address, "sheep-showdown", bots, seed=seed)
        ).match_id
        api = f"{viewer.url}/api/match"
        for view in VIEWS:
            status, _, body = get(f"{api}/{again}/frames?view={view}")
            assert status == 403 and "still has games to play on this" in body, body[:300]
            assert str(seed) not in body
        for url in (f"{api}/{again}", f"{viewer.url}/match/{again}"):
            status, _, body = get(url)
            assert status == 200 and str(seed) not in body, body[:300]
        # Another seed is no deal of the tournament: shown whole.
        other = viewer.server.run(
            play_match(viewer.server.address, "sheep-showdown", bots, seed=seed + 1)
        ).match_id
        status, _, body = get(f"{api}/{other}/frames?view=all")
        assert status == 200 and str(seed + 1) in body, body[:300]
    finally:
        viewer.stop()


def test_a_tournament_database_that_cannot_be_read_holds_its_matches_back(
    tmp_path: Path,
) -> None:
    """The viewer asks the tournament database whether a match's deal is still
    in play: a database it cannot read at that moment (here one a newer
    sheepfold wrote; one another process keeps locked past the wait is
    refused alike) cannot say no. It was passed over as if it were no
    tournament database, and the match of a deal in play was shown whole:
    its seed and, in "all", every hand. Now it is a 503 naming the file, and
    the match is held back again once the file reads."""
    database = tmp_path / "cup.db"
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        shown, seed = _one_game_of_a_deal_in_play(viewer, database)
        api = f"{viewer.url}/api/match"

        def set_version(change: int) -> None:
            with sqlite3.connect(database) as connection:
                connection.execute("UPDATE schema_version SET version = version + ?", (change,))
            connection.close()

        set_version(5)
        for url in (
            *(f"{api}/{shown.match_id}/frames?view={view}" for view in VIEWS),
            f"{api}/{shown.match_id}",
            f"{viewer.url}/match/{shown.match_id}",
        ):
            status, _, body = get(url)
            assert status == 503, (url, status, body[:300])
            assert "cup.db" in body and "newer than this sheepfold" in body, body[:300]
            assert str(seed) not in body and '"frames"' not in body
        set_version(-5)
        status, _, body = get(f"{api}/{shown.match_id}/frames?view=all")
        assert status == 403 and "still has games to play on this" in body, body[:300]
    finally:
        viewer.stop()


def test_a_tournament_database_this_user_may_no_longer_read_holds_back_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database made unreadable to the viewer's user after it started (its
    mode or owner changed) cannot tell either: the check raises, rather than
    passing the file over as no tournament database. (Faked: this test may run
    as root, whom no mode stops.)"""
    database = tmp_path / "cup.db"
    Store(database).close()  # a tournament database, with no tournament yet
    assert tournaments.deal_held_back([database], "0123456789abcdef") is None
    monkeypatch.setattr(tournaments, "access_refused", lambda path, write: True)
    with pytest.raises(tournaments.Unreadable, match="permission denied"):
        tournaments.deal_held_back([database], "0123456789abcdef")


def test_a_tournament_database_sqlite_cannot_open_now_holds_back_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite failing to open or read the file for want of a file descriptor
    (a viewer flooded with connections) or of the disk says nothing of what
    the file is: only "file is not a database" does. Such a failure was
    called "not a SQLite database" and passed over, and the matches of the
    deals in play were shown whole."""
    database = tmp_path / "cup.db"
    Store(database).close()  # a tournament database, with no tournament yet

    def cannot_open(*args: object, **kwargs: object) -> None:
        error = sqlite3.OperationalError("unable to open database file")
        error.sqlite_errorcode = sqlite3.SQLITE_CANTOPEN  # type: ignore[attr-defined]
        raise error

    monkeypatch.setattr(tournaments, "read_connection", cannot_open)
    with pytest.raises(tournaments.Unreadable, match="unable to open database file"):
        tournaments.deal_held_back([database], "0123456789abcdef")
    garbage = tmp_path / "notes.db"
    garbage.write_bytes(b"not SQLite at all " * 100)
    monkeypatch.undo()
    # Every file the viewer reads was a tournament database at its start: one
    # that is not now was replaced, and cannot say a deal is over either.
    with pytest.raises(tournaments.Unreadable, match=r"notes\.db is not a SQLite database"):
        tournaments.deal_held_back([garbage], "0123456789abcdef")


def test_a_tournament_database_gone_or_replaced_since_the_viewer_started_holds_back(
    tmp_path: Path,
) -> None:
    """A database the viewer was started with that is missing now (renamed,
    deleted, its folder moved) or replaced by a file that is no tournament
    database cannot say a deal is over either. It was passed over as if no
    database had been given, and a match of a deal in play was shown whole:
    its seed and, in "all", every hand. Now it is a 503 naming the file,
    until the file is back."""
    folder = tmp_path / "cups"
    folder.mkdir()
    database = folder / "cup.db"
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        shown, seed = _one_game_of_a_deal_in_play(viewer, database)
        api = f"{viewer.url}/api/match"
        urls = (
            *(f"{api}/{shown.match_id}/frames?view={view}" for view in VIEWS),
            f"{api}/{shown.match_id}",
            f"{viewer.url}/match/{shown.match_id}",
        )
        for gone, back, stand_in, said in (
            (database, folder / "cup-renamed.db", None, "does not exist"),  # the file renamed
            (folder, tmp_path / "moved", None, "does not exist"),  # its folder moved
            # replaced by another file: an empty one, or one that is no SQLite
            (database, folder / "cup-kept.db", b"", "is an empty file"),
            (database, folder / "cup-kept.db", b"not SQLite " * 100, "is not a SQLite database"),
        ):
            gone.rename(back)
            if stand_in is not None:
                gone.write_bytes(stand_in)
            for url in urls:
                status, headers, body = get_with_headers(url)
                assert status == 503, (url, status, body[:300])
                assert "cup.db" in body and said in body, body[:300]
                assert headers.get("Retry-After") == "10", headers
                assert str(seed) not in body and '"frames"' not in body
            back.replace(gone)
            status, _, body = get(f"{api}/{shown.match_id}/frames?view=all")
            assert status == 403 and "still has games to play on this" in body, body[:300]
    finally:
        viewer.stop()


def test_a_viewer_of_a_server_with_private_replays_holds_back_the_results_breakdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game server with private replays gives no seed in GetMatch, and the
    viewer once checked nothing then: `/api/match/ID` of a game whose deal is
    still in play showed its result's breakdown (each round's sheep points and
    wolves). It reads the seed from the record with its admin token now, and
    so knows a match of that deal the tournament never stored; a viewer
    without the token, which cannot read the record, holds the game back."""
    database = tmp_path / "cup.db"
    server = InProcessServer(ServerConfig(admin_token="cup-token", private_replays=True))
    server.start()
    viewer = Showcase(server, tournament_dbs=(database,))
    try:
        played_by = functools.partial(showcase.run_tournament_async, admin_token="cup-token")
        monkeypatch.setattr(showcase, "run_tournament_async", played_by)
        viewer.run_tournament(database)
        shown, other = _a_deal_in_play(database)
        config = WebConfig(server.address, (database,), admin_token="cup-token")
        viewer.web = server.run(start_web(config, "127.0.0.1", 0))
        status, _, body = get(f"{viewer.url}/api/match/{shown.match_id}")
        assert status == 200 and json.loads(body)["result"]["details"] == {}, body[:300]
        status, _, body = get(f"{viewer.url}/api/match/{other.match_id}")
        assert status == 200 and "round_score" in body, body[:300]
        # A match dealt that deal which the tournament never stored (a first
        # try no bot joined, say) is known by its seed, which this server
        # gives in the record alone.
        with Store(database) as store:
            record = store.replay(shown.match_id)
        assert record is not None
        bots = [RandomBot(seat) for seat in range(2)]
        again = server.run(
            play_match(
                server.address, "sheep-showdown", bots, seed=record.seed, admin_token="cup-token"
            )
        ).match_id
        status, _, body = get(f"{viewer.url}/api/match/{again}")
        assert status == 200 and json.loads(body)["result"]["details"] == {}, body[:300]
        assert str(record.seed) not in body, body[:300]
        status, _, body = get(f"{viewer.url}/api/match/{again}/frames?view=all")
        assert status == 403 and "still has games to play on this" in body, body[:300]
        # A viewer without the token cannot read the record (nor the seed in
        # it): whether the deal is in play cannot be told, so it is taken to be.
        blind = server.run(start_web(WebConfig(server.address, (database,)), "127.0.0.1", 0))
        try:
            status, _, body = get(f"http://127.0.0.1:{blind.port}/api/match/{shown.match_id}")
            shown_info = json.loads(body)
            assert status == 200 and shown_info["status"] == "finished", body[:300]
            assert shown_info["result"]["details"] == {} and shown_info["seed"] is None, body[:300]
            assert "round_score" not in body
        finally:
            server.run(blind.stop())
    finally:
        viewer.stop()
