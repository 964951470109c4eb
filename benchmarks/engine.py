"""Engine speed: random full games on one core, no server, no wire.

A decision is one `legal_actions()` plus one `apply()`, exactly what the
server does per decision before any conversion to protobuf.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import games
from games.errors import InvalidOptions

# Options worth their own row (with the player counts to try): they change how
# long a game is or what a turn holds. Counts an option does not allow are skipped.
NOTABLE_OPTIONS: dict[str, tuple[dict[str, str], ...]] = {
    "sheep-showdown": ({"double_trouble": "true"}, {"rounds": "1"}),
    "stubborn-sheep": ({"wolf": "true", "bonus_actions": "true"},),
}


@dataclass(frozen=True, slots=True)
class EngineCase:
    game: str
    players: int
    options: Mapping[str, str]

    @property
    def label(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.game} {self.players}p" + (f" {extra}" if extra else "")


@dataclass(frozen=True, slots=True)
class EngineResult:
    game: str
    players: int
    options: dict[str, str]
    games: int
    decisions: int
    seconds: float
    games_per_second: float
    decisions_per_second: float
    decisions_per_game: float


def cases(only_games: tuple[str, ...] | None = None) -> Iterator[EngineCase]:
    """Every registered game at every player count, plus its notable options."""
    for name in games.names():
        if only_games and name not in only_games:
            continue
        game = games.get(name)
        for players in range(game.min_players, game.max_players + 1):
            yield EngineCase(name, players, {})
        for options in NOTABLE_OPTIONS.get(name, ()):
            for players in sorted({game.min_players, game.max_players}):
                try:
                    game.new_state(players, 0, dict(options))
                except InvalidOptions:
                    continue
                yield EngineCase(name, players, options)


def measure(case: EngineCase, seconds: float, min_games: int = 3) -> EngineResult:
    """Play seeded random games for about `seconds` (at least `min_games`)."""
    game = games.get(case.game)
    rng = random.Random(12345)
    played = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while played < min_games or elapsed < seconds:
        state = game.new_state(case.players, played, dict(case.options))
        randrange = rng.randrange
        while not state.terminal:
            actions = state.legal_actions()
            state.apply(actions[randrange(len(actions))])
            decisions += 1
        played += 1
        elapsed = time.perf_counter() - start
    return EngineResult(
        game=case.game,
        players=case.players,
        options=dict(case.options),
        games=played,
        decisions=decisions,
        seconds=elapsed,
        games_per_second=played / elapsed,
        decisions_per_second=decisions / elapsed,
        decisions_per_game=decisions / played,
    )


def run(seconds: float, only_games: tuple[str, ...] | None = None) -> list[EngineResult]:
    return [measure(case, seconds) for case in cases(only_games)]
