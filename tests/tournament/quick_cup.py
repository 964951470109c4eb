"""The small tournament the server-fault tests run: two random bots playing
one-round Sheep Showdown, as a config file's text."""

from __future__ import annotations


def quick_cup(games_per_pairing: int = 2, concurrency: int | None = None) -> str:
    """A config named "cup" of bots "a" and "b"; `concurrency` left to its default
    when None."""
    lines = [
        'name = "cup"',
        'game = "sheep-showdown"',
        "players = 2",
        f"games_per_pairing = {games_per_pairing}",
        *([f"concurrency = {concurrency}"] if concurrency is not None else []),
        "[options]",
        "rounds = 1",
        "[[bots]]",
        'name = "a"',
        'builtin = "random"',
        "[[bots]]",
        'name = "b"',
        'builtin = "random"',
    ]
    return "\n".join(lines) + "\n"
