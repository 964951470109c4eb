"""A command bot that never joins its seat and ignores SIGTERM: it sleeps, so
that only its command's SIGKILL ends it. Its arguments are a mark for a test
to find it by in /proc."""

from __future__ import annotations

import signal
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
time.sleep(600)
