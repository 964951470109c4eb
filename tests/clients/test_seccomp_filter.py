"""The sandbox's seccomp filter, loaded for real in a child process (no
bubblewrap needed): the key store's calls, new inotify and fanotify instances,
new AIO contexts, folder watches and leases, setting the core dump limit, huge
pages, tracing and io_uring, the kernel's log, BPF, secret memory and seccomp
listeners fail with EPERM, sync calls do nothing, everything else goes
through. Sockets are checked in test_seccomp_sockets.py, the ABIs no test can
call through in test_seccomp_abis.py; the sandbox tests check the same from
inside a real sandbox."""

from __future__ import annotations

import errno
import json
import platform

from clients.launch.seccomp import refused_calls
from tests.clients._seccomp_child import _filtered_child

# add_key, request_key and keyctl in each machine's native table (the kernel's
# arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h),
# written out again here so that a wrong number in the filter's table shows.
NATIVE_KEY_CALLS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}
# inotify_init1 and fanotify_init, likewise.
NATIVE_NOTIFY_CALLS = {"x86_64": (294, 300), "aarch64": (26, 262)}
# io_setup and io_destroy, likewise.
NATIVE_AIO_CALLS = {"x86_64": (206, 207), "aarch64": (0, 1)}

# Run in a child: a seccomp filter cannot be taken off a process once loaded.
_CHILD = r"""
libc.syscall.restype = ctypes.c_long

def call(number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *args)
    return result, ctypes.get_errno()

(add_key, request_key, keyctl), (inotify_init1, fanotify_init), (io_setup, io_destroy) = (
    json.loads(sys.argv[1])
)
KEY_SPEC_PROCESS_KEYRING = ctypes.c_long(-2)
KEYCTL_GET_KEYRING_ID = ctypes.c_long(0)
def key_calls():
    return {
        "add_key": call(add_key, b"user", b"sheepfold-test", b"x", ctypes.c_size_t(1),
                        KEY_SPEC_PROCESS_KEYRING)[1],
        "keyctl": call(keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING,
                       ctypes.c_long(0))[1],
        "request_key": call(request_key, b"user", b"sheepfold-none", None,
                            ctypes.c_long(0))[1],
    }

def notify_calls():
    # FAN_REPORT_FID: what fanotify allows without CAP_SYS_ADMIN (Linux 5.13+).
    found = {"inotify_init1": call(inotify_init1, ctypes.c_long(0)),
             "fanotify_init": call(fanotify_init, ctypes.c_long(0x200), ctypes.c_long(0))}
    for fd, _ in found.values():
        if fd >= 0:
            os.close(fd)
    return {name: error for name, (fd, error) in found.items()}

def aio_calls():
    context = ctypes.c_ulong(0)
    result, error = call(io_setup, ctypes.c_long(1), ctypes.byref(context))
    if result == 0:
        call(io_destroy, context)
    return {"io_setup": error}

before = {**key_calls(), **notify_calls(), **aio_calls()}
load_filter()
after = {**key_calls(), **notify_calls(), **aio_calls()}
print(json.dumps({"before": before, "after": after, "pid": os.getpid(), "cwd": os.getcwd()}))
"""


def test_the_key_store_file_watches_and_aio_are_refused_and_nothing_else() -> None:
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    machine = platform.machine()
    native = json.dumps(
        [NATIVE_KEY_CALLS[machine], NATIVE_NOTIFY_CALLS[machine], NATIVE_AIO_CALLS[machine]]
    )
    seen = _filtered_child(program, _CHILD, native)
    eperm = 1
    # Unfiltered the calls reach the key store (request_key finds no such key).
    assert seen["before"]["add_key"] == 0 and seen["before"]["keyctl"] == 0
    assert seen["before"]["request_key"] != eperm
    # ... and give inotify instances (fanotify ones only to root before Linux 5.13).
    assert seen["before"]["inotify_init1"] == 0
    # ... and AIO contexts (while fs.aio-max-nr has room for one).
    assert seen["before"]["io_setup"] in (0, errno.EAGAIN)
    assert seen["after"] == {
        "add_key": eperm,
        "keyctl": eperm,
        "request_key": eperm,
        "inotify_init1": eperm,
        "fanotify_init": eperm,
        "io_setup": eperm,
    }
    assert seen["pid"] > 0 and seen["cwd"]  # and the rest still works


