"""A command's own lines on stderr ("sheepfold COMMAND: ..."), shown as a
person can read them whatever the values they quote: a pasted word (a
100,000-character --db, config path or token file) cut short, as a usage
error's is, and a value given with a newline shown escaped. Every such line
passes here while a command runs, so no message needs to cut or escape the
values it quotes."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from clients.escaped_text import shown_safely

__all__ = ["own_lines_shown"]


class _OwnLinesCut:
    """stderr, a line of the command's own ("sheepfold COMMAND: ...") written as
    `_own_line` shows it. Other writes (log lines, a JSON log's string values)
    pass as they are."""

    def __init__(self, stream: Any, given: Sequence[str]) -> None:
        self._stream = stream
        self._given = given

    def write(self, text: str) -> int:
        if text.startswith("sheepfold"):
            text = _own_line(text, self._given)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _own_line(text: str, given: Sequence[str]) -> str:
    """`text` with each value of `given` that holds a control character (a path
    pasted from two lines) shown escaped (`two\\nlines`), and each pasted word
    cut short (cli.values.cut_pasted), as a usage error's is."""
    from cli.values import cut_pasted

    for value in given:
        text = text.replace(value, shown_safely(value))
    return cut_pasted(text)


@contextlib.contextmanager
def own_lines_shown(argv: Sequence[str]) -> Iterator[None]:
    """While a command is parsed and runs, its one-line errors (usage errors,
    argparse's own, those printed before exit 1 or carried by a SystemExit)
    quote a pasted value (a 100,000-character --db, config path or token file)
    cut short, and a path holding a newline escaped: they quoted it whole, over
    two lines for a newline. The one place every such line passes, so that no
    message needs to quote its own values. `argv` and the $SHEEPFOLD_
    variables are the values the user gave."""
    values = [*argv, *(v for k, v in os.environ.items() if k.startswith("SHEEPFOLD_"))]
    given = sorted({v for v in values if v != shown_safely(v)}, key=len, reverse=True)
    previous = sys.stderr
    sys.stderr = _OwnLinesCut(previous, given)
    try:
        yield
    except SystemExit as stop:
        if isinstance(stop.code, str):
            raise SystemExit(_own_line(stop.code, given)) from None
        raise
    finally:
        if isinstance(sys.stderr, _OwnLinesCut):  # not replaced meanwhile (serve's gRPC log)
            sys.stderr = previous
