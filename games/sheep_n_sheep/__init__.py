"""Sheep 'n' Sheep (wire name `sheep-n-sheep`): 2-4 players build pastures of
sheep cards to form groups of the exact size each colour asks for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.contract import Game
from games.sheep_n_sheep.state import SheepNSheepState


class SheepNSheep(Game):
    name: ClassVar[str] = "sheep-n-sheep"
    title: ClassVar[str] = "Sheep 'n' Sheep"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    # 2: a placement no longer ends by itself when only the hand has no card that
    # fits (that told the other seats what the hand lacks); the seat stops it.
    # 3: a card placed or discarded shows the copy of its face that tells the
    # other seats nothing (see SheepNSheepState._reveal); the lowest id in the
    # hand told them which copies the hand held.
    # 4: players tied for a bell, heart or star award eliminated one rank, however
    # many tied (three tied for the most bells: the next player was 3rd).
    # 5: k tied players take up k ranks again (that player is 4th), as the
    # project's rules decide for three or more, which the rulebook leaves open.
    rules_version: ClassVar[int] = 5

    def _new_state(self, players: int, seed: int, options: Mapping[str, Any]) -> SheepNSheepState:
        return SheepNSheepState(players, seed)

    @property
    def codec(self) -> Any:
        from games.sheep_n_sheep.wire import CODEC

        return CODEC


GAME = SheepNSheep()

__all__ = ["GAME", "SheepNSheep", "SheepNSheepState"]
