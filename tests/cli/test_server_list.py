"""`tournament run --server A,B,...` deals the games to the servers in turn, so a
server listed twice once played twice its share without a word."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from cli.addresses import server_address, server_addresses
from tests.cli.helpers import random_cup, sheepfold

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("servers", "twice"),
    [
        ("127.0.0.1:5000,127.0.0.1:5000", "127.0.0.1:5000 twice"),
        ("127.0.0.1:5000, 127.0.0.1:5001 ,127.0.0.1:5000", "127.0.0.1:5000 twice"),
        (
            "Arena.example:5000,arena.EXAMPLE:05000",
            "Arena.example:5000 twice (as arena.EXAMPLE:05000)",
        ),
        ("[::1]:5000,[0:0::1]:5000", "[::1]:5000 twice (as [0:0::1]:5000)"),
        (
            "unix:/run/arena.sock,unix:///run//arena.sock",
            "unix:/run/arena.sock twice (as unix:///run//arena.sock)",
        ),
    ],
)
def test_a_server_named_twice_is_refused(servers: str, twice: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        server_addresses(servers)
    assert str(refused.value) == (
        f"{servers!r} names the server {twice}: it would play twice its share "
        "of the games; list each server once"
    )


def test_distinct_servers_pass_and_names_are_not_resolved() -> None:
    """localhost and 127.0.0.1 are left apart: a Ray worker resolves a name on
    its own node, and the text alone cannot tell that they meet."""
    servers = "localhost:5000,127.0.0.1:5000,127.0.0.1:5001,unix:/run/a.sock,unix:/run/b.sock"
    assert server_addresses(servers) == servers


@pytest.mark.parametrize("server", ["127.0.0.1:5000 ", " 127.0.0.1:5000", ""])
def test_one_server_is_checked_as_given_as_the_other_commands_check_theirs(server: str) -> None:
    """`tournament sprt`, `match` and `create` refuse a space around the one
    address; `tournament run` took it off without a word."""
    with pytest.raises(argparse.ArgumentTypeError) as one:
        server_addresses(server)
    with pytest.raises(argparse.ArgumentTypeError) as elsewhere:
        server_address(server)
    assert str(one.value) == str(elsewhere.value)


def test_the_command_refuses_a_server_twice_before_anything_starts(tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup("sheep-n-sheep", database="cup.sqlite"))
    done = sheepfold(
        "tournament", "run", str(config), "--ray", "--server", "127.0.0.1:1,127.0.0.1:1", timeout=30
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        "sheepfold tournament run: error: argument --server: '127.0.0.1:1,127.0.0.1:1' names "
        "the server 127.0.0.1:1 twice: it would play twice its share of the games; "
        "list each server once"
    )
    assert not (tmp_path / "cup.sqlite").exists()
