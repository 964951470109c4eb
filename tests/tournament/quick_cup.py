"""What the tournament tests share: a small tournament (two random bots
playing one-round Sheep Showdown, from a config file), a runner of a
tournament's games opened in a store, and a progress display that records what
the run reported."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from pathlib import Path

import structlog

from clients.launch import Launcher
from tournament.batch_play import _Runner
from tournament.config import TournamentConfig, load_config
from tournament.game_play import GamePlayer
from tournament.live import live_figures
from tournament.progress import Progress, SilentProgress
from tournament.runner import ladder_stages, open_tournament, schedule_for
from tournament.schedule import ScheduledGame
from tournament.store import GameRecord, Store


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


def cup_runner(
    config: TournamentConfig,
    store: Store,
    progress: Progress,
    player: type[GamePlayer] = GamePlayer,
    address: str = "127.0.0.1:1",
    log: structlog.typing.FilteringBoundLogger | None = None,
) -> tuple[_Runner, tuple[ScheduledGame, ...]]:
    """The runner of `config`'s games, the tournament opened in `store`, and
    its schedule: `player` plays them at `address` (by default one where
    nobody listens, for a player that reaches no server)."""
    stages = ladder_stages(store, config)
    schedule = schedule_for(config, stages)
    tid = open_tournament(store, config, len(schedule), stages)
    played_by = player(config, address, "", Launcher(), log or structlog.get_logger())
    figures = live_figures(config.bot_names, config.players, config.anchor)
    return _Runner(played_by, store, tid, figures, progress), schedule


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
