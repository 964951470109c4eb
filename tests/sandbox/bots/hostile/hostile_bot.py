#!/usr/bin/env python3
"""A bot that attacks its host before playing: one attack per run, named by argv[1].

Contained probes (network, database, write, proc, env, shm, kernel, keyring, devices,
procfs, watches, aio, inodes, signal, leftover) report
an escape by printing "ESCAPED: ..." and exiting with status 3, so a leak turns
into a crash the test sees; contained, the bot then plays its seat normally.
Resource attacks (forkbomb, memory, memfd, cpu, output) never play: the sandbox must
stop them. `--probe` runs only the probe and exits 0 (contained) or 3, which
the tests use unsandboxed to show that each probe does notice real access.
`connections` floods the server's Unix socket, holds what the server lets it
keep while other bots join, then plays; `impatient` only plays, and crashes if
its first connection is refused.

Settings come from the environment the tournament config passes:
TARGET_PORT, OTHER_PORT, TARGET_DB, SERVER_DB, CANARY_DIR, LEFTOVER_MARK.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import time

ALLOWED_ENV = {"PATH", "HOME", "TMPDIR", "LANG", "MALLOC_ARENA_MAX", "PWD", "SHLVL", "_"}
ESCAPED = 3


def escaped(what: str) -> None:
    print(f"ESCAPED: {what}", file=sys.stderr, flush=True)
    sys.exit(ESCAPED)


def probe_network() -> None:
    for name in ("TARGET_PORT", "OTHER_PORT"):
        port = int(os.environ[name])
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                escaped(f"connected to 127.0.0.1:{port} ({name})")
        except OSError:
            pass


def probe_database() -> None:
    for name in ("TARGET_DB", "SERVER_DB"):
        try:
            with open(os.environ[name], "rb") as file:
                escaped(f"read {len(file.read(100))} bytes of {name}")
        except OSError:
            pass


def probe_write() -> None:
    targets = [
        os.path.join(os.environ["CANARY_DIR"], "escaped.txt"),
        os.path.join(os.getcwd(), "escaped.txt"),
        "/escaped.txt",
        "/usr/escaped.txt",
    ]
    for path in targets:
        try:
            with open(path, "w") as file:
                file.write("out")
            escaped(f"wrote {path}")
        except OSError:
            pass
    with open("/tmp/mine.txt", "w") as file:  # its own /tmp is writable
        file.write("fine")


def probe_shm() -> None:
    """Shared memory is memory: /dev/shm holds no more than the bot's tmp limit
    (64 MB here), and /dev itself cannot be written. Three files of 40 MB, each
    under the file-size limit."""
    written = 0
    paths = [f"/dev/shm/sheepfold-probe-{os.getpid()}-{n}" for n in range(3)]
    try:
        for path in paths:
            with open(path, "wb") as file:
                for _ in range(40):
                    file.write(bytes(1 << 20))
                    written += 1
        escaped(f"wrote {written} MB to /dev/shm")
    except OSError:
        pass
    finally:
        for path in paths:
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
    if os.environ.get("SHEEPFOLD_SERVER"):  # inside: never write to the host's /dev
        try:
            with open("/dev/escaped.txt", "w") as file:
                file.write("out")
            escaped("wrote /dev/escaped.txt")
        except OSError:
            pass


def probe_proc() -> None:
    pids = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                cmdline = file.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if any(sign in cmdline for sign in ("pytest", "tournament run", "cli serve")):
            escaped(f"saw process {pid}: {cmdline[:80]}")
    if len(pids) > 8:
        escaped(f"saw {len(pids)} processes")


def probe_kernel() -> None:
    """The host's kernel settings, which a bot run as root could write by file
    permissions alone (the host's core_pattern names a program the kernel runs
    as root). Only checked, never written."""
    for path in (
        "/proc/sys/kernel/core_pattern",
        "/proc/sys/vm/swappiness",
        "/proc/sys/vm/panic_on_oom",
        "/proc/sysrq-trigger",
    ):
        if os.path.exists(path) and os.access(path, os.W_OK):
            escaped(f"{path} is writable")


def probe_keyring() -> None:
    """The kernel's key store, which belongs to no namespace: a key a bot linked
    into its user's keyring on the host outlived the sandbox, and the next
    game's bot read it back. Only a key of this process's own keyring is tried
    (it goes with the process): that the store takes one at all is the escape."""
    import ctypes
    import platform

    add_key = {"x86_64": 248, "aarch64": 217}.get(platform.machine())
    if add_key is None:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    process_keyring = ctypes.c_long(-2)
    one_byte = ctypes.c_size_t(1)
    key = libc.syscall(
        ctypes.c_long(add_key), b"user", b"sheepfold-probe", b"x", one_byte, process_keyring
    )
    if key >= 0:
        escaped(f"the kernel's key store took key {key}")


# The device nodes bwrap's --dev binds in from the host's /dev.
DEVICE_NODES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")


def probe_devices() -> None:
    """The host's device nodes, which every sandbox (and the host) shares: their
    times and mode are a note that outlives the game (the next game's bot reads
    it with stat), and a mode of 000 on /dev/null would break the host. Root
    owns them, so a bot run as root could set any time and mode, or their times
    to now. Each is only set to what it already is, apart from `touch` (the
    times to now), tried only where setting them exactly failed. An ordinary
    user's bot may still touch them (docs/operations.md): not tried there."""
    import stat

    touch = os.geteuid() == 0
    for path in DEVICE_NODES:
        try:
            before = os.stat(path)
        except OSError:
            continue
        with contextlib.suppress(OSError):
            os.chmod(path, stat.S_IMODE(before.st_mode))
            escaped(f"set the mode of the host's {path}")
        with contextlib.suppress(OSError):
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
            escaped(f"set the times of the host's {path}")
        if touch:
            with contextlib.suppress(OSError):
                os.utime(path)
                escaped(f"set the times of the host's {path} to now")


