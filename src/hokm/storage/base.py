"""The storage vocabulary: rows, errors and the database URL.

>>> database_url(None, env={})
'sqlite+aiosqlite:///var/hokm.db'
>>> database_url("var/x.db", env={})
'sqlite+aiosqlite:///var/x.db'
>>> database_url(None, env={"HOKM_DATABASE_URL": "postgresql+asyncpg://u@h/db"})
'postgresql+asyncpg://u@h/db'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DEFAULT_URL",
    "GameSummary",
    "PlayerRow",
    "RoomRow",
    "StorageError",
    "StoredEvent",
    "VersionConflictError",
    "database_url",
]

DEFAULT_URL = "sqlite+aiosqlite:///var/hokm.db"


def database_url(value: str | None, *, env: Mapping[str, str] | None = None) -> str:
    """The SQLAlchemy URL for ``value`` (a URL or a SQLite file path), else the environment.

    ``HOKM_DATABASE_URL`` wins when ``value`` is None; a plain ``postgresql://`` URL gets the
    asyncpg driver and a plain path becomes a SQLite file.
    """
    env = os.environ if env is None else env
    url = value or env.get("HOKM_DATABASE_URL") or DEFAULT_URL
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
    elif url.startswith("sqlite://") and "+aiosqlite" not in url:
        url = "sqlite+aiosqlite://" + url.split("://", 1)[1]
    elif "://" not in url:
        url = "sqlite+aiosqlite:///" + url
    return url


class StorageError(Exception):
    """The database refused an operation (a bug or an outage, not bad user input)."""


class VersionConflictError(StorageError):
    """An event with this table version is already stored: two writers for one table."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One entry of a table's append-only log: its version and JSON data."""

    version: int
    data: dict[str, Any]
    at: int  # Unix milliseconds


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    name: str
    kind: str = "guest"
    created_at: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RoomRow:
    code: str
    owner: str
    status: str
    created_at: int
    active: bool = True


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished (or cancelled) game: the REST listing row of ``GET /api/rooms/{code}/games``."""

    game_id: str
    code: str
    number: int
    finished_at: int
    winner_team: int | None
    score: tuple[int, int]
    cancelled: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "code": self.code,
            "number": self.number,
            "finished_at": self.finished_at,
            "winner_team": self.winner_team,
            "score": list(self.score),
            "cancelled": self.cancelled,
        }
