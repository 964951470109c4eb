"""The report's OpenSkill takes the games seed by seed, then by key.

OpenSkill's update is online, so the order of the games moves the figures
(docs/tournament.md: "taking games seed by seed (then by game key), so the
order of the games matters a little"); the report must feed them in that
order, not in the order they were stored or finished, or two reports of one
tournament could differ.
"""

from __future__ import annotations

from tournament.openskill_ratings import rate_openskill
from tournament.report import report_data
from tournament.store import GameRecord, SeatRecord, TournamentRecord

BOTS = ["a", "b", "c"]


def _game(key: str, seed: int, ranks: list[int]) -> GameRecord:
    seats = tuple(
        SeatRecord(bot, float(-rank), rank, rank, 0, False, None)
        for bot, rank in zip(BOTS, ranks, strict=True)
    )
    return GameRecord(key, "m", seed, 0, 0, seats, "done", "{}", 1.0, 0.0)


def test_openskill_rates_the_games_seed_by_seed_then_by_key() -> None:
    # a wins the early seeds and comes last in the later ones; keys run against
    # the seeds (seed 1's key sorts last), and the list is in neither order.
    games = [
        _game("k3", 2, [1, 2, 3]),
        _game("z1", 1, [1, 3, 2]),
        _game("k9", 3, [3, 1, 2]),
        _game("k8", 3, [3, 2, 1]),
        _game("a4", 4, [3, 1, 2]),
    ]
    record = TournamentRecord(
        1,
        "t",
        "sheep-showdown",
        3,
        {},
        None,
        len(games),
        {"bots": [{"name": b} for b in BOTS]},
        0.0,
        0.0,
    )
    data = report_data(record, games, samples=0)
    reported = {row["bot"]: row["openskill_mu"] for row in data["standings"]}

    def mu(ordered: list[GameRecord]) -> dict[str, float]:
        skill = rate_openskill(BOTS, [(game.bots, game.ranks) for game in ordered])
        return {bot: round(skill[bot].mu, 2) for bot in BOTS}

    by_seed_then_key = sorted(games, key=lambda game: (game.seed, game.key))
    assert [game.key for game in by_seed_then_key] == ["z1", "k3", "k8", "k9", "a4"]
    assert reported == mu(by_seed_then_key)
    # The order is not moot here: the reverse, the stored order and key order
    # alone each rate otherwise.
    for other in (by_seed_then_key[::-1], games, sorted(games, key=lambda game: game.key)):
        assert mu(other) != reported
