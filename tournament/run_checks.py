"""Everything a run or an SPRT can check before it starts anything: no
server, sandbox, Ray instance or metrics endpoint is started for a run that
one of these stops. The claim (another process playing the tournament), the
bots (tournament.botcheck), the database and whether the config may resume
what it holds (tournament.database_check), what sandboxed bots would see,
and whether the sandbox can be made here at all (a run on Ray has its
workers try it). A refusal once came after the in-process server had
started, its start and stop logged around the one line that mattered."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.bot_launch import check_sandbox, check_what_bots_see
from tournament.botcheck import check_bots
from tournament.claims import refuse_if_claimed
from tournament.config import TournamentConfig
from tournament.database_check import check_database
from tournament.store_lock import LockWait

__all__ = ["Prechecked", "check_before_start"]


@dataclass(frozen=True, slots=True)
class Prechecked:
    """What check_before_start found, handed to the run so that it does not
    check it again (a run given none checks its bots itself)."""

    stored: bool  # the database holds the config's tournament already


def check_before_start(
    config: TournamentConfig, database: str, lock_wait: LockWait, command: str, *, on_ray: bool
) -> Prechecked:
    """BotCheckError, StoreError or RunError in the words a refusal prints."""
    refuse_if_claimed(database, config.name, command)
    check_bots(config)
    stored = check_database(database, lock_wait, config)
    check_what_bots_see(config, database)
    if not on_ray:
        check_sandbox(config)
    return Prechecked(stored)
