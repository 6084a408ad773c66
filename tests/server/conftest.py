"""Fixtures: a real server (uvicorn on a free port) on a fresh SQLite database per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.server.helpers import running_server, settings


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[str]:
    async with running_server(settings(tmp_path / "hokm.db")) as url:
        yield url
