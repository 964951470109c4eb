"""A host serve binds written in fullwidth digits (as an input method types
127.0.0.1) passed serve's checks, which ask the system's resolver (it reads
such a name through IDNA), and gRPC, whose own resolver does not, logged
"Failed to add port to server: address lookup failed for ...: Misformatted
domain name" before serve said only "gRPC could not bind it" (exit 1); a
fullwidth 1 said "cannot assign requested address". Nothing listens in these
tests: serve stops before it binds."""

from __future__ import annotations

import pytest

from tests.cli.helpers import one_line, sheepfold


def fullwidth(text: str) -> str:
    """`text` with its digits as fullwidth digits (U+FF10 to U+FF19)."""
    return "".join(chr(0xFF10 + int(c)) if c.isdigit() else c for c in text)


@pytest.mark.parametrize(
    ("flags", "named", "ascii_form"),
    [
        (("--host", fullwidth("127.0.0.1"), "--port", "0"), "--host", "127.0.0.1"),
        (("--host", fullwidth("1"), "--port", "0"), "--host", "0.0.0.1"),
        (("--listen", fullwidth("127.0.0.1") + ":0"), "--listen", "127.0.0.1"),
    ],
    ids=["host", "one-digit-host", "listen"],
)
def test_a_host_in_fullwidth_digits_is_refused_with_its_ascii_form(
    flags: tuple[str, ...], named: str, ascii_form: str
) -> None:
    done = sheepfold("serve", *flags, "--db", ":memory:", timeout=60)
    assert done.returncode == 2, done.stderr
    assert one_line(done) == (
        f"sheepfold serve: {named} {flags[1]!r}: gRPC reads host names in ASCII alone: "
        f"write {ascii_form}"
    )
