"""Sheep & Garden: build a shared landscape of square tiles, score your objectives.

1 to 4 players. The tiles and objective cards are a reconstruction (see
tiles.toml, objectives.toml and docs/games/sheep-and-garden.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.contract import Game
from games.sheep_and_garden.model import Place, SheepAndGardenObservation
from games.sheep_and_garden.state import SheepAndGardenState

__all__ = ["GAME", "Place", "SheepAndGarden", "SheepAndGardenObservation", "SheepAndGardenState"]


class SheepAndGarden(Game):
    name: ClassVar[str] = "sheep-and-garden"
    title: ClassVar[str] = "Sheep & Garden"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4

    def _new_state(
        self, players: int, seed: int, options: Mapping[str, Any]
    ) -> SheepAndGardenState:
        return SheepAndGardenState(players, seed)

    def lowest_score(self, players: int) -> float | None:
        """With company, a seat's score adds up its objective cards' points, none
        below 0; solo's is the player's total minus the enemy's, with no floor set."""
        return None if players == 1 else 0.0

    @property
    def codec(self) -> Any:
        from games.sheep_and_garden.wire import CODEC

        return CODEC


GAME = SheepAndGarden()
