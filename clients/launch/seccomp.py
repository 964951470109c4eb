"""The seccomp filter of every sandbox, compiled to classic BPF: the calls of
`clients.launch.seccomp_calls` (which says why each is stopped) fail with
EPERM (some only for certain arguments), and the calls that would write out
the host's disks return 0 without running."""

from __future__ import annotations

import errno
import platform
import struct
from dataclasses import dataclass

from clients.launch.seccomp_calls import (
    AF_VSOCK,
    AIO_CALLS,
    BPF_CALLS,
    F_NOTIFY,
    F_SETLEASE,
    FCNTL_CALLS,
    IPC_CALLS,
    IPC_SHMGET,
    KEY_CALLS,
    LOG_CALLS,
    MAP_HUGETLB,
    MEMFD_CALLS,
    MFD_HUGETLB,
    MMAP_CALLS,
    NOTIFY_CALLS,
    OLD_MMAP_CALLS,
    PERF_CALLS,
    PRLIMIT_CALLS,
    RLIMIT_CORE,
    SECCOMP_CALLS,
    SECCOMP_FILTER_FLAG_NEW_LISTENER,
    SECRET_CALLS,
    SETRLIMIT_CALLS,
    SETSOCKOPT_CALLS,
    SHM_HUGETLB,
    SHMGET_CALLS,
    SOCKET_CALLS,
    SOCKET_PROGRAM_OPTIONS,
    SOCKETCALL_CALLS,
    SOL_SOCKET,
    SYNC_CALLS,
    SYS_SETSOCKOPT,
    SYS_SOCKET,
    TRACE_CALLS,
    UFFD_CALLS,
    URING_CALLS,
    CallTable,
)

__all__ = ["ARGUMENT_CHECKS", "REFUSED_CALLS", "Condition", "refused_calls"]

# struct seccomp_data: the call's number, then the AUDIT_ARCH of its ABI, the
# instruction pointer, and the arguments (64 bits each; the low half first on
# the little-endian machines below).
_NR_OFFSET = 0
_ARCH_OFFSET = 4
_FIRST_ARG_OFFSET = 16
_SECOND_ARG_OFFSET = 24
_THIRD_ARG_OFFSET = 32
_FOURTH_ARG_OFFSET = 40
# Classic BPF opcodes: load a word at an offset, jump if equal to a constant, return.
_LOAD_WORD = 0x20
_JUMP_IF_EQUAL = 0x15
_AND = 0x54  # the loaded word AND a constant
_ALL_BITS = 0xFFFFFFFF
_RETURN = 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000


@dataclass(frozen=True, slots=True)
class Condition:
    """What one argument of a call is: its low word (the kernel takes most
    arguments as 32-bit ints) at `offset` in struct seccomp_data, AND `mask`,
    is one of `values`, or, when not `among`, none of them."""

    offset: int
    values: tuple[int, ...]
    among: bool = True
    mask: int = _ALL_BITS


def _any_bit(offset: int, bits: int) -> Condition:
    """The argument at `offset` has any of `bits` set."""
    return Condition(offset, (0,), among=False, mask=bits)


