"""gRPC core's lines on descriptor 2 in `serve` (cli/core_log.py): a reader
process bounds them, writes the last of them however the server ends (an
abort's last words included), and leaves with the server."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cli.core_log import BURST_LINES, LAST_LINES, LINES_A_SECOND, forward
from server import launch
from tests.integrity.helpers import wait_until
from tests.server.test_malformed_grpc_headers import FLOOD_SECONDS, _flood

pytestmark = pytest.mark.e2e

# `sheepfold serve` whose process, once told (the file named by $ABORT_WHEN
# exists), writes lines to descriptor 2 as core does, the last one its last
# words, and aborts: as gRPC's core does on a failed assertion.
SERVE_THEN_ABORT = """
import os, sys, threading, time
from cli.main import main

def abort_when_told() -> None:
    while not os.path.exists(os.environ["ABORT_WHEN"]):
        time.sleep(0.01)
    for i in range(int(os.environ["LINES_FIRST"])):
        os.write(2, b"E1206 00:00:00.000000    1 chatty.cc:1] line %d\\n" % i)
    os.write(2, b"F1206 00:00:00.000000    1 crash.cc:9] assertion failed: last words\\n")
    os.abort()

threading.Thread(target=abort_when_told, daemon=True).start()
sys.exit(main(sys.argv[1:]))
"""


def _reader_of(pid: int) -> int:
    """The pid of `serve`'s one child, its reader of core's lines (started by
    any of its threads: a replaced one by the thread that watches it)."""
    children: list[str] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):  # a thread that just ended
            children += (task / "children").read_text().split()
    assert len(children) == 1, children
    assert b"cli.core_log" in Path(f"/proc/{children[0]}/cmdline").read_bytes()
    return int(children[0])


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state == "Z"


@pytest.mark.parametrize("lines_first", [0, 3 * BURST_LINES], ids=["alone", "after-a-flood"])
def test_a_core_line_written_just_before_an_abort_reaches_stderr(
    tmp_path: Path, lines_first: int
) -> None:
    told = tmp_path / "abort"
    command = [sys.executable, "-c", SERVE_THEN_ABORT, "serve"]
    server = launch.start(
        [*command, "--port", "0", "--log-format", "json", "--db", ":memory:"],
        env={"ABORT_WHEN": str(told), "LINES_FIRST": str(lines_first)},
    )
    try:
        reader = _reader_of(server.pid)
        told.touch()
        assert server.process.wait(15) == -signal.SIGABRT
        wait_until(lambda: _gone(reader), timeout=10, what="the reader's exit")
        wait_until(
            lambda: any("last words" in line for line in server.log_lines),
            timeout=10,
            what="the last words in the log",
        )
    finally:
        launch.stop(server, graceful=False)
    entries = [json.loads(line) for line in server.log_lines]  # every line is JSON
    last = [entry for entry in entries if "last words" in entry["event"]]
    assert len(last) == 1
    assert (last[0]["level"], last[0]["logger"]) == ("critical", "grpc-core")
    chatty = [entry for entry in entries if "chatty.cc" in entry["event"]]
    dropped = sum(
        entry.get("dropped", 0) for entry in entries if entry.get("logger") == "grpc-core"
    )
    assert len(chatty) + dropped == lines_first, "each line written or counted"
    assert len(chatty) <= BURST_LINES + LAST_LINES


# `sheepfold serve` whose process, once told, writes 10 MB to descriptor 2 as
# core would for a flood, then says it is done in the file $DONE.
SERVE_THEN_FLOOD = """
import os, sys, threading, time
from cli.main import main

def flood_when_told() -> None:
    while not os.path.exists(os.environ["FLOOD_WHEN"]):
        time.sleep(0.01)
    line = b"E1206 00:00:00.000000    1 hpack_parser.cc:1] " + b"x" * 60 + b"\\n"
    for _ in range(100):
        os.write(2, line * 1000)
    with open(os.environ["DONE"], "w"):
        pass

