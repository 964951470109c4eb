"""SIGTERM, SIGINT and SIGHUP stop `sheepfold serve` gracefully, once: the
match in play is suspended on disk, its bots are told `UNAVAILABLE` "server
shutting down", and the process exits 0, however many more of them follow.

Before, SIGHUP (a closed terminal, `kill -HUP`) killed the server at once with
no line in its log, and a second SIGTERM that came as the stopped server's
event loop closed killed it by the signal (exit -15, not 0)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2_grpc

from clients.sdk import SeatError, play
from server import launch
from server.sqlite_store import SqliteStore
from server.stop_signals import STOP_SIGNALS, StopSignals
from tests.conftest import start_server_process
from tests.integrity.helpers import (
    SlowBot,
    create_request,
    game_cases,
    get_match,
    log_entries,
    wait_until,
)

pytestmark = pytest.mark.e2e


async def _match_in_play(address: str) -> tuple[str, list[asyncio.Task[object]]]:
    async with grpc.aio.insecure_channel(address) as channel:
        created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            create_request(game_cases()[0], seed=11, decision_seconds=10)
        )
    bots: list[asyncio.Task[object]] = [
        asyncio.create_task(
            play(
                SlowBot(seed, delay=0.05), address, created.match_id, token, seed, max_reconnects=0
            )
        )
        for seed, token in enumerate(created.seat_tokens)
    ]
    for _ in range(400):
        if (await get_match(address, created.match_id)).moves >= 2:
            return created.match_id, bots
        await asyncio.sleep(0.02)
    raise AssertionError("the match did not get going")


async def _seats_told(bots: list[asyncio.Task[object]]) -> list[str]:
    """What each seat's play ended with: every one must end in a SeatError."""
    told = []
    for bot in bots:
        with pytest.raises(SeatError) as error:
            await asyncio.wait_for(bot, 10)
        told.append(str(error.value))
    return told


async def _signalled(db: Path, signals: list[signal.Signals]) -> tuple[int, list[str], str]:
    server = await asyncio.to_thread(start_server_process, "--db", str(db))
    try:
        match_id, bots = await _match_in_play(server.address)
        server.process.send_signal(signals[0])
        # The rest as fast as they come, until the process has gone: they land
        # during the shutdown and as its event loop closes.
        deadline = time.monotonic() + 20
        while server.process.poll() is None and time.monotonic() < deadline:
            for signum in signals[1:]:
                try:
                    server.process.send_signal(signum)
                except ProcessLookupError:
                    break
            await asyncio.sleep(0.002)
        code = await asyncio.to_thread(server.process.wait, 10)
        return code, await _seats_told(bots), match_id
    finally:
        launch.stop(server, graceful=False)


