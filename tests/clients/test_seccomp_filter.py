"""The sandbox's seccomp filter, loaded for real in a child process (no
bubblewrap needed): the key store's calls, new inotify and fanotify
instances, new AIO contexts and vsock sockets fail with EPERM, everything
else goes through. The sandbox tests check the same from inside a real
sandbox."""

from __future__ import annotations

import errno
import json
import platform
import struct
import subprocess
import sys
from typing import Any

from clients.launch.seccomp import REFUSED_CALLS, refused_calls
from clients.launch.seccomp_calls import (
    FCNTL_CALLS,
    IPC_CALLS,
    MEMFD_CALLS,
    MMAP_CALLS,
    PRLIMIT_CALLS,
    SETRLIMIT_CALLS,
    SETSOCKOPT_CALLS,
    SHMGET_CALLS,
    SOCKET_CALLS,
    SYNC_CALLS,
)

# add_key, request_key and keyctl in each machine's native table (the kernel's
# arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h),
# written out again here so that a wrong number in the filter's table shows.
NATIVE_KEY_CALLS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}
# inotify_init1 and fanotify_init, likewise.
NATIVE_NOTIFY_CALLS = {"x86_64": (294, 300), "aarch64": (26, 262)}
# io_setup and io_destroy, likewise.
NATIVE_AIO_CALLS = {"x86_64": (206, 207), "aarch64": (0, 1)}

# What every child below starts with: libc, and `load_filter()`, which loads the
# filter its stdin holds on it for good.
_PREAMBLE = r"""
import ctypes, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)

class Program(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("instructions", ctypes.c_void_p)]

def load_filter():
    data = sys.stdin.buffer.read()
    buffer = ctypes.create_string_buffer(data, len(data))
    program = Program(len(data) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
    assert libc.prctl(22, 2, ctypes.byref(program), 0, 0) == 0  # PR_SET_SECCOMP, FILTER
"""

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


