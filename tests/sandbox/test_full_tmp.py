"""A bot that writes past `tmp_mb` is refused the write, as documented, whatever
its language: not killed by the file size limit's signal."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.bot_limits import Limits
from clients.launch.sandbox import SandboxPolicy
from tests.sandbox.sandboxed import run_in_sandbox

# A C program (coreutils' head) writes 2 MB more than the bot's 1 MB of /tmp (or
# of /dev/shm), then the shell says how it ended. Python ignores SIGXFSZ of
# itself (and so does Node), so a Python bot never showed the difference.
WRITE_PAST_TMP = 'head -c 3000000 /dev/zero > "$0"; echo "head ended with $?" >&2; exit 3'


@pytest.mark.parametrize("place", ["/tmp/big", "/dev/shm/big"])
def test_a_write_past_tmp_mb_fails_and_the_bot_lives_on(
    tmp_path: Path, sandbox_ready: None, place: str
) -> None:
    """The file size limit (RLIMIT_FSIZE, `tmp_mb`) sends SIGXFSZ to a process
    writing past it, which kills any program that does not ignore it: a C,
    C++ or Rust bot filling its /tmp was "killed by SIGXFSZ" mid-game, where
    the limits table says its writes fail. The sandbox starts the bot with
    the signal ignored, so the write fails with EFBIG and the bot goes on."""
    policy = SandboxPolicy(Limits(tmp_mb=1))
    said = run_in_sandbox(tmp_path, "/bin/sh", "-c", WRITE_PAST_TMP, place, policy=policy)
    assert said.endswith("head ended with 1"), said
    assert "File too large" in said or "No space left on device" in said, said
