"""A --server the config's sandboxed bots cannot use (a TCP port: they reach
a server only through its Unix socket; on Ray, any --server) is a usage
error of `tournament run` and `tournament sprt`: one line, exit 2, before
anything is made, as `match` and `bot` say it. It exited 1, the status of a
run whose games could not be played."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.tournament_command import tournament_main

REPO = Path(__file__).resolve().parents[2]
CONFIG = str(REPO / "examples" / "round-robin.toml")  # its command-bot is sandboxed
ONLY_THROUGH_A_SOCKET = (
    "sheepfold tournament: sandboxed bots (command-bot) reach the server only through its "
    "Unix socket: start it with `sheepfold serve --listen unix:PATH` and pass "
    "--server unix:PATH (or run without --server)"
)


@pytest.mark.parametrize("server", ["127.0.0.1:1", "[::1]:1", "localhost:1"])
def test_run_on_a_tcp_server_with_sandboxed_bots_is_a_usage_error(
    server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "x.sqlite"
    assert tournament_main(["run", CONFIG, "--db", str(db), "--server", server]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [ONLY_THROUGH_A_SOCKET]
    assert not db.exists()


def test_sprt_on_a_tcp_server_with_sandboxed_bots_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "x.sqlite"
    argv = ["sprt", CONFIG, "--candidate", "command-bot", "--baseline", "random"]
    assert tournament_main([*argv, "--db", str(db), "--server", "127.0.0.1:1"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [ONLY_THROUGH_A_SOCKET]
    assert not db.exists()


def test_a_ray_run_on_a_server_with_sandboxed_bots_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before Ray is asked anything: nothing listens at the Ray address."""
    db = tmp_path / "x.sqlite"
    argv = ["run", CONFIG, "--db", str(db), "--ray", "127.0.0.1:1", "--server", "unix:/tmp/a.sock"]
    assert tournament_main(argv) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "sheepfold tournament: sandboxed bots (command-bot) reach a server only through its "
        "Unix socket, so on Ray each game hosts its own server: run --ray without --server, "
        "or set sandbox = false for bots you trust"
    ]
    assert not db.exists()
