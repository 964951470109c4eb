"""games.words: a count's noun is singular for exactly one."""

from __future__ import annotations

from games.words import count, counted, noun


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert count(1, "move") == "1 move"
    assert count(0, "move") == "0 moves"
    assert count(2, "move") == "2 moves"
    assert count(1, "match", "matches") == "1 match"
    assert count(3, "match", "matches") == "3 matches"
    assert counted(1, "game") == "1 game"
    assert counted(1250, "game") == "1,250 games"
    assert noun(1, "seat") == "seat" and noun(5, "seat") == "seats"


def test_a_count_of_one_reads_as_one_in_event_texts_and_command_lines() -> None:
    """One card, one step, one player, one game: these once read "1 cards",
    "1 more steps", "1 players", "1 games"."""
    import io

    from cli.create import format_created
    from games.sheep_showdown.events import BombExploded, LastPlayer
    from tournament.crashes import AlwaysCrashed
    from tournament.progress import TerminalProgress
    from tournament.report import games_count

    assert BombExploded(0, 1, 2, 3, removed=1).text.endswith("removed 1 card")
    assert LastPlayer(0, steps=1).text.endswith("makes 1 more step")
    created = {"match_id": "m", "game": "stubborn-sheep", "players": 1, "seed": 7}
    created |= {"server": "127.0.0.1:1", "seat_tokens": ["t"]}
    assert "stubborn-sheep, 1 player, seed 7" in format_created(created, [])
    assert (
        AlwaysCrashed("b", 1, "").line().startswith("bot 'b' crashed in every one of its 1 game ")
    )
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress.start("t", 1, 0)
    progress.finish(1, "finished")
    assert "t: 1 game, 0 already played" in stream.getvalue()
    assert "finished: 1 game played this run" in stream.getvalue()
    assert games_count({"games_played": 1, "games_scheduled": 1}) == "1/1 game"
    assert games_count({"sprt": {"llr": 0}, "games_played": 1, "games_scheduled": 9}).startswith(
        "1 game "
    )


def test_seats_are_listed_in_words() -> None:
    from games.words import seats

    assert seats([2]) == "seat 2"
    assert seats([0, 2]) == "seats 0 and 2"
    assert seats([0, 1, 3]) == "seats 0, 1 and 3"


def test_game_over_texts_name_their_winners_in_words() -> None:
    """Sheep 'n' Sheep's end once read "scores [43, 3, 28, 13]; winner seat 0,
    seat 1" (a Python list, one winner for two), and Sheep Showdown's "winner:
    seat 0, 1"; the viewer and `replay` show these lines as they are."""
    from games.sheep_n_sheep.events import GameEnded as SheepNSheepEnded
    from games.sheep_showdown.events import GameEnded as ShowdownEnded

    assert SheepNSheepEnded((43, 3, 43, 13), (0, 2)).text == (
        "game over: scores 43, 3, 43, 13; winners seats 0 and 2"
    )
    assert SheepNSheepEnded((43, 3), (0,)).text == "game over: scores 43, 3; winner seat 0"
    assert ShowdownEnded((9, 9, 4), (1, 1, 3)).text == "the game is over; winners: seats 0 and 1"
    assert ShowdownEnded((9, 8), (1, 2)).text == "the game is over; winner: seat 0"


def test_stubborn_sheeps_game_over_text_says_what_each_number_is() -> None:
    """Stubborn Sheep's end read "game over: seat 0 0" (a solo match) and
    "game over: seat 0 1, seat 1 1, seat 2 3": two numbers side by side with
    nothing to tell the seat from its score, where the board beside the event
    log says "seat 0 · 1 pt"."""
    from games.stubborn_sheep.events import GameOver

    assert GameOver((0,)).text == "game over: seat 0 0 pts"
    assert GameOver((1, 0, 3)).text == "game over: seat 0 1 pt, seat 1 0 pts, seat 2 3 pts"
