"""The web viewer under load (a measurement, not a test).

    python -m benchmarks.web                 # both parts
    python -m benchmarks.web --part serving --seconds 10 --pages 100
    python -m benchmarks.web --part live

serving: one `sheepfold serve --web-port` process (game server and viewer on
one event loop; `--separate`: the viewer as its own process). This process
plays Sheep Showdown matches against it with random bots (`--matches` at
once, each bot waiting `--think-ms`) and counts moves per second and the
server's CPU per move, alternately with no page open and with `--pages`
match pages open (`--rounds` times each). The pages are a helper process
playing that many viewers, each loading a running match's page, following
its Server-Sent Event stream (what a browser's match page holds) to the end,
staying `--dwell` seconds on the finished match, then opening another. The
figure is the slowdown of the matches. The server gets a CPU of its own, the
load generators the others (`--no-pin` to share).

live: headless Chromium shows a 2-player Double Trouble Sheep Showdown match
whose bots answer every 5 ms (about 100 moves/s). Measured in the page: moves
shown per second, how far the page is behind the server, the longest gap
between animation frames, and how long a click on "previous" takes to redraw.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp

from benchmarks import procs
from clients.matchplay import create_match
from clients.sdk import DecisionView, play
from server import launch
from web.limits import MAX_CONNECTIONS

CHROMIUM = os.environ.get("SHEEPFOLD_CHROMIUM", "/usr/bin/chromium")
PAGES_RAMP = 1.5  # seconds for the pages helper to start and open its pages


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class _Viewer:
    """The game server, and the viewer in its process or (separate) in its own."""

    server: launch.ServerProcess
    url: str
    web: subprocess.Popen[bytes] | None = None

    def stop(self) -> None:
        if self.web is not None:
            self.web.terminate()
            self.web.wait(15)
        launch.stop(self.server)


def _start_server(separate: bool = False) -> _Viewer:
    web_port = _free_port()
    # Every page of the benchmark comes from this machine's one address.
    per_address = str(MAX_CONNECTIONS)
    if not separate:
        command = launch.serve_command(
            "--db", ":memory:", "--web-port", str(web_port),
            "--web-max-connections-per-address", per_address,
        )  # fmt: skip
        server = launch.start(command, max_lines=200)
        return _Viewer(server, f"http://127.0.0.1:{web_port}")
    server = launch.start(launch.serve_command("--db", ":memory:"), max_lines=200)
    web = subprocess.Popen(
        [sys.executable, "-m", "cli", "web", "--server", server.address, "--port", str(web_port),
         "--max-connections-per-address", per_address],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    viewer = _Viewer(server, f"http://127.0.0.1:{web_port}", web)
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib_json(f"{viewer.url}/api/matches"):
                return viewer
        except OSError:
            if time.monotonic() > deadline:
                viewer.stop()
                raise
            time.sleep(0.2)


class CountingBot:
    def __init__(self, seed: int, counter: list[int], delay: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.counter = counter
        self.delay = delay

    async def decide(self, decision: DecisionView) -> int:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.counter[0] += 1
        return self.rng.randrange(len(decision.actions))


async def _play_forever(address: str, counter: list[int], worker: int, think: float) -> None:
    number = 0
    while True:
        number += 1
        created = await create_match(address, "sheep-showdown", 2, seed=worker * 100_000 + number)
        await asyncio.gather(
            *(
                play(
                    CountingBot(number * 10 + seat, counter, think),
                    address,
                    created.match_id,
                    token,
                )
                for seat, token in enumerate(created.seat_tokens)
            )
        )


# ------------------------------------------------------------ the pages helper


async def _pages(
    url: str, count: int, seconds: float, dwell: float, skip: float = PAGES_RAMP
) -> dict[str, float]:
    """`count` viewers, each with one match page open for `seconds`; returns totals.

    A viewer behaves as a person does: it picks a running match from the
    matches list, loads its page (the HTML, then the live stream), follows it
    to the end, looks at the final board for `dwell` seconds, then picks
    another. With `dwell` 0 every page is on a live match all the time (a
    stress case: with matches of a few seconds, pages hop dozens of times a
    second). One poll of the list a second, shared, as the list page's own
    updates are."""
    totals: dict[str, float] = {"pages": 0, "streams": 0, "batches": 0, "bytes": 0, "live": 0.0}
    started = time.monotonic()
    deadline = started + seconds
    counted = started + skip
    running: list[str] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

        async def poll() -> None:
            while time.monotonic() < deadline:
                async with session.get(f"{url}/api/matches") as response:
                    listing = await response.json()
                running[:] = [m["match_id"] for m in listing if m["status"] == "running"]
                await asyncio.sleep(1.0)

        async def viewer(index: int) -> None:
            rng = random.Random(index)
            seen: set[str] = set()  # a viewer does not open a match twice
            while time.monotonic() < deadline:
                choices = [m for m in running if m not in seen]
                if not choices:
                    await asyncio.sleep(0.05)
                    continue
                match_id = rng.choice(choices)
                seen.add(match_id)
                async with session.get(f"{url}/match/{match_id}") as response:
                    html = await response.text()
                totals["pages"] += 1
                if '"status": "running"' not in html and '"status": "waiting"' not in html:
                    # Over already: the page shows the replay, as a browser's does.
                    async with session.get(f"{url}/api/match/{match_id}/frames") as response:
                        await response.read()
                    await asyncio.sleep(dwell)
                    continue
                totals["streams"] += 1
                opened = time.monotonic()
                with contextlib.suppress(TimeoutError):
                    # Until the match ends, or the deadline if it is still running.
                    async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                        async with session.get(f"{url}/api/match/{match_id}/live") as response:
                            async for chunk in response.content.iter_any():
                                totals["bytes"] += len(chunk)
                                totals["batches"] += chunk.count(b"data: ")
                # Counted from `skip` on, when the serving part measures.
                totals["live"] += max(0.0, min(time.monotonic(), deadline) - max(opened, counted))
                await asyncio.sleep(dwell)

        outcomes = await asyncio.gather(
            poll(), *(viewer(i) for i in range(count)), return_exceptions=True
        )
        failures = [repr(o) for o in outcomes if isinstance(o, BaseException)]
        if failures:
            print(f"pages helper: {len(failures)} failed: {failures[:3]}", file=sys.stderr)
    # Time-weighted: how many pages were following a live match, on average.
    totals["live_pages"] = totals.pop("live") / max(1e-9, deadline - counted)
    return totals


# ------------------------------------------------------------ parts


@dataclass
class ServingResult:
    matches: int
    pages: int
    dwell: float
    pinned: bool
    moves_per_second_alone: float
    moves_per_second_with_pages: float
    server_cpu_ms_per_move_alone: float
    server_cpu_ms_per_move_with_pages: float
    page_loads: int
    page_batches: int
    live_pages: float  # pages following a live match, on average
    load_average: tuple[float, float]  # 1-minute load average at the start and the end

    @property
    def slowdown_percent(self) -> float:
        alone, loaded = self.moves_per_second_alone, self.moves_per_second_with_pages
        return 100.0 * (alone - loaded) / alone


def _pin(viewer: _Viewer, cpus: list[int]) -> bool:
    """The game server gets the first CPU to itself; this process (the bots),
    the pages helper and a separate viewer share the others. On a 2-core machine
    the load generators would otherwise take CPU time from the server they
    measure, which real bots and browsers on other machines do not."""
    if len(cpus) < 2:
        return False
    others = set(cpus[1:])
    _set_affinity(viewer.server.pid, {cpus[0]})
    if viewer.web is not None:
        _set_affinity(viewer.web.pid, others)
    _set_affinity(os.getpid(), others)
    return True


def _set_affinity(pid: int, cpus: set[int]) -> None:
    for thread in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(ProcessLookupError, PermissionError):  # a thread ended
            os.sched_setaffinity(int(thread), cpus)


def serving(
    matches: int,
    pages: int,
    seconds: float,
    think: float,
    separate: bool = False,
    dwell: float = 3.0,
    pin: bool = True,
    rounds: int = 2,
) -> ServingResult:
    """One server; the bots play all along, and the measuring alternates
    between no page open and `pages` open (`rounds` times each, `seconds` in
    all for each), so a change in the machine's other load falls on both."""
    everywhere = os.sched_getaffinity(0)
    load_start = os.getloadavg()[0]
    try:
        viewer = _start_server(separate)
        try:
            pinned = pin and _pin(viewer, sorted(everywhere))
            figures = asyncio.run(
                _alternate(viewer, matches, pages, seconds / rounds, think, dwell, rounds)
            )
        finally:
            viewer.stop()
    finally:
        _set_affinity(os.getpid(), everywhere)
    return ServingResult(matches, pages, dwell, pinned, *figures, (load_start, os.getloadavg()[0]))


