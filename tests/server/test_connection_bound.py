"""How many connections each listening address may hold, given the open file limit."""

from __future__ import annotations

import resource

from server.app import FILES_KEPT_FREE, HEALTH_PORT_CONNECTIONS, connection_bound

RESERVED = FILES_KEPT_FREE + HEALTH_PORT_CONNECTIONS


def test_the_bound_asked_for_when_the_files_allow_it() -> None:
    assert connection_bound(10_000, 1_048_576, 1) == 10_000
    assert connection_bound(10_000, resource.RLIM_INFINITY, 3) == 10_000


def test_fewer_when_the_open_file_limit_is_low_shared_by_every_address() -> None:
    assert connection_bound(10_000, RESERVED + 1_000, 1) == 1_000
    assert connection_bound(10_000, RESERVED + 1_000, 2) == 500
    assert connection_bound(400, RESERVED + 1_000, 2) == 400


def test_never_below_one_connection() -> None:
    assert connection_bound(10_000, 100, 1) == 1
