"""A file flag given an empty path (`--tls-key "$KEY"` with KEY unset): the
empty path was read as the current folder, and the command stopped (exit 1,
the status of a command that could not do its work) naming a path the user
never typed: "--tls-key .: not a regular file", "--tournament-db . is a
folder", "--admin-token-file .: Is a directory", or "--tls-ca : No such file
or directory". As for `--db ""`, it is a usage error saying so."""

from __future__ import annotations

import pytest

from tests.cli.helpers import sheepfold

SERVE = ("serve", "--port", "0", "--db", ":memory:")


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        ((*SERVE, "--tls-cert", "", "--tls-key", "key.pem"), "--tls-cert"),
        ((*SERVE, "--tls-cert", "cert.pem", "--tls-key", ""), "--tls-key"),
        ((*SERVE, "--admin-token-file", ""), "--admin-token-file"),
        ((*SERVE, "--web-port", "0", "--tournament-db", ""), "--tournament-db"),
        (("web", "--port", "0", "--tournament-db", ""), "--tournament-db"),
        (("health", "--tls-ca", ""), "--tls-ca"),
        (("create", "--game", "sheep-n-sheep", "--players", "2", "--tls-ca", ""), "--tls-ca"),
    ],
    ids=[
        "tls-cert",
        "tls-key",
        "admin-token-file",
        "serve-tournament-db",
        "web",
        "health",
        "create",
    ],
)
def test_an_empty_file_path_is_a_usage_error(args: tuple[str, ...], flag: str) -> None:
    done = sheepfold(*args, timeout=30)
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.endswith(f"error: argument {flag}: an empty path: name a file"), last
