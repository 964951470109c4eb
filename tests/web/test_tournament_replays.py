"""A tournament's games replay in the viewer from the records kept in the
tournament database, also when the tournament ran on its own in-process server
and the viewer's game server never saw those matches."""

from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from server import convert
from tests.web.conftest import OwnServerTournament
from tests.web.test_http import assert_clear_error, get
from tournament.store import GameRecord, Store
from web.frames import observation_dict
from web.showcase import start_showcase

pytestmark = pytest.mark.e2e


def stored_games(tournament: OwnServerTournament) -> tuple[GameRecord, ...]:
    with Store(tournament.database) as store:
        return store.games(store.tournament(tournament.name).id)


def boot_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)
    assert found, html[:800]
    return json.loads(found.group(1))


async def server_knows(address: str, match_id: str) -> bool:
    async with grpc.aio.insecure_channel(address) as channel:
        try:
            await arena_pb2_grpc.ArenaStub(channel).GetMatch(
                arena_pb2.GetMatchRequest(match_id=match_id)
            )
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.NOT_FOUND, error
            return False
    return True


def test_every_game_of_the_tournament_is_linked_and_unknown_to_the_viewers_server(
    own_server_tournament: OwnServerTournament,
) -> None:
    viewer = own_server_tournament.viewer
    played = stored_games(own_server_tournament)
    assert len(played) == 4  # two bots, two seeds, seats swapped
    status, _, body = get(f"{viewer.url}/tournaments/0/{own_server_tournament.name}")
    assert status == 200, body[:500]
    linked = set(re.findall(r'href="/tournaments/0/own-server/match/([^"]+)"', body))
    assert linked == {game.match_id for game in played}
    for game in played:
        assert not viewer.server.run(server_knows(viewer.server.address, game.match_id))


def test_a_game_replays_from_the_tournament_database(
    own_server_tournament: OwnServerTournament,
) -> None:
    """The frames the viewer serves equal the stored record replayed through
    the engine, and its final scores equal the tournament's stored result."""
    viewer = own_server_tournament.viewer
    base = f"{viewer.url}/tournaments/0/{own_server_tournament.name}/match"
    for game in stored_games(own_server_tournament):
        with Store(own_server_tournament.database) as store:
            record = store.replay(game.match_id)
        assert record is not None and record.actions
        status, _, html = get(f"{base}/{game.match_id}")
        assert status == 200, html[:800]
        boot = boot_data(html)
        assert boot["moves"] == len(record.actions) and boot["game"] == "sheep-showdown"
        status, _, body = get(
            f"{viewer.url}/api/tournaments/0/{own_server_tournament.name}/match/"
            f"{game.match_id}/frames?view=all",
            gzip_ok=True,
        )
        assert status == 200, body[:800]
        data = json.loads(body)
        assert len(data["frames"]) == len(record.actions) + 1

        engine = games.get(record.game)
        state = engine.new_state(record.players, record.seed, dict(record.options))
        for recorded in record.actions:
            state.apply(state.legal_actions()[recorded.action_index])
        last = data["frames"][-1]
        assert last["move"] == len(record.actions)
        public = observation_dict(convert.observation(engine.codec, state.observation(None)))
        assert last["observation"] == public
        for seat in range(record.players):
            own = observation_dict(convert.observation(engine.codec, state.observation(seat)))
            assert last["seats"][seat] == own
        stored_scores = [seat.score for seat in game.seats]
        assert data["result"]["scores"] == stored_scores
        assert list(state.result().scores) == stored_scores


def test_a_game_in_neither_the_database_nor_the_server_is_a_404_page(
    own_server_tournament: OwnServerTournament,
) -> None:
    viewer = own_server_tournament.viewer
    status, _, body = get(f"{viewer.url}/tournaments/0/own-server/match/no-such-game")
    assert_clear_error(status, body, 404, "has no game")
    status, kind, body = get(f"{viewer.url}/api/tournaments/0/own-server/match/no-such-game/frames")
    assert "json" in kind and json.loads(body)["status"] == 404


