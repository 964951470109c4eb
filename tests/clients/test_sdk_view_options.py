"""A Python bot learns the options it plays under from each decision's view,
as the `Joined` message gives them (every option, defaults filled in, as
strings): the SDK read `Joined.options` and dropped them, so a bot had to know
each game's observation fields (`wolf_variant`, `double_trouble`) to find them."""

from __future__ import annotations

import asyncio

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from clients.sdk import DecisionView
from server.app import ServerConfig
from server.inprocess import serving_here

pytestmark = pytest.mark.e2e


class _Recorder:
    def __init__(self) -> None:
        self.options: list[dict[str, str]] = []

    def decide(self, decision: DecisionView) -> int:
        self.options.append(dict(decision.options))
        return 0


@pytest.mark.parametrize(
    ("game", "given", "seen"),
    [
        ("stubborn-sheep", {"wolf": "yes"}, {"wolf": "true", "bonus_actions": "false"}),
        ("sheep-showdown", {"rounds": "+1"}, {"rounds": "1", "double_trouble": "false"}),
        ("sheep-n-sheep", {}, {}),
    ],
)
def test_every_decision_view_carries_the_options(
    game: str, given: dict[str, str], seen: dict[str, str]
) -> None:
    bot = _Recorder()

    async def scenario() -> None:
        async with serving_here(ServerConfig()) as address:
            bots = [bot, RandomBot(1)]
            await asyncio.wait_for(play_match(address, game, bots, seed=5, options=given), 60)

    asyncio.run(scenario())
    assert bot.options, "the bot was asked nothing"
    assert all(options == seen for options in bot.options), bot.options[:3]


def test_a_view_built_by_hand_has_no_options() -> None:
    from sheepfold.v1 import arena_pb2

    view = DecisionView.from_message(arena_pb2.Decision(decision_id=1), "sheep-n-sheep")
    assert dict(view.options) == {}
