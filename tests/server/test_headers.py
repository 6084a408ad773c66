"""The security headers' Content-Security-Policy allows the web client's inline script by the
hash of the bytes the browser is served."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import httpx
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from hokm.server.headers import SecurityHeaders

SCRIPT = '\n    document.documentElement.dataset.theme = "dark";\n  '


def _source(body: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"


def _client(web_dir: Path) -> httpx.AsyncClient:
    async def page(request: object) -> PlainTextResponse:
        return PlainTextResponse("hi")

    app = Starlette(
        routes=[Route("/", page)], middleware=[Middleware(SecurityHeaders, web_dir=web_dir)]
    )
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


async def test_the_hash_is_of_the_script_as_served_with_its_line_ends(tmp_path: Path) -> None:
    """An index.html with CRLF line ends (a Windows checkout): the browser hashes the script
    with its CRs; reading the file as text dropped them, and the theme script was blocked."""
    crlf = SCRIPT.replace("\n", "\r\n")
    (tmp_path / "index.html").write_bytes(f"<head><script>{crlf}</script></head>".encode())
    policy = (await _client(tmp_path).get("/")).headers["content-security-policy"]
    assert _source(crlf) in policy, policy


async def test_the_hash_follows_an_index_made_or_edited_after_the_start(tmp_path: Path) -> None:
    """The web client's directory may appear after the server starts (it is served once it
    exists), and index.html may be edited: the policy allows the script that is served now."""
    client = _client(tmp_path)
    assert "'sha256-" not in (await client.get("/")).headers["content-security-policy"]
    index = tmp_path / "index.html"
    index.write_text(f"<script>{SCRIPT}</script>", encoding="utf-8")
    assert _source(SCRIPT) in (await client.get("/")).headers["content-security-policy"]
    edited = SCRIPT + "// edited"
    index.write_text(f"<script>{edited}</script>", encoding="utf-8")
    policy = (await client.get("/")).headers["content-security-policy"]
    assert _source(edited) in policy and _source(SCRIPT) not in policy
