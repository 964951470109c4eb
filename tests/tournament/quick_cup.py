"""What the tournament tests share: a small tournament (two random bots
playing one-round Sheep Showdown, from a config file) and a progress display
that records what the run reported."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from pathlib import Path

from tournament.config import TournamentConfig, load_config
from tournament.progress import SilentProgress
from tournament.store import GameRecord


def quick_cup(
    folder: Path, games_per_pairing: int = 2, concurrency: int | None = None
) -> TournamentConfig:
    """A config named "cup" of bots "a" and "b", written to `folder`/cup.toml and
    loaded as a run loads it; `concurrency` left to its default when None."""
    lines = [
        'name = "cup"',
        'game = "sheep-showdown"',
        "players = 2",
        f"games_per_pairing = {games_per_pairing}",
        *([f"concurrency = {concurrency}"] if concurrency is not None else []),
        "[options]",
        "rounds = 1",
        "[[bots]]",
        'name = "a"',
        'builtin = "random"',
        "[[bots]]",
        'name = "b"',
        'builtin = "random"',
    ]
    path = folder / "cup.toml"
    path.write_text("\n".join(lines) + "\n")
    return load_config(path)


class Recorder(SilentProgress):
    """Records the games stored, the errors and the notes; kills `victim`
    (SIGKILL) once the first game is stored."""

    def __init__(self, victim: int | None = None) -> None:
        self.victim = victim
        self.keys: list[str] = []
        self.errors: list[str] = []
        self.notes: list[str] = []

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        self.keys.append(game.key)
        if self.victim is not None:
            os.kill(self.victim, signal.SIGKILL)
            self.victim = None

    def game_error(self, key: str, error: str) -> None:
        self.errors.append(f"{key}: {error}")

    def note(self, text: str) -> None:
        self.notes.append(text)
