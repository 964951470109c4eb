"""A log that cannot be written (the disk under the log file full, a pipe whose
reader has gone) costs log lines, never a call, a match or the server. Once a
line goes through again, the next says how many were lost.

Before, every log call raised: `serve 2>/dev/full` died before it listened,
and with its log pipe closed `CreateMatch` answered `UNKNOWN` "Unexpected
<class 'BrokenPipeError'>"."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import grpc
import pytest
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.sdk import play
from server import launch, logs
from server.logs import configure_logging
from tests.integrity.helpers import SlowBot, create_request, game_cases, wait_until

pytestmark = pytest.mark.e2e


def _serving(target: str) -> bool:
    try:
        with grpc.insecure_channel(target) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=1
            )
    except grpc.RpcError:
        return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING


def _play_one_match(target: str) -> None:
    case = game_cases()[0]
    with grpc.insecure_channel(target) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            create_request(case, seed=5, decision_seconds=10), timeout=10
        )

    async def seats() -> list[arena_pb2.MatchResult]:
        return await asyncio.gather(
            *(
                play(SlowBot(seed=seat), target, created.match_id, token, seat)
                for seat, token in enumerate(created.seat_tokens)
            )
        )

    results = asyncio.run(seats())
    assert results[0].ranks and results[0] == results[1], "the match finished"


def _serve(
    tmp_path: Path,
    stderr: int | IO[str],
    *flags: str,
    stdout: int | IO[str] = subprocess.DEVNULL,
) -> tuple[subprocess.Popen[str], str]:
    target = f"unix:{tmp_path}/arena.sock"
    command = launch.serve_command("--db", str(tmp_path / "s.db"), "--listen", target, *flags)
    process = subprocess.Popen(command, cwd=launch.ROOT, stderr=stderr, stdout=stdout, text=True)
    return process, target


def _stop(process: subprocess.Popen[str]) -> int:
    process.terminate()
    try:
        return process.wait(20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_server_whose_log_disk_is_full_serves_and_plays(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:  # every write: ENOSPC
        process, target = _serve(tmp_path, full)
    try:
        wait_until(lambda: process.poll() is not None or _serving(target), what="serving")
        assert process.poll() is None, "serve died on its first log line"
        _play_one_match(target)
    finally:
        assert _stop(process) == 0


def test_a_server_whose_log_pipe_was_closed_serves_and_plays(tmp_path: Path) -> None:
    process, target = _serve(tmp_path, subprocess.PIPE)
    assert process.stderr is not None
    try:
        deadline = time.monotonic() + 30
        while "server started" not in process.stderr.readline():
            assert time.monotonic() < deadline and process.poll() is None, "serve did not start"
        process.stderr.close()  # the reader has gone (`serve | head`, a log shipper died)
        _play_one_match(target)
    finally:
        assert _stop(process) == 0


def test_a_server_whose_stdout_disk_is_full_serves_its_viewer_and_plays(tmp_path: Path) -> None:
    """`serve --web-port` prints the viewer's address on stdout: on a full disk
    the server once stopped right after it started ("No space left on device")."""
    with open("/dev/full", "w") as full:
        process, target = _serve(
            tmp_path, subprocess.DEVNULL, "--web-port", "0", "--web-host", "127.0.0.1", stdout=full
        )
    try:
        wait_until(lambda: process.poll() is not None or _serving(target), what="serving")
        time.sleep(1.0)  # the viewer starts beside the server, and prints then
        assert process.poll() is None, "serve stopped on its stdout"
        _play_one_match(target)
    finally:
        assert _stop(process) == 0


class _FullForAWhile(io.StringIO):
    """A stderr whose disk is full until `free` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.free = False

    def write(self, text: str) -> int:
        if not self.free:
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(text)


def test_lines_lost_while_stderr_failed_are_counted_once_it_works_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = structlog.get_config()
    stderr = _FullForAWhile()
    monkeypatch.setattr(sys, "stderr", stderr)
    try:
        configure_logging("json", "info")
        log = structlog.get_logger("test")
        for number in range(3):
            log.info("lost", number=number)
        stderr.free = True
        log.info("written")
    finally:
        structlog.configure(**before)
    lines = stderr.getvalue().splitlines()
    assert '"event": "written"' in lines[0]
    assert '"event": "log lines lost: stderr could not be written"' in lines[1]
    assert '"lost": 3' in lines[1] and "No space left on device" in lines[1]
    assert len(lines) == 2


def _fill_the_log_pipe(target: str, process: subprocess.Popen[str]) -> tuple[str, int]:
    """Creates matches (a log line each, about 300 bytes) until well past what
    the server's stderr pipe holds; every call must be answered. Returns a
    match id and the pipe's size."""
    assert process.stderr is not None
    pipe_bytes = fcntl.fcntl(process.stderr.fileno(), fcntl.F_GETPIPE_SZ)
    case = game_cases()[0]
    with grpc.insecure_channel(target) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for seed in range(pipe_bytes // 100):
            created = stub.CreateMatch(create_request(case, seed=seed), timeout=5)
            stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=5)
    return created.match_id, pipe_bytes


