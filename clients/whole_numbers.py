"""Reading a number a user typed (a flag, an environment variable, an
address's port) as the user sees it written: a whole number however many
digits it has, and a fractional one (`ascii_number`).

Python reads no whole number of more than 4,300 digits: int() raises a
ValueError of its own ("Exceeds the limit (4300 digits) for integer string
conversion ... use sys.set_int_max_str_digits()"), which reached users as a
traceback or as argparse's "invalid number value".
"""

from __future__ import annotations

# More digits than any bound a number typed here is checked against (2**64 has
# 20): a number with more is past them all, whatever its exact value.
MAX_DIGITS = 30
PAST_EVERY_BOUND = 10**MAX_DIGITS


def ascii_whole_number(text: str) -> int | None:
    """`text` as a whole number when it is ASCII digits alone (int() would take
    " 5", "5_0" and other scripts' digits too), else None. A number of more than
    MAX_DIGITS digits (leading zeros aside) reads as PAST_EVERY_BOUND."""
    if not (text.isascii() and text.isdigit()):
        return None
    significant = text.lstrip("0")
    if len(significant) > MAX_DIGITS:
        return PAST_EVERY_BOUND
    return int(significant or "0")


def unlike_a_number(text: str) -> str | None:
    """How `text` is written otherwise than every number typed here (digits
    0-9, no '_', no space around it), for a user to read; None when it is not.
    float() takes "1_000", " 3" and other scripts' digits (Arabic-Indic "٣",
    fullwidth digits), which `ascii_whole_number` refuses."""
    if not text.isascii():
        return "write it in the digits 0-9"
    if "_" in text:
        return "write it without '_'"
    if text != text.strip():
        return "write it without spaces"
    return None


def ascii_number(text: str) -> float | None:
    """`text` as a number (3, 0.5, 1e-3, inf) when written as every number
    here is (`unlike_a_number`), else None: `--timeout ٣` was 3 seconds where
    `--port ٣` was a usage error."""
    if unlike_a_number(text) is not None:
        return None
    try:
        return float(text)
    except ValueError:
        return None
