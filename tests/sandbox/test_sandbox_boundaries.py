"""Boundaries of the sandbox that no other test held on its own: each was
found by weakening the sandbox one way at a time (a bwrap option dropped, a
limit raised, a check skipped) and seeing every sandbox test still pass."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import clients
from clients.bot_limits import Limits
from clients.launch import BotCommand, Launcher
from clients.launch.sandbox import SandboxPolicy
from tests.conftest import ROOT
from tests.sandbox.sandboxed import run_in_sandbox
from tests.sandbox.test_hostile_bots import _processes_with
from tests.sandbox.test_runner_death import RUNNER, _wait

IPC_CREAT = 0o1000
IPC_EXCL = 0o2000
IPC_RMID = 0

OWN_MOUNTS_ONLY = """
import os, sys
mine = open("/proc/self/mountinfo").read()
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        theirs = open(f"/proc/{pid}/mountinfo").read()
    except OSError:
        continue
    if theirs != mine:
        print(f"process {pid} has another mount table:", theirs[:300], file=sys.stderr)
        sys.exit(3)
"""


def test_every_process_a_bot_sees_is_inside_its_sandbox(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """bwrap's own PID namespace holds only the sandbox's processes. Without it
    (the namespace unshare makes around bwrap still there), pid 1 of the bot's
    /proc was bwrap itself, outside the sandbox: its /proc/1/mountinfo showed
    the bot the host's whole mount table (every path of the organiser's disks)."""
    said = run_in_sandbox(tmp_path, sys.executable, "-c", OWN_MOUNTS_ONLY)
    assert said == "ok", said


def test_no_bot_sees_the_hosts_shared_memory_segments(tmp_path: Path, sandbox_ready: None) -> None:
    """Each sandbox has an IPC namespace of its own: a System V segment the
    host holds (a database's, another program's) is not in the bot's
    /proc/sysvipc/shm, and the bot could not attach it nor remove it."""
    libc = ctypes.CDLL(None, use_errno=True)
    key = 0x5EEF0000 + os.getpid() % 0xFFFF
    segment = libc.shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0o600)
    assert segment >= 0, os.strerror(ctypes.get_errno())
    try:
        seen = (
            "import sys\n"
            "keys = [line.split()[0] for line in open('/proc/sysvipc/shm').readlines()[1:]]\n"
            f"sys.exit(3 if '{key}' in keys else 0)"
        )
        assert run_in_sandbox(tmp_path, sys.executable, "-c", seen) == "ok"
    finally:
        libc.shmctl(segment, IPC_RMID, None)


WRITE_EACH = """
import os, sys
name = sys.argv[1]
written = []
for folder in sys.argv[2:]:
    try:
        with open(os.path.join(folder, name), "w") as file:
            file.write("a note for the next game")
        written.append(folder)
    except OSError:
        pass
