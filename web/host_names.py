"""The host names the viewer is told to answer to (`--allowed-host`), checked
on their own: web.hosts guards the requests, and logs, so the command line
checks a flag without it."""

from __future__ import annotations

ANY_HOST = "*"


class HostNameError(ValueError):
    """A name given to --allowed-host that no Host header could carry."""


def allowed_host_name(text: str) -> str:
    """`text` as a name to allow, lower-cased, or HostNameError saying why not."""
    name = text.strip().lower().rstrip(".")
    if name == ANY_HOST:
        return name
    if not name or any(c in name for c in ":/[]@ ") or not name.isascii():
        raise HostNameError(
            f"{text!r} is not a host name (a name such as viewer.example.org, without a "
            f"port or scheme, or {ANY_HOST} for any)"
        )
    return name
