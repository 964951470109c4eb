"""A shorthand IPv4 address (`0` for 0.0.0.0, `127.1`, `2130706433`, octal
parts) passed serve's checks, which ask the system's resolver (it reads them),
and gRPC, whose own resolver does not, logged a line of its own, "Failed to
add port to server: address lookup failed for 127.1:0: Domain name not
found", before serve said only "gRPC could not bind it" (exit 1). Nothing
listens in these tests: serve stops before it binds."""

from __future__ import annotations

import pytest

from tests.cli.helpers import one_line, sheepfold


@pytest.mark.parametrize(
    ("flags", "named", "full"),
    [
        (("--host", "0", "--port", "0"), "--host '0'", "0.0.0.0"),
        (("--host", "127.1", "--port", "0"), "--host '127.1'", "127.0.0.1"),
        (("--listen", "2130706433:0"), "--listen '2130706433:0'", "127.0.0.1"),
        (("--listen", "0177.0.0.1:0"), "--listen '0177.0.0.1:0'", "127.0.0.1"),
        (
            ("--listen", "127.0.0.1:0", "--host", "127.1", "--health-port", "0"),
            "--host '127.1'",
            "127.0.0.1",
        ),
    ],
    ids=["zero", "two-parts", "one-number", "octal", "health-port-host"],
)
def test_a_shorthand_ipv4_address_is_refused_with_its_full_form(
    flags: tuple[str, ...], named: str, full: str
) -> None:
    done = sheepfold("serve", *flags, "--db", ":memory:", timeout=30)
    assert done.returncode == 2
    assert one_line(done) == (
        f"sheepfold serve: {named}: gRPC does not read a shorthand IPv4 address: "
        f"write it in full, {full}"
    )


def test_the_variable_is_named_when_it_holds_the_shorthand() -> None:
    done = sheepfold(
        "serve", "--port", "0", "--db", ":memory:", env={"SHEEPFOLD_HOST": "127.1"}, timeout=30
    )
    assert done.returncode == 2
    assert one_line(done) == (
        "sheepfold serve: $SHEEPFOLD_HOST '127.1': gRPC does not read a shorthand IPv4 "
        "address: write it in full, 127.0.0.1"
    )
