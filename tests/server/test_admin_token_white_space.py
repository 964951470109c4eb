"""White space around an admin token is no part of it, on the server's side and
the client's: `serve --admin-token-file` drops the newline (or CRLF) its file
ends with, so the same file's text given to a client (`--admin-token "$(cat
token)"` keeps a Windows file's CR) was refused "wrong admin token"; and a
server given the token in $SHEEPFOLD_ADMIN_TOKEN with its file's newline (a
Kubernetes Secret made with --from-file) refused the token typed by hand.

A real TLS server on loopback, a raw grpcio client, as a deployment meets them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.launch import ServerProcess
from tests.conftest import start_server_process, stop_server_process
from tests.tls_files import self_signed

pytestmark = pytest.mark.e2e

TOKEN = "s3cret-admin"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module", params=["a CRLF file", "a variable ending in a newline"])
def server(
    request: pytest.FixtureRequest,
    certificate: tuple[Path, Path],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[ServerProcess]:
    cert, key = certificate
    env = {k: v for k, v in os.environ.items() if k != "SHEEPFOLD_ADMIN_TOKEN"}
    flags = ["--tls-cert", str(cert), "--tls-key", str(key)]
    if request.param == "a CRLF file":
        token_file = tmp_path_factory.mktemp("token") / "admin-token"
        token_file.write_bytes(f"{TOKEN}\r\n".encode())
        flags += ["--admin-token-file", str(token_file)]
    else:
        env["SHEEPFOLD_ADMIN_TOKEN"] = f"{TOKEN}\n"
    process = start_server_process(*flags, env=env)
    yield process
    assert stop_server_process(process) == 0


def answer(server: ServerProcess, cert: Path, admin_token: str) -> tuple[grpc.StatusCode, str]:
    """CreateMatch's status and its details for `admin_token`, over TLS checked
    against `cert`."""
    credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
    with grpc.secure_channel(server.address, credentials) as channel:
        request = arena_pb2.CreateMatchRequest(
            game="sheep-showdown", players=2, admin_token=admin_token
        )
        try:
            arena_pb2_grpc.ArenaStub(channel).CreateMatch(request, timeout=30)
        except grpc.RpcError as error:
            return error.code(), error.details() or ""
        return grpc.StatusCode.OK, ""


def create(server: ServerProcess, cert: Path, admin_token: str) -> grpc.StatusCode:
    """CreateMatch's status for `admin_token`."""
    return answer(server, cert, admin_token)[0]


@pytest.mark.parametrize(
    "presented",
    [TOKEN, f"{TOKEN}\n", f"{TOKEN}\r\n", f"{TOKEN}\r", f" {TOKEN}\t"],
    ids=["bare", "newline", "crlf", "cr", "spaces and tab"],
)
def test_the_token_with_white_space_around_it_is_the_token(
    server: ServerProcess, certificate: tuple[Path, Path], presented: str
) -> None:
    assert create(server, certificate[0], presented) == grpc.StatusCode.OK


@pytest.mark.parametrize(
    ("presented", "code"),
    [
        ("", grpc.StatusCode.UNAUTHENTICATED),
        (f"{TOKEN}x", grpc.StatusCode.PERMISSION_DENIED),
        (TOKEN[:-1], grpc.StatusCode.PERMISSION_DENIED),
        (f"{TOKEN} {TOKEN}", grpc.StatusCode.PERMISSION_DENIED),
    ],
    ids=["none", "one more", "one less", "twice"],
)
def test_anything_else_is_still_refused(
    server: ServerProcess, certificate: tuple[Path, Path], presented: str, code: grpc.StatusCode
) -> None:
    assert create(server, certificate[0], presented) == code


@pytest.mark.parametrize("presented", ["  \r\n", "\n", " \t "], ids=["crlf", "newline", "blanks"])
def test_white_space_alone_is_no_token_given(
    server: ServerProcess, certificate: tuple[Path, Path], presented: str
) -> None:
    """A token of white space alone (`--admin-token "$(cat FILE)"` of an empty
    file with its newline) is the same mistake as none: it was refused
    PERMISSION_DENIED "wrong admin token", as if mistyped, where none is told
    UNAUTHENTICATED "this server needs an admin token"."""
    assert answer(server, certificate[0], presented) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "this server needs an admin token",
    )
