"""`serve --listen unix:PATH` with a comma in PATH: gRPC's clients read a comma
in a unix: address as a list and dial the part before it, so the server bound
the socket, logged "server started", and every client (health, create, bot,
match, a tournament) said "no such file or directory" of a socket that was
there. The path is refused before anything binds (exit 2)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import one_line, sheepfold


def test_a_listen_socket_path_with_a_comma_is_a_usage_error(tmp_path: Path) -> None:
    address = f"unix:{tmp_path}/arena,1.sock"
    done = sheepfold("serve", "--listen", address, "--db", ":memory:", timeout=30)
    assert (done.returncode, one_line(done)) == (
        2,
        f"sheepfold serve: --listen {address!r}: a comma in a socket's path makes it a "
        f"list to gRPC's clients, which would dial unix:{tmp_path}/arena alone: "
        "choose a path without one",
    )
    assert not (tmp_path / "arena,1.sock").exists()
