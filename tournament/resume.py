"""Whether a config may resume the tournament of its name stored in a database.

Game, player count and options are checked by `Store.open_tournament`, and
here too, so that a run finds them before it starts a server. This checks the
deals: a stored game stays in the report whatever the config says
now, so a config whose schedule leaves stored deals out (another `seed`, fewer
`games_per_pairing`) would play its own deals beside them: more games than
scheduled, unevenly spread over the groups, all of them rated. Growing
`games_per_pairing` keeps every stored deal and is fine. An SPRT's blocks have
the keys of a round robin's games on the same seeds, so the two never share a
tournament either.

Options are compared by what the game makes of them (`options_to_store`): a
default written out, `no` for `false` or `01` for `1` resumes as it is.

The clock and what missing it costs (`CLOCK_SETTINGS`) are part of what a
stored game means: once games are stored, another value is refused. A
tournament stored before a setting was written to its config has no value to
compare: that setting is not checked (the new value is stored from then on).
An SPRT's pair (`SPRT_PAIR`), hypotheses and error rates (`SPRT_SETTINGS`),
and for 3 or more players the other bots seated beside the pair, are held the
same way: its verdict is recomputed from every stored block, so
another pair would count the stored pair's blocks (the same keys, swapped) as
its own, and bounds changed after seeing them would be chosen by the data
(`max_games` may change).

A bot's definition under the same name (its command, class, built-in, folder,
environment, sandbox) may change, as a fix between runs may be legitimate, but
`changed_bots` names each bot whose stored games were played by another
definition, so that the run says so before it starts, and `changed_rules`
says when the newest stored game was played under another rules version of
the game than this sheepfold's engine plays (an upgrade between runs). `secret_deals` is
decided when a tournament is first stored: `ignored_secret_deals` says so when
the config changes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from tournament.config import BotSpec, SprtSettings, TournamentConfig
from tournament.schedule import ScheduledGame
from tournament.sprt_blocks import games_per_block
from tournament.store import Store, StoreError, refuse_changed_kind

__all__ = [
    "CLOCK_SETTINGS",
    "SPRT_PAIR",
    "SPRT_SETTINGS",
    "bot_settings",
    "changed_bots",
    "changed_rules",
    "check_groups_kept",
    "check_resumable",
    "ignored_secret_deals",
    "options_to_store",
    "resume_warnings",
]

# The rules every stored game was played under: changed, they would rate games
# played with another clock (or another cost of missing it) side by side.
CLOCK_SETTINGS = ("decision_seconds", "time_bank_seconds", "max_strikes", "forfeit_on_timeout")
# Whose test an SPRT's stored blocks are (`[sprt]` and `sprt --candidate` ...).
SPRT_PAIR = ("candidate", "baseline")
# What an SPRT's stored blocks are judged by (`[sprt]` and `sprt --elo0` ...).
SPRT_SETTINGS = ("elo0", "elo1", "alpha", "beta")


def check_resumable(store: Store, config: TournamentConfig) -> None:
    """A StoreError, naming the field, when `config` cannot resume its stored tournament."""
    record = store.find(config.name)
    if record is None:
        return
    deals = store.deal_range(record.id)
    problem = _kind_problem(record.config, config)
    if problem is None:
        problem = _deal_problem(record.config, config, deals)
    if problem is None and deals is not None:
        problem = _clock_problem(record.config, config)
    if problem is None and deals is not None and config.sprt is not None:
        problem = _limit_problem(config, config.sprt, deals)
    if problem is None and deals is not None and config.sprt is not None:
        problem = _pair_problem(record.config.get("sprt"), config.sprt, store, config.name)
    if problem is None and deals is not None and config.sprt is not None:
        problem = _sprt_problem(record.config.get("sprt"), config.sprt)
    if problem is None and deals is not None and config.sprt is not None:
        problem = _fillers_problem(record.config, config, config.sprt)
    if problem is not None:
        field, why = problem
        raise StoreError(
            f"{field}: tournament {config.name!r} in {store.path} {why}; "
            "use another name or database"
        )
    refuse_changed_kind(
        config.name,
        store.path,
        (record.game, record.players, record.options),
        (config.game, config.players, options_to_store(store, config)),
    )


def check_groups_kept(
    store: Store, config: TournamentConfig, schedule: Sequence[ScheduledGame]
) -> None:
    """A StoreError when a round robin's schedule leaves out stored games of bots
    still in the field: they would stay rated beside it (`42/21 games`). Past
    `max_groups` that is another `max_groups`, whose balanced design has other
    groups. A gauntlet may follow a round robin of its field ("a grown ladder")."""
    if config.schedule != "round-robin":
        return
    record = store.find(config.name)
    if record is None or record.players != config.players:
        return  # another player count: open_tournament names it, not max_groups
    field, scheduled = set(config.bot_names), {game.key for game in schedule}
    left_out = [
        key
        for key in store.done_keys(record.id)
        if key not in scheduled and set(key.partition(":")[2].split("|")) <= field
    ]
    if left_out:
        raise StoreError(
            f"max_groups: tournament {config.name!r} in {store.path} holds "
            f"{len(left_out)} stored games of groups that max_groups = {config.max_groups} "
            "leaves out (designs of two sizes share few groups); use another name or database"
        )


def bot_settings(bot: BotSpec) -> dict[str, Any]:
    """A bot's definition as its tournament's stored config holds it."""
    return {key: value for key, value in asdict(bot).items() if value not in (None, ())}


# A stored bot's fields that the config spells otherwise (`class` is Python's).
CONFIG_KEYS = {"cls": "class"}


def changed_bots(store: Store, config: TournamentConfig) -> tuple[str, ...]:
    """One line per bot of the config whose stored games another definition
    under its name played (the fields that changed, not their values: `env`
    may hold secrets). A bot stored without a definition is not checked."""
    record = store.find(config.name)
    if record is None:
        return ()
    played = {
        name for key in store.done_keys(record.id) for name in key.partition(":")[2].split("|")
    }
    stored = {
        bot.get("name"): bot for bot in record.config.get("bots", ()) if isinstance(bot, dict)
    }
    lines = []
    for bot in config.bots:
        was = stored.get(bot.name)
        if bot.name not in played or was is None:
            continue
        now = json.loads(json.dumps(bot_settings(bot)))
        fields = sorted(
            CONFIG_KEYS.get(key, key) for key in set(was) | set(now) if was.get(key) != now.get(key)
        )
        if fields:
            lines.append(
                f"bot {bot.name!r} is not defined as when its stored games were played "
                f"({', '.join(fields)} changed); they stay rated: to replay them, run "
                f"`sheepfold tournament forget {bot.name} --db {store.path} "
                f"--tournament {config.name}` first"
            )
    return tuple(lines)


def resume_warnings(store: Store, config: TournamentConfig) -> tuple[str, ...]:
    """The lines a resume that goes ahead says first: redefined bots, another
    rules version, a `secret_deals` that changes nothing."""
    lines = (*changed_bots(store, config), changed_rules(store, config))
    return tuple(line for line in (*lines, ignored_secret_deals(store, config)) if line)


def changed_rules(store: Store, config: TournamentConfig) -> str | None:
    """One line when the newest stored game of the config's tournament was
    played under another rules version of its game than this sheepfold's
    engine plays: the games played now would be rated beside it without a word.
    A game stored without its record, or before records had a version, is not
    checked (version 0 there counts as 1, as in a replay)."""
    import games

    record = store.find(config.name)
    stored = None if record is None else store.games(record.id)
    if record is None or not stored:
        return None
    replay = store.replay(stored[-1].match_id, record.id)
    now = games.get(config.game).rules_version
    if replay is None or (replay.rules_version or 1) == now:
        return None
    return (
        f"{config.game} is at rules version {now} in this sheepfold, and the newest stored "
        f"game of tournament {config.name!r} was played under version "
        f"{replay.rules_version or 1}: the games played now are rated beside it "
        "(a new tournament name keeps them apart)"
    )


def ignored_secret_deals(store: Store, config: TournamentConfig) -> str | None:
    """One line when the config's `secret_deals` differs from the value its
    stored tournament was created with, which stays (a tournament stored before
    the setting was written is not checked)."""
    record = store.find(config.name)
    if (
        record is None
        or record.config.get("secret_deals", config.secret_deals) == config.secret_deals
    ):
        return None
    secret = store.deal_secret(record.id) is not None
    played = "under its stored secret" if secret else "its deal numbers as seeds"
    return (
        f"secret_deals = {_toml(config.secret_deals)} changes nothing: tournament "
        f"{config.name!r} keeps playing {played}, as when it was first stored "
        "(a new tournament name applies it)"
    )


def options_to_store(store: Store, config: TournamentConfig) -> dict[str, str]:
    """The options to open the config's tournament with: the stored ones when
    the game reads them as the config's (they stay as first written), else the
    config's, which `Store.open_tournament` refuses for a stored tournament."""
    wanted = config.options_dict
    record = store.find(config.name)
    if record is not None and record.options != wanted:
        return record.options if _same_options(config, record.options) else wanted
    return wanted


