"""The bounds that keep one client from costing the server more than its share,
with their defaults: apart from the guards that enforce them (gRPC
interceptors, the seats' streams), so that the command line writes them into
its flags' help without loading gRPC, protobuf or logging."""

from __future__ import annotations

from dataclasses import dataclass

# The largest message sent or received; also what a gRPC client takes by
# default. Shared with the clients (sheepfold/message_size.py).
from sheepfold.message_size import DEFAULT_MAX_MESSAGE_BYTES


@dataclass(frozen=True, slots=True)
class MatchLimits:
    """Bounds that keep one client from costing the server more than its share."""

    # Messages that may wait for a seat's stream before the stream is dropped.
    seat_queue: int = 10_000
    # Messages a watcher may lag behind the live match before it is dropped.
    watch_queue: int = 1_000
    # Watchers at once on one match; more get RESOURCE_EXHAUSTED.
    max_watchers: int = 100
    # Of those, from one client address (server/watch_places.py).
    max_watchers_per_address: int = 16
    # Watch streams on the whole server, over every match. A stream whose client
    # reads nothing holds what the server has queued for it (about 85 KB for a
    # finished match's replay): 20,000 of them over 200 finished matches, each
    # match within its own bound, once took a server from 70 MB to 1.8 GB.
    max_watch_streams: int = 2_000
    # Of those, from one client address over every match: without it one client
    # watching 125 matches 16 times each took all 2,000 and every other
    # spectator on the server was refused. As many as a web viewer's pages
    # (`--web-max-connections`) can show at once: it holds one per match shown.
    max_watch_streams_per_address: int = 1_000
    # Rejected messages (bad answers, floods) one Play stream may send before it is closed.
    max_rejected: int = 100
    # Events held for a seat that asked for them inside its decisions: past this
    # many they go out as messages of their own (a seat that rarely decides).
    # Four others' turns of five-player Stubborn Sheep show a seat up to about
    # 120 between two of its decisions: at 64 a tenth of its decisions' events
    # went one message each.
    held_events: int = 128
    # The largest message the server sends (`serve --max-message-bytes`). A
    # decision larger is never sent: gRPC would end the seat's stream
    # RESOURCE_EXHAUSTED; its move is forced at once (server/match.py). A
    # ListMatches page stops short of it (server/match_reads.py).
    decision_bytes: int = DEFAULT_MAX_MESSAGE_BYTES


# Streams cut off and not yet ended (server/cut_off_streams.py): from one address.
DEFAULT_CUT_OFF_STREAMS_PER_ADDRESS = 100
# From every address together, past which each gets a fair share of what is
# left below twice as much (see server/fair_share.py): 1,000 at most. A Watch
# of a finished match from its start, cut off, held some 140 KB, so about
# 140 MB, ten addresses' worth. A client that reads is never cut off: these
# are all stalled or hostile clients'.
DEFAULT_CUT_OFF_STREAMS = 500

# Answers sent and not yet read by their client (server/unread_answers.py): from one address.
DEFAULT_UNREAD_BYTES_PER_ADDRESS = 64 * 1024 * 1024
DEFAULT_UNREAD_CALLS_PER_ADDRESS = 4_096  # answers of a few bytes each add up too
# From every address together, past which each gets a fair share of what is
# left below twice as much (see server/fair_share.py). An answer unread costs
# the server far more than its size: 479 `ListMatches(limit=1000)` answers
# (58 MB) held 540 MB, and 3,000 small ones 95 MB. So the most the addresses
# together hold, 128 MB of answers or 8,192 calls, is twice what one address
# may hold: some 1.2 GB of the biggest answers.
DEFAULT_UNREAD_BYTES = 64 * 1024 * 1024
DEFAULT_UNREAD_CALLS = 4_096

# Bytes waiting unread in one client address's Play stream queues
# (server/streams.py): past it, a stream sent to is cut off. A client that
# reads holds next to nothing there (a turn's messages, until its stream's
# writer takes them), and a decision at most `MatchLimits.decision_bytes`.
DEFAULT_QUEUED_BYTES_PER_ADDRESS = 16 * 1024 * 1024
# From every address together, past which each gets a fair share of what is
# left below twice as much (see server/fair_share.py).
DEFAULT_QUEUED_BYTES = 64 * 1024 * 1024

# Matches one client address created without an admin token that ended within
# the hour with no seat having answered, past which its creates are refused
# (server/unplayed.py).
DEFAULT_UNPLAYED_MATCHES = 100

# A Play or Watch stream whose write waits this long for its client is cancelled.
DEFAULT_WRITE_STALL_SECONDS = 60.0
