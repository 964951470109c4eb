"""Security: the admin token (flag, environment, and `sheepfold match --server`
passing it), seat tokens never in the logs, TLS with a self-signed certificate
made here, and keepalive freeing the seat of a frozen peer."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from clients.sdk import play
from tests.conftest import ROOT, ServerProcess, start_server_process, stop_server_process
from tests.integrity.helpers import (
    Case,
    assert_replay_reproduces_result,
    create_request,
    get_match_blocking,
    get_replay,
    log_entries,
    wait_until,
)
from tests.tls_files import self_signed

pytestmark = pytest.mark.e2e

ADMIN = "admin-secret-4f1c9a"
CASE = Case("sheep-n-sheep", 2, {})


@pytest.fixture(scope="module")
def guarded() -> Iterator[ServerProcess]:
    """A server whose admin token comes from SHEEPFOLD_ADMIN_TOKEN."""
    server = start_server_process(env={"SHEEPFOLD_ADMIN_TOKEN": ADMIN})
    try:
        yield server
    finally:
        assert stop_server_process(server) == 0


def test_create_match_needs_the_admin_token(guarded: ServerProcess) -> None:
    with grpc.insecure_channel(guarded.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for token, code in [("", "UNAUTHENTICATED"), ("wrong", "PERMISSION_DENIED")]:
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateMatch(create_request(CASE, 1, admin_token=token))
            assert caught.value.code().name == code
        assert stub.CreateMatch(create_request(CASE, 1, admin_token=ADMIN)).match_id
        # Everything else stays open: bots and spectators need no admin token.
        assert stub.ListGames(arena_pb2.ListGamesRequest()).games


def _token_calls(stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str) -> dict[str, Any]:
    """Every Arena call that takes an admin token, each given `token`, by name."""
    return {
        "CreateMatch": lambda: stub.CreateMatch(create_request(CASE, 1, admin_token=token)),
        "GetMatch": lambda: stub.GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id, admin_token=token)
        ),
        "ListMatches": lambda: stub.ListMatches(arena_pb2.ListMatchesRequest(admin_token=token)),
        "GetReplay": lambda: stub.GetReplay(
            arena_pb2.GetReplayRequest(match_id=match_id, admin_token=token)
        ),
    }


def test_every_call_refuses_a_wrong_admin_token(guarded: ServerProcess) -> None:
    """On a server with an admin token (replays not private), a wrong token is
    PERMISSION_DENIED on every call that takes one, needed or not: GetMatch,
    ListMatches and GetReplay once ignored it, so a mistyped token went unseen
    until the call that needed it. Without a token those calls stay open."""
    with grpc.insecure_channel(guarded.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        match_id = stub.CreateMatch(create_request(CASE, 1, admin_token=ADMIN)).match_id
        for name, call in _token_calls(stub, match_id, "wrong").items():
            with pytest.raises(grpc.RpcError) as caught:
                call()
            assert (name, caught.value.code(), caught.value.details()) == (
                name,
                grpc.StatusCode.PERMISSION_DENIED,
                "wrong admin token",
            )
        assert stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).match_id == match_id
        assert stub.ListMatches(arena_pb2.ListMatchesRequest()).matches
        # The match is not over: FAILED_PRECONDITION, not a refusal of the token.
        for token in ("", ADMIN):
            with pytest.raises(grpc.RpcError) as caught:
                _token_calls(stub, match_id, token)["GetReplay"]()
            assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_a_server_without_an_admin_token_ignores_one_on_every_call() -> None:
    """A server without an admin token has none for a given one to be wrong
    against: every call that takes one answers as if it were empty (a client
    whose $SHEEPFOLD_ADMIN_TOKEN is meant for another server still plays here)."""
    server = start_server_process()
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            match_id = stub.CreateMatch(create_request(CASE, 1, admin_token="any")).match_id
            calls = _token_calls(stub, match_id, "any")
            assert calls["GetMatch"]().match_id == match_id
            assert [info.match_id for info in calls["ListMatches"]().matches] == [match_id]
            with pytest.raises(grpc.RpcError) as caught:
                calls["GetReplay"]()  # the match is not over
            assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        assert stop_server_process(server) == 0


def test_the_admin_token_flag_works_too() -> None:
    server = start_server_process("--admin-token", "flag-token")
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateMatch(create_request(CASE, 1))
            assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert stub.CreateMatch(create_request(CASE, 1, admin_token="flag-token")).match_id
    finally:
        assert stop_server_process(server) == 0


def test_the_admin_token_file_works_and_keeps_the_token_out_of_the_process_list(
    tmp_path: Path,
) -> None:
    """`--admin-token VALUE` shows VALUE to every user of the machine (`ps`);
    `--admin-token-file` reads it from a file (a Docker or Kubernetes secret)."""
    secret = tmp_path / "admin-token"
    secret.write_text("file-token\n")  # the newline `echo` adds is not the token's
    server = start_server_process("--admin-token-file", str(secret))
    try:
        assert b"file-token" not in Path(f"/proc/{server.pid}/cmdline").read_bytes()
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateMatch(create_request(CASE, 1))
            assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert stub.CreateMatch(create_request(CASE, 1, admin_token="file-token")).match_id
    finally:
        assert stop_server_process(server) == 0
    assert not any("file-token" in line for line in server.log_lines)


SERVE_IN_MEMORY = (sys.executable, "-m", "cli", "serve", "--port", "0", "--db", ":memory:")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "No such file or directory"),
        ("", "the file is empty"),
        (" \n", "the file is empty"),
        ("x" * 5000, "longer than 4096 bytes"),
    ],
    ids=["missing", "empty", "blank", "huge"],
)
def test_an_admin_token_file_without_a_token_stops_serve_in_one_line(
    tmp_path: Path, content: str | None, says: str
) -> None:
    secret = tmp_path / "admin-token"
    if content is not None:
        secret.write_text(content)
    done = subprocess.run(
        [*SERVE_IN_MEMORY, "--admin-token-file", str(secret)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1, done.stderr
    assert (
        done.stderr.strip()
        == f"sheepfold serve: --admin-token-file {secret}: "
        + (done.stderr.strip().split(": ", 2)[-1])
    )
    assert says in done.stderr and "Traceback" not in done.stderr


def test_a_blank_admin_token_variable_is_named_not_blamed_on_the_flag(tmp_path: Path) -> None:
    """A SHEEPFOLD_ADMIN_TOKEN of white space stops serve naming the variable (it
    was reported as `argument --admin-token`, a flag the user never gave), and
    does not stand in the way of `--admin-token-file`, which wins over it."""
    blank = {**os.environ, "SHEEPFOLD_ADMIN_TOKEN": " \t"}
    done = subprocess.run(
        SERVE_IN_MEMORY, cwd=ROOT, env=blank, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == (
        "sheepfold serve: SHEEPFOLD_ADMIN_TOKEN holds only white space "
        "(did reading it fail?); unset it to run without a token"
    )
    secret = tmp_path / "admin-token"
    secret.write_text("from-the-file\n")
    server = start_server_process(
        "--admin-token-file", str(secret), env={"SHEEPFOLD_ADMIN_TOKEN": " \t"}
    )
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateMatch(create_request(CASE, 1, admin_token=" \t"))
            # White space alone is no token given, as an empty one is.
            assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert stub.CreateMatch(create_request(CASE, 2, admin_token="from-the-file")).match_id
    finally:
        assert stop_server_process(server) == 0


@pytest.fixture(scope="module")
def private_server() -> Iterator[tuple[ServerProcess, Any]]:
    """A `--private-replays` server (admin token "flag-token") and the outcome
    of the one match played on it."""
    server = start_server_process("--admin-token", "flag-token", "--private-replays")
    try:
        outcome = asyncio.run(
            play_match(
                server.address,
                CASE.game,
                [RandomBot(1), RandomBot(2)],
                admin_token="flag-token",
            )
        )
        yield server, outcome
    finally:
        assert stop_server_process(server) == 0


def test_private_replays_keep_the_match_list_and_replays_for_the_admin_token(
    private_server: tuple[ServerProcess, Any],
) -> None:
    """`--private-replays`: a bot on the server cannot list its matches nor replay
    one (a finished match's seed is a deal other players may still meet);
    the operator can, and every call a bot needs stays open."""
    server, outcome = private_server
    match_id = outcome.match_id
    with grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for token, code in [("", "UNAUTHENTICATED"), ("wrong", "PERMISSION_DENIED")]:
            calls = (
                (stub.ListMatches, arena_pb2.ListMatchesRequest(admin_token=token)),
                (
                    stub.GetReplay,
                    arena_pb2.GetReplayRequest(match_id=match_id, admin_token=token),
                ),
            )
            for method, request in calls:
                with pytest.raises(grpc.RpcError) as caught:
                    method(request)
                assert caught.value.code().name == code
                if code == "UNAUTHENTICATED":
                    assert "private" in (caught.value.details() or "")
        listed = stub.ListMatches(arena_pb2.ListMatchesRequest(admin_token="flag-token"))
        assert [info.match_id for info in listed.matches] == [match_id]
        replay = stub.GetReplay(
            arena_pb2.GetReplayRequest(match_id=match_id, admin_token="flag-token")
        )
        assert_replay_reproduces_result(replay)
        # What a seat needs stays open: its own match's status and the games,
        # but not the seed, which is the deal of every game on that deal number.
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.status == arena_pb2.MATCH_STATUS_FINISHED and info.result.ranks
        assert not info.HasField("seed")
        # A wrong token is refused, as ListMatches and GetReplay refuse it: it
        # once got the match without its seed, quietly.
        wrong = arena_pb2.GetMatchRequest(match_id=match_id, admin_token="wrong")
        with pytest.raises(grpc.RpcError) as caught:
            stub.GetMatch(wrong)
        assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert caught.value.details() == "wrong admin token"
        operator = arena_pb2.GetMatchRequest(match_id=match_id, admin_token="flag-token")
        assert stub.GetMatch(operator).seed == outcome.seed == replay.seed
        assert stub.ListGames(arena_pb2.ListGamesRequest()).games


def test_private_replays_keep_a_finished_match_from_watchers(
    private_server: tuple[ServerProcess, Any],
) -> None:
    """`Watch` carries no token, so on a `--private-replays` server it must not
    replay a match that is over: its public history is that deal's market
    refills, later rounds' boards and every card played, which groups still to
    play the deal (a bot's next copy, told the 64-bit match id through the
    kernel the sandboxes share) would otherwise read as GetReplay's."""
    server, outcome = private_server
    with grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for from_start in (True, False):
            request = arena_pb2.WatchRequest(match_id=outcome.match_id, from_start=from_start)
            with pytest.raises(grpc.RpcError) as caught:
                list(stub.Watch(request, timeout=10))
            assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert "GetReplay" in (caught.value.details() or "")


def test_private_replays_need_an_admin_token() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "serve", "--private-replays", "--db", ":memory:"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "SHEEPFOLD_ADMIN_TOKEN"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "sheepfold serve: --private-replays needs an admin token to read them with "
        "(--admin-token-file, --admin-token or $SHEEPFOLD_ADMIN_TOKEN)"
    )