def test_a_server_whose_log_reader_stopped_reading_serves_and_plays(tmp_path: Path) -> None:
    """The pipe stays open and nobody reads it (a stuck log shipper, Docker's
    blocking log mode with its driver stalled): calls are answered and matches
    played, and the lines the server could not keep are counted once the reader
    reads again."""
    process, target = _serve(tmp_path, subprocess.PIPE)
    assert process.stderr is not None
    try:
        wait_until(lambda: process.poll() is not None or _serving(target), what="serving")
        match_id, pipe_bytes = _fill_the_log_pipe(target, process)
        _play_one_match(target)
        with grpc.insecure_channel(target) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=5)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True)
        reader.start()  # the reader reads again
    finally:
        assert _stop(process) == 0
    reader.join(10)
    assert sum(map(len, lines)) > pipe_bytes, "the pipe was filled"
    assert '"event": "server stopped"' in lines[-1], lines[-1]


def test_a_server_whose_log_reader_stopped_reading_stops_when_told(tmp_path: Path) -> None:
    """A stuck reader holds up neither the stop nor the exit: the lines still
    waiting for it are given a moment, then left."""
    process, target = _serve(tmp_path, subprocess.PIPE)
    try:
        wait_until(lambda: process.poll() is not None or _serving(target), what="serving")
        _fill_the_log_pipe(target, process)
        process.terminate()
        started = time.monotonic()
        assert process.wait(20) == 0
        assert time.monotonic() - started < 10
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_lines_a_stopped_reader_could_not_take_are_counted_once_it_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the queue's bound a line is lost, at once, not waited for; once the
    reader reads, the lines queued come in order, then the count of those lost."""
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    before = structlog.get_config()
    monkeypatch.setattr(logs, "QUEUED_LINES", 50)
    with open(write_end, "w", closefd=True) as stderr:
        monkeypatch.setattr(sys, "stderr", stderr)
        try:
            queue = configure_logging("json", "info", queued=True)
            assert queue is not None
            log = structlog.get_logger("test")
            started = time.monotonic()
            for number in range(5000):  # about 500 KB: the pipe and the queue fill
                log.info("line", number=number, padding="x" * 60)
            assert time.monotonic() - started < 5, "a log call waited for the reader"
            numbers: list[int] = []
            lost: list[int] = []
            text = b""

            def read() -> bool:  # until every line is written or counted as lost
                nonlocal text
                with contextlib.suppress(BlockingIOError):
                    while chunk := os.read(read_end, 1 << 16):
                        text += chunk
                *complete, text = text.split(b"\n")
                for entry in map(json.loads, complete):
                    if entry["event"] == "log lines lost: stderr could not be written":
                        assert "stderr not read" in entry["error"]
                        lost.append(entry["lost"])
                    else:
                        numbers.append(entry["number"])
                return len(numbers) + sum(lost) >= 5000

            wait_until(read, what="every line written or counted")
            assert queue.flush(5)
        finally:
            structlog.configure(**before)
    os.close(read_end)
    assert numbers[0] == 0 and numbers == sorted(set(numbers)), "in order"
    assert lost and len(numbers) + sum(lost) == 5000, "every line lost counted"


class _Writes:
    """`os` for server.logs, counting the writer's writes."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.calls: list[int] = []
        self._fail_after = fail_after  # bytes written, then ENOSPC (once)

    def write(self, fd: int, data: bytes) -> int:
        self.calls.append(len(data))
        if self._fail_after == 0:
            self._fail_after = None
            raise OSError(errno.ENOSPC, "No space left on device")
        if self._fail_after is not None and self._fail_after < len(data):
            room, self._fail_after = self._fail_after, 0
            return os.write(fd, data[:room])  # a short write, then the failure
        return os.write(fd, data)


def _read_lines(read_end: int) -> list[str]:
    text = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(read_end, 1 << 16):
            text += chunk
    return text.decode().splitlines()


def test_lines_logged_while_the_writer_gathers_go_out_in_one_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A line wakes the writer thread only when it waits; lines logged after
    it has written gather and are written together, in order, at once when
    flushed (a thread woken for every line cost more than the line itself)."""
    writes = _Writes()
    monkeypatch.setattr(logs, "os", writes)
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    queue = logs.QueuedStderr(write_end, "utf-8", logs.LostLines(), 1000, gather=30.0)
    try:
        queue.put("first")
        wait_until(lambda: len(writes.calls) == 1, what="the first line written")
        for number in range(100):
            queue.put(f"line {number}")
        started = time.monotonic()
        assert queue.flush(5)
        assert time.monotonic() - started < 5, "the flush cut the gathering short"
        assert len(writes.calls) == 2, writes.calls
        assert _read_lines(read_end) == ["first", *(f"line {n}" for n in range(100))]
    finally:
        os.close(read_end)
        os.close(write_end)


def test_a_gathered_write_that_fails_loses_the_line_it_cut_and_writes_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lines written together: the line a failed write cuts short is lost and
    counted, as one written alone would be; those after it are written each on
    its own, and the count told once one goes through."""
    lost = logs.LostLines()
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    queue = logs.QueuedStderr(write_end, "utf-8", lost, 1000, gather=30.0)
    try:
        writes = _Writes(fail_after=len("aaaa\nbb"))
        monkeypatch.setattr(logs, "os", writes)
        written = queue._write_all(["aaaa", "bbbb", "cccc"])
        assert written
        assert lost.told() == (1, "OSError: [Errno 28] No space left on device")
        assert _read_lines(read_end) == ["aaaa", "bbcccc"]
    finally:
        os.close(read_end)
        os.close(write_end)
