"""What the kernel counts per user of the host, through every namespace: a
sandboxed bot runs as the runner's user (the host's root, for a runner started
as root), so whatever it takes of such a count the host's own programs of that
user no longer get while it plays."""

from __future__ import annotations

import sys
from pathlib import Path

from clients.bot_limits import PENDING_SIGNALS
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
