"""The sandbox's seccomp filter on sockets, loaded for real in a child process
(no bubblewrap needed): vsock sockets and a program attached to a socket are
refused, through i386's socketcall too, and other families and options are
not."""

from __future__ import annotations

import errno
import platform

from clients.launch.seccomp import refused_calls
from tests.clients._seccomp_child import _filtered_child

# Run in a child (`_filtered_child`): socket() for each family, before and after the filter.
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
