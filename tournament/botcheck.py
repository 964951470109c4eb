"""Every bot of a tournament is checked before the first game.

A typo (`builtin = "alphazero"`, `class = "nosuchmod:Bot"`, `command =
["/no/such/program"]`) would otherwise make every game of that bot a crash
played by a random stand-in, and those results would stay in the database.
Each problem is a `ConfigError` naming the field, as the config check does.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from clients.bots import (
    BUILTIN_BOTS,
    BotSpecError,
    load_bot,
    named_by_file,
    no_such_class,
    raised_where,
)
from clients.launch.host_view import python_program
from clients.launch.programs import program_problem, script_problem
from clients.launch.sandbox_view import unseen_program
from tournament.config import (
    BotSpec,
    ConfigError,
    TournamentConfig,
    add_python_path,
    resolve_path,
)

__all__ = ["BotCheckError", "check_bots", "in_process_problem"]


class BotCheckError(ValueError):
    """One or more bots cannot be started; `problems` are ConfigErrors."""

    def __init__(self, problems: list[ConfigError]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems))
        self.problems = problems


def check_bots(config: TournamentConfig) -> None:
    """Raise BotCheckError listing every bot that cannot be started."""
    problems = [
        ConfigError(f"python_path[{index}]", f"no folder {folder!r} (looked at {resolved})")
        for index, folder in enumerate(config.python_path)
        if not _is_folder(resolved := resolve_path(config, folder))
    ]
    add_python_path(config)
    for index, bot in enumerate(config.bots):
        problem = _check(bot, f"bots[{index}]", config.base_dir)
        if problem is not None:
            problems.append(problem)
    if problems:
        raise BotCheckError(problems)


def _is_folder(path: str | Path) -> bool:
    """Whether `path` is a folder; False for one that cannot be looked at. Path.is_dir
    let "File name too long" out (a pasted 100,000-character cwd or python_path),
    a traceback where the config error "no folder ..." belongs."""
    return os.path.isdir(path)


def _check(bot: BotSpec, where: str, base_dir: str) -> ConfigError | None:
    if bot.command is None:
        problem = in_process_problem(bot)
        field = f"{where}.builtin" if bot.builtin is not None else f"{where}.class"
        return None if problem is None else ConfigError(field, problem)
    return _check_command(bot, f"{where}.command", base_dir)


def in_process_problem(bot: BotSpec) -> str | None:
    """Why the built-in or class bot `bot` cannot play, or None. Each Ray node
    asks this too (ray_task.check_node), so one config is judged alike with and
    without --ray."""
    if bot.builtin is not None:
        if bot.builtin not in BUILTIN_BOTS:
            known = ", ".join(sorted(BUILTIN_BOTS))
            return f"no built-in bot {bot.builtin!r} (known: {known})"
        return None
    assert bot.cls is not None
    return _class_problem(bot.cls)


def _class_problem(spec: str) -> str | None:
    """A class with a `decide` method is imported, never made: a constructor
    that raises is a crash in each of its games (as one that raises in some
    games only), and the run plays on. A factory, or a class that sets
    `decide` in __init__, is made once, since that is the only way to see
    whether it makes a bot."""
    module_name, _, class_name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        named = named_by_file(module_name, class_name, error)
        if named is not None:
            return named
        if error.name == module_name or module_name.startswith(f"{error.name}."):
            return (
                f"no module {module_name!r} (looked in the python_path folders and "
                "the installed packages)"
            )
        return f"module {module_name!r} fails to import: {error}"
    except KeyboardInterrupt:  # a Ctrl-C while importing stops the command
        raise
    except BaseException as error:  # the author's module raised while importing
        # SystemExit too: sys.exit(3) at import once ended the run with status 3
        # ("H0 accepted" for an SPRT) and not a word; GeneratorExit (no
        # Exception) went past `except Exception`, a traceback.
        return f"module {module_name!r} raised {type(error).__name__}: {raised_where(error)}"
    factory = getattr(module, class_name, None)
    if factory is None:
        return no_such_class(module, module_name, class_name)
    if callable(getattr(factory, "decide", None)):
        return None
    # A factory function, or a class that sets `decide` in __init__: made as
    # each game makes it, since `sheepfold match` plays such a bot.
    try:
        load_bot(spec)
    except BotSpecError as error:
        return str(error)
    return None


# Linux starts no program given an argument or environment entry longer than
# this, its closing NUL counted (MAX_ARG_STRLEN): every game of such a bot
# failed to start ("Argument list too long"), each a crash charged to the bot.
MAX_ARG_BYTES = 131_072


def _too_long_to_pass(bot: BotSpec, field: str) -> ConfigError | None:
    assert bot.command is not None
    given = [(f"{field}[{index}]", arg) for index, arg in enumerate(bot.command)]
    given += [(field.replace(".command", f".env.{key}"), f"{key}={text}") for key, text in bot.env]
    for where, text in given:
        size = len(text.encode("utf-8", "surrogateescape"))
        if size >= MAX_ARG_BYTES:
            return ConfigError(
                where,
                f"is {size:,} bytes long, and Linux starts no program given an argument "
                f"or environment entry of more than {MAX_ARG_BYTES - 1:,}",
            )
    return None


def _check_command(bot: BotSpec, field: str, base_dir: str) -> ConfigError | None:
    assert bot.command is not None
    too_long = _too_long_to_pass(bot, field)
    if too_long is not None:
        return too_long
    program = bot.command[0].replace("{python}", python_program()).replace("{config_dir}", base_dir)
    cwd = Path(bot.cwd) if bot.cwd else Path(base_dir)
    cwd = cwd if cwd.is_absolute() else Path(base_dir) / cwd
    if not _is_folder(cwd):
        return ConfigError(field.replace(".command", ".cwd"), f"no folder {str(cwd)!r}")
    search = dict(bot.env).get("PATH", os.environ.get("PATH"))
    problem = program_problem(program, cwd, search)
    if problem is not None:
        return ConfigError(field, problem)
    command = [program, *(arg.replace("{config_dir}", base_dir) for arg in bot.command[1:])]
    script = script_problem(command, cwd)
    if script is not None:
        return ConfigError(f"{field}[{script[0]}]", script[1])
    if bot.sandbox is None:
        return None
    unseen = unseen_program(program, str(cwd), bot.sandbox.read_only, dict(bot.env))
    if unseen is None:
        return None
    return ConfigError(
        field,
        f"{bot.command[0]!r} needs {unseen}, which the bot's sandbox does not see (only its "
        "folder, its read_only paths and the system's runtime: /usr, /bin, /lib*, the "
        "Python running Sheepfold): name a program there, such as {python} or "
        "/usr/bin/node, or put it in the bot's folder",
    )
