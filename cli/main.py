"""`sheepfold`: the one command line entry point."""

from __future__ import annotations

import argparse
import difflib
import os
import signal
import sys
from collections.abc import Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any

from cli.own_lines import own_lines_shown
from cli.standard_streams import OutputFailed, discard_output, hold_standard_streams
from clients.interrupts import (
    exit_when_interrupted,
    ignore_further_interrupts,
    interrupt,
    name_the_command,
)

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

# The command modules are imported in `build_parser`, not here: they pull in gRPC,
# aiohttp and the games. The program starts in cli.entry, which ends it quietly
# at a Ctrl-C while this module and they load.


# The commands that call a server for a user and report its failures themselves
# (web in its pages: gRPC's lines on its stderr came with every page asked for).
QUIET_GRPC_COMMANDS = frozenset({"create", "match", "bot", "health", "web"})
# Every command `build_parser` adds: a line said before (or without) parsing
# names the command the user typed, as every other line does.
COMMANDS = frozenset(
    {"serve", "match", "bot", "health", "demo", "tournament", "replay", "create", "db", "web"}
)


def _speaker(argv: Sequence[str]) -> str:
    """How a line about the whole run starts: `sheepfold COMMAND` when the
    line names a command first, else `sheepfold` (`sheepfold --help`)."""
    return f"sheepfold {argv[0]}" if argv and argv[0] in COMMANDS else "sheepfold"


class _Parser(argparse.ArgumentParser):
    """argparse.ArgumentParser that lets a failed write of its help, version or
    usage text through (the subcommands' parsers are of the same class).

    argparse swallows it, so `sheepfold --help >/dev/full` exited 0 having
    written nothing; main now reports it as any other lost output.

    A long flag is taken only as spelt in full (no `--serv` for `--server`):
    what is done before parsing (`_tournament_on_a_server`,
    `join_option_values`) looks for the full spelling, and took `--serv ADDR`
    as no --server while argparse took it as one. A shortened flag is a usage
    error naming the flag it resembles."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (file or sys.stderr).write(message)


class _VersionAction(argparse._VersionAction):
    """`--version`, its number read when asked for: reading it costs every other
    command a tenth of its start-up."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        self.version = f"sheepfold {_version()}"
        super().__call__(parser, namespace, values, option_string)


def build_parser() -> argparse.ArgumentParser:
    from cli import bot, create, db, demo, health, play, replay, serve
    from cli import tournament as tournament_cli
    from cli import web as web_cli

    parser = _Parser(
        prog="sheepfold",
        description="Sheepfold: a gRPC game server for bot competitions on four sheep games.",
    )
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve.add_parser(commands)
    play.add_parser(commands)
    bot.add_parser(commands)
    health.add_parser(commands)
    demo.add_parser(commands)
    tournament_cli.add_parser(commands)
    replay.add_parser(commands)
    create.add_parser(commands)
    db.add_parser(commands)
    web_cli.add_parser(commands)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; an unknown flag is reported with the usage of the command it was given to."""
    from cli.values import TYPED_FLAGS, typed_flags

    args, extra = parser.parse_known_args(argv)
    # Which flags were typed, for checks that must tell a flag typed at its
    # default from one left out (values.flag_given).
    setattr(args, TYPED_FLAGS, typed_flags(sys.argv[1:] if argv is None else argv))
    if extra:
        innermost = _innermost(parser, args)
        hint = _resembling(innermost, extra)
        innermost.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
    return args


def _resembling(parser: argparse.ArgumentParser, extra: Sequence[str]) -> str:
    """ " (did you mean --metrics-port?)" for the first unknown flag that is
    close to one of the command's, or the start of only one (`--met`, as
    argparse no longer takes it), or "": a typo's usage once named no flag."""
    known = [flag for action in parser._actions for flag in action.option_strings]
    for word in extra:
        if word.startswith("--"):
            flag = word.split("=", 1)[0]
            address = _address_flag(flag, known)
            if address is not None:
                return f" (did you mean {address}?)"
            started = [name for name in known if name.startswith(flag)]
            if len(started) == 1:
                return f" (did you mean {started[0]}?)"
            close = difflib.get_close_matches(flag, known, n=1, cutoff=0.8)
            if close:
                return f" (did you mean {close[0]}?)"
    return ""


# The flags that name the server a command talks to (health's --addr, the
# other clients' --server), and the words a user carries over from another
# command or program. By spelling, `health --server` resembled --service, the
# name of a gRPC service, and `bot --addr` resembled nothing.
ADDRESS_FLAGS = ("--server", "--addr")
ADDRESS_WORDS = frozenset({*ADDRESS_FLAGS, "--address", "--host", "--port"})


def _address_flag(flag: str, known: Sequence[str]) -> str | None:
    """The command's own flag for the server's address when `flag` is another
    command's name for it (or a word for an address), else None."""
    if flag not in ADDRESS_WORDS:
        return None
    return next((name for name in ADDRESS_FLAGS if name in known), None)


