"""Sheep Showdown (wire name `sheep-showdown`): dogs race over a meadow of cards."""

from games.sheep_showdown.game import SheepShowdownGame
from games.sheep_showdown.state import SheepShowdownObservation, SheepShowdownState

GAME = SheepShowdownGame()

__all__ = ["GAME", "SheepShowdownGame", "SheepShowdownObservation", "SheepShowdownState"]
