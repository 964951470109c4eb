"""Refusals a client can repeat are logged an address's first 20 in full, so a
client with many addresses (IPv6, a botnet; any 127.x.y.z on loopback) wrote
20 lines with each new one, without end. Lines of one kind from every address
together are now kept to a number a minute, and those left out are counted."""

from __future__ import annotations

from collections import Counter

import pytest
import structlog
from sheepfold.v1 import arena_pb2

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.logs import LINES_A_MINUTE, LOGGED_IN_FULL, Counts
from tests.integrity.helpers import wait_until
from tests.integrity.raw_client import RawClient

ADDRESSES = [f"127.0.1.{number}" for number in range(1, 21)]
ASKED = LOGGED_IN_FULL + 5  # one let in (its answer unread), the rest refused


@pytest.mark.e2e
def test_refusals_from_many_addresses_are_logged_at_most_so_many_lines_a_minute() -> None:
    assert len(ADDRESSES) * (ASKED - 1) > len(ADDRESSES) * LOGGED_IN_FULL > LINES_A_MINUTE
    config = ServerConfig(listen=("127.0.0.1:0",), max_unread_calls_per_address=1)
    with structlog.testing.capture_logs() as logs, InProcessServer(config) as server:
        floods = [RawClient(server.address, source, reads=False) for source in ADDRESSES]
        try:
            for flood in floods:
                flood.call("Arena/ListGames", arena_pb2.ListGamesRequest(), times=ASKED)
            wait_until(lambda: all(len(flood.headed) == ASKED for flood in floods))
            refused = sum(len(flood.ended) for flood in floods)
        finally:
            for flood in floods:
                flood.close()
    lines = [line for line in logs if line["event"] == "call refused"]
    assert refused >= len(ADDRESSES) * (ASKED - 1)
    assert len(lines) == LINES_A_MINUTE, f"{len(lines)} lines for {refused} refusals"
    by_address = Counter(line["client"] for line in lines)
    assert max(by_address.values()) <= LOGGED_IN_FULL


def test_the_lines_left_out_are_counted_on_the_next_minutes_first_line() -> None:
    now = [0.0]
    counts = Counts(lines_a_minute=3, clock=lambda: now[0])
    due = [counts.due(f"address {n}") for n in range(5)]
    assert due == [1, 1, 1, None, None]
    assert counts.due("address 0") is None  # its second, but the minute is full
    now[0] = 59.9
    assert counts.due("address 9") is None
    now[0] = 60.0
    assert counts.due("address 1") == 2
    assert counts.left_out() == {"not_logged": 4}
    assert counts.left_out() == {}  # told once
    assert counts.due("address 1") == 3
