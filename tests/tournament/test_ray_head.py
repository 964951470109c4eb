"""Without Ray: when the watch on a Ray head says it is lost (tests/ray runs it with Ray)."""

from __future__ import annotations

import time

from tournament.executors.ray_head import HeadWatch


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_head_is_lost_only_after_it_has_not_answered_for_the_whole_delay() -> None:
    clock = Clock()
    answers: list[str | None] = [None, "connection refused", "connection refused", None]
    watch = HeadWatch("10.0.0.5:6379", lost_after=5, ask=lambda _a: answers.pop(0), clock=clock)
    watch.check()  # answered at 100
    clock.now = 104.9
    watch.check()  # refused
    assert watch.lost() is None
    clock.now = 105.0
    watch.check()  # refused
    lost = watch.lost()
    assert lost is not None
    assert "10.0.0.5:6379" in lost and "for 5 s (connection refused)" in lost, lost
    assert "run the same command again to resume" in lost
    watch.check()  # back: a head that answers again is not lost
    assert watch.lost() is None


def test_the_watch_asks_on_a_thread_of_its_own_and_can_watch_again() -> None:
    """Asked every second while inside (each batch of games enters it anew)."""
    asked: list[str] = []
    watch = HeadWatch("10.0.0.5:6379", ask=lambda address: asked.append(address) or None)
    for _batch in range(2):
        with watch:
            deadline = time.monotonic() + 10
            seen = len(asked)
            while len(asked) == seen and time.monotonic() < deadline:
                time.sleep(0.05)
        assert len(asked) > seen
    assert set(asked) == {"10.0.0.5:6379"} and watch.lost() is None
