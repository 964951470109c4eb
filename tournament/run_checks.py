"""Everything a run or an SPRT can check before it starts anything: no
server, sandbox, Ray instance or metrics endpoint is started for a run that
one of these stops. The claim (another process playing the tournament), the
bots (tournament.botcheck), the database and whether the config may resume
what it holds (tournament.database_check), what sandboxed bots would see,
and whether the sandbox can be made here at all (a run on Ray has its
workers try it). A refusal once came after the in-process server had
started, its start and stop logged around the one line that mattered.

The claim itself is taken once these checks passed and before anything
starts (`claimed_before_start`): the look for a holder here sees only a run
that holds it already, so a run started a moment after another once passed
it, started its server and was refused only then."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

from clients.launch import Launcher
from tournament.bot_launch import check_sandbox, check_what_bots_see, launcher_for, socket_of
from tournament.botcheck import check_bots
from tournament.claims import claimed, refuse_if_claimed
from tournament.config import TournamentConfig
from tournament.database_check import check_database
from tournament.executors.settings import GameExecutor
from tournament.store_lock import LockWait

__all__ = [
    "Prechecked",
    "check_before_start",
    "claimed_before_start",
    "claimed_unless_held",
    "run_launcher",
]


@dataclass(frozen=True, slots=True)
class Prechecked:
    """What check_before_start found, handed to the run so that it does not
    check it again (a run given none checks its bots itself)."""

    stored: bool  # the database holds the config's tournament already
    # The launcher that tried the sandbox (bot_launch.check_sandbox), when the
    # config has sandboxed bots and the games are played here.
    sandbox: Launcher | None = None
    # The caller holds the tournament's claim for the whole run
    # (`claimed_before_start`): the run does not take it again.
    claim_held: bool = False


def check_before_start(
    config: TournamentConfig, database: str, lock_wait: LockWait, command: str, *, on_ray: bool
) -> Prechecked:
    """BotCheckError, ConfigError, StoreError or RunError in the words a refusal
    prints."""
    refuse_if_claimed(database, config.name, command)
    check_bots(config)
    stored = check_database(database, lock_wait, config)
    check_what_bots_see(config, database)
    return Prechecked(stored, None if on_ray else check_sandbox(config))


@contextlib.contextmanager
def claimed_before_start(
    prechecked: Prechecked, database: str, tournament: str, command: str
) -> Iterator[Prechecked]:
    """The tournament's claim for the block, taken before the run starts a
    server, a sandbox or Ray (TournamentBusy when another process holds it);
    `prechecked` as the run is handed it, saying the claim is held."""
    with claimed(database, tournament, command):
        yield dataclasses.replace(prechecked, claim_held=True)


def claimed_unless_held(
    prechecked: Prechecked | None, database: str, tournament: str, command: str
) -> AbstractContextManager[None]:
    """The claim a run takes itself, unless its caller holds it already."""
    if prechecked is not None and prechecked.claim_held:
        return contextlib.nullcontext()
    return claimed(database, tournament, command)


async def run_launcher(
    config: TournamentConfig,
    database: str,
    address: str,
    server_socket: str | Sequence[str] | None,
    executor: GameExecutor | None,
    prechecked: Prechecked | None,
) -> Launcher:
    """The launcher a run's games use (bot_launch.launcher_for), its sandbox the
    one check_before_start tried when it did: tried once a process, and what
    the bots would see checked once too (it was checked twice a run). Sandboxed
    bots reach the server through `server_socket`, or `address` when that is
    `unix:PATH`."""
    tried = prechecked.sandbox if prechecked is not None else None
    socket = server_socket or socket_of(address)
    return await launcher_for(
        config, database, socket, executor, tried, seen_checked=prechecked is not None
    )
