"""The tournament pages' answers, shared by every client asking the same page
at about the same time (web.shared_answers)."""

from __future__ import annotations

from dataclasses import dataclass, field

from web.shared_answers import PageAnswer, SharedAnswers

# Pages asking the same tournament page, its fragment or the list within this
# long share one answer: its database read, its "Now playing" and its gzip.
# Each cost the process that may run the game server several milliseconds a
# request, and 20 clients polling them at 192 requests a second took the
# matches it played from 1,134 decisions a second to 25.
KEEP_SECONDS = 1.0
KEPT = 8  # answers kept of each kind (a tournament's page is up to a megabyte)


@dataclass(frozen=True, slots=True)
class FragmentAnswer:
    page: PageAnswer
    etag: str
    running: bool
    state_text: str


@dataclass
class TournamentAnswers:
    """The tournament pages' shared answers (web.shared_answers)."""

    keep_seconds: float = KEEP_SECONDS
    lists: SharedAnswers[None, PageAnswer] = field(default_factory=lambda: SharedAnswers(1))
    pages: SharedAnswers[tuple[int, str], PageAnswer] = field(
        default_factory=lambda: SharedAnswers(KEPT)
    )
    fragments: SharedAnswers[tuple[int, str], FragmentAnswer] = field(
        default_factory=lambda: SharedAnswers(KEPT)
    )
