"""The server's threads share one malloc arena: memory one thread freed serves
the next thread's allocations instead of staying in an arena of its own."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

# In a fresh process (the limit holds for threads started after it): a first
# thread allocates 100 MB in blocks of 50 KB, frees nine in ten and stays alive;
# a second thread then allocates 90 MB. Prints how much the second one grew the
# process by, in KB.
_TWO_THREADS = """
import sys, threading
from server.malloc_arenas import limit_malloc_arenas

assert limit_malloc_arenas()

def rss():
    return int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0])

first_freed, second_done = threading.Event(), threading.Event()
kept, grown = [], []

def first():
    blocks = [b"x" * 50_000 for _ in range(2000)]
    kept.extend(blocks[::10])
    del blocks
    first_freed.set()
    second_done.wait()

def second():
    before = rss()
    blocks = [b"x" * 50_000 for _ in range(1800)]
    grown.append(rss() - before)

one = threading.Thread(target=first)
one.start()
first_freed.wait()
two = threading.Thread(target=second)
two.start()
two.join()
second_done.set()
one.join()
print(grown[0])
"""


def _python(code: str, **env: str) -> str:
    """What `code` prints in a fresh interpreter, $MALLOC_ARENA_MAX as `env` says."""
    environment = {name: value for name, value in os.environ.items() if name != "MALLOC_ARENA_MAX"}
    command = [sys.executable, "-c", code]
    run = subprocess.run(
        command, cwd=ROOT, env={**environment, **env}, capture_output=True, timeout=60
    )
    assert run.returncode == 0, run.stderr.decode()
    return run.stdout.decode().strip()


def test_a_second_thread_reuses_the_memory_a_first_thread_freed() -> None:
    """With glibc's arena a thread, the second thread grew the process by
    88 MB; with one arena it fills the first one's holes."""
    grown = int(_python(_TWO_THREADS))
    assert grown < 20_000, f"the second thread grew the process by {grown} KB"


def test_an_operators_malloc_arena_max_is_left_alone() -> None:
    check = "from server.malloc_arenas import limit_malloc_arenas; print(limit_malloc_arenas())"
    assert _python(check, MALLOC_ARENA_MAX="4") == "False"
