"""Whether a run's database can be used, looked at before the run starts a
server or a Ray instance: a run once started its in-process server (and, with
--ray, a whole Ray instance) only to be stopped by the database seconds later."""

from __future__ import annotations

import os
import tempfile

from server.files import folder_hint
from tournament.config import TournamentConfig, check_schedule_size
from tournament.resume import check_groups_kept, check_resumable
from tournament.run_schedule import ladder_stages, schedule_for, seat_orders_for
from tournament.schedule import SEAT_ORDERS
from tournament.store import Store, StoreError
from tournament.store_lock import LockWait
from tournament.store_path import check_path, database_exists

__all__ = ["check_database"]


def check_database(path: str, lock_wait: LockWait, config: TournamentConfig | None = None) -> bool:
    """StoreError, in one line, when the run's database cannot be used (a newer
    version's, a folder it may not write), or holds `config`'s tournament played
    otherwise than `config` says (`resume.check_resumable`, and for a round
    robin `resume.check_groups_kept`): looked at before a
    server or a Ray instance starts, which once started (and logged its start
    and stop) only to be stopped by the database, seconds later with Ray.
    Whether the database holds `config`'s tournament already. ConfigError
    when its schedule is too big (`config.check_schedule_size`) in the seat
    orders it plays: this version's, or those it was stored with."""
    if path != ":memory:" and not database_exists(path):
        if config is not None:
            check_schedule_size(config, SEAT_ORDERS)
        # Nothing stored to check; whether the file could be created is, without
        # creating it: a run stopped by its server or Ray address leaves no file.
        check_path(path)
        folder = os.path.dirname(os.path.abspath(path))
        try:
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as error:
            reason = error.strerror or str(error)
            raise StoreError(f"cannot create {path}: {reason}{folder_hint(path)}") from None
        return False
    with Store(path, lock_wait.seconds, lock_wait.on_wait) as store:
        if config is None:
            return False
        check_resumable(store, config)
        orders = seat_orders_for(store, config)
        check_schedule_size(config, orders)  # before check_groups_kept builds it
        if config.schedule == "round-robin":
            stages = ladder_stages(store, config)
            check_groups_kept(store, config, schedule_for(config, stages, orders))
        return store.find(config.name) is not None
