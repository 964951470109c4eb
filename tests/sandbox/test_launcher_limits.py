"""The limits the launcher gives each sandboxed bot, as an ordinary user and as
root: a process limit of its own that the start-up takes nothing of, no realtime
or raised priority, a core dump limit no higher than the runner's, and a thread
the memory limit refused blamed on it."""

from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from clients.bot_limits import CORE_BYTES, MIB
from clients.launch import BotCommand, BotFailure, Launcher, parse_limits
from clients.launch.process import core_bytes
from clients.launch.sandbox import SandboxPolicy, Tools, bwrap_argv, find_tools, in_own_namespaces

# Starts $1 background `sleep`s, printing the count after each, then waits a
# second with all of them alive. dash gives up ("Cannot fork") when the limit
# refuses a fork.
FORKER = """#!/bin/sh
n=0
while [ $n -lt $1 ]; do
  sleep 5 &
  n=$((n+1))
  echo $n
done
sleep 1
echo done
"""


def _forker_sandbox(folder: Path, tools: Tools, processes: int, count: int) -> list[str]:
    policy = SandboxPolicy(limits=parse_limits({"processes": processes}))
    socket = folder / "arena.sock"
    socket.touch()
    command = ["/bin/sh", "forker.sh", str(count)]
    options, inner = bwrap_argv(tools, policy, command, str(folder), str(socket), {})
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    # As an ordinary user: its own namespaces mount the sandbox's /tmp and /dev/shm.
    argv = in_own_namespaces(
        tools,
        [tools.bwrap, *options, "--", *inner],
        False,
        policy.limits.tmp_mb * MIB,
        policy.limits.memory_mb * MIB,
    )
    return [*(drop if os.geteuid() == 0 else []), *argv]


def test_an_ordinary_user_gets_a_process_limit_of_its_own_in_each_sandbox(
    sandbox_ready: None,
) -> None:
    """The sandbox run by an unprivileged user (root drops to nobody for this test):
    each sandbox's processes are counted apart, and the limit holds."""
    folder = Path(tempfile.mkdtemp(prefix="sheepfold-user-"))
    try:
        folder.chmod(0o755)
        (folder / "forker.sh").write_text(FORKER)
        found = find_tools()
        # No Python runtime needed.
        tools = Tools(found.bwrap, found.prlimit, unshare=found.unshare, mount=found.mount)
        # Two sandboxes at once, 14 processes each: 28 would break a shared limit of 20.
        together = [
            subprocess.Popen(
                _forker_sandbox(folder, tools, processes=20, count=12),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,  # as bots are: in_own_namespaces needs it
            )
            for _ in range(2)
        ]
        outputs = [run.communicate(timeout=60) for run in together]
        greedy = subprocess.run(
            _forker_sandbox(folder, tools, processes=20, count=40),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            start_new_session=True,
        )
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)
    for run, (out, err) in zip(together, outputs, strict=True):
        assert run.returncode == 0 and out.split()[-1] == "done", err
    started = int(greedy.stdout.split()[-1])
    assert greedy.returncode != 0 and "Cannot fork" in greedy.stderr
    assert 14 <= started < 20, greedy.stdout