# Run in a child, as above: fcntl's dnotify watch on a folder (through libc, and
# through the call itself with a high word the kernel drops from the command),
# and fcntl's other commands, before and after the filter; 0 or an errno.
_FCNTLS = r"""
import fcntl, platform, tempfile

libc.syscall.restype = ctypes.c_long
FCNTL = {"x86_64": 72, "aarch64": 25}[platform.machine()]
folder = os.open(tempfile.mkdtemp(), os.O_RDONLY)
file = tempfile.TemporaryFile()
mine = os.path.join(tempfile.mkdtemp(), "leased")
open(mine, "w").close()

def calls():
    found = {}
    def attempt(name, function):
        try:
            function()
            found[name] = 0
        except OSError as error:
            found[name] = error.errno
    attempt("F_NOTIFY", lambda: fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS))
    ctypes.set_errno(0)
    done = libc.syscall(ctypes.c_long(FCNTL), ctypes.c_long(folder),
                        ctypes.c_long((1 << 32) | fcntl.F_NOTIFY), ctypes.c_long(fcntl.DN_ACCESS))
    found["F_NOTIFY, high word set"] = 0 if done == 0 else ctypes.get_errno()
    # A file of the child's own, open nowhere for writing (a read lease needs both).
    leased = os.open(mine, os.O_RDONLY)
    attempt("F_SETLEASE", lambda: fcntl.fcntl(leased, fcntl.F_SETLEASE, fcntl.F_RDLCK))
    attempt("F_UNLCK lease", lambda: fcntl.fcntl(leased, fcntl.F_SETLEASE, fcntl.F_UNLCK))
    os.close(leased)
    attempt("F_GETFL", lambda: fcntl.fcntl(folder, fcntl.F_GETFL))
    attempt("F_SETLK", lambda: fcntl.lockf(file, fcntl.LOCK_EX | fcntl.LOCK_NB))
    return found

before = calls()
load_filter()
print(json.dumps({"before": before, "after": calls()}))
os.unlink(mine)
os.rmdir(os.path.dirname(mine))
os.rmdir(os.readlink(f"/proc/self/fd/{folder}"))
"""


def test_dnotify_and_leases_are_refused_and_the_other_fcntl_commands_are_not() -> None:
    """fcntl(F_NOTIFY) watches a folder: from inside a sandbox a bot was
    signalled each time any process of the machine read a file in the folders
    every sandbox sees, as inotify (refused) would. fcntl(F_SETLEASE) stalls
    whoever opens the file for writing, up to 45 s. The kernel drops the
    command's high word, and so does the filter's check. Locks, flags and the
    rest of fcntl still work (SQLite needs its locks)."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _FCNTLS)
    assert set(seen["before"].values()) == {0}, seen["before"]
    assert seen["after"] == {
        "F_NOTIFY": errno.EPERM,
        "F_NOTIFY, high word set": errno.EPERM,
        "F_SETLEASE": errno.EPERM,
        "F_UNLCK lease": errno.EPERM,
        "F_GETFL": 0,
        "F_SETLK": 0,
    }


# Run in a child, as above: the core dump limit read (getrlimit, prlimit64
# with no new limit) and set (setrlimit, and prlimit64 with the new limit at
# an address whose low word is 0), and the open file limit set, before and
# after the filter; 0 or an errno.
_LIMITS = r"""
import mmap, platform
libc.syscall.restype = ctypes.c_long
PRLIMIT64 = {"x86_64": 302, "aarch64": 261}[platform.machine()]
RLIMIT_NOFILE, RLIMIT_CORE = 7, 4
Limit = ctypes.c_ulong * 2
# A page at 8 GiB, where a pointer's low word is 0 and its high word is not.
libc.mmap.restype = ctypes.c_void_p
high = libc.mmap(ctypes.c_void_p(2 << 32), ctypes.c_size_t(4096), 3, 0x22 | 0x100000, -1,
                 ctypes.c_long(0))  # PROT_READ|WRITE, MAP_PRIVATE|ANONYMOUS|FIXED_NOREPLACE
assert high == 2 << 32, high

def result(value):
    return ctypes.get_errno() if value < 0 else 0

