"""The sandbox's CPU watch finds the process that used its CPU time under the
command's own, through /proc's children files or, on a kernel without them
(CONFIG_PROC_CHILDREN off), through each process's parent."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from clients.launch.cpu_watch import CpuWatch, _descendants_by_parent

# Runs the command in its arguments and waits for it, as a `run.sh` without exec.
RUNS_AND_WAITS = "import subprocess, sys; subprocess.run(sys.argv[1:])"
# Spends 0.4 s of CPU, then waits to be killed, its CPU time there to be read.
BURNS = (
    "import time\n"
    "start = time.process_time()\n"
    "while time.process_time() - start < 0.4:\n"
    "    pass\n"
    "time.sleep(60)\n"
)


@contextmanager
def _grandchild_burning_cpu() -> Iterator[int]:
    """The pid of a process whose grandchild spends CPU (the process itself and
    its child spend next to none); the three are killed after."""
    python = sys.executable
    argv = [python, "-c", RUNS_AND_WAITS, python, "-c", RUNS_AND_WAITS, python, "-c", BURNS]
    chain = subprocess.Popen(argv, start_new_session=True)
    try:
        yield chain.pid
    finally:
        os.killpg(chain.pid, signal.SIGKILL)
        chain.wait()


def test_without_the_children_files_the_watch_sees_a_grandchild_pass_its_cpu_limit() -> None:
    """On a kernel without the children files the watch once read the command's
    own process alone: a bot under a script that waits for it, killed at its
    CPU limit, was recorded "killed by SIGKILL". `children_files=False` watches
    as on such a kernel."""
    with _grandchild_burning_cpu() as chain:
        watch = CpuWatch(chain, 0.3, children_files=False)
        asyncio.run(asyncio.wait_for(watch.run(), 10))
        assert watch.passed_limit, watch.used
        assert watch.read(), "the command still runs: the limit was passed under it"
        assert len(_descendants_by_parent(chain)) == 2, "its child and grandchild"
