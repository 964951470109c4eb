"""The crosstable's rows and columns follow the standings (by Elo, equal Elo by
name), not the config's order, in every format and on the web viewer's page,
for 2 and for 3 players a game; its scores are aligned right in text."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from tests.cli.helpers import play_cup, sheepfold
from tournament.report_html import report_fragment
from web.tournaments import load

pytestmark = pytest.mark.e2e

# The config lists the random bots first, the greedy ones (stronger) last.
BOTS = (("zr", "random"), ("ar", "random"), ("mg", "greedy"), ("bg", "greedy"))


@pytest.fixture(scope="module", params=[2, 3], ids=["2-players", "3-players"])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of a tournament played for `request.param` players a game."""
    folder = tmp_path_factory.mktemp("cup")
    lines = [
        'name = "cup"',
        'game = "sheep-showdown"',
        f"players = {request.param}",
        "games_per_pairing = 1",
        "bootstrap = 0",
        'database = "cup.sqlite"',
    ]
    for name, builtin in BOTS:
        lines += ["[[bots]]", f'name = "{name}"', f'builtin = "{builtin}"']
    config = folder / "cup.toml"
    config.write_text("\n".join(lines) + "\n")
    play_cup(config)
    return folder / "cup.sqlite"


def _report(db: Path, format: str) -> str:
    done = sheepfold("tournament", "report", "--db", str(db), "--format", format, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _text_crosstable(text: str) -> tuple[list[str], list[str], list[str]]:
    """The crosstable's header, its dashes line and its rows, in text or markdown."""
    lines = text.split("Crosstable\n\n", 1)[1].splitlines()
    end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    return lines[0], lines[1], lines[2:end]


def _heat_order(html: str) -> tuple[list[str], list[str]]:
    heat = html.split('<table class="heat">', 1)[1].split("</table>", 1)[0]
    head, body = heat.split("</thead>", 1)
    name = r'<span class="name"[^>]*>([^<]*)</span>'  # a bot's name, cut on a phone
    return re.findall(f"<th>{name}</th>", head), re.findall(f'<th class="bot">{name}</th>', body)


def test_the_crosstable_follows_the_standings(played: Path) -> None:
    db = played
    data = json.loads(_report(db, "json"))
    ranked = [row["bot"] for row in data["standings"]]
    assert ranked != [name for name, _ in BOTS]  # else this would prove nothing
    elo = [row["elo"] for row in data["standings"]]
    assert elo == sorted(elo, reverse=True)

    assert list(data["crosstable"]) == ranked
    for bot, row in data["crosstable"].items():
        assert list(row) == [other for other in ranked if other != bot]

    for format in ("text", "markdown"):
        header, _, rows = _text_crosstable(_report(db, format))
        assert header.replace("|", " ").split()[-len(ranked) :] == ranked
        assert [row.strip("| ").split()[0] for row in rows] == ranked

    table = list(csv.reader(io.StringIO(_report(db, "csv").split("\n\n", 1)[1])))
    assert table[0][1:] == ranked and [row[0] for row in table[1:]] == ranked

    assert _heat_order(_report(db, "html")) == (ranked, ranked)

    view = load(db, "cup", samples=0)
    assert [row["bot"] for row in view.report["standings"]] == ranked
    assert _heat_order(report_fragment(view.report, view.games)) == (ranked, ranked)


def test_the_text_crosstable_aligns_every_score_right(played: Path) -> None:
    """Its first column of scores was aligned left, as the names beside it are."""
    header, dashes, rows = _text_crosstable(_report(played, "text"))
    spans = [match.span() for match in re.finditer(r"-+", dashes)]
    for line in (header, *rows):
        cells = [line.ljust(len(dashes))[start:end] for start, end in spans]
        assert cells[0] == cells[0].strip().ljust(len(cells[0]))
        for cell in cells[1:]:
            assert cell == cell.strip().rjust(len(cell)), line
