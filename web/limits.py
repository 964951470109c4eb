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
