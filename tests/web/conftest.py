"""Fixtures for the web viewer's tests: one showcase (a real server with a
finished match of every game, a small tournament, and the viewer in front,
all on loopback) for the whole session, and headless Chromium."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.conftest import ROOT
from web.app import WebConfig, start_web
from web.showcase import Showcase, start_showcase

CHROMIUM = os.environ.get("SHEEPFOLD_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


@pytest.fixture(scope="session")
def showcase(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Showcase]:
    folder = tmp_path_factory.mktemp("web")
    show = start_showcase(tournament_dbs=[folder / "tournament.db"])
    try:
        yield show
    finally:
        show.stop()


def _browser_scope(fixture_name: str, config: pytest.Config) -> Literal["session", "module"]:
    """One Chromium a module, or one a session in the browser step (`-m browser`).

    Playwright's sync API keeps an event loop running on this thread while it
    is open, and tests outside the browser step call asyncio.run(): a run that
    mixes them closes it after each module. The browser step runs browser tests
    only, none of which calls asyncio.run() on this thread, so it launches
    Chromium once a worker instead of once a file (some 1.5 s each of 52 files
    on two busy cores). Each test still gets a context of its own."""
    return "session" if config.getoption("markexpr", "") == "browser" else "module"


@pytest.fixture(scope=_browser_scope)
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.fail(
            f"the browser tests need Chromium at {CHROMIUM}: install it "
            "(apt-get install chromium) or set SHEEPFOLD_CHROMIUM",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the browser tests need Playwright: pip install playwright", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=["--no-sandbox", "--disable-gpu"],
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope=_browser_scope)
def shared_context(browser: object) -> Iterator[object]:
    """The browser context `page` opens each test's page in: one as long as
    the browser. A fresh context loads the viewer's dozen scripts and its
    stylesheet again for every test; in one context a page loads them from
    its cache, some 0.4 s a page on two busy cores. The viewer keeps nothing
    in cookies or local storage, and sessionStorage is a tab's own, so a test
    sees nothing of the one before. A test that changes the whole context
    (its clock, say) opens a context of its own instead."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})  # type: ignore[attr-defined]
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def page(shared_context: Any) -> Iterator[object]:
    page = shared_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        for opened in shared_context.pages:  # this test's, with the tabs it opened beside it
            opened.close()
    assert not errors, f"the page raised JavaScript errors: {errors}"


# A 1280x800 laptop and a 360x640 phone (which zooms, as a phone's browser does).
laptop_and_phone = pytest.mark.parametrize(
    ("viewport", "mobile"),
    [({"width": 1280, "height": 800}, False), ({"width": 360, "height": 640}, True)],
    ids=["laptop", "phone"],
)


def drawn_move(page: Any) -> int:
    """The move the page holds, once its board shows it. The page draws on the
    next animation frame, so the board's data-move can lag a key press or a
    click by a frame: reading it at once can give the move before."""
    page.wait_for_function(
        "() => { const m = window.sheepfold; return m.frames.length > 0"
        " && +document.getElementById('board').dataset.move === m.frames[m.index].move; }"
    )
    return int(page.evaluate("() => window.sheepfold.frames[window.sheepfold.index].move"))


def save_screenshot(page: object, name: str) -> Path:
    """Kept under test-artifacts/web/ (gitignored) for a person to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    return path


@dataclass(frozen=True)
class OwnServerTournament:
    """A tournament that ran on its own in-process server (`sheepfold tournament
    run` without --server), shown by a viewer in front of another server."""

    viewer: Showcase
    database: Path
    name: str


OWN_SERVER_CONFIG = """
name = "own-server"
game = "sheep-showdown"
players = 2
games_per_pairing = 2
seed = 7
concurrency = 2
anchor = "random"

[options]
rounds = 3

[[bots]]
name = "random"
builtin = "random"

[[bots]]
name = "greedy"
builtin = "greedy"
"""


@pytest.fixture(scope="session")
def own_server_tournament(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[OwnServerTournament]:
    folder = tmp_path_factory.mktemp("own-server")
    config = folder / "own-server.toml"
    config.write_text(OWN_SERVER_CONFIG)
    database = folder / "own-server.db"
    done = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", "run", str(config), "--db", str(database),
         "--no-report"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, f"the tournament did not run: {done.stderr[-2000:]}"
    # A fresh server that never saw those matches, and the viewer in front of it.
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        yield OwnServerTournament(viewer, database, "own-server")
    finally:
        viewer.stop()


@dataclass(frozen=True)
class AbortedMatches:
    """A viewer in front of a server that aborted two sheep-n-sheep matches
    that were playing when it stopped."""

    viewer: Showcase
    # Recorded under other rules: the server aborts it when it cannot resume it.
    rules_changed: str
    # Aborted by the same store write, under today's rules: its moves replay.
    stopped: str
    moves: int  # at least this many moves each
    # Not aborted: finished, then marked as played under sheep-showdown rules 1.
    finished_under_other_rules: str


ABORTED_REASON = "not restored: stopped by the test"


def _started(viewer: Showcase, match_id: str, moves: int) -> None:
    deadline = time.monotonic() + 60
    with grpc.insecure_channel(viewer.server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        while stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).moves < moves:
            assert time.monotonic() < deadline, f"{match_id} did not reach move {moves}"
            time.sleep(0.05)


@pytest.fixture(scope="session")
def aborted_matches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AbortedMatches]:
    """As `sheepfold serve` does it: matches playing when the server stops stay
    unfinished in its database; one is then marked as recorded under other
    rules, and the server started again aborts it rather than resume it."""
    db = tmp_path_factory.mktemp("aborted") / "server.db"
    moves = 4
    first = Showcase(InProcessServer(ServerConfig(), SqliteStore(db)))
    first.server.start()
    try:
        finished = first.play_finished("sheep-showdown", 2, 40)
        changed = first.start_live("sheep-n-sheep", 2, 41, delay=0.02)
        stopped = first.start_live("sheep-n-sheep", 2, 42, delay=0.02)
        for match_id in (changed, stopped):
            _started(first, match_id, moves)
    finally:
        first.stop()
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE matches SET rules_version = rules_version + 7 WHERE match_id = ?", (changed,)
        )
        connection.execute("UPDATE matches SET rules_version = 1 WHERE match_id = ?", (finished,))
    store = SqliteStore(db)
    result = arena_pb2.MatchResult(end_reason=ABORTED_REASON)
    store.finish_match(stopped, "aborted", result.SerializeToString(), ABORTED_REASON)
    store.close()
    server = InProcessServer(ServerConfig(), SqliteStore(db))
    server.start()
    viewer = Showcase(server)
    try:
        viewer.web = server.run(start_web(WebConfig(server.address), "127.0.0.1", 0))
        yield AbortedMatches(viewer, changed, stopped, moves, finished)
    finally:
        viewer.stop()
