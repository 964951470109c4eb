"""HTML escaping for text a database or a bot gave: markup as text, and a
control or bidi character (U+202E, the right-to-left override, above all) as
its escape, `\\u202e`, as the match page's `visible()` shows a bot's name.

`html.escape` alone left U+202E in a tournament's or a bot's name as it was:
on the tournaments list and in the report, every word after it on its line
read backwards. Tab, newline and carriage return stay: in HTML they are
spaces.

An attribute the page's script reads a name back from (`data-bot`) keeps the
name as stored (`attribute`): it is never shown, and the script matches it
against the same name in JSON."""

from __future__ import annotations

import html
import re

# C0 and C1 controls but tab, newline and return; the Arabic letter mark; the
# left-to-right and right-to-left marks; the embeddings, overrides and isolates.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def escape(text: str, quote: bool = True) -> str:
    """`text` for HTML (content or a quoted attribute), its hidden characters as escapes."""
    return html.escape(_HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text), quote)


def attribute(text: str) -> str:
    """`text` for a quoted attribute the page's script reads, as it is."""
    return html.escape(text, True)
