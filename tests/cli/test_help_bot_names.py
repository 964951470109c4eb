"""`match --help` and `bot --help` name every built-in bot: they named
`random` alone (`match`) or none (`bot`), and a newcomer reading them could
not learn that `greedy` and `mcts` exist."""

from __future__ import annotations

import argparse

import pytest

from cli.main import build_parser
from clients.bots import BUILTIN_BOTS


def _command(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    raise AssertionError("no subcommands")


@pytest.mark.parametrize(("command", "flag"), [("match", "--bots"), ("bot", "--bot")])
def test_the_bot_flag_help_names_every_built_in(command: str, flag: str) -> None:
    (action,) = [a for a in _command(command)._actions if flag in a.option_strings]
    listed = f"({', '.join(sorted(BUILTIN_BOTS))})"
    assert listed in " ".join(str(action.help).split())
