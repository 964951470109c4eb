"""Whether each `--server` of a Ray run answers, asked from the cluster's nodes
before the run stores its tournament.

A run without Ray asks its server from this process before it stores anything
(tournament.server_check.reach_before_storing). A Ray run's games reach their
servers from the Ray workers, and this process (the driver) may not reach them
at all (a cluster's own network), so the same question is asked by a Ray task
on each node that can take a game. A server that no node reaches could play
no game: the run stops in one line, naming it and why, and stores nothing. A
server that some node reaches is left to the run (a node that cannot reach
it drops it from the run, see servers.ServerPool).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from clients.connect import ServerTls, Unreachable
from games.words import count
from tournament.server_check import answering

__all__ = ["unanswered", "unreached"]


def unanswered(servers: tuple[str, ...], tls: ServerTls | None) -> tuple[str, ...]:
    """For each of `servers`, asked at once from here (a Ray worker): "" when it
    answers as a run without Ray asks it to, else why not, in one line."""

    async def ask(server: str) -> str:
        try:
            await answering(server, tls)
        except Unreachable as error:
            return str(error)
        return ""

    async def ask_all() -> list[str]:
        return list(await asyncio.gather(*(ask(server) for server in servers)))

    return tuple(asyncio.run(ask_all()))


def unreached(
    servers: tuple[str, ...], answers: Sequence[tuple[str, tuple[str, ...]]]
) -> list[str]:
    """Why each of `servers` that no node reached is not reached, one line
    each, from `answers`: (node, `unanswered` there) for each node that
    answered. A server some node reached is not named; nor is any when no
    node answered at all (there is nothing to tell of)."""
    refused: list[str] = []
    for index in range(len(servers)):
        failed = [(node, said[index]) for node, said in answers if said[index]]
        if not failed or len(failed) < len(answers):
            continue
        (node, why), others = failed[0], len(failed) - 1
        also = f", and from {count(others, 'other node')}" if others else ""
        refused.append(f"{why} (from {node}{also})")
    return refused
