"""What `--help` says a flag defaults to is what the command does without it.

`tournament sprt --help` said `--elo1` defaulted to 10, but a config's `[sprt]`
table wins over that (examples/sprt.toml tests elo1 = 50), and `bot --help`
never said that `--bot` plays `random` when left out."""

from __future__ import annotations

import pytest

from tests.cli.helpers import flag_help, sheepfold


@pytest.mark.parametrize(
    ("flag", "default"),
    [
        ("--elo0", "[sprt] elo0, or 0"),
        ("--elo1", "[sprt] elo1, or 10"),
        ("--alpha", "[sprt] alpha, or 0.05"),
        ("--beta", "[sprt] beta, or 0.05"),
        ("--max-games", "[sprt] max_games, or 10,000"),
    ],
)
def test_sprt_flags_name_the_config_table_they_default_to(flag: str, default: str) -> None:
    assert f"(default: {default})" in flag_help(("tournament", "sprt"), flag)


def test_bot_says_which_bot_plays_without_bot() -> None:
    assert "(default: random)" in flag_help(("bot",), "--bot")


def test_health_names_the_services_it_can_ask() -> None:
    """The README and operations.md send liveness probes to `--service liveness`;
    `health --help` said only "service name", so the one name a probe needs was
    nowhere in the command's own help."""
    shown = flag_help(("health",), "--service")
    assert "liveness" in shown and "sheepfold.v1.Arena" in shown


def test_tournament_help_names_every_kind_of_run() -> None:
    """`sheepfold --help` says tournament does round robins, gauntlets and SPRTs;
    `sheepfold tournament --help` spoke of round robins alone."""
    shown = " ".join(sheepfold("tournament", "--help").stdout.split())
    assert "gauntlets" in shown and "SPRTs" in shown


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        (("create",), "--server"),
        (("match",), "--server"),
        (("bot",), "--server"),
        (("health",), "--addr"),
        (("web",), "--server"),
        (("tournament", "run"), "--server"),
        (("tournament", "sprt"), "--server"),
    ],
)
def test_every_server_flag_says_it_takes_a_unix_socket(command: tuple[str, ...], flag: str) -> None:
    """Each of these takes `unix:PATH` (a tournament with sandboxed bots needs
    `run --server unix:PATH`, docs/tournament.md), but only `match --help` said
    so; the others named HOST:PORT alone, and `bot` called its value SERVER."""
    shown = flag_help(command, flag)
    assert shown.startswith(f"{flag} ADDR ") and "HOST:PORT" in shown and "unix:PATH" in shown


def test_tournament_run_says_it_takes_several_servers() -> None:
    assert "HOST:PORT,HOST:PORT" in flag_help(("tournament", "run"), "--server")


@pytest.mark.parametrize("flag", ["--server", "--match", "--token"])
def test_bot_names_the_variable_each_seat_flag_falls_back_to(flag: str) -> None:
    """--server and --token named theirs, --match ('match id') did not, though
    it falls back to $SHEEPFOLD_MATCH as the README says."""
    variable = "$SHEEPFOLD_" + flag.removeprefix("--").upper()
    assert f"(default: {variable})" in flag_help(("bot",), flag)


@pytest.mark.parametrize(
    ("command", "too_large"),
    [
        (("demo",), str(2**63)),
        (
            ("match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random"),
            "2" * 30,
        ),
        (("create", "--game", "sheep-n-sheep", "--players", "2"), "2" * 30),
    ],
)
def test_seed_help_gives_the_range_its_refusal_names(
    command: tuple[str, ...], too_large: str
) -> None:
    """`demo --seed 2**63` is refused as "must be a whole number from 0 to
    9,223,372,036,853,775,808", and `match`/`create --seed` past 2**64 - 1 alike,
    but their `--help` said only "first seed" or "match seed", while `bot --seed`
    gave its range: a user learnt the bounds only by crossing them."""
    refused = sheepfold(*command, "--seed", too_large)
    assert refused.returncode == 2
    bounds = refused.stderr.strip().rsplit("must be a whole number from ", 1)[1]
    low, high = bounds.split(" to ")
    assert f"{low} to {high}" in flag_help(command[:1], "--seed")
