"""The error that stops a tournament run, shared by the runner and what it calls."""

from __future__ import annotations


class RunError(RuntimeError):
    """The tournament cannot go on (server refused the matches, unreachable, ...)."""
