"""A round robin's or gauntlet's schedule as a run builds it: the field's
history kept in the stored config (its `ladder`), then the games of it."""

from __future__ import annotations

from tournament.config import TournamentConfig
from tournament.schedule import ScheduledGame, ladder_schedule
from tournament.store import Store

__all__ = ["ladder_stages", "schedule_for"]


def schedule_for(
    config: TournamentConfig, stages: list[list[str]] | None = None
) -> tuple[ScheduledGame, ...]:
    """The games of a round robin or gauntlet; `stages` is the field's history."""
    return ladder_schedule(
        stages or [list(config.bot_names)],
        config.players,
        config.games_per_pairing,
        config.seed,
        config.max_groups,
        config.candidates if config.schedule == "gauntlet" else (),
    )


def ladder_stages(store: Store, config: TournamentConfig) -> list[list[str]]:
    """The fields of this tournament's runs so far, oldest first, ending with
    the config's (see `schedule.ladder_schedule`); kept in the stored config."""
    current = list(config.bot_names)
    record = store.find(config.name)
    if record is not None:
        stages = record.config.get("ladder") or [
            [bot["name"] for bot in record.config.get("bots", [])]
        ]
        return stages if stages[-1] == current else [*stages, current]
    return [current]
