"""A six-bot tournament's standings fit a 1280 px desktop window, in headless
Chromium, and scroll in their own box on a phone, the page never sideways.

A game of three or four players adds OpenSkill's three columns to the
standings' fourteen (rank, bot, Elo, its interval, LOS, games, score %, W/D/L,
mean score and its interval, timeouts, DQ, crashes, failed): with six bots
of names some 20 to 30 letters long the table was 1339 px wide in a box of
1232 on a 1280 px window, a horizontal scrollbar inside the report and the
failure columns out of sight.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.web.conftest import save_screenshot
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

BOTS = (
    ("random", "random"),
    ("greedy-with-a-rather-long-name", "greedy"),
    ("random-second-opinion", "random"),
    ("greedy-baseline-v2", "greedy"),
    ("random-candidate-2026", "random"),
    ("greedy-experimental", "greedy"),
)

CONFIG = """
name = "six-bots"
game = "sheep-showdown"
players = 3
games_per_pairing = 1
seed = 11
concurrency = 2
anchor = "random"
database = "six.sqlite"

[options]
rounds = 1
""" + "".join(f'\n[[bots]]\nname = "{name}"\nbuiltin = "{kind}"\n' for name, kind in BOTS)

# The standings' box (the table scrolls inside itself), what it holds and
# shows, and the page's own width against the window's.
WIDTHS = """() => {
  const table = document.querySelector('#report table.standings');
  return {
    table: [table.scrollWidth, table.clientWidth],
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    rows: table.querySelectorAll('tbody tr').length,
    columns: [...table.querySelectorAll('thead th')].map((th) => th.textContent),
  };
}"""


@pytest.fixture(scope="module")
def six_bots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished round robin of six bots with long-ish names, three a game,
    as `sheepfold tournament run` stores it."""
    folder = tmp_path_factory.mktemp("six-bots")
    (folder / "six.toml").write_text(CONFIG)
    done = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", "run", "six.toml"],
        cwd=folder, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder / "six.sqlite"


@pytest.fixture(scope="module")
def six_bots_viewer(showcase: Showcase, six_bots: Path) -> Iterator[str]:
    """A viewer of that tournament, one for every window size: it builds the
    report (bootstrapped intervals, in a replay process of its own) once."""
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (six_bots,)), "127.0.0.1", 0)
    )
    try:
        yield f"http://127.0.0.1:{viewer.port}"
    finally:
        showcase.server.run(viewer.stop())


# 1265: the same window less a desktop's 15 px scrollbar (headless Chromium
# draws none), which the page's height gives it.
@pytest.mark.parametrize(
    ("width", "mobile"),
    [(1280, False), (1265, False), (390, True), (320, True)],
    ids=["1280", "1280-less-scrollbar", "390", "320"],
)
def test_six_bots_standings_fit_a_laptop_and_scroll_only_on_a_phone(
    six_bots_viewer: str, browser: Any, width: int, mobile: bool
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=mobile)
    try:
        page = context.new_page()
        page.goto(f"{six_bots_viewer}/tournaments/0/six-bots")
        page.wait_for_selector("#report table.standings tbody tr")
        seen = page.evaluate(WIDTHS)
        save_screenshot(page, f"standings-six-bots-{width}")
        assert seen["rows"] == len(BOTS), seen
        assert "mu-3sigma" in seen["columns"], seen  # OpenSkill's columns too
        page_width, window = seen["page"]
        assert page_width <= window, seen  # never the whole page sideways
        holds, shows = seen["table"]
        if not mobile:
            assert holds <= shows, seen
    finally:
        context.close()
