"""Stubborn Sheep (wire name `stubborn-sheep`): fences, jumping sheep, 1 to 5 players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Game
from games.options import OptionSpec
from games.stubborn_sheep.state import StubbornSheepState

__all__ = ["GAME", "StubbornSheepGame", "StubbornSheepState"]


class StubbornSheepGame(Game):
    name = "stubborn-sheep"
    title = "Stubborn Sheep"
    min_players = 1
    max_players = 5
    # 2: left is clockwise, the player picks every scored and discarded sheep,
    # restock bonuses only when they add a sheep.
    # 3: 3 or 4 of a colour score all together; red rotates only an own fence before
    #    placing; a white move may come right before an extra activation.
    # 4: a solo player keeps or turns all four fences laid out at setup.
    # 5: no placing on the fence given an extra activation before the placing.
    # 6: a white move made before placing is followed by the extra activation, not
    #    by the placing.
    # 7: "activate twice" may also be chosen right after the fence's first activation.
    # 8: a pen giving more than 5,000 ways to score offers each once up to identical
    #    cards (one colour, one printed bonus).
    # 9: the red bonuses only where they would change something: an extra or a
    #    second activation only of a fence that would make a sheep jump, a rotation
    #    only of a fence that would make one jump one way up or the other and that,
    #    turned, meets the colours beside it in another order or on other sides.
    rules_version = 9
    option_specs = (
        OptionSpec(
            "wolf",
            "bool",
            False,
            "wolf variant: the wolf moves to the fullest meadow each turn and scares sheep off",
        ),
        OptionSpec(
            "bonus_actions",
            "bool",
            False,
            "advanced rule: the top card of each of your score piles grants its bonus action",
        ),
    )

    def _new_state(self, players: int, seed: int, options: Mapping[str, Any]) -> StubbornSheepState:
        return StubbornSheepState.new_game(
            players, seed, bool(options["wolf"]), bool(options["bonus_actions"])
        )

    def lowest_score(self, players: int) -> float | None:
        """A score is the number of sheep in the seat's score piles."""
        return 0.0

    @property
    def codec(self) -> Any:
        from games.stubborn_sheep.wire import CODEC

        return CODEC


GAME = StubbornSheepGame()
