"""Which of a stored tournament's rated games its current schedule plays.

A stored game stays rated while every bot in it is in the config, scheduled or
not: a gauntlet after a round robin of its field rates the field's games among
themselves beside its own ("a grown ladder"), and a gauntlet whose candidates
changed keeps a former candidate's games against the field. The report counts
only the schedule's games in "played/scheduled", as `run`'s "N/M done" does,
and says in one line how many more it rates (`outside_schedule`).

The schedule is rebuilt from the stored config (its `ladder`, `seed`,
`games_per_pairing`, `max_groups`, `candidates` and `seat_orders`), as the run
built it. A
round robin's resume checks keep every stored game of its field in its
schedule, so it is rebuilt only for a gauntlet, or when more games of the
field are stored than scheduled (a tournament stored before those checks). A
stored config that cannot rebuild the schedule of its stored size counts every
rated game as played, as reports did before. An SPRT's games are its blocks.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence

from tournament.config import DEFAULT_MAX_GROUPS
from tournament.deals import kept_field_deals, secret_seed
from tournament.run_schedule import kept_seat_orders
from tournament.schedule import ladder_schedule
from tournament.sprt_blocks import SprtPlan
from tournament.store import GameRecord, Store, TournamentRecord

__all__ = [
    "DealSeeds",
    "deal_in_play",
    "deal_of_seed",
    "outside_schedule",
    "played_of_schedule",
    "scheduled_keys",
]


def outside_schedule(record: TournamentRecord, games: Sequence[GameRecord]) -> int:
    """How many of the rated `games` the tournament's current schedule does
    not play (a game of a bot no longer in the config never is in it)."""
    kind = record.config.get("schedule", "round-robin")
    if kind == "sprt":
        return 0
    field = _field(record)
    in_field = [game for game in games if set(game.bots) <= field] if field else list(games)
    outside = len(games) - len(in_field)
    if kind == "gauntlet" or len(in_field) > record.scheduled:
        keys = scheduled_keys(record)
        if keys is not None:
            outside += sum(1 for game in in_field if game.key not in keys)
    return outside


def played_of_schedule(store: Store, record: TournamentRecord, stored: int) -> int:
    """How many of the tournament's `stored` games are played games of its
    schedule, as its report counts them (every rated game but those
    `outside_schedule`): what the web viewer's list shows. Cheap for a round
    robin: the games of bots no longer in its config are counted by one query;
    its games are read only when some of its field's may lie outside its
    schedule (a gauntlet, or more of them stored than scheduled)."""
    kind = record.config.get("schedule", "round-robin")
    if kind == "sprt":
        return stored
    field = _field(record)
    removed = store.games_outside_field(record.id, field) if field else 0
    if kind == "gauntlet" or stored - removed > record.scheduled:
        return stored - outside_schedule(record, store.games(record.id))
    return stored - removed


def _field(record: TournamentRecord) -> set[str]:
    """The bots of the tournament's stored config (empty: it names none)."""
    bots = record.config.get("bots", ())
    return {
        name for bot in bots if isinstance(bot, dict) and isinstance(name := bot.get("name"), str)
    }


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


# An SPRT may allow hundreds of thousands of deals, but plays them in order: a
# match exists only of a block that has a stored game, or one begun since,
# which this many more than its stored games cover (one game in play each).
SPRT_DEALS_AHEAD = 4096


def deal_of_seed(
    record: TournamentRecord,
    secret: bytes | None,
    seed: int,
    done: set[str],
    stored_deals: Callable[[], Sequence[int]],
    tables: MutableMapping[bytes, DealSeeds],
) -> int | None:
    """The deal number of the tournament whose matches are created with match
    seed `seed` (under its `secret`, or the number itself without one); None
    when no deal of it is. A deal's seed reaches matches its database never
    stores as games (a first try that no bot joined, a game its runner was
    stopped before storing): only the seed tells them apart from the server's
    other matches. The deals looked at are its schedule's (an SPRT's: its
    blocks up to SPRT_DEALS_AHEAD past its `done` games); when the stored
    config cannot rebuild the schedule, those of its stored games
    (`stored_deals`). `tables` keeps each secret's hashed deals (its caller's:
    a viewer keeps one for as long as it runs)."""
    deals = _deal_numbers(record, len(done))
    if deals is None:
        deals = tuple(sorted(set(stored_deals())))
    if secret is None:
        return seed if seed in deals else None
    table = tables.get(secret)
    if table is None:
        table = tables[secret] = DealSeeds(secret)
    return table.deal(seed, deals, _dealt_fields(record))


def _dealt_fields(record: TournamentRecord) -> int:
    """How many ladder fields deal deals of their own (tournament.deals): every
    field of one stored with `field_deals`, else one for them all."""
    if not kept_field_deals(record.config):
        return 1
    ladder = record.config.get("ladder")
    return max(1, len(ladder)) if isinstance(ladder, list) else 1


def _deal_numbers(record: TournamentRecord, done: int) -> range | tuple[int, ...] | None:
    """The deal numbers the tournament's schedule plays (an SPRT's: those its
    matches may have been dealt yet); None when its stored config does not
    rebuild it."""
    if record.config.get("schedule") == "sprt":
        plan = SprtPlan.from_stored(record)
        if plan is None:
            return None
        return range(plan.seed, plan.seed + min(plan.limit, done + SPRT_DEALS_AHEAD))
    schedule = _schedule(record)
    return None if schedule is None else tuple(sorted(set(schedule.values())))


class DealSeeds:
    """Match seed -> deal number under one secret, for the deals hashed so far
    (each deal hashed once, however often a viewer asks)."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret
        self.deals: dict[int, int] = {}
        self.hashed: set[int] = set()  # each hashed for its first `fields` ladder fields
        self.fields = 1

    def deal(self, seed: int, deals: range | tuple[int, ...], fields: int = 1) -> int | None:
        """The deal of `deals` dealt from `seed` by any of the first `fields`
        ladder fields (tournament.deals), or None."""
        if fields > self.fields:  # a ladder grown since: every deal has new seeds
            self.hashed.clear()
            self.fields = fields
        for deal in deals:
            if deal not in self.hashed:
                for field in range(self.fields):
                    self.deals[secret_seed(self.secret, deal, field)] = deal
                self.hashed.add(deal)
        found = self.deals.get(seed)
        return found if found is not None and found in deals else None


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
            kept_seat_orders(config),
        )
    except (KeyError, TypeError, ValueError):
        return None
    deals = {game.key: game.seed for game in schedule}
    return deals if len(deals) == record.scheduled else None
