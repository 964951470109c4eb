"""Built-in bots and loading a bot from a spec.

A spec is a built-in name (`random`, `greedy`, `mcts`) or `module:Class` naming
an SDK bot class whose constructor takes an optional `seed` keyword.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import traceback
from collections.abc import Callable
from pathlib import PurePath

from clients.bots.random_bot import RandomBot
from clients.bots.search import GreedyBot, MCTSBot
from clients.sdk import Bot
from games.options import brief

BUILTIN_BOTS: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
    "mcts": lambda seed: MCTSBot(seed),
}


def named_by_file(module_name: str, class_name: str, error: ImportError) -> str | None:
    """How to name a bot whose spec names its file (`mybot.py:Bot`), which
    `import` reads as a module `py` in a package `mybot`; None for another error."""
    if not module_name.endswith(".py") or getattr(error, "name", None) != module_name:
        return None
    stem = module_name.removesuffix(".py")
    return f"the module of {module_name} is {stem}: write {stem}:{class_name}"


def no_such_class(module: object, module_name: str, class_name: str) -> str:
    """Why `module` gives no `class_name`: said plainly, or, when a file of that
    module's name further down `sys.path` (the author's own, beside their command
    line) is hidden by the module imported, naming both files."""
    said = f"module {module_name!r} has no {class_name!r}"
    found = getattr(module, "__file__", None)
    if "." in module_name or found is None:
        return said
    imported = os.path.realpath(found)
    for folder in sys.path:
        for candidate in (f"{module_name}.py", os.path.join(module_name, "__init__.py")):
            path = os.path.realpath(os.path.join(folder or os.getcwd(), candidate))
            if path != imported and os.path.isfile(path):
                return (
                    f"{said}: it was imported from {found}, which hides {path}; "
                    "rename your file (and the module:Class) to a name no other module has"
                )
    return said


class BotSpecError(ValueError):
    """A bot spec that names nothing loadable."""


MODULE_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def _module_of(path: str) -> str:
    """The module name a file path like `./bots/mybot.py` most likely meant."""
    name = PurePath(path).name.removesuffix(".py").lstrip(".")
    return name if name.isidentifier() else ""


def unknown_bot_name(spec: str) -> str | None:
    """Why `spec` names no bot at all: a word (no module:Class, no cmd:) that is
    no built-in; None when it is a built-in or names one some other way."""
    if spec in BUILTIN_BOTS or ":" in spec:
        return None
    known = ", ".join(sorted(BUILTIN_BOTS))
    return f"unknown bot {brief(spec)}: use a built-in ({known}) or module:Class"


def load_bot(spec: str, seed: int = 0) -> Bot:
    """Make the bot `spec` names, seeded with `seed` where it uses randomness."""
    if spec in BUILTIN_BOTS:
        return BUILTIN_BOTS[spec](seed)
    unknown = unknown_bot_name(spec)
    if unknown is not None:
        raise BotSpecError(unknown)
    module_name, _, class_name = spec.partition(":")
    if not MODULE_NAME.match(module_name):
        # importlib's own TypeError for "./mybot" read as the module's fault.
        example = f"{_module_of(module_name) or 'mybot'}:{class_name or 'Bot'}"
        raise BotSpecError(
            f"bot {brief(spec)} must look like module:Class, with the module's name as `import` "
            f"takes it ({example} for {example.partition(':')[0]}.py in the current folder), "
            "not a path"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        why = named_by_file(module_name, class_name, error) or str(error)
        raise BotSpecError(f"cannot import {module_name!r} for bot {spec!r}: {why}") from None
    except SystemExit as error:  # sys.exit() at import would end the command silently
        raise BotSpecError(
            f"importing {module_name!r} for bot {spec!r} called sys.exit({error.code!r})"
        ) from None
    except KeyboardInterrupt:  # a Ctrl-C while importing stops the command
        raise
    except BaseException as error:  # the author's module: a syntax error, or raised at import
        raise BotSpecError(
            f"module {module_name!r} raised {type(error).__name__}: {raised_where(error)}"
        ) from None
    factory = getattr(module, class_name, None)
    if factory is None:
        raise BotSpecError(no_such_class(module, module_name, class_name))
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
    except SystemExit as error:  # as at import: it would end the command silently, exit 0
        where = _where(error)
        raise BotSpecError(
            f"constructing {spec!r} called sys.exit({error.code!r})"
            + (f" ({where})" if where else "")
        ) from None
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the author's constructor raised (GeneratorExit too)
        raise BotSpecError(
            f"cannot construct {spec!r}: {type(error).__name__}: {raised_where(error)}"
        ) from None
    if not callable(getattr(bot, "decide", None)):
        raise BotSpecError(f"{spec!r} has no decide(decision) method")
    return bot


def _where(error: BaseException) -> str:
    """FILE:LINE of the innermost frame of `error` outside Python's own
    frozen modules, or "" when it has none."""
    own = [f for f in traceback.extract_tb(error.__traceback__) if not f.filename.startswith("<")]
    return f"{own[-1].filename}:{own[-1].lineno}" if own else ""


def raised_where(error: BaseException) -> str:
    """`error`'s message and the file and line it came from: a syntax error's
    own, else the innermost frame (the author's, not importlib's)."""
    if isinstance(error, SyntaxError):
        return f"{error.msg} ({error.filename}:{error.lineno})"
    where = _where(error)
    return f"{error} ({where})" if where else str(error)
