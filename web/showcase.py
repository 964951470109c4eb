"""A game server with matches of every game and the viewer on top, in this
process: what `make screenshots`, the browser tests and the benchmarks look at.

The server, its bots and the viewer share one event loop (the server's, on a
background thread), as `sheepfold serve --web-port` runs them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match, play_match
from clients.sdk import DecisionView, play
from server.app import ServerConfig
from server.inprocess import InProcessServer
from tournament.config import parse_config
from tournament.runner import run_tournament_async
from web.app import RunningWeb, WebConfig, start_web

# A lineup per game: the player count shown and a seed whose match is worth a look.
GAMES: dict[str, tuple[int, int]] = {
    "sheep-showdown": (2, 11),
    "sheep-n-sheep": (3, 12),
    "stubborn-sheep": (3, 13),
    "sheep-and-garden": (2, 14),
}


class PacedBot:
    """A random bot that waits `delay` seconds before each answer, so a match
    stays live long enough to be watched."""

    def __init__(self, seed: int, delay: float) -> None:
        self.rng = random.Random(seed)
        self.delay = delay

    async def decide(self, decision: DecisionView) -> int:
        await asyncio.sleep(self.delay)
        return self.rng.randrange(len(decision.actions))


@dataclass
class Showcase:
    server: InProcessServer
    web: RunningWeb | None = None
    # game -> the match start_showcase played or started for it. Tests that
    # share a showcase read these, so a test's own play_finished or
    # start_live never replaces them.
    finished: dict[str, str] = field(default_factory=dict)
    live: dict[str, str] = field(default_factory=dict)
    _players: list[asyncio.Future[object]] = field(default_factory=list)

    tournament_dbs: tuple[Path, ...] = ()

    def web_config_dbs(self) -> tuple[Path, ...]:
        return self.tournament_dbs

    @property
    def url(self) -> str:
        assert self.web is not None
        return f"http://127.0.0.1:{self.web.port}"

    def play_finished(self, game: str, players: int, seed: int) -> str:
        bots = [RandomBot(seed * 10 + seat) for seat in range(players)]
        outcome = self.server.run(play_match(self.server.address, game, bots, seed=seed))
        return outcome.match_id

    def start_live(self, game: str, players: int, seed: int, delay: float) -> str:
        """A match whose bots keep playing, one move every `delay` seconds."""

        async def begin() -> str:
            created = await create_match(self.server.address, game, players, seed=seed)
            for seat, token in enumerate(created.seat_tokens):
                bot = PacedBot(seed * 10 + seat, delay)
                self._players.append(
                    asyncio.ensure_future(
                        play(bot, self.server.address, created.match_id, token, seat)
                    )
                )
            return created.match_id

        return self.server.run(begin())

    def run_tournament(
        self, database: Path, games_per_pairing: int = 2, secret_deals: bool = True
    ) -> str:
        """A small round robin (random against greedy and itself) on this server,
        stored in `database`; returns its name. Without `secret_deals` its deal
        numbers are its seeds, so it plays the same games every time."""
        config = parse_config(
            {
                "name": "showcase",
                "game": "sheep-showdown",
                "players": 2,
                "games_per_pairing": games_per_pairing,
                "seed": 1,
                "secret_deals": secret_deals,
                "concurrency": 2,
                "anchor": "random",
                "bots": [
                    {"name": "random", "builtin": "random"},
                    {"name": "random-too", "builtin": "random"},
                    {"name": "greedy", "builtin": "greedy"},
                ],
            }
        )
        self.server.run(run_tournament_async(config, self.server.address, str(database)), 300)
        return config.name

    def stop(self) -> None:
        async def close() -> None:
            for task in self._players:
                task.cancel()
            await asyncio.gather(*self._players, return_exceptions=True)
            if self.web is not None:
                await self.web.stop()

        if self.server.address:
            self.server.run(close())
            self.server.stop()


def start_showcase(
    games: Sequence[str] = tuple(GAMES),
    live: Sequence[str] = (),
    live_delay: float = 0.25,
    tournament_dbs: Sequence[Path] = (),
    config: ServerConfig | None = None,
    secret_deals: bool = True,
) -> Showcase:
    """A server with one finished match of each of `games`, a live one of each
    of `live`, and the viewer on a free port, showing `tournament_dbs` (a
    tournament is played into the first when it does not exist yet, under a
    secret unless not `secret_deals`)."""
    server = InProcessServer(config or ServerConfig())
    server.start()
    showcase = Showcase(server, tournament_dbs=tuple(Path(db) for db in tournament_dbs))
    try:
        for game in games:
            players, seed = GAMES[game]
            showcase.finished[game] = showcase.play_finished(game, players, seed)
        if tournament_dbs and not Path(tournament_dbs[0]).exists():
            showcase.run_tournament(Path(tournament_dbs[0]), secret_deals=secret_deals)
        for game in live:
            players, seed = GAMES[game]
            showcase.live[game] = showcase.start_live(game, players, seed + 100, live_delay)
        showcase.web = server.run(
            start_web(WebConfig(server.address, tuple(tournament_dbs)), "127.0.0.1", 0)
        )
    except BaseException:
        showcase.stop()
        raise
    return showcase
