"""The viewer's HTTP side without a browser: clear pages for bad input, JSON
that matches the engine, and the seat views kept from live matches."""

from __future__ import annotations

import asyncio
import gzip
import html
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from email.message import Message
from typing import Any

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from server import convert
from tests.conftest import ROOT
from tests.processes import processes
from tournament.store import Store
from web import app as web_app
from web import replays
from web.app import STATE
from web.frames import observation_dict
from web.showcase import GAMES, Showcase

pytestmark = pytest.mark.e2e


def get(url: str, gzip_ok: bool = False) -> tuple[int, str, str]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip" if gzip_ok else ""})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
            if response.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            return response.status, response.headers.get("Content-Type", ""), body.decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode()


def wait_finished(server_address: str, match_id: str) -> None:
    """Wait up to a minute for the game server (not the viewer) to say the match is over."""
    deadline = time.monotonic() + 60
    with grpc.insecure_channel(server_address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        request = arena_pb2.GetMatchRequest(match_id=match_id)
        while stub.GetMatch(request).status != arena_pb2.MATCH_STATUS_FINISHED:
            assert time.monotonic() < deadline, "the match did not finish"
            time.sleep(0.05)


def get_with_headers(url: str) -> tuple[int, Message, str]:
    """A GET's status, headers and body, an error's too."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def assert_clear_error(status: int, body: str, expected: int, words: str) -> None:
    assert status == expected, (status, body[:500])
    assert "Traceback" not in body and 'File "' not in body, body
    assert words in body, body[:800]


def test_unknown_match_is_a_404_page(showcase: Showcase) -> None:
    status, kind, body = get(f"{showcase.url}/match/no-such-match")
    assert "text/html" in kind
    assert_clear_error(status, body, 404, "no match")
    status, kind, body = get(f"{showcase.url}/api/match/no-such-match/frames")
    assert "json" in kind and json.loads(body)["status"] == 404


@pytest.mark.parametrize("path", ["/match/", "/match", "/match/a/b", "/matches"])
def test_a_path_with_no_page_says_where_the_pages_are(showcase: Showcase, path: str) -> None:
    """A match link cut short ("/match/", its id lost) was a page saying
    "404: Not Found" under "404 · Not found", naming neither the path nor
    where a match's page is."""
    status, kind, body = get(f"{showcase.url}{path}")
    assert "text/html" in kind
    assert_clear_error(status, body, 404, f"no page at {html.escape(repr(path))}")
    assert "/match/ID" in body and "404: Not Found" not in body


def _unfollowed(url: str, path: str, method: str = "GET") -> tuple[int, str | None, str]:
    """`method` `path` of the viewer at `url`: its status, Location and body,
    a redirect not followed."""
    host, port = urllib.parse.urlsplit(url).netloc.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, response.getheader("Location"), response.read().decode()
    finally:
        connection.close()


def test_a_page_asked_for_with_a_trailing_slash_is_sent_to_its_address(
    showcase: Showcase,
) -> None:
    """`/match/ID/`, `/tournaments/` and the like (a link typed by hand or
    pasted with a slash after it) were 404 pages: each is a 308 to the path
    without its slash, keeping its query string, for GET and HEAD alike."""
    match_id = showcase.finished["sheep-showdown"]
    report = "/tournaments/0/showcase"
    with Store(showcase.tournament_dbs[0]) as store:
        game = store.games(store.tournament("showcase").id)[0].match_id
    for path, query in (
        (f"/match/{match_id}", ""),
        (f"/match/{match_id}", "?move=3"),
        ("/tournaments", ""),
        (report, ""),
        (f"{report}/match/{game}", "?move=2&x=%26%20"),
        (f"/api/match/{match_id}/frames", "?view=all"),
        ("/api/matches", "?game=sheep-showdown"),
    ):
        for method in ("GET", "HEAD"):
            status, location, _ = _unfollowed(showcase.url, f"{path}/{query}", method)
            assert (status, location) == (308, path + query), (method, path, query)
        status, _, body = get(f"{showcase.url}{path}{query}")
        assert status == 200, (path, status, body[:300])
    # What does not exist stays a 404.
    for path in ("/nothing/", "/match/", "/match/a/b/", f"/match/{match_id}//"):
        status, location, body = _unfollowed(showcase.url, path)
        assert (status, location) == (404, None), (path, status, location)
        assert "no page at" in body, body[:300]
    # A path that begins with two slashes is sent to this viewer's own page:
    # a Location of `//tournaments` would name another host.
    for path in ("//tournaments/", "///tournaments/"):
        assert _unfollowed(showcase.url, path)[:2] == (308, "/tournaments"), path


@pytest.mark.parametrize("move", ["abc", "-3", "%C2%B2", "9" * 41, "9" * 5000])
def test_bad_move_number_is_a_400_page(showcase: Showcase, move: str) -> None:
    match_id = showcase.finished["sheep-showdown"]
    status, _, body = get(f"{showcase.url}/match/{match_id}?move={move}")
    assert_clear_error(status, body, 400, "move")


def test_a_good_move_number_opens_the_page(showcase: Showcase) -> None:
    status, _, body = get(f"{showcase.url}/match/{showcase.finished['sheep-showdown']}?move=3")
    assert status == 200 and '"move": "3"' in body


def test_unknown_view_is_a_400(showcase: Showcase) -> None:
    match_id = showcase.finished["sheep-n-sheep"]
    status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames?view=seat-7")
    assert_clear_error(status, body, 400, "seat-0 to seat-2")


@pytest.mark.parametrize("view", ["seat-%C2%B2", "seat-00", "seat-" + "9" * 5000, "ALL", "all%00"])
def test_a_view_spelled_otherwise_is_a_400(showcase: Showcase, view: str) -> None:
    """One spelling per view ("seat-²" was a 500 with a traceback in the log;
    "seat-00" rendered the match again under a second cache key)."""
    match_id = showcase.finished["sheep-n-sheep"]
    status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames?view={view}")
    assert_clear_error(status, body, 400, "unknown view")


@pytest.mark.parametrize("db", ["%C2%B2", "9" * 5000, "1"])  # "1": the showcase has one
def test_an_odd_tournament_database_number_is_a_404(showcase: Showcase, db: str) -> None:
    status, _, body = get(f"{showcase.url}/tournaments/{db}/anything")
    assert_clear_error(status, body, 404, "no tournament database number")


def test_an_unknown_game_filter_is_a_400_and_adds_no_cached_list(showcase: Showcase) -> None:
    assert showcase.web is not None
    state = showcase.web.runner.app[STATE]
    for n in range(20):
        status, _, body = get(f"{showcase.url}/api/matches?game=nonsense-{n}")
        assert_clear_error(status, body, 400, "unknown game")
    status, _, body = get(f"{showcase.url}/api/matches/events?game=nonsense")
    assert_clear_error(status, body, 400, "unknown game")
    assert not any(key.startswith("nonsense") for key in state.matches.cached)
    status, _, body = get(f"{showcase.url}/api/matches?game=sheep-n-sheep")
    assert status == 200 and all(m["game"] == "sheep-n-sheep" for m in json.loads(body))


def test_an_unknown_game_filter_on_the_matches_page_is_a_400_page(showcase: Showcase) -> None:
    """Not the list of every game, which the page showed before."""
    request = urllib.request.Request(f"{showcase.url}/?game=bogus")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    headers, body = refused.value.headers, refused.value.read().decode()
    assert_clear_error(refused.value.code, body, 400, "unknown game &#x27;bogus&#x27;")
    assert "text/html" in headers["Content-Type"] and "error-page" in body
    assert all(name in body for name in GAMES), body[:800]
    assert headers["Server"] == "sheepfold" and headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    for good in ("/", "/?game=sheep-n-sheep", "/?game="):
        status, _, body = get(showcase.url + good)
        assert status == 200 and 'id="game-filter"' in body, good


def test_the_live_stream_of_a_match_already_over_says_so_without_watching(
    showcase: Showcase,
) -> None:
    """A page that loaded while the match ran and opens its stream after the
    end is told to show the replay; no Watch is opened for it."""
    match_id = showcase.finished["sheep-showdown"]
    status, kind, body = get(f"{showcase.url}/api/match/{match_id}/live")
    assert status == 200 and "text/event-stream" in kind
    assert body == 'event: end\ndata: {"over":true}\n\n'
    assert showcase.web is not None
    assert not showcase.web.runner.app[STATE].hub.following(match_id)


def test_a_live_page_starts_at_the_latest_snapshot(showcase: Showcase) -> None:
    """Not at move 0: the server need not send the match's history, nor the
    browser hold it; later moves follow."""
    match_id = showcase.start_live("sheep-showdown", 2, 611, delay=0.05)
    deadline = time.monotonic() + 30
    while json.loads(get(f"{showcase.url}/api/match/{match_id}")[2])["moves"] < 5:
        assert time.monotonic() < deadline, "the live match did not reach move 5"
        time.sleep(0.05)
    with urllib.request.urlopen(f"{showcase.url}/api/match/{match_id}/live", timeout=30) as stream:
        batches = []
        for line in stream:
            if line.startswith(b"data: "):
                batches.append(json.loads(line[6:]))
            if len(batches) == 3:
                break
    first = batches[0][0]
    assert first["kind"] == "snapshot" and first["move"] >= 5, first
    moves = [item["move"] for batch in batches for item in batch if item["kind"] == "snapshot"]
    assert moves == sorted(moves) and moves[-1] > moves[0], moves


def test_a_page_loaded_while_the_match_ran_gets_its_replay_after_the_end(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's stream, opened after the end, says so; the replay it then
    asks for is served although the viewer saw the match running moments ago."""
    assert showcase.web is not None
    monkeypatch.setattr(showcase.web.runner.app[STATE], "info_seconds", 60.0)
    match_id = showcase.start_live("sheep-showdown", 2, 707, delay=0.01)
    status, _, html = get(f"{showcase.url}/match/{match_id}")
    assert status == 200 and ('"status": "running"' in html or '"status": "waiting"' in html)
    # Asked of the game server, not of the viewer, whose answers keep "running"
    # for the minute its shared match info is now kept.
    wait_finished(showcase.server.address, match_id)
    assert json.loads(get(f"{showcase.url}/api/match/{match_id}")[2])["status"] != "finished"
    assert get(f"{showcase.url}/api/match/{match_id}/live")[2].endswith('{"over":true}\n\n')
    status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames")
    assert status == 200, body[:300]
    assert json.loads(body)["result"] is not None


def test_pages_opening_one_finished_match_at_once_share_one_replay(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert showcase.web is not None
    state = showcase.web.runner.app[STATE]
    renders: list[object] = []
    real = replays._render

    async def counting(state: Any, replay: Any, view: Any) -> Any:
        renders.append(view)
        await asyncio.sleep(0.2)  # the other pages arrive while this one renders
        return await real(state, replay, view)

    monkeypatch.setattr(replays, "_render", counting)

    async def clear() -> None:
        state.cache.clear()

    showcase.server.run(clear())
    url = f"{showcase.url}/api/match/{showcase.finished['stubborn-sheep']}/frames"
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: get(url), range(6)))
    assert {status for status, _, _ in answers} == {200}
    assert len({body for _, _, body in answers}) == 1
    assert renders == ["public"]


def test_seat_views_of_a_live_match_are_refused(showcase: Showcase) -> None:
    match_id = showcase.start_live("sheep-n-sheep", 3, 501, delay=0.5)
    for view in ("seat-0", "all"):
        status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames?view={view}")
        assert_clear_error(status, body, 403, "once the match is over")


@pytest.mark.parametrize("game", list(GAMES))
def test_replayed_frames_match_the_engine(showcase: Showcase, game: str) -> None:
    """Every frame of every view equals what the engine shows that viewer after
    the recorded actions (checked at the first, a middle and the last move)."""
    match_id = showcase.finished[game]
    status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames?view=all", gzip_ok=True)
    assert status == 200
    data: dict[str, Any] = json.loads(body)
    replay = showcase.server.run(_replay(showcase, match_id))
    engine = games.get(game)
    state = engine.new_state(replay.players, replay.seed, dict(replay.options))
    checked = {0, len(replay.actions) // 2, len(replay.actions)}
    for move in range(len(replay.actions) + 1):
        if move:
            state.apply(state.legal_actions()[replay.actions[move - 1].action_index])
        if move not in checked:
            continue
        frame = data["frames"][move]
        assert frame["move"] == move
        public = observation_dict(convert.observation(engine.codec, state.observation(None)))
        assert frame["observation"] == public
        for seat in range(replay.players):
            own = observation_dict(convert.observation(engine.codec, state.observation(seat)))
            assert frame["seats"][seat] == own
    assert data["result"]["scores"] == list(replay.result.scores)


async def _replay(showcase: Showcase, match_id: str) -> Any:
    async with grpc.aio.insecure_channel(showcase.server.address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).GetReplay(
            arena_pb2.GetReplayRequest(match_id=match_id)
        )


def test_tournament_report_html_is_one_self_contained_file(showcase: Showcase) -> None:
    db = showcase.web_config_dbs()[0]
    done = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", "report", "--db", str(db), "--format", "html"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    html = done.stdout
    assert html.startswith("<!doctype html>") and "<script" not in html
    assert "src=" not in html and 'href="http' not in html
    for bot in ("greedy", "random", "random-too"):
        assert f'data-bot="{bot}"' in html
    assert 'class="heat"' in html and 'class="interval"' in html


def _stalled_requests(url: str, path: str, count: int) -> list[socket.socket]:
    """`count` connections that ask for `path` (no gzip) and then read nothing."""
    host, port = url.removeprefix("http://").split(":")
    stalled = []
    for _ in range(count):
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting
        connection.connect((host, int(port)))
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        stalled.append(connection)
    return stalled


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture(scope="module")
def large_replay(showcase: Showcase) -> str:
    """The frames path of a five-player Stubborn Sheep match in every seat's
    view: about 13 MB, more than the kernel buffers of a loopback connection."""
    match_id = showcase.play_finished("stubborn-sheep", 5, 1)
    return f"/api/match/{match_id}/frames?view=all"


def test_clients_that_never_read_a_large_replay_hold_no_copy_of_it(
    showcase: Showcase, large_replay: str
) -> None:
    """A replay's frames go out a piece at a time: 16 clients that ask and
    never read cost the viewer a piece each, not the whole body each."""
    path = large_replay
    status, _, body = get(showcase.url + path)
    assert status == 200 and len(body) > 10_000_000, len(body)
    before = _resident_bytes()
    stalled = _stalled_requests(showcase.url, path, 16)
    try:
        time.sleep(2.0)
        grown = _resident_bytes() - before
        # A copy each would be about 16 x 9 MB beyond what the kernel buffers.
        assert grown < 2 * len(body), f"{grown / 1e6:.0f} MB for 16 stalled readers"
        status, _, _ = get(showcase.url + "/api/matches")  # others are still served
        assert status == 200
    finally:
        for connection in stalled:
            connection.close()


def test_a_client_still_reading_a_large_replay_after_the_send_time_is_dropped(
    showcase: Showcase, large_replay: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replays, "SEND_SECONDS", 1.0)
    (connection,) = _stalled_requests(showcase.url, large_replay, 1)
    with connection:
        time.sleep(3.0)
        connection.settimeout(10)
        received = b""
        try:
            while chunk := connection.recv(1 << 20):
                received += chunk
        except ConnectionResetError:
            pass  # dropped: what the server had sent may be cut short too
        head, _, sent = received.partition(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        assert len(sent) < length, "the whole body arrived: the client was not dropped"


def test_past_the_replays_waiting_to_render_a_request_is_told_to_come_back(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages asking for many different replays at once queue behind one replay
    process; past MAX_RENDERS_WAITING they get 503 rather than wait in a pile."""
    assert showcase.web is not None
    state = showcase.web.runner.app[STATE]
    real = replays._render

    async def slow(state: Any, replay: Any, view: Any) -> Any:
        await asyncio.sleep(1.0)
        return await real(state, replay, view)

    monkeypatch.setattr(replays, "_render", slow)
    monkeypatch.setattr(replays, "MAX_RENDERS_WAITING", 1)

    async def clear() -> None:
        state.cache.clear()

    showcase.server.run(clear())
    match_id = showcase.finished["sheep-showdown"]
    urls = [f"{showcase.url}/api/match/{match_id}/frames?view={v}" for v in ("seat-0", "seat-1")]
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(get, urls[0])
        time.sleep(0.3)
        second = pool.submit(get, urls[1])
        answers = [first.result(), second.result()]
    assert answers[0][0] == 200
    assert_clear_error(answers[1][0], answers[1][2], 503, "try again")
    assert get(urls[1])[0] == 200  # once the first is done


def _get_from(source: str, url: str) -> tuple[int, str]:
    """GET `url` from the loopback address `source`: the status and body."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request("GET", f"{parts.path}?{parts.query}")
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_one_address_asking_for_many_replays_leaves_places_to_the_others(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once half the places are taken, an address that started its share of
    the replays waiting is told to come back; another address still gets in.
    One client asking for match after match once held every place."""
    assert showcase.web is not None
    state = showcase.web.runner.app[STATE]
    real = replays._render

    async def slow(state: Any, replay: Any, view: Any) -> Any:
        await asyncio.sleep(1.5)
        return await real(state, replay, view)

    monkeypatch.setattr(replays, "_render", slow)
    monkeypatch.setattr(replays, "MAX_RENDERS_WAITING", 4)
    monkeypatch.setattr(replays, "MAX_RENDERS_PER_ADDRESS", 2)

    async def clear() -> None:
        state.cache.clear()

    showcase.server.run(clear())
    match_id = showcase.finished["sheep-showdown"]
    url = f"{showcase.url}/api/match/{match_id}/frames?view="
    with ThreadPoolExecutor(4) as pool:
        first = [pool.submit(_get_from, "127.0.0.1", url + view) for view in ("seat-0", "seat-1")]
        time.sleep(0.5)
        third = _get_from("127.0.0.1", url + "all")
        other = pool.submit(_get_from, "127.0.0.2", url + "public")
        answers = [future.result() for future in (*first, other)]
    assert third[0] == 503, third
    assert "replaying 2 matches for this address" in json.loads(third[1])["error"]
    assert [status for status, _ in answers] == [200, 200, 200]
    assert not state.renders_started  # every place given back
    assert _get_from("127.0.0.1", url + "all")[0] == 200


def test_a_head_request_for_a_large_replay_gets_its_headers_only(
    showcase: Showcase, large_replay: str
) -> None:
    """Large bodies go out in pieces; a HEAD must still get none, or the next
    answer on the same connection would be read from the middle of one."""
    host, port = showcase.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request("HEAD", large_replay)
        head = connection.getresponse()
        assert head.status == 200 and int(head.headers["Content-Length"]) > 10_000_000
        assert head.read() == b""
        connection.request("GET", "/api/matches")
        after = connection.getresponse()
        assert after.status == 200 and isinstance(json.loads(after.read()), list)
    finally:
        connection.close()


def _replay_process(state: web_app.State) -> int:
    """The viewer's replay process (its pool has one), as the process itself
    tells: other viewers started in this test process have theirs."""
    pid: int = state.render().submit(os.getpid).result(timeout=30)
    assert pid != os.getpid()
    assert any(p == pid and parent == os.getpid() for p, parent, _ in processes())
    return pid


def test_replays_render_in_a_process_of_their_own_which_comes_back_if_killed(
    showcase: Showcase,
) -> None:
    """Not on a thread of the viewer's process, where they took the event loop's
    interpreter lock from the game server; killed (as by the OOM killer), the
    process is replaced at the next replay."""
    assert showcase.web is not None
    state = showcase.web.runner.app[STATE]

    async def clear() -> None:
        state.cache.clear()

    match_id = showcase.finished["sheep-and-garden"]
    showcase.server.run(clear())
    assert get(f"{showcase.url}/api/match/{match_id}/frames?view=seat-0")[0] == 200
    replayer = _replay_process(state)
    os.kill(replayer, signal.SIGKILL)
    time.sleep(0.5)
    status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames?view=seat-1")
    if status != 200:  # the request that found the process gone
        assert_clear_error(status, body, 500, "the replay process ended unexpectedly")
        status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames?view=seat-1")
    assert status == 200, body[:300]
    assert _replay_process(state) != replayer


def test_a_matchs_seats_say_whether_each_bot_is_connected(showcase: Showcase) -> None:
    """What a live page asks every few seconds: the status, the moves and each
    seat's connection (a finished match has no bot connected); an unknown
    match is a 404 as on every other match address."""
    match_id = showcase.finished["sheep-n-sheep"]
    status, kind, body = get(f"{showcase.url}/api/match/{match_id}")
    assert status == 200 and "json" in kind
    seats = json.loads(body)
    assert seats["status"] == "finished" and seats["moves"] > 0
    players = GAMES["sheep-n-sheep"][0]
    assert [(s["seat"], s["joined"], s["connected"]) for s in seats["seats"]] == [
        (seat, True, False) for seat in range(players)
    ]
    status, kind, body = get(f"{showcase.url}/api/match/no-such-match")
    assert "json" in kind and json.loads(body)["status"] == 404
