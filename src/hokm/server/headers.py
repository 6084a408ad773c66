"""Security headers on every HTTP response (not on the WebSocket).

The web client is one page of our own scripts and styles, talking to its own origin; the
headers say so to the browser, so that an injected script, a framing page or a sniffed file
type gets nowhere:

* ``Content-Security-Policy``: scripts, styles, images and connections from this origin only
  (the WebSocket's ``ws:``/``wss:`` on the request's own host named too: ``'self'`` covers
  them in CSP 3, but not in browsers before it, Safari before 15.4), the one inline script of
  ``index.html`` (the theme before the first paint) allowed by its hash, ``style`` attributes
  allowed (the advisor's bars; no player's text goes into one), no plugins, no ``<base>``, and
  no framing (``frame-ancestors 'none'``: a page that frames the table cannot trick a click
  on «ترک بازی» or «حذف حساب»).
* ``X-Frame-Options: DENY`` for browsers before ``frame-ancestors``;
  ``X-Content-Type-Options: nosniff``; ``Referrer-Policy: same-origin`` (a room's link,
  ``/r/CODE``, is not sent to another site).
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeaders", "content_security_policy", "inline_script_hashes"]

_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def inline_script_hashes(index_html: str) -> list[str]:
    """The CSP source of each inline ``<script>`` (without attributes) of a page."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in _INLINE_SCRIPT.findall(index_html)
    ]


# A Host header fit to be named in a policy: a name or an IPv4 address, or an IPv6 one in
# brackets, with a port; anything else (a forged header) gets 'self' alone.
_HOST = re.compile(r"^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")


def content_security_policy(script_hashes: list[str], host: str | None = None) -> str:
    scripts = " ".join(["'self'", *script_hashes])
    connect = "'self'" if host is None else f"'self' ws://{host} wss://{host}"
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "style-src-attr 'unsafe-inline'",
            "img-src 'self'",
            f"connect-src {connect}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class SecurityHeaders:
    """ASGI middleware adding the headers above to each HTTP response of ``app``."""

    def __init__(self, app: ASGIApp, web_dir: Path) -> None:
        self.app = app
        self.index = web_dir / "index.html"
        self._made_from: tuple[int, int] | None = None  # index.html's (mtime, size) then
        self.hashes: list[str] = []
        self.headers: list[tuple[bytes, bytes]] = [
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
        ]
        self._policies: dict[str, bytes] = {}  # per Host header (a server has a few names)
        self._refresh()

    def _refresh(self) -> None:
        """The policy of the index.html served now: the web client's directory may appear
        after the start (it is served once it exists) and the page may be edited, and a
        stale hash would block its inline script."""
        try:
            stat = self.index.stat()
        except OSError:  # no web client here (an API-only server, a test): no inline script
            stat = None
        made_from = None if stat is None else (stat.st_mtime_ns, stat.st_size)
        if made_from == self._made_from:
            return
        hashes: list[str] = []
        if made_from is not None:
            try:
                # As served: the browser hashes the script's exact text, CRs of CRLF line ends
                # included (read_text would turn them into LFs, and the hash would not match).
                hashes = inline_script_hashes(self.index.read_bytes().decode("utf-8"))
            except (OSError, UnicodeError):
                hashes = []
        self._made_from = made_from
        self.hashes = hashes
        self._policies.clear()

    def _policy(self, scope: Scope) -> bytes:
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
        if not _HOST.match(host):
            host = ""
        policy = self._policies.get(host)
        if policy is None:
            if len(self._policies) > 64:  # (forged names: forget them, do not grow)
                self._policies.clear()
            policy = content_security_policy(self.hashes, host or None).encode()
            self._policies[host] = policy
        return policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self._refresh()
        ours = [(b"content-security-policy", self._policy(scope)), *self.headers]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in ours if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
