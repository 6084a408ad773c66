"""Accounts fixtures: storage-backed tests run on SQLite and on PostgreSQL.

PostgreSQL is ``HOKM_TEST_PG_URL`` (default: the local ``test`` database); each test uses
tables with its own random prefix and drops them afterwards.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from hokm.accounts.security import LoginLimiter
from hokm.accounts.store import AccountStore
from hokm.storage import SqlStorage
from tests.accounts.live import Live, live_server

PG_URL = os.environ.get("HOKM_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """(database URL, table prefix) for one backend."""
    if request.param == "sqlite":
        return str(tmp_path / "hokm.db"), "hokm_"
    return PG_URL, f"ta{secrets.token_hex(4)}_"


@pytest.fixture
async def store(db_url: tuple[str, str]) -> AsyncIterator[AccountStore]:
    async with _store(*db_url) as accounts:
        yield accounts


@pytest.fixture
async def pg_store() -> AsyncIterator[AccountStore]:
    """A store on PostgreSQL only: for what two processes writing at once can do (SQLite
    has one writer at a time)."""
    async with _store(PG_URL, f"ta{secrets.token_hex(4)}_") as accounts:
        yield accounts


@contextlib.asynccontextmanager
async def _store(url: str, prefix: str) -> AsyncIterator[AccountStore]:
    storage = SqlStorage(url, prefix=prefix)
    await storage.start()
    accounts = AccountStore(storage)
    await accounts.start()
    try:
        yield accounts
    finally:
        if not storage.is_sqlite:
            await accounts.drop_all()
            await storage.drop_all()
        await storage.close()


@pytest_asyncio.fixture(params=["sqlite", "postgresql"], scope="module", loop_scope="module")
async def live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Live]:
    """A running server with accounts, on each backend, shared by one test module.

    Tests use their own usernames; the login limiter is reset before each test.
    """
    db = tmp_path_factory.mktemp("live") / "live.db"
    with pytest.MonkeyPatch.context() as monkeypatch:
        async with live_server(request.param, str(db), PG_URL, monkeypatch) as server:
            yield server


@pytest.fixture(autouse=True)
def _fresh_limiter(request: pytest.FixtureRequest) -> None:
    if "live" in request.fixturenames:
        live: Live = request.getfixturevalue("live")
        live.accounts.service.limiter = LoginLimiter()
