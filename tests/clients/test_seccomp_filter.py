"""The sandbox's seccomp filter, loaded for real in a child process (no
bubblewrap needed): the key store's calls fail with EPERM, everything else
goes through. The sandbox tests check the same from inside a real sandbox."""

from __future__ import annotations

import json
import platform
import subprocess
import sys

from clients.launch.seccomp import KEY_CALLS, key_store_refused

# add_key, request_key and keyctl in each machine's native table (the kernel's
# arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h),
# written out again here so that a wrong number in the filter's table shows.
NATIVE_KEY_CALLS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}

# Run in a child: a seccomp filter cannot be taken off a process once loaded.
_CHILD = r"""
import ctypes, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

class Program(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("instructions", ctypes.c_void_p)]

def call(number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *args)
    return result, ctypes.get_errno()

add_key, request_key, keyctl = json.loads(sys.argv[1])
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

before = key_calls()
data = sys.stdin.buffer.read()
buffer = ctypes.create_string_buffer(data, len(data))
program = Program(len(data) // 8, ctypes.cast(buffer, ctypes.c_void_p))
assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
assert libc.prctl(22, 2, ctypes.byref(program), 0, 0) == 0  # PR_SET_SECCOMP, FILTER
after = key_calls()
print(json.dumps({"before": before, "after": after, "pid": os.getpid(), "cwd": os.getcwd()}))
"""


def test_the_key_store_is_refused_and_nothing_else() -> None:
    program = key_store_refused()
    assert program is not None, f"no filter for this machine ({platform.machine()})"
    native = json.dumps(NATIVE_KEY_CALLS[platform.machine()])
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, native],
        input=program,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == 0, child.stderr.decode()
    seen = json.loads(child.stdout)
    eperm = 1
    # Unfiltered the calls reach the key store (request_key finds no such key).
    assert seen["before"]["add_key"] == 0 and seen["before"]["keyctl"] == 0
    assert seen["before"]["request_key"] != eperm
    assert seen["after"] == {"add_key": eperm, "keyctl": eperm, "request_key": eperm}
    assert seen["pid"] > 0 and seen["cwd"]  # and the rest still works


def test_every_abi_of_a_machine_is_covered() -> None:
    """An x86-64 process can still make i386 and x32 calls: each ABI's numbers
    are in the filter, after a check of its architecture."""
    for machine, abis in KEY_CALLS.items():
        program = key_store_refused(machine)
        assert program is not None and len(program) % 8 == 0
        constants = {
            int.from_bytes(program[i + 4 : i + 8], sys.byteorder) for i in range(0, len(program), 8)
        }
        for arch, numbers in abis:
            assert {arch, *numbers} <= constants, machine
    assert key_store_refused("mips") is None
