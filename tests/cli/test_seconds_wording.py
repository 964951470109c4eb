"""A time flag's bound says "1 second", not "1 seconds": `serve
--write-stall-timeout 0.5` once answered "at least 1 seconds"."""

from __future__ import annotations

import argparse

import pytest

from cli.values import seconds_up_to
from tests.cli.helpers import sheepfold

pytestmark = pytest.mark.e2e


def test_write_stall_timeout_under_its_one_second_floor_says_second() -> None:
    done = sheepfold("serve", "--db", ":memory:", "--write-stall-timeout", "0.5")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "sheepfold serve: error: argument --write-stall-timeout: '0.5' is too short: "
        "at least 1 second"
    )


@pytest.mark.parametrize(
    ("limit", "least", "text", "said"),
    [
        (1.0, 0.0, "2", "'2' is too long: at most 1 second"),
        (60.0, 1.0, "0.5", "'0.5' is too short: at least 1 second"),
        (2.0, 0.0, "3", "'3' is too long: at most 2 seconds"),
        (60.0, 0.5, "0.25", "'0.25' is too short: at least 0.5 seconds"),
    ],
)
def test_a_bound_of_one_second_is_singular(
    limit: float, least: float, text: str, said: str
) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        seconds_up_to(limit, least=least)(text)
    assert str(refused.value) == said
