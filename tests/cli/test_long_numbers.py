"""A number given with thousands of digits, a paste gone wrong: Python reads no
whole number of more than 4,300 digits, and its ValueError ("Exceeds the limit
(4300 digits) for integer string conversion ... use sys.set_int_max_str_digits()")
reached the user. `serve --listen` stopped with a traceback; `health --addr`
printed Python's advice about sys.set_int_max_str_digits; every other whole
number flag said only "invalid number value", "invalid port value" or "invalid
match_seed value", where a shorter number too large is told the range."""

from __future__ import annotations

import pytest

from tests.cli.helpers import sheepfold
from tournament.executors.ray_address import RayAddressError, check_address

HUGE = "9" * 5000
PADDED = "0" * 5000 + "7"  # seven, written with 5,001 digits

MATCH = ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random")
BOT = ("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t")


@pytest.mark.parametrize(
    ("args", "env", "told"),
    [
        (("serve", "--listen", f"127.0.0.1:{HUGE}"), {}, "ports go from 0 to 65535"),
        (("serve", "--port", HUGE), {}, "is not a port number (0 to 65535)"),
        (("serve",), {"SHEEPFOLD_PORT": HUGE}, "is not a port number (0 to 65535)"),
        (("serve", "--max-watchers", HUGE), {}, "must be a whole number from 0 to"),
        (("health", "--addr", f"127.0.0.1:{HUGE}"), {}, "is not a port: use 1 to 65535"),
        (("health",), {"SHEEPFOLD_HEALTH_PORT": HUGE}, "is not a port: use 1 to 65535"),
        ((*MATCH, "--seed", HUGE), {}, "must be a whole number from 0 to 2**64 - 1"),
        ((*MATCH, "--limit", f"memory_mb={HUGE}"), {}, "memory_mb: must be between"),
        ((*BOT, "--seat", HUGE), {}, "must be a whole number from 0 to 2,147,483,647"),
        (BOT, {"SHEEPFOLD_SEED": HUGE}, "must be a whole number from 0 to 9,223,372,036,854"),
        (("db", "vacuum", "--keep-finished", HUGE), {}, "must be a whole number from 0 to"),
    ],
    ids=[
        "listen",
        "port",
        "port-variable",
        "max-watchers",
        "health-addr",
        "health-port-variable",
        "seed",
        "limit",
        "seat",
        "seed-variable",
        "keep-finished",
    ],
)
def test_a_number_of_thousands_of_digits_is_told_its_range(
    args: tuple[str, ...], env: dict[str, str], told: str
) -> None:
    done = sheepfold(*args, env=env, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert told in last, last
    assert "invalid" not in last and "4300" not in last, last


def test_leading_zeros_are_no_reason_to_refuse_a_number() -> None:
    """A number padded with zeros is still the number: 5,001 digits that read 7."""
    done = sheepfold(*BOT, "--seat", PADDED, "--rejoin-seconds", "0", timeout=30)
    assert "Traceback" not in done.stderr, done.stderr
    assert "--seat" not in done.stderr, done.stderr
    assert "cannot reach the server" in done.stderr, done.stderr


def test_a_ray_address_whose_port_has_thousands_of_digits_is_told_its_port_range() -> None:
    """`tournament run --ray HOST:PORT` read the port with int(): a traceback. Such a
    port is a whole number, past 65535: told the range, as every address's port is."""
    with pytest.raises(RayAddressError) as raised:
        check_address(f"127.0.0.1:{HUGE}")
    assert str(raised.value).endswith(f": {HUGE} is not a port: use 1 to 65535")
    assert "HOST:PORT" not in str(raised.value)


def test_a_ray_address_whose_port_is_in_other_digits_is_not_host_port() -> None:
    """A port in another script's digits is no port number at all."""
    with pytest.raises(RayAddressError, match="is not HOST:PORT"):
        check_address("127.0.0.1:\u0665\u0660")  # 50 in Arabic-Indic digits