async def _alternate(
    viewer: _Viewer,
    matches: int,
    pages: int,
    phase: float,
    think: float,
    dwell: float,
    rounds: int,
) -> tuple[float, float, float, float, int, int, float]:
    """(moves/s alone, with pages, server CPU ms/move alone, with pages,
    page loads, batches, pages on a live match on average)."""
    address, pid = viewer.server.address, viewer.server.pid
    counter = [0]
    sums = {"alone": [0, 0.0, 0.0], "pages": [0, 0.0, 0.0]}  # moves, CPU s, seconds
    totals = {"pages": 0.0, "batches": 0.0, "live_pages": 0.0}

    async def measure(kind: str) -> None:
        moves, cpu, start = counter[0], procs.sample(pid).cpu_seconds, time.perf_counter()
        await asyncio.sleep(phase)
        sums[kind][0] += counter[0] - moves
        sums[kind][1] += procs.sample(pid).cpu_seconds - cpu
        sums[kind][2] += time.perf_counter() - start

    workers = [
        asyncio.ensure_future(_play_forever(address, counter, w, think)) for w in range(matches)
    ]
    try:
        await asyncio.sleep(1.0)  # ramp up
        for _ in range(rounds):
            await measure("alone")
            helper = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "benchmarks.web", "--pages-helper", viewer.url,
                "--pages", str(pages), "--seconds", str(PAGES_RAMP + phase + 0.5),
                "--dwell", str(dwell), stdout=subprocess.PIPE,
            )  # fmt: skip
            try:
                await asyncio.sleep(PAGES_RAMP)
                await measure("pages")
                out, _ = await asyncio.wait_for(helper.communicate(), phase + 60)
            finally:
                if helper.returncode is None:
                    helper.kill()
                    await helper.wait()
            for key, value in json.loads(out.decode().strip().splitlines()[-1]).items():
                if key in totals:
                    totals[key] += value
            await asyncio.sleep(1.0)  # the pages' streams close
    finally:
        await _stop(workers)
    (moves_a, cpu_a, time_a), (moves_p, cpu_p, time_p) = sums["alone"], sums["pages"]
    return (
        moves_a / time_a,
        moves_p / time_p,
        1000 * cpu_a / max(1, moves_a),
        1000 * cpu_p / max(1, moves_p),
        int(totals["pages"]),
        int(totals["batches"]),
        totals["live_pages"] / rounds,
    )


