"""Reading one field of a tournament config: its type and range checked, and
any problem raised as a ConfigError naming the field's dotted path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.bot_limits import shown
from clients.escaped_text import shown_safely
from games.options import brief

__all__ = [
    "ConfigError",
    "bool_field",
    "float_field",
    "int_field",
    "is_number",
    "is_path",
    "options_field",
    "string_field",
]


class ConfigError(ValueError):
    """A bad configuration value; `field` is its dotted path in the TOML file.

    Said on one line whatever it quotes: a control character (a newline in a
    quoted key, `"rat\\ning" = 1`, or in a value quoted as it is) is written
    out as an escape, as Python shows it. The key of an unknown setting broke
    the message over two lines."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{shown_safely(field)}: {shown_safely(message)}")
        self.field = field
        self.message = message


def string_field(raw: Mapping[str, Any], key: str, default: str | None) -> str:
    value = raw.get(key, default)
    if value is None:
        raise ConfigError(key, "is required")
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(key, f"must be a non-empty string, not {brief(value)}")
    if "\x00" in value:
        raise ConfigError(key, f"must not hold a NUL character: {brief(value)}")
    return value


def is_number(value: Any) -> bool:
    """An int or float, not a bool (nan and inf pass: range checks refuse them)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_path(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and "\x00" not in value


def int_field(
    raw: Mapping[str, Any], key: str, default: int, minimum: int, maximum: int | None = None
) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(key, f"must be a whole number, not {brief(value)}")
    if value < minimum:
        raise ConfigError(key, f"must be at least {shown(minimum)}, not {brief(value)}")
    if maximum is not None and value > maximum:
        raise ConfigError(key, f"must be at most {shown(maximum)}, not {brief(value)}")
    return value


def float_field(
    raw: Mapping[str, Any], key: str, default: float, minimum: float, maximum: float
) -> float:
    """A number of seconds from `minimum` to `maximum` (so never nan or inf)."""
    value = raw.get(key, default)
    if not is_number(value):
        raise ConfigError(key, f"must be a number of seconds, not {brief(value)}")
    if not minimum <= value <= maximum:  # also false for nan
        raise ConfigError(
            key, f"must be from {minimum:g} to {maximum:g} seconds, not {brief(value)}"
        )
    return float(value)


def bool_field(raw: Mapping[str, Any], key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(key, f"must be true or false, not {brief(value)}")
    return value


def options_field(raw: Any) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise ConfigError("options", "must be a table of option = value")
    options: dict[str, str] = {}
    for key, value in raw.items():
        if isinstance(value, bool):
            options[key] = "true" if value else "false"
        elif isinstance(value, int | float | str):
            options[key] = str(value)
        else:
            raise ConfigError(
                f"options.{key}", f"must be a string, number or boolean: {brief(value)}"
            )
    return options
