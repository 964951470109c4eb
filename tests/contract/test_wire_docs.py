"""The game guides describe what a bot in any language sees on the wire: the
oneof member, every key of `MatchResult.details_json`, and the exact
INVALID_ARGUMENT messages. Checked against a real server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.app import ServerConfig
from server.inprocess import InProcessServer

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
SHORT = {"sheep-showdown": {"rounds": "1"}}
# (game, players, options) whose refusal each guide quotes word for word.
REFUSALS = [
    ("sheep-showdown", 3, {"double_trouble": "true"}),
    ("sheep-showdown", 2, {"wolf": "true"}),
    ("sheep-n-sheep", 2, {"rounds": "1"}),
    ("sheep-and-garden", 2, {"rounds": "1"}),
    ("stubborn-sheep", 2, {"wolf": "maybe"}),
    ("stubborn-sheep", 2, {"rounds": "1"}),
]


def wire_section(game: str) -> str:
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    assert "\n## On the wire\n" in text, f"{game}.md has no 'On the wire' section"
    return text.split("\n## On the wire\n", 1)[1].split("\n## ", 1)[0]


def _keys(value: object, depth: int = 0) -> set[str]:
    """Every key of a JSON value, nested dicts and the first item of lists included."""
    if isinstance(value, dict):
        found = set(value)
        for item in value.values():
            found |= _keys(item, depth + 1)
        return found
    if isinstance(value, list) and value:
        return _keys(value[0], depth + 1)
    return set()


@pytest.fixture(scope="module")
def server() -> InProcessServer:
    with InProcessServer(ServerConfig()) as running:
        yield running


@pytest.mark.parametrize("game", games.names())
def test_every_details_json_key_is_documented(server: InProcessServer, game: str) -> None:
    section = wire_section(game)
    member = game.replace("-", "_")
    assert f"`oneof game` member `{member}`" in section
    documented = set(re.findall(r"`([a-z_]+)`", section))
    engine = games.get(game)
    for players in sorted({engine.min_players, 2} & set(range(engine.min_players, 5))):
        outcome = server.run(
            play_match(
                server.address,
                game,
                [RandomBot(seat) for seat in range(players)],
                seed=11,
                options=SHORT.get(game, {}),
            )
        )
        details = json.loads(outcome.result.details_json)
        missing = _keys(details) - documented
        assert not missing, f"{game} ({players} players): undocumented keys {sorted(missing)}"


@pytest.mark.parametrize(("game", "players", "options"), REFUSALS)
def test_the_quoted_refusals_are_what_the_server_says(
    server: InProcessServer, game: str, players: int, options: dict[str, str]
) -> None:
    with (
        grpc.insecure_channel(server.address) as channel,
        pytest.raises(grpc.RpcError) as refused,
    ):
        arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(game=game, players=players, options=options),
            timeout=10,
        )
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    details = refused.value.details()
    assert f'"{details}"' in wire_section(game), details
