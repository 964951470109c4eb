"""The commands that call a server reach a TLS one (`--tls-ca FILE`, `--tls`),
and every way that can go wrong is one line: the wrong CA, plaintext to a TLS
server, TLS to a plaintext one, a CA file that is no certificate."""

from __future__ import annotations

import dataclasses
import json
import pickle
import shlex
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
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


def test_the_bot_line_create_prints_reaches_a_tls_server(
    tls_server: ServerProcess, certificate: tuple[Path, Path]
) -> None:
    """The text output ends with the `sheepfold bot` line to play a seat: copied
    as printed, with a seat's token in place of TOKEN, it must connect the way
    `create` did (it once left out --tls-ca and got "the server closed the
    connection")."""
    created = sheepfold(
        "create", "--server", tls_server.address, "--tls-ca", str(certificate[0]),
        "--game", "stubborn-sheep", "--players", "2",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    lines = created.stdout.splitlines()
    tokens = [line.split()[-1] for line in lines if line.startswith("seat ")]
    (hint,) = [line for line in lines if line.startswith("play a seat: ")]
    printed = shlex.split(hint.removeprefix("play a seat: ").partition(" (")[0])
    assert printed[0] == "sheepfold" and "TOKEN" in printed, hint
    bots = [
        subprocess.Popen(
            command(*[token if part == "TOKEN" else part for part in printed[1:]]),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for token in tokens
    ]
    results = [bot.communicate(timeout=120) for bot in bots]
    assert [bot.returncode for bot in bots] == [0, 0], results


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
        f"sheepfold health: {tls_server.address}: UNAVAILABLE: the TLS handshake failed: the "
        "server's certificate is not trusted (self signed certificate): give its "
        "certificate (or its authority's) with --tls-ca FILE"
    ), "gRPC's own INFO line about the handshake stays out of the way; the fix is named"


def test_the_sdks_untrusted_certificate_names_its_own_argument(
    tls_server: ServerProcess, certificate: tuple[Path, Path]
) -> None:
    """A bot of your own on the SDK has no --tls-ca: the line once named that
    flag. The argument it names, given the certificate, reaches the server; the
    commands, whose flags make the same credentials, still name their flag."""
    import asyncio

    import grpc

    from clients.bots.random_bot import RandomBot
    from clients.connect import Unreachable
    from clients.sdk import SeatError, play

    def seat(credentials: grpc.ChannelCredentials) -> Exception:
        coroutine = play(RandomBot(0), tls_server.address, "m", "t", credentials=credentials)
        with pytest.raises((Unreachable, SeatError)) as raised:
            asyncio.run(asyncio.wait_for(coroutine, timeout=20))
        return raised.value

    untrusted = seat(grpc.ssl_channel_credentials())
    assert isinstance(untrusted, Unreachable)
    assert untrusted.why.endswith(
        "not trusted (self signed certificate): give its certificate (or its authority's) "
        "to play() as credentials=grpc.ssl_channel_credentials(PEM bytes)"
    ), untrusted.why
    trusted = seat(grpc.ssl_channel_credentials(certificate[0].read_bytes()))
    assert isinstance(trusted, SeatError) and trusted.code == grpc.StatusCode.NOT_FOUND, trusted

    done = sheepfold("bot", "--server", tls_server.address, "--match", "m", "--token", "t", "--tls")
    assert done.returncode == 1
    assert one_line(done).endswith(
        "not trusted (self signed certificate): give its certificate (or its authority's) "
        "with --tls-ca FILE"
    ), done.stderr


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


def test_the_viewer_with_tls_on_a_plaintext_server_logs_no_grpc_lines(
    server_process: ServerProcess, certificate: tuple[Path, Path]
) -> None:
    """Each page asked for wrote gRPC's own "I1205 ... ssl_transport_security.cc
    ... Handshake failed" lines to the viewer's stderr, as create once did."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
    viewer = subprocess.Popen(
        command(
            "web", "--server", server_process.address, "--tls-ca", str(certificate[0]),
            "--port", str(port),
        ),
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/matches", timeout=10)
            except urllib.error.HTTPError as refused:
                assert refused.code == 502
                said = json.loads(refused.read())["error"]
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, "the viewer did not start"
                time.sleep(0.2)
    finally:
        viewer.send_signal(signal.SIGINT)
        _, stderr = viewer.communicate(timeout=30)
    assert "ssl_transport_security" not in stderr, stderr
    assert "Traceback" not in stderr, stderr
    # It once said only "does not answer", as of a server that is down.
    assert said == (
        "the game server does not answer (ListMatches): the TLS handshake failed: "
        "the server does not speak TLS (a plaintext server?)"
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
    assert done.returncode == 2
    assert one_line(done) == f"sheepfold create: --tls-ca {name}: {problem}"


@pytest.mark.parametrize(
    "args",
    [
        ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random",
         "--server", "127.0.0.1:1"),
        ("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t"),
        ("health", "--addr", "127.0.0.1:1"),
        ("create", "--server", "127.0.0.1:1", "--game", "sheep-n-sheep", "--players", "2"),
        ("web", "--server", "127.0.0.1:1", "--port", "0"),
    ],
)  # fmt: skip
@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("/no/such/ca.pem", "No such file or directory"),
        ("README.md", "holds no PEM certificate"),
    ],
)
def test_a_ca_file_it_cannot_use_is_a_usage_error_for_every_command(
    args: tuple[str, ...], name: str, problem: str
) -> None:
    """A missing file, or one that holds no certificate, is a mistake in the
    flags, found before anything connects: exit 2, as `tournament` says (and
    its --help), where `match`, `create`, `bot`, `health` and `web` exited 1,
    the status of a call that failed."""
    done = sheepfold(*args, "--tls-ca", name)
    assert done.returncode == 2, done.stderr
    line = one_line(done)
    assert line.startswith(f"sheepfold {args[0]}: --tls-ca {name}: "), line
    assert problem in line, line


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
    assert done.returncode == 2
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
    assert done.returncode == 2
    assert one_line(done) == (
        "sheepfold health: --tls and --tls-ca are for TCP addresses; a Unix socket is "
        "never served with TLS"
    )


def _cup(tmp_path: Path, bots: str = "") -> Path:
    """A small Sheep Showdown (one round) round robin of two built-in bots."""
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\ngames_per_pairing = 2\nbootstrap = 50\n'
        "[options]\nrounds = 1\n"
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
        '[[bots]]\nname = "greedy"\nbuiltin = "greedy"\n' + bots
    )
    return path


def test_a_tournament_and_an_sprt_play_on_a_tls_server(
    tls_server: ServerProcess, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    """The runner's calls and its in-process bots all reach the server over TLS."""
    ca, config = str(certificate[0]), str(_cup(tmp_path))
    run = sheepfold(
        "tournament", "run", config, "--server", tls_server.address, "--tls-ca", ca,
        "--db", str(tmp_path / "cup.sqlite"), "--no-report", timeout=180,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "4 games played" in run.stderr and "4/4 done" in run.stderr
    with sqlite3.connect(tmp_path / "cup.sqlite") as db:
        stored = db.execute("SELECT count(*) FROM game_replays").fetchone()
    assert stored == (4,), "every game's record was fetched over TLS"

    sprt = sheepfold(
        "tournament", "sprt", config, "--server", tls_server.address, "--tls-ca", ca,
        "--candidate", "greedy", "--baseline", "random", "--max-games", "4",
        "--db", str(tmp_path / "sprt.sqlite"), timeout=180,
    )  # fmt: skip
    assert sprt.returncode in (0, 3, 4), sprt.stderr  # H1, H0, undecided after 4 games
    assert "4 games played this run" in sprt.stdout, sprt.stdout


def test_a_tournament_without_tls_on_a_tls_server_stops_at_once(
    tls_server: ServerProcess, tmp_path: Path
) -> None:
    run = sheepfold(
        "tournament", "run", str(_cup(tmp_path)), "--server", tls_server.address,
        "--db", str(tmp_path / "cup.sqlite"), "--no-report",
    )  # fmt: skip
    assert run.returncode == 1
    assert (
        f"cannot reach the server at {tls_server.address}: the server closed the connection "
        "(if it serves TLS, connect with TLS)"
    ) in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("subcommand", ["run", "sprt"])
def test_a_tournament_with_tls_on_a_plaintext_server_says_so_in_one_line(
    server_process: ServerProcess, certificate: tuple[Path, Path], tmp_path: Path, subcommand: str
) -> None:
    """gRPC's own "I1205 ... ssl_transport_security.cc ... Handshake failed"
    lines came first, twice, as they once did for create, match, bot and health."""
    done = sheepfold(
        "tournament", subcommand, str(_cup(tmp_path)), "--server", server_process.address,
        "--tls-ca", str(certificate[0]), "--db", str(tmp_path / "cup.sqlite"),
    )  # fmt: skip
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold tournament: cannot reach the server at {server_process.address}: the TLS "
        "handshake failed: the server does not speak TLS (a plaintext server?)"
    )


@pytest.mark.parametrize("subcommand", ["run", "sprt"])
@pytest.mark.parametrize(
    ("server", "bots", "problem"),
    [
        (
            None,
            "",
            "--tls and --tls-ca are for --server (the in-process server needs no TLS)",
        ),
        (
            "127.0.0.1:1",
            '[[bots]]\nname = "own"\ncommand = ["true"]\nsandbox = false\n',
            "--tls and --tls-ca are for the runner's own calls and its in-process bots; "
            "command bots (own) connect to the server by themselves (sandboxed ones "
            "through a Unix socket, which never uses TLS)",
        ),
        (
            "unix:/tmp/nowhere.sock",
            "",
            "--tls and --tls-ca are for TCP addresses; a Unix socket is never served with TLS",
        ),
    ],
)
def test_a_tournament_refuses_tls_it_cannot_give(
    subcommand: str, server: str | None, bots: str, problem: str, tmp_path: Path
) -> None:
    where = ["--server", server] if server else []
    done = sheepfold(
        "tournament", subcommand, str(_cup(tmp_path, bots)), "--tls", *where,
        "--db", str(tmp_path / "cup.sqlite"),
    )  # fmt: skip
    assert done.returncode == 2
    assert one_line(done) == f"sheepfold tournament: {problem}"
    assert not (tmp_path / "cup.sqlite").exists(), "refused before anything was written"


@pytest.mark.parametrize("subcommand", ["run", "sprt"])
def test_a_tournament_refuses_a_ca_file_that_is_no_certificate_as_a_usage_error(
    subcommand: str, tmp_path: Path
) -> None:
    """`sprt --help` says exit status 2 is a bad config or option; such a file
    exited 1, the status of games that could not be played."""
    done = sheepfold(
        "tournament", subcommand, str(_cup(tmp_path)), "--server", "127.0.0.1:1",
        "--tls-ca", "README.md", "--db", str(tmp_path / "cup.sqlite"),
    )  # fmt: skip
    assert done.returncode == 2
    assert one_line(done) == ("sheepfold tournament: --tls-ca README.md: holds no PEM certificate")
    assert not (tmp_path / "cup.sqlite").exists()


def test_a_ray_worker_plays_its_game_over_tls(
    tls_server: ServerProcess, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    """What a Ray task gets is pickled: the CA travels with the game, as bytes, and
    the worker plays on the TLS server with it (run here without Ray)."""
    from clients.connect import ServerTls
    from tournament.config import load_config
    from tournament.executors.ray_task import GameJob, play_on_worker
    from tournament.runner import schedule_for

    config = load_config(_cup(tmp_path))
    scheduled = schedule_for(config)[0]
    job = GameJob(config, scheduled, tls_server.address, "", ServerTls(certificate[0].read_bytes()))
    outcome = play_on_worker(pickle.loads(pickle.dumps(job)))
    assert outcome.error is None and outcome.record is not None
    assert outcome.record.key == scheduled.key and outcome.replay

    plaintext = play_on_worker(dataclasses.replace(job, tls=None))
    assert plaintext.fatal and "connect with TLS" in (plaintext.error or "")


def test_a_certificate_for_another_host_name_is_one_line_naming_it(tmp_path: Path) -> None:
    """A certificate the client trusts (--tls-ca) that names another host than
    the address's (the server reached by its IP address, the certificate made
    for its name): gRPC said only "hostname Verification Check failed."."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=arena.example", "-addext", "subjectAltName=DNS:arena.example",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        done = sheepfold(
            "create", "--server", server.address, "--tls-ca", str(cert),
            "--game", "sheep-n-sheep", "--players", "2",
        )  # fmt: skip
    finally:
        assert stop_server_process(server) == 0
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold create: cannot reach the server at {server.address}: the TLS handshake "
        "failed: the server's certificate does not name the address's host (connect by a "
        "host name the certificate holds)"
    )
