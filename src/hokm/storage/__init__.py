"""Persistence behind a small interface: SQLite (WAL) by default, PostgreSQL by URL.

The server keeps every table as an append-only event log plus periodic snapshots; finished
games are stored as ``hokm-record/1`` documents. See :class:`Storage`.
"""

from hokm.storage.base import (
    DEFAULT_URL,
    GameSummary,
    PlayerRow,
    RoomRow,
    StorageError,
    StoredEvent,
    VersionConflictError,
    database_url,
)
from hokm.storage.sql import SqlStorage, open_storage

__all__ = [
    "DEFAULT_URL",
    "GameSummary",
    "PlayerRow",
    "RoomRow",
    "SqlStorage",
    "StorageError",
    "StoredEvent",
    "VersionConflictError",
    "database_url",
    "open_storage",
]
