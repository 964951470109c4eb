"""The command line's value types: argparse types that refuse a bad value with
one line (a usage error, exit 2) instead of a traceback later."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from sheepfold.message_size import DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES

from clients.bot_limits import LimitsError, parse_limits, shown
from clients.whole_numbers import ascii_number, ascii_whole_number, unlike_a_number
from games.words import noun
from server.clock_limits import (
    MAX_DECISION_SECONDS,
    MAX_STRIKES,
    MAX_TIME_BANK_SECONDS,
    MIN_DECISION_SECONDS,
)


def _number(text: str) -> float:
    value = ascii_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number{_how_numbers_are_written(text)}"
        )
    return value


def _how_numbers_are_written(text: str) -> str:
    """Why `text`, which float() may read, is no number here: "" when it is
    no number at all."""
    unlike = unlike_a_number(text)
    return f" ({unlike})" if unlike else ""


def non_negative_float(text: str) -> float:
    value = _number(text)
    if math.isnan(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number >= 0")
    return value


def finite_float(text: str) -> float:
    """Any number, negative too, but not nan or infinity."""
    value = _number(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number")
    return value


def positive_float(text: str) -> float:
    value = _number(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number > 0")
    return value


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (both >= 0), its
    bounds written as the help writes them (100,000)."""

    def number(text: str) -> int:
        value = ascii_whole_number(text)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{text!r} must be a whole number from {shown(low)} to {shown(high)}"
            )
        return value

    return number


# A count with no bound of its own (spectators at most, say): as many as SQLite
# and every 64-bit counter hold.
non_negative_int = whole_number(0, 2**63 - 1)


# A count handed to gRPC, whose settings are C ints.
positive_int = whole_number(1, 2**31 - 1)


def message_bytes(text: str) -> int:
    """`--max-message-bytes` (`serve`'s, and a bot's largest message received):
    at least what the largest decisions of ordinary play take. A server allowed
    less (65536, say) started, and then failed a Stubborn Sheep match's first
    crowded decision RESOURCE_EXHAUSTED."""
    value = positive_int(text)
    if value < MIN_MAX_MESSAGE_BYTES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is too small for a decision, which is one message (a Stubborn "
            f"Sheep one reaches about 400 KB): at least "
            f"{MIN_MAX_MESSAGE_BYTES} (1 MiB); the default is {DEFAULT_MAX_MESSAGE_BYTES}"
        )
    return value


def number_up_to(limit: float) -> Callable[[str], float]:
    """An argparse type: a number from 0 to `limit`."""

    def number(text: str) -> float:
        value = non_negative_float(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"{text!r} is too large: at most {shown(limit)}")
        return value

    return number


def file_path(text: str) -> str:
    """A file's path: anything but empty (which would quietly mean "the default"),
    and not ending in '/': SQLite, os.open and os.path take "x.db/" each in its
    own way (SQLite made an empty x.db, then serve ended in a traceback)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path: name a file")
    if text.endswith("/"):
        raise argparse.ArgumentTypeError(f"{text!r} ends in '/', which names a folder: name a file")
    return text


def file_path_given(text: str) -> Path:
    """`file_path` as a Path: a Path of "" is the current folder, "." (a command
    once stopped on "--tls-key .: not a regular file", a path never typed)."""
    return Path(file_path(text))


def host_path(text: str) -> str:
    """A host folder or file a command bot is given (--bot-dir, --read-only):
    anything but empty, which the file system reads as the current folder, so
    that `--read-only "$DATA"` with DATA unset showed a sandboxed bot the
    folder the command ran in."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path: name a folder or file")
    return text


def secret(text: str) -> str:
    """A token given on the command line: never empty. `--admin-token "$(cat FILE)"`
    with a FILE that could not be read gives an empty one, which would run a
    server open to anyone."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "an empty token (did reading it fail?); leave the flag out to run without one"
        )
    return text


def bind_host(text: str) -> str:
    """An address to listen on: a host name, an IPv4 address, or an IPv6 one with
    or without brackets (`[::1]`, as in a URL), given back without them."""
    return text[1:-1] if text.startswith("[") and text.endswith("]") else text


def refuse_unknown_host(command: str, named: str, host: str) -> None:
    """A host to listen on that names no host (a typo: the resolver answers that
    there is no such name, or it is not a host name at all) is the user's
    mistake, as a malformed address is: one line, naming the value as `named`
    says ("--host 'x'"), exit 2. A resolver that could not answer (no network yet), or an address
    this machine does not have, is left to the bind's own check: exit 1."""
    import socket

    no_such_host = {socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)}
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        if error.errno in no_such_host:
            usage_error(f"sheepfold {command}: {named}: no such host ({error.strerror})")
    except UnicodeError as error:  # a label over 63 characters, say
        usage_error(f"sheepfold {command}: {named}: not a host name ({error})")


