"""Each sandboxed bot gets the socket the fewest running bots hold."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from clients.launch.socket_dir import SocketLeases, private_socket, private_sockets


def test_one_socket_each_while_there_are_enough() -> None:
    leases = SocketLeases(["a", "b", "c"])
    assert [leases.lease() for _ in range(3)] == ["a", "b", "c"]


def test_a_released_socket_is_the_next_one_given() -> None:
    leases = SocketLeases(["a", "b", "c"])
    for _ in range(3):
        leases.lease()
    leases.release("b")
    assert leases.lease() == "b"


def test_more_bots_than_sockets_share_them_evenly() -> None:
    leases = SocketLeases(["a", "b"])
    given = [leases.lease() for _ in range(5)]
    assert given == ["a", "b", "a", "b", "a"]
    assert (leases.held("a"), leases.held("b")) == (3, 2)


def test_a_release_too_many_does_not_go_below_zero() -> None:
    leases = SocketLeases(["a", "b"])
    leases.release("a")
    assert leases.lease() == "a" and leases.held("a") == 1


def test_no_socket_is_an_error() -> None:
    with pytest.raises(ValueError):
        SocketLeases([])


def test_private_sockets_share_one_private_folder_removed_afterwards() -> None:
    with private_sockets(3) as paths:
        folder = os.path.dirname(paths[0])
        assert len(set(paths)) == 3 and {os.path.dirname(p) for p in paths} == {folder}
        assert os.stat(folder).st_mode & 0o777 == 0o700
    assert not os.path.exists(folder)
    with private_socket() as path:
        assert path.endswith("/arena.sock")


def test_no_sockets_make_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A run without sandboxed bots (every Ray game task of one) asks for none: a
    # folder made anyway was left empty in /tmp by each task Ray killed mid-game.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with private_sockets(0) as paths:
        assert paths == ()
        assert list(tmp_path.iterdir()) == []