def limits():
    ctypes.set_errno(0)
    core, files = Limit(), Limit()
    read = result(libc.getrlimit(RLIMIT_CORE, core))
    read_raw = result(libc.syscall(ctypes.c_long(PRLIMIT64), ctypes.c_long(0),
                                   ctypes.c_long(RLIMIT_CORE), None, core))
    ctypes.memmove(high, core, ctypes.sizeof(core))
    set_raw = result(libc.syscall(ctypes.c_long(PRLIMIT64), ctypes.c_long(0),
                                  ctypes.c_long(RLIMIT_CORE), ctypes.c_void_p(high), None))
    set_core = result(libc.setrlimit(RLIMIT_CORE, core))
    libc.getrlimit(RLIMIT_NOFILE, files)
    set_files = result(libc.setrlimit(RLIMIT_NOFILE, files))
    return {"read": read, "read_raw": read_raw, "set_raw": set_raw, "set": set_core,
            "set_files": set_files}

before = limits()
load_filter()
print(json.dumps({"before": before, "after": limits()}))
"""


def test_setting_the_core_dump_limit_is_refused_and_reading_it_is_not() -> None:
    """A bot's core dump limit is 1 byte, where the kernel runs no core dump
    program of the host for its crashes: lowered to 0, it ran one, as root,
    for each (tests/sandbox/test_kernel_budgets.py). The limit can still be
    read, and the other limits set."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _LIMITS)
    assert set(seen["before"].values()) == {0}
    assert seen["after"] == {
        "read": 0,
        "read_raw": 0,
        "set_raw": errno.EPERM,
        "set": errno.EPERM,
        "set_files": 0,
    }


# Run in a child, as above: memfd_create, an anonymous mmap and shmget, each
# with and without its flag for huge pages (whatever the host's pool holds),
# before and after the filter; 0 or an errno.
_HUGE_PAGES = r"""
import platform
import struct
libc.syscall.restype = ctypes.c_long
libc.mmap.restype = ctypes.c_void_p
MEMFD_CREATE = {"x86_64": 319, "aarch64": 279}[platform.machine()]
MFD_HUGETLB, MAP_HUGETLB, SHM_HUGETLB = 0x4, 0x40000, 0x800
FAILED = ctypes.c_void_p(-1).value

def result(failed):
    return ctypes.get_errno() if failed else 0

def calls():
    found = {}
    for name, huge in (("", 0), ("_huge", 1)):
        ctypes.set_errno(0)
        fd = libc.syscall(ctypes.c_long(MEMFD_CREATE), b"x", ctypes.c_long(MFD_HUGETLB * huge))
        found["memfd_create" + name] = result(fd < 0)
        size = ctypes.c_size_t(2 << 20)
        area = libc.mmap(None, size, 3, 0x22 | MAP_HUGETLB * huge, -1, ctypes.c_long(0))
        found["mmap" + name] = result(area in (None, FAILED))
        segment = libc.shmget(0, size, 0o1600 | SHM_HUGETLB * huge)
        found["shmget" + name] = result(segment < 0)
        if fd >= 0:
            os.close(fd)
        if area not in (None, FAILED):
            libc.munmap(ctypes.c_void_p(area), size)
        if segment >= 0:
            libc.shmctl(segment, 0, None)  # IPC_RMID
    return found

before = calls()
load_filter()
print(json.dumps({"before": before, "after": calls()}))
"""


def test_huge_pages_are_refused_and_ordinary_memory_is_not() -> None:
    """Huge pages come from the host's pool, counted by no memory cgroup, and a
    memfd file of them by no address-space limit: a bot took the whole pool
    (tests/sandbox/test_kernel_budgets.py). Ordinary memfd files, mappings and
    segments are still made."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _HUGE_PAGES)
    assert seen["before"]["memfd_create_huge"] == 0  # made, whatever the pool holds
    assert seen["after"] == {
        "memfd_create": 0,
        "mmap": 0,
        "shmget": 0,
        "memfd_create_huge": errno.EPERM,
        "mmap_huge": errno.EPERM,
        "shmget_huge": errno.EPERM,
    }


# Run in a child, as above: ptrace and process_vm_writev on itself, harmless
# (PTRACE_TRACEME with no tracer around it; a write of no bytes), and a ring.
_TRACING = r"""
libc.syscall.restype = ctypes.c_long

ptrace, process_vm_writev, io_uring_setup = json.loads(sys.argv[1])

def call(number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *args)
    return ctypes.get_errno() if result < 0 else 0

def calls():
    zero = ctypes.c_long(0)
    return {
        "process_vm_writev": call(process_vm_writev, ctypes.c_long(os.getpid()), None, zero,
                                  None, zero, zero),
        "ptrace": call(ptrace, zero, zero, None, None),  # PTRACE_TRACEME, last
    }

