"""The server's threads share one malloc arena: memory one thread freed serves
the next thread's allocations instead of staying in an arena of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ROOT, start_server_process, stop_server_process

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


# glibc makes each arena past the first in heaps of 64 MB, each aligned to its
# size: an anonymous read-write mapping at such an address, followed by the
# rest of its 64 MB reserved without access (or one mapping of the whole).
_HEAP_BYTES = 64 << 20


def _malloc_heaps(pid: int) -> int:
    """How many heaps of arenas past the first process `pid` has mapped."""
    regions = []
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split()
        low, high = (int(end, 16) for end in fields[0].split("-"))
        regions.append((low, high, fields[1], len(fields) > 5))
    reserved = {low: high for low, high, access, named in regions if access == "---p" and not named}
    return sum(
        1
        for low, high, access, named in regions
        if access == "rw-p"
        and not named
        and low % _HEAP_BYTES == 0
        and (high - low == _HEAP_BYTES or reserved.get(high) == low + _HEAP_BYTES)
    )


def _heaps_of_a_busy_server(monkeypatch: pytest.MonkeyPatch, **env: str) -> int:
    """The heaps of a `sheepfold serve` process after calls on eight channels
    at once (gRPC's threads take them), $MALLOC_ARENA_MAX as `env` says."""
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    server = start_server_process("--db", ":memory:", env=env)
    try:

        def list_matches() -> None:
            with grpc.insecure_channel(server.address) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                for _ in range(20):
                    stub.ListMatches(arena_pb2.ListMatchesRequest(), timeout=10)

        with ThreadPoolExecutor(8) as pool:
            for done in [pool.submit(list_matches) for _ in range(8)]:
                done.result()
        return _malloc_heaps(server.pid)
    finally:
        stop_server_process(server)


def test_serve_keeps_its_threads_to_one_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen from outside: a busy `sheepfold serve` maps no arena past the
    first, where one left to glibc's default (an operator's $MALLOC_ARENA_MAX,
    which serve leaves alone) maps one a thread."""
    assert _heaps_of_a_busy_server(monkeypatch, MALLOC_ARENA_MAX="8") > 0, "nothing to see"
    assert _heaps_of_a_busy_server(monkeypatch) == 0