if written:
    print("wrote in", written, file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_writes_in_its_folder_its_read_only_paths_nor_the_runtime(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """A bot's folder, its config's read_only paths, the runtime every sandbox
    shows (Sheepfold's own packages, the Python running it) and /dev are
    read-only: a bot that could write in the first two would leave notes for
    its next game past the fresh /tmp of each (or change another bot's data);
    in the runtime, it would change the code the organiser's server and
    every later bot run; in /dev, a tmpfs that only the host's memory
    bounds, it would hold memory no limit counts."""
    data = tmp_path / "data"
    data.mkdir()
    bot = tmp_path / "bot"
    bot.mkdir()
    for folder in (bot, data):
        folder.chmod(0o777)
    name = f"left-by-the-bot-{tmp_path.name}"
    runtime = [str(Path(clients.__file__).parent), sys.prefix]
    folders = [str(bot), str(data), *runtime, "/dev"]
    policy = SandboxPolicy(read_only=(str(data),))
    try:
        said = run_in_sandbox(bot, sys.executable, "-c", WRITE_EACH, name, *folders, policy=policy)
    finally:
        for shared in runtime:
            Path(shared, name).unlink(missing_ok=True)
    assert said == "ok", said
    assert sorted(path.name for path in tmp_path.rglob(name)) == []


FIND_FILE = """
import os, sys
name = sys.argv[1]
for top in sorted(os.listdir("/")):
    if top in ("proc", "sys", "usr"):  # the kernel's views, and the runtime
        continue
    for folder, folders, files in os.walk("/" + top):
        if name in files or name in folders:
            print("sees", os.path.join(folder, name), file=sys.stderr)
            sys.exit(3)
"""


def test_no_bot_sees_a_host_file_beside_its_folder(tmp_path: Path, sandbox_ready: None) -> None:
    """Of the host's files a bot sees only its folder and the runtime, at their
    own paths or anywhere else: a file beside its folder (another bot's, the
    database's) is nowhere in its sandbox."""
    marker = f"host-only-{os.getpid()}-{tmp_path.name}"
    (tmp_path / marker).write_text("the organiser's")
    bot = tmp_path / "bot"
    bot.mkdir()
    said = run_in_sandbox(bot, sys.executable, "-c", FIND_FILE, marker)
    assert said == "ok", said


@pytest.mark.parametrize(
    ("folder", "read_only", "refused"),
    [
        ("/", (), "cannot be /"),
        ("/proc", (), "cannot see the host's /proc"),
        ("BOT", ("/sys/kernel",), "cannot see the host's /sys"),
        ("BOT", ("/dev",), "cannot see the host's /dev"),
    ],
)
def test_a_launcher_never_binds_the_whole_host_nor_its_state(
    tmp_path: Path, sandbox_ready: None, folder: str, read_only: tuple[str, ...], refused: str
) -> None:
    """The configs and the command line refuse / and the host's /proc, /sys,
    /dev and /run as a bot's folder or read_only path, and so does the
    launcher itself, whatever called it: bound in, / would show the bot every
    file of the host, and the host's /proc every process with its command line."""
    socket = tmp_path / "arena.sock"
    socket.touch()
    folder = str(tmp_path) if folder == "BOT" else folder
    command = BotCommand(("/bin/true",), folder, "", sandbox=SandboxPolicy(read_only=read_only))
    with pytest.raises(ValueError, match=refused):
        Launcher(str(socket)).process(command)


ENVIRONMENT = """
import os, sys
if sorted(os.environ) != sys.argv[1].split(","):
    print("its environment:", sorted(os.environ), file=sys.stderr)
    sys.exit(3)
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        environ = open(f"/proc/{pid}/environ", "rb").read()
    except OSError:
        continue
    if b"ORGANISERS_CLOUD_KEY" in environ:
        print(f"/proc/{pid}/environ shows the runner's:", environ[:200], file=sys.stderr)
        sys.exit(3)
"""


def test_a_bots_environment_is_only_what_the_runner_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox_ready: None
) -> None:
    """The environment is cleared: a bot gets the sandbox's few variables and
    what the runner passes (the config's `env`, its match and token), nothing
    of the runner's own (its secrets), neither in its own environment nor in
    that of the sandbox's first process (/proc/1/environ), which bwrap's
    starts with."""
    monkeypatch.setenv("ORGANISERS_CLOUD_KEY", "secret")
    tmp_path.chmod(0o755)
    socket = tmp_path / "arena.sock"
    socket.touch()
    passed = {"SHEEPFOLD_MATCH": "m1", "BOT_LEVEL": "3"}
    # PWD: bwrap sets it to the folder it starts the bot in.
    expected = {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "MALLOC_ARENA_MAX",
        "PWD",
        "SHEEPFOLD_SERVER",
        *passed,
    }
    command = BotCommand(
        (sys.executable, "-c", ENVIRONMENT, ",".join(sorted(expected))),
        str(tmp_path),
        "",
        env=passed,
        sandbox=SandboxPolicy(),
    )
    asyncio.run(Launcher(str(socket)).process(command).run())


SESSION_INSIDE = """
import os, sys
session = os.getsid(0)
if session == 0 or not os.path.exists(f"/proc/{session}"):
    print("in session", session, "of a process outside its sandbox", file=sys.stderr)
    sys.exit(3)
"""


def test_a_bots_session_is_inside_its_sandbox(tmp_path: Path, sandbox_ready: None) -> None:
    """bwrap starts the sandbox in a new session (its pid 1 leads it): a
    session of the host's, with whatever terminal it held, would let a bot
    push keystrokes into that terminal (TIOCSTI) for the organiser's shell
    to run. The runner starts its chain in a session of its own too, which
    is outside the sandbox (getsid says 0)."""
    said = run_in_sandbox(tmp_path, sys.executable, "-c", SESSION_INSIDE)
    assert said == "ok", said


SMALL = Limits(memory_mb=256, cpu_seconds=1, open_files=32, tmp_mb=2)

OVER_THE_LIMITS = """
import errno, mmap, os, sys, time
attempt = sys.argv[1]
if attempt == "files":
    held = []
    try:
        while len(held) < 100:
            held.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as error:
        sys.exit(0 if error.errno == errno.EMFILE else 4)
elif attempt == "memfd":
    memfd = os.memfd_create("notes")
    try:
        for _ in range(3):
            os.write(memfd, bytes(1 << 20))
    except OSError as error:
        sys.exit(0 if error.errno == errno.EFBIG else 4)
elif attempt == "address space":
    try:
        mmap.mmap(-1, 600 << 20)
    except OSError as error:
        sys.exit(0 if error.errno == errno.ENOMEM else 4)
elif attempt == "locked memory":
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    region = mmap.mmap(-1, 256 << 10)
    if libc.mlock(ctypes.c_void_p(ctypes.addressof(ctypes.c_char.from_buffer(region))), 256 << 10):
        sys.exit(0 if ctypes.get_errno() in (errno.ENOMEM, errno.EPERM) else 4)
elif attempt in ("files in /tmp", "files in /dev/shm"):
    folder = attempt.split()[-1]
    try:
        for index in range(1000):  # 2 MB hold 512 files or folders
            open(f"{folder}/{index}", "w").close()
    except OSError as error:
        sys.exit(0 if error.errno == errno.ENOSPC else 4)
elif attempt in ("bytes in /tmp", "bytes in /dev/shm"):
    folder = attempt.split()[-1]
    try:
        for index in range(3):  # each file under the file size limit
            with open(f"{folder}/{index}", "wb") as file:
                file.write(bytes(1 << 20))
    except OSError as error:
        sys.exit(0 if error.errno == errno.ENOSPC else 4)
elif attempt == "kill -9 itself":
    os.kill(os.getpid(), 9)
elif attempt == "cpu, SIGXCPU ignored, under a shell":
    # A run.sh without exec: the shell waits for the bot, and exits 128 + 9.
    burn = (
        "import signal, time\\n"
        "signal.signal(signal.SIGXCPU, signal.SIG_IGN)\\n"
        "start = time.process_time()\\n"
        "while time.process_time() - start < 4:\\n"
        "    pass\\n"
    )
    # (its own "Killed" line, worded by each shell its way, is left out)
    waits = 'exec 2>/dev/null; "$0" -c "$1"; exit $?'
    os.execv("/bin/sh", ["sh", "-c", waits, sys.executable, burn])
elif attempt in ("cpu", "cpu, SIGXCPU ignored"):
    if attempt != "cpu":  # as Go does: only the SIGKILL a CPU second later ends it
        import signal
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)
    start = time.process_time()
    while time.process_time() - start < 4:
        pass
print("not stopped:", attempt, file=sys.stderr)
sys.exit(3)
"""


@pytest.mark.parametrize(
    ("attempt", "stopped"),
    [
        ("files", "ok"),  # 32 open files
        ("memfd", "ok"),  # no file over tmp_mb, in memory too
        ("address space", "ok"),  # 256 MB
        ("locked memory", "ok"),  # LOCKED_BYTES, 64 KB
        ("files in /tmp", "ok"),  # one file or folder per 4 KiB of tmp_mb
        ("files in /dev/shm", "ok"),
        ("bytes in /tmp", "ok"),  # tmp_mb in all
        ("bytes in /dev/shm", "ok"),
        ("cpu", "failed: CPU limit (1 s)"),
        # Once recorded "killed by SIGKILL", as if by the OOM killer or a kill -9.
        ("cpu, SIGXCPU ignored", "failed: CPU limit (1 s)"),
        # A bot started by a script that waits for it: "killed by SIGKILL" still.
        ("cpu, SIGXCPU ignored, under a shell", "failed: CPU limit (1 s)"),
        ("kill -9 itself", "failed: killed by SIGKILL"),  # no limit of its own
    ],
)
def test_a_bot_is_held_to_each_of_its_limits(
    tmp_path: Path, sandbox_ready: None, attempt: str, stopped: str
) -> None:
    """Each limit the docs list holds at its own value, not at a looser one
    (the runner's, or a multiple): a bot asking for a little more than its
    limit is refused, or, for CPU time, stopped."""
    said = run_in_sandbox(
        tmp_path,
        sys.executable,
        "-c",
        OVER_THE_LIMITS,
        attempt,
        policy=SandboxPolicy(limits=SMALL),
    )
    assert said == stopped, said


def test_a_runner_killed_while_its_sandboxed_bot_plays_leaves_nothing_running(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """The parent-death signal set on the start of the chain (setpriv) takes the
    sandbox with a runner SIGKILLed while its bot plays, the runner of any
    program that uses the launcher, not only `sheepfold tournament`. Without
    it, the bot of a runner killed once it ran played on for ever."""
    mark = f"sheepfold-orphan-{uuid.uuid4().hex}"
    socket = tmp_path / "arena.sock"
    socket.touch()
    tmp_path.chmod(0o755)
    runner = subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(socket), str(tmp_path), mark, "yes"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
    )
    try:
        assert runner.stdout is not None and runner.stdout.readline() == b"starting\n"
        # bwrap (outer and the sandbox's init) and the bot itself, all running.
        assert _wait(lambda: len(_processes_with(mark)) >= 3, 30), "the bot never started"
        runner.kill()
        runner.wait(10)
        assert _wait(lambda: not _processes_with(mark), 10), "the bot outlived its runner"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
        for pid in _processes_with(mark):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if os.geteuid() == 0:
            Launcher().check()  # removes the killed runner's cgroup
