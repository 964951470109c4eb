"""A tournament config whose TOML is valid but whose shape no config has (a
whole number written in hexadecimal with thousands of digits, tables nested a
thousand deep, a dotted key of half a million parts) stops `tournament run`
and `sprt` with one line naming the file, exit 2: these ended in a traceback
or read for minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold

BOTS = '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'


def _refused(tmp_path: Path, text: str, command: str = "run") -> str:
    config = tmp_path / "cup.toml"
    config.write_text(text)
    done = sheepfold(
        "tournament", command, str(config), "--db", str(tmp_path / "cup.sqlite"), timeout=60
    )
    assert done.returncode == 2, done.stderr
    line = one_line(done)
    assert line.startswith(f"sheepfold tournament: {config}"), line
    assert not (tmp_path / "cup.sqlite").exists()
    return line


@pytest.mark.parametrize(
    "written",
    ["0x" + "f" * 4000, "0o" + "7" * 5000, "0b" + "1" * 15000],
    ids=["hexadecimal", "octal", "binary"],
)
@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_whole_number_too_long_to_write_out_is_refused(
    tmp_path: Path, written: str, command: str
) -> None:
    """TOML reads hexadecimal, octal and binary numbers of any length, and the
    field's error (`must be at most 100,000, not ...`) writing one out in
    decimal raised Python's ValueError for more than 4,300 digits."""
    line = _refused(
        tmp_path,
        f'game = "sheep-showdown"\ngames_per_pairing = {written}\n' + BOTS,
        command,
    )
    assert line.endswith("holds a whole number of more than 4,300 digits, more than can be read")


def test_such_a_number_in_the_sandbox_table_is_refused_too(tmp_path: Path) -> None:
    line = _refused(
        tmp_path, f'game = "sheep-showdown"\n[sandbox]\nmemory_mb = 0x{"f" * 4000}\n' + BOTS
    )
    assert "more than 4,300 digits" in line


@pytest.mark.parametrize(
    "header",
    ["name", "options", "sprt.candidate", "executor.kind"],
)
def test_tables_nested_too_deeply_are_refused(tmp_path: Path, header: str) -> None:
    """`[name.a.a.a...]` is read by TOML without any depth of calls, and the
    field's error quoting the value (`name: must be a non-empty string, not
    {'a': {...}}`) raised RecursionError."""
    deep = ".".join(["a"] * 990)
    text = f'game = "sheep-showdown"\n{BOTS}[{header}.{deep}]\n'
    if header != "name":
        text = 'name = "cup"\n' + text
    line = _refused(tmp_path, text)
    assert line.endswith("nests arrays or tables too deeply (more than 100 levels)"), line


def test_a_dotted_key_of_a_megabyte_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """TOML's reader takes time growing with the square of a key's parts: a
    1 MB config of one `[a.a.a...]` header read for minutes."""
    line = _refused(tmp_path, "[" + ".".join(["a"] * 520_000) + "]\n")
    assert line.endswith(
        "holds a dotted key of 1,000 parts or more (a.b.c...): tables nest 100 levels deep at most"
    ), line


def test_dotted_words_in_a_string_are_no_key(tmp_path: Path) -> None:
    """A string of a thousand dotted words is read as the string it is, and
    checked as its field."""
    dotted = ".".join(["x"] * 1500)
    line = _refused(
        tmp_path, f'name = "cup"\ngame = "sheep-showdown"\n[options]\nrounds = "{dotted}"\n' + BOTS
    )
    assert line.endswith(
        "options.rounds: option 'rounds' must be a whole number, not " + repr(dotted)[:37] + "..."
    ), line


@pytest.mark.parametrize(
    "where",
    ["comment", "comment after a value", "string after a space"],
)
def test_dotted_words_in_a_comment_or_inside_a_string_are_no_key(
    tmp_path: Path, where: str
) -> None:
    """Only a key is read as one: a comment or a string holding a thousand
    dotted words (after a space, as in prose) was refused as a dotted key,
    though TOML reads it at once and the config was valid but for its field."""
    dotted = ".".join(["x"] * 1500)
    rounds = {
        "comment": f'"three"\n# {dotted}',
        "comment after a value": f'"three"  # {dotted}',
        "string after a space": f'"see {dotted}"',
    }[where]
    text = f'name = "cup"\ngame = "sheep-showdown"\n[options]\nrounds = {rounds}\n' + BOTS
    line = _refused(tmp_path, text)
    assert "options.rounds: option 'rounds' must be a whole number, not " in line, line


@pytest.mark.parametrize(
    "key",
    [
        "[{dotted}]",
        "  [ {dotted} ]",
        "[[{dotted}]]",
        "{dotted} = 1",
        "table = {{ {dotted} = 1 }}",
        "table = {{ a = 1, {dotted} = 1 }}",
        "tables = [{{ {dotted} = 1 }}]",
        '"quoted" . {dotted} = 1',
    ],
)
def test_a_long_dotted_key_is_refused_wherever_a_key_stands(tmp_path: Path, key: str) -> None:
    line = _refused(tmp_path, key.format(dotted=".".join(["a"] * 1000)) + "\n")
    assert line.endswith(
        "holds a dotted key of 1,000 parts or more (a.b.c...): tables nest 100 levels deep at most"
    ), line
