"""SIGTERM (`docker stop`, `kill`) during a run that joined a Ray cluster reaches
the command's handler alone (it stops the run as Ctrl-C does).

ray.init joins a cluster on a thread of its own, and there its core worker puts
a handler of its own on SIGTERM, which wrote a stack dump ("*** SIGTERM received
at time=...", then "PC: @ ..." lines, twice) before the command's handler ran;
and joining warned "SIGTERM handler is not set because current thread is not the
main thread", as if SIGTERM would not stop the run.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from tournament.executors.ray_connect import connected
from tournament.executors.settings import ExecutorSettings


def test_sigterm_after_joining_a_cluster_prints_no_stack_dump(
    cluster: Any, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    received: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
    try:
        with connected(ExecutorSettings(kind="ray", address=cluster.address), {}):
            capfd.readouterr()  # what joining printed
            joining = [record.getMessage() for record in caplog.records]
            os.kill(os.getpid(), signal.SIGTERM)
            deadline = time.monotonic() + 10
            while not received and time.monotonic() < deadline:
                time.sleep(0.05)
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, before)
    assert not [m for m in joining if "SIGTERM handler is not set" in m], joining
    assert received == [signal.SIGTERM]
    err = capfd.readouterr().err
    assert "SIGTERM received" not in err, err
