"""Web origins as browsers send them in the ``Origin`` header, for the WebSocket's check.

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
from urllib.parse import urlsplit

__all__ = ["normalize_origin"]

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
