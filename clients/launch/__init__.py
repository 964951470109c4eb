"""Starting bot programs, sandboxed (bubblewrap plus kernel limits) or trusted.

See docs/operations.md, "Running untrusted bots", for what the sandbox contains.

The launcher itself (clients.launch.process, with asyncio) is loaded when one
of its names is first asked for, not with the package: a tournament config
and the command line's flags read the sandbox's policy and limits alone.
"""

from typing import TYPE_CHECKING, Any

from clients.bot_limits import DEFAULT_LIMITS, LIMIT_KEYS, Limits, LimitsError, parse_limits
from clients.launch.sandbox import (
    SERVER_IN_SANDBOX,
    SOCKET_IN_SANDBOX,
    SandboxPolicy,
    SandboxUnavailable,
)

if TYPE_CHECKING:
    from clients.launch.process import BotCommand, BotFailure, BotProcess, Launcher

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

_PROCESS = ("BotCommand", "BotFailure", "BotProcess", "Launcher")


def __getattr__(name: str) -> Any:
    if name in _PROCESS:
        from clients.launch import process

        return getattr(process, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
