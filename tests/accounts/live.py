"""A real server (uvicorn on a free port, in this process) with accounts, on SQLite or PostgreSQL.

On PostgreSQL every server gets tables with its own random prefix (dropped afterwards), so test
runs never see each other's data.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette

from hokm.accounts.store import AccountStore
from hokm.client import ClientError, HokmClient, ServerError
from hokm.server import Settings, accounts_api, create_app
from hokm.server.accounts_api import AccountsState, RoomStarter, SessionAuthenticator
from hokm.storage import SqlStorage
from hokm.table import TableConfig
from hokm.table.model import GameResult

FAST = TableConfig(bot_delay=0.0, hand_pause=0.0, restore_grace=0.2)
CHEAP_ARGON2 = {"time_cost": 1, "memory_cost": 1024, "parallelism": 1}


@dataclass
class Live:
    url: str
    app: Starlette
    opened: list[httpx.AsyncClient] = field(default_factory=list)

    @property
    def accounts(self) -> AccountsState:
        for authenticator in self.app.state.hokm.auth.authenticators:
            if isinstance(authenticator, SessionAuthenticator) and authenticator.state:
                return authenticator.state
        raise AssertionError("accounts are not installed")

    @property
    def store(self) -> AccountStore:
        return self.accounts.service.store

    def http(self, **kwargs: Any) -> httpx.AsyncClient:
        """An HTTP client (closed with the server if the test does not close it)."""
        client = httpx.AsyncClient(base_url=self.url, timeout=10, **kwargs)
        self.opened.append(client)
        return client

    async def account(self, username: str, password: str = "password-1") -> httpx.AsyncClient:
        """An HTTP client logged in as a new account (the session is in its cookie jar)."""
        http = self.http()
        response = await http.post(
            "/api/accounts/register", json={"username": username, "password": password}
        )
        assert response.status_code == 201, response.text
        return http

    async def ws(self, http: httpx.AsyncClient) -> HokmClient:
        """A connected WebSocket client with the session of ``http`` (as hello token)."""
        client = HokmClient(self.url, token=http.cookies["hokm_session"])
        await client.connect()
        return client


@contextlib.asynccontextmanager
async def live_server(
    backend: str,
    db_path: str,
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
    *,
    prefix: str | None = None,
    drop: bool = True,
    **changes: Any,
) -> AsyncIterator[Live]:
    """A server with accounts; ``prefix``: its database tables' (default: a random one);
    ``drop``: drop a PostgreSQL prefix's tables afterwards; ``changes``: other settings."""
    monkeypatch.setattr(accounts_api, "PASSWORD_PARAMS", CHEAP_ARGON2)
    prefix = prefix or f"tl{secrets.token_hex(4)}_"
    url = pg_url if backend == "postgresql" else f"sqlite+aiosqlite:///{db_path}"
    settings = Settings(database_url=url, bot_workers=0, secret="test-secret", table_prefix=prefix)
    config = dataclasses.replace(settings, table=FAST, **changes)
    app = create_app(config)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    )
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    task = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    live = Live(f"http://127.0.0.1:{port}", app)
    starter = live.accounts.quick.start_match
    assert isinstance(starter, RoomStarter)
    starter.overrides = {"target_points": 1}  # games that are played out last one hand
    try:
        yield live
    finally:
        for client in live.opened:
            await client.aclose()
        server.should_exit = True
        await task
        await asyncio.gather(*starter.tasks)  # they end once the rooms are stopped
        if backend == "postgresql" and drop:
            storage = SqlStorage(pg_url, prefix=prefix)
            await AccountStore(storage).drop_all()
            await storage.drop_all()
            await storage.engine.dispose()


def game_over(client: HokmClient) -> bool:
    return any((e.get("event") or {}).get("kind") == "game_result" for e in client.events)


def game_result(client: HokmClient) -> GameResult:
    frame = next(e for e in client.events if (e.get("event") or {}).get("kind") == "game_result")
    data = {k: v for k, v in frame["event"].items() if k != "kind"}
    return GameResult.from_dict(data)


async def autoplay(client: HokmClient) -> None:
    """Play the first legal action whenever this client has one, until the game's result."""
    give_up = time.monotonic() + 90
    while not game_over(client):
        assert time.monotonic() < give_up, "the game did not end"
        legal = client.legal
        if not legal:
            with contextlib.suppress(ClientError):
                await client.wait_for(lambda c: bool(c.legal) or game_over(c), timeout=0.5)
            continue
        seen = client.version
        action = {k: v for k, v in legal[0].items() if k != "seat"}
        try:
            await client.act(action)
        except ServerError as exc:  # a race with the table's own move: look again
            if exc.code not in ("stale_version", "not_your_turn", "wrong_phase"):
                raise
        with contextlib.suppress(ClientError):
            await client.wait_for(lambda c, v=seen: c.version != v or game_over(c), timeout=0.5)