async def _stop(tasks: Sequence[asyncio.Future[None]]) -> None:
    """Cancel, and cancel again what is still running a second later: a seat
    that sees its stream cancelled may take it for a lost connection and
    rejoin once (then the next cancel lands in its back-off sleep)."""
    pending = set(tasks)
    for _ in range(10):
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=1.0)
        if not pending:
            return
    raise RuntimeError(f"{len(pending)} bot tasks did not stop")


def live(matches: int = 3) -> dict[str, Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise SystemExit(
            "benchmarks.web --part live needs Playwright (pip install playwright)"
        ) from None
    viewer = _start_server()
    server, url = viewer.server, viewer.url
    results: list[dict[str, Any]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.add_init_script(_PROBE)
            for number in range(matches):
                results.append(_one_live(page, server.address, url, number))
            browser.close()
    finally:
        viewer.stop()
    return {
        "matches": results,
        "moves_per_second_shown": statistics.mean(r["moves_per_second_shown"] for r in results),
        "max_frame_gap_ms": max(r["max_frame_gap_ms"] for r in results),
        "p95_frame_gap_ms": max(r["p95_frame_gap_ms"] for r in results),
        "click_redraw_ms_p50": statistics.median(
            ms for r in results for ms in r["click_redraw_ms"]
        ),
        "click_redraw_ms_max": max(ms for r in results for ms in r["click_redraw_ms"]),
        "max_moves_behind": max(r["max_moves_behind"] for r in results),
    }


_PROBE = """
window.__gaps = [];
let last = performance.now();
function tick(now) { window.__gaps.push(now - last); last = now; requestAnimationFrame(tick); }
requestAnimationFrame(tick);
"""

_CLICK = """() => new Promise((resolve) => {
  const board = document.getElementById('board');
  const before = board.dataset.move;
  const t0 = performance.now();
  const observer = new MutationObserver(() => {
    if (board.dataset.move !== before) { observer.disconnect(); resolve(performance.now() - t0); }
  });
  observer.observe(board, { attributes: true });
  document.getElementById('prev').click();
})"""


def _one_live(page: Any, address: str, url: str, number: int) -> dict[str, Any]:
    async def start() -> tuple[str, list[asyncio.Task[Any]]]:
        created = await create_match(
            address, "sheep-showdown", 2, seed=900 + number, options={"double_trouble": "true"}
        )
        return created.match_id, [
            asyncio.ensure_future(
                play(CountingBot(seat, [0], delay=0.005), address, created.match_id, token)
            )
            for seat, token in enumerate(created.seat_tokens)
        ]

    loop = asyncio.new_event_loop()
    # The bots run on a thread of their own so the browser calls below do not stall them.
    import threading

    ready: dict[str, Any] = {}

    def bots() -> None:
        asyncio.set_event_loop(loop)
        try:
            match_id, tasks = loop.run_until_complete(start())
        except Exception as error:
            ready["error"] = error
            raise
        ready["match_id"] = match_id
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        loop.close()

    thread = threading.Thread(target=bots, daemon=True)
    thread.start()
    while "match_id" not in ready:
        if "error" in ready:
            raise SystemExit(f"could not start the live match: {ready['error']}")
        time.sleep(0.01)
    match_id = ready["match_id"]
    page.goto(f"{url}/match/{match_id}")
    page.wait_for_selector("#board[data-move]")
    page.evaluate("window.__gaps = []")
    started = time.perf_counter()
    first = int(page.get_attribute("#board", "data-move"))
    behind: list[int] = []
    clicks: list[float] = []
    while thread.is_alive() and time.perf_counter() - started < 30:
        with urllib_json(f"{url}/api/match/{match_id}") as info:
            shown = page.evaluate("window.sheepfold.frames.at(-1).move")
            behind.append(max(0, info["moves"] - shown))
        if len(clicks) < 8:
            clicks.append(page.evaluate(_CLICK))
            page.evaluate("document.getElementById('follow').checked = true")
        time.sleep(0.2)
    elapsed = time.perf_counter() - started
    last = page.evaluate("window.sheepfold.frames.at(-1).move")
    thread.join(30)
    gaps = sorted(page.evaluate("window.__gaps"))
    return {
        "match_id": match_id,
        "moves": last,
        "moves_per_second_shown": (last - first) / elapsed,
        "max_frame_gap_ms": round(gaps[-1], 1) if gaps else None,
        "p95_frame_gap_ms": round(gaps[int(0.95 * (len(gaps) - 1))], 1) if gaps else None,
        "click_redraw_ms": [round(ms, 1) for ms in clicks],
        "max_moves_behind": max(behind) if behind else None,
    }


class urllib_json:
    def __init__(self, url: str) -> None:
        import urllib.request

        self.response = urllib.request.urlopen(url, timeout=10)

    def __enter__(self) -> dict[str, Any]:
        return json.loads(self.response.read())

    def __exit__(self, *exc: object) -> None:
        self.response.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.web",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--part", choices=("serving", "live", "both"), default="both")
    parser.add_argument("--matches", type=int, default=8, help="matches played at once")
    parser.add_argument("--pages", type=int, default=100, help="open match pages")
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring window")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="each bot waits this long before answering (0: as fast as the server goes)",
    )
    parser.add_argument(
        "--separate",
        action="store_true",
        help="serving: run the viewer as its own process (`sheepfold web`), not in the server's",
    )
    parser.add_argument(
        "--dwell",
        type=float,
        default=3.0,
        help="serving: seconds a viewer stays on a finished match's page before opening "
        "another live one (0: hop at once, every page always live)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="serving: alternate this many times between no page and the pages open",
    )
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="serving: do not give the game server a CPU of its own (see _pin)",
    )
    parser.add_argument("--pages-helper", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pages_helper:
        totals = asyncio.run(_pages(args.pages_helper, args.pages, args.seconds, args.dwell))
        print(json.dumps(totals))
        return 0
    if args.part in ("serving", "both"):
        result = serving(
            args.matches,
            args.pages,
            args.seconds,
            args.think_ms / 1000,
            args.separate,
            args.dwell,
            not args.no_pin,
            args.rounds,
        )
        print(
            f"serving ({'viewer in its own process' if args.separate else 'serve --web-port'}"
            f"{', server on a CPU of its own' if result.pinned else ''}): "
            f"{result.matches} Sheep Showdown matches at once, bots thinking "
            f"{args.think_ms:g} ms, "
            f"{result.moves_per_second_alone:.0f} moves/s alone, "
            f"{result.moves_per_second_with_pages:.0f} moves/s with {result.pages} match pages "
            f"open (viewers dwell {result.dwell:g} s on a finished match; "
            f"{result.live_pages:.0f} pages on a live match on average, "
            f"{result.page_loads} page loads, {result.page_batches} batches received): "
            f"slowdown {result.slowdown_percent:.1f}%; server CPU per move "
            f"{result.server_cpu_ms_per_move_alone:.2f} ms alone, "
            f"{result.server_cpu_ms_per_move_with_pages:.2f} ms with the pages; "
            f"load average {result.load_average[0]:.2f} -> {result.load_average[1]:.2f}"
        )
    if args.part in ("live", "both"):
        figures = live()
        print(
            "live page at ~100 moves/s: "
            f"{figures['moves_per_second_shown']:.0f} moves/s shown, at most "
            f"{figures['max_moves_behind']} moves behind the server, frame gaps p95 "
            f"{figures['p95_frame_gap_ms']} ms / max {figures['max_frame_gap_ms']} ms, "
            f"click on 'previous' redrawn in {figures['click_redraw_ms_p50']:.0f} ms "
            f"(max {figures['click_redraw_ms_max']:.0f} ms)"
        )
        print(json.dumps(figures["matches"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
