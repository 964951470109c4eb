"""The tournament configuration: a TOML file, checked field by field.

Every problem is reported as one `ConfigError` whose `field` is the dotted path
of the offending value (`bots[2].command`, `options.rounds`), so a user can find
it in the file at once. See docs/tournament.md for the format.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.options import brief
from server.clock_limits import (
    MAX_DECISION_SECONDS,
    MAX_STRIKES,
    MAX_TIME_BANK_SECONDS,
    MIN_DECISION_SECONDS,
)
from tournament.config_bots import (
    MAX_NAME_CHARS,
    MEAN_ANCHOR,
    BotSpec,
    name_problem,
    parse_bots,
)
from tournament.config_fields import (
    ConfigError,
    bool_field,
    float_field,
    int_field,
    is_number,
    is_path,
    options_field,
    string_field,
)
from tournament.config_toml import FILE_FIELD, read_document
from tournament.executors.settings import ExecutorError, ExecutorSettings, parse_executor
from tournament.sandbox_config import default_sandbox
from tournament.schedule import SEAT_ORDERS, group_count, seatings_per_seed

__all__ = [
    "ELO_LIMIT",
    "FILE_FIELD",
    "MAX_BOOTSTRAP",
    "MAX_GAMES",
    "MEAN_ANCHOR",
    "MIN_ERROR_RATE",
    "SCHEDULES",
    "BotSpec",
    "ConfigError",
    "SprtSettings",
    "TournamentConfig",
    "check_schedule_size",
    "load_config",
    "parse_config",
]

_TOP_LEVEL = {
    "name",
    "game",
    "players",
    "options",
    "bots",
    "games_per_pairing",
    "seed",
    "secret_deals",
    "concurrency",
    "decision_seconds",
    "time_bank_seconds",
    "max_strikes",
    "forfeit_on_timeout",
    "database",
    "anchor",
    "max_groups",
    "python_path",
    "bootstrap",
    "match_timeout_seconds",
    "schedule",
    "candidates",
    "sprt",
    "executor",
    "sandbox",
}
SCHEDULES = ("round-robin", "gauntlet", "sprt")
_SPRT_KEYS = {"candidate", "baseline", "elo0", "elo1", "alpha", "beta", "max_games"}
# Above this many k-subsets the schedule switches to a balanced incomplete design.
DEFAULT_MAX_GROUPS = 60
# The most games one tournament schedules (the schedule is built in memory: about
# 200 MB and a few seconds per million games) and the most an SPRT may play.
MAX_GAMES = 1_000_000
# A game's seed is the first seed plus its number, and must stay below 2**63.
MAX_SEED = 2**63 - 1_000_000
MAX_GAMES_PER_PAIRING = 100_000
# Bootstrap samples for the rating intervals: more take minutes and change nothing visible.
MAX_BOOTSTRAP = 100_000
MAX_MATCH_TIMEOUT_SECONDS = 7 * 86_400.0
# SPRT: |elo| <= 1000 is a score of 0.3% to 99.7% (the math holds to about +-6000,
# where the score rounds to 1); an error rate below 1e-9 is no test anyone waits for.
ELO_LIMIT = 1000.0
MIN_ERROR_RATE = 1e-9


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """`schedule = "sprt"`: candidate against baseline until the test decides."""

    candidate: str
    baseline: str
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 10_000


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    name: str
    game: str
    players: int
    bots: tuple[BotSpec, ...]
    options: tuple[tuple[str, str], ...] = ()
    games_per_pairing: int = 2
    seed: int = 1
    # Match seeds drawn under a secret stored with the tournament (tournament.deals).
    secret_deals: bool = True
    concurrency: int = 1
    decision_seconds: float = 10.0
    time_bank_seconds: float = 0.0
    max_strikes: int = 3
    forfeit_on_timeout: bool = True
    database: str = "tournament.sqlite"
    anchor: str | None = None
    max_groups: int = DEFAULT_MAX_GROUPS
    python_path: tuple[str, ...] = ()
    bootstrap: int = 1000
    match_timeout_seconds: float = 600.0
    base_dir: str = "."
    schedule: str = "round-robin"
    candidates: tuple[str, ...] = ()  # gauntlet: who plays the rest of the field
    sprt: SprtSettings | None = None
    executor: ExecutorSettings = field(default_factory=ExecutorSettings)

    @property
    def options_dict(self) -> dict[str, str]:
        return dict(self.options)

    @property
    def bot_names(self) -> tuple[str, ...]:
        return tuple(bot.name for bot in self.bots)

    def bot(self, name: str) -> BotSpec:
        for bot in self.bots:
            if bot.name == name:
                return bot
        raise KeyError(name)


def load_config(path: str | Path) -> TournamentConfig:
    """Read and check a TOML config; relative paths in it are relative to its folder."""
    if str(path) == "":  # Path("") is the current folder: "." would be named instead
        raise ConfigError(FILE_FIELD, "no config file given: its path is empty")
    path = Path(path)
    raw = read_document(path)
    return parse_config(raw, base_dir=path.resolve().parent, default_name=path.stem)


def parse_config(
    raw: Mapping[str, Any], base_dir: str | Path = ".", default_name: str = "tournament"
) -> TournamentConfig:
    """Check a decoded TOML document and build the config."""
    unknown = sorted(set(raw) - _TOP_LEVEL)
    if unknown:
        raise ConfigError(unknown[0], f"unknown setting (known: {', '.join(sorted(_TOP_LEVEL))})")
    name = string_field(raw, "name", default_name)
    problem = name_problem(name)
    if problem:
        if "name" not in raw:
            problem += "; it is the config's file name, as it sets no name: set one"
        elif isinstance(name, str) and len(name) > MAX_NAME_CHARS:
            # Names were not limited once: a database may hold such a tournament.
            problem += (
                "; a tournament stored under such a name before names were limited is "
                "still reported (`sheepfold tournament report --tournament NAME`), not "
                "played on: a shorter name starts a new one"
            )
        raise ConfigError("name", problem)
    game = string_field(raw, "game", None)
    players = int_field(raw, "players", 2, minimum=1)
    options = options_field(raw.get("options", {}))
    _check_game(game, players, options)
    sandbox = default_sandbox(raw.get("sandbox"), str(base_dir), ConfigError)
    bots = parse_bots(raw.get("bots"), players, sandbox, str(base_dir))

    anchor = raw.get("anchor")
    if anchor is not None:
        names = {bot.name for bot in bots}
        if not isinstance(anchor, str) or (anchor not in names and anchor != MEAN_ANCHOR):
            raise ConfigError(
                "anchor",
                f'must be the name of one of the bots, or "{MEAN_ANCHOR}", not {brief(anchor)}',
            )
        if players == 1:
            raise ConfigError("anchor", "solo tournaments have no Elo to anchor")
        if anchor == MEAN_ANCHOR:
            anchor = None  # as `report --anchor mean`: the mean of all bots is 0

    schedule = string_field(raw, "schedule", "round-robin")
    if schedule not in SCHEDULES:
        raise ConfigError(
            "schedule", f"must be one of {', '.join(SCHEDULES)}, not {brief(schedule)}"
        )
    candidates = _candidates(raw, schedule, bots, players)
    sprt = _sprt(raw.get("sprt"), schedule, bots, players)

    python_path = raw.get("python_path", [])
    if not isinstance(python_path, list) or not all(is_path(p) for p in python_path):
        raise ConfigError("python_path", "must be a list of folder names")

    try:
        executor = parse_executor(raw.get("executor"))
    except ExecutorError as exc:
        raise ConfigError(exc.field, exc.message) from None

    games_per_pairing = int_field(
        raw, "games_per_pairing", 2, minimum=1, maximum=MAX_GAMES_PER_PAIRING
    )
    max_groups = int_field(raw, "max_groups", DEFAULT_MAX_GROUPS, minimum=1, maximum=MAX_GAMES)

    config = TournamentConfig(
        name=name,
        game=game,
        players=players,
        bots=bots,
        options=tuple(sorted(options.items())),
        games_per_pairing=games_per_pairing,
        seed=int_field(raw, "seed", 1, minimum=0, maximum=MAX_SEED),
        concurrency=int_field(raw, "concurrency", 1, minimum=1, maximum=256),
        decision_seconds=float_field(
            raw, "decision_seconds", 10.0, MIN_DECISION_SECONDS, MAX_DECISION_SECONDS
        ),
        time_bank_seconds=float_field(raw, "time_bank_seconds", 0.0, 0.0, MAX_TIME_BANK_SECONDS),
        max_strikes=int_field(raw, "max_strikes", 3, minimum=1, maximum=MAX_STRIKES),
        forfeit_on_timeout=bool_field(raw, "forfeit_on_timeout", True),
        secret_deals=bool_field(raw, "secret_deals", True),
        database=string_field(raw, "database", f"{name}.sqlite"),
        anchor=anchor,
        max_groups=max_groups,
        python_path=tuple(python_path),
        bootstrap=int_field(raw, "bootstrap", 1000, minimum=0, maximum=MAX_BOOTSTRAP),
        match_timeout_seconds=float_field(
            raw, "match_timeout_seconds", 600.0, 1.0, MAX_MATCH_TIMEOUT_SECONDS
        ),
        base_dir=str(base_dir),
        schedule=schedule,
        candidates=candidates,
        sprt=sprt,
        executor=executor,
    )
    # The fewest seat orders any tournament plays: a config too big even then is
    # refused here; the run checks its own count (check_schedule_size) once it
    # knows whether the tournament was stored, and with how many.
    check_schedule_size(config, seat_orders=1)
    return config


def check_schedule_size(config: TournamentConfig, seat_orders: int = SEAT_ORDERS) -> None:
    """Refuse a round robin or gauntlet of more than MAX_GAMES games before it
    is built; `seat_orders` is the tournament's (`run_schedule.seat_orders_for`):
    a tournament stored with one plays half the games, and was once refused
    on resuming for the games of two."""
    if config.schedule == "sprt":
        return  # max_games bounds it
    bots, players, candidates = len(config.bots), config.players, len(config.candidates)
    if candidates:
        groups = candidates * group_count(bots - candidates, players - 1, config.max_groups)
    else:
        groups = group_count(bots, players, config.max_groups)
    orders = seatings_per_seed(players, seat_orders)
    games = groups * orders * config.games_per_pairing
    if games > MAX_GAMES:
        seeds = config.games_per_pairing
        # What can still shrink: games_per_pairing above 1; the groups where
        # max_groups draws them (a 3-player gauntlet meets every pair of its field).
        fewer = (["games_per_pairing"] if seeds > 1 else []) + (
            ["max_groups"] if players >= 4 or (players == 3 and not candidates) else []
        )
        advice = "use fewer bots"
        if fewer:
            advice = f"lower {' (or '.join(fewer)}{')' * (len(fewer) - 1)}"
        raise ConfigError(
            "games_per_pairing",
            f"would schedule {games:,} games ({groups:,} groups of bots, each in {orders} "
            f"seat orders on {seeds:,} seed{'s' if seeds > 1 else ''}); a tournament holds at "
            f"most {MAX_GAMES:,}: {advice}",
        )


def _candidates(
    raw: Mapping[str, Any], schedule: str, bots: tuple[BotSpec, ...], players: int
) -> tuple[str, ...]:
    value = raw.get("candidates")
    if value is None:
        if schedule == "gauntlet":
            raise ConfigError("candidates", 'is required for schedule = "gauntlet"')
        return ()
    if schedule != "gauntlet":
        raise ConfigError("candidates", 'is only for schedule = "gauntlet"')
    names = {bot.name for bot in bots}
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ConfigError("candidates", "must be a non-empty list of bot names")
    for name in value:
        if name not in names:
            raise ConfigError("candidates", f"{brief(name)} is not the name of one of the bots")
    if len(set(value)) != len(value):
        raise ConfigError("candidates", "names a bot twice")
    if players == 1:
        raise ConfigError("schedule", "a solo tournament has no field to play: use round-robin")
    field = len(bots) - len(value)
    if field < players - 1:
        raise ConfigError(
            "candidates",
            f"leaves {field} other bots; {players}-player games need at least {players - 1}",
        )
    return tuple(value)


def _sprt(raw: Any, schedule: str, bots: tuple[BotSpec, ...], players: int) -> SprtSettings | None:
    if raw is None:
        if schedule != "sprt":
            return None
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError("sprt", "must be a table ([sprt])")
    unknown = sorted(set(raw) - _SPRT_KEYS)
    if unknown:
        raise ConfigError(
            f"sprt.{unknown[0]}", f"unknown setting (known: {', '.join(sorted(_SPRT_KEYS))})"
        )
    names = [bot.name for bot in bots]
    numbers = {
        key: raw.get(key, default)
        for key, default in (("elo0", 0.0), ("elo1", 10.0), ("alpha", 0.05), ("beta", 0.05))
    }
    settings = SprtSettings(
        candidate=raw.get("candidate", names[0]),
        baseline=raw.get("baseline", names[1] if len(names) > 1 else names[0]),
        max_games=raw.get("max_games", 10_000),
        **numbers,
    )
    check_sprt(settings, names, players)  # checks the types too: float() is safe after it
    return dataclasses.replace(
        settings,
        elo0=float(settings.elo0),
        elo1=float(settings.elo1),
        alpha=float(settings.alpha),
        beta=float(settings.beta),
    )


def check_sprt(settings: SprtSettings, names: list[str], players: int) -> None:
    """Raise ConfigError (field `sprt.*`) unless `settings` can be played."""
    if len(names) < 2:  # else the one bot was both sides: "must differ from the candidate"
        raise ConfigError(
            "bots",
            f"an SPRT needs at least 2 bots, its candidate and its baseline, not {len(names)}",
        )
    for key in ("candidate", "baseline"):
        value = getattr(settings, key)
        if value not in names:
            raise ConfigError(
                f"sprt.{key}", f"must be the name of one of the bots, not {brief(value)}"
            )
    if settings.candidate == settings.baseline:
        raise ConfigError("sprt.baseline", "must differ from the candidate")
    for key in ("elo0", "elo1"):
        value = getattr(settings, key)
        if not is_number(value) or not -ELO_LIMIT <= value <= ELO_LIMIT:
            raise ConfigError(
                f"sprt.{key}",
                f"must be a number from {-ELO_LIMIT:g} to {ELO_LIMIT:g} (Elo), not {brief(value)}",
            )
    if not settings.elo0 < settings.elo1:
        raise ConfigError("sprt.elo1", f"must be above elo0 ({settings.elo0}), not {settings.elo1}")
    for key in ("alpha", "beta"):
        value = getattr(settings, key)
        if not is_number(value) or not MIN_ERROR_RATE <= value < 0.5:
            raise ConfigError(
                f"sprt.{key}",
                f"must be a number from {MIN_ERROR_RATE:g} up to (not including) 0.5, "
                f"not {brief(value)}",
            )
    max_games = settings.max_games
    if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 1:
        raise ConfigError(
            "sprt.max_games", f"must be a whole number above 0, not {brief(max_games)}"
        )
    if max_games > MAX_GAMES:
        raise ConfigError("sprt.max_games", f"must be at most {MAX_GAMES}, not {max_games}")
    if players > 2 and len(names) < players:
        raise ConfigError(
            "bots",
            f"an SPRT of {players}-player games seats {players - 2} more bots beside the "
            f"candidate and the baseline: list at least {players} bots",
        )


def _check_game(game: str, players: int, options: dict[str, str]) -> None:
    """Check the game, player count and options against the local engine."""
    import games

    try:
        engine = games.get(game)
    except games.InvalidOptions as exc:
        raise ConfigError("game", str(exc)) from None
    except ImportError as exc:
        raise ConfigError("game", f"game {game!r} cannot be loaded: {exc}") from None
    if not engine.min_players <= players <= engine.max_players:
        raise ConfigError(
            "players",
            f"{engine.name} takes {engine.min_players} to {engine.max_players} players, "
            f"not {players}",
        )
    from games.options import parse_options

    try:
        parsed = parse_options(engine.option_specs, options)
    except games.InvalidOptions as exc:
        bad = re.search(r"option '([^']+)'", str(exc))
        key = f"options.{bad.group(1)}" if bad else "options"
        raise ConfigError(key, str(exc)) from None
    try:
        engine.check_options(players, parsed)
    except games.InvalidOptions as exc:
        raise ConfigError("options", str(exc)) from None


def resolve_path(config: TournamentConfig, relative: str) -> str:
    """A path from the config, relative to the config file's folder."""
    path = Path(relative)
    return str(path if path.is_absolute() else Path(config.base_dir) / path)


def add_python_path(config: TournamentConfig) -> None:
    """Make the config's `python_path` folders importable (for `class` bots)."""
    for folder in reversed(config.python_path):
        resolved = resolve_path(config, folder)
        if resolved not in sys.path:
            sys.path.insert(0, resolved)