# Calls refused for some arguments only: each table's calls, refused when
# all the conditions of any one of its lists hold.
ARGUMENT_CHECKS: tuple[tuple[CallTable, tuple[tuple[Condition, ...], ...]], ...] = (
    (SOCKET_CALLS, ((Condition(_FIRST_ARG_OFFSET, (AF_VSOCK,)),),)),
    (SOCKETCALL_CALLS, ((Condition(_FIRST_ARG_OFFSET, (SYS_SOCKET, SYS_SETSOCKOPT)),),)),
    (FCNTL_CALLS, ((Condition(_SECOND_ARG_OFFSET, (F_NOTIFY, F_SETLEASE)),),)),
    (
        SETSOCKOPT_CALLS,
        (
            (
                Condition(_SECOND_ARG_OFFSET, (SOL_SOCKET,)),
                Condition(_THIRD_ARG_OFFSET, SOCKET_PROGRAM_OPTIONS),
            ),
        ),
    ),
    (SETRLIMIT_CALLS, ((Condition(_FIRST_ARG_OFFSET, (RLIMIT_CORE,)),),)),
    (
        PRLIMIT_CALLS,
        # The new limit is a pointer: set unless both its words are 0.
        tuple(
            (Condition(_SECOND_ARG_OFFSET, (RLIMIT_CORE,)), Condition(word, (0,), among=False))
            for word in (_THIRD_ARG_OFFSET, _THIRD_ARG_OFFSET + 4)
        ),
    ),
    (SECCOMP_CALLS, ((_any_bit(_SECOND_ARG_OFFSET, SECCOMP_FILTER_FLAG_NEW_LISTENER),),)),
    (MEMFD_CALLS, ((_any_bit(_SECOND_ARG_OFFSET, MFD_HUGETLB),),)),
    (MMAP_CALLS, ((_any_bit(_FOURTH_ARG_OFFSET, MAP_HUGETLB),),)),
    (SHMGET_CALLS, ((_any_bit(_THIRD_ARG_OFFSET, SHM_HUGETLB),),)),
    (
        IPC_CALLS,
        (
            (
                Condition(_FIRST_ARG_OFFSET, (IPC_SHMGET,), mask=0xFFFF),
                _any_bit(_FOURTH_ARG_OFFSET, SHM_HUGETLB),
            ),
        ),
    ),
)


def _merged(*tables: CallTable) -> CallTable:
    merged: dict[str, dict[int, tuple[int, ...]]] = {}
    for table in tables:
        for machine, abis in table.items():
            for arch, numbers in abis:
                known = merged.setdefault(machine, {}).get(arch, ())
                merged[machine][arch] = (*known, *numbers)
    return {machine: tuple(abis.items()) for machine, abis in merged.items()}


# Every call the filter refuses, for each machine and ABI.
REFUSED_CALLS = _merged(
    KEY_CALLS,
    NOTIFY_CALLS,
    AIO_CALLS,
    TRACE_CALLS,
    URING_CALLS,
    UFFD_CALLS,
    PERF_CALLS,
    LOG_CALLS,
    BPF_CALLS,
    SECRET_CALLS,
    OLD_MMAP_CALLS,
)


@dataclass(frozen=True, slots=True)
class _Instruction:
    code: int
    k: int
    on_equal: int | None = None  # for a jump: the index it goes to when equal
    otherwise: int | None = None  # ... and when not


