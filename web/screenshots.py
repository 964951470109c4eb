"""`python -m web.screenshots [FOLDER]`: a picture of each game's viewer (and of
a tournament page), for the README. Needs Playwright (a dev dependency) and
Chromium (/usr/bin/chromium, or $SHEEPFOLD_CHROMIUM)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from server.logs import configure_logging
from web.showcase import GAMES, start_showcase

# The move each picture shows: far enough in for the board to be busy.
MOVES = {"sheep-showdown": 24, "sheep-n-sheep": 70, "stubborn-sheep": 60, "sheep-and-garden": 26}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m web.screenshots",
        description="Draw a picture of each game's web viewer and of a tournament page "
        "(PNG files), as the README shows them. Needs Playwright and Chromium "
        "($SHEEPFOLD_CHROMIUM, default /usr/bin/chromium).",
    )
    parser.add_argument(
        "folder",
        nargs="?",
        default="docs/screenshots",
        type=Path,
        help="where the pictures go (default: %(default)s)",
    )
    folder: Path = parser.parse_args(argv).folder
    chromium = os.environ.get("SHEEPFOLD_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        print(f"screenshots: no Chromium at {chromium}; install chromium", file=sys.stderr)
        return 1
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("screenshots: needs Playwright (pip install playwright)", file=sys.stderr)
        return 1
    configure_logging("console", "warning")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        # Fixed deals: each redraw of the tournament picture shows the same scores.
        show = start_showcase(tournament_dbs=[Path(scratch) / "tournament.db"], secret_deals=False)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, args=["--no-sandbox"]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 860})
                for game in GAMES:
                    page.goto(f"{show.url}/match/{show.finished[game]}#move={MOVES[game]}")
                    page.wait_for_selector(f'#board[data-move="{MOVES[game]}"]')
                    time.sleep(0.3)
                    page.screenshot(path=str(folder / f"{game}.png"))
                    print(folder / f"{game}.png")
                page.goto(f"{show.url}/tournaments/0/showcase")
                page.wait_for_selector("table.standings")
                page.screenshot(path=str(folder / "tournament.png"))
                print(folder / "tournament.png")
                browser.close()
        finally:
            show.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
