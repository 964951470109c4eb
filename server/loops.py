"""The event loop a server process runs on.

uvloop (libuv under asyncio's interface) runs the server's event loop for less
CPU than asyncio's own: about a sixth less per decision for `sheepfold serve`,
and as much for a bare gRPC server (docs/performance.md). asyncio's loop stays
a choice (`serve --loop asyncio`), and is the one used where uvloop is not
installed (it has no Windows build).
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

# asyncio is imported by what runs a loop, not by the --loop flag: a command
# line builds every command's flags at each start, `--help` included.
if TYPE_CHECKING:
    import asyncio

T = TypeVar("T")

LOOPS = ("uvloop", "asyncio")


def default_loop() -> str:
    """uvloop when it is installed, else asyncio's loop."""
    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


def add_loop_argument(parser: argparse.ArgumentParser, purpose: str) -> None:
    """The `--loop` flag of a command that runs a server."""
    parser.add_argument(
        "--loop",
        choices=LOOPS,
        default=default_loop(),
        help=f"the event loop: {purpose} (default %(default)s)",
    )


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop]:
    import asyncio

    if name == "uvloop":
        try:
            import uvloop
        except ImportError:
            raise ValueError(
                "the uvloop event loop is not installed: pip install uvloop, or use asyncio"
            ) from None
        return uvloop.new_event_loop
    if name == "asyncio":
        return asyncio.new_event_loop
    raise ValueError(f"unknown event loop {name!r}: choose from {', '.join(LOOPS)}")


def run(main: Coroutine[Any, Any, T], loop: str) -> T:
    """`asyncio.run(main)` on the named event loop (ValueError, and `main` closed
    unrun, when that loop cannot be had)."""
    import asyncio

    try:
        factory = loop_factory(loop)
    except ValueError:
        main.close()
        raise
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


def running_loop_name() -> str:
    """The name of the running event loop, for logs."""
    import asyncio

    module = type(asyncio.get_running_loop()).__module__
    return "uvloop" if module.startswith("uvloop") else "asyncio"
