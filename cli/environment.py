"""Flags whose default comes from a `SHEEPFOLD_` environment variable.

argparse converts a string default with the flag's type too, so a bad variable
is a usage error; but its message names the flag ("argument --port: 'abc' is
not a port number"), which an operator who set `-e SHEEPFOLD_PORT=abc` on a
container and gave no flag at all cannot tell from a typo on the command line.
A default read from the environment therefore remembers its variable, and the
flag's type names it in the error.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class FromEnvironment(str):
    """A flag's default as read from the environment variable `variable`."""

    variable: str

    def __new__(cls, text: str, variable: str) -> FromEnvironment:
        value = super().__new__(cls, text)
        value.variable = variable
        return value


def environment_default(variable: str, fallback: str | None = None) -> str | None:
    """`$variable` as a flag's default, or `fallback` when it is unset or empty
    (every empty `SHEEPFOLD_` variable counts as unset)."""
    value = os.environ.get(variable, "")
    return FromEnvironment(value, variable) if value else fallback


def naming_variable(convert: Callable[[str], T]) -> Callable[[str], T]:
    """The argparse type `convert`, whose error for a value taken from the
    environment starts with the variable's name."""

    def converted(text: str) -> T:
        try:
            return convert(text)
        except argparse.ArgumentTypeError as error:
            if isinstance(text, FromEnvironment):
                raise argparse.ArgumentTypeError(f"${text.variable}: {error}") from None
            raise

    # argparse names the type in "invalid NAME value" for a ValueError.
    converted.__name__ = getattr(convert, "__name__", "value")
    return converted
