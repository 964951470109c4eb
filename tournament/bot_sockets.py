"""How many Unix sockets a run's own server opens for its sandboxed bots, and
how many connections each of its listening addresses may hold.

The server caps connections per listening address. With one socket shared by
every sandboxed bot, a bot that opens all the connections it can (its process
and file limits allow thousands) fills the cap, and the other games' bots can
no longer connect. With a socket for each bot playing at once, it fills only
its own socket's cap.
"""

from __future__ import annotations

import contextlib
import resource
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

from clients.launch.socket_dir import private_sockets
from server.app import FILES_KEPT_FREE, HEALTH_PORT_CONNECTIONS, ServerConfig
from server.inprocess import serving_here
from server.open_files import raise_open_file_limit

__all__ = ["MAX_SOCKETS", "SocketPlan", "plan_sockets", "serving_bots"]

MAX_SOCKETS = 64
# Besides the bots' seats: the runner's own channels and a few to spare.
SPARE_CONNECTIONS = 64


@dataclass(frozen=True, slots=True)
class SocketPlan:
    sockets: int  # Unix sockets for the sandboxed bots
    connections_each: int  # the cap on every listening address, loopback port included


def plan_sockets(seats_at_once: int, open_files: int) -> SocketPlan:
    """A socket for every seat that can play at once (at most MAX_SOCKETS), each
    address holding two connections per such seat and some to spare: so the
    loopback port, under the same cap, still holds every unsandboxed bot and the
    runner. Fewer sockets when the open file limit cannot give that many
    addresses their cap; one, shared, at worst."""
    each = 2 * seats_at_once + SPARE_CONNECTIONS
    if open_files == resource.RLIM_INFINITY:
        fits = MAX_SOCKETS
    else:
        room = open_files - FILES_KEPT_FREE - HEALTH_PORT_CONNECTIONS
        fits = room // each - 1  # the loopback port is an address too
    return SocketPlan(max(1, min(seats_at_once, MAX_SOCKETS, fits)), each)


@contextlib.asynccontextmanager
async def serving_bots(
    config: ServerConfig, seats_at_once: int, sandboxed: bool
) -> AsyncIterator[tuple[str, tuple[str, ...]]]:
    """An in-process server on loopback for a run's own games, and, when
    `sandboxed`, its Unix sockets for the bots as `plan_sockets` sizes them.
    Yields the server's address and the sockets."""
    plan = plan_sockets(seats_at_once, raise_open_file_limit())
    with private_sockets(plan.sockets if sandboxed else 0) as sockets:
        if sockets:
            config = replace(config, max_connections=plan.connections_each)
        async with serving_here(config, unix_socket=sockets) as address:
            yield address, sockets
