"""Every `sheepfold` command the README and docs/ show is one the command line
takes. A flag gets renamed, a subcommand grows a required argument, an example
config moves: the docs then teach a line that stops with a usage error, which a
newcomer meets before anything else. Each command in a code block is parsed by
the real parser (placeholders such as HOST:PORT or <id> filled in), and every
flag quoted in the prose (`sheepfold match --json`, `serve --web-port`) must be
one of that command's."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

from cli.main import build_parser
from tests.conftest import ROOT

FENCE = re.compile(r"^[ \t]*(```|~~~)(\w*)[^\n]*\n(.*?)^[ \t]*\1", re.S | re.M)
SHELL_FENCES = {"", "sh", "bash", "shell", "console"}
# In a code block: `sheepfold` as a command, up to a shell operator or the line's end.
COMMAND = re.compile(r"(?:^|[\s;&|(])sheepfold\s+([a-z].*?)\s*(?:&&|\|\||[|;>)]|&|$)")
INLINE_CODE = re.compile(r"`([^`]+)`")
ARITHMETIC = re.compile(r"\$\(\([^)]*\)\)")  # $((50051 + i))
PLACEHOLDERS = [
    (re.compile(r"<[^>]*>"), "X"),  # <id>, <seat 1 token>
    (re.compile(r"\bHOST:PORT\b"), "127.0.0.1:50051"),
    (re.compile(r"(?<=--server )ADDR\b"), "127.0.0.1:50051"),
    (re.compile(r"[\[\]]"), ""),  # [--web-host 127.0.0.1]: an optional flag, shown
]


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _fenced_commands(text: str) -> Iterator[str]:
    for match in FENCE.finditer(text):
        if match.group(2) not in SHELL_FENCES:
            continue
        for line in match.group(3).replace("\\\n", " ").splitlines():
            line = re.sub(r"(^|\s)#.*$", "", line)  # a shell comment
            line = ARITHMETIC.sub("50051", line)
            for command in COMMAND.findall(line):
                if not command.split()[0].endswith(":"):  # `sheepfold tournament: ...` is output
                    yield command


def _inline_commands(text: str) -> Iterator[str]:
    """`sheepfold SUB --flag` and `SUB --flag` spans of the prose."""
    prose = FENCE.sub("", text)
    commands = set(_subcommands(build_parser()))
    for span in INLINE_CODE.findall(prose):
        words = " ".join(span.split()).removeprefix("sheepfold ")
        first = words.split(" ", 1)[0]
        if (span.startswith("sheepfold ") or first in commands) and "--" in words:
            yield words


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _innermost(words: list[str]) -> argparse.ArgumentParser:
    parser = build_parser()
    for word in words:
        for name in word.split("|"):  # `tournament run|sprt --server`
            if name in _subcommands(parser):
                parser = _subcommands(parser)[name]
                break
        else:
            break
    return parser


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)  # "cmd:./mybot --level 3" is one word, the bot's
    except ValueError:  # a span of prose with an unpaired quote
        return command.split()


def _unknown_flags(command: str) -> list[str]:
    words = _words(command)
    known = {flag for action in _innermost(words)._actions for flag in action.option_strings}
    flags = [word.split("=")[0].rstrip(",.;:)") for word in words if word.startswith("--")]
    return [flag for flag in flags if flag not in known]


def _usage_error(command: str) -> str | None:
    for pattern, value in PLACEHOLDERS:
        command = pattern.sub(value, command)
    words = [word for word in shlex.split(command) if word != "..."]
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            build_parser().parse_args(words)
    except SystemExit as stop:
        if stop.code:
            return stderr.getvalue().strip().splitlines()[-1]
    return None


def test_every_command_in_a_code_block_parses() -> None:
    problems = [
        f"{page.relative_to(ROOT)}: sheepfold {command}: {error}"
        for page in _pages()
        for command in _fenced_commands(page.read_text(encoding="utf-8"))
        if (error := _usage_error(command)) is not None
    ]
    assert problems == []


def test_every_flag_quoted_in_the_docs_belongs_to_its_command() -> None:
    problems = [
        f"{page.relative_to(ROOT)}: `{command}`: no {flag}"
        for page in _pages()
        for command in [
            *_fenced_commands(page.read_text(encoding="utf-8")),
            *_inline_commands(page.read_text(encoding="utf-8")),
        ]
        for flag in _unknown_flags(command)
    ]
    assert problems == []


def test_every_example_file_a_command_names_exists() -> None:
    missing = [
        f"{page.relative_to(ROOT)}: sheepfold {command}: no {word}"
        for page in _pages()
        for command in _fenced_commands(page.read_text(encoding="utf-8"))
        for word in command.split()
        if word.startswith("examples/") and word.endswith((".toml", ".py"))
        if not (ROOT / word).exists()
    ]
    assert missing == []


def test_the_checks_see_commands_and_catch_a_bad_one() -> None:
    """The checks above cannot pass by finding nothing."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    fenced = list(_fenced_commands(readme))
    assert "serve --port 50051 --db sheepfold.db" in fenced
    assert len(fenced) >= 15 and len(list(_inline_commands(readme))) >= 5
    assert _usage_error("match --bots random,random") is not None  # --game, --players
    assert _usage_error("web --server HOST:PORT --port 8080 [--host 127.0.0.1]") is None
    assert _unknown_flags("tournament run|sprt --server --no-such-flag") == ["--no-such-flag"]


