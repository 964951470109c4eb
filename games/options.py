"""Typed, validated game options.

Options arrive as strings from the wire and the command line, or as typed values
from Python callers; `parse_options` turns either into typed values and rejects
anything unknown or out of range with a message that names the option.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.errors import InvalidOptions

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
# No option takes a number this long (leading zeros aside); int() itself refuses
# strings of over 4,300 digits with a ValueError.
_MOST_DIGITS = 18
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a game accepts: `kind` is "bool", "int" or "choice"."""

    name: str
    kind: str
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def parse(self, raw: Any) -> Any:
        if self.kind == "bool":
            return _parse_bool(self.name, raw)
        if self.kind == "int":
            return self._parse_int(raw)
        if self.kind == "choice":
            value = str(raw)
            if value not in self.choices:
                raise InvalidOptions(
                    f"option {self.name!r} must be one of {', '.join(self.choices)}, "
                    f"not {brief(raw)}"
                )
            return value
        raise InvalidOptions(f"option {self.name!r} has unknown kind {self.kind!r}")

    def _parse_int(self, raw: Any) -> int:
        if isinstance(raw, int) and not isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and _WHOLE_NUMBER.fullmatch(text := raw.strip(" \t")):
            # ASCII only: int() would also take Arabic-Indic or fullwidth digits, or "1_0".
            negative = text.startswith("-")
            # Leading zeros dropped before int(): it refuses over 4,300 digits, zeros too.
            digits = text.lstrip("+-").lstrip("0") or "0"
            if len(digits) > _MOST_DIGITS:
                # Beyond every bound: said as the bound it passes.
                value = -(10**_MOST_DIGITS) if negative else 10**_MOST_DIGITS
                if self.minimum is None and self.maximum is None:
                    raise InvalidOptions(
                        f"option {self.name!r} must have at most {_MOST_DIGITS} digits"
                    )
            else:
                value = -int(digits) if negative else int(digits)
        else:
            raise InvalidOptions(f"option {self.name!r} must be a whole number, not {brief(raw)}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"option {self.name!r} must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"option {self.name!r} must be at most {self.maximum}")
        return value

    def format_default(self) -> str:
        if self.kind == "bool":
            return "true" if self.default else "false"
        return str(self.default)


def _parse_bool(name: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    # Spaces and tabs only, as around a number: str.strip() also dropped a
    # newline, a no-break space or a control character, which are refused.
    text = str(raw).strip(" \t").lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InvalidOptions(f"option {name!r} must be true or false, not {brief(raw)}")


def parse_options(specs: tuple[OptionSpec, ...], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Typed values for every spec: the given ones parsed, the rest defaulted."""
    if not isinstance(raw, Mapping):
        raise InvalidOptions(
            f"options must be a mapping of option names to values, not {brief(raw)}"
        )
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(raw) - set(by_name), key=str)
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise InvalidOptions(f"unknown option {brief(unknown[0])} (this game's options: {known})")
    return {
        name: spec.parse(raw[name]) if name in raw else spec.default
        for name, spec in by_name.items()
    }


def options_to_strings(specs: Sequence[OptionSpec], values: Mapping[str, Any]) -> dict[str, str]:
    """Canonical string forms of typed option values (what is stored and sent)."""
    out = {}
    for spec in specs:
        value = values[spec.name]
        out[spec.name] = ("true" if value else "false") if spec.kind == "bool" else str(value)
    return out


def options_line(options: Mapping[str, str]) -> str:
    """Options as one line for people, sorted by name: "bonus_actions=true, wolf=false"
    ("" for none)."""
    return ", ".join(f"{name}={value}" for name, value in sorted(options.items()))


def brief(value: Any) -> str:
    """`value` as the user wrote it, cut short: an error message echoes it back
    (a whole long value once pushed the rest of the message past the 1,000
    characters a status message keeps)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."
