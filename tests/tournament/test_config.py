"""The TOML config: a good one parses, every bad one names its field."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from tournament.config import (
    ConfigError,
    SprtSettings,
    check_schedule_size,
    check_sprt,
    load_config,
    parse_config,
)
from tournament.schedule import group_count, make_schedule

GOOD = {
    "game": "sheep-showdown",
    "players": 2,
    "options": {"rounds": 1},
    "bots": [
        {"name": "r1", "builtin": "random"},
        {"name": "c1", "class": "pkg.mod:Bot"},
        {"name": "x1", "command": ["{python}", "bot.py"], "env": {"LEVEL": "3"}},
    ],
}


def _with(**changes: object) -> dict:
    raw = {**GOOD, **changes}
    return {key: value for key, value in raw.items() if value is not None}


def test_a_good_config_parses_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-showdown"\nanchor = "r1"\n[options]\nrounds = 1\n'
        '[[bots]]\nname = "r1"\nbuiltin = "random"\n'
        '[[bots]]\nname = "x1"\ncommand = ["prog", "--fast"]\n'
    )
    config = load_config(path)
    assert config.name == "cup" and config.players == 2 and config.anchor == "r1"
    assert config.options_dict == {"rounds": "1"}
    assert config.bot("x1").command == ("prog", "--fast")
    assert config.database == "cup.sqlite" and config.base_dir == str(tmp_path)


def test_anchor_mean_is_the_mean_as_in_the_report() -> None:
    """`report --anchor mean` took it, the config refused it ("must be the
    name of one of the bots, not 'mean'")."""
    assert parse_config(_with(anchor="mean")).anchor is None
    assert parse_config(_with()).anchor is None


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (_with(game=None), "game"),
        (_with(game="sheep-chess"), "game"),
        (_with(players=9), "players"),
        (_with(players="two"), "players"),
        (_with(options={"rounds": 7}), "options.rounds"),
        (_with(options={"colour": "red"}), "options.colour"),
        (_with(concurrency=0), "concurrency"),
        (_with(decision_seconds=0), "decision_seconds"),
        (_with(games_per_pairing=1.5), "games_per_pairing"),
        (_with(anchor="nobody"), "anchor"),
        (_with(database=""), "database"),
        (_with(secret_deals="yes"), "secret_deals"),
        (_with(rounds=3), "rounds"),
        (_with(bots=None), "bots"),
        (_with(bots=[{"name": "only", "builtin": "random"}]), "bots"),
        (_with(bots=[{"name": "a", "builtin": "random"}, {"builtin": "random"}]), "bots[1].name"),
        (
            _with(bots=[{"name": "a", "builtin": "random"}, {"name": "a", "builtin": "random"}]),
            "bots[1].name",
        ),
        (_with(bots=[{"name": "a", "builtin": "random"}, {"name": "b"}]), "bots[1]"),
        (
            _with(bots=[{"name": "a", "builtin": "random"}, {"name": "b", "command": "prog"}]),
            "bots[1].command",
        ),
        (
            _with(bots=[{"name": "a", "builtin": "random"}, {"name": "b", "class": "nocolon"}]),
            "bots[1].class",
        ),
        (
            _with(bots=[{"name": "a", "builtin": "random", "speed": 1}, GOOD["bots"][0]]),
            "bots[0].speed",
        ),
    ],
)
def test_a_bad_value_is_one_error_naming_its_field(raw: dict, field: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(raw)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_invalid_toml_and_missing_file_are_config_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("game = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).resolve().parents[2] / "examples").rglob("*.toml")),
    ids=lambda p: p.name,
)
def test_every_example_config_loads(path: Path) -> None:
    config = load_config(path)
    assert config.bots and config.game


INF, NAN = math.inf, math.nan
FOUR_BOTS = [{"name": f"r{i}", "builtin": "random"} for i in range(4)]


def _sprt(**sprt: object) -> dict:
    return _with(schedule="sprt", sprt=sprt)


def _bot(**entry: object) -> dict:
    return _with(bots=[GOOD["bots"][0], {"name": "x", "command": ["prog"], **entry}])


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        # SPRT hypotheses: inf and 1e308 crashed the math (ZeroDivisionError,
        # OverflowError), 10**400 crashed float(), nan slipped through to elo1's check.
        *[(_sprt(elo1=bad), "sprt.elo1") for bad in (INF, NAN, 1e308, 7000, 1000.5, 10**400)],
        *[(_sprt(elo0=bad), "sprt.elo0") for bad in (-INF, NAN, -1e308, -1001, -(10**400))],
        (_sprt(elo0=INF, elo1=INF), "sprt.elo0"),
        (_sprt(elo1="ten"), "sprt.elo1"),
        # an error rate so small that log((1 - beta) / alpha) is inf: never H1
        *[(_sprt(alpha=bad), "sprt.alpha") for bad in (1e-320, 1e-10, 0, NAN, INF, 0.5, True)],
        *[(_sprt(beta=bad), "sprt.beta") for bad in (1e-320, NAN, -INF, 0.5)],
        # SQLite OverflowError, MemoryError from range(), or a run without end
        *[(_sprt(max_games=bad), "sprt.max_games") for bad in (2**66, 10**18, 1_000_001)],
        *[(_sprt(max_games=bad), "sprt.max_games") for bad in (0, -1, 1.5, NAN, True, "9")],
        # the schedule is built in memory: range(10**18) was a MemoryError
        (_with(games_per_pairing=10**18), "games_per_pairing"),
        (_with(games_per_pairing=100_001), "games_per_pairing"),
        (_with(games_per_pairing=100_000, bots=FOUR_BOTS), "games_per_pairing"),  # 1.2M games
        (_with(max_groups=2**70), "max_groups"),
        # a proto int32 field: 2**31 was a ValueError
        *[(_with(max_strikes=bad), "max_strikes") for bad in (2**31, 2**70, 1001, 0)],
        # nan and inf were accepted (the server then refused every game), or hung a match
        *[(_with(decision_seconds=bad), "decision_seconds") for bad in (NAN, INF, 1e-9, 3601)],
        *[(_with(time_bank_seconds=bad), "time_bank_seconds") for bad in (NAN, INF, -1, 86_401)],
        *[
            (_with(match_timeout_seconds=bad), "match_timeout_seconds")
            for bad in (NAN, INF, -INF, 0.5, 604_801, 10**400, "600")
        ],
        # NUL characters: a ValueError traceback from the file system or a bot that
        # "crashed" in every game
        (_with(database="a\x00b"), "database"),
        (_with(python_path=["\x00"]), "python_path"),
        (_with(python_path=[""]), "python_path"),
        (_with(sandbox={"read_only": ["\x00"]}), "sandbox.read_only"),
        (_bot(command=["prog", "a\x00"]), "bots[1].command"),
        (_bot(cwd=""), "bots[1].cwd"),
        (_bot(cwd="a\x00"), "bots[1].cwd"),
        (_bot(env={"A=B": "1"}), "bots[1].env"),
        (_bot(env={"": "1"}), "bots[1].env"),
        (_bot(env={"1A": "1"}), "bots[1].env"),
        (_bot(env={"A": "a\x00"}), "bots[1].env"),
        # [executor]: nan and inf were accepted
        *[
            (_with(executor={"kind": "ray", "cpus_per_game": bad}), "executor.cpus_per_game")
            for bad in (NAN, INF, -INF, 1e-5, 1025)
        ],
        *[
            (_with(executor={"setup_timeout_seconds": bad}), "executor.setup_timeout_seconds")
            for bad in (NAN, INF, 1e-300, 86_401)
        ],
        *[
            (_with(executor={"kind": "ray", "num_cpus": bad}), "executor.num_cpus")
            for bad in (2**70, 4097)
        ],
    ],
)
def test_an_extreme_value_is_refused_naming_its_field(raw: dict, field: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(raw)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_a_bound_is_written_as_the_docs_write_it() -> None:
    """ "must be at most 100000" where the docs say 100,000."""
    with pytest.raises(ConfigError) as caught:
        parse_config(_with(bootstrap=100_001))
    assert str(caught.value) == "bootstrap: must be at most 100,000, not 100001"


def test_the_extreme_allowed_values_are_accepted() -> None:
    lowest = parse_config(
        _with(
            decision_seconds=0.001,
            time_bank_seconds=0,
            match_timeout_seconds=1,
            max_strikes=1,
            max_groups=1,
            games_per_pairing=1,
            schedule="sprt",
            sprt={"elo0": -1000, "elo1": -999.999, "alpha": 1e-9, "beta": 1e-9, "max_games": 1},
            executor={"kind": "ray", "num_cpus": 1, "cpus_per_game": 0.0001},
        )
    )
    assert (lowest.decision_seconds, lowest.time_bank_seconds) == (0.001, 0.0)
    assert (lowest.match_timeout_seconds, lowest.max_strikes) == (1.0, 1)
    assert lowest.sprt is not None
    assert (lowest.sprt.elo0, lowest.sprt.alpha, lowest.sprt.max_games) == (-1000.0, 1e-9, 1)
    assert isinstance(lowest.sprt.elo0, float)
    assert lowest.executor.cpus_per_game == 0.0001

    highest = parse_config(
        _with(
            decision_seconds=3600,
            time_bank_seconds=86_400,
            match_timeout_seconds=604_800,
            max_strikes=1000,
            max_groups=1_000_000,
            games_per_pairing=100_000,  # 3 pairs, 2 seat orders: 600,000 games
            seed=2**63 - 1_000_000,
            executor={"kind": "ray", "num_cpus": 4096, "cpus_per_game": 1024},
        )
    )
    assert (highest.decision_seconds, highest.time_bank_seconds) == (3600.0, 86_400.0)
    assert (highest.match_timeout_seconds, highest.max_strikes) == (604_800.0, 1000)
    assert (highest.max_groups, highest.games_per_pairing) == (1_000_000, 100_000)
    assert (highest.executor.num_cpus, highest.executor.cpus_per_game) == (4096, 1024.0)
    timeout = parse_config(_with(executor={"setup_timeout_seconds": 86_400}))
    assert timeout.executor.setup_timeout_seconds == 86_400.0
    sprt = parse_config(
        _sprt(elo0=999.999, elo1=1000, alpha=0.4999, beta=0.4999, max_games=1_000_000)
    ).sprt
    assert sprt is not None and (sprt.elo1, sprt.max_games) == (1000.0, 1_000_000)


def test_a_schedule_of_exactly_the_most_games_is_accepted() -> None:
    solo = [{"name": f"s{i}", "builtin": "random"} for i in range(11)]
    raw = {"game": "sheep-and-garden", "players": 1, "games_per_pairing": 100_000}
    assert parse_config({**raw, "bots": solo[:10]}).games_per_pairing == 100_000  # 1,000,000
    with pytest.raises(ConfigError, match="would schedule 1,100,000 games") as caught:
        parse_config({**raw, "bots": solo})
    assert caught.value.field == "games_per_pairing"
    # an SPRT ignores games_per_pairing: only max_games bounds it
    sprt = parse_config({**raw, "bots": solo, "schedule": "sprt"})
    assert sprt.sprt is not None


@pytest.mark.parametrize(
    ("bots", "players", "max_groups", "candidates"),
    [
        (5, 1, 60, 0),
        (7, 2, 3, 0),
        (7, 3, 10, 0),  # balanced design: rounded up to 14 groups
        (10, 3, 60, 0),
        (10, 4, 60, 0),
        (6, 3, 100, 0),  # every 3-subset
        (9, 5, 30, 0),
        (8, 3, 5, 2),  # gauntlet of 2 candidates, field of 6 in pairs
        (9, 4, 12, 1),  # gauntlet, balanced design of the field's 3-subsets
    ],
)
def test_the_size_check_counts_the_schedule_that_is_built(
    bots: int, players: int, max_groups: int, candidates: int
) -> None:
    names = [f"b{i}" for i in range(bots)]
    built = make_schedule(names, players, 3, 1, max_groups, names[:candidates])
    if candidates:
        groups = candidates * group_count(bots - candidates, players - 1, max_groups)
    else:
        groups = group_count(bots, players, max_groups)
    # from 3 players, the rotations of each group's seat order and of its reverse
    orders = players * (2 if players >= 3 else 1)
    assert groups * orders * 3 == len(built)


def test_the_size_check_counts_both_seat_orders_from_three_players() -> None:
    """A 3-player group plays each seed in 6 seat orders (3 rotations of its
    order, 3 of the reversed one): 4 groups on 50,000 seeds are 1,200,000
    games, which the check once counted as 600,000 and let through."""
    bots = [{"name": f"b{i}", "builtin": "random"} for i in range(4)]
    raw = {"game": "sheep-n-sheep", "players": 3, "bots": bots}
    check_schedule_size(parse_config({**raw, "games_per_pairing": 41_666}))
    # The config alone is refused only past the games of one seat order, the
    # fewest a tournament plays (one stored with one resumes): the run checks
    # the tournament's own (tests/tournament/test_seat_neighbours.py).
    config = parse_config({**raw, "games_per_pairing": 50_000})
    check_schedule_size(config, seat_orders=1)  # 600,000 games
    with pytest.raises(ConfigError, match="would schedule 1,200,000 games") as caught:
        check_schedule_size(config)
    assert "(4 groups of bots, each in 6 seat orders on 50,000 seeds)" in str(caught.value)
    with pytest.raises(ConfigError, match=r"would schedule 1,200,000 games .* in 3 seat orders"):
        parse_config({**raw, "games_per_pairing": 100_000})


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"elo1": INF}, "sprt.elo1"),
        ({"elo0": -1e308}, "sprt.elo0"),
        ({"elo1": NAN}, "sprt.elo1"),
        ({"alpha": 1e-320}, "sprt.alpha"),
        ({"beta": NAN}, "sprt.beta"),
        ({"max_games": 2**66}, "sprt.max_games"),
        ({"max_games": 0}, "sprt.max_games"),
    ],
)
def test_check_sprt_refuses_command_line_overrides_too(override: dict, field: str) -> None:
    """`tournament sprt --elo1 inf ...` replaces the settings and calls check_sprt."""
    settings = dataclasses.replace(SprtSettings(candidate="r1", baseline="c1"), **override)
    with pytest.raises(ConfigError) as caught:
        check_sprt(settings, ["r1", "c1", "x1"], 2)
    assert caught.value.field == field
    bound = SprtSettings("r1", "c1", elo0=-1000, elo1=1000, alpha=1e-9, beta=1e-9)
    check_sprt(dataclasses.replace(bound, max_games=1_000_000), ["r1", "c1"], 2)