def _readme_command_table() -> dict[str, str]:
    """The README's table of commands: `sheepfold NAME` -> what it says of it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `sheepfold ([a-z]+)` \| (.+) \|$", readme, re.M)
    return dict(rows)


def test_the_readme_command_table_names_every_command_and_subcommand() -> None:
    """A newcomer meets the commands in the README's table before any --help."""
    table = _readme_command_table()
    parser = build_parser()
    assert set(table) == set(_subcommands(parser))
    for command, row in table.items():
        subcommands = set(_subcommands(_subcommands(parser)[command]))
        named = {sub for sub in subcommands if f"`{sub}`" in row}
        assert named == subcommands, f"sheepfold {command}: the table names {named}"


def _commands_and_flags(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, str]]:
    """(`sheepfold SUB ...`, --flag) for every flag of every command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands_and_flags(sub, (*path, name))
        for flag in action.option_strings:
            if flag.startswith("--") and flag != "--help":
                yield " ".join(("sheepfold", *path)), flag


def test_every_flag_of_every_command_is_named_in_the_docs() -> None:
    """--help describes each flag; the README or docs/ must name it too, so an
    operator reading them meets every flag (`tournament run --no-report` was in
    --help alone)."""
    text = "\n".join(page.read_text(encoding="utf-8") for page in _pages())
    named = set(re.findall(r"--[a-z][a-z0-9-]*[a-z0-9]", text))
    unnamed = [
        f"{command} {flag}"
        for command, flag in _commands_and_flags(build_parser())
        if flag not in named
    ]
    assert len(list(_commands_and_flags(build_parser()))) > 100
    assert unnamed == []


def test_the_viewer_synopsis_names_every_viewer_flag() -> None:
    """docs/web.md opens "Running it" with one line for `serve --web-port` and
    one for `web`: each lists every flag of the viewer (it once left out the
    per-address bound and `web`'s TLS and admin token flags)."""
    page = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    synopsis = page.split("## Running it", 1)[1]
    block = FENCE.search(synopsis)
    assert block is not None
    commands = list(_fenced_commands(block.group(0)))
    assert [command.split()[0] for command in commands] == ["serve", "web"]
    subcommands = _subcommands(build_parser())
    expected = {
        "serve": {
            flag
            for action in subcommands["serve"]._actions
            for flag in action.option_strings
            if flag.startswith("--web-") or flag == "--tournament-db"
        },
        "web": {
            flag
            for action in subcommands["web"]._actions
            for flag in action.option_strings
            if flag.startswith("--") and flag != "--help"
        },
    }
    for command in commands:
        shown = {word for word in _words(re.sub(r"[\[\]]", " ", command)) if word.startswith("--")}
        name = command.split()[0]
        assert expected[name] - shown == set(), f"sheepfold {name}"
