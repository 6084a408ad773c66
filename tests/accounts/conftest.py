"""Accounts fixtures: storage-backed tests run on SQLite and on PostgreSQL.

PostgreSQL is ``HOKM_TEST_PG_URL`` (default: the local ``test`` database); each test uses
tables with its own random prefix and drops them afterwards.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hokm.accounts.store import AccountStore
from hokm.storage import SqlStorage

PG_URL = os.environ.get("HOKM_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """(database URL, table prefix) for one backend."""
    if request.param == "sqlite":
        return str(tmp_path / "hokm.db"), "hokm_"
    return PG_URL, f"ta{secrets.token_hex(4)}_"


@pytest.fixture
async def store(db_url: tuple[str, str]) -> AsyncIterator[AccountStore]:
    url, prefix = db_url
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
