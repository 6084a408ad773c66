"""Storage fixtures: every storage test runs on SQLite and on PostgreSQL.

PostgreSQL is the server at ``HOKM_TEST_PG_URL`` (default: the local test database); each
test uses tables with its own random prefix and drops them afterwards, so runs never collide.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hokm.storage import SqlStorage

PG_URL = os.environ.get("HOKM_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


@pytest.fixture(params=["sqlite", "postgresql"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStorage]:
    if request.param == "sqlite":
        store = SqlStorage(str(tmp_path / "hokm.db"))
    else:
        store = SqlStorage(PG_URL, prefix=f"t{secrets.token_hex(4)}_")
    await store.start()
    try:
        yield store
    finally:
        if request.param == "postgresql":
            await store.drop_all()
        await store.close()