def test_a_file_that_is_not_utf8_or_nests_too_deeply_is_a_config_error(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'game = "sheep-showdown"\n# caf\xe9\n')
    with pytest.raises(ConfigError, match="not UTF-8") as caught:
        load_config(latin)
    assert caught.value.field == "<file>"
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match="too deeply") as caught:
        load_config(deep)
    assert caught.value.field == "<file>"


def test_a_whole_number_too_long_to_read_is_a_config_error(tmp_path: Path) -> None:
    """Python reads a whole number of at most 4,300 digits; TOML's reader then
    raises a plain ValueError, not its own error, and a config holding a longer
    one (games_per_pairing = 999...9) stopped `tournament run` with a traceback."""
    huge = tmp_path / "huge.toml"
    huge.write_text(f'game = "sheep-showdown"\ngames_per_pairing = {"9" * 5000}\n')
    with pytest.raises(ConfigError, match="more than 4,300 digits") as caught:
        load_config(huge)
    assert caught.value.field == "<file>"
    assert "set_int_max_str_digits" not in str(caught.value)


def test_a_config_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """Editors on Windows save UTF-8 with a byte order mark; such a config
    stopped with "is not valid TOML: Invalid statement (at line 1, column 1)",
    a line that shows nothing wrong."""
    path = tmp_path / "cup.toml"
    body = 'game = "sheep-showdown"\n[[bots]]\nname = "a"\nbuiltin = "random"\n'
    path.write_bytes(
        b"\xef\xbb\xbf" + (body + '[[bots]]\nname = "b"\nbuiltin = "random"\n').encode()
    )
    assert load_config(path).bot_names == ("a", "b")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("a|b", "bots[0].name: 'a|b' holds '|' (a name is ASCII letters, digits,"),
        ("-a", "bots[0].name: '-a' starts with '-'"),
        ("a\n", "bots[0].name: 'a\\n' holds '\\n'"),
        (3, "bots[0].name: must be a string, not 3"),
        # A pasted name went into every game key, log line and report row: a
        # 100,000-character one made a two-game run print 600 KB.
        ("n" * 100_000, f"bots[0].name: '{'n' * 40}...' has 100,000 characters (at most 100)"),
        ("n" * 101, f"bots[0].name: '{'n' * 40}...' has 101 characters (at most 100)"),
    ],
)
def test_a_bad_bot_name_says_what_is_wrong_with_it(name: object, message: str) -> None:
    """`a|b` was "bots[0].name: is required: ...", though a name was given; a
    name ending in a newline passed (the pattern's "$" allows one)."""
    with pytest.raises(ConfigError) as caught:
        parse_config(_with(bots=[{"name": name, "builtin": "random"}, GOOD["bots"][0]]))
    assert str(caught.value).startswith(message)
    assert "is required" not in str(caught.value)


