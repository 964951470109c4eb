"""A real `sheepfold serve` process shared by the command-line tests of one module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.launch import ServerProcess
from tests.conftest import start_server_process, stop_server_process


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    process = start_server_process()
    try:
        yield process
    finally:
        stop_server_process(process)