@pytest.mark.parametrize(
    "signals",
    [
        [signal.SIGHUP],
        [signal.SIGTERM, signal.SIGTERM],
        [signal.SIGINT, signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
    ],
    ids=["hup", "term-term", "int-int-term-hup"],
)
def test_stop_signals_suspend_the_match_and_exit_0(
    tmp_path: Path, signals: list[signal.Signals]
) -> None:
    db = tmp_path / "s.db"
    code, told, match_id = asyncio.run(_signalled(db, signals))
    assert code == 0, f"serve exited {code} after {[s.name for s in signals]}"
    assert all("UNAVAILABLE" in t and "server shutting down" in t for t in told), told
    store = SqliteStore(db)
    try:
        stored = store.load(match_id)
    finally:
        store.close()
    assert stored is not None and stored.status == "running", "kept unfinished on disk"


def test_the_log_names_the_signal(tmp_path: Path) -> None:
    server = start_server_process("--db", str(tmp_path / "s.db"))
    server.process.send_signal(signal.SIGHUP)
    assert server.process.wait(15) == 0
    wait_until(lambda: any('"server stopped"' in line for line in server.log_lines), 5)
    entries = log_entries(server.log_lines)
    stopping = [e for e in entries if e["event"] == "signal received, shutting down"]
    assert [e["signal"] for e in stopping] == ["SIGHUP"]


def _catches(pid: int, signum: signal.Signals) -> bool:
    """Whether the process has a handler of its own for `signum` (Linux's /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = int(
        next(line for line in status.splitlines() if line.startswith("SigCgt:")).split()[1], 16
    )
    return bool(caught >> (signum - 1) & 1)


def test_a_sigterm_while_the_command_loads_stops_it_with_0_and_no_file(tmp_path: Path) -> None:
    """The first second of `serve` is spent importing gRPC and the rest: a
    SIGTERM there (a supervisor's stop right after its start) killed it by the
    default action, exit 143. It is now caught from the first lines of the
    command on, and a server stopped before its database was opened opens none."""
    db = tmp_path / "s.db"
    process = subprocess.Popen(
        launch.serve_command("--db", str(db)), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        wait_until(lambda: _catches(process.pid, signal.SIGTERM), 20)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, stderr.decode()
    assert "signal received before the server started" in stderr.decode()
    assert not db.exists(), "a server stopped before it started opened its database"


def test_stop_signals_are_never_left_to_their_default_action_while_the_server_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`ignore_from_now` took the loop's handlers away, which put back each
    signal's default action, and then ignored it: a second SIGTERM landing in
    between (the test above sends them every 2 ms) killed the stopping server,
    exit -15, once in a full run of the suite on a busy machine. Every action
    set on the way, and the one the loop's close leaves, must be a handler or
    SIG_IGN."""
    set_on_the_way: list[tuple[int, object]] = []
    real_signal = signal.signal

    def recording(signum: int, handler: object) -> object:
        set_on_the_way.append((signum, handler))
        return real_signal(signum, handler)  # type: ignore[arg-type]

    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    try:

        async def stop() -> None:
            signals = StopSignals(asyncio.get_running_loop())
            monkeypatch.setattr(signal, "signal", recording)
            signals.ignore_from_now()

        asyncio.run(stop())
        monkeypatch.undo()
        defaults = {signal.SIG_DFL, signal.default_int_handler}
        assert [s for s, handler in set_on_the_way if handler in defaults] == []
        assert all(signal.getsignal(s) == signal.SIG_IGN for s in STOP_SIGNALS)
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def _with_dispositions(
    command: list[str], ignored: tuple[int, ...], default: tuple[int, ...]
) -> list[str]:
    """`command` started with the signals in `ignored` ignored and those in
    `default` at their default action, as a shell or `nohup` hands them on
    (both survive the exec), whatever the test's own process does with them."""
    code = (
        "import os, signal, sys\n"
        f"for s in {[int(s) for s in ignored]}: signal.signal(s, signal.SIG_IGN)\n"
        f"for s in {[int(s) for s in default]}: signal.signal(s, signal.SIG_DFL)\n"
        "os.execv(sys.argv[1], sys.argv[1:])\n"
    )
    return [sys.executable, "-c", code, *command]


def test_under_nohup_sighup_leaves_the_server_serving(tmp_path: Path) -> None:
    """`nohup sheepfold serve ... &` is how a server is left running past the
    terminal it was started from. The server once took SIGHUP all the same, so
    closing that terminal (or logging out) stopped it, nohup or not."""
    server = launch.start(
        _with_dispositions(
            launch.serve_command("--db", str(tmp_path / "s.db")), (signal.SIGHUP,), ()
        )
    )
    try:
        server.process.send_signal(signal.SIGHUP)
        time.sleep(1.5)
        assert server.process.poll() is None, "SIGHUP under nohup stopped the server"
        assert not any("shutting down" in line for line in server.log_lines)
    finally:
        code = launch.stop(server)
    assert code == 0


def test_under_nohup_sighup_is_left_ignored_by_the_commands() -> None:
    """`nohup sheepfold tournament run ... &` (or `match`, `bot`): SIGHUP once
    stopped the run all the same, as Ctrl-C does, when the terminal closed."""
    probe = (
        "import signal\n"
        "from cli.main import interrupt_on_terminate\n"
        "interrupt_on_terminate()\n"
        "print(signal.getsignal(signal.SIGHUP) == signal.SIG_IGN,"
        " signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, signal.SIG_DFL))\n"
    )
    command = _with_dispositions([sys.executable, "-c", probe], (signal.SIGHUP,), ())
    shown = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    assert shown.stdout.split() == ["True", "True"], shown


def test_sigquit_stops_the_server_as_sigterm_does(tmp_path: Path) -> None:
    """SIGQUIT (Ctrl-\\ in a terminal, `kill -QUIT`, a container's STOPSIGNAL
    as nginx images set it) once killed the server by its default action, a
    core dump: no line in the log, the streams cut, exit -3."""
    db = tmp_path / "s.db"

    async def signalled() -> tuple[int, list[str], str]:
        command = _with_dispositions(launch.serve_command("--db", str(db)), (), (signal.SIGQUIT,))
        server = await asyncio.to_thread(launch.start, command)
        try:
            match_id, bots = await _match_in_play(server.address)
            server.process.send_signal(signal.SIGQUIT)
            code = await asyncio.to_thread(server.process.wait, 20)
            return code, await _seats_told(bots), match_id
        finally:
            launch.stop(server, graceful=False)

    code, told, match_id = asyncio.run(signalled())
    assert code == 0, f"serve exited {code} after SIGQUIT"
    assert all("server shutting down" in t for t in told), told
    store = SqliteStore(db)
    try:
        stored = store.load(match_id)
    finally:
        store.close()
    assert stored is not None and stored.status == "running"


def test_sigquit_interrupts_the_commands_as_ctrl_c_does() -> None:
    """`match`, `bot`, `tournament run`: SIGQUIT once killed the command at
    once, its bot programs left running."""
    probe = (
        "import signal\n"
        "from cli.main import interrupt_on_terminate\n"
        "interrupt_on_terminate()\n"
        "print(signal.getsignal(signal.SIGQUIT) not in (signal.SIG_IGN, signal.SIG_DFL))\n"
    )
    command = _with_dispositions([sys.executable, "-c", probe], (), (signal.SIGQUIT,))
    shown = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    assert shown.stdout.split() == ["True"], shown


def test_sigusr1_and_sigusr2_are_logged_and_ignored(tmp_path: Path) -> None:
    """A stray `kill -USR1` (a log rotation's postrotate line written for
    another daemon, a `pkill -USR1 python`) once killed the server by the
    signal's default action: no line in its log, no drain, the matches in play
    back only at the next start. `serve` reloads and reopens nothing, so it
    logs the signal and goes on serving."""
    command = _with_dispositions(
        launch.serve_command("--db", str(tmp_path / "s.db")),
        (),
        (signal.SIGUSR1, signal.SIGUSR2),
    )
    server = launch.start(command)
    try:
        for signum in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGUSR1):
            server.process.send_signal(signum)
            time.sleep(0.3)
        wait_until(lambda: sum('"signal ignored"' in line for line in server.log_lines) >= 2, 10)
        assert server.process.poll() is None, "the signal killed the server"
        entries = log_entries(server.log_lines)
        ignored = [e for e in entries if e["event"] == "signal ignored"]
        assert {e["signal"] for e in ignored} == {"SIGUSR1", "SIGUSR2"}
        assert not any(e["event"] == "signal received, shutting down" for e in entries)
    finally:
        code = launch.stop(server)
    assert code == 0