def test_a_bot_named_mean_is_refused_as_it_could_never_be_the_anchor() -> None:
    """`anchor = "mean"` and `report --anchor mean` are the mean of all bots:
    a bot named mean was taken, and could never be anchored."""
    with pytest.raises(ConfigError) as caught:
        parse_config(_with(bots=[GOOD["bots"][0], {"name": "mean", "builtin": "random"}]))
    assert str(caught.value) == (
        'bots[1].name: "mean" is taken: `anchor = "mean"` (and `report --anchor mean`) '
        "means the mean of all bots; give the bot another name"
    )
    assert parse_config(_with(bots=[GOOD["bots"][0], {"name": "Mean", "builtin": "random"}]))


def test_a_file_name_that_is_no_tournament_name_says_where_the_name_came_from(
    tmp_path: Path,
) -> None:
    """Without `name` the tournament is named after the file: "my cup.toml" said
    "name: 'my cup' holds ' '", about a setting the file does not have."""
    path = tmp_path / "my cup.toml"
    path.write_text(
        'game = "sheep-showdown"\n[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.field == "name"
    assert "'my cup' holds ' '" in str(caught.value)
    assert "the config's file name, as it sets no name: set one" in str(caught.value)


def test_a_newline_ends_no_tournament_name_nor_env_name() -> None:
    with pytest.raises(ConfigError, match=r"^name: 'cup\\n' holds '\\n'"):
        parse_config(_with(name="cup\n"))
    bot = {"name": "x", "command": ["prog"], "env": {"LEVEL\n": "3"}}
    with pytest.raises(ConfigError, match=r"^bots\[1\]\.env: "):
        parse_config(_with(bots=[GOOD["bots"][0], bot]))


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (_with(**{"rat\ning": 1}), "rat\\ning: unknown setting"),
        (_with(sandbox={"mem\nory": 1}), "sandbox.mem\\nory: unknown limit"),
        (
            _with(
                bots=[GOOD["bots"][0], {"name": "x", "command": ["p"], "sandbox": {"\x1b[2J": 1}}]
            ),
            "bots[1].sandbox.\\x1b[2J: unknown limit",
        ),
        (
            _with(bots=[GOOD["bots"][0], {"name": "x", "class": "m:C", "cwd\r": "."}]),
            "bots[1].cwd\\r: unknown key",
        ),
    ],
)
def test_a_control_character_in_a_key_is_shown_escaped(raw: dict, said: str) -> None:
    """A quoted TOML key holds what a value may (`"rat\\ning" = 1`): the key
    of an unknown setting was quoted as it was, the message broken over two
    lines (or the terminal cleared). Escaped in ConfigError, where every
    config error passes."""
    with pytest.raises(ConfigError) as caught:
        parse_config(raw)
    assert str(caught.value).startswith(said), str(caught.value)
    assert str(caught.value).isprintable()


