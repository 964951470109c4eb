"""The signals that stop a Sheepfold process, shared by the server (a graceful
stop), the commands (taken as Ctrl-C is) and gRPC core's log reader (which
ignores them and ends with the server): written by hand beside the generated
code, the one package all of them may import, so that a signal added to the
stops is added everywhere at once (SIGQUIT was once added to each list by hand).

SIGTERM (`docker stop`, Kubernetes, systemd), SIGINT (Ctrl-C), SIGHUP (the
terminal closed, an operator's `kill -HUP`) and SIGQUIT (Ctrl-\\, a container's
STOPSIGNAL as nginx images set it; its default action killed at once, core
dumped). A SIGHUP ignored when the process started (`nohup sheepfold serve &`)
stays ignored: nohup is how a process is left running past its terminal."""

from __future__ import annotations

import signal

__all__ = ["STOP_SIGNALS", "TAKEN_STOP_SIGNALS"]

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)

# Read when this module is first imported, before any handler of Sheepfold's
# own is set: clients.interrupts imports it, and cli.main imports that first
# thing. SIGINT and SIGQUIT are taken even when ignored (a shell's background
# job): each is an operator's own stop, where SIGHUP only says that a terminal
# went away.
_IGNORED_AT_START = frozenset(
    signum for signum in (signal.SIGHUP,) if signal.getsignal(signum) == signal.SIG_IGN
)
# The stops this process takes: STOP_SIGNALS less a SIGHUP ignored at its start.
TAKEN_STOP_SIGNALS = tuple(signum for signum in STOP_SIGNALS if signum not in _IGNORED_AT_START)