def port(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535."""
    value = ascii_whole_number(text)
    if value is None or value > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return value


# The match seeds `match_seed` takes, as its refusal and the flags' help write them.
MATCH_SEEDS = "0 to 2**64 - 1"


def match_seed(text: str) -> int:
    """A match seed: the wire carries it as an unsigned 64-bit number."""
    value = ascii_whole_number(text)
    if value is None or value >= 2**64:
        raise argparse.ArgumentTypeError(f"{text!r} must be a whole number from {MATCH_SEEDS}")
    return value


def seconds_up_to(
    limit: float, *, zero: bool = False, least: float = 0.0
) -> Callable[[str], float]:
    """An argparse type: a time in seconds, more than 0 (or 0 too, with `zero`),
    at least `least` unless 0, and at most `limit`."""

    def seconds(text: str) -> float:
        value = non_negative_float(text) if zero else positive_float(text)
        if value > limit:
            raise argparse.ArgumentTypeError(
                f"{text!r} is too long: at most {shown(limit)} {noun(limit, 'second')}"
            )
        if 0 < value < least:
            raise argparse.ArgumentTypeError(
                f"{text!r} is too short: at least {shown(least)} {noun(least, 'second')}"
            )
        return value

    return seconds


# gRPC takes its times in milliseconds, as C ints.
grpc_seconds = seconds_up_to((2**31 - 1) // 1000)
# A deadline the server takes, 0 for its default.
decision_seconds = seconds_up_to(MAX_DECISION_SECONDS, zero=True, least=MIN_DECISION_SECONDS)
# A seat's time bank, 0 for none; and the missed deadlines that disqualify a
# seat, 0 for the server's default: the rest of a match's clock, as the server
# bounds it.
time_bank_seconds = seconds_up_to(MAX_TIME_BANK_SECONDS, zero=True)
max_strikes = whole_number(0, MAX_STRIKES)


def add_clock_flags(parser: argparse.ArgumentParser) -> None:
    """`--decision-seconds`, `--time-bank-seconds` and `--max-strikes`: the whole
    of a match's clock, for the commands that create one (`create`, `match`)."""
    parser.add_argument(
        "--decision-seconds",
        type=decision_seconds,
        default=0.0,
        help=f"deadline per decision, 0 (the server's default) or {shown(MIN_DECISION_SECONDS)} "
        f"to {shown(MAX_DECISION_SECONDS)}",
    )
    parser.add_argument(
        "--time-bank-seconds",
        metavar="SECONDS",
        type=time_bank_seconds,
        default=0.0,
        help=f"per seat, 0 (none) to {shown(MAX_TIME_BANK_SECONDS)}: spent when a decision "
        "overruns its deadline, before a strike (default 0)",
    )
    parser.add_argument(
        "--max-strikes",
        metavar="N",
        type=max_strikes,
        default=0,
        help="missed deadlines that disqualify a seat, 0 (the server's default, 3) or 1 to "
        f"{shown(MAX_STRIKES)} (default 0)",
    )


def key_value(text: str) -> tuple[str, str]:
    """KEY=VALUE, as `--option rounds=1` takes it."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} must look like key=value")
    return key.strip(), value.strip()


class KeyOnce(argparse._AppendAction):
    """`action=` for a repeatable KEY=VALUE flag (--option, --limit): a key
    given again with another value is a usage error, as a TOML table's key
    given twice is. The later value once won without a word."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        assert isinstance(values, tuple)
        key, value = values
        for given, earlier in getattr(namespace, self.dest) or []:
            if given == key and earlier != value:
                parser.error(
                    f"argument {option_string}: {key} given twice ({earlier!r}, then "
                    f"{value!r}): give it once"
                )
        super().__call__(parser, namespace, values, option_string)


def add_game_option_flag(parser: argparse.ArgumentParser) -> None:
    """`--option KEY=VALUE`, repeatable: a game option of the match to set up."""
    parser.add_argument(
        "--option",
        action=KeyOnce,
        default=[],
        type=key_value,
        metavar="KEY=VALUE",
        help="a game option, repeatable (e.g. --option rounds=1)",
    )


def sandbox_limit(text: str) -> tuple[str, int | float]:
    """KEY=NUMBER, one limit of a sandbox's (`--limit memory_mb=2048`), checked as
    a tournament's [sandbox] table checks it."""
    key, value = key_value(text)
    if ascii_number(value) is None:  # "1_024", other scripts' digits: int() took them
        raise argparse.ArgumentTypeError(
            f"{key}: {value!r} is not a number{_how_numbers_are_written(value)}"
        )
    try:
        number: int | float = float(value) if "." in value else int(value)
    except ValueError:
        whole = ascii_whole_number(value)  # more digits than int() reads?
        if whole is None:
            raise argparse.ArgumentTypeError(f"{key}: {value!r} is not a number") from None
        number = whole
    try:
        parse_limits({key: number})
    except LimitsError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return key, number


def usage_error(line: str) -> NoReturn:
    """A mistake in the flags found after parsing them: `line` alone on stderr
    and exit status 2, as argparse's own usage errors (a SystemExit carrying
    the line would exit 1, the status of a command that could not do its work)."""
    print(line, file=sys.stderr)  # quoted values cut by cli.own_lines
    raise SystemExit(2)


# No flag, name, number or path a person types is a word this long: one is a
# value pasted by mistake (a file, a flood), which a usage error quoted whole.
PASTED_CHARS = 200
KEPT_CHARS = 60
_PASTED = re.compile(rf"\S{{{PASTED_CHARS + 1},}}")


def cut_pasted(message: str) -> str:
    """`message` with each word past PASTED_CHARS characters cut to its first
    KEPT_CHARS and "...", the rest of the message kept, and the punctuation
    that ended the word too ("PATH: error", "'VALUE'")."""
    return _PASTED.sub(_cut, message)


_ENDING = re.compile(r"[:;,'\")\]]{1,3}$")


def _cut(word: re.Match[str]) -> str:
    text = word.group()
    ending = _ENDING.search(text)
    return text[:KEPT_CHARS] + "..." + (ending.group() if ending else "")


# The namespace attribute `cli.main.parse` sets: the long flags typed on the
# command line, as `--NAME`.
TYPED_FLAGS = "typed_flags"


def typed_flags(argv: Sequence[str]) -> frozenset[str]:
    """The long flags `argv` holds, `--NAME` (of `--NAME VALUE` or
    `--NAME=VALUE`), up to a lone `--`, after which every word is a value.
    Flags are taken only spelt in full, and argparse takes no word starting
    with `--` as a flag's value, so each of these is a flag given."""
    typed = set()
    for word in argv:
        if word == "--":
            break
        if word.startswith("--"):
            typed.add(word.split("=", 1)[0])
    return frozenset(typed)


def flag_given(args: argparse.Namespace, flag: str, value: object, default: object) -> bool:
    """Whether `flag` (`--NAME`) was given: typed on the command line, at its
    default too (`--max-watchers-per-address 16` is given, and was once taken
    for the default because it equals it), or, for a namespace built elsewhere
    than `cli.main.parse`, `value` other than `default`."""
    typed = getattr(args, TYPED_FLAGS, None)
    if typed is None:
        return value != default
    return flag in typed or value != default


def refuse_unreachable_bound(
    command: str, args: argparse.Namespace, per_address: str, total: str, default: int
) -> None:
    """A usage error when the bound on one client address, given (typed, its
    `default` too), is above the bound on every address together, which it can
    then never reach: taken, it told the user a client could hold more than
    the total lets it. `per_address` and `total` are the flags (`--NAME`);
    any bound held within another is checked the same way (a request's size
    within a message's). A default above a lowered total is left alone: the
    user set only that."""
    mine = getattr(args, per_address.removeprefix("--").replace("-", "_"))
    everyone = getattr(args, total.removeprefix("--").replace("-", "_"))
    if flag_given(args, per_address, mine, default) and mine > everyone:
        usage_error(
            f"sheepfold {command}: {per_address} {mine} is above {total} {everyone}, "
            f"so it can never be reached: lower {per_address} or raise {total}"
        )


def refuse_metrics_host_alone(command: str, args: argparse.Namespace, also: str = "") -> None:
    """A usage error when --metrics-host is given without --metrics-port:
    taken and then unused, it would leave the user believing metrics are
    served. `also` names another way to give the port."""
    if args.metrics_host is not None and args.metrics_port is None:
        usage_error(
            f"sheepfold {command}: --metrics-host is for the metrics port: "
            f"add --metrics-port PORT{also}"
        )
