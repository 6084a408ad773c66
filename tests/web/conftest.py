"""Browser tests of the web client: a real ``hokm serve`` on a free port, Debian's chromium.

The server runs as a subprocess with a fresh SQLite database, fast bots and a short pause
between hands. Chromium is driven by Playwright (never ``playwright install``: the system
chromium at /usr/bin/chromium is used).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = os.environ.get("HOKM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("HOKM_SHOTS", Path(tempfile.gettempdir()) / "hokm-web-shots"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"hokm serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=1) as res:
                if res.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("hokm serve did not become healthy")


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The base URL of a running ``hokm serve`` (fast bots, short pause between hands)."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="hokm-web-") as tmp:
        db = Path(tmp) / "web.db"
        cmd = [
            sys.executable,
            "-m",
            "hokm",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-workers",
            "0",
            "--bot-delay",
            "0.05",
            "--hand-pause",
            "0.2",
            "--log-level",
            "warning",
        ]
        log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, proc)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: Browser, server: str) -> Iterator[Callable[..., Page]]:
    """Open pages in fresh browser contexts (separate cookies and storage: separate players)."""
    contexts: list[BrowserContext] = []

    def make(
        *,
        viewport: dict[str, int] | None = None,
        lang: str | None = None,
        csp: bool = False,
        touch: bool = False,
    ) -> Page:
        # The server's Content-Security-Policy forbids eval, which Playwright's string
        # predicates (wait_for_function) use in the page: it is set aside, except where a
        # test asks for it (``csp``: the pages under the policy, as a browser keeps it).
        context = browser.new_context(
            viewport=viewport or DESKTOP,
            base_url=server,
            reduced_motion="reduce",
            bypass_csp=not csp,
            has_touch=touch,  # a phone's touch screen: (pointer: coarse)
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        tag = f"page{len(contexts)}"
        page.on("pageerror", lambda e: print(f"[{tag}] page error: {e}"))
        page.on("console", lambda m: print(f"[{tag}] console {m.type}: {m.text}"))
        page.on(
            "response",
            lambda r: print(f"[{tag}] HTTP {r.status} {r.url}") if r.status >= 400 else None,
        )
        if lang:
            page.add_init_script(f"localStorage.setItem('hokm.lang', '{lang}')")
        return page

    yield make
    for context in contexts:
        context.close()


def shot(page: Page, name: str) -> Path:
    """Save a screenshot under ``SHOTS`` (looked at by hand; not compared)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path
