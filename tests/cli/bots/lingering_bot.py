"""A command bot that plays its seat to the end with the example command bot,
then ignores SIGTERM and sleeps: it writes its process id to `pid` first, so a
test can see that it is gone after all."""

from __future__ import annotations

import contextlib
import os
import runpy
import signal
import sys
import time
from pathlib import Path

Path("pid").write_text(str(os.getpid()))
example = Path(sys.argv[1])
sys.argv = [str(example)]
with contextlib.suppress(SystemExit):  # it ends with sys.exit(0) after the result
    runpy.run_path(str(example), run_name="__main__")
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while True:
    time.sleep(60)
