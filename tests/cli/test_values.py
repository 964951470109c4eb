"""The command line's number types say the rule they apply, whatever the value."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from cli.values import (
    finite_float,
    non_negative_float,
    number_up_to,
    positive_float,
    sandbox_limit,
    seconds_up_to,
    whole_number,
)


@pytest.mark.parametrize("text", ["nan", "0", "-1", "inf", "-0"])
def test_a_positive_number_refused_is_told_it_must_be_above_zero(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        positive_float(text)
    assert str(refused.value) == f"{text!r} must be a finite number > 0"


@pytest.mark.parametrize("text", ["nan", "-1", "-inf"])
def test_a_non_negative_number_refused_is_told_it_must_be_at_least_zero(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        non_negative_float(text)
    assert str(refused.value) == f"{text!r} must be a number >= 0"


def test_words_are_no_numbers_and_good_values_pass() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="'soon' is not a number"):
        positive_float("soon")
    assert positive_float("0.5") == 0.5
    assert non_negative_float("0") == 0.0


# float() reads each of these as a number; a whole-number flag refuses them all.
# Arabic-Indic 3, fullwidth 3, 1. and Arabic-Indic 5.
NOT_WRITTEN_AS_NUMBERS = ["1_000", "\u0663", "\uff13", "1.\u0665", " 3", "3\n"]
FLOAT_TYPES = [
    non_negative_float,
    positive_float,
    finite_float,
    number_up_to(5000),
    seconds_up_to(5000),
]


@pytest.mark.parametrize("text", NOT_WRITTEN_AS_NUMBERS)
@pytest.mark.parametrize("number_type", FLOAT_TYPES, ids=lambda number_type: number_type.__name__)
def test_a_number_flag_takes_what_a_whole_number_flag_takes_alone(
    number_type: Callable[[str], float], text: str
) -> None:
    """`--timeout ٣` waited 3 seconds, `--decision-seconds 1_0` gave 10, where
    `--port ٣` and `--seed 1_0` were usage errors."""
    with pytest.raises(argparse.ArgumentTypeError):
        whole_number(0, 5000)(text)
    with pytest.raises(argparse.ArgumentTypeError, match=r"is not a number \(write it"):
        number_type(text)


@pytest.mark.parametrize("value", ["1_024", "\u0661\u0660\u0662\u0664", "1024.\u0660"])
def test_a_sandbox_limit_is_written_as_a_number_flag_is(value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"is not a number \(write it"):
        sandbox_limit(f"memory_mb={value}")
    assert sandbox_limit("memory_mb=1024") == ("memory_mb", 1024)
    assert sandbox_limit("cpus=0.5") == ("cpus", 0.5)


def test_numbers_in_ascii_pass_in_every_form_float_writes() -> None:
    assert [finite_float(text) for text in ["3", "-2.5", ".5", "5.", "1e-3", "+4"]] == [
        3.0,
        -2.5,
        0.5,
        5.0,
        0.001,
        4.0,
    ]
