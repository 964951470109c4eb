"""A server started with an admin token refuses `create` and `match --server`
without one; the answer named the problem ("this server needs an admin token")
but not the fix, the flag or variable that gives the token."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import one_line, random_cup, sheepfold
from tests.conftest import start_server_process, stop_server_process

HINT = " (give it with --admin-token or $SHEEPFOLD_ADMIN_TOKEN)"


@pytest.fixture(scope="module")
def guarded() -> Iterator[ServerProcess]:
    process = start_server_process(env={**os.environ, "SHEEPFOLD_ADMIN_TOKEN": "s3cret-token"})
    try:
        yield process
    finally:
        stop_server_process(process)


def _env(token: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SHEEPFOLD_ADMIN_TOKEN"}
    return env if token is None else {**env, "SHEEPFOLD_ADMIN_TOKEN": token}


@pytest.mark.parametrize(
    ("token", "answer"),
    [
        (None, "UNAUTHENTICATED: this server needs an admin token"),
        ("wrong", "PERMISSION_DENIED: wrong admin token"),
    ],
    ids=["missing", "wrong"],
)
def test_create_and_match_name_the_admin_token_flag(
    guarded: ServerProcess, token: str | None, answer: str
) -> None:
    game = ("--game", "sheep-n-sheep", "--players", "2", "--server", guarded.address)
    created = sheepfold("create", *game, env=_env(token))
    assert created.returncode == 1
    assert one_line(created) == f"sheepfold create: the server refused: {answer}{HINT}"
    played = sheepfold("match", *game, "--bots", "random,random", env=_env(token))
    assert played.returncode == 1
    assert one_line(played) == f"sheepfold match: {answer}{HINT}"


def test_a_tournament_on_that_server_names_the_admin_token_flag(
    guarded: ServerProcess, tmp_path: Path
) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup("sheep-n-sheep", name=None, games_per_pairing=1))
    run = sheepfold(
        "tournament", "run", str(config), "--db", str(tmp_path / "cup.sqlite"),
        "--server", guarded.address, env=_env(None),
    )  # fmt: skip
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == (
        "sheepfold tournament: the server refused game 1:a|b: "
        f"UNAUTHENTICATED: this server needs an admin token{HINT}"
    )


def test_match_without_server_refuses_an_admin_token_it_would_not_use() -> None:
    """`match --admin-token T` without --server played on its own server, which
    has a token of its own, and said nothing of T: a user who forgot --server
    believed the match played on theirs. $SHEEPFOLD_ADMIN_TOKEN, set for every
    command, is still left unused without a word."""
    match = ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random")
    done = sheepfold(*match, "--admin-token", "s3cret-token", env=_env(None))
    assert done.returncode == 2
    assert one_line(done) == (
        "sheepfold match: --admin-token needs --server (without it, match plays on "
        "a server of its own, which makes its own token)"
    )
    assert sheepfold(*match, env=_env("s3cret-token")).returncode == 0
