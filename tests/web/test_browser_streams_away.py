"""Pages whose source of news fails over and over, in headless Chromium: a
live match's stream refused at once each time, and a tournament page whose
viewer goes away and comes back."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tests.web.test_browser_pages import _moves, _visibility
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_live_stream_refused_at_once_each_time_is_tried_less_and_less_often(
    showcase: Showcase, page: Any
) -> None:
    """Every stream the page opens brings only the game server's refusal (a
    watch limit, a match that failed) and ends. The page waits longer after
    each, as it does when the viewer does not answer: the refusal, a batch
    like any other, once counted as news and put the wait back to the first,
    so each page asked the viewer (and it the game server) again every second
    for as long as it was open."""
    match_id = showcase.start_live("sheep-showdown", 2, 4242, delay=5)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 1:
        assert time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    opened: list[float] = []

    def refused(route: Any) -> None:
        opened.append(time.monotonic())
        route.fulfill(
            status=200,
            headers={"Content-Type": "text/event-stream"},
            body='data: [{"kind":"error","code":"RESOURCE_EXHAUSTED",'
            '"message":"this match has as many watchers as it takes"}]\n\n'
            "event: end\ndata: {}\n\n",
        )

    page.route(f"**/api/match/{match_id}/live", refused)
    page.add_init_script("window.sheepfoldRetrySeconds = [0.1, 0.2, 0.4, 0.8, 30]")
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('Reconnecting in 30 s')",
        timeout=15_000,
    )
    page.wait_for_timeout(1500)  # a page stuck at the first wait would try 15 times more
    assert "as many watchers as it takes" in page.inner_text("#notice")
    assert len(opened) == 5, [round(at - opened[0], 2) for at in opened]
    save_screenshot(page, "live-refused-backing-off")


def _running(route: Any) -> None:
    """The showcase's finished tournament's page as it was while it ran: the
    page asks for its report every 3 s."""
    answer = route.fetch()
    body = answer.text()
    for was in ('"state": "finished"', 'data-state="finished"', '"badge finished">finished'):
        assert was in body, was
        body = body.replace(was, was.replace("finished", "running"), 1)
    route.fulfill(response=answer, body=body)


def _wait_for(page: Any, held: list[Any], count: int) -> Any:
    """The `count`th request `held` by a route, once the page has made it."""
    deadline = time.monotonic() + 15
    while len(held) < count:
        assert time.monotonic() < deadline, f"the page made {len(held)} of {count} requests"
        page.wait_for_timeout(50)
    return held[count - 1]


def test_a_tournament_page_says_when_it_is_not_updating_and_when_it_is_again(
    showcase: Showcase, page: Any
) -> None:
    """The page asks for the report every few seconds while its tournament
    runs. With the viewer away (stopped, restarting, a proxy's 502) it said
    nothing and its badge went on reading "running", as if the report shown
    were current; it says now that it is not updating, and why, until an
    answer comes again."""
    url = f"{showcase.url}/tournaments/0/showcase"
    asked: list[str] = []
    # The second and third asks are held until the test has read what the
    # page says after the one before: at the quick pace below, a page read a
    # moment late (a loaded CI machine) found the next answer already shown.
    held: list[Any] = []

    def fragment(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.abort("connectionrefused")  # the viewer away
        elif len(asked) <= 3:
            held.append(route)
        else:
            route.continue_()

    # The page asks every 3 s; a quicker pace here changes no step, only the wait.
    page.add_init_script("window.sheepfoldPollSeconds = 0.5")
    page.route(url, _running)
    page.route(f"{url}/fragment", fragment)
    page.goto(url)
    status = "#report-status"
    page.wait_for_selector(f"{status}:not([hidden])", timeout=15_000)
    assert page.inner_text(status).startswith("not updating: the viewer does not answer")
    assert page.locator(".tournament-state .badge").inner_text() == "running"
    save_screenshot(page, "tournament-not-updating")
    _wait_for(page, held, 1).fulfill(
        status=502, content_type="text/html", body="<p>bad gateway</p>"
    )
    page.wait_for_function("() => document.getElementById('report').dataset.failed === '2'")
    assert page.inner_text(status).startswith("not updating: the viewer answered 502")
    assert page.locator(".tournament-state .badge").inner_text() == "running"
    # Answered again: the note goes, and the badge says what the viewer says.
    _wait_for(page, held, 2).continue_()
    page.wait_for_selector(f"{status}[hidden]", state="attached", timeout=15_000)
    assert page.locator(".tournament-state .badge").inner_text() == "finished"


def test_a_tab_hidden_while_its_page_asks_where_the_match_is_opens_no_stream(
    showcase: Showcase, page: Any
) -> None:
    """Shown again, a live page asks the viewer where its match is before it
    follows it. Hidden again before the answer came (a user flicking through
    tabs), it opened its stream all the same once the answer came, and held
    one of the browser's six connections to the viewer in a hidden tab, which
    it lets go of so that other tabs load; shown once more, it found a stream
    open and did nothing."""
    match_id = showcase.start_live("sheep-n-sheep", 2, 4343, delay=1)
    while _moves(showcase, match_id) < 1:
        time.sleep(0.05)
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if r.url.endswith("/live") else None)
    held: list[Any] = []
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => document.body.dataset.stream === 'open'")
    page.evaluate(_visibility(True))
    page.route(
        f"**/api/match/{match_id}",
        lambda route: held.append(route) if not held else route.continue_(),
    )
    page.evaluate(_visibility(False))  # shown: it asks where the match is ...
    deadline = time.monotonic() + 15
    while not held:
        assert time.monotonic() < deadline, "the page did not ask where the match is"
        page.wait_for_timeout(50)
    page.evaluate(_visibility(True))  # ... and is hidden before the answer comes
    opened = len(streams)
    held[0].continue_()
    page.wait_for_timeout(1500)
    assert page.evaluate("() => document.body.dataset.stream") == "paused"
    assert len(streams) == opened, "a hidden tab opened a stream"
    page.evaluate(_visibility(False))
    page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15_000)
    assert len(streams) == opened + 1


@contextlib.contextmanager
def _breaking_proxy(target: str, breaks: str) -> Iterator[str]:
    """A proxy in front of the viewer at `target`: the first request whose path
    ends with `breaks` gets its headers and a piece of its body, then the
    connection closes (as when the viewer stops while answering); every other
    is passed on, one connection each. Yields the proxy's URL."""
    host, port = target.removeprefix("http://").split(":")
    listener = socket.create_server(("127.0.0.1", 0))
    broken: list[str] = []

    def serve(client: socket.socket) -> None:
        with client:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(65536)
                if not chunk:
                    return
                head += chunk
            path = head.split(b" ", 2)[1].decode()
            if path.endswith(breaks) and not broken:
                broken.append(path)
                client.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                    b"Content-Length: 100000\r\n\r\n<h2>Standi"
                )
                return
            lines = [
                line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")
            ]
            with socket.create_connection((host, int(port))) as upstream:
                upstream.sendall(b"\r\n".join([*lines[:1], b"Connection: close", *lines[1:]]))
                while chunk := upstream.recv(65536):
                    client.sendall(chunk)

    def accept() -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(client,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
    assert broken, "no request was broken off"


def test_a_tournament_report_broken_off_while_read_is_asked_for_again(
    showcase: Showcase, page: Any
) -> None:
    """The answer's headers came, then the connection closed before its body
    was whole (the viewer stopped while sending it): the body's read failed
    outside the page's guard, and the page never asked for its report again."""
    with _breaking_proxy(showcase.url, "/fragment") as proxy:
        url = f"{proxy}/tournaments/0/showcase"
        page.add_init_script("window.sheepfoldPollSeconds = 0.5")  # not 3 s: only the wait
        page.route(url, _running)
        # The second ask waits until the first one's note is read: a read a
        # moment late found the second answer's already in its place.
        asked: list[Any] = []
        held: list[Any] = []

        def fragment(route: Any) -> None:
            asked.append(route)
            if len(asked) == 2:
                held.append(route)
            else:
                route.continue_()

        page.route(f"{url}/fragment", fragment)
        page.goto(url)
        page.wait_for_function(
            "() => document.getElementById('report').dataset.failed === '1'", timeout=15_000
        )
        status = page.inner_text("#report-status")
        assert status.startswith("not updating: the viewer does not answer"), status
        _wait_for(page, held, 1).continue_()
        # Asked again a poll on: answered (an unchanged report, a 304), and said so.
        page.wait_for_function(
            "() => document.getElementById('report').dataset.polled === '1'", timeout=15_000
        )
        assert page.is_hidden("#report-status")
        assert page.locator(".tournament-state .badge").inner_text() == "finished"


def test_a_live_match_the_viewer_no_longer_knows_is_no_longer_followed(
    showcase: Showcase, page: Any
) -> None:
    """The stream ends and the viewer, asked where the match is, answers 404
    (a restarted game server forgets its matches): the page stops following it
    and quotes the viewer's reason, rather than reconnecting for ever."""
    match_id = showcase.start_live("sheep-showdown", 2, 4243, delay=5)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 1:
        assert time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)

    def answer(status: int, kind: str, body: str) -> Any:
        return lambda route: route.fulfill(status=status, headers={"Content-Type": kind}, body=body)

    # The stream's first batch, the match as it stands, then its end.
    with urllib.request.urlopen(f"{showcase.url}/api/match/{match_id}/live", timeout=30) as live:
        first = next(line for line in live if line.startswith(b"data: ["))
    page.route(
        f"**/api/match/{match_id}/live",
        answer(200, "text/event-stream", first.decode() + "\nevent: end\ndata: {}\n\n"),
    )
    page.route(
        f"**/api/match/{match_id}",
        answer(404, "application/json", '{"error": "no match here any more", "status": 404}'),
    )
    page.add_init_script("window.sheepfoldRetrySeconds = [0.1]")
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('no longer be followed')",
        timeout=15_000,
    )
    assert "no match here any more" in page.inner_text("#notice")
    assert page.evaluate("() => window.sheepfold.status") == "gone"
    # No seat is to move in a match no one has any more (it said "Seat 1 to
    # move"), and a forgotten match has no views to choose from (the list
    # stood empty at the foot of the page).
    page.wait_for_selector("#turn [data-gone]")
    said = page.inner_text("#turn")
    assert said.startswith("Followed up to here: the game server no longer has this match"), said
    assert "to move" not in said, said
    assert page.locator("#scores tr.to-move").count() == 0
    assert page.is_hidden("#view-wrap") and page.is_hidden("#follow-wrap")
    save_screenshot(page, "live-match-gone")