def _same_options(config: TournamentConfig, stored: Mapping[str, str]) -> bool:
    import games
    from games.options import parse_options

    try:
        specs = games.get(config.game).option_specs
        return parse_options(specs, stored) == parse_options(specs, config.options_dict)
    except games.InvalidOptions:
        return False


def _kind_problem(stored: Mapping[str, Any], config: TournamentConfig) -> tuple[str, str] | None:
    was = stored.get("schedule", "round-robin")
    if was == "sprt" and config.schedule != "sprt":
        return "schedule", "is an SPRT, whose games a round robin would take as its own"
    if was != "sprt" and config.schedule == "sprt":
        return (
            "schedule",
            f"is a {was.replace('-', ' ')}, whose games an SPRT would count as its blocks",
        )
    return None


def _clock_problem(stored: Mapping[str, Any], config: TournamentConfig) -> tuple[str, str] | None:
    """The first clock setting whose stored value the config changes (a value
    not stored, by a version before it was, is not checked)."""
    changed = _first_changed(stored, config, CLOCK_SETTINGS)
    if changed is None:
        return None
    name, was, now = changed
    return name, (
        f"was played with {name} = {_toml(was)}, not {_toml(now)}; set it back to "
        f"{_toml(was)} (its stored games ran under it)"
    )


