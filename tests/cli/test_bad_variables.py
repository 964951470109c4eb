"""An environment variable standing in for a flag ($SHEEPFOLD_PORT, ...) with a
bad value: its usage error names the variable, and a flag given wins over it."""

from __future__ import annotations

import pytest

from tests.cli.helpers import sheepfold


@pytest.mark.parametrize(
    ("variable", "value", "args", "message"),
    [
        (
            "SHEEPFOLD_PORT",
            "abc",
            ("serve", "--db", ":memory:"),
            "sheepfold serve: error: argument --port: $SHEEPFOLD_PORT: 'abc' is not a port number",
        ),
        (
            "SHEEPFOLD_METRICS_PORT",
            "9100x",
            ("serve", "--db", ":memory:"),
            "sheepfold serve: error: argument --metrics-port: $SHEEPFOLD_METRICS_PORT: '9100x'",
        ),
        (
            "SHEEPFOLD_HEALTH_PORT",
            "70000",
            ("serve", "--db", ":memory:"),
            "sheepfold serve: error: argument --health-port: $SHEEPFOLD_HEALTH_PORT: '70000'",
        ),
        (
            "SHEEPFOLD_HEALTH_PORT",
            "abc",
            ("health",),
            "sheepfold health: error: argument --addr: $SHEEPFOLD_HEALTH_PORT: '127.0.0.1:abc'",
        ),
        (
            "SHEEPFOLD_SERVER",
            "nowhere",
            ("create", "--game", "sheep-n-sheep"),
            "sheepfold create: error: argument --server: $SHEEPFOLD_SERVER: 'nowhere'",
        ),
        (
            "SHEEPFOLD_SEAT",
            "first",
            ("bot",),
            "sheepfold bot: error: argument --seat: $SHEEPFOLD_SEAT: 'first' must be a whole",
        ),
    ],
)
def test_a_bad_variable_is_named_in_its_usage_error(
    variable: str, value: str, args: tuple[str, ...], message: str
) -> None:
    # A container given `-e SHEEPFOLD_PORT=abc` and no flag once read only
    # "argument --port: 'abc' ...", naming a flag nobody had typed.
    done = sheepfold(*args, env={variable: value}, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(message), done.stderr


def test_a_flag_given_wins_over_a_bad_variable_and_its_error_names_the_flag() -> None:
    done = sheepfold(
        "serve", "--db", ":memory:", "--port", "x", env={"SHEEPFOLD_PORT": "abc"}, timeout=30
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "sheepfold serve: error: argument --port: 'x' is not a port number (0 to 65535)"
    )
