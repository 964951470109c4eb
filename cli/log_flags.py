"""The flags that say how a long-running command (`serve`, `web`) logs."""

from __future__ import annotations

import argparse


def add_log_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--log-format",
        choices=("auto", "console", "json"),
        default="auto",
        help="console on a terminal, JSON lines otherwise (default %(default)s)",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning", "error"),
        help="the least important lines logged (default %(default)s)",
    )