def test_a_tournament_url_shows_that_tournaments_games_only(
    own_server_tournament: OwnServerTournament,
) -> None:
    """A tournament game's URL names the tournament: another name (one the
    database does not hold), or a match the tournament did not play (the game
    server's own), is a 404, not that match shown as the tournament's game.
    Both once answered 200 (the name was never read, and any match id the game
    server knew was replayed), also from the frames kept for the right URL."""
    viewer = own_server_tournament.viewer
    game = stored_games(own_server_tournament)[0].match_id
    other = viewer.play_finished("sheep-showdown", 2, 77)  # the game server's, no game of it
    base = f"{viewer.url}/tournaments/0"
    status, _, _ = get(f"{viewer.url}/api{base[len(viewer.url) :]}/own-server/match/{game}/frames")
    assert status == 200  # its frames are now kept
    for name, match_id, words in [
        ("no-such-cup", game, "no tournament 'no-such-cup' in own-server.db"),
        ("own-server", other, f"has no game '{other}'"),
    ]:
        status, _, body = get(f"{base}/{name}/match/{match_id}")
        assert_clear_error(status, body, 404, html.escape(words))
        for view in ("public", "all"):
            status, kind, body = get(
                f"{viewer.url}/api/tournaments/0/{name}/match/{match_id}/frames?view={view}"
            )
            assert "json" in kind and json.loads(body)["status"] == 404, body[:300]
            assert words in json.loads(body)["error"]


def test_a_game_recorded_under_other_rules_is_refused_not_replayed(
    own_server_tournament: OwnServerTournament, tmp_path: Path
) -> None:
    """Today's engine would replay a game of other rules as a different game:
    its page and its frames say so (409), as for a game server's match."""
    database = tmp_path / "changed.db"
    shutil.copyfile(own_server_tournament.database, database)
    changed = stored_games(own_server_tournament)[0].match_id
    with Store(database) as store:
        record = store.replay(changed)
    assert record is not None
    record.rules_version = games.get("sheep-showdown").rules_version + 5
    with sqlite3.connect(database) as connection:
        connection.execute(
            "UPDATE game_replays SET replay = ? WHERE game_id = "
            "(SELECT id FROM games WHERE match_id = ?)",
            (record.SerializeToString(), changed),
        )
    connection.close()
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        base = f"{viewer.url}/tournaments/0/{own_server_tournament.name}/match/{changed}"
        api = f"{viewer.url}/api/tournaments/0/{own_server_tournament.name}/match/{changed}"
        words = f"recorded under sheep-showdown rules version {record.rules_version}"
        for url in (base, f"{api}/frames?view=all", f"{api}/frames?view=public"):
            status, _, body = get(url)
            assert_clear_error(status, body, 409, words)
    finally:
        viewer.stop()


def test_a_games_page_names_the_bot_in_each_seat(
    own_server_tournament: OwnServerTournament,
) -> None:
    """A spectator of a tournament game is told which bot played which seat
    (the page once said "seat 0" and "seat 1" alone), and the way back to its
    tournament; a match of the game server's own names no bot."""
    viewer = own_server_tournament.viewer
    name = own_server_tournament.name
    played = stored_games(own_server_tournament)
    assert {game.bots for game in played} == {("random", "greedy"), ("greedy", "random")}
    for game in played:
        status, _, page = get(f"{viewer.url}/tournaments/0/{name}/match/{game.match_id}")
        assert status == 200, page[:800]
        boot = boot_data(page)
        assert boot["bots"] == list(game.bots)
        assert boot["tournament"] == {"name": name, "url": f"/tournaments/0/{name}"}
    other = viewer.play_finished("sheep-showdown", 2, 78)
    status, _, page = get(f"{viewer.url}/match/{other}")
    assert status == 200, page[:800]
    boot = boot_data(page)
    assert boot.get("bots") is None and boot.get("tournament") is None
