"""A report says which game options its games were played under: ratings of
Stubborn Sheep with the wolf and with bonus actions are not those of the plain
game. The header of every format once named the game and player count only,
and JSON gave the options as the config first wrote them ("yes", "1")."""

from __future__ import annotations

import json

from tournament.report import report_data
from tournament.report_html import report_fragment
from tournament.report_layout import render
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def _game(seed: int, seats: list[str], scores: list[float], ranks: list[int]) -> GameRecord:
    records = tuple(
        SeatRecord(bot, score, rank, rank, 0, False, None)
        for bot, score, rank in zip(seats, scores, ranks, strict=True)
    )
    return GameRecord(f"{seed}:{'|'.join(seats)}", "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def _data(game: str, options: dict[str, str]) -> dict:
    config = {"bots": [{"name": "a"}, {"name": "b"}]}
    record = TournamentRecord(1, "cup", game, 2, options, None, 2, config, 0.0, 0.0)
    games = [_game(1, ["a", "b"], [5.0, 1.0], [1, 2]), _game(1, ["b", "a"], [1.0, 5.0], [2, 1])]
    return report_data(record, games, samples=20)


def test_every_format_names_the_options_as_the_game_reads_them() -> None:
    data = _data("stubborn-sheep", {"wolf": "yes", "bonus_actions": "1"})
    # As the server stores and sends them: canonical, every option, sorted.
    assert data["options"] == {"bonus_actions": "true", "wolf": "true"}
    assert json.loads(render(data, "json"))["options"] == data["options"]
    text = render(data, "text").splitlines()[0]
    options = "options bonus_actions=true, wolf=true"
    assert text == f"cup: stubborn-sheep, 2 players, {options}, 2/2 games"
    markdown = render(data, "markdown").splitlines()[0]
    assert markdown == f"## {text}"
    assert "options bonus_actions=true, wolf=true" in report_fragment(data)


def test_defaults_written_out_and_a_game_without_options() -> None:
    data = _data("sheep-showdown", {"rounds": "+01"})
    assert data["options"] == {"double_trouble": "false", "rounds": "1"}
    assert "2 players, options double_trouble=false, rounds=1, 2/2" in render(data, "text")
    plain = _data("sheep-n-sheep", {})
    assert plain["options"] == {}
    assert render(plain, "text").splitlines()[0] == "cup: sheep-n-sheep, 2 players, 2/2 games"
    assert "options" not in report_fragment(plain).split("<h3>")[0]


def test_options_the_game_no_longer_reads_are_shown_as_stored() -> None:
    # A tournament stored under an older engine: the report still opens.
    data = _data("stubborn-sheep", {"wolf": "true", "fog": "thick"})
    assert data["options"] == {"fog": "thick", "wolf": "true"}
    assert "options fog=thick, wolf=true" in render(data, "text")
