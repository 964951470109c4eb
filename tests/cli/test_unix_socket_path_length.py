"""A unix:PATH too long for a socket address (Linux holds 107 bytes of path):
gRPC refused it in its own words, after a log line of its core ("Path name
should not have more than 107 characters"), and the command's line was vague:
serve "gRPC could not bind it" (exit 1), health "UNKNOWN: Failed to create
channel", create, bot and match "cannot reach the server at unix:...: unix:...".
It is the user's mistake, named before anything connects or binds (exit 2)."""

from __future__ import annotations

import pytest

from clients.address_check import MAX_UNIX_PATH_BYTES
from tests.cli.helpers import one_line, sheepfold

FOLDER = "/tmp/sheepfold-no-such-folder/"
TOO_LONG = "unix:" + FOLDER + "s" * (MAX_UNIX_PATH_BYTES + 1 - len(FOLDER))
GAME = ("--game", "sheep-showdown", "--players", "2")
SAID = (
    f"a Unix socket's path holds at most {MAX_UNIX_PATH_BYTES} bytes, "
    f"and this one has {MAX_UNIX_PATH_BYTES + 1}: choose a shorter one"
)


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("health", "--addr", TOO_LONG), "--addr"),
        (("create", *GAME, "--server", TOO_LONG), "--server"),
        (("bot", "--server", TOO_LONG, "--match", "m", "--token", "t"), "--server"),
        (("match", *GAME, "--bots", "random,random", "--server", TOO_LONG), "--server"),
        (("web", "--server", TOO_LONG, "--port", "0"), "--server"),
    ],
    ids=["health", "create", "bot", "match", "web"],
)
def test_a_client_socket_path_too_long_is_a_usage_error(args: tuple[str, ...], flag: str) -> None:
    done = sheepfold(*args, timeout=30)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].endswith(f"argument {flag}: {TOO_LONG!r}: {SAID}")


def test_a_listen_socket_path_too_long_is_a_usage_error() -> None:
    done = sheepfold("serve", "--listen", TOO_LONG, "--db", ":memory:", timeout=30)
    assert (done.returncode, one_line(done)) == (
        2,
        f"sheepfold serve: --listen {TOO_LONG!r}: {SAID}",
    )


@pytest.mark.parametrize("scheme", ["unix:", "unix://"])
def test_a_path_of_the_longest_length_is_not_refused(scheme: str) -> None:
    """107 bytes is still a socket's path: nothing listens there, so gRPC's own
    answer follows (exit 1), not the usage error."""
    path = FOLDER + "s" * (MAX_UNIX_PATH_BYTES - len(FOLDER))
    done = sheepfold("health", "--addr", scheme + path, "--timeout", "2", timeout=30)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    assert "holds at most" not in done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("serve", "--db", ":memory:", "--listen"), "sheepfold serve: --listen "),
        (("health", "--addr"), "argument --addr: "),
    ],
    ids=["serve", "health"],
)
def test_a_socket_path_ending_in_a_slash_is_a_usage_error(args: tuple[str, ...], said: str) -> None:
    """`--listen unix:/run/sheepfold/`: serve once said only "gRPC could not
    bind it" (exit 1), after a log line of gRPC's core."""
    address = "unix:" + FOLDER
    done = sheepfold(*args, address, timeout=30)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        f"{said}{address!r}: a socket's path names a file, not a folder ending in '/'"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("serve", "--db", ":memory:", "--listen"), "sheepfold serve: --listen "),
        (("health", "--addr"), "argument --addr: "),
        (("create", *GAME, "--server"), "argument --server: "),
    ],
    ids=["serve", "health", "create"],
)
def test_unix_slash_slash_with_a_relative_path_is_a_usage_error(
    args: tuple[str, ...], said: str
) -> None:
    """`unix://arena.sock` reads as a host ("authority") named arena.sock, which
    gRPC's unix scheme refuses: health once said "UNKNOWN: Failed to create
    channel" after three lines of gRPC's core."""
    done = sheepfold(*args, "unix://arena.sock", timeout=30)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        f"{said}'unix://arena.sock': unix:// takes an absolute path (unix:///run/arena.sock);"
        " a relative one is unix:PATH (unix:arena.sock)"
    )
