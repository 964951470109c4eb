"""A match rebuilt from the store after a restart: unfinished ones can be
started again, finished ones answer GetMatch, Watch and GetReplay."""

from __future__ import annotations

from games.contract import Game
from server.match import Match, Status
from server.metrics import GameMetrics
from server.records import StoredMatch, stored_result
from server.seats import MatchLimits
from server.storage import StoreWorker
from server.store import Store


def restored_match(
    stored: StoredMatch,
    game: Game,
    store: Store | StoreWorker,
    *,
    start_timeout: float = 30.0,
    limits: MatchLimits | None = None,
    metrics: GameMetrics | None = None,
) -> Match:
    """The match as the store keeps it, its moves played again. A match
    recorded under another rules version raises RulesChanged instead of
    replaying differently."""
    game.check_rules_version(stored.record.rules_version)
    match = Match(
        stored.record, game, store, start_timeout=start_timeout, limits=limits, metrics=metrics
    )
    match.ever_joined = stored.seat_joined
    match.replay(stored.moves)
    for seat in stored.joined_seats:
        match.seats[seat].joined_before_restart = True
    if stored.status != "running":
        match.restore_end(
            Status.FINISHED if stored.status == "finished" else Status.ABORTED,
            stored_result(stored.record.match_id, stored.result),
            stored.end_reason,
        )
    return match
