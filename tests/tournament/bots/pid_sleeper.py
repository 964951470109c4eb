"""A command bot that never plays: it writes a file named after its process id
into the folder given as its argument, ignores SIGTERM and sleeps. A test then
sees whether the runner killed it."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
(Path(sys.argv[1]) / str(os.getpid())).write_text("")
while True:
    time.sleep(60)
