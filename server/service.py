"""The `sheepfold.v1.Arena` gRPC service, its calls grouped by job: what they
share (server/arena_calls.py), match creation (server/match_creation.py), the
read-only calls (server/match_reads.py), Watch (server/watch_call.py) and Play
(server/play_call.py). Play and Watch are methods of the servicer itself, not
relayed through another generator: one generator less for every message."""

from __future__ import annotations

from server.match_creation import MatchCreationCalls
from server.match_reads import MatchReadCalls
from server.play_call import PlayCall
from server.watch_call import WatchCall


class ArenaService(MatchCreationCalls, MatchReadCalls, WatchCall, PlayCall):
    """The Arena service: every call of sheepfold.v1.Arena."""
