"""What the seccomp filter tests share: a child process that loads the sandbox's
filter and runs a script after it (a filter cannot be taken off a process once
loaded)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

# What every child starts with: libc, and `load_filter()`, which loads the
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