threading.Thread(target=flood_when_told, daemon=True).start()
sys.exit(main(sys.argv[1:]))
"""


def test_core_never_waits_for_a_stderr_nobody_reads(tmp_path: Path) -> None:
    """The real stderr's reader stopped reading (its pipe full): core's lines
    are dropped and counted, and whatever core writes them from goes on."""
    told, done = tmp_path / "flood", tmp_path / "done"
    command = [sys.executable, "-c", SERVE_THEN_FLOOD, "serve", "--port", "0", "--db", ":memory:"]
    process = subprocess.Popen(
        command,
        cwd=launch.ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "FLOOD_WHEN": str(told), "DONE": str(done)},
    )
    try:
        assert process.stderr is not None
        assert b"server started" in process.stderr.readline()
        told.touch()  # and stderr is read no more
        wait_until(done.exists, timeout=20, what="10 MB written to descriptor 2")
        process.terminate()
        assert process.wait(20) == 0
        rest = process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert len(rest) < 1_000_000, "the flood was not written"
    assert b"gRPC core log lines dropped" in rest


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["term", "int"])
def test_serve_stops_as_before_and_leaves_no_reader_behind(stop: signal.Signals) -> None:
    server = launch.start(launch.serve_command("--db", ":memory:"))
    try:
        reader = _reader_of(server.pid)
        server.process.send_signal(stop)
        assert server.process.wait(15) == 0
    finally:
        launch.stop(server, graceful=False)
    assert _gone(reader), "serve waited for its reader"
    time.sleep(0.2)
    events = [json.loads(line)["event"] for line in server.log_lines]
    assert events[0] == "server started"
    assert events[-1] == "server stopped", "the server's own lines, all of them"


def test_the_reader_holds_the_lines_of_its_last_second_for_the_end() -> None:
    """Lines over the bound are counted, but the last ones before the pipe's
    end, at most LAST_LINES, are written after the count."""
    read, write = os.pipe()
    entries: list[dict[str, object]] = []

    def emit(level: str, text: str, **fields: object) -> None:
        entries.append({"level": level, "event": text, **fields})

    forwarder = threading.Thread(
        target=forward, args=(read, emit), kwargs={"rate": 0.0, "burst": 3}
    )
    forwarder.start()
    os.write(write, b"".join(b"E0000 line %d\n" % i for i in range(200)) + b"no end of line")
    os.close(write)
    forwarder.join(10)
    events = [entry["event"] for entry in entries]
    dropped = 200 + 1 - 3 - LAST_LINES
    assert events[:3] == ["E0000 line 0", "E0000 line 1", "E0000 line 2"]
    assert events[3] == "gRPC core log lines dropped" and entries[3]["dropped"] == dropped
    tail = [f"E0000 line {i}" for i in range(200 - LAST_LINES + 1, 200)]
    assert events[4:] == [*tail, "no end of line"]
    assert {entry["level"] for entry in entries} == {"error", "warning"}


# A process that bounds core's lines as `serve` does, then starts
# multiprocessing's resource tracker as the web viewer's replay process does
# (it inherits descriptor 2, the pipe), then closes the core log: whether the
# reader ended, rather than `close` giving up on it after its wait.
CLOSE_AFTER_A_TRACKER = """
import sys
from multiprocessing import resource_tracker
from cli.core_log import bound_core_log

