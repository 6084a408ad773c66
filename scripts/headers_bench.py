"""What the security headers cost an HTTP response (not a test): a minimal Starlette app
answering one JSON route, called directly as ASGI (no sockets), with and without
``hokm.server.headers.SecurityHeaders``; the median of five passes of ``--calls`` requests.

Usage::

    .venv/bin/python scripts/headers_bench.py --calls 5000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from hokm.server.headers import SecurityHeaders

WEB = Path(__file__).resolve().parent.parent / "src" / "hokm" / "web"


async def _ok(request: Request) -> JSONResponse:
    return JSONResponse({"ok": True})


def _app(headers: bool) -> Starlette:
    middleware = [Middleware(SecurityHeaders, web_dir=WEB)] if headers else []
    return Starlette(routes=[Route("/", _ok)], middleware=middleware)


async def _pass(app: Starlette, calls: int) -> float:
    """Microseconds per request."""
    scope: dict[str, Any] = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": "/",
        "raw_path": b"/",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
        "headers": [(b"host", b"hokm.example:8000")],
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        return None

    start = time.perf_counter()
    for _ in range(calls):
        await app(dict(scope), receive, send)
    return (time.perf_counter() - start) / calls * 1e6


async def main(calls: int) -> None:
    plain, secured = _app(False), _app(True)
    for app in (plain, secured):  # warm up
        await _pass(app, max(1, calls // 10))
    times: dict[str, list[float]] = {"without the headers": [], "with the headers": []}
    for _ in range(5):
        times["without the headers"].append(await _pass(plain, calls))
        times["with the headers"].append(await _pass(secured, calls))
    for name, values in times.items():
        print(f"{name}: {statistics.median(values):.1f} µs a request (median of 5)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    asyncio.run(main(parser.parse_args().calls))
