"""The `sheepfold` program's first lines (the console script's and `python -m
cli`'s): a Ctrl-C ends it quietly from here on. Imported only to start the
program: importing it takes Ctrl-C over.

A Ctrl-C in the first tens of milliseconds, while `cli.main` and what it
imports loaded, raised KeyboardInterrupt before `cli.main` could catch it: a
traceback ending in "from cli.main import main", and death by SIGINT (or, when
it landed in a class's `__set_name__`, a RuntimeError, exit 1). Nothing has
started yet then, so the handler set here, before anything else is imported,
ends the program at once with the line a later Ctrl-C gives ("sheepfold:
interrupted", exit 130); `cli.main` hands Ctrl-C back to Python's handler
(`take_interrupts_as_exceptions`) before the command runs. A Ctrl-C before
this module runs falls on Python's own start (its default action, or its site
module), which no module of the program's can reach.
"""

# _signal, not signal: that imports enum, a few milliseconds more of the window
# this closes (as typing and __future__ would); os is loaded by Python's own start.
import _signal  # type: ignore[import-not-found,unused-ignore]
import os

INTERRUPTED_LINE = b"sheepfold: interrupted\n"


def _interrupted_while_loading(signum: int, frame: object) -> None:
    """Ctrl-C before the command runs: nothing to stop or keep, so end at once."""
    try:  # noqa: SIM105 (contextlib is one import more, in the window this closes)
        os.write(2, INTERRUPTED_LINE)  # not sys.stderr: it may be half-way through a write
    except OSError:
        pass  # stderr closed: the exit status says it
    os._exit(130)


# A SIGINT ignored at the start (a background job of a shell without job
# control) stays as it is: cli.main.interrupt_on_terminate decides about it.
if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _interrupted_while_loading)


def take_interrupts_as_exceptions() -> None:
    """From now on Ctrl-C raises KeyboardInterrupt (Python's own handler), which
    `cli.main` and the commands turn into their orderly stop. Only when the
    handler above is still in place: one set since (`serve`'s early stops) stays."""
    if _signal.getsignal(_signal.SIGINT) is _interrupted_while_loading:
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)


def main() -> int:
    """The console script's entry point: `sheepfold ...`."""
    from cli.main import main as run_command

    return run_command()