def refused_calls(machine: str | None = None) -> bytes | None:
    """The compiled filter (struct sock_filter[]) that fails the calls of
    REFUSED_CALLS, and those of ARGUMENT_CHECKS with the arguments refused
    (SOCKET_CALLS for AF_VSOCK, SOCKETCALL_CALLS making a socket or setting an
    option, FCNTL_CALLS for F_NOTIFY and F_SETLEASE, SETSOCKOPT_CALLS
    attaching a program, SETRLIMIT_CALLS and PRLIMIT_CALLS setting
    RLIMIT_CORE, SECCOMP_CALLS making a listener, and the rest), with EPERM,
    returns 0 from the calls of SYNC_CALLS without running them, and lets
    every other call through, for `machine` (this one's by default); None
    for a machine not in REFUSED_CALLS."""
    machine = machine or platform.machine()
    abis = REFUSED_CALLS.get(machine)
    if abis is None:
        return None
    checks = [(dict(table.get(machine, ())), refused) for table, refused in ARGUMENT_CHECKS]
    silent = dict(SYNC_CALLS.get(machine, ()))
    program: list[_Instruction] = []
    # After every ABI's checks: allow; each of ARGUMENT_CHECKS's checks of the
    # arguments, each ending in allow (a jump only goes forward); refuse; do
    # nothing and return 0.
    allowed = sum(
        3
        + len(numbers)
        + len(silent.get(arch, ()))
        + sum(len(calls.get(arch, ())) for calls, _ in checks)
        for arch, numbers in abis
    )
    starts = []
    position = allowed + 1
    for _, conditions in checks:
        starts.append(position)
        position += _block_length(conditions)
    denied = position
    silenced = denied + 1
    for arch, numbers in abis:
        checked = [(number, denied) for number in numbers]
        checked += [(number, silenced) for number in silent.get(arch, ())]
        checked += [
            (number, start)
            for (calls, _), start in zip(checks, starts, strict=True)
            for number in calls.get(arch, ())
        ]
        next_abi = len(program) + 3 + len(checked)
        program.append(_Instruction(_LOAD_WORD, _ARCH_OFFSET))
        program.append(_Instruction(_JUMP_IF_EQUAL, arch, len(program) + 1, next_abi))
        program.append(_Instruction(_LOAD_WORD, _NR_OFFSET))
        for number, target in checked:
            program.append(_Instruction(_JUMP_IF_EQUAL, number, target, len(program) + 1))
    program.append(_Instruction(_RETURN, _ALLOW))
    for (_, conditions), start in zip(checks, starts, strict=True):
        assert len(program) == start
        program += _block(conditions, start, denied)
    program.append(_Instruction(_RETURN, _ERRNO | errno.EPERM))
    # errno 0: the kernel skips the call and the caller sees 0, success.
    program.append(_Instruction(_RETURN, _ERRNO | 0))
    assert len(program) == silenced + 1
    return b"".join(_encoded(index, instruction) for index, instruction in enumerate(program))


def _block_length(conjunctions: tuple[tuple[Condition, ...], ...]) -> int:
    """How many instructions _block takes for `conjunctions`."""
    return sum(_conjunction_length(conditions) for conditions in conjunctions) + 1


def _conjunction_length(conditions: tuple[Condition, ...]) -> int:
    return sum(_condition_length(condition) for condition in conditions)


def _condition_length(condition: Condition) -> int:
    return 1 + (condition.mask != _ALL_BITS) + len(condition.values)


def _block(
    conjunctions: tuple[tuple[Condition, ...], ...], start: int, denied: int
) -> list[_Instruction]:
    """The instructions, from index `start` of the program, that jump to
    `denied` when every condition of any of `conjunctions` holds, and else
    allow the call."""
    allow = start + _block_length(conjunctions) - 1
    block: list[_Instruction] = []
    for conditions in conjunctions:
        # Where a condition that fails goes: the next list, or allow.
        failed = start + len(block) + _conjunction_length(conditions)
        for position, condition in enumerate(conditions):
            block.append(_Instruction(_LOAD_WORD, condition.offset))
            if condition.mask != _ALL_BITS:
                block.append(_Instruction(_AND, condition.mask))
            after = start + len(block) + len(condition.values)  # the next condition
            held = denied if position == len(conditions) - 1 else after
            for index, value in enumerate(condition.values):
                here = start + len(block)
                last = index == len(condition.values) - 1
                if condition.among:
                    on_equal, otherwise = held, failed if last else here + 1
                else:
                    on_equal, otherwise = failed, held if last else here + 1
                block.append(_Instruction(_JUMP_IF_EQUAL, value, on_equal, otherwise))
    block.append(_Instruction(_RETURN, _ALLOW))
    assert len(block) == _block_length(conjunctions) and failed == allow
    return block


def _encoded(index: int, instruction: _Instruction) -> bytes:
    """struct sock_filter {u16 code; u8 jt; u8 jf; u32 k;}, in this machine's order;
    a jump's targets counted from the instruction after it."""
    on_equal = otherwise = 0
    if instruction.on_equal is not None and instruction.otherwise is not None:
        on_equal = instruction.on_equal - index - 1
        otherwise = instruction.otherwise - index - 1
    return struct.pack("=HBBI", instruction.code, on_equal, otherwise, instruction.k)
