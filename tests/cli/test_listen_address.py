"""`--port 0` (any free port) on an address this machine does not have: the
check before gRPC skipped port 0, so gRPC's own log line came first
("E1203 ... add_port.cc:83] Failed to add port to server: ...") and then only
"gRPC could not bind it". Nothing listens in these tests: the bind fails."""

from __future__ import annotations

import pytest

from tests.cli.helpers import one_line, resolver_can_answer, sheepfold

NOT_HERE = "192.0.2.1"  # TEST-NET-1 (RFC 5737): documentation only, on no machine


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("serve", "--host", NOT_HERE, "--port", "0", "--db", ":memory:"),
            f"sheepfold serve: cannot listen on {NOT_HERE}:0: cannot assign requested address",
        ),
        (
            ("web", "--host", NOT_HERE, "--port", "0"),
            f"sheepfold web: cannot listen on {NOT_HERE}:0: cannot assign requested address",
        ),
    ],
    ids=["serve", "web"],
)
def test_an_address_not_on_this_machine_is_one_line_with_port_0(
    args: tuple[str, ...], line: str
) -> None:
    done = sheepfold(*args, timeout=30)
    assert done.returncode == 1
    assert one_line(done) == line


@pytest.mark.parametrize("address", ["::1:50051", "[::1:50051", "::1]:50051"])
def test_an_unbracketed_ipv6_listen_address_is_refused_before_grpc(address: str) -> None:
    """gRPC read `--listen ::1:50051` as the host "::1:50051" on port 443 and
    logged a line of its own before "gRPC could not bind it"; "[::1:50051" was
    looked up as the host name "::1" ("Name or service not known")."""
    done = sheepfold("serve", "--listen", address, "--db", ":memory:", timeout=30)
    assert done.returncode == 2
    assert one_line(done) == (
        f"sheepfold serve: --listen {address!r}: an IPv6 address goes in brackets "
        "(e.g. --listen [::1]:50051)"
    )


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("127.0.0.1", "use HOST:PORT or unix:PATH"),
        ("127.0.0.1:", "use HOST:PORT or unix:PATH"),
        (":50051", "use HOST:PORT or unix:PATH"),
        ("127.0.0.1:port", "use HOST:PORT or unix:PATH"),
        ("garbage", "use HOST:PORT or unix:PATH"),
        ("", "use HOST:PORT or unix:PATH"),
        ("unix:", "use HOST:PORT or unix:PATH"),
        ("unix://", "use HOST:PORT or unix:PATH"),
        ("unix:/", "use HOST:PORT or unix:PATH"),
        ("127.0.0.1:99999", "ports go from 0 to 65535"),
        ("[::1]:65536", "ports go from 0 to 65535"),
        # once "an IPv6 address goes in brackets (e.g. --listen [::1]:50051)"
        (
            "127.0.0.1:5, [::1]:6,",
            "one address each: --listen 127.0.0.1:5 --listen [::1]:6",
        ),
        # once "--listen ::1:5 --listen ::1:6", each refused in turn
        ("::1:5,::1:6", "one address each: --listen [::1]:5 --listen [::1]:6"),
    ],
)
def test_a_malformed_listen_address_is_a_usage_error(address: str, problem: str) -> None:
    """The user's mistake, named with its value: it once exited 1, the status
    of a server that could not start, and a port out of range was only found
    when serve tried to bind it."""
    done = sheepfold("serve", "--listen", address, "--db", ":memory:", timeout=30)
    assert (done.returncode, one_line(done)) == (
        2,
        f"sheepfold serve: --listen {address!r}: {problem}",
    )


NO_HOST = "nohost.invalid"  # .invalid (RFC 6761): never resolves


@pytest.mark.parametrize(
    ("args", "env", "line"),
    [
        (
            ("serve", "--listen", f"{NO_HOST}:5"),
            {},
            f"sheepfold serve: --listen '{NO_HOST}:5': no such host",
        ),
        (("serve", "--host", NO_HOST), {}, f"sheepfold serve: --host '{NO_HOST}': no such host"),
        (
            ("serve",),
            {"SHEEPFOLD_HOST": NO_HOST},
            f"sheepfold serve: $SHEEPFOLD_HOST '{NO_HOST}': no such host",
        ),
        (
            ("serve", "--listen", "127.0.0.1:0", "--metrics-port", "0", "--metrics-host", NO_HOST),
            {},
            f"sheepfold serve: --metrics-host '{NO_HOST}': no such host",
        ),
        (
            ("tournament", "run", "cup.toml", "--metrics-port", "0", "--metrics-host", NO_HOST),
            {},
            f"sheepfold tournament: --metrics-host '{NO_HOST}': no such host",
        ),
    ],
    ids=["listen", "host", "environment", "metrics-host", "tournament-metrics-host"],
)
def test_a_host_that_does_not_resolve_is_a_usage_error(
    args: tuple[str, ...], env: dict[str, str], line: str
) -> None:
    """A host name that names no host is a typo, the user's mistake: exit 2 and
    the flag (or variable) named with its value, for --listen as for --host. It
    once exited 1 on "cannot listen on HOST:PORT: Name or service not known",
    the status of a server that could not start."""
    extra = ("--db", ":memory:") if args[0] == "serve" else ()
    done = sheepfold(*args, *extra, env=env, timeout=30)
    if not resolver_can_answer(NO_HOST):
        # No resolver to ask (a machine offline, a network namespace): nobody can
        # tell a typo from a name not yet reachable, so it is not called a typo;
        # the command still fails in one line (the bind, or the next check).
        assert done.returncode in (1, 2), done.stderr
        assert "no such host" not in one_line(done)
        return
    assert done.returncode == 2, done.stderr
    assert one_line(done).startswith(line)
