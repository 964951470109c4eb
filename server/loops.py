"""The event loop a server process runs on.

uvloop (libuv under asyncio's interface) runs the server's event loop for less
CPU than asyncio's own: about a sixth less per decision for `sheepfold serve`,
and as much for a bare gRPC server (docs/performance.md). asyncio's loop stays
a choice (`serve --loop asyncio`), and is the one used where uvloop is not
installed (it has no Windows build).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

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
    try:
        factory = loop_factory(loop)
    except ValueError:
        main.close()
        raise
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


def running_loop_name() -> str:
    """The name of the running event loop, for logs."""
    module = type(asyncio.get_running_loop()).__module__
    return "uvloop" if module.startswith("uvloop") else "asyncio"