def uring():
    params = ctypes.create_string_buffer(120)  # struct io_uring_params
    ctypes.set_errno(0)
    ring = libc.syscall(ctypes.c_long(io_uring_setup), ctypes.c_long(1), params)
    if ring >= 0:
        os.close(ring)
        return 0
    return ctypes.get_errno()

before = uring()

load_filter()
print(json.dumps({**calls(), "io_uring_setup": uring(), "before": before}))
"""
# ptrace and process_vm_writev in each machine's native table.
NATIVE_TRACE_CALLS = {"x86_64": (101, 311), "aarch64": (117, 271)}
IO_URING_SETUP = 425  # on every machine


def test_tracing_another_process_and_io_uring_are_refused() -> None:
    """A bot attached to bwrap's pid 1, which has none of its limits, and ran a
    program of its own there; and it made a vsock socket through io_uring,
    which no filter of socket() sees (tests/sandbox/test_host_leaks.py)."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    traced = [*NATIVE_TRACE_CALLS[platform.machine()], IO_URING_SETUP]
    seen = _filtered_child(program, _TRACING, json.dumps(traced))
    assert seen.pop("before") in (0, errno.EPERM)  # EPERM: kernel.io_uring_disabled
    assert seen == {
        "process_vm_writev": errno.EPERM,
        "ptrace": errno.EPERM,
        "io_uring_setup": errno.EPERM,
    }


# Run in a child, as above: syslog(SYSLOG_ACTION_SIZE_BUFFER), which reads
# nothing but the log's size, and SYSLOG_ACTION_READ_ALL, before and after.
_KERNEL_LOG = r"""
libc.syscall.restype = ctypes.c_long
(syslog,) = json.loads(sys.argv[1])
buffer = ctypes.create_string_buffer(4096)

def calls():
    found = {}
    for name, action, into, size in (("size", 10, None, 0), ("read_all", 3, buffer, 4096)):
        ctypes.set_errno(0)
        result = libc.syscall(ctypes.c_long(syslog), ctypes.c_long(action), into,
                              ctypes.c_long(size))
        found[name] = ctypes.get_errno() if result < 0 else 0
    return found

before = calls()
load_filter()
print(json.dumps({"before": before, "after": calls()}))
"""
# syslog in each machine's native table.
NATIVE_LOG_CALL = {"x86_64": 103, "aarch64": 116}


def test_reading_the_kernels_log_is_refused() -> None:
    """The kernel's log belongs to no namespace: where kernel.dmesg_restrict is
    0 any process reads it whole with syslog(2), a bot too (the host's
    messages, the OOM killer's lists of processes, its devices and addresses).
    Filtered, nobody does, root included."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _KERNEL_LOG, json.dumps([NATIVE_LOG_CALL[platform.machine()]]))
    # Root with CAP_SYSLOG reads it unfiltered, and so does anyone where
    # kernel.dmesg_restrict is 0; elsewhere the kernel refuses it by itself.
    assert set(seen["before"].values()) <= {0, errno.EPERM}, seen
    assert seen["after"] == {"size": errno.EPERM, "read_all": errno.EPERM}


# Run in a child, as above: bpf(BPF_MAP_CREATE) of an array map of one 4-byte
# entry, before and after.
_BPF = r"""
import struct
libc.syscall.restype = ctypes.c_long
(bpf,) = json.loads(sys.argv[1])

def map_create():
    attr = ctypes.create_string_buffer(struct.pack("IIII", 2, 4, 4, 1), 128)  # ARRAY
    ctypes.set_errno(0)
    fd = libc.syscall(ctypes.c_long(bpf), ctypes.c_long(0), attr, ctypes.c_long(128))
    if fd >= 0:
        os.close(fd)
        return 0
    return ctypes.get_errno()

before = map_create()
load_filter()
print(json.dumps({"before": before, "after": map_create()}))
"""
# bpf in each machine's native table.
NATIVE_BPF_CALL = {"x86_64": 321, "aarch64": 280}


def test_bpf_is_refused() -> None:
    """Where kernel.unprivileged_bpf_disabled is 0, any process makes BPF maps,
    kernel memory no address-space limit sees, and loads programs through the
    verifier, a large and often exploited part of the kernel. Unfiltered, root
    (or anyone, under that setting) makes a map; filtered, nobody does."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _BPF, json.dumps([NATIVE_BPF_CALL[platform.machine()]]))
    assert seen["before"] in (0, errno.EPERM), seen  # EPERM: the kernel's own refusal
    assert seen["after"] == errno.EPERM, seen