core_log = bound_core_log("console")
assert core_log is not None
resource_tracker.ensure_running()
core_log.close(seconds=20)
print("reader ended" if core_log.process.poll() is not None else "reader still running")
"""


def test_the_reader_ends_as_the_server_stops_though_a_resource_tracker_was_started() -> None:
    """The web viewer's replay process brings multiprocessing's resource
    tracker, which holds a writer of the reader's pipe (its descriptor 2) until
    `serve` exits: the reader read on, and each stop after a replay or a
    tournament page waited out the whole of `close`'s wait (3 s)."""
    done = subprocess.run(
        [sys.executable, "-c", CLOSE_AFTER_A_TRACKER],
        cwd=launch.ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "reader ended", done.stderr


def test_a_reader_killed_while_the_server_runs_is_replaced_and_core_stays_bounded() -> None:
    """The reader is a process of its own, which an operator can take for a
    stray and kill (or the OOM killer can): core's lines then went into a pipe
    nobody read, lost without a word; then to the real stderr, unbounded, where
    a flood of malformed headers wrote 490,000 lines (50 MB) in 2 s. A new
    reader now takes its place, within the same bound, and the log says so."""
    server = launch.start(launch.serve_command("--db", ":memory:"))
    try:
        assert server.process.stderr is not None
        real = os.readlink(f"/proc/self/fd/{server.process.stderr.fileno()}")
        reader = _reader_of(server.pid)
        os.kill(reader, signal.SIGKILL)
        wait_until(lambda: any("log reader stopped" in line for line in server.log_lines), 10)
        replaced = _reader_of(server.pid)
        assert replaced != reader
        assert os.readlink(f"/proc/{server.pid}/fd/2") != real, "core writes to its new reader"
        time.sleep(1.5)  # core's bucket full again
        before = len(server.log_lines)
        sent = _flood(server.address, FLOOD_SECONDS)
        assert sent > 5 * BURST_LINES, f"only {sent} calls sent: no flood"
        wait_until(lambda: _dropped_told(server.log_lines[before:]), 10, what="the count")
        flood = server.log_lines[before:]
        assert launch.stop(server) == 0
    finally:
        launch.stop(server, graceful=False)
    line = next(json.loads(line) for line in server.log_lines if "log reader stopped" in line)
    assert line["event"] == "gRPC core's log reader stopped; a new one reads core's lines"
    assert line["level"] == "warning" and line["exit_status"] == -signal.SIGKILL
    entries = [json.loads(line) for line in flood]  # every line JSON, core's too
    written = [entry for entry in entries if "hpack_parser" in str(entry["event"])]
    assert BURST_LINES <= len(written) <= BURST_LINES + LINES_A_SECOND * (FLOOD_SECONDS + 12)
    assert all(entry["logger"] == "grpc-core" for entry in written)


def _dropped_told(lines: list[str]) -> bool:
    return any("gRPC core log lines dropped" in line for line in lines)


# A process that bounds core's lines as `serve` does, its reader replaced once
# at most (REPLACEMENTS_BURST 1), and its watch logging to the real stderr:
# it kills its reader twice and says where descriptor 2 then leads.
KILLED_TWICE = """
import os, signal, sys, time
import cli.core_log
from server.logs import configure_logging

cli.core_log.REPLACEMENTS_BURST = 1
core_log = cli.core_log.bound_core_log("json")
assert core_log is not None
log = configure_logging("json", "info", queued=True)
core_log.watch()
real = os.readlink(f"/proc/self/fd/{core_log.real_fd}")
for kill in (1, 2):
    first = core_log.process
    os.kill(first.pid, signal.SIGKILL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (
        core_log.process is first if kill == 1 else os.readlink("/proc/self/fd/2") != real
    ):
        time.sleep(0.01)
    print(kill, "stderr" if os.readlink("/proc/self/fd/2") == real else "a reader", flush=True)
log.flush(5)
core_log.close(seconds=5)
"""


def test_a_reader_that_keeps_dying_is_not_replaced_for_ever() -> None:
    """A reader that cannot run here would die as soon as each replacement
    starts: past the replacements allowed, core writes to stderr again, as the
    log says, rather than the server starting readers without end."""
    done = subprocess.run(
        [sys.executable, "-c", KILLED_TWICE],
        cwd=launch.ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["1 a reader", "2 stderr"], done.stderr
    events = [json.loads(line)["event"] for line in done.stderr.splitlines()]
    assert events == [
        "gRPC core's log reader stopped; a new one reads core's lines",
        "gRPC core's log reader stopped and could not be replaced; core's own lines go to"
        " stderr unbounded until the server restarts",
    ]
