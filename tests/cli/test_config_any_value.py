"""Any TOML value in any setting of a tournament config is either taken or
refused with one short line (a ConfigError), never another exception: a
property over generated values, each key of the config given each kind of
value TOML has (a whole number of thousands of digits written in hexadecimal,
tables nested past any config, strings pasted at length). `tournament run`
prints the ConfigError as its one line (tests/cli/test_config_document_limits.py
runs the command itself); this checks the reading behind it, in process, for
many values at once."""

from __future__ import annotations

import datetime
import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.config import ConfigError, load_config

# The longest one line a config's error may be: the longest message (an
# unknown setting, naming every known one) and the config's path.
LONGEST_LINE = 700

TOP_KEYS = [
    "name", "game", "players", "games_per_pairing", "seed", "secret_deals", "concurrency",
    "decision_seconds", "time_bank_seconds", "max_strikes", "forfeit_on_timeout", "database",
    "anchor", "max_groups", "python_path", "bootstrap", "match_timeout_seconds", "schedule",
    "candidates", "unknown",
]  # fmt: skip
TABLE_KEYS = {
    "sprt": ["candidate", "baseline", "elo0", "elo1", "alpha", "beta", "max_games", "x"],
    "executor": ["kind", "address", "num_cpus", "cpus_per_game", "max_retries", "x"],
    "sandbox": ["memory_mb", "cpu_seconds", "output_mb", "cpus", "read_only", "x"],
    "options": ["rounds", "double_trouble", "x"],
}
# Written as a whole number of 5,000 hexadecimal digits (Python writes no
# decimal of more than 4,300 digits, nor Hypothesis's report of one).
HUGE_HEX = "<a whole number of 5,000 hex digits>"
BOT_KEYS = ["name", "builtin", "class", "command", "cwd", "env", "sandbox", "x"]


def toml(value: Any) -> str:
    """`value` written as a TOML value (inline tables and arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value}"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)
    if value == HUGE_HEX:
        return "0x" + "f" * 5000
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml(item) for item in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + "}"


SCALARS = st.one_of(
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.sampled_from([0, 1, 2, -1, 2**63, -(10**4000)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["sheep-showdown", "random", "a.b.c", "y" * 50_000, "", " ", HUGE_HEX]),
    st.dates(),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
PLACES = st.one_of(
    st.tuples(st.just(""), st.sampled_from(TOP_KEYS)),
    st.sampled_from([(table, key) for table, keys in TABLE_KEYS.items() for key in keys]),
    st.tuples(st.just("bots"), st.sampled_from(BOT_KEYS)),
)
# A value under a dotted header this deep: TOML reads it without nesting its calls.
DEPTHS = st.sampled_from([0, 0, 0, 2, 150, 990])


def config_text(table: str, key: str, value: Any, depth: int) -> str:
    top = {"name": '"cup"', "game": '"sheep-showdown"', "games_per_pairing": "1"}
    lines: list[str] = []
    written = toml(value)
    if depth:
        header = ".".join([table or "extra", *(["a"] * depth)])
        written_last = f"[{header}]\n{json.dumps(key)} = {written}\n"
    else:
        written_last = ""
        if table == "":
            top[key] = written
    lines += [f"{k} = {v}" for k, v in top.items()]
    for name in TABLE_KEYS:
        if depth == 0 and table == name:
            lines += [f"[{name}]", f"{json.dumps(key)} = {written}"]
    bots = [{"name": '"a"', "builtin": '"random"'}, {"name": '"b"', "builtin": '"random"'}]
    if depth == 0 and table == "bots":
        bots[0][key] = written
    for bot in bots:
        lines += ["[[bots]]", *(f"{k} = {v}" for k, v in bot.items())]
    return "\n".join(lines) + "\n" + written_last


@settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(place=PLACES, value=VALUES, depth=DEPTHS)
def test_any_value_anywhere_is_taken_or_refused_in_one_short_line(
    tmp_path: Path, place: tuple[str, str], value: Any, depth: int
) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(config_text(*place, value, depth), encoding="utf-8", errors="surrogatepass")
    try:
        load_config(config)
    except ConfigError as error:
        line = str(error)
        assert "\n" not in line and len(line) <= LONGEST_LINE, line[:1000]
