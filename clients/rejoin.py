"""How long a seat tries to join again, by default: apart from clients.sdk so
that the command line writes it into its help without loading gRPC."""

from __future__ import annotations

# How long a seat tries to join again, by default, once its server has gone
# (a restart): from the first attempt that failed, each waiting a few seconds.
REJOIN_SECONDS = 90.0
