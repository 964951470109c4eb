"""How many sockets a run's own server opens for sandboxed bots."""

from __future__ import annotations

import resource

from server.app import FILES_KEPT_FREE, HEALTH_PORT_CONNECTIONS, connection_bound
from tournament.bot_sockets import MAX_SOCKETS, SPARE_CONNECTIONS, plan_sockets

RESERVED = FILES_KEPT_FREE + HEALTH_PORT_CONNECTIONS


def test_one_socket_for_every_seat_playing_at_once() -> None:
    plan = plan_sockets(6, 20_000)
    assert plan.sockets == 6
    assert plan.connections_each == 2 * 6 + SPARE_CONNECTIONS


def test_never_more_than_the_most_sockets() -> None:
    assert plan_sockets(256 * 6, resource.RLIM_INFINITY).sockets == MAX_SOCKETS
    assert plan_sockets(100, 1_048_576).sockets == MAX_SOCKETS


def test_every_address_keeps_its_cap_within_the_open_file_limit() -> None:
    for seats, open_files in ((4, 1024), (16, 1024), (300, 20_000), (1536, 20_000)):
        plan = plan_sockets(seats, open_files)
        listeners = plan.sockets + 1  # the loopback port too
        bound = connection_bound(plan.connections_each, open_files, listeners)
        assert plan.sockets == 1 or bound == plan.connections_each, (seats, open_files)


def test_one_shared_socket_at_worst() -> None:
    assert plan_sockets(64, RESERVED + 10).sockets == 1
