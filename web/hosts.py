"""Which host names the viewer answers to: its guard against DNS rebinding.

A page on someone else's site can point its own host name at 127.0.0.1 (or any
address the visitor's browser reaches and its author does not) and then read
the viewer as if it were its own site: the matches list, every card of every
finished match, the tournament databases, whatever the viewer's admin token
lets it read. The browser still sends the page's host name with each request,
so the viewer answers only to IP addresses, to `localhost` and the names under
it (browsers send those to loopback themselves), and to the names it is given
(`--allowed-host`); `*` among them turns the check off (for a proxy that checks
the name itself). A request without a Host header (HTTP/1.0) comes from no
browser, and is answered."""

from __future__ import annotations

import ipaddress

import structlog

from server.logs import Counts
from web.host_names import ANY_HOST


def host_of(header: str) -> str:
    """The name in a Host header: without its port, lower-cased, without a
    trailing dot; an IPv6 address without its brackets."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0].rstrip(".") if ":" in value else value.rstrip(".")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostGuard:
    """Says whether a request's Host header is one the viewer answers to, and
    logs those it refuses (per name, the first 20, then one in a thousand)."""

    def __init__(self, allowed: tuple[str, ...] = ()) -> None:
        self._allowed = frozenset(allowed)
        self._refused = Counts()
        self._log = structlog.get_logger("sheepfold.web")

    def refusal(self, header: str | None, client: str | None) -> str | None:
        """None to answer the request; else why not, for the page."""
        if header is None or ANY_HOST in self._allowed:
            return None
        name = host_of(header)
        if (
            _is_address(name)
            or name == "localhost"
            or name.endswith(".localhost")
            or name in self._allowed
        ):
            return None
        shown = name[:60]
        count = self._refused.due(shown)
        if count is not None:
            self._log.warning(
                "web request refused",
                client=client,
                host=shown,
                reason="host name not allowed",
                count=count,
                **self._refused.left_out(),
            )
        return (
            f"this viewer does not answer to the host name {shown!r}: it answers to IP "
            "addresses, localhost and the names it is started with (--allowed-host NAME), "
            "so that another site's page cannot read it by renaming itself"
        )