def _filtered_child(program: bytes, script: str, *args: str) -> Any:
    """What `script`, run after `_PREAMBLE` by a Python whose stdin is the filter
    `program`, printed as JSON (it must exit 0)."""
    child = subprocess.run(
        [sys.executable, "-c", _PREAMBLE + script, *args],
        input=program,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == 0, child.stderr.decode()
    return json.loads(child.stdout)


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


def test_every_abi_of_a_machine_is_covered() -> None:
    """An x86-64 process can still make i386 and x32 calls: each ABI's numbers
    are in the filter, after a check of its architecture."""
    for machine, abis in REFUSED_CALLS.items():
        program = refused_calls(machine)
        assert program is not None and len(program) % 8 == 0
        constants = {
            int.from_bytes(program[i + 4 : i + 8], sys.byteorder) for i in range(0, len(program), 8)
        }
        for arch, numbers in abis:
            assert {arch, *numbers} <= constants, machine
        for arch, numbers in (
            *SOCKET_CALLS[machine],
            *FCNTL_CALLS[machine],
            *SETSOCKOPT_CALLS[machine],
            *SETRLIMIT_CALLS[machine],
            *PRLIMIT_CALLS[machine],
            *MEMFD_CALLS[machine],
            *MMAP_CALLS[machine],
            *SHMGET_CALLS[machine],
            *IPC_CALLS[machine],
            *SYNC_CALLS[machine],
        ):
            assert {arch, *numbers} <= constants, machine
    assert refused_calls("mips") is None


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


# Run in a child, as above: socket() for each family, before and after the filter.
_SOCKETS = r"""
import socket

def sockets():
    found = {}
    for name in ("AF_UNIX", "AF_INET", "AF_VSOCK"):
        try:
            socket.socket(getattr(socket, name), socket.SOCK_STREAM).close()
            found[name] = 0
        except OSError as error:
            found[name] = error.errno
    return found

before = sockets()
load_filter()
print(json.dumps({"before": before, "after": sockets()}))
"""


def test_vsock_sockets_are_refused_and_other_families_are_not() -> None:
    """A network namespace does not hold AF_VSOCK: from inside a sandbox a bot
    made vsock sockets, which reach the hypervisor of the VM it runs on (and
    WSL2's Windows host) whatever the namespace, as Docker's default profile
    refuses too. Unix and loopback sockets are what bots use, and still work."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _SOCKETS)
    assert seen["before"]["AF_UNIX"] == seen["before"]["AF_INET"] == 0
    assert seen["after"] == {"AF_UNIX": 0, "AF_INET": 0, "AF_VSOCK": errno.EPERM}


# Run in a child, as above: i386's socketcall(SYS_SOCKET) from this x86-64
# process (`int 0x80`, its arguments in the low 4 GB where i386 pointers reach),
# for two families, before and after the filter; a fd number or minus an errno.
_SOCKETCALL = r"""
import mmap, struct

MAP_32BIT = 0x40
page = mmap.mmap(-1, 4096, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_32BIT,
                 prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
base = ctypes.addressof(ctypes.c_char.from_buffer(page))
arguments = base + 64
# push rbx; mov eax, 102 (socketcall); mov ebx, 1 (SYS_SOCKET); mov ecx, arguments;
# int 0x80; pop rbx; ret
code = (b"\x53\xb8" + struct.pack("<I", 102) + b"\xbb" + struct.pack("<I", 1)
        + b"\xb9" + struct.pack("<I", arguments) + b"\xcd\x80\x5b\xc3")
page[0:len(code)] = code
socketcall = ctypes.CFUNCTYPE(ctypes.c_int)(base)

def sockets():
    found = {}
    for name, family in (("AF_UNIX", 1), ("AF_VSOCK", 40)):
        page[64:76] = struct.pack("<3I", family, 1, 0)  # family, SOCK_STREAM, 0
        found[name] = socketcall()
    return found

before = sockets()
load_filter()
print(json.dumps({"before": before, "after": sockets()}))
"""


def test_i386_socketcall_makes_no_socket() -> None:
    """Any x86-64 program may make i386 calls, and i386's socketcall takes the
    family behind a pointer no filter reads: a bot made a vsock socket through
    it past the filter's check of socket(). Unfiltered it makes sockets of both
    families here; filtered it makes none."""
    assert platform.machine() == "x86_64", "this check is written for x86-64"
    program = refused_calls()
    assert program is not None
    seen = _filtered_child(program, _SOCKETCALL)
    assert seen["before"]["AF_UNIX"] >= 0
    assert seen["after"] == {"AF_UNIX": -errno.EPERM, "AF_VSOCK": -errno.EPERM}


# Run in a child, as above: setsockopt attaching a classic BPF program (accept
# the whole packet) to a Unix socket and to a UDP socket's reuseport group,
# and two options that attach nothing (SO_REUSEADDR, and option 26, which is
# SO_ATTACH_FILTER's number, at another level: IPPROTO_IP's
# IP_RECVERR_RFC4884), before and after the filter; 0 or an errno.
_SOCKET_OPTIONS = r"""
import socket, struct

code = ctypes.create_string_buffer(struct.pack("HBBI", 0x06, 0, 0, 0xFFFF))
program = struct.pack("HL", 1, ctypes.addressof(code))  # struct sock_fprog

def options():
    unix, _ = socket.socketpair()
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    found = {}
    for name, sock, level, option, value in (
        ("SO_ATTACH_FILTER", unix, socket.SOL_SOCKET, 26, program),
        ("SO_ATTACH_REUSEPORT_CBPF", udp, socket.SOL_SOCKET, 51, program),
        ("SO_REUSEADDR", udp, socket.SOL_SOCKET, socket.SO_REUSEADDR, 1),
        ("IP_RECVERR_RFC4884", udp, socket.IPPROTO_IP, 26, 1),
    ):
        try:
            sock.setsockopt(level, option, value)
            found[name] = 0
        except OSError as error:
            found[name] = error.errno
    return found

before = options()
load_filter()
print(json.dumps({"before": before, "after": options()}))
"""


def test_attaching_a_program_to_a_socket_is_refused_and_other_options_are_not() -> None:
    """The kernel compiles a socket's classic BPF program to machine code
    counted against net.core.bpf_jit_limit, one budget for the whole machine: a
    bot attaching filters to every socket it could open took it whole
    (tests/sandbox/test_kernel_budgets.py). The options bots use still work,
    and so does an option of another level that has the same number."""
    program = refused_calls()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    seen = _filtered_child(program, _SOCKET_OPTIONS)
    assert seen["before"]["SO_ATTACH_FILTER"] == seen["before"]["SO_ATTACH_REUSEPORT_CBPF"] == 0
    assert seen["after"]["SO_ATTACH_FILTER"] == errno.EPERM
    assert seen["after"]["SO_ATTACH_REUSEPORT_CBPF"] == errno.EPERM
    assert seen["after"]["SO_REUSEADDR"] == 0
    other_level = seen["after"]["IP_RECVERR_RFC4884"]
    assert other_level == seen["before"]["IP_RECVERR_RFC4884"] != errno.EPERM


# Run in a child, as above: i386's socketcall(SYS_SETSOCKOPT) from this x86-64
# process, attaching a classic BPF program to a Unix socket (struct
# compat_sock_fprog, all in the low 4 GB), then setting SO_REUSEADDR, before
# and after the filter; 0 or minus an errno.
_SOCKETCALL_OPTIONS = r"""
import mmap, socket, struct

MAP_32BIT = 0x40
page = mmap.mmap(-1, 4096, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_32BIT,
                 prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
base = ctypes.addressof(ctypes.c_char.from_buffer(page))
arguments, program, code, value = base + 64, base + 128, base + 192, base + 256
# push rbx; mov eax, 102 (socketcall); mov ebx, 14 (SYS_SETSOCKOPT); mov ecx, arguments;
# int 0x80; pop rbx; ret
machine = (b"\x53\xb8" + struct.pack("<I", 102) + b"\xbb" + struct.pack("<I", 14)
           + b"\xb9" + struct.pack("<I", arguments) + b"\xcd\x80\x5b\xc3")
page[0:len(machine)] = machine
page[192:200] = struct.pack("<HBBI", 0x06, 0, 0, 0xFFFF)
page[128:136] = struct.pack("<HxxI", 1, code)
page[256:260] = struct.pack("<i", 1)
setsockopt = ctypes.CFUNCTYPE(ctypes.c_int)(base)

def options():
    unix, _ = socket.socketpair()
    found = {}
    for name, option, pointer, length in (("SO_ATTACH_FILTER", 26, program, 8),
                                          ("SO_REUSEADDR", 2, value, 4)):
        page[64:84] = struct.pack("<5I", unix.fileno(), 1, option, pointer, length)
        found[name] = setsockopt()
    return found

before = options()
load_filter()
print(json.dumps({"before": before, "after": options()}))
"""


def test_i386_socketcall_sets_no_socket_option() -> None:
    """i386's socketcall takes setsockopt's level and option behind a pointer
    no filter reads: it would attach a socket filter past the check of
    setsockopt itself. Unfiltered it attaches one here; filtered it sets no
    option at all, as it makes no socket."""
    assert platform.machine() == "x86_64", "this check is written for x86-64"
    program = refused_calls()
    assert program is not None
    seen = _filtered_child(program, _SOCKETCALL_OPTIONS)
    assert seen["before"] == {"SO_ATTACH_FILTER": 0, "SO_REUSEADDR": 0}
    assert seen["after"] == {"SO_ATTACH_FILTER": -errno.EPERM, "SO_REUSEADDR": -errno.EPERM}


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


def _verdict(machine: str, arch: int, number: int, *args: int) -> str:
    """What the filter for `machine` says of call `number` of ABI `arch` with
    `args`, read by a small interpreter of the instructions it uses: "EPERM"
    "DONE" (return 0 without running it) or "ALLOW". For the ABIs no process
    here can call through."""
    program = refused_calls(machine)
    assert program is not None
    instructions = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    words = [arg & (2**64 - 1) for arg in (*args, 0, 0, 0, 0, 0, 0)[:6]]
    data = struct.pack("<iIQ6Q", number, arch, 0, *words)  # struct seccomp_data
    counter = accumulator = 0
    while True:
        code, on_equal, otherwise, k = instructions[counter]
        counter += 1
        if code == 0x20:  # load a word
            accumulator = struct.unpack_from("<I", data, k)[0]
        elif code == 0x54:  # AND
            accumulator &= k
        elif code == 0x15:  # jump if equal
            counter += on_equal if accumulator == k else otherwise
        else:
            assert code == 0x06, code  # return
            return {0x7FFF0000: "ALLOW", 0x00050000 | errno.EPERM: "EPERM", 0x00050000: "DONE"}[k]


I386, ARM, AARCH64, X86_64 = 0x40000003, 0x40000028, 0xC00000B7, 0xC000003E


def test_calls_refused_for_their_arguments_on_abis_no_test_can_call_through() -> None:
    """i386's ipc making a segment of huge pages, whatever the version in its
    call's high bits (the kernel drops them), and its old mmap, whose flags no
    filter reads; a new core dump limit at an address whose low word is 0;
    arm64's and 32-bit arm's numbers. And what goes through beside each."""
    cases = {
        ("x86_64", I386, 117, 23 | 1 << 16, 0, 4096, 0x800): "EPERM",  # ipc(SHMGET), huge
        ("x86_64", I386, 117, 23, 0, 4096, 0x200): "ALLOW",  # ipc(SHMGET)
        ("x86_64", I386, 117, 11, 0, 4096, 0x800): "ALLOW",  # ipc(MSGSND), IPC_NOWAIT
        ("x86_64", I386, 90, 0): "EPERM",  # old mmap
        ("x86_64", I386, 192, 0, 4096, 3, 0x40022): "EPERM",  # mmap2, MAP_HUGETLB
        ("x86_64", I386, 192, 0, 4096, 3, 0x22): "ALLOW",
        ("x86_64", I386, 340, 0, 4, 0x1000, 0): "EPERM",  # prlimit64 setting RLIMIT_CORE
        ("x86_64", I386, 102, 14, 0): "EPERM",  # socketcall(SYS_SETSOCKOPT)
        ("x86_64", 0xC000003E, 302, 0, 4, 1 << 32, 0): "EPERM",  # prlimit64, high word
        ("x86_64", 0xC000003E, 302, 0, 4, 0, 0x1000): "ALLOW",  # prlimit64 reading
        ("aarch64", AARCH64, 208, 3, 1, 26): "EPERM",  # setsockopt(SO_ATTACH_FILTER)
        ("aarch64", AARCH64, 208, 3, 0, 26): "ALLOW",  # the same number at IPPROTO_IP
        ("aarch64", AARCH64, 261, 0, 4, 8, 0): "EPERM",  # prlimit64 setting RLIMIT_CORE
        ("aarch64", AARCH64, 164, 4, 8): "EPERM",  # setrlimit(RLIMIT_CORE)
        ("aarch64", AARCH64, 164, 7, 8): "ALLOW",  # setrlimit(RLIMIT_NOFILE)
        ("aarch64", AARCH64, 222, 0, 4096, 3, 0x40022): "EPERM",  # mmap, MAP_HUGETLB
        ("aarch64", AARCH64, 279, 0, 4): "EPERM",  # memfd_create(MFD_HUGETLB)
        ("aarch64", AARCH64, 279, 0, 1): "ALLOW",  # memfd_create(MFD_CLOEXEC)
        ("aarch64", AARCH64, 194, 0, 4096, 0xA00): "EPERM",  # shmget, SHM_HUGETLB
        ("aarch64", ARM, 294, 3, 1, 51): "EPERM",  # setsockopt(SO_ATTACH_REUSEPORT_CBPF)
        ("aarch64", ARM, 192, 0, 4096, 3, 0x40022): "EPERM",  # mmap2, MAP_HUGETLB
        ("aarch64", ARM, 307, 0, 4096, 0x800): "EPERM",  # shmget, SHM_HUGETLB
        ("aarch64", AARCH64, 63, 0): "ALLOW",  # read
    }
    seen = {case: _verdict(*case) for case in cases}
    assert seen == cases


def test_sync_calls_do_nothing_and_succeed_on_every_abi() -> None:
    """sync and syncfs write out every filesystem of the host (syncfs, the
    whole filesystem of a descriptor, a bound host folder's too), and fsync
    and fdatasync on a host file the bot may only read flush the host disk's
    cache: a bot looping on them flushed the host's disk 13,000 times a
    second. Filtered, they return 0 without running, so a program that
    calls them goes on; sync_file_range, which flushes no cache, runs."""
    cases = {
        ("x86_64", X86_64, 162): "DONE",  # sync
        ("x86_64", X86_64, 306, 3): "DONE",  # syncfs
        ("x86_64", X86_64, 0x40000000 | 162): "DONE",  # x32's sync
        ("x86_64", X86_64, 0x40000000 | 306, 3): "DONE",  # x32's syncfs
        ("x86_64", I386, 36): "DONE",  # sync
        ("x86_64", I386, 344, 3): "DONE",  # syncfs
        ("x86_64", X86_64, 74, 3): "DONE",  # fsync
        ("x86_64", X86_64, 75, 3): "DONE",  # fdatasync
        ("x86_64", X86_64, 0x40000000 | 74, 3): "DONE",  # x32's fsync
        ("x86_64", I386, 118, 3): "DONE",  # fsync
        ("x86_64", I386, 148, 3): "DONE",  # fdatasync
        ("x86_64", X86_64, 277, 3, 0, 0, 7): "ALLOW",  # sync_file_range
        ("x86_64", X86_64, 0, 3): "ALLOW",  # read
        ("aarch64", AARCH64, 81): "DONE",  # sync
        ("aarch64", AARCH64, 267, 3): "DONE",  # syncfs
        ("aarch64", AARCH64, 82, 3): "DONE",  # fsync
        ("aarch64", AARCH64, 83, 3): "DONE",  # fdatasync
        ("aarch64", AARCH64, 84, 3, 0, 0, 7): "ALLOW",  # sync_file_range
        ("aarch64", ARM, 36): "DONE",  # sync
        ("aarch64", ARM, 373, 3): "DONE",  # syncfs
        ("aarch64", ARM, 118, 3): "DONE",  # fsync
        ("aarch64", ARM, 148, 3): "DONE",  # fdatasync
    }
    seen = {case: _verdict(*case) for case in cases}
    assert seen == cases


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


def test_a_seccomp_listener_is_refused_on_abis_no_test_can_call_through() -> None:
    cases = {
        ("x86_64", I386, 354, 1, 8, 0): "EPERM",  # seccomp, NEW_LISTENER
        ("x86_64", I386, 354, 1, 0, 0): "ALLOW",
        ("x86_64", X86_64, 0x40000000 | 317, 1, 8 | 1, 0): "EPERM",  # x32, with TSYNC
        ("aarch64", AARCH64, 277, 1, 8, 0): "EPERM",
        ("aarch64", AARCH64, 277, 1, 0, 0): "ALLOW",
        ("aarch64", ARM, 383, 1, 8, 0): "EPERM",
        ("aarch64", ARM, 383, 1, 2, 0): "ALLOW",  # SECCOMP_FILTER_FLAG_LOG
    }
    seen = {case: _verdict(*case) for case in cases}
    assert seen == cases
