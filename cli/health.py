"""`sheepfold health`: ask a server whether it is serving, as probes do."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cli.addresses import server_address
from cli.client_tls import add_tls_flags, client_credentials
from cli.environment import FromEnvironment, environment_default, naming_variable
from cli.values import seconds_up_to

if TYPE_CHECKING:
    import grpc

# A health check waits at most this long for its answer.
MAX_HEALTH_SECONDS = 3600


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "health",
        help="ask a server whether it is serving (exit 0 only when SERVING)",
        description="Query grpc.health.v1.Health; exit 0 when the server reports SERVING, "
        "1 otherwise (not serving, unreachable or timed out).",
    )
    parser.add_argument(
        "--addr",
        default=_default_address(),
        type=naming_variable(server_address),
        metavar="ADDR",
        help="HOST:PORT or unix:PATH (default: $SHEEPFOLD_HEALTH_ADDR, else 127.0.0.1 and "
        "$SHEEPFOLD_HEALTH_PORT, $SHEEPFOLD_PORT or 50051)",
    )
    add_tls_flags(parser)
    parser.add_argument(
        "--service",
        default="",
        help="the service to ask: the whole server (default) or sheepfold.v1.Arena, "
        "NOT_SERVING while the database cannot be written (readiness); liveness, "
        "SERVING from start to shutdown whatever the database does",
    )
    parser.add_argument(
        "--timeout",
        type=seconds_up_to(MAX_HEALTH_SECONDS),
        default=3.0,
        help=f"seconds, more than 0 and at most {MAX_HEALTH_SECONDS:,} (default %(default)s)",
    )
    parser.set_defaults(handler=run_health)


def _default_address() -> str:
    """The address the environment gives (what the image's HEALTHCHECK relies on),
    remembering which variable gave it, so that a bad one is named."""
    address = environment_default("SHEEPFOLD_HEALTH_ADDR")
    if address:
        return address
    for variable in ("SHEEPFOLD_HEALTH_PORT", "SHEEPFOLD_PORT"):
        port = environment_default(variable)
        if port:
            return FromEnvironment(f"127.0.0.1:{port}", variable)
    return "127.0.0.1:50051"


def run_health(args: argparse.Namespace) -> int:
    import asyncio

    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from clients.connect import our_details, reason_at

    credentials = client_credentials(args, "health", args.addr)
    try:
        with _health_channel(args.addr, credentials) as channel:
            response = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout
            )
    except grpc.RpcError as error:
        details = error.details() or (
            f"the server has no service {args.service!r}"
            if error.code() == grpc.StatusCode.NOT_FOUND
            else "no details"
        )
        details = our_details(error.code(), details)
        if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            details = asyncio.run(reason_at(args.addr, error, args.timeout))
        # Prefixed as every other command's lines on stderr; the answer on
        # stdout ("ADDR: SERVING") is the command's output, as probes read it.
        print(f"sheepfold health: {args.addr}: {error.code().name}: {details}", file=sys.stderr)
        return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    print(f"{args.addr}: {status}")
    return 0 if response.status == health_pb2.HealthCheckResponse.SERVING else 1


def _health_channel(address: str, credentials: grpc.ChannelCredentials | None) -> grpc.Channel:
    import grpc

    if credentials is not None:
        return grpc.secure_channel(address, credentials)
    return grpc.insecure_channel(address)
