"""Is a Ray address a Ray cluster? Asked before `ray.init`, which waits about
a minute at any address that is not Ray's (a closed port, a web server, another
gRPC server) and fills the terminal with Ray's log meanwhile; here each is one
line within seconds. The check makes the first call Ray itself makes there,
through Ray's own channel helper when it can (TLS, authentication token), and
leaves to `ray.init` any answer it cannot read."""

from __future__ import annotations

import os
import socket
from typing import Any, NamedTuple

from clients.address_check import MAX_PORT, port_out_of_range
from clients.whole_numbers import ascii_whole_number
from tournament.run_error import RunError

CONNECT_SECONDS = 5.0
# How long the address has to answer the first call Ray itself would make.
PROBE_SECONDS = 5.0


class RayAddressError(RunError):
    """The Ray address is wrong: nothing listens there, or not Ray (a usage error)."""


def check_address(address: str) -> None:
    """Fail fast, in one line, unless `address` answers as Ray would be answered:
    ray.init itself waits about a minute at any address that is not Ray's."""
    client = address.startswith("ray://")
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    # A URL or a list was taken for a host name, "unknown host 'http://HEAD'".
    mistaken = "/" in host or "," in host
    number = ascii_whole_number(port)  # int() took other scripts' digits, and no 5,000
    if not host or number is None or mistaken:
        raise RayAddressError(f"Ray address {address!r} is not HOST:PORT (or 'auto'){_why(host)}")
    if not 1 <= number <= MAX_PORT:
        # As --ray on the command line is told (cli.addresses); RAY_ADDRESS, which
        # `--ray auto` reads, reaches only this check.
        raise RayAddressError(f"Ray address {port_out_of_range(address, port)}")
    bare_host = host.removeprefix("[").removesuffix("]")
    try:
        with socket.create_connection((bare_host, number), timeout=CONNECT_SECONDS):
            pass
    except ConnectionRefusedError:
        raise RayAddressError(
            f"cannot join a Ray cluster: nothing listens at {address} (connection refused)"
        ) from None
    except socket.gaierror as error:
        raise RayAddressError(
            f"cannot join a Ray cluster: unknown host {bare_host!r} in {address} "
            f"({error.strerror or error})"
        ) from None
    except TimeoutError:
        raise RayAddressError(
            f"cannot join a Ray cluster: no answer from {address} within {CONNECT_SECONDS:g} s"
        ) from None
    except UnicodeError as error:  # a label over 63 characters: the lookup's encoding
        raise RayAddressError(
            f"cannot join a Ray cluster: {bare_host!r} in {address} is not a host name ({error})"
        ) from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise RayAddressError(f"cannot join a Ray cluster at {address}: {reason}") from None
    problem = not_ray(target, CLIENT_PROBE if client else GCS_PROBE)
    if problem:
        raise RayAddressError(f"cannot join a Ray cluster: {address} {problem}")


def _why(host: str) -> str:
    """What an address that is not HOST:PORT was likely meant as."""
    if "://" in host:  # http://HEAD:8265, what `ray job submit` takes
        return (
            ": --ray takes the head's GCS address, HOST:PORT (port 6379 by default), "
            "or ray://HOST:PORT for Ray Client; an http:// address is the dashboard's"
        )
    if "," in host:
        return (
            ": --ray takes one address, the head's (the other nodes join it with "
            "`ray start --address`); several servers go to --server A,B"
        )
    return ""


class _Probe(NamedTuple):
    """The first call Ray makes at an address, sent as raw bytes."""

    method: str
    request: bytes
    service: str
    port: str


# A GCS (`HOST:PORT`) answers GetClusterId (an empty request), the first call of
# Ray's own GCS client; a Ray Client server (`ray://HOST:PORT`) answers a
# ClusterInfo PING (b"\x08\x06": ClusterInfoRequest(type=PING)), Ray Client's first.
GCS_PROBE = _Probe("/ray.rpc.NodeInfoGcsService/GetClusterId", b"", "Ray's GCS", "GCS port is 6379")
CLIENT_PROBE = _Probe(
    "/ray.rpc.RayletDriver/ClusterInfo", b"\x08\x06", "Ray Client's", "Ray Client port is 10001"
)


def not_ray(target: str, probe: _Probe) -> str | None:
    """What is wrong with the gRPC answer at `target` (None: Ray answered, or the
    probe cannot tell and ray.init is left to judge)."""
    import grpc

    hint = f"a Ray head's {probe.port} by default"
    channel, token_auth = probe_channel(target)
    if channel is None:
        return None
    try:
        channel.unary_unary(probe.method)(probe.request, timeout=PROBE_SECONDS)
    except grpc.RpcError as error:
        code = error.code() if callable(getattr(error, "code", None)) else None
        details = (error.details() if callable(getattr(error, "details", None)) else "") or ""
        if code == grpc.StatusCode.UNIMPLEMENTED:
            return (
                f"answers but is not a Ray cluster (a gRPC server without {probe.service} "
                f"service; {hint})"
            )
        if code == grpc.StatusCode.UNAVAILABLE and "refused" in details.lower():
            return "stopped listening (connection refused)"
        if code == grpc.StatusCode.UNAVAILABLE:
            return f"answers but is not a Ray cluster (no gRPC there; {hint})"
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            return (
                f"accepts connections but gave no Ray answer within {PROBE_SECONDS:g} s "
                f"(is it a Ray cluster? {hint})"
            )
        if code == grpc.StatusCode.UNAUTHENTICATED and token_auth is False:
            return (
                "is a Ray cluster that wants its authentication token (`ray start --head` "
                "turns token authentication on): run with RAY_AUTH_MODE=token and the "
                "head's token (`ray get-auth-token` there) in RAY_AUTH_TOKEN or ~/.ray/auth_token"
            )
        if code == grpc.StatusCode.UNAUTHENTICATED and token_auth:
            return (
                "is a Ray cluster that refuses this machine's authentication token "
                "(RAY_AUTH_TOKEN or ~/.ray/auth_token): use the head's (`ray get-auth-token` there)"
            )
        return None  # any other refusal is Ray's to explain: ray.init says what it is
    except Exception:  # Ray's channel helper failed (say, its token cannot be read)
        return None
    finally:
        channel.close()
    return None


def probe_channel(target: str) -> tuple[Any, bool | None]:
    """A gRPC channel to `target` as Ray's would be (TLS and its authentication
    token when Ray is set up for them), and whether it sends Ray's token (None:
    not known, the channel is not Ray's); no channel when no probe can be made."""
    import grpc

    try:
        from ray._private.authentication.authentication_utils import is_token_auth_enabled
        from ray._private.grpc_utils import init_grpc_channel

        return init_grpc_channel(target), bool(is_token_auth_enabled())
    except Exception:  # Ray's helper moved, or its TLS or token setup is broken
        if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
            return None, None  # a plaintext probe would misjudge a TLS cluster: ray.init judges
        return grpc.insecure_channel(target), None
