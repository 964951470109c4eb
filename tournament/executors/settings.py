"""The `[executor]` table of a tournament config: where its games are played."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from games.options import brief
from tournament.executors.ray_head import CALL_SECONDS, EVERY_SECONDS, HEAD_LOST_SECONDS
from tournament.schedule import ScheduledGame

__all__ = [
    "EXECUTOR_KINDS",
    "HEAD_TIMEOUT_SECONDS",
    "ExecutorSettings",
    "GameExecutor",
    "parse_executor",
    "server_list_refusal",
]

EXECUTOR_KINDS = ("local", "ray")
MAX_NUM_CPUS = 4096  # Ray refuses far more and takes its time to say so
# Ray counts CPUs in units of 1/10000; a game's bots think in turn, so a handful is plenty.
CPUS_PER_GAME = (0.0001, 1024.0)
SETUP_TIMEOUT_SECONDS = (1.0, 86_400.0)
# How long the head may be silent: at least one call's wait (2 s) and the pause
# before the next (1 s), well below the 60 s after which Ray's own client ends the
# process with no summary.
HEAD_TIMEOUT_SECONDS = (CALL_SECONDS + EVERY_SECONDS, 50.0)
_KEYS = {
    "kind",
    "address",
    "num_cpus",
    "cpus_per_game",
    "setup_timeout_seconds",
    "head_timeout_seconds",
    "max_retries",
}


class ExecutorError(ValueError):
    """A bad `[executor]` value; `field` is its key."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"executor.{field}: {message}")
        self.field = f"executor.{field}"
        self.message = message


@dataclass(frozen=True, slots=True)
class ExecutorSettings:
    """`local`: this process plays `concurrency` games at once (as always).
    `ray`: every game is one Ray task; `address` None starts a Ray instance on
    this machine (with `num_cpus`, default all cores), otherwise joins that cluster."""

    kind: str = "local"
    address: str | None = None
    num_cpus: int | None = None
    cpus_per_game: float = 1.0
    setup_timeout_seconds: float = 120.0
    head_timeout_seconds: float = HEAD_LOST_SECONDS
    max_retries: int = 3

    @property
    def is_ray(self) -> bool:
        return self.kind == "ray"


class GameExecutor(Protocol):
    """Plays a batch of games somewhere else, handing each finished game to
    `await runner.accept(record)` and each one it could not play to
    `runner.reject(key, error)` (the runner stores, rates and reports)."""

    servers: tuple[str, ...]  # the servers its games play on (none: servers of its own)

    async def run(self, runner: Any, games: list[ScheduledGame]) -> None: ...


def parse_executor(raw: Any) -> ExecutorSettings:
    """Check the decoded `[executor]` table (raises ExecutorError)."""
    if raw is None:
        return ExecutorSettings()
    if not isinstance(raw, Mapping):
        raise ExecutorError("kind", 'must be a table: [executor] kind = "ray"')
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise ExecutorError(unknown[0], f"unknown key (known: {', '.join(sorted(_KEYS))})")
    kind = raw.get("kind", "local")
    if kind not in EXECUTOR_KINDS:
        raise ExecutorError(
            "kind", f"must be one of {', '.join(EXECUTOR_KINDS)}, not {brief(kind)}"
        )
    address = raw.get("address")
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise ExecutorError(
            "address", f"must be a Ray address (host:port or auto): {brief(address)}"
        )
    num_cpus = raw.get("num_cpus")
    if num_cpus is not None and (
        isinstance(num_cpus, bool)
        or not isinstance(num_cpus, int)
        or not 1 <= num_cpus <= MAX_NUM_CPUS
    ):
        raise ExecutorError(
            "num_cpus",
            f"must be a whole number of at least 1 and at most {MAX_NUM_CPUS}: {brief(num_cpus)}",
        )
    if num_cpus is not None and address is not None:
        raise ExecutorError("num_cpus", "is for the Ray instance started here, not with an address")
    settings = ExecutorSettings(
        kind=kind,
        address=address,
        num_cpus=num_cpus,
        cpus_per_game=_number(raw, "cpus_per_game", 1.0, *CPUS_PER_GAME),
        setup_timeout_seconds=_number(raw, "setup_timeout_seconds", 120.0, *SETUP_TIMEOUT_SECONDS),
        head_timeout_seconds=_number(
            raw, "head_timeout_seconds", HEAD_LOST_SECONDS, *HEAD_TIMEOUT_SECONDS
        ),
        max_retries=_retries(raw.get("max_retries", 3)),
    )
    if not settings.is_ray and (address is not None or num_cpus is not None):
        raise ExecutorError("kind", 'address and num_cpus need kind = "ray"')
    return settings


def _number(
    raw: Mapping[str, Any], key: str, default: float, minimum: float, maximum: float
) -> float:
    """A number above 0, from `minimum` to `maximum` (so never nan or inf)."""
    value = raw.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not minimum <= value <= maximum  # also false for nan
    ):
        raise ExecutorError(
            key, f"must be a number above 0, from {minimum:g} to {maximum:g}, not {brief(value)}"
        )
    return float(value)


def _retries(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise ExecutorError(
            "max_retries", f"must be a whole number from 0 to 100, not {brief(value)}"
        )
    return value


def server_list_refusal(server: str | None, *, sprt: bool, on_ray: bool) -> str | None:
    """Why a run cannot take `server` as given, or None: several addresses,
    comma-separated, are for games spread over a Ray cluster. A comma in a
    unix: address separates sockets too: gRPC reads `unix:A,B` as a list (and
    dialled the first), so `unix:A,unix:B` without --ray once played every game
    on A, while each sandboxed bot was handed the whole text as one socket and
    crashed in every game."""
    if server is None or "," not in server:
        return None
    if sprt:
        # Taken whole, the list was one host name that "does not resolve", and
        # only after the database was created.
        return f"an SPRT plays on one server, and --server names several: {server}"
    if not on_ray:
        return "several --server addresses need --ray (games spread over a Ray cluster)"
    return None
