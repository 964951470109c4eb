"""The title a finished solo match ends with, read from its result's details,
for the viewer and the command line to show beside the score."""

from __future__ import annotations

from typing import Any


def solo_title(details: Any) -> str:
    """The title a solo match ends with, as its rulebook names them: Stubborn
    Sheep's rating of the scored sheep ("Woolly disaster") and Sheep & Garden's
    praise of the objective points over the enemy's; "" for any other result.
    Only the result's details held it, which no page nor command showed."""
    if not isinstance(details, dict):
        return ""
    praise = details.get("praise")
    if isinstance(praise, str):
        # Under 20 points over the enemy the rulebook's table gives no praise,
        # which the engine records as "none".
        return "no praise" if praise == "none" else praise
    players = details.get("players")
    if isinstance(players, list) and len(players) == 1 and isinstance(players[0], dict):
        rating = players[0].get("rating")
        if isinstance(rating, str):
            return rating
    return ""
