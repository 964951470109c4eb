"""Whole matches of every game through `sheepfold serve` started as a subprocess,
with one real gRPC SDK client per seat."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from clients.matchplay import create_match
from clients.sdk import play
from tests.conftest import ServerProcess, start_server_process, stop_server_process
from tests.server.recording import RecordingBot, check_seats_saw_exactly_their_view

pytestmark = pytest.mark.e2e

CASES = [
    ("sheep-showdown", 2, {"rounds": "1"}),
    ("sheep-showdown", 4, {}),
    ("sheep-showdown", 6, {"rounds": "1"}),
    ("sheep-showdown", 2, {"double_trouble": "true"}),
    ("sheep-n-sheep", 2, {}),
    ("sheep-n-sheep", 3, {}),
    ("sheep-n-sheep", 4, {}),
    ("stubborn-sheep", 1, {}),
    ("stubborn-sheep", 2, {"wolf": "true", "bonus_actions": "true"}),
    ("stubborn-sheep", 3, {"wolf": "true", "bonus_actions": "true"}),
    ("stubborn-sheep", 5, {"wolf": "true", "bonus_actions": "true"}),
    ("sheep-and-garden", 1, {}),
    ("sheep-and-garden", 2, {}),
    ("sheep-and-garden", 3, {}),
    ("sheep-and-garden", 4, {}),
]


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    server = start_server_process()
    try:
        yield server
    finally:
        assert stop_server_process(server) == 0, "SIGTERM must stop the server with exit 0"


async def _play_recorded(
    address: str,
    game: str,
    players: int,
    seed: int,
    options: dict,
    events_in_decisions: bool = True,
):
    created = await create_match(address, game, players, seed=seed, options=options)
    bots = [RecordingBot(seed * 10 + seat) for seat in range(players)]
    results = await asyncio.gather(
        *(
            play(
                bot,
                address,
                created.match_id,
                token,
                seat,
                events_in_decisions=events_in_decisions,
            )
            for seat, (bot, token) in enumerate(zip(bots, created.seat_tokens, strict=True))
        )
    )
    return bots, results


@pytest.mark.parametrize(
    ("game", "players", "options"),
    CASES,
    ids=[f"{g}-{p}p{'-' + '-'.join(o) if o else ''}" for g, p, o in CASES],
)
def test_whole_match_and_each_seat_sees_only_its_view(
    served: ServerProcess, game: str, players: int, options: dict
) -> None:
    seed = 1000 + players
    bots, results = asyncio.run(_play_recorded(served.address, game, players, seed, options))
    # Every seat receives the same final result.
    assert all(r == results[0] for r in results)
    assert len(results[0].scores) == players
    assert sorted(results[0].ranks)[0] == 1
    check_seats_saw_exactly_their_view(
        game, players, seed, options, [bot.log for bot in bots], results[0]
    )


# One case per game with every event in a message of its own (the SDK's default
# is events inside the next decision, which the cases above play).
CLASSIC = [CASES[1], CASES[6], CASES[9], CASES[14]]


@pytest.mark.parametrize(
    ("game", "players", "options"), CLASSIC, ids=[f"{g}-{p}p" for g, p, _ in CLASSIC]
)
def test_with_events_as_messages_each_seat_sees_only_its_view(
    served: ServerProcess, game: str, players: int, options: dict
) -> None:
    seed = 2000 + players
    bots, results = asyncio.run(
        _play_recorded(served.address, game, players, seed, options, events_in_decisions=False)
    )
    assert all(r == results[0] for r in results)
    check_seats_saw_exactly_their_view(
        game, players, seed, options, [bot.log for bot in bots], results[0]
    )


def test_the_view_check_catches_a_leaked_field(served: ServerProcess) -> None:
    """The check above must fail when a seat received anything beyond its view."""
    game, players, options = "sheep-n-sheep", 2, {}
    bots, results = asyncio.run(_play_recorded(served.address, game, players, 77, options))
    tampered = bots[0].log.decisions[0]
    # Show seat 0 the observation seat 1 would get at the same moment: it differs.
    from games import get
    from server import convert

    state = get(game).new_state(players, 77, options)
    tampered.observation.CopyFrom(convert.observation(get(game).codec, state.observation(1)))
    with pytest.raises(AssertionError, match="observation differs"):
        check_seats_saw_exactly_their_view(
            game, players, 77, options, [bot.log for bot in bots], results[0]
        )