def test_a_bot_gets_no_realtime_priority_nor_a_raised_one(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """RLIMIT_RTPRIO and RLIMIT_NICE were the runner's: where a group is granted
    realtime priority (audio, on many desktops), a bot could take it and spin
    past its `cpus` cap. The limits as the bot's own process reads them."""
    socket = tmp_path / "arena.sock"
    socket.touch()
    tools, policy = find_tools(), SandboxPolicy()
    command = ["/bin/cat", "/proc/self/limits"]
    options, inner = bwrap_argv(tools, policy, command, str(tmp_path), str(socket), {})
    argv = in_own_namespaces(
        tools,
        [tools.bwrap, *options, "--", *inner],
        False,
        policy.limits.tmp_mb * MIB,
        policy.limits.memory_mb * MIB,
    )
    shown = subprocess.run(
        argv, capture_output=True, text=True, timeout=60, check=False, start_new_session=True
    )
    assert shown.returncode == 0, shown.stderr
    limits = {line[:26].strip(): line[26:].split()[:2] for line in shown.stdout.splitlines()}
    assert limits["Max realtime priority"] == ["0", "0"], shown.stdout
    assert limits["Max nice priority"] == ["0", "0"], shown.stdout
    assert "--rtprio=0:0" in inner and "--nice=0:0" in inner
    # The core dump limit is set before bwrap, whose seccomp filter refuses
    # setting it (tests/sandbox/test_kernel_budgets.py): not by the prlimit in it.
    assert not any(arg.startswith("--core") for arg in inner)


def test_a_runner_whose_hard_core_limit_is_0_gives_its_bots_0() -> None:
    """A bot's core dump limit is set to CORE_BYTES before its sandbox starts;
    an ordinary user may not raise a hard limit, and a container's or a
    service's is often 0: there `prlimit --core=1:1` failed, and would have
    failed every bot, so the bot gets the runner's 0."""
    assert core_bytes(resource.RLIM_INFINITY) == CORE_BYTES == 1
    assert core_bytes(4096) == CORE_BYTES
    assert core_bytes(0) == 0


THREADS_BOT = """
import threading, time
threads = []
for _ in range(200):
    thread = threading.Thread(target=time.sleep, args=(30,), daemon=True)
    thread.start()  # each stack is 8 MB of address space: the 64 MB limit refuses one soon
    threads.append(thread)
"""


def test_a_thread_refused_by_the_memory_limit_is_blamed_on_it(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """pthread_create fails with EAGAIN both when the process limit refuses it and
    when its stack does not fit the address space: a bot with a 64 MB memory
    limit and the default process limit was told it had hit the process limit."""
    (tmp_path / "bot.py").write_text(THREADS_BOT)
    socket = tmp_path / "arena.sock"
    socket.touch()
    limits = parse_limits({"memory_mb": 64})
    command = BotCommand(
        (sys.executable, "bot.py"), str(tmp_path), "", sandbox=SandboxPolicy(limits=limits)
    )
    launcher = Launcher(str(socket))
    launcher.check()
    with pytest.raises(BotFailure) as failed:
        asyncio.run(launcher.process(command).run())
    if launcher.cgroups is not None:  # root (CI): a pids cgroup counts refused forks
        assert failed.value.reason == "memory limit (64 MB)", failed.value
    else:  # nothing counts them for an ordinary user: EAGAIN stays the process limit's
        assert failed.value.reason == f"process limit ({limits.processes})", failed.value


def test_as_root_the_start_up_takes_no_place_of_the_bots_process_limit(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """As root the limit is a pids cgroup joined before the sandbox starts, so
    the start-up's own processes in it are counted too: bwrap's two always were.
    unshare, which stays as the parent of the sandbox's PID namespace, took one
    more place of the bot's: with `processes = 8` its shell started 4 others, not 5
    as before (and with the smallest limit, 4, it could not fork at all)."""
    tmp_path.chmod(0o755)
    (tmp_path / "forker.sh").write_text(
        "n=0\nwhile [ $n -lt 10 ]; do\n  sleep 5 &\n  n=$((n+1))\n"
        '  echo "started $n" >&2\ndone\nexit 3\n'
    )
    socket = tmp_path / "arena.sock"
    socket.touch()
    launcher = Launcher(str(socket))
    launcher.check()
    if os.geteuid() != 0:
        # An ordinary user's limit is no cgroup: it counts only the processes of
        # the bot's own user namespace, where the start-up's are not.
        assert launcher.cgroups is None
        return
    policy = SandboxPolicy(limits=parse_limits({"processes": 8}))
    bot = launcher.process(
        BotCommand(("/bin/sh", "./forker.sh"), str(tmp_path), "", sandbox=policy)
    )
    with pytest.raises(BotFailure) as failed:
        asyncio.run(bot.run())
    said = str(failed.value)
    # bwrap's two processes and the bot's shell: five places left for its sleeps.
    assert "started 5" in said and "started 6" not in said, said
