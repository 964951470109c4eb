"""replay puts the database's path before an error that does not name it
already. Whether it does was a substring test, so a short path that is part of
a word of the message ("data" in "database disk image is malformed") was taken
for the file named, and the message named no file at all."""

from __future__ import annotations

import sqlite3

import pytest

from cli.replay_source import _with_path


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("data", "database disk image is malformed"),
        ("cup", "tournament 'x' in cup.sqlite: its players is not a whole number"),
        ("a.db", "file is not a database"),
    ],
)
def test_a_path_inside_another_word_is_not_the_file_named(path: str, said: str) -> None:
    assert _with_path(path, sqlite3.DatabaseError(said)) == f"{path}: {said}"


@pytest.mark.parametrize(
    "said",
    [
        "tournament 'cup' in {path}: its players is not a whole number",
        "the schema version of {path} is not one whole number (edited by hand?)",
        "{path} is locked by another process",
        "game 'k' (match m) in {path} has no seat of 2 stored",
    ],
)
def test_an_error_that_names_the_file_is_left_as_it_is(said: str) -> None:
    path = "/tmp/x/cup.sqlite"
    error = sqlite3.DatabaseError(said.format(path=path))
    assert _with_path(path, error) == said.format(path=path)
