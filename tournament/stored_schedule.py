"""Which of a stored tournament's rated games its current schedule plays.

A stored game stays rated while every bot in it is in the config, scheduled or
not: a gauntlet after a round robin of its field rates the field's games among
themselves beside its own ("a grown ladder"), and a gauntlet whose candidates
changed keeps a former candidate's games against the field. The report counts
only the schedule's games in "played/scheduled", as `run`'s "N/M done" does,
and says in one line how many more it rates (`outside_schedule`).

The schedule is rebuilt from the stored config (its `ladder`, `seed`,
`games_per_pairing`, `max_groups` and `candidates`), as the run built it. A
round robin's resume checks keep every stored game of its field in its
schedule, so it is rebuilt only for a gauntlet, or when more games of the
field are stored than scheduled (a tournament stored before those checks). A
stored config that cannot rebuild the schedule of its stored size counts every
rated game as played, as reports did before. An SPRT's games are its blocks.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournament.config import DEFAULT_MAX_GROUPS
from tournament.schedule import ladder_schedule
from tournament.sprt_blocks import SprtPlan
from tournament.store import GameRecord, TournamentRecord

__all__ = ["deal_in_play", "outside_schedule", "scheduled_keys"]


def outside_schedule(record: TournamentRecord, games: Sequence[GameRecord]) -> int:
    """How many of the rated `games` the tournament's current schedule does
    not play (a game of a bot no longer in the config never is in it)."""
    kind = record.config.get("schedule", "round-robin")
    if kind == "sprt":
        return 0
    field = {bot.get("name") for bot in record.config.get("bots", ()) if isinstance(bot, dict)}
    in_field = [game for game in games if set(game.bots) <= field] if field else list(games)
    outside = len(games) - len(in_field)
    if kind == "gauntlet" or len(in_field) > record.scheduled:
        keys = scheduled_keys(record)
        if keys is not None:
            outside += sum(1 for game in in_field if game.key not in keys)
    return outside


def scheduled_keys(record: TournamentRecord) -> set[str] | None:
    """The keys of the stored tournament's current schedule; None when its
    stored config does not rebuild a schedule of its stored size."""
    schedule = _schedule(record)
    return None if schedule is None else set(schedule)


def deal_in_play(record: TournamentRecord, done: set[str], deal: int) -> bool:
    """Whether the tournament still has a game of deal number `deal` to play:
    one of its schedule (an SPRT's: the deal's block) whose key is not among
    the stored games' keys `done`. Such a game may be live now or come later,
    and is dealt the same cards. When the stored config cannot rebuild the
    schedule (edited by hand), any deal may be in play until as many games
    are stored as it schedules."""
    if record.config.get("schedule") == "sprt":
        plan = SprtPlan.from_stored(record)
        if plan is None:
            return len(done) < record.scheduled
        index = deal - plan.seed
        # A deal outside the test's blocks is none of its games.
        blocks = [plan.block(index)] if 0 <= index < plan.limit else []
        return any(game.key not in done for block in blocks for game in block)
    schedule = _schedule(record)
    if schedule is None:
        return len(done) < record.scheduled
    # Not a count of `done`: a grown ladder keeps games outside its schedule.
    return any(seed == deal for key, seed in schedule.items() if key not in done)


def _schedule(record: TournamentRecord) -> dict[str, int] | None:
    """The deal number of each key of the stored tournament's current schedule;
    None when its stored config does not rebuild a schedule of its stored size."""
    config = record.config
    try:
        stages = config.get("ladder") or [[bot["name"] for bot in config["bots"]]]
        candidates = config.get("candidates", ()) if config.get("schedule") == "gauntlet" else ()
        schedule = ladder_schedule(
            stages,
            record.players,
            int(config["games_per_pairing"]),
            int(config["seed"]),
            int(config.get("max_groups", DEFAULT_MAX_GROUPS)),
            tuple(candidates),
        )
    except (KeyError, TypeError, ValueError):
        return None
    deals = {game.key: game.seed for game in schedule}
    return deals if len(deals) == record.scheduled else None
