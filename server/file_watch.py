"""A server's watch on its database file (the why is in server/db_file.py):
checked every CHECK_SECONDS off the event loop; once deleted or replaced,
one error line and the server told to take no new match; at the stop, a line
naming the copy the store saved."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import structlog

from server.file_identity import CHECK_SECONDS, until_problem
from server.sqlite_store import SqliteStore
from server.store import Store


class DatabaseFileWatch:
    def __init__(
        self, store: Store, refuse: Callable[[str], None], every: float = CHECK_SECONDS
    ) -> None:
        """`refuse(reason)`: the server takes no new match from now on, for `reason`."""
        self._store = store if isinstance(store, SqliteStore) else None
        self._refuse = refuse
        self._every = every
        self._task: asyncio.Task[None] | None = None
        self._log = structlog.get_logger("sheepfold.server")

    def start(self) -> None:
        if self._store is not None and self._store.file_problem() is None:
            self._task = asyncio.create_task(self._watch(self._store), name="watch-database-file")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _watch(self, store: SqliteStore) -> None:
        problem = await until_problem(store.file_problem, self._every)
        self._log.error(
            "database file deleted or replaced",
            path=store.path,
            problem=problem,
            advice="the matches in play go on; stop the server (SIGTERM) and it saves "
            "what it holds to a new file; restart it on that file",
        )
        self._refuse(
            f"the server's database file {store.path} {problem} while it ran; it takes "
            f"no new match until it is restarted"
        )

    def closed(self) -> bool:
        """After the store is closed: where what it held went, if its file was lost.
        False when it is gone: the file lost and no copy written."""
        store = self._store
        if store is None:
            return True
        if store.saved_copy is not None:
            self._log.warning(
                "database saved to a new file: its file had been deleted or replaced",
                path=store.path,
                saved_to=store.saved_copy,
            )
        if store.save_failed is not None:
            self._log.error(
                "database lost: its file had been deleted or replaced, and no copy "
                "could be written",
                path=store.path,
                error=store.save_failed,
            )
        return store.save_failed is None
