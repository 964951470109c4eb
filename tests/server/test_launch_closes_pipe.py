"""`server.launch` reads a server's stderr through a text pipe; it left that
pipe open after the server had stopped (or failed to start), and the garbage
collector closed it later with "ResourceWarning: unclosed file
<_io.TextIOWrapper ...>", in whichever test happened to collect it then."""

from __future__ import annotations

import gc
import json
import sys
import time
import warnings

import pytest

from server import launch

SERVER = f"""
import signal, sys, time
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
print({json.dumps({"event": "server started", "port": 1})!r}, file=sys.stderr, flush=True)
while True:
    time.sleep(1)
"""


def test_stop_closes_the_pipe_the_log_was_read_from() -> None:
    server = launch.start([sys.executable, "-c", SERVER])
    assert launch.stop(server) == 0
    assert server.process.stderr is not None
    deadline = time.monotonic() + 5
    while not server.process.stderr.closed and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.process.stderr.closed


def test_a_server_that_never_starts_leaves_no_pipe_open() -> None:
    gc.collect()  # what earlier tests left is no concern here
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="did not start"):
            launch.start(
                [sys.executable, "-c", "print('no start line', file=__import__('sys').stderr)"]
            )
        gc.collect()
    unclosed = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert unclosed == []
