"""A tournament config's TOML document: the file read and decoded, and what is
wrong with the document as a whole (not TOML, nested too deeply, a number too
long to write out) said as one ConfigError about the file, not a field.

Part of `tournament.config`, which then checks the document field by field.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from tournament.config_fields import ConfigError
from tournament.userfiles import UserFileError, read_user_text

__all__ = ["FILE_FIELD", "MAX_KEY_PARTS", "MAX_NESTING", "read_document"]

FILE_FIELD = "<file>"  # a ConfigError about the file as a whole, not one of its fields

# Tables and arrays in tables and arrays: a config nests four deep at most
# (bots[1].sandbox.read_only[0]). A field's error quotes its value, and quoting
# a value nested a thousand deep (`[name.a.a.a...]`, which TOML reads without
# nesting its reader's calls) raised RecursionError: a traceback.
MAX_NESTING = 100
# tomllib takes time that grows with the square of a dotted key's parts: a
# 1 MB config of one `[a.a.a...]` header was read for minutes. A key of this
# many parts is refused before it is read (past MAX_NESTING, it is wrong anyway).
MAX_KEY_PARTS = 1000
_KEY_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""
# Each search starts only where TOML reads a key: at a line's start (a table's
# `[` or `[[` header included) or after an inline table's `{` or `,`, not in a
# comment or after a space inside a string (`"see a.b.c"`), which a config may
# hold at any length. It takes a chain whole: starting again at every part of
# a chain took time growing with the square of its length too.
_DOTTED_CHAIN = re.compile(
    rf"""(?:^\ufeff?[ \t]*+(?:\[\[?+[ \t]*+)?+|[{{,][ \t]*+)"""
    rf"""{_KEY_PART}(?:[ \t]*+\.[ \t]*+{_KEY_PART})++""",
    re.MULTILINE,
)
_PART = re.compile(_KEY_PART)
_SHORTEST_LONG_KEY = 2 * MAX_KEY_PARTS - 1  # characters: a.a.a...


def read_document(path: Path) -> dict[str, Any]:
    """The decoded TOML document of the config file at `path`."""
    try:
        text = read_user_text(path)
    except UserFileError as exc:
        raise ConfigError(FILE_FIELD, str(exc)) from None
    if _has_long_dotted_key(text):
        raise ConfigError(
            FILE_FIELD,
            f"{path} holds a dotted key of {MAX_KEY_PARTS:,} parts or more (a.b.c...): "
            f"tables nest {MAX_NESTING} levels deep at most",
        )
    try:
        # A byte order mark (Windows editors write one) is no TOML statement.
        document = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(FILE_FIELD, f"{path} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(FILE_FIELD, _too_deep(path)) from None
    except ValueError:
        # Not TOML's own error: Python reads no whole number of more digits than
        # its limit (4,300 unless PYTHONINTMAXSTRDIGITS says otherwise).
        raise ConfigError(FILE_FIELD, _too_many_digits(path)) from None
    problem = _shape_problem(document, path)
    if problem is not None:
        raise ConfigError(FILE_FIELD, problem)
    return document


def _has_long_dotted_key(text: str) -> bool:
    for chain in _DOTTED_CHAIN.finditer(text):
        found = chain.group()
        if len(found) >= _SHORTEST_LONG_KEY and len(_PART.findall(found)) >= MAX_KEY_PARTS:
            return True
    return False


def _too_deep(path: Path) -> str:
    return f"{path} nests arrays or tables too deeply (more than {MAX_NESTING} levels)"


def _too_many_digits(path: Path) -> str:
    return (
        f"{path} holds a whole number of more than "
        f"{sys.get_int_max_str_digits():,} digits, more than can be read"
    )


def _shape_problem(document: dict[str, Any], path: Path) -> str | None:
    """Tables and arrays nested past MAX_NESTING, or a whole number Python
    cannot write out in decimal (TOML reads one written in hexadecimal, octal
    or binary, and a field's error quoting it raised ValueError), or None."""
    limit = sys.get_int_max_str_digits()
    too_long = 10**limit if limit else None
    waiting: list[tuple[Any, int]] = [(document, 0)]
    while waiting:
        value, depth = waiting.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_NESTING:
                return _too_deep(path)
            children = value.values() if isinstance(value, dict) else value
            waiting.extend((child, depth + 1) for child in children)
        elif too_long is not None and isinstance(value, int) and abs(value) >= too_long:
            return _too_many_digits(path)
    return None