def _innermost(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The (sub)command parser that `args` ended in, e.g. `sheepfold tournament run`."""
    while True:
        actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        chosen = getattr(args, actions[0].dest, None) if actions else None
        if chosen is None:
            return parser
        parser = actions[0].choices[chosen]


def main(argv: Sequence[str] | None = None) -> int:
    raw = sys.argv[1:] if argv is None else argv
    if argv is None:  # the program itself, not a caller in another program (a test)
        hold_standard_streams()
        exit_when_interrupted()
        if raw and raw[0] == "serve":
            from server.stop_signals import catch_early_stops

            catch_early_stops()  # before the slow imports: a SIGTERM now stops it cleanly
    if raw and (raw[0] in QUIET_GRPC_COMMANDS or _tournament_on_a_server(raw)):
        # gRPC's core writes INFO lines of its own to stderr (a failed TLS
        # handshake, say) around the one line these commands print for it.
        # Read when gRPC loads, so set first. Not for `serve`: any setting
        # measured about a tenth more CPU per decision.
        os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    undecodable = _not_utf8(raw)
    if undecodable is not None:
        print(
            f"{_speaker(raw)}: {undecodable} is not UTF-8 text "
            "(names, ids, tokens, addresses and paths are UTF-8)",
            file=sys.stderr,
        )
        return 2
    # Every line from here on, usage errors included, quotes what the user
    # gave readably (cli.own_lines).
    with own_lines_shown(raw):
        return _parsed_and_run(raw, argv)


def _parsed_and_run(raw: Sequence[str], argv: Sequence[str] | None) -> int:
    """The command `raw` names, parsed and run: its exit status."""
    args: argparse.Namespace | None = None  # the command, once known, names an interrupt
    try:
        from cli.bot import join_option_values

        try:
            args = parse(build_parser(), join_option_values(raw))
        except SystemExit:
            sys.stdout.flush()  # --help and --version's text: a failed write shows here
            raise
        if getattr(args, "command", None):
            name_the_command(f"sheepfold {args.command}")
        if getattr(args, "interrupt_on_terminate", False):
            interrupt_on_terminate()
        if argv is None and not _working_folder_exists():
            # Relative paths (the default --db, a bot's module) lead nowhere, and
            # os.getcwd() and os.path.abspath raised FileNotFoundError tracebacks.
            print(
                f"{_speaker(raw)}: the working folder was deleted (or moved) from under "
                "this shell: cd to a folder that exists",
                file=sys.stderr,
            )
            return 1
        # Until here a Ctrl-C ended the program at once (cli.entry, where the
        # program starts; not a caller's main(argv)): nothing had started. The
        # command stops in order, by KeyboardInterrupt.
        entry = sys.modules.get("cli.entry")
        if entry is not None:
            entry.take_interrupts_as_exceptions()
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except KeyboardInterrupt:
        ignore_further_interrupts()  # a second Ctrl-C would break into the exit
        # As every other error line: "sheepfold match: interrupted"; a Ctrl-C
        # while the command loads, before its name is parsed, is the program's.
        command = getattr(args, "command", None)
        print(
            f"sheepfold {command}: interrupted" if command else "sheepfold: interrupted",
            file=sys.stderr,
        )
        return 130
    except BrokenPipeError:
        # `sheepfold ... | head`: the reader left; no more output can go anywhere.
        discard_output()
        print(
            f"{_speaker(raw)}: the output was closed before all of it was written",
            file=sys.stderr,
        )
        return 1
    except OutputFailed as failure:
        discard_output()
        print(f"{_speaker(raw)}: cannot write the output: {failure.strerror}", file=sys.stderr)
        return 1


def _working_folder_exists() -> bool:
    """Whether the process's working folder still exists (a shell's folder can
    be deleted from under it, by a clean-up of /tmp say)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def _tournament_on_a_server(argv: Sequence[str]) -> bool:
    """`sheepfold tournament run|sprt --server ...`: its calls go to a server of
    another process, as create's do, so gRPC's own lines are quietened too
    (they came before its one line for a failed TLS handshake). Without
    --server the run plays on a server in its own process, left as serve is."""
    return argv[0] == "tournament" and any(
        arg == "--server" or arg.startswith("--server=") for arg in argv
    )


def _not_utf8(argv: Sequence[str]) -> str | None:
    """The first argument or $SHEEPFOLD_ variable holding bytes that are not
    UTF-8 (Python keeps them as lone surrogates), named, or None. gRPC, SQLite
    and the protocol's strings take UTF-8 alone: such a value once ended in a
    UnicodeEncodeError traceback wherever it first went."""
    values = [("an argument", arg) for arg in argv] + [
        (f"${name}", value) for name, value in os.environ.items() if name.startswith("SHEEPFOLD_")
    ]
    for what, value in values:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(value).decode("utf-8", "backslashreplace")
            return f"{what} '{shown}'"
    return None


def interrupt_on_terminate() -> None:
    """SIGTERM (`docker stop`, `kill`), SIGHUP (the terminal closed) and SIGQUIT
    (Ctrl-\\; it once killed the command at once, core dumped) take the
    path of Ctrl-C: the command stops its bots, keeps what is finished and exits
    130 with one line, instead of dying at once and leaving bot programs behind.
    A SIGHUP ignored at the start (`nohup sheepfold tournament run ... &`) stays
    ignored, so the run outlives the terminal: it once stopped when that closed;
    a SIGINT ignored at the start is taken (see below)."""
    from sheepfold.stop_signals import TAKEN_STOP_SIGNALS

    for signum in TAKEN_STOP_SIGNALS:
        if signum != signal.SIGINT:
            signal.signal(signum, _as_interrupt)
        elif signal.getsignal(signum) is signal.SIG_IGN:
            # SIGINT is Ctrl-C itself, taken by clients.interrupts.run_interruptible
            # where Python's handler is. Ignored at the start (a background job of
            # a shell without job control, `sheepfold tournament run cup.toml &` in
            # a script), it is an operator's stop all the same, as `serve` takes
            # it (sheepfold.stop_signals): `kill -INT` once left such a run playing.
            signal.signal(signum, signal.default_int_handler)


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    """Hand the signal to whatever handles Ctrl-C now (clients.interrupts)."""
    interrupt(frame)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sheepfold")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


if __name__ == "__main__":
    sys.exit(main())
