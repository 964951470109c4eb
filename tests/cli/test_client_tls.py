"""The commands that call a server reach a TLS one (`--tls-ca FILE`, `--tls`),
and every way that can go wrong is one line: the wrong CA, plaintext to a TLS
server, TLS to a plaintext one, a CA file that is no certificate."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import command, one_line, sheepfold
from tests.conftest import ROOT, start_server_process, stop_server_process
from tests.tls_files import self_signed

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_server(certificate: tuple[Path, Path]) -> Iterator[ServerProcess]:
    cert, key = certificate
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    yield server
    assert stop_server_process(server) == 0


def test_health_create_match_and_bot_reach_a_tls_server(
    tls_server: ServerProcess, certificate: tuple[Path, Path]
) -> None:
    ca = str(certificate[0])
    health = sheepfold("health", "--addr", tls_server.address, "--tls-ca", ca)
    assert (health.returncode, health.stdout.strip()) == (0, f"{tls_server.address}: SERVING")

    match = sheepfold(
        "match", "--server", tls_server.address, "--tls-ca", ca,
        "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random", "--json",
    )  # fmt: skip
    assert match.returncode == 0, match.stderr
    assert sorted(json.loads(match.stdout)["ranks"]) in ([1, 1], [1, 2])

    created = sheepfold(
        "create", "--server", tls_server.address, "--tls-ca", ca,
        "--game", "stubborn-sheep", "--players", "2", "--json",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    data = json.loads(created.stdout)
    bots = [
        subprocess.Popen(
            command(
                "bot",
                "--server",
                tls_server.address,
                "--tls-ca",
                ca,
                "--match",
                data["match_id"],
                "--token",
                token,
            ),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for token in data["seat_tokens"]
    ]
    results = [bot.communicate(timeout=120) for bot in bots]
    assert [bot.returncode for bot in bots] == [0, 0], results
    assert len({out for out, _ in results}) == 1, "both seats got the same result"
    assert json.loads(results[0][0])["ranks"]


def test_plaintext_to_a_tls_server_says_so_in_one_line(tls_server: ServerProcess) -> None:
    done = sheepfold(
        "create", "--server", tls_server.address, "--game", "sheep-n-sheep", "--players", "2"
    )
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold create: cannot reach the server at {tls_server.address}: the server closed "
        "the connection (if it serves TLS, connect with TLS)"
    )


def test_a_certificate_the_client_does_not_trust_is_one_line(tls_server: ServerProcess) -> None:
    """--tls checks against the system's authorities, which do not know a self-signed one."""
    done = sheepfold("health", "--addr", tls_server.address, "--tls")
    assert done.returncode == 1
    assert one_line(done) == (
        f"{tls_server.address}: UNAVAILABLE: the TLS handshake failed: the server's "
        "certificate is not trusted (self signed certificate)"
    ), "gRPC's own INFO line about the handshake stays out of the way"


def test_tls_to_a_plaintext_server_says_so_in_one_line(
    server_process: ServerProcess, certificate: tuple[Path, Path]
) -> None:
    done = sheepfold(
        "create", "--server", server_process.address, "--tls-ca", str(certificate[0]),
        "--game", "sheep-n-sheep", "--players", "2",
    )  # fmt: skip
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold create: cannot reach the server at {server_process.address}: the TLS "
        "handshake failed: the server does not speak TLS (a plaintext server?)"
    )


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("/dev/zero", "not a regular file"),
        ("README.md", "holds no PEM certificate"),
        ("/dev/null", "not a regular file"),
        ("@empty", "holds no PEM certificate"),
        ("@key", "holds no PEM certificate"),
    ],
)
def test_a_ca_file_that_is_no_certificate_is_one_line(
    name: str, problem: str, tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    """An empty file once loaded as no authority at all and passed for --tls."""
    if name == "@empty":
        name = str(tmp_path / "empty.pem")
        Path(name).write_bytes(b"")
    elif name == "@key":
        name = str(certificate[1])
    done = sheepfold(
        "create", "--server", "127.0.0.1:1", "--tls-ca", name,
        "--game", "sheep-n-sheep", "--players", "2",
    )  # fmt: skip
    assert done.returncode == 1
    assert one_line(done) == f"sheepfold create: --tls-ca {name}: {problem}"


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (
            ("--server", "127.0.0.1:1", "--bots", "random,cmd:true"),
            "--tls and --tls-ca are for this command's own calls; a command bot connects "
            "to the server by itself (sandboxed ones through a Unix socket)",
        ),
        (("--bots", "random,random"), "--tls and --tls-ca need --server"),
    ],
)
def test_match_refuses_tls_it_cannot_give(args: tuple[str, ...], problem: str) -> None:
    done = sheepfold(
        "match", "--game", "sheep-n-sheep", "--players", "2", "--tls", "--no-sandbox", *args
    )
    assert done.returncode == 1
    assert one_line(done) == f"sheepfold match: {problem}"


def test_a_bundle_with_comments_in_any_language_is_taken(
    tls_server: ServerProcess, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    """System bundles carry comments naming each authority, in UTF-8."""
    bundle = tmp_path / "bundle.pem"
    bundle.write_bytes("# Issuer: CN=Főtanúsítvány\n".encode() + certificate[0].read_bytes())
    done = sheepfold("health", "--addr", tls_server.address, "--tls-ca", str(bundle))
    assert (done.returncode, done.stdout.strip()) == (0, f"{tls_server.address}: SERVING")


def test_tls_over_a_unix_socket_is_refused(tmp_path: Path) -> None:
    address = f"unix:{tmp_path / 'arena.sock'}"
    done = sheepfold("health", "--addr", address, "--tls")
    assert done.returncode == 1
    assert one_line(done) == (
        "sheepfold health: --tls and --tls-ca are for TCP addresses; a Unix socket is "
        "never served with TLS"
    )
