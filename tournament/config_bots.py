"""The `[[bots]]` tables of a tournament configuration, and the names they give.

Part of `tournament.config`, which reads the whole file; each problem is one
`ConfigError` naming the field (`bots[2].command`).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from typing import Any

from clients.launch import SandboxPolicy
from games.options import brief
from tournament.config_fields import ConfigError, is_path
from tournament.sandbox_config import bot_sandbox

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+\-]*")  # fullmatch: "$" lets a "\n" end it
_NAME_TAIL = re.compile(r"[A-Za-z0-9_.+\-]")
MAX_NAME_CHARS = 100  # a tournament's or a bot's name
_NAME_RULE = "a name is ASCII letters, digits, '.', '_', '+' and '-', first a letter or digit"
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MODULE_CLASS = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
_BOT_KEYS = {"name", "builtin", "class", "command", "cwd", "env", "sandbox"}
# `anchor = "mean"` (and `report --anchor mean`): Elo 0 is the mean of all bots.
MEAN_ANCHOR = "mean"
# The most bots in one tournament: its report holds a crosstable cell for every
# two (1,000 bots: a second and 90 MB; 10,000 took a minute and 5 GB).
MAX_BOTS = 1_000


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One competitor. Exactly one of `builtin`, `cls` and `command` is set."""

    name: str
    builtin: str | None = None
    cls: str | None = None
    command: tuple[str, ...] | None = None
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    # None: not sandboxed (every builtin and class bot, and `sandbox = false`).
    sandbox: SandboxPolicy | None = None

    @property
    def kind(self) -> str:
        if self.command is not None:
            return "command"
        return "builtin" if self.builtin is not None else "class"

    @property
    def spec(self) -> str:
        """What `clients.bots.load_bot` takes, or the command line for a command bot."""
        if self.command is not None:
            return " ".join(self.command)
        return self.builtin if self.builtin is not None else str(self.cls)


def name_problem(name: object) -> str | None:
    """What is wrong with a tournament's or bot's name, or None. A bot's name
    goes into game keys (`seed:bot|bot`), so '|' and the like cannot be in one."""
    if not isinstance(name, str):
        return f"must be a string, not {brief(name)}"
    if not name:
        return f"must not be empty ({_NAME_RULE})"
    if len(name) > MAX_NAME_CHARS:
        # A pasted name went into every game key, log line and report row.
        shown = repr(name[:40] + "...")
        return f"{shown} has {len(name):,} characters (at most {MAX_NAME_CHARS})"
    if _NAME.fullmatch(name):
        return None
    if not _NAME.fullmatch(name[0]):
        return f"{name!r} starts with {name[0]!r} ({_NAME_RULE})"
    bad = next(c for c in name if not _NAME_TAIL.fullmatch(c))
    return f"{name!r} holds {bad!r} ({_NAME_RULE})"


def parse_bots(
    raw: Any, players: int, sandbox: SandboxPolicy, base_dir: str
) -> tuple[BotSpec, ...]:
    if raw is None:
        raise ConfigError("bots", "is required: add [[bots]] tables")
    if not isinstance(raw, list) or not all(isinstance(entry, dict) for entry in raw):
        raise ConfigError("bots", "must be an array of tables ([[bots]])")
    needed = players
    if len(raw) < needed:
        raise ConfigError("bots", f"needs at least {needed} bots for {players}-player games")
    if len(raw) > MAX_BOTS:
        raise ConfigError(
            "bots",
            f"at most {MAX_BOTS:,} bots, not {len(raw):,} (the report's crosstable has a "
            "cell for every two bots: 10,000 took a minute and 5 GB to print)",
        )
    bots: list[BotSpec] = []
    seen: set[str] = set()
    for index, entry in enumerate(raw):
        where = f"bots[{index}]"
        unknown = sorted(set(entry) - _BOT_KEYS)
        if unknown:
            raise ConfigError(
                f"{where}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(_BOT_KEYS))})"
            )
        name = entry.get("name")
        if name is None:
            raise ConfigError(f"{where}.name", f"is required ({_NAME_RULE})")
        problem = name_problem(name)
        if problem:
            raise ConfigError(f"{where}.name", problem)
        if name == MEAN_ANCHOR:
            # `anchor = "mean"` and `report --anchor mean` mean the mean of all
            # bots: a bot of that name could never be the anchor.
            raise ConfigError(
                f"{where}.name",
                f'"{MEAN_ANCHOR}" is taken: `anchor = "{MEAN_ANCHOR}"` (and `report '
                f"--anchor {MEAN_ANCHOR}`) means the mean of all bots; give the bot another name",
            )
        if name in seen:
            raise ConfigError(f"{where}.name", f"duplicate bot name {name!r}")
        seen.add(name)
        kinds = [key for key in ("builtin", "class", "command") if key in entry]
        if len(kinds) != 1:
            raise ConfigError(where, "give exactly one of builtin, class or command")
        kind = kinds[0]
        value = entry[kind]
        builtin = cls = None
        command = None
        if kind == "builtin":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}.builtin", f"must be a bot name, not {brief(value)}")
            builtin = value
        elif kind == "class":
            if not isinstance(value, str) or not _MODULE_CLASS.match(value):
                raise ConfigError(
                    f"{where}.class", f"must look like 'module:Class', not {brief(value)}"
                )
            cls = value
        else:
            if isinstance(value, str) and _words(value):
                raise ConfigError(
                    f"{where}.command",
                    "must be a list of strings, the program then its arguments: "
                    f"command = {json.dumps(_words(value))}",
                )
            if (
                not isinstance(value, list)
                or not value
                or not all(isinstance(arg, str) and arg for arg in value)
            ):
                raise ConfigError(
                    f"{where}.command", "must be a non-empty list of strings (program, args...)"
                )
            if any("\x00" in arg for arg in value):
                raise ConfigError(f"{where}.command", "must not hold a NUL character")
            command = tuple(value)
        cwd = entry.get("cwd")
        if cwd is not None and (kind != "command" or not is_path(cwd)):
            raise ConfigError(f"{where}.cwd", "is a folder name, only for command bots")
        env = entry.get("env", {})
        if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
            raise ConfigError(f"{where}.env", 'must be a table of NAME = "value"')
        for key, text in env.items():
            if not _ENV_NAME.fullmatch(key) or "\x00" in text:
                raise ConfigError(
                    f"{where}.env",
                    f"{brief(key)}: a name is letters, digits and '_' (not first a digit), "
                    "a value holds no NUL character",
                )
        if env and kind != "command":
            raise ConfigError(f"{where}.env", "is only for command bots")
        bots.append(
            BotSpec(
                name=name,
                builtin=builtin,
                cls=cls,
                command=command,
                cwd=cwd,
                env=tuple(sorted(env.items())),
                sandbox=bot_sandbox(entry, kind, sandbox, base_dir, where, ConfigError),
            )
        )
    return tuple(bots)


def _words(command: str) -> list[str]:
    """A command written as one string, split as a shell would ([] if it cannot be)."""
    try:
        return shlex.split(command)
    except ValueError:  # an unclosed quote
        return []
