"""Web origins as browsers send them in the ``Origin`` header: the WebSocket's check, and
the same check on every request that changes something (:class:`SameOriginWrites`).

An allowed origin is compared as text with what a browser sends, so it is kept in the
browser's form: scheme and host in lower case, no default port (443 for https, 80 for
http), an IPv6 address in its short form and in brackets, a non-ASCII host in punycode, no
path and no trailing slash.

>>> normalize_origin("HTTPS://Play.Example.com:443/")
'https://play.example.com'
>>> normalize_origin("http://[2001:DB8:0:0::1]:8080")
'http://[2001:db8::1]:8080'
>>> normalize_origin("https://Bücher.example")
'https://xn--bcher-kva.example'
>>> normalize_origin("play.example.com")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: not an origin: 'play.example.com'; write it as a browser sends it ...
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from urllib.parse import urlsplit

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from hokm.server.errors import error_body

__all__ = ["SameOriginWrites", "normalize_origin", "origin_allowed"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def normalize_origin(text: str) -> str:
    """``text`` as a browser would send it as ``Origin`` (``*`` stays: any origin), or
    :class:`ValueError` naming it."""
    value = text.strip()
    if value == "*":
        return value
    problem = ValueError(
        f"not an origin: {value!r}; write it as a browser sends it "
        "(https://host or https://host:port), or * for any"
    )
    try:
        parts = urlsplit(value.rstrip("/"))
        port = parts.port
    except ValueError:
        raise problem from None
    scheme = parts.scheme.lower()
    if (
        scheme not in _DEFAULT_PORTS
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or parts.username is not None
        or port == 0
    ):
        raise problem
    host = _host(parts.hostname)
    if host is None:
        raise problem
    shown_port = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{shown_port}"


def _host(name: str) -> str | None:
    """The host in a browser's form (an IP literal or DNS labels), or None if it is neither."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    try:
        ascii_name = name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    labels = ascii_name.split(".")
    return ascii_name if all(_LABEL.match(label) for label in labels) else None


def origin_allowed(headers: Mapping[str, str], allowed: tuple[str, ...]) -> bool:
    """May a WebSocket upgrade with these headers proceed?

    No ``Origin`` (not a browser) is allowed; a browser's ``Origin`` must name this very
    host, or be listed in ``allowed`` (``*`` allows every origin).

    >>> origin_allowed({"host": "a.example:8000", "origin": "http://a.example:8000"}, ())
    True
    >>> origin_allowed({"host": "a.example:8000", "origin": "https://evil.example"}, ())
    False
    >>> origin_allowed({"host": "a:1", "origin": "https://b.example"}, ("https://b.example",))
    True
    """
    origin = headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/")
    if "*" in allowed or origin in allowed:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and netloc.lower() == headers.get("host", "").lower()


#: the methods that only read (a browser's cross-site GET, a link followed, changes nothing)
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class SameOriginWrites:
    """ASGI middleware: a request that may change something (``POST``, ``PATCH``,
    ``DELETE``…) from a browser page of another site is refused, ``403 bad_origin``, before
    any handler reads it: the WebSocket's :func:`origin_allowed` rule for HTTP.

    The cookies are ``SameSite=Lax``, which keeps them off another site's ``POST`` but not off
    a sibling host of the same site (``evil.example.com`` beside ``hokm.example.com``), and
    does not stop another site's form from logging a visitor in: a form of type
    ``text/plain`` can post ``{"username": …, "password": "…="}`` to ``/api/accounts/login``,
    and the answer's session cookie was kept, so the visitor played (and won points) as the
    attacker's account. Browsers name the page's origin on every such request; scripts
    without ``Origin`` (the Python client, curl) are not affected."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if origin_allowed(headers, self.allowed):
            await self.app(scope, receive, send)
            return
        body = orjson.dumps(
            error_body(
                "bad_origin",
                "a page of another site may not change anything here",
                "صفحه‌ای از سایت دیگر نمی‌تواند اینجا چیزی را تغییر دهد",
            )
        )
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
