"""HTML escaping for text a database or a bot gave: markup as text, and a
control or bidi character (U+202E, the right-to-left override, above all) as
its escape, `\\u202e`, as the match page's `visible()` shows a bot's name.

`html.escape` alone left U+202E in a tournament's or a bot's name as it was:
on the tournaments list and in the report, every word after it on its line
read backwards. Tab, newline and carriage return are escaped too, as
`visible()` escapes them: what this writes is a name or a one-line message,
in a table's cell, a heading or a quoted attribute (a title), never text laid
out in lines. HTML showed each as a space, so a name read "a b" in the report
and "a\\u0009b" on its game's page, and a newline split a title's tooltip.

An attribute the page's script reads a name back from (`data-bot`) keeps the
name as stored (`attribute`): it is never shown, and the script matches it
against the same name in JSON."""

from __future__ import annotations

import html
import re

# The C0 and C1 controls; the Arabic letter mark; the left-to-right and
# right-to-left marks; the embeddings, overrides and isolates: the same set as
# the match page's `visible()` (web/static/match/names.js).
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escape(text: str, quote: bool = True) -> str:
    """`text` for HTML (content or a quoted attribute), its hidden characters as escapes."""
    return html.escape(_HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text), quote)


def attribute(text: str) -> str:
    """`text` for a quoted attribute the page's script reads, as it is."""
    return html.escape(text, True)


def name(text: str) -> str:
    """A bot's name (or a game's key, which holds names) in a table: in a
    span of class "name", which the page's style cuts with "..." where it is
    too wide for a phone, the whole of it in its title."""
    shown = escape(text)
    return f'<span class="name" title="{shown}">{shown}</span>'