def test_a_command_written_as_one_string_shows_it_as_a_list() -> None:
    """`command = "python bot.py"` (a shell's habit) was told only 'must be a
    non-empty list of strings': the line now shows the list to write."""
    with pytest.raises(ConfigError) as caught:
        parse_config(_bot(command="{python} 'my bot.py' --level 3"), Path("."))
    assert str(caught.value) == (
        "bots[1].command: must be a list of strings, the program then its arguments: "
        'command = ["{python}", "my bot.py", "--level", "3"]'
    )
    with pytest.raises(ConfigError) as caught:
        parse_config(_bot(command=[]), Path("."))
    assert str(caught.value) == (
        "bots[1].command: must be a non-empty list of strings (program, args...)"
    )


def test_a_tournament_name_past_100_characters_is_refused() -> None:
    """A 100,000-character tournament name was taken and printed in every log
    line and report (400 KB for a two-game run)."""
    with pytest.raises(ConfigError) as caught:
        parse_config(_with(name="t" * 100_000))
    assert caught.value.field == "name"
    assert "has 100,000 characters (at most 100)" in str(caught.value)
    assert len(str(caught.value)) < 300  # the name cut short, then what to do
    assert parse_config(_with(name="t" * 100)).name == "t" * 100


def test_a_field_past_a_thousand_bots_is_refused_as_it_is_read() -> None:
    """Nothing held the number of bots: a gauntlet or an SPRT of 10,000 (a 1 MB
    config holds about 30,000) ran, and its report printed a crosstable of a
    cell for every two bots, 100 million, taking a minute and 5 GB (30,000
    would have taken some 45 GB); the run's live ratings slowed alike."""
    field = [{"name": f"b{i}", "builtin": "random"} for i in range(1_001)]
    with pytest.raises(ConfigError) as refused:
        parse_config({**GOOD, "bots": field, "schedule": "sprt"})
    assert refused.value.field == "bots"
    assert "at most 1,000 bots, not 1,001" in str(refused.value)
    assert len(parse_config({**GOOD, "bots": field[:1_000], "schedule": "sprt"}).bots) == 1_000


