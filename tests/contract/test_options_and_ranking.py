"""The shared pieces every engine uses: option parsing and competition ranks."""

from __future__ import annotations

import pytest

from games.errors import InvalidOptions
from games.options import OptionSpec, parse_options
from games.ranking import competition_ranks

SPECS = (
    OptionSpec("rounds", "int", 3, "rounds to play", minimum=1, maximum=3),
    OptionSpec("wolf", "bool", False, "play with the wolf"),
    OptionSpec("board", "choice", "small", "board size", choices=("small", "large")),
)


def test_defaults_fill_what_is_not_given() -> None:
    assert parse_options(SPECS, {}) == {"rounds": 3, "wolf": False, "board": "small"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"rounds": "1"}, {"rounds": 1}),
        ({"rounds": 2}, {"rounds": 2}),
        ({"wolf": "true"}, {"wolf": True}),
        ({"wolf": "OFF"}, {"wolf": False}),
        ({"wolf": True}, {"wolf": True}),
        ({"wolf": " yes\t"}, {"wolf": True}),
        ({"rounds": " +02\t"}, {"rounds": 2}),
        ({"board": "large"}, {"board": "large"}),
    ],
)
def test_string_and_typed_values_parse(raw: dict, expected: dict) -> None:
    parsed = parse_options(SPECS, raw)
    for key, value in expected.items():
        assert parsed[key] == value


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"rounds": "0"}, "at least 1"),
        ({"rounds": "4"}, "at most 3"),
        ({"rounds": "three"}, "whole number"),
        ({"rounds": True}, "whole number"),
        ({"wolf": "maybe"}, "true or false"),
        ({"board": "huge"}, "one of small, large"),
        # Spaces and tabs around a value are taken, as for a number; a newline,
        # a no-break space or another control character is not: the value is
        # refused, quoted escaped, as operations.md promises.
        ({"wolf": "true\n"}, r"true or false, not 'true\\n'"),
        ({"wolf": "\rfalse"}, r"true or false, not '\\rfalse'"),
        ({"wolf": "\u00a0true"}, "true or false"),
        ({"wolf": "on\u2003"}, "true or false"),
        ({"wolf": "\x1c1"}, "true or false"),
        ({"rounds": "2\n"}, "whole number"),
    ],
)
def test_bad_options_name_the_option(raw: dict, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        parse_options(SPECS, raw)


@pytest.mark.parametrize(
    ("keys", "ranks"),
    [
        ([10, 20, 30], (3, 2, 1)),
        ([5, 5, 3], (1, 1, 3)),
        ([(5, 1), (5, 2), (5, 2)], (3, 1, 1)),
        ([0], (1,)),
        ([7, 7, 7, 7], (1, 1, 1, 1)),
    ],
)
def test_competition_ranks_share_ties_and_skip(keys: list, ranks: tuple) -> None:
    assert competition_ranks(keys) == ranks
