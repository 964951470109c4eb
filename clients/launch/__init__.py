"""Starting bot programs, sandboxed (bubblewrap plus kernel limits) or trusted.

See docs/operations.md, "Running untrusted bots", for what the sandbox contains.
"""

from clients.launch.limits import DEFAULT_LIMITS, LIMIT_KEYS, Limits, LimitsError, parse_limits
from clients.launch.process import BotCommand, BotFailure, BotProcess, Launcher
from clients.launch.sandbox import (
    SERVER_IN_SANDBOX,
    SOCKET_IN_SANDBOX,
    SandboxPolicy,
    SandboxUnavailable,
)

__all__ = [
    "DEFAULT_LIMITS",
    "LIMIT_KEYS",
    "SERVER_IN_SANDBOX",
    "SOCKET_IN_SANDBOX",
    "BotCommand",
    "BotFailure",
    "BotProcess",
    "Launcher",
    "Limits",
    "LimitsError",
    "SandboxPolicy",
    "SandboxUnavailable",
    "parse_limits",
]
