"""A GET's status, headers and body, as the tests of the viewer's answers read them."""

from __future__ import annotations

import urllib.request
from typing import Any


def headers_of(
    url: str, accept_encoding: str = "", more: dict[str, str] | None = None
) -> tuple[int, Any, bytes]:
    """Status, headers and body of a GET of `url`, with `more` request headers."""
    request = urllib.request.Request(
        url, headers={"Accept-Encoding": accept_encoding, **(more or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
