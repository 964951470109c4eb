"""A tournament's report on a 360x740 phone: its wide tables scroll sideways
in their own box, and a row scrolled to its last column still names its bot;
on a laptop the tables are drawn whole, as before."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Each table of the report scrolled to its right end: whether its box scrolls,
# the page's own width, and each row's bot cell and last cell against the box.
SCROLLED = """() => [...document.querySelectorAll('#report table.standings, #report table.heat')]
  .map((table) => {
    table.scrollLeft = table.scrollWidth;
    const box = table.getBoundingClientRect();
    const rows = [...table.querySelectorAll('tbody tr')].map((row) => {
      const name = row.querySelector('.bot'), bot = name.getBoundingClientRect();
      const last = row.lastElementChild.getBoundingClientRect();
      return { bot: [bot.left, bot.right], last: last.right, text: name.textContent };
    });
    return {
      table: table.className, box: [box.left, box.right], scrolled: table.scrollLeft,
      page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,
      rows,
    };
  })"""


def scrolled_tables(showcase: Showcase, browser: Any, name: str, **context: Any) -> Any:
    opened = browser.new_context(**context)
    try:
        page = opened.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("#report table.standings tr[data-bot]")
        seen = page.evaluate(SCROLLED)
        save_screenshot(page, name)
    finally:
        opened.close()
    return seen


def test_a_standings_row_scrolled_to_its_last_column_names_its_bot_on_a_phone(
    showcase: Showcase, browser: Any
) -> None:
    """The standings (a dozen columns, 960 px) scrolled in their box on a
    phone, but a row scrolled to its LOS and failures had its bot's name
    scrolled out of sight at the left: figures with no name to read them by.
    The bot's column stays at the box's left edge."""
    tables = scrolled_tables(
        showcase, browser, "phone-report-scrolled", viewport={"width": 360, "height": 740},
        is_mobile=True,
    )  # fmt: skip
    standings = next(table for table in tables if table["table"] == "standings")
    assert standings["scrolled"] > 0, "the standings fit a phone: nothing to scroll"
    for table in tables:
        assert table["page"] <= table["window"], "the page scrolls sideways"
        left, right = table["box"]
        for row in table["rows"]:
            assert row["bot"][0] >= left - 0.5 and row["bot"][1] <= right + 0.5, (table, row)
            assert row["last"] <= right + 0.5, (table["table"], row)


def test_the_reports_tables_are_drawn_whole_on_a_laptop(showcase: Showcase, browser: Any) -> None:
    tables = scrolled_tables(
        showcase, browser, "laptop-report", viewport={"width": 1280, "height": 800}
    )
    for table in tables:
        assert table["scrolled"] == 0, table["table"]
        assert all(row["last"] <= table["box"][1] + 0.5 for row in table["rows"])
