"""Text someone else wrote (a bot's output, a config's keys, a value pasted
on the command line) shown on a terminal: every character Python cannot
print (escape sequences that would clear the screen, move the cursor or
retitle the window, a newline, a right-to-left override) is written out as
Python writes it in a string, so it is shown, never obeyed."""

from __future__ import annotations

__all__ = ["shown_safely"]


def shown_safely(text: str) -> str:
    """`text` with each unprintable character as its escape (`\\x1b`, `\\n`, `\\u202e`)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
