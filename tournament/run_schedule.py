"""A round robin's or gauntlet's schedule as a run builds it: the field's
history kept in the stored config (its `ladder`), then the games of it.

How many seat orders a group of 3 or more bots plays each seed in
(`schedule.SEAT_ORDERS`) is decided when the tournament is first stored and
kept in its stored config (`seat_orders`): a tournament stored before there
was that setting plays its group's own order alone, as it did, so resuming it
plays exactly the games it scheduled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournament.config import TournamentConfig
from tournament.deals import kept_field_deals
from tournament.schedule import SEAT_ORDERS, ScheduledGame, ladder_schedule
from tournament.store import Store

__all__ = [
    "field_deals_for",
    "kept_seat_orders",
    "ladder_stages",
    "schedule_for",
    "seat_orders_for",
]


def schedule_for(
    config: TournamentConfig,
    stages: list[list[str]] | None = None,
    seat_orders: int = SEAT_ORDERS,
) -> tuple[ScheduledGame, ...]:
    """The games of a round robin or gauntlet; `stages` is the field's history,
    `seat_orders` the tournament's (see `seat_orders_for`)."""
    return ladder_schedule(
        stages or [list(config.bot_names)],
        config.players,
        config.games_per_pairing,
        config.seed,
        config.max_groups,
        config.candidates if config.schedule == "gauntlet" else (),
        seat_orders,
    )


def seat_orders_for(store: Store, config: TournamentConfig) -> int:
    """The seat orders the config's tournament plays a group in: this version's
    when it is not stored yet, else those it was first stored with."""
    record = store.find(config.name)
    return SEAT_ORDERS if record is None else kept_seat_orders(record.config)


def field_deals_for(store: Store, config: TournamentConfig) -> bool:
    """Whether the config's tournament deals a later ladder field's games deals
    of their own (tournament.deals): yes when it is not stored yet, else as it
    was first stored."""
    record = store.find(config.name)
    return True if record is None else kept_field_deals(record.config)


def kept_seat_orders(stored: Mapping[str, Any]) -> int:
    """The seat orders of a stored tournament's config: 1 when it holds none
    (stored before the setting was), as its schedule then was."""
    return SEAT_ORDERS if stored.get("seat_orders") == SEAT_ORDERS else 1


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


def games_left(store: Store, config: TournamentConfig) -> int | None:
    """How many of the games a run of `config` schedules are not stored yet, as
    the run finds them (None: the tournament is not stored)."""
    record = store.find(config.name)
    if record is None:
        return None
    schedule = schedule_for(config, ladder_stages(store, config), seat_orders_for(store, config))
    done = store.done_keys(record.id)
    return sum(1 for game in schedule if game.key not in done)
