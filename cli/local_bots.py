"""What `sheepfold match` and `sheepfold bot` share for a bot they run in this
process: the built-in bots' names, the check of a name, and the load."""

from __future__ import annotations

import os
import sys
from contextlib import redirect_stdout
from typing import TYPE_CHECKING, Any

from cli.values import usage_error

if TYPE_CHECKING:
    from clients.sdk import Bot

# The built-in bots (clients.bots.BUILTIN_BOTS, whose import loads the search
# bots: too slow for every command's start), named in --bots' and --bot's help.
BUILT_IN_BOTS = "greedy, mcts, random"


def check_bot_name(spec: str, command: str, hint: str = "") -> None:
    """A usage error (exit 2) for a bot named by a word that is no built-in, as
    for an unknown --game, and as a tournament config's unknown builtin is; it
    was exit 1, the status of a bot that failed to load or play. `hint` ends
    the line."""
    from clients.bots import unknown_bot_name

    unknown = unknown_bot_name(spec)
    if unknown is not None:
        usage_error(f"sheepfold {command}: {unknown}{hint}")


def prints_to_stderr() -> redirect_stdout[Any]:
    """While a `module:Class` bot loads and plays in this process, what it prints
    goes to stderr: stdout holds the command's result alone (`--json | jq`)."""
    return redirect_stdout(sys.stderr)


def load_here(spec: str, seed: int) -> Bot:
    """`load_bot`, with the current folder importable too (last, so it shadows
    nothing): `sheepfold bot --bot mymodule:MyBot` beside mymodule.py finds it,
    as `python -m` would."""
    from clients.bots import load_bot

    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)
    return load_bot(spec, seed)
