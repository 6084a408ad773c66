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
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

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


async def end_the_session_holding_the_lock(store: SqlStorage) -> None:
    """What a restart of PostgreSQL does to the connection holding a server's lock."""
    held = store._serving
    assert held is not None and not isinstance(held, int)
    pid = (await held.execute(sa.text("SELECT pg_backend_pid()"))).scalar()
    await held.rollback()
    engine = create_async_engine(PG_URL)
    try:
        async with engine.connect() as conn:
            await conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        await engine.dispose()
