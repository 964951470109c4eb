"""The kernel limits a sandboxed bot runs under: they live in clients.bot_limits,
outside this package, so that the command line checks a --limit flag without
loading the launcher (asyncio and the sandbox)."""

from clients.bot_limits import (
    DEFAULT_LIMITS,
    LIMIT_KEYS,
    MIB,
    Limits,
    LimitsError,
    parse_limits,
    shown,
)

__all__ = ["DEFAULT_LIMITS", "LIMIT_KEYS", "MIB", "Limits", "LimitsError", "parse_limits", "shown"]
