"""Refusing a call before its handler runs, RESOURCE_EXHAUSTED, because of what
its client address already holds in the server's memory (server/unread_answers.py,
server/cut_off_streams.py). Refusals are logged with the address, its first 20
in full, then one in a thousand: a client that keeps asking cannot fill the disk."""

from __future__ import annotations

from typing import NoReturn

import grpc
import structlog

from server.logs import Counts
from server.status import abort


class RefusedCalls:
    """Refuses calls, logging each as `event` on `logger`."""

    def __init__(self, logger: str, event: str) -> None:
        self._log = structlog.get_logger(logger)
        self._event = event
        self._counts = Counts()

    async def refuse(
        self, context: grpc.aio.ServicerContext, address: str, method: str, reason: str
    ) -> NoReturn:
        total = self._counts.due(address)
        if total is not None:
            self._log.warning(
                self._event,
                client=address,
                method=method,
                reason=reason,
                total=total,
                **self._counts.left_out(),
            )
        await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, reason)
