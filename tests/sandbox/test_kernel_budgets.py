"""What the kernel counts per user of the host, through every namespace: a
sandboxed bot runs as the runner's user (the host's root, for a runner started
as root), so whatever it takes of such a count the host's own programs of that
user no longer get while it plays; and memory the kernel holds for a bot that
no memory cgroup counts."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from clients.bot_limits import LOCKED_BYTES, PENDING_SIGNALS, Limits
from clients.launch.cgroup import find_hierarchies
from clients.launch.sandbox import SandboxPolicy
from tests.sandbox.test_host_leaks import _run

# Queues realtime signals to itself (blocked, so they stay pending) until the
# kernel refuses one, but never more than 4,000: enough to tell a cap of the
# sandbox's own from the host user's whole count (tens of thousands), without
# taking that count from the host's programs while the test runs.
SIGNAL_HOG = """
import ctypes, signal, os, sys
libc = ctypes.CDLL(None, use_errno=True)
class sigval(ctypes.Union):
    _fields_ = [("sival_int", ctypes.c_int), ("sival_ptr", ctypes.c_void_p)]
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN])
queued = 0
while queued < 4000 and libc.sigqueue(os.getpid(), signal.SIGRTMIN, sigval(0)) == 0:
    queued += 1
if queued > int(sys.argv[1]):
    print(f"queued {queued} signals", file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_takes_the_hosts_pending_signals(tmp_path: Path, sandbox_ready: None) -> None:
    """Queued signals are counted per user of the host, every namespace of it
    together, against RLIMIT_SIGPENDING (about 96,000 on a machine of 24 GB).
    A bot blocking a realtime signal and queueing it to itself took them all
    while it played: every other process of its user (the host's root, for a
    runner started as root) got EAGAIN from timer_create and sigqueue until
    its game ended. A bot may hold PENDING_SIGNALS, all its processes together."""
    said = _run(tmp_path, sys.executable, "-c", SIGNAL_HOG, str(PENDING_SIGNALS))
    assert said == "ok", said


MESSAGE_QUEUE = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
queue = libc.mq_open(b"/sheepfold-probe", os.O_CREAT | os.O_RDWR, 0o600, None)
if queue >= 0:
    print("opened a POSIX message queue", file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_takes_the_hosts_message_queue_bytes(tmp_path: Path, sandbox_ready: None) -> None:
    """POSIX message queues are counted in bytes per user of the host, every
    namespace of it together (RLIMIT_MSGQUEUE, 800 KB by default). A bot that
    opened queues until refused (74 of them) left none to its user on the
    host: the host's root, for a runner started as root, got EMFILE from
    mq_open while it played. Any share of them for each bot would let a few
    bots playing at once do the same: a bot opens none."""
    said = _run(tmp_path, sys.executable, "-c", MESSAGE_QUEUE)
    assert said == "ok", said


# Locks 1 MiB of its memory in RAM, then a System V segment of 1 MiB.
LOCKED_MEMORY = """
import ctypes, mmap, sys
libc = ctypes.CDLL(None, use_errno=True)
size = 1 << 20
area = mmap.mmap(-1, size)
address = ctypes.addressof(ctypes.c_char.from_buffer(area))
if libc.mlock(ctypes.c_void_p(address), ctypes.c_size_t(size)) == 0:
    print("locked 1 MiB with mlock", file=sys.stderr)
    sys.exit(3)
segment = libc.shmget(0, ctypes.c_size_t(size), 0o1600)  # IPC_PRIVATE, IPC_CREAT
if segment < 0:
    sys.exit(4)
if libc.shmctl(segment, 11, None) == 0:  # SHM_LOCK
    print("locked 1 MiB with SHM_LOCK", file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_locks_more_than_a_little_memory_in_ram(tmp_path: Path, sandbox_ready: None) -> None:
    """Locked memory can never be swapped out, and a System V segment locked
    with SHM_LOCK stays locked once detached, counted against no process. A
    bot inherited the runner's RLIMIT_MEMLOCK (8 MB here, unlimited in some
    containers), in each of its processes: a bot may lock LOCKED_BYTES."""
    assert LOCKED_BYTES < 1 << 20
    said = _run(tmp_path, sys.executable, "-c", LOCKED_MEMORY)
    assert said == "ok", said


# A software counter (the task's CPU clock) of the bot's own process, user mode
# only: what perf_event_paranoid = 2, the usual default, lets anyone open.
PERF_EVENT = """
import ctypes, errno, platform, struct, sys
number = {"x86_64": 298, "aarch64": 241}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
attr = ctypes.create_string_buffer(128)  # struct perf_event_attr
struct.pack_into("IIQ", attr, 0, 1, 128, 1)  # PERF_TYPE_SOFTWARE, its size, TASK_CLOCK
struct.pack_into("Q", attr, 40, 1 << 5 | 1 << 6)  # exclude_kernel, exclude_hv
own, any_cpu, no_group = ctypes.c_long(0), ctypes.c_long(-1), ctypes.c_long(-1)
fd = libc.syscall(ctypes.c_long(number), attr, own, any_cpu, no_group, ctypes.c_long(0))
if fd >= 0:
    print(f"perf_event_open gave descriptor {fd}", file=sys.stderr)
    sys.exit(3)
sys.exit(0 if ctypes.get_errno() == errno.EPERM else 4)
"""


def test_no_bot_opens_a_perf_event(tmp_path: Path, sandbox_ready: None) -> None:
    """A perf event's ring buffer is kernel memory that no memory cgroup
    counts, up to RLIMIT_MEMLOCK (8 MB) in each process: a bot of
    `memory_mb = 64` (a cgroup of 192 MB) held 440 MB of them in 55 processes,
    its cgroup showing 42 MB, and a bot allowed more processes holds more. Its
    code is also a large part of the kernel a bot has no need of, and Docker's
    default profile refuses it. The seccomp filter refuses it (EPERM)."""
    said = _run(tmp_path, sys.executable, "-c", PERF_EVENT)
    assert said == "ok", said


# A classic BPF program of one instruction (accept the whole packet), attached
# to a Unix socket (SO_ATTACH_FILTER) and to a loopback UDP socket's reuseport
# group (SO_ATTACH_REUSEPORT_CBPF): what the kernel compiles to machine code
# and counts against net.core.bpf_jit_limit.
SOCKET_FILTER = """
import ctypes, errno, socket, struct, sys
SO_ATTACH_FILTER, SO_ATTACH_REUSEPORT_CBPF = 26, 51
code = ctypes.create_string_buffer(struct.pack("HBBI", 0x06, 0, 0, 0xFFFF))  # ret 65535
program = struct.pack("HL", 1, ctypes.addressof(code))  # struct sock_fprog
unix, _ = socket.socketpair()
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
udp.bind(("127.0.0.1", 0))
for name, sock, option in (("SO_ATTACH_FILTER", unix, SO_ATTACH_FILTER),
                           ("SO_ATTACH_REUSEPORT_CBPF", udp, SO_ATTACH_REUSEPORT_CBPF)):
    try:
        sock.setsockopt(socket.SOL_SOCKET, option, program)
    except OSError as error:
        if error.errno != errno.EPERM:
            sys.exit(4)
    else:
        print(f"attached a socket filter with {name}", file=sys.stderr)
        sys.exit(3)
"""


def test_no_bot_takes_the_machines_bpf_compiler_budget(tmp_path: Path, sandbox_ready: None) -> None:
    """A classic BPF socket filter is compiled to machine code, and that code
    counts against one budget for the whole machine, every user and namespace
    together (net.core.bpf_jit_limit, 504 MiB here); past it the kernel
    compiles nothing more for a process without CAP_BPF, and a kernel built
    with CONFIG_BPF_JIT_ALWAYS_ON (most distributions') then refuses the
    program outright (ENOTSUPP). A bot of `memory_mb = 2048`, its 56
    processes each attaching filters of 1,000 instructions (about 50 KB of
    code each), then smaller ones, to every socket its open file limit
    allowed, took the whole budget: while it held it, every sandbox started
    after it failed, bwrap's seccomp filter refused, and so would any other
    program's socket or seccomp filter on the host (a container's, a
    browser's sandbox). No bot needs a socket filter: the seccomp filter
    refuses attaching one (EPERM)."""
    said = _run(tmp_path, sys.executable, "-c", SOCKET_FILTER)
    assert said == "ok", said


# The bot's core dump limit, then its soft limit lowered to 0, through libc's
# setrlimit (prlimit64, or setrlimit, as the libc calls it).
CORE_LIMIT = """
import ctypes, errno, resource, sys
limit = resource.getrlimit(resource.RLIMIT_CORE)
if limit != (1, 1):
    print(f"core dump limit {limit}", file=sys.stderr)
    sys.exit(3)
libc = ctypes.CDLL(None, use_errno=True)
lowered = (ctypes.c_ulong * 2)(0, 1)
if libc.setrlimit(resource.RLIMIT_CORE, lowered) == 0:
    print("lowered its core dump limit to 0", file=sys.stderr)
    sys.exit(3)
sys.exit(0 if ctypes.get_errno() == errno.EPERM else 4)
"""


def test_no_bot_has_the_host_run_its_core_dump_program(tmp_path: Path, sandbox_ready: None) -> None:
    """Where kernel.core_pattern is a pipe (`|/usr/share/apport/apport ...` on
    Ubuntu, systemd-coredump on Fedora and Arch), the kernel starts that
    program for every crash, as root in the host's own namespaces, outside
    every limit of the sandbox, and RLIMIT_CORE does not stop it: a limit of
    0 only goes to the program as an argument. A bot whose one process forked
    children that crashed had the host run its core program 449 times in 3
    s. The kernel skips a pipe for a process whose limit is 1 byte (and a
    core file too, shorter than a page): every bot has 1, and may not change
    it (the seccomp filter refuses setting RLIMIT_CORE; reading it is
    allowed), else it lowered it to 0 and the program ran again."""
    said = _run(tmp_path, sys.executable, "-c", CORE_LIMIT)
    assert said == "ok", said


# Huge pages three ways: a memfd file of them (never mapped), an anonymous
# mapping of them, and a System V segment of them; each call's errno, 0 when
# it gave one.
HUGE_PAGES = """
import ctypes, errno, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.mmap.restype = ctypes.c_void_p
MEMFD_CREATE = {"x86_64": 319, "aarch64": 279}[platform.machine()]
MFD_HUGETLB, MAP_HUGETLB, SHM_HUGETLB = 0x4, 0x40000, 0x800
def result(failed):
    return ctypes.get_errno() if failed else 0
seen = {
    "memfd_create": result(libc.syscall(ctypes.c_long(MEMFD_CREATE), b"huge",
                                        ctypes.c_long(MFD_HUGETLB)) < 0),
    "mmap": result(libc.mmap(None, ctypes.c_size_t(2 << 20), 3, 0x22 | MAP_HUGETLB, -1,
                             ctypes.c_long(0)) in (None, ctypes.c_void_p(-1).value)),
    "shmget": result(libc.shmget(0, ctypes.c_size_t(2 << 20), 0o1600 | SHM_HUGETLB) < 0),
}
given = [name for name, error in seen.items() if error != errno.EPERM]
if given:
    print("not refused:", seen, file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_takes_the_hosts_huge_pages(tmp_path: Path, sandbox_ready: None) -> None:
    """Huge pages come from a pool the host sets aside (vm.nr_hugepages, for a
    database or VMs), or past it from its memory (vm.nr_overcommit_hugepages),
    and no memory cgroup counts them (cgroup v1, and v2 unless mounted with
    memory_hugetlb_accounting). A bot took the host's whole pool (8 pages
    here) in a memfd file of huge pages it never mapped, so that its
    address-space limit did not count them either: up to its file-size limit
    a file, in as many files as it may open. A mapping of huge pages or a
    System V segment of them (which a bot run as root may make, root's group
    being the kernel's default hugetlb_shm_group) takes from the same pool.
    No bot needs huge pages: the seccomp filter refuses all three (EPERM)."""
    said = _run(tmp_path, sys.executable, "-c", HUGE_PAGES)
    assert said == "ok", said


# Loopback TCP connections the bot never reads, each written until it takes no
# more (about 4 MB each, net.ipv4.tcp_wmem's largest send buffer): 30 of them,
# up to about 120 MB, unless the kernel refuses the bot more first.
SOCKET_HOG = """
import socket, sys, time
listener = socket.create_server(("127.0.0.1", 0))
queued, held = 0, []
for _ in range(30):
    sender = socket.create_connection(listener.getsockname())
    held += [sender, listener.accept()[0]]
    sender.setblocking(False)
    refused = 0
    while refused < 10:
        try:
            queued += sender.send(bytes(65536))
            refused = 0
        except BlockingIOError:
            refused += 1
            time.sleep(0.005)
if queued > int(sys.argv[1]):
    print(f"queued {queued // 2**20} MB in its sockets", file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_fills_the_hosts_socket_memory(tmp_path: Path, sandbox_ready: None) -> None:
    """TCP and UDP buffers come out of one pool for the whole machine, every
    network namespace together (net.ipv4.tcp_mem: past its last figure, 9% of
    the memory, no socket on the host gets more). A cgroup v1 memory limit
    does not count them: a bot of `memory_mb = 64` held 120 MB in 30 loopback
    connections while its cgroup showed 7 MB, and a few hundred connections,
    within its open file and process limits, take the pool whole. As root a
    bot's memory cgroup caps them (cgroup v2 counts them as memory, v1 in a
    count of their own); an ordinary user's bots get no memory cgroup, and
    hold what they like (docs/operations.md)."""
    limits = Limits(memory_mb=64, tmp_mb=1)
    hierarchies = find_hierarchies() if os.geteuid() == 0 else None
    policy = SandboxPolicy(limits=limits)
    said = _run(
        tmp_path, sys.executable, "-c", SOCKET_HOG, str(limits.charged_bytes), policy=policy
    )
    if hierarchies is not None and hierarchies.memory is not None:
        assert said == "ok", said
    else:
        assert "in its sockets" in said, said


def test_the_kernel_kills_a_bot_before_anything_else_when_memory_runs_out(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """An ordinary user's bot has no memory cgroup, and memory it holds in
    memfd files, System V segments or socket buffers counts in no process's
    size: with the machine out of memory, the kernel's OOM killer, which
    chooses by that size, would take the largest process of the machine (the
    runner, its server, anything beside them) and leave the bot holding it
    all, small as it looks. Every sandboxed process starts with the
    highest oom_score_adj (1000), which it cannot lower: the killer takes
    bots first, and a killed bot's memory is freed with its sandbox."""
    said = _run(
        tmp_path,
        "/bin/sh",
        "-c",
        'read adj < /proc/self/oom_score_adj; [ "$adj" = 1000 ] || '
        '{ echo "oom_score_adj $adj" >&2; exit 3; }',
    )
    assert said == "ok", said


# A bot calling sync(), syncfs(), and fsync() and fdatasync() on a host file it
# may only read: each must return 0 (a program that calls them goes on), and
# must not run: a real one walks every filesystem of the host, or flushes its
# disk's cache, tens of microseconds or more, where a call the filter answers costs
# about what getppid() does. The fastest of 20 batches of each, so that a
# busy machine's pauses do not count.
SYNC_LOOP = """
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("/usr", os.O_RDONLY)  # a host filesystem, bound read-only
host_file = os.open(os.path.realpath(sys.executable), os.O_RDONLY)

def fastest(call):
    best = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        for _ in range(50):
            ctypes.set_errno(0)
            if call() != 0 or ctypes.get_errno() != 0:
                print("failed:", ctypes.get_errno(), file=sys.stderr)
                sys.exit(4)
        best = min(best, time.perf_counter() - start)
    return best

baseline = fastest(lambda: 0 * libc.getppid())
for name, call in (
    ("sync", lambda: libc.sync() or 0),
    ("syncfs", lambda: libc.syncfs(fd)),
    ("fsync", lambda: libc.fsync(host_file)),
    ("fdatasync", lambda: libc.fdatasync(host_file)),
):
    took = fastest(call)
    if took > 10 * baseline:
        print(f"{name} ran: {took / 50 * 1e6:.1f} us a call, getppid {baseline / 50 * 1e6:.1f} us",
              file=sys.stderr)
        sys.exit(3)
"""


def test_no_bot_makes_the_host_write_out_its_disks(tmp_path: Path, sandbox_ready: None) -> None:
    """sync() writes out every filesystem of the host, and syncfs() on a
    bound folder the host's own: a bot looping on either (13,000 calls a
    second here) wrote out every program's waiting data and flushed the host
    disk's write cache each time, which every other program's writes (the
    server's database's among them) share the disk with, and no limit
    counted it.
    fsync() and fdatasync() on a host file it may only read sent the host's
    disk a flush of its cache each (ext4). The seccomp filter makes all four
    return 0 without running, so a bot that calls them goes on and nothing is
    written out."""
    said = _run(tmp_path, sys.executable, "-c", SYNC_LOOP)
    assert said == "ok", said


# A child loads a seccomp filter (allow everything) with a listener, hands the
# listener's descriptor to its parent and ends: the parent then holds the
# filter, compiled to machine code, with no thread of its own running under it.
SECCOMP_LISTENER = """
import ctypes, errno, os, platform, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SECCOMP = {"x86_64": 317, "aarch64": 277}[platform.machine()]
code = ctypes.create_string_buffer(struct.pack("=HBBI", 0x06, 0, 0, 0x7FFF0000))
program = ctypes.create_string_buffer(struct.pack("=HxxxxxxQ", 1, ctypes.addressof(code)))
parent, child = socket.socketpair()
pid = os.fork()
if pid == 0:
    fd = libc.syscall(ctypes.c_long(SECCOMP), ctypes.c_long(1), ctypes.c_long(8), program)
    if fd < 0:
        os._exit(0 if ctypes.get_errno() == errno.EPERM else 4)
    socket.send_fds(child, [b"x"], [fd])
    os._exit(3)
_, status = os.waitpid(pid, 0)
if os.waitstatus_to_exitcode(status) == 3:
    _, fds, _, _ = socket.recv_fds(parent, 1, 1)
    print(f"holds a seccomp filter its thread has left: descriptor {fds}", file=sys.stderr)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_no_bot_keeps_seccomp_filters_past_their_threads(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """A seccomp filter is compiled to machine code counted against
    net.core.bpf_jit_limit (504 MiB here), the one budget for the whole
    machine that a socket's filter took (above). A thread's own filters end
    with it, and the kernel caps them at 32,768 instructions a thread; but one
    loaded with SECCOMP_FILTER_FLAG_NEW_LISTENER lives on as long as the
    listener's descriptor, which a child can hand to its parent before it
    ends. A bot so held 120 chains of 28,000 instructions in one process of
    the default limits (6 MB of the budget, and 24 MB of kernel memory no
    address-space limit counts) after every thread that loaded them had
    ended: `processes` times `open_files` of them reach the budget whole, and
    every sandbox started after it fails. The seccomp filter refuses the
    listener (EPERM); no bot supervises another's calls."""
    said = _run(tmp_path, sys.executable, "-c", SECCOMP_LISTENER)
    assert said == "ok", said
