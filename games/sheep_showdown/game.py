"""The Sheep Showdown game definition: metadata, options, factory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Codec, Game
from games.errors import InvalidOptions
from games.options import OptionSpec
from games.sheep_showdown.state import SheepShowdownState


class SheepShowdownGame(Game):
    name = "sheep-showdown"
    title = "Sheep Showdown"
    min_players = 2
    max_players = 6
    # 2: only the mover's blocks count, stealing and a wolf-pushed dog's action are choices.
    # 3: once only one player can still move freely, the others are out at once and
    #    that player makes exactly two more moves.
    # 4: a round in which one dog alone can step from the start begins with its two
    #    last moves.
    # 5: a dog may step diagonally onto a sliding sheep and slide on diagonally.
    # 6: a wolf may push a dog along that diagonal step too.
    # 7: a lone player whose own move left nobody able to move is out in that
    #    turn, like the others, not at the start of a turn of their own.
    rules_version = 7
    option_specs = (
        OptionSpec(
            "rounds",
            "int",
            3,
            "rounds to play: 3 is the full game, 1 the quick game (2 is allowed too)",
            minimum=1,
            maximum=3,
        ),
        OptionSpec(
            "double_trouble",
            "bool",
            False,
            "Double Trouble: two dogs per player (2 players only)",
        ),
    )

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        if options["double_trouble"] and players != 2:
            raise InvalidOptions(f"option 'double_trouble' is for 2 players only, not {players}")

    def _new_state(self, players: int, seed: int, options: Mapping[str, Any]) -> SheepShowdownState:
        return SheepShowdownState(
            players, seed, rounds=options["rounds"], double_trouble=options["double_trouble"]
        )

    @property
    def codec(self) -> Codec:
        from games.sheep_showdown.wire import CODEC

        return CODEC
