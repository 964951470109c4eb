"""`server.launch.stop` returns once the server's last lines are read: tests
read what a server logged as it stopped ("server stopped", a dropped write, a
saved copy) right after the stop, and the process can exit before the thread
reading its log has read them. Here the last line is written after the
process itself has exited, by a child that still holds its stderr, as gRPC
core's log reader does."""

from __future__ import annotations

import json
import sys

from server import launch

LAST_WORDS = json.dumps({"event": "last words"})
CHILD = f"import sys, time; time.sleep(0.5); print({LAST_WORDS!r}, file=sys.stderr)"
SERVER = f"""
import json, signal, subprocess, sys, time

def stop(*_):
    subprocess.Popen([sys.executable, "-c", {CHILD!r}])
    sys.exit(0)

signal.signal(signal.SIGTERM, stop)
print(json.dumps({{"event": "server started", "port": 1}}), file=sys.stderr, flush=True)
while True:
    time.sleep(1)
"""


def test_stop_returns_with_the_lines_written_after_the_exit() -> None:
    server = launch.start([sys.executable, "-c", SERVER])
    assert launch.stop(server) == 0
    assert server.log_lines[-1] == LAST_WORDS + "\n", server.log_lines