# Run in a child, as above: memfd_secret, before and after; 0 or an errno.
_SECRET = r"""
libc.syscall.restype = ctypes.c_long

def secret():
    ctypes.set_errno(0)
    fd = libc.syscall(ctypes.c_long(447), ctypes.c_long(0))
    if fd >= 0:
        os.close(fd)
        return 0
    return ctypes.get_errno()

before = secret()
load_filter()
print(json.dumps({"before": before, "after": secret()}))
"""


def test_secret_memory_is_refused() -> None:
    """memfd_secret's pages are unevictable and out of the kernel's own map,
    and count against no limit once unmapped: a bot held 320 MB so under 8 MB
    of locked memory. Filtered, no process makes any (447 on every machine)."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _SECRET)
    # ENOSYS where the kernel has no CONFIG_SECRETMEM or it is off.
    assert seen["before"] in (0, errno.ENOSYS), seen
    assert seen["after"] == errno.EPERM


# Run in a child, as above: sync(), syncfs(), fsync() and fdatasync() through
# libc after the filter, with what they return and errno (fsync of a pipe,
# which fails with EINVAL when it runs).
_SYNC = r"""
libc.syncfs.restype = ctypes.c_int
load_filter()
ctypes.set_errno(0)
libc.sync()
synced = ctypes.get_errno()
fd = os.open(".", os.O_RDONLY)
ctypes.set_errno(0)
result = libc.syncfs(fd)
found = {"sync errno": synced, "syncfs": [result, ctypes.get_errno()]}
pipe, _ = os.pipe()
for name in ("fsync", "fdatasync"):
    ctypes.set_errno(0)
    found[name] = [getattr(libc, name)(pipe), ctypes.get_errno()]
print(json.dumps(found))
"""


def test_a_filtered_program_calling_sync_goes_on() -> None:
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _SYNC)
    done = [0, 0]
    assert seen == {"sync errno": 0, "syncfs": done, "fsync": done, "fdatasync": done}, seen


# Run in a child, as above: seccomp(SECCOMP_SET_MODE_FILTER) loading a filter of
# one instruction (allow), with and without SECCOMP_FILTER_FLAG_NEW_LISTENER,
# before and after the sandbox's filter; 0 or an errno.
_SECCOMP_LISTENER = r"""
import struct
libc.syscall.restype = ctypes.c_long
(seccomp,) = json.loads(sys.argv[1])
code = ctypes.create_string_buffer(struct.pack("=HBBI", 0x06, 0, 0, 0x7FFF0000))
allow_all = Program(1, ctypes.cast(code, ctypes.c_void_p))
assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS, which seccomp needs

def calls():
    found = {}
    for name, flags in (("filter", 0), ("filter with a listener", 8)):
        ctypes.set_errno(0)
        fd = libc.syscall(ctypes.c_long(seccomp), ctypes.c_long(1), ctypes.c_long(flags),
                          ctypes.byref(allow_all))
        if fd > 0:
            os.close(fd)
        found[name] = ctypes.get_errno() if fd < 0 else 0
    return found

before = calls()
load_filter()
print(json.dumps({"before": before, "after": calls()}))
"""
# seccomp in each machine's native table.
NATIVE_SECCOMP_CALL = {"x86_64": 317, "aarch64": 277}


def test_a_seccomp_listener_is_refused_and_a_plain_seccomp_filter_is_not() -> None:
    """A seccomp filter is compiled to machine code counted against
    net.core.bpf_jit_limit, one budget for the whole machine, as a socket's
    filter is. A thread's filters die with it, and the kernel caps their
    length, but a filter loaded with SECCOMP_FILTER_FLAG_NEW_LISTENER lives as
    long as its listener's descriptor: a bot kept 120 chains of 28,000
    instructions in one process after every thread that loaded them had
    ended (tests/sandbox/test_kernel_budgets.py). Filtered, no listener is
    made; a program's own filter without one still loads."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(
        program, _SECCOMP_LISTENER, json.dumps([NATIVE_SECCOMP_CALL[platform.machine()]])
    )
    assert seen["before"] == {"filter": 0, "filter with a listener": 0}, seen
    assert seen["after"] == {"filter": 0, "filter with a listener": errno.EPERM}, seen
