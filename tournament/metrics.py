"""Prometheus metrics of a tournament run (`tournament run --metrics-port`).

A `Progress` that counts what passes through it and hands every call on to the
progress display it wraps, so the runner needs no second set of hooks.
"""

from __future__ import annotations

from collections.abc import Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge

from server.metrics_http import MetricsEndpoint
from tournament.progress import Ending, Progress, note_on
from tournament.store import GameRecord

__all__ = ["TournamentMetrics"]


class TournamentMetrics:
    def __init__(self, inner: Progress) -> None:
        self.inner = inner
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.scheduled = Gauge(
            "sheepfold_tournament_games_scheduled", "Games in the schedule", registry=r
        )
        self.stored = Gauge(
            "sheepfold_tournament_games_stored",
            "Games stored in the tournament database (earlier runs' too)",
            registry=r,
        )
        self.done = Counter(
            "sheepfold_tournament_games_done", "Games this run played and stored", registry=r
        )
        self.in_flight = Gauge(
            "sheepfold_tournament_games_in_flight", "Games being played now", registry=r
        )
        self.errors = Counter(
            "sheepfold_tournament_game_errors",
            "Games that could not be played (the server refused or timed out)",
            registry=r,
        )
        self.crashes = Counter(
            "sheepfold_tournament_bot_crashes",
            "Seats whose bot crashed during a game this run played",
            registry=r,
        )
        self._endpoint: MetricsEndpoint | None = None

    def serve(self, host: str, port: int) -> int:
        """Serve /metrics over HTTP; returns the port (useful with port 0).
        Raises `MetricsPortError` when it cannot."""
        self._endpoint = MetricsEndpoint.start_registry(self.registry, host, port)
        return self._endpoint.port

    def close(self) -> None:
        if self._endpoint is not None:
            self._endpoint.stop()
            self._endpoint = None

    def start(self, tournament: str, total: int, done: int) -> None:
        self.scheduled.set(total)
        self.stored.set(done)
        self.inner.start(tournament, total, done)

    def game_started(self, key: str) -> None:
        self.in_flight.inc()
        self.inner.game_started(key)

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        self.in_flight.dec()
        self.done.inc()
        self.stored.inc()
        self.crashes.inc(sum(1 for seat in game.seats if seat.failure == "crash"))
        self.inner.game_done(game, elo)

    def game_error(self, key: str, error: str) -> None:
        self.in_flight.dec()
        self.errors.inc()
        self.inner.game_error(key, error)

    def note(self, text: str) -> None:
        note_on(self.inner, text)

    def finish(self, played: int, ending: Ending) -> None:
        self.inner.finish(played, ending)