def test_a_schedule_too_big_on_one_seed_asks_for_what_can_still_be_lowered() -> None:
    """On one seed the refusal said "on 1 seeds" and "lower games_per_pairing",
    which cannot go below 1: the groups are what can shrink."""
    field = [{"name": f"b{i}", "builtin": "random"} for i in range(200)]
    raw = {"game": "sheep-showdown", "players": 3, "bots": field, "max_groups": 1_000_000}
    raw["games_per_pairing"] = 1
    with pytest.raises(ConfigError) as refused:
        check_schedule_size(parse_config(raw))
    message = str(refused.value)
    assert "each in 3 seat orders on 1 seed)" in message, message
    assert message.endswith("a tournament holds at most 1,000,000: lower max_groups"), message


def test_an_sprt_of_one_bot_says_it_needs_two() -> None:
    """A solo SPRT of one bot took that bot for both sides by default and said
    "sprt.baseline: must differ from the candidate", neither of them set."""
    one = [{"name": "alone", "builtin": "random"}]
    raw = {"game": "stubborn-sheep", "players": 1, "bots": one, "schedule": "sprt"}
    with pytest.raises(ConfigError) as refused:
        parse_config(raw)
    assert str(refused.value) == (
        "bots: an SPRT needs at least 2 bots, its candidate and its baseline, not 1"
    )
