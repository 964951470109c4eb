"""Built-in bots and loading a bot from a spec.

A spec is a built-in name (`random`, `greedy`, `mcts`) or `module:Class` naming
an SDK bot class whose constructor takes an optional `seed` keyword.
"""

from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable

from clients.bots.random_bot import RandomBot
from clients.bots.search import GreedyBot, MCTSBot
from clients.sdk import Bot

BUILTIN_BOTS: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
    "mcts": lambda seed: MCTSBot(seed),
}


class BotSpecError(ValueError):
    """A bot spec that names nothing loadable."""


def load_bot(spec: str, seed: int = 0) -> Bot:
    """Make the bot `spec` names, seeded with `seed` where it uses randomness."""
    if spec in BUILTIN_BOTS:
        return BUILTIN_BOTS[spec](seed)
    if ":" not in spec:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise BotSpecError(f"unknown bot {spec!r}: use a built-in ({known}) or module:Class")
    module_name, _, class_name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise BotSpecError(f"cannot import {module_name!r} for bot {spec!r}: {error}") from None
    except SystemExit as error:  # sys.exit() at import would end the command silently
        raise BotSpecError(
            f"importing {module_name!r} for bot {spec!r} called sys.exit({error.code!r})"
        ) from None
    except Exception as error:  # the author's module: a syntax error, or raised at import
        raise BotSpecError(
            f"module {module_name!r} raised {type(error).__name__}: {raised_where(error)}"
        ) from None
    factory = getattr(module, class_name, None)
    if factory is None:
        raise BotSpecError(f"module {module_name!r} has no {class_name!r}")
    try:
        try:
            bot = factory(seed=seed)
        except TypeError:
            try:
                bot = factory()
            except TypeError as error:
                raise BotSpecError(f"cannot construct {spec!r}: {error}") from None
    except BotSpecError:
        raise
    except Exception as error:  # the author's constructor raised
        raise BotSpecError(
            f"cannot construct {spec!r}: {type(error).__name__}: {raised_where(error)}"
        ) from None
    if not callable(getattr(bot, "decide", None)):
        raise BotSpecError(f"{spec!r} has no decide(decision) method")
    return bot


def raised_where(error: BaseException) -> str:
    """`error`'s message and the file and line it came from: a syntax error's
    own, else the innermost frame (the author's, not importlib's)."""
    if isinstance(error, SyntaxError):
        return f"{error.msg} ({error.filename}:{error.lineno})"
    frames = traceback.extract_tb(error.__traceback__)
    own = [frame for frame in frames if not frame.filename.startswith("<")]
    if not own:
        return str(error)
    return f"{error} ({own[-1].filename}:{own[-1].lineno})"