def probe_procfs() -> None:
    """The mode of a /proc entry that is not a process's: kept by the kernel for
    every /proc mounted on the machine, the host's included, so a bot run as
    root (their owner) could leave a note in the modes of /proc's files for the
    next game, or make the host's /proc/meminfo unreadable. Each is only set to
    the mode it already has."""
    import stat

    for name in sorted(os.listdir("/proc")):
        path = f"/proc/{name}"
        if name.isdigit() or os.path.islink(path):
            continue
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
            os.chmod(path, mode)
        except OSError:
            continue
        escaped(f"changed the mode of {path}")


def probe_watches() -> None:
    """inotify and fanotify instances, which the kernel counts per user of the
    host through every namespace (128 of each): a bot holding them all left
    none to the host's root or the runner's user while it played, and their
    events on the files every sandbox sees signal between bots. One of each is
    asked for and closed at once."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd >= 0:
        os.close(fd)
        escaped("the kernel gave an inotify instance")
    fan_report_fid = 0x200  # what fanotify allows without CAP_SYS_ADMIN (Linux 5.13+)
    fd = libc.fanotify_init(fan_report_fid, os.O_RDONLY)
    if fd >= 0:
        os.close(fd)
        escaped("the kernel gave a fanotify instance")


def probe_aio() -> None:
    """Linux AIO contexts, which the kernel counts for the whole machine (65,536
    events, fs.aio-max-nr, root included): one io_setup of them all left every
    other program on the host EAGAIN while the bot ran. A context of one event
    is asked for and destroyed at once."""
    import ctypes
    import platform

    calls = {"x86_64": (206, 207), "aarch64": (0, 1)}.get(platform.machine())
    if calls is None:
        return
    io_setup, io_destroy = calls
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    context = ctypes.c_ulong(0)
    if libc.syscall(ctypes.c_long(io_setup), ctypes.c_long(1), ctypes.byref(context)) == 0:
        libc.syscall(ctypes.c_long(io_destroy), context)
        escaped("the kernel gave an AIO context")


INODE_PROBE_FILES = 100_000


def probe_inodes() -> None:
    """Empty files in /tmp and /dev/shm, which take none of a tmpfs's size: each
    costs the kernel an inode and a dentry all the same, memory no limit of an
    ordinary user's bot counts, and bwrap's tmpfs holds millions (half the host's
    pages). 100,000 of them are tried in each (the sandbox's hold 16,384), and
    removed."""
    import shutil
    import tempfile

    for parent in (tempfile.gettempdir(), "/dev/shm"):
        try:
            folder = tempfile.mkdtemp(prefix="sheepfold-probe-", dir=parent)
        except OSError:
            continue
        made = 0
        try:
            for made in range(INODE_PROBE_FILES):
                os.close(os.open(os.path.join(folder, str(made)), os.O_CREAT | os.O_WRONLY))
            escaped(f"made {INODE_PROBE_FILES} empty files in {parent}")
        except OSError:
            pass
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def probe_env() -> None:
    extra = {
        key
        for key in os.environ
        if key not in ALLOWED_ENV
        and not key.startswith(("SHEEPFOLD_", "TARGET_", "OTHER_"))
        and key not in ("SERVER_DB", "CANARY_DIR", "LEFTOVER_MARK", "ROLE")
    }
    if "SHEEPFOLD_ADMIN_TOKEN" in os.environ or extra:
        escaped(f"environment holds {sorted(extra | {'SHEEPFOLD_ADMIN_TOKEN'} & set(os.environ))}")
    for pid in (entry for entry in os.listdir("/proc") if entry.isdigit()):
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:
                if b"SHEEPFOLD_ADMIN_TOKEN" in file.read():
                    escaped(f"found the admin token in /proc/{pid}/environ")
        except OSError:
            pass


def require_own_pid_namespace() -> None:
    """Destructive attacks run only where they can do no harm: should the sandbox ever
    fail open, the bot reports that as an escape instead of signalling the host."""
    try:
        with open("/proc/1/cmdline", "rb") as file:
            init = file.read()
    except OSError:
        init = b""
    if os.getpid() > 50 or b"bwrap" not in init:
        escaped(f"not in a PID namespace of its own (pid {os.getpid()})")


def attack_signal() -> None:
    """Try to kill every process it can reach: other bots, the runner, the server."""
    require_own_pid_namespace()
    me = os.getpid()
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)
    for pid in range(2, 4096):
        if pid != me:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)


def attack_leftover() -> None:
    """Leave a daemon behind (double fork, new session) that would sleep for minutes."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            mark = os.environ["LEFTOVER_MARK"]
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", mark])
        os._exit(0)
    os.wait()


def attack_forkbomb() -> None:
    require_own_pid_namespace()
    children = 0
    while True:
        pid = os.fork()  # raises BlockingIOError once the process limit is reached
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        children += 1
        if children > 100_000:
            escaped("forked 100000 processes")


def attack_memory() -> None:
    block = bytearray(4 * 1024**3)  # 4 GiB
    escaped(f"allocated {len(block)} bytes")


def attack_memfd() -> None:
    """Memory the address-space limit does not see: memfd files, never mapped, of
    40 MB each (under the file-size limit), up to 2 GB. Only a memory cgroup
    counts them, and it kills the bot."""
    files = []
    for held in range(1, 51):
        fd = os.memfd_create(f"probe-{held}")
        files.append(fd)
        for _ in range(40):
            os.write(fd, bytes(1 << 20))
    escaped(f"held {40 * len(files)} MB in memfd files")


def attack_cpu() -> None:
    started = time.monotonic()
    while time.monotonic() - started < 120:
        pass
    escaped("spun the CPU for two minutes")


def attack_output() -> None:
    line = b"x" * 1023 + b"\n"
    for _ in range(50 * 1024):  # 50 MB to each stream
        sys.stdout.buffer.write(line)
        sys.stderr.buffer.write(line)
    escaped("printed 100 MB")


FLOOD_TRIES = 200  # within the default open file limit of 256
HOLD_SECONDS = 4.0
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def attack_connections() -> list[socket.socket]:
    """Open as many HTTP/2 connections to the server's socket as this bot's file
    limit allows, and see that the server closes those past its cap (a few
    dozen a socket). The caller holds the rest while other bots join."""
    path = os.environ["SHEEPFOLD_SERVER"].removeprefix("unix:")
    held = []
    refused = 0
    for _ in range(FLOOD_TRIES):
        connection = socket.socket(socket.AF_UNIX)
        try:
            connection.connect(path)
            connection.sendall(PREFACE)
        except OSError:  # closed by the server already
            connection.close()
            refused += 1
        else:
            held.append(connection)
    time.sleep(1.0)
    kept = [connection for connection in held if not _closed_by_peer(connection)]
    if not refused and len(kept) == len(held):
        escaped(f"the server took all {len(held)} connections from one bot")
    return kept


def _closed_by_peer(connection: socket.socket) -> bool:
    connection.setblocking(False)
    try:
        while connection.recv(65536):
            pass
    except BlockingIOError:
        return False
    except OSError:
        pass
    connection.close()
    return True


PROBES = {
    "network": probe_network,
    "database": probe_database,
    "write": probe_write,
    "proc": probe_proc,
    "env": probe_env,
    "shm": probe_shm,
    "kernel": probe_kernel,
    "keyring": probe_keyring,
    "devices": probe_devices,
    "procfs": probe_procfs,
    "watches": probe_watches,
    "aio": probe_aio,
    "inodes": probe_inodes,
    "signal": attack_signal,
    "leftover": attack_leftover,
}
ATTACKS = {
    "forkbomb": attack_forkbomb,
    "memory": attack_memory,
    "memfd": attack_memfd,
    "cpu": attack_cpu,
    "output": attack_output,
}


def play(wait_for_ready: bool = True) -> int:
    """Play the seat with random legal actions, like examples/command-bot;
    without `wait_for_ready`, a server that refuses the connection is a crash."""
    import queue
    import random

    import grpc
    from sheepfold.v1 import arena_pb2, arena_pb2_grpc

    rng = random.Random(int(os.environ.get("SHEEPFOLD_SEED", "0")))
    join = arena_pb2.Join(
        match_id=os.environ["SHEEPFOLD_MATCH"], token=os.environ["SHEEPFOLD_TOKEN"]
    )
    outbox: queue.SimpleQueue = queue.SimpleQueue()
    outbox.put(arena_pb2.PlayRequest(join=join))

    def requests():
        while (message := outbox.get()) is not None:
            yield message

    with grpc.insecure_channel(os.environ["SHEEPFOLD_SERVER"]) as channel:
        for response in arena_pb2_grpc.ArenaStub(channel).Play(
            requests(), wait_for_ready=wait_for_ready
        ):
            kind = response.WhichOneof("kind")
            if kind == "decision":
                choice = rng.randrange(len(response.decision.actions))
                answer = arena_pb2.Answer(
                    decision_id=response.decision.decision_id, action_index=choice
                )
                outbox.put(arena_pb2.PlayRequest(answer=answer))
            elif kind == "result":
                outbox.put(None)
                return 0
    return 1


def main() -> int:
    role = sys.argv[1]
    if role in ATTACKS:
        ATTACKS[role]()
        return 1
    if "--probe" in sys.argv:
        if role in ("signal", "leftover"):
            return 2  # never outside the sandbox
        PROBES[role]()
        return 0
    if role == "impatient":  # an honest bot that does not retry its connection
        return play(wait_for_ready=False)
    if role == "connections":
        held = attack_connections()
        time.sleep(HOLD_SECONDS)  # the other bots join meanwhile
        for connection in held[:4]:  # room for this bot's own channel
            connection.close()
        return play()
    PROBES[role]()
    return play()


if __name__ == "__main__":
    sys.exit(main())
