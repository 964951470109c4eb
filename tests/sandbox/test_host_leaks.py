"""What a sandboxed bot must not take from the host: its private keys, the
pseudo-terminals every container on the machine draws from, the organiser's
terminal, a way out past its network namespace, the sandbox's own first
process, which has none of its limits, and what the kernel holds for the whole
machine (secret memory, leases, folder watches, user-mode faults, its log, BPF
maps, the key store, the /proc files only root may read)."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

from clients.bot_limits import Limits
from clients.launch.sandbox import SandboxPolicy, is_inside, seen_by_every_bot
from tests.conftest import ROOT
from tests.sandbox.sandboxed import run_in_sandbox as _run


def test_no_bot_sees_the_hosts_private_keys(tmp_path: Path, sandbox_ready: None) -> None:
    """/etc/ssl was bound whole for its certificates, and with it /etc/ssl/private,
    where Debian keeps TLS private keys (the server's `--tls-key` among them):
    mode 0710 root:ssl-cert, so a bot run as root (mapped to the host's root),
    or by a user in the group ssl-cert (whose groups it keeps), read them."""
    assert not any(is_inside("/etc/ssl/private", path) for path in seen_by_every_bot())
    said = _run(
        tmp_path,
        "/bin/sh",
        "-c",
        "test ! -e /etc/ssl/private || { echo 'sees /etc/ssl/private' >&2; exit 3; }",
    )
    assert said == "ok", said
    if os.path.isdir("/etc/ssl/certs"):  # what TLS needs is still there
        assert _run(tmp_path, "/bin/sh", "-c", "test -d /etc/ssl/certs") == "ok"


PTY_HOG = """
import os, sys
try:
    fd = os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)
except OSError as error:
    print("refused:", error, file=sys.stderr)
else:
    print("opened a pseudo-terminal", file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_takes_the_machines_pseudo_terminals(tmp_path: Path, sandbox_ready: None) -> None:
    """bwrap's /dev has a devpts of its own, with no cap: its terminals come out of
    the kernel's count for the whole machine (kernel.pty.max, 4,096, less 1,024
    kept for the host's own /dev/pts). One bot, its processes opening /dev/ptmx
    up to their file limits, held all 3,072 while it played: every container on
    the host (`docker exec -it`, Sheepfold's own image included) and every other
    sandbox got ENOSPC for a terminal. A bot needs none."""
    said = _run(tmp_path, sys.executable, "-c", PTY_HOG)
    assert said == "ok", said


# Looks for a terminal: its controlling one (/dev/tty), and its standard
# descriptors; on one it finds, tries to type into it (TIOCSTI).
TERMINAL = """
import fcntl, os, sys, termios
found = []
try:
    found.append(("/dev/tty", os.open("/dev/tty", os.O_RDWR)))
except OSError:
    pass
found += [(f"descriptor {fd}", fd) for fd in (0, 1, 2) if os.isatty(fd)]
for name, fd in found:
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b" ")
        print(f"typed into {name}", file=sys.stderr)
    except OSError:
        print(f"reached the terminal {name}", file=sys.stderr)
sys.exit(3 if found else 0)
"""

# The runner, in a pseudo-terminal of its own (its controlling terminal and its
# standard descriptors), as an organiser typing `sheepfold match` runs it: the
# probe above unsandboxed and then sandboxed, the last line what each said.
RUNNER_IN_A_TERMINAL = """
import os, subprocess, sys
from pathlib import Path
from tests.sandbox.test_host_leaks import TERMINAL, _run
os.close(os.open("/dev/tty", os.O_RDWR))  # the runner does have one
outside = subprocess.run([sys.executable, "-c", TERMINAL], capture_output=True, text=True)
said = _run(Path(sys.argv[1]), sys.executable, "-c", TERMINAL)
print(f"outside: {outside.returncode} {outside.stderr.strip()!r} sandboxed: {said!r}")
"""


def test_no_bot_reaches_the_organisers_terminal(tmp_path: Path, sandbox_ready: None) -> None:
    """An organiser runs `sheepfold match` or a tournament from a terminal. A
    bot that reached it could read what the organiser types (a password
    asked for by sudo in the same terminal) or, with TIOCSTI where
    dev.tty.legacy_tiocsti is 1, type commands into the organiser's shell.
    A program the runner starts as it starts bots, outside the sandbox,
    opens that terminal; a bot finds none: its stdin is /dev/null, its
    output pipes, and it starts in a session of its own (twice: the runner's
    and bwrap's --new-session), with no controlling terminal."""
    import pty

    pid, terminal = pty.fork()
    if pid == 0:  # the runner, the terminal's session leader
        try:
            os.chdir(ROOT)
            os.execv(sys.executable, [sys.executable, "-c", RUNNER_IN_A_TERMINAL, str(tmp_path)])
        finally:
            os._exit(127)
    output = b""
    try:
        while chunk := os.read(terminal, 65536):
            output += chunk
    except OSError:  # EIO: the runner has ended
        pass
    finally:
        os.close(terminal)
    _, status = os.waitpid(pid, 0)
    # The last line, after the spaces the probe outside typed, which the terminal echoes.
    lines = output.decode(errors="replace").splitlines()
    assert os.waitstatus_to_exitcode(status) == 0 and lines, output
    said = lines[-1].strip()
    assert said.startswith("outside: 3 '") and " /dev/tty" in said, said  # the probe works
    assert said.endswith("sandboxed: 'ok'"), said


VSOCK = """
import errno, socket, sys
try:
    socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM)
except OSError as error:
    sys.exit(0 if error.errno == errno.EPERM else 3)
print("made a vsock socket", file=sys.stderr)
sys.exit(3)
"""


def test_no_bot_makes_a_vsock_socket(tmp_path: Path, sandbox_ready: None) -> None:
    """AF_VSOCK belongs to no network namespace: a bot on a VM reached its
    hypervisor through it. The seccomp filter refuses it (EPERM)."""
    said = _run(tmp_path, sys.executable, "-c", VSOCK)
    assert said == "ok", said


ABSTRACT_SOCKET = """
import socket, sys
reached = socket.socket(socket.AF_UNIX)
try:
    reached.connect(b"\\0" + sys.argv[1].encode())
except OSError:
    sys.exit(0)
print("connected to the host's abstract socket", sys.argv[1], file=sys.stderr)
sys.exit(3)
"""


def test_no_bot_reaches_the_hosts_abstract_sockets(tmp_path: Path, sandbox_ready: None) -> None:
    """Abstract Unix sockets have no file, so no view of the file system hides
    them: they belong to a network namespace. X11's (@/tmp/.X11-unix/X0),
    D-Bus's and containerd-shim's listen there, and a process that reaches them
    reaches whatever they serve, as the runner's user. The bot's network
    namespace holds none of the host's: it cannot connect to one the host
    listens on, which the same program outside the sandbox does."""
    name = f"sheepfold-test-{os.getpid()}-{tmp_path.name}"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(b"\0" + name.encode())
    listener.listen()
    try:
        outside = subprocess.run(
            [sys.executable, "-c", ABSTRACT_SOCKET, name], capture_output=True, timeout=60
        )
        assert outside.returncode == 3, outside.stderr  # the probe does notice one
        said = _run(tmp_path, sys.executable, "-c", ABSTRACT_SOCKET, name)
    finally:
        listener.close()
    assert said == "ok", said


# IORING_OP_SOCKET makes a socket inside the kernel, with no socket() call for a
# seccomp filter to see: the vsock family through io_uring, where it is offered.
VSOCK_THROUGH_IO_URING = """
import ctypes, errno, mmap, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
params = ctypes.create_string_buffer(120)  # struct io_uring_params
ring = libc.syscall(425, 4, params)  # io_uring_setup
if ring < 0:
    sys.exit(0 if ctypes.get_errno() == errno.EPERM else 4)
entries, completions = struct.unpack_from("II", params.raw, 0)
sq_head, sq_tail, sq_mask, _, _, _, sq_array, _ = struct.unpack_from("8I", params.raw, 40)
cq_head, cq_tail, cq_mask, _, _, cqes, _, _ = struct.unpack_from("8I", params.raw, 80)
shared = mmap.MAP_SHARED
both = mmap.PROT_READ | mmap.PROT_WRITE
sq = mmap.mmap(ring, sq_array + entries * 4, shared, both, offset=0)
cq = mmap.mmap(ring, cqes + completions * 16, shared, both, offset=0x8000000)
sqes = mmap.mmap(ring, entries * 64, shared, both, offset=0x10000000)
sqes[0:24] = struct.pack("<BBHiQQ", 45, 0, 0, 40, 1, 0)  # IORING_OP_SOCKET, AF_VSOCK, STREAM
tail = struct.unpack_from("I", sq, sq_tail)[0]
struct.pack_into("I", sq, sq_array + (tail & sq_mask) * 4, 0)
struct.pack_into("I", sq, sq_tail, tail + 1)
libc.syscall(426, ring, 1, 1, 1, None, 0)  # io_uring_enter, waiting for it
head = struct.unpack_from("I", cq, cq_head)[0]
_, made, _ = struct.unpack_from("<QiI", cq, cqes + (head & cq_mask) * 16)
if made >= 0:
    print("io_uring made a vsock socket", file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_makes_a_vsock_socket_through_io_uring(tmp_path: Path, sandbox_ready: None) -> None:
    """io_uring makes sockets (and connects them) in the kernel, where no seccomp
    filter sees the family: a bot made a vsock socket so after socket() refused
    it. io_uring is refused (EPERM), as Docker's default profile does; runtimes
    that use it (libuv) fall back to threads."""
    said = _run(tmp_path, sys.executable, "-c", VSOCK_THROUGH_IO_URING)
    assert said == "ok", said


TRACE_INIT = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
if libc.ptrace(16, 1, None, None) == 0:  # PTRACE_ATTACH
    os.waitpid(1, 0x40000000)  # __WALL
    libc.ptrace(17, 1, None, None)  # PTRACE_DETACH
    print("attached to pid 1, limits:", open("/proc/1/limits").read(), file=sys.stderr)
    sys.exit(3)
sys.exit(0 if ctypes.get_errno() == 1 else 4)  # EPERM
"""


def test_no_bot_takes_over_the_sandboxs_first_process(tmp_path: Path, sandbox_ready: None) -> None:
    """bwrap's own process, pid 1 of the sandbox, runs without the bot's limits
    (prlimit sets them on the bot alone) and as the bot's user. A bot attached
    to it with ptrace, made it exec a program of its own, and that program
    allocated 3 GB under `memory_mb = 256` as an ordinary user (no memory
    cgroup), with the runner's own process and CPU limits. ptrace and
    process_vm_writev are refused (EPERM)."""
    said = _run(tmp_path, sys.executable, "-c", TRACE_INIT)
    assert said == "ok", said


# pid 1's memory written through /proc, with no ptrace call: the kernel lets a
# process of the same user open /proc/PID/mem for writing and write anywhere in
# it, its code included.
WRITE_INIT_MEMORY = """
import errno, os, sys
try:
    fd = os.open("/proc/1/mem", os.O_RDWR)
except OSError as error:
    sys.exit(0 if error.errno == errno.EROFS else 4)
with open("/proc/1/maps") as maps:
    start = next(int(line.split("-")[0], 16) for line in maps if " rw" in line)
wrote = os.pwrite(fd, os.pread(fd, 1, start), start)
print(f"wrote {wrote} byte into pid 1's memory at {start:#x}", file=sys.stderr)
sys.exit(3)
"""


def test_no_bot_writes_the_sandboxs_first_process_through_proc(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """The seccomp filter refuses ptrace, but /proc/1/mem is the same power
    without it: with the sandbox's /proc writable, a bot opened bwrap's pid 1's
    memory for writing and wrote into it (it could have rewritten its code, as
    the ptrace attack did, to run a program without the bot's limits). The
    sandbox's /proc is read-only: EROFS."""
    said = _run(tmp_path, sys.executable, "-c", WRITE_INIT_MEMORY)
    assert said == "ok", said


# A dnotify watch on the Python's own library folder, which every sandbox sees,
# signalled by any process of the machine reading a file there.
WATCH_SHARED_FOLDER = """
import errno, fcntl, os, signal, sys
folder = os.path.dirname(os.__file__)
signalled = []
signal.signal(signal.SIGIO, lambda *_: signalled.append(1))
watched = os.open(folder, os.O_RDONLY)
try:
    fcntl.fcntl(watched, fcntl.F_NOTIFY, fcntl.DN_ACCESS | fcntl.DN_MULTISHOT)
except OSError as error:
    sys.exit(0 if error.errno == errno.EPERM else 4)
with open(os.path.join(folder, "os.py"), "rb") as file:
    file.read(1)
print(f"watching {folder}, signalled {len(signalled)} time(s) by a read", file=sys.stderr)
sys.exit(3)
"""


def test_no_bot_watches_the_folders_every_sandbox_sees(tmp_path: Path, sandbox_ready: None) -> None:
    """fcntl(F_NOTIFY) (dnotify) watches a folder with no inotify instance: a
    bot watching the Python library folder every sandbox sees was signalled
    each time any process of the machine read a file there (another bot
    starting, the runner importing a module). The seccomp filter refuses it
    (EPERM), as it does inotify and fanotify."""
    said = _run(tmp_path, sys.executable, "-c", WATCH_SHARED_FOLDER)
    assert said == "ok", said


# Secret memory mapped 8 MB at a time (within the locked-memory limit), let go
# of and kept in its files: far past every limit of the sandbox.
HOLD_SECRET_MEMORY = """
import ctypes, errno, mmap, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
size, held = 8 << 20, []
for _ in range(16):
    fd = libc.syscall(ctypes.c_long(447), ctypes.c_long(0))  # memfd_secret
    if fd < 0:
        sys.exit(0 if ctypes.get_errno() in (errno.EPERM, errno.ENOSYS) else 4)
    os.ftruncate(fd, size)
    with mmap.mmap(fd, size) as memory:
        memory[:] = bytes(size)
    held.append(fd)
print(f"held {8 * len(held)} MB of unevictable secret memory", file=sys.stderr)
sys.exit(3)
"""


def test_no_bot_holds_secret_memory(tmp_path: Path, sandbox_ready: None) -> None:
    """memfd_secret's pages cannot be swapped out and split the kernel's own map
    of memory; the address-space and locked-memory limits count them only
    while mapped. A bot with `memory_mb = 64` held 128 MB so (16 files of
    8 MB, each mapped in turn), and a process can hold as many files as it
    may open. The seccomp filter refuses the call (EPERM)."""
    policy = SandboxPolicy(limits=Limits(memory_mb=64))
    said = _run(tmp_path, sys.executable, "-c", HOLD_SECRET_MEMORY, policy=policy)
    assert said == "ok", said


# A read lease on a file of the bot's folder, which the organiser owns: whoever
# opens it for writing then waits for the bot, up to fs.lease-break-time.
LEASE_SHARED_FILE = """
import errno, fcntl, os, sys
leased = os.open("shared.txt", os.O_RDONLY)
try:
    fcntl.fcntl(leased, fcntl.F_SETLEASE, fcntl.F_RDLCK)
except OSError as error:
    sys.exit(0 if error.errno == errno.EPERM else 4)
print("took a lease on shared.txt", file=sys.stderr)
sys.exit(3)
"""


def test_no_bot_takes_a_lease_on_what_it_sees(tmp_path: Path, sandbox_ready: None) -> None:
    """A lease stalls any process of the machine opening its file for writing,
    up to fs.lease-break-time (45 s), and a bot may take one on any file it
    sees that its user owns (root's, for a runner started as root): saving a
    file of Sheepfold's own packages waited on a bot so. The seccomp filter
    refuses fcntl(F_SETLEASE) (EPERM)."""
    (tmp_path / "shared.txt").write_text("the organiser's\n")
    said = _run(tmp_path, sys.executable, "-c", LEASE_SHARED_FILE)
    assert said == "ok", said


# userfaultfd, for faults in user mode only (all vm.unprivileged_userfaultfd = 0
# allows without CAP_SYS_PTRACE) and for every fault.
USERFAULTFD = """
import ctypes, errno, os, platform, sys
number = {"x86_64": 323, "aarch64": 282}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for flags in (os.O_CLOEXEC | 1, os.O_CLOEXEC):  # 1: UFFD_USER_MODE_ONLY
    fd = libc.syscall(ctypes.c_long(number), ctypes.c_long(flags))
    if fd >= 0:
        print(f"userfaultfd gave descriptor {fd} (flags {flags:#x})", file=sys.stderr)
        sys.exit(3)
    if ctypes.get_errno() != errno.EPERM:
        sys.exit(4)
"""


def test_no_bot_makes_a_userfaultfd(tmp_path: Path, sandbox_ready: None) -> None:
    """userfaultfd lets a process pause the kernel where it copies from or to its
    memory, for as long as it likes: with vm.unprivileged_userfaultfd = 1 (the
    default before Linux 5.11) a bot could pause its own write to its stdout
    pipe holding the pipe's lock, and the runner's next read of it, in its
    event loop, would wait for ever. The seccomp filter refuses it (EPERM), as
    Docker's default profile does."""
    said = _run(tmp_path, sys.executable, "-c", USERFAULTFD)
    assert said == "ok", said


KERNEL_LOG = """
import ctypes, errno, platform, sys
number = {"x86_64": 103, "aarch64": 116}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
log = ctypes.create_string_buffer(1 << 16)
read = libc.syscall(ctypes.c_long(number), ctypes.c_long(3), log, ctypes.c_long(1 << 16))
if read >= 0:  # SYSLOG_ACTION_READ_ALL
    print(f"read {read} bytes of the host's kernel log:", log.raw[:80], file=sys.stderr)
    sys.exit(3)
sys.exit(0 if ctypes.get_errno() == errno.EPERM else 4)
"""


def test_no_bot_reads_the_hosts_kernel_log(tmp_path: Path, sandbox_ready: None) -> None:
    """The kernel's log belongs to no namespace: where kernel.dmesg_restrict is
    0 (a kernel built without CONFIG_SECURITY_DMESG_RESTRICT), syslog(2) gave
    any bot the host's whole log: every other program's and container's
    messages, the OOM killer's reports naming the processes it weighed, the
    host's devices and addresses. The seccomp filter refuses it (EPERM), as
    Docker's default profile does. (Where dmesg_restrict is 1 the kernel
    refuses a bot by itself; tests/clients/test_seccomp_filter.py checks the
    filter there.)"""
    said = _run(tmp_path, sys.executable, "-c", KERNEL_LOG)
    assert said == "ok", said


BPF_MAP = """
import ctypes, errno, os, platform, struct, sys
number = {"x86_64": 321, "aarch64": 280}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
attr = ctypes.create_string_buffer(struct.pack("IIII", 2, 4, 1 << 20, 16), 128)  # 16 MB
made = libc.syscall(ctypes.c_long(number), ctypes.c_long(0), attr, ctypes.c_long(128))
if made >= 0:  # BPF_MAP_CREATE, of an array
    print("made a BPF map of 16 MB", file=sys.stderr)
    sys.exit(3)
sys.exit(0 if ctypes.get_errno() == errno.EPERM else 4)
"""


def test_no_bot_makes_a_bpf_map(tmp_path: Path, sandbox_ready: None) -> None:
    """Where kernel.unprivileged_bpf_disabled is 0 (the default before Linux
    5.16), any process makes BPF maps: kernel memory the address-space limit
    does not see (a map of 256 MB under a limit of 200 MB), which nothing
    counts for an ordinary user's bot; and loads programs through the
    verifier, where many of the kernel's privilege escalations were found.
    The seccomp filter refuses `bpf` (EPERM), as Docker's default profile
    does. (Where the setting is 1 or 2 the kernel refuses a bot by itself;
    tests/clients/test_seccomp_filter.py checks the filter there.)"""
    said = _run(tmp_path, sys.executable, "-c", BPF_MAP)
    assert said == "ok", said


KEY_LISTS = """
import sys
for path in ("/proc/keys", "/proc/key-users"):
    try:
        with open(path) as file:
            listed = file.read()
    except OSError:
        continue
    if listed:
        print(f"{path} lists:", listed.splitlines()[0], file=sys.stderr)
        sys.exit(3)
"""


def test_no_bot_lists_the_hosts_keys(tmp_path: Path, sandbox_ready: None) -> None:
    """The kernel's key store belongs to no namespace. The seccomp filter refuses
    its calls, but /proc/keys still listed every key of the host user the bot
    runs as (the host's root, for a runner started as root): serial, owner and
    description, which for a Kerberos ticket cache names its principal; and
    /proc/key-users how many keys each user of the machine holds. Both are
    hidden."""
    said = _run(tmp_path, sys.executable, "-c", KEY_LISTS)
    assert said == "ok", said


ROOTS_OWN_PROC_FILES = """
import sys
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as file:
            read = file.read(4096)
    except OSError:
        continue
    if read:
        print(f"read {len(read)} bytes of {path}", file=sys.stderr)
        sys.exit(3)
"""


def test_no_bot_reads_the_proc_files_only_root_may_read(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """A sandbox's /proc is its own, but its files outside any process are the
    whole machine's. Those only root may read (mode 0400: kpageflags and
    kpagecount, the flags and users of every physical page of the host;
    timer_list, slabinfo, vmallocinfo, pagetypeinfo) were read by a bot run as
    root, which is root on the host without capabilities: a side channel on
    every other program's memory and timers. Each is hidden under an empty file."""
    hidden = [
        f"/proc/{name}"
        for name in os.listdir("/proc")
        if not name.isdigit() and _only_root_reads(f"/proc/{name}")
    ]
    assert "/proc/kpageflags" in hidden or not os.path.exists("/proc/kpageflags"), hidden
    said = _run(tmp_path, sys.executable, "-c", ROOTS_OWN_PROC_FILES, *hidden)
    assert said == "ok", said


def _only_root_reads(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and stat.S_IMODE(mode) & 0o444 == 0o400