def _pair_problem(
    stored: Any, settings: SprtSettings, store: Store, name: str
) -> tuple[str, str] | None:
    """The candidate or baseline whose stored value `settings` changes: the
    stored blocks are the stored pair's games (none stored: not checked)."""
    if not isinstance(stored, Mapping):
        return None
    pair = f"{stored.get('candidate')} against {stored.get('baseline')}"
    changed = _first_changed(stored, settings, SPRT_PAIR)
    if changed is None:
        return None
    setting, was, now = changed
    return f"sprt.{setting}", (
        f"was tested with {setting} = {_toml(was)}, not {_toml(now)}; its stored blocks "
        f"are {pair}, which the new pair's test would count as its own: set it back to "
        f"{_toml(was)}, or delete them first (`sheepfold tournament forget "
        f"{was} --db {store.path} --tournament {name}`)"
    )


def _sprt_problem(stored: Any, settings: SprtSettings) -> tuple[str, str] | None:
    """The first hypothesis or error rate the SPRT's stored blocks were judged
    by that `settings` changes (none stored: not checked)."""
    if not isinstance(stored, Mapping):
        return None
    changed = _first_changed(stored, settings, SPRT_SETTINGS)
    if changed is None:
        return None
    name, was, now = changed
    return f"sprt.{name}", (
        f"was tested with {name} = {_toml(was)}, not {_toml(now)}; set it back to "
        f"{_toml(was)} (a test's bounds are fixed before its games: its verdict "
        "is recomputed from the stored blocks)"
    )


def _fillers_problem(
    stored: Mapping[str, Any], config: TournamentConfig, settings: SprtSettings
) -> tuple[str, str] | None:
    """For 3 or more players, the other bots of an SPRT in another order than
    its stored blocks took them in: block i seats them in turn from that list,
    so another list gives the stored blocks other keys and the test would leave
    them out and play them again with other bots (none stored: not checked)."""
    if config.players < 3 or not isinstance(stored.get("bots"), list):
        return None
    pair = (settings.candidate, settings.baseline)
    names = [bot.get("name") if isinstance(bot, Mapping) else None for bot in stored["bots"]]
    if not all(isinstance(name, str) for name in names):
        return None  # not a list of bots as this version stores it: nothing to compare
    was = [name for name in names if name not in pair]
    now = [name for name in config.bot_names if name not in pair]
    if was == now:
        return None
    listed = ", ".join(repr(name) for name in was)
    return "bots", (
        f"seated {listed} in turn beside {settings.candidate} and {settings.baseline} in "
        f"its stored blocks, not {', '.join(repr(name) for name in now)}: another list "
        "seats other bots in those blocks, so the test would leave them out and play "
        "them again; list those bots in that order"
    )


def _first_changed(
    stored: Mapping[str, Any], current: object, names: Sequence[str]
) -> tuple[str, Any, Any] | None:
    """The first of `names` whose stored value `current` has changed, with both
    values; a name not stored (by a version before it was) is not checked."""
    for name in names:
        was, now = stored.get(name), getattr(current, name)
        if was is not None and was != now:
            return name, was, now
    return None


def _toml(value: Any) -> str:
    """A setting as it is written in the config (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


def _limit_problem(
    config: TournamentConfig, settings: SprtSettings, deals: tuple[int, int]
) -> tuple[str, str] | None:
    """An SPRT's game limit that leaves stored blocks out: the test would then
    judge only the blocks below it, a prefix chosen after seeing the data."""
    blocks = max(1, settings.max_games // games_per_block(config.players))
    low, high = deals
    last = config.seed + blocks - 1
    if high <= last:
        return None
    counted = f"deal {config.seed} alone" if blocks == 1 else f"deals {config.seed} to {last}"
    return "sprt.max_games", (
        f"holds blocks on deals {low} to {high}, but max_games = {settings.max_games} "
        f"counts {blocks} block{'s' if blocks > 1 else ''} ({counted}): it may grow, not "
        "shrink (its verdict counts every stored block)"
    )


def _deal_problem(
    stored: Mapping[str, Any], config: TournamentConfig, deals: tuple[int, int] | None
) -> tuple[str, str] | None:
    """The deals the config schedules must include every stored one (an SPRT's
    blocks run on from its seed, as far as its game limit)."""
    if deals is None:
        return None
    low, high = deals
    last = None if config.schedule == "sprt" else config.seed + config.games_per_pairing - 1
    if config.seed <= low and (last is None or high <= last):
        return None
    stored_seed = stored.get("seed", low)
    if low < config.seed or stored_seed != config.seed or last is None:
        return "seed", (
            f"was played from seed = {stored_seed} (deals {low} to {high} are stored), "
            f"not {config.seed}: the new seed's deals would be played beside them"
        )
    return "games_per_pairing", (
        f"holds deals {low} to {high}, but games_per_pairing = {config.games_per_pairing} "
        f"schedules {config.seed} to {last}: it may grow, not shrink"
    )
