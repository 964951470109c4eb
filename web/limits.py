"""The web viewer's connection limits. Kept apart from web.app so the command
line can show them as defaults without importing aiohttp."""

# Connections held at once (a browser watching live holds one or two); more are
# closed as they arrive.
MAX_CONNECTIONS = 1000
# Of those, from one client address (a browser holds up to six): one client
# cannot take them all. Everyone behind a reverse proxy shares its address.
MAX_CONNECTIONS_PER_ADDRESS = 64
# A connection waiting for a request is closed after this long (aiohttp alone
# keeps it an hour).
IDLE_SECONDS = 30.0
# A client gone without a word (its network cut, a phone out of range: no FIN,
# no RST) is noticed by TCP itself: probed after this long with nothing sent,
# and dropped once nothing it was sent has been acknowledged for
# GONE_SECONDS. The system's defaults kept it two hours and more, holding one
# of its address's connections, on a quiet event stream.
PROBE_AFTER_SECONDS = 30
PROBE_EVERY_SECONDS = 10
GONE_SECONDS = 120
# An event stream with nothing to say for this long sends a comment (which a
# page ignores): a proxy in front closes a quiet stream (nginx after 60 s), and
# TCP notices a client gone away only while something is sent.
HEARTBEAT_SECONDS = 15.0
# What aiohttp's parser reads of a request: its target (path and query) and
# each header line at most these many bytes, and at most MAX_HEADERS headers.
# The two lengths differ so that the parser's one error for both (LineTooLong,
# with the bound it passed) tells which it was: a 414 or a 431 (web.site).
MAX_TARGET_BYTES = 8000
MAX_HEADER_BYTES = 8190
MAX_HEADERS = 128