def _sheepfold_match(address: str, *extra: str, env: dict[str, str] | None = None):
    environment = {k: v for k, v in os.environ.items() if k != "SHEEPFOLD_ADMIN_TOKEN"}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "match",
            "--server",
            address,
            "--game",
            "sheep-n-sheep",
            "--players",
            "2",
            "--bots",
            "random,random",
            "--seed",
            "5",
            "--json",
            *extra,
        ],
        cwd=ROOT,
        env={**environment, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_sheepfold_match_passes_the_admin_token(guarded: ServerProcess) -> None:
    refused = _sheepfold_match(guarded.address)
    assert refused.returncode != 0
    assert "UNAUTHENTICATED" in refused.stderr
    by_flag = _sheepfold_match(guarded.address, "--admin-token", ADMIN)
    assert by_flag.returncode == 0, by_flag.stderr
    by_env = _sheepfold_match(guarded.address, env={"SHEEPFOLD_ADMIN_TOKEN": ADMIN})
    assert by_env.returncode == 0, by_env.stderr
    assert json.loads(by_flag.stdout)["scores"] == json.loads(by_env.stdout)["scores"]


def test_no_token_ever_appears_in_the_logs(guarded: ServerProcess) -> None:
    """A full match, a rejected join, a replaced stream: the JSON logs carry the
    match id and seats, never a seat token or the admin token."""

    async def scenario() -> arena_pb2.CreateMatchResponse:
        async with grpc.aio.insecure_channel(guarded.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = await stub.CreateMatch(create_request(CASE, 8, admin_token=ADMIN))
            wrong = stub.Play()
            await wrong.write(
                arena_pb2.PlayRequest(
                    join=arena_pb2.Join(
                        match_id=created.match_id, token=created.seat_tokens[0] + "x"
                    )
                )
            )
            with pytest.raises(grpc.aio.AioRpcError):
                await wrong.read()
        await asyncio.gather(
            *(
                play(RandomBot(seat), guarded.address, created.match_id, token, seat)
                for seat, token in enumerate(created.seat_tokens)
            )
        )
        return created

    created = asyncio.run(scenario())
    wait_until(
        lambda: any(
            e.get("event") == "match finished" and e.get("match_id") == created.match_id
            for e in log_entries(guarded.log_lines)
        ),
        what="the match to finish in the logs",
    )
    text = "".join(guarded.log_lines)
    assert created.match_id in text, "the logs do describe the match"
    assert "join refused" in text
    for secret in [ADMIN, *created.seat_tokens]:
        assert secret not in text


# ---------------------------------------------------------------- TLS


def test_tls_serves_a_whole_match_and_refuses_plaintext(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        started = next(e for e in log_entries(server.log_lines) if e["event"] == "server started")
        assert started["tls"] is True
        credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())

        async def scenario() -> tuple[arena_pb2.MatchResult, str]:
            async with grpc.aio.secure_channel(server.address, credentials) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                created = await stub.CreateMatch(create_request(CASE, 12), timeout=10)
                health = await health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(), timeout=10
                )
                assert health.status == health_pb2.HealthCheckResponse.SERVING
            results = await asyncio.gather(
                *(
                    play(
                        RandomBot(seat),
                        server.address,
                        created.match_id,
                        token,
                        seat,
                        credentials=credentials,
                    )
                    for seat, token in enumerate(created.seat_tokens)
                )
            )
            async with grpc.aio.secure_channel(server.address, credentials) as channel:
                replay = await arena_pb2_grpc.ArenaStub(channel).GetReplay(
                    arena_pb2.GetReplayRequest(match_id=created.match_id)
                )
            assert_replay_reproduces_result(replay)
            return results[0], created.match_id

        result, _ = asyncio.run(scenario())
        assert len(result.scores) == 2

        with grpc.insecure_channel(server.address) as plain:
            with pytest.raises(grpc.RpcError) as caught:
                arena_pb2_grpc.ArenaStub(plain).ListGames(arena_pb2.ListGamesRequest(), timeout=5)
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        assert stop_server_process(server) == 0


def _serve_with_tls(cert: Path, key: Path) -> subprocess.CompletedProcess[str]:
    """`sheepfold serve` with this certificate and key, run until it exits."""
    serve = [sys.executable, "-m", "cli", "serve", "--port", "0", "--db", ":memory:"]
    return subprocess.run(
        [*serve, "--tls-cert", str(cert), "--tls-key", str(key)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.parametrize("mismatch", ["another key", "not pem"])
def test_a_key_that_is_not_the_certificates_is_one_line(tmp_path: Path, mismatch: str) -> None:
    """A key from another pair (or a file that is not PEM) once made gRPC print
    its own lines and the server blame the port: "gRPC could not bind it"."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    cert, _ = self_signed(tmp_path / "a")
    _, other_key = self_signed(tmp_path / "b")
    if mismatch == "not pem":
        other_key.write_text("this is no key\n")
    done = _serve_with_tls(cert, other_key)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    if mismatch == "another key":
        assert lines[0] == (
            f"sheepfold serve: --tls-key {other_key} is not the key of --tls-cert {cert}"
        )
    else:
        # A file holding no key at all is named on its own (not the pair).
        assert lines[0] == (
            f"sheepfold serve: --tls-key {other_key} holds no PEM private key "
            "(-----BEGIN PRIVATE KEY-----)"
        )


def test_tls_needs_both_files() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "serve", "--tls-cert", "x.pem", "--db", ":memory:"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2  # a usage error, as every flag that cannot go alone
    assert "--tls-cert and --tls-key go together" in done.stderr


# ---------------------------------------------------------------- keepalive


def test_keepalive_frees_the_seat_of_a_frozen_bot(tmp_path: Path) -> None:
    """A bot process that stops (SIGSTOP) without closing its connection is noticed
    by the server's pings and its seat shows disconnected; resumed, it rejoins and
    the match finishes."""
    server = start_server_process("--keepalive-seconds", "1", "--keepalive-timeout", "1")
    bot = None
    log_path = tmp_path / "bot.log"
    bot_log = log_path.open("w")
    try:
        with grpc.insecure_channel(server.address) as channel:
            created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                create_request(CASE, 13, decision_seconds=60)
            )
        bot = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli",
                "bot",
                "--server",
                server.address,
                "--match",
                created.match_id,
                "--token",
                created.seat_tokens[0],
                "--bot",
                "tests.integrity.helpers:SteadyBot",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=bot_log,
            text=True,
        )

        def seat0_connected() -> bool:
            return get_match_blocking(server.address, created.match_id).seats[0].connected

        async def opponent() -> arena_pb2.MatchResult:
            return await play(
                RandomBot(1), server.address, created.match_id, created.seat_tokens[1], 1
            )

        import threading

        outcome: list[arena_pb2.MatchResult] = []
        thread = threading.Thread(
            target=lambda: outcome.append(asyncio.run(opponent())), daemon=True
        )
        thread.start()
        try:
            wait_until(lambda: get_match_blocking(server.address, created.match_id).moves >= 2)
        except AssertionError:
            bot_log.flush()
            raise AssertionError(
                f"the match did not start: bot exit code {bot.poll()}, opponent thread "
                f"alive {thread.is_alive()}, bot stderr:\n{log_path.read_text()[-3000:]}"
            ) from None
        bot.send_signal(signal.SIGSTOP)
        frozen_at = time.monotonic()
        wait_until(lambda: not seat0_connected(), timeout=15, what="the frozen seat to drop")
        assert time.monotonic() - frozen_at < 10
        bot.send_signal(signal.SIGCONT)
        out, _ = bot.communicate(timeout=60)
        thread.join(30)
        assert bot.returncode == 0
        assert json.loads(out)["scores"] == list(outcome[0].scores)
        assert_replay_reproduces_result(asyncio.run(get_replay(server.address, created.match_id)))
    finally:
        if bot is not None and bot.poll() is None:
            bot.send_signal(signal.SIGCONT)
            bot.kill()
        bot_log.close()
        assert stop_server_process(server) == 0


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "huge"])
def test_a_tls_file_that_is_no_file_or_too_big_is_one_line(tmp_path: Path, kind: str) -> None:
    """/dev/zero was read until memory ran out, and a FIFO waited for a writer
    for ever."""
    cert, key = self_signed(tmp_path)
    if kind == "/dev/zero":
        key = Path("/dev/zero")
    elif kind == "fifo":
        key = tmp_path / "key.fifo"
        os.mkfifo(key)
    else:
        key.write_bytes(b"-" * (2 * 1024 * 1024))
    done = _serve_with_tls(cert, key)
    assert done.returncode == 1, done.stderr
    why = "larger than a PEM file can be (1 MB)" if kind == "huge" else "not a regular file"
    assert done.stderr.strip() == f"sheepfold serve: --tls-key {key}: {why}"
