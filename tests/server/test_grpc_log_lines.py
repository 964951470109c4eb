"""gRPC's Python library logs through the standard `logging` module (under the
logger "grpc": "ExecuteBatchError raised in core by servicer method" with a
traceback, when a client leaves just as its answer is sent), and its own
NullHandler on that logger once dropped every such line. In `serve` each is
one JSON line of the server's log like any other, never a traceback."""

from __future__ import annotations

import json
import sys

import pytest

from server import launch
from tests.integrity.helpers import wait_until

pytestmark = pytest.mark.e2e

# `sheepfold serve`, in whose process gRPC's loggers say what they say once its
# logging is set up; the records are shaped as gRPC's own.
SERVE_WITH_GRPC_LINES = """
import logging, sys, threading, time
import structlog
from grpc._cython.cygrpc import ExecuteBatchError
from cli.main import main

def grpc_lines() -> None:
    while not structlog.is_configured():
        time.sleep(0.01)
    try:
        raise ExecuteBatchError('Failed "execute_batch": (<SendStatusFromServerOperation>,)')
    except ExecuteBatchError:
        logging.getLogger("grpc._cython.cygrpc").exception(
            "ExecuteBatchError raised in core by servicer method [/sheepfold.v1.Arena/GetMatch]"
        )
    logging.getLogger("grpc._server").error("an error of %s", "gRPC's")

threading.Thread(target=grpc_lines, daemon=True).start()
sys.exit(main(sys.argv[1:]))
"""


def test_grpc_lines_are_json_lines_of_the_log() -> None:
    command = [sys.executable, "-c", SERVE_WITH_GRPC_LINES, "serve"]
    server = launch.start([*command, "--port", "0", "--log-format", "json", "--db", ":memory:"])
    try:
        wait_until(
            lambda: sum('"logger": "grpc.' in line for line in server.log_lines) == 2,
            timeout=10,
            what="gRPC's lines in the log",
        )
    finally:
        assert launch.stop(server) == 0
    entries = [json.loads(line) for line in server.log_lines]  # every line is JSON
    from_grpc = {entry["logger"]: entry for entry in entries if "logger" in entry}
    failed = from_grpc["grpc._cython.cygrpc"]
    assert failed["event"].startswith("ExecuteBatchError raised in core by servicer method")
    assert failed["level"] == "warning", "a client that left, not the server's fault"
    assert failed["error"].startswith('ExecuteBatchError: Failed "execute_batch"')
    assert "Traceback" not in json.dumps(failed)
    other = from_grpc["grpc._server"]
    assert (other["event"], other["level"]) == ("an error of gRPC's", "error")
