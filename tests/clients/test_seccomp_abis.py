"""The sandbox's seccomp filter for every ABI of a machine: each ABI's numbers are
in it, and for the ABIs no process here can call through, what it says of a call
is read from its instructions."""

from __future__ import annotations

import errno
import struct
import sys

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
