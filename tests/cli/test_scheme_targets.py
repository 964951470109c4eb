"""A dns:, ipv4: or ipv6: server address is checked before anything connects,
as HOST:PORT is: gRPC checked it only when it dialled, and printed its own log
("invalid ipv4 port: '99999'" and a source location trace) before the
command's "cannot reach the server", exit 1."""

from __future__ import annotations

import pytest

from clients.address_check import check_address
from tests.cli.helpers import sheepfold


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("ipv4:1.2.3.4:99999", "99999 is not a port: use 1 to 65535"),
        ("dns:localhost:0", "0 is not a port: use 1 to 65535"),
        ("dns://8.8.8.8/localhost:70000", "70000 is not a port: use 1 to 65535"),
        ("ipv6:[::1]:70000", "70000 is not a port: use 1 to 65535"),
        ("ipv4:1.2.3.4:50051,1.2.3.5:99999", "99999 is not a port: use 1 to 65535"),
        ("dns:localhost:5x", "'5x' is not a port number"),
        ("ipv4:abc:5", "'abc' is not an IPv4 address (e.g. ipv4:127.0.0.1:50051)"),
        ("ipv4:[::1]:5", "'::1' is not an IPv4 address (e.g. ipv4:127.0.0.1:50051)"),
        ("ipv6:1.2.3.4", "'1.2.3.4' is not an IPv6 address (e.g. ipv6:[::1]:50051)"),
        ("ipv6:[::1", "'[::1' is not HOST:PORT (e.g. ipv6:[::1]:50051)"),
    ],
)
def test_a_scheme_target_gRPC_cannot_dial_is_refused_saying_why(target: str, problem: str) -> None:
    with pytest.raises(ValueError) as refused:
        check_address(target)
    assert str(refused.value) == f"{target!r}: {problem}"


@pytest.mark.parametrize(
    "target",
    [
        "dns:localhost",
        "dns:localhost:50051",
        "dns:///localhost:50051",
        "ipv4:127.0.0.1",
        "ipv4:127.0.0.1:50051,127.0.0.2:50051",
        "ipv6:::1",
        "ipv6:[::1]:50051",
        "ipv6:[fe80::1%lo]:50051",
    ],
)
def test_a_scheme_target_gRPC_dials_passes(target: str) -> None:
    assert check_address(target) == target


def test_the_bot_command_says_it_as_a_usage_error_exit_2() -> None:
    done = sheepfold("bot", "--server", "ipv4:1.2.3.4:99999", "--match", "m", "--token", "t")
    assert done.returncode == 2, done.stderr
    assert "parse_address" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "sheepfold bot: error: argument --server: "
        "'ipv4:1.2.3.4:99999': 99999 is not a port: use 1 to 65535"
    )
