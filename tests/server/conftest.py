"""What the server's tests share: a client of a server in this process."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2_grpc

from server.inprocess import InProcessServer


@pytest.fixture
def stub(inprocess_server: InProcessServer) -> Iterator[arena_pb2_grpc.ArenaStub]:
    """An Arena client of a fresh server in this process (a file with a server of
    its own, a process say, defines its own `stub`)."""
    with grpc.insecure_channel(inprocess_server.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)
