"""The command line's number types say the rule they apply, whatever the value."""

from __future__ import annotations

import argparse

import pytest

from cli.values import non_negative_float, positive_float


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
