"""Several unix: sockets in one --server: a list, refused without --ray as
any list is. The refusal let a list starting with `unix:` through as one
socket's path, so `tournament run --server unix:A,unix:B` played every game
on A (gRPC reads a comma in a unix: target as a list and dialled the first)
and handed each sandboxed bot the whole text as one socket, which crashed it
in every game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.tournament_command import tournament_main
from tournament.config import load_config
from tournament.runner import RunError, run_tournament

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "servers",
    ["unix:{folder}/a.sock,unix:{folder}/b.sock", "unix:{folder}/a.sock,127.0.0.1:1"],
)
def test_a_list_of_unix_sockets_without_ray_is_a_usage_error(
    servers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(REPO / "examples" / "round-robin.toml")
    db = tmp_path / "x.sqlite"
    server = servers.format(folder=tmp_path)
    assert tournament_main(["run", config, "--db", str(db), "--server", server]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "sheepfold tournament: several --server addresses need --ray "
        "(games spread over a Ray cluster)"
    ]
    assert not db.exists()


def test_the_runner_refuses_a_list_of_unix_sockets_without_ray(tmp_path: Path) -> None:
    config = load_config(REPO / "examples" / "round-robin.toml")
    server = f"unix:{tmp_path}/a.sock,unix:{tmp_path}/b.sock"
    with pytest.raises(RunError, match="several --server addresses need --ray"):
        run_tournament(config, server=server, database=str(tmp_path / "x.sqlite"))
    assert not (tmp_path / "x.sqlite").exists()


def test_an_sprt_refuses_a_list_of_unix_sockets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(REPO / "examples" / "sprt.toml")
    db = tmp_path / "x.sqlite"
    server = "unix:/tmp/a.sock,unix:/tmp/b.sock"  # short: a socket path holds 107 bytes
    assert tournament_main(["sprt", config, "--db", str(db), "--server", server]) == 2
    err = capsys.readouterr().err
    assert f"an SPRT plays on one server, and --server names several: {server}" in err
    assert not db.exists()
