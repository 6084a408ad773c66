"""SQLAlchemy 2 (async) storage for SQLite (WAL) and PostgreSQL.

Writes go through one writer task that commits whatever is queued in one transaction
(group commit): many tables appending events at once cost one commit, and SQLite never sees
two writers. A write returns only after its transaction is committed, so the server can
acknowledge and broadcast an action once ``append_events`` has returned.

With SQLite the writer commits on the event loop's own thread, through the plain ``sqlite3``
driver: a WAL commit with ``synchronous=NORMAL`` does no ``fsync`` and costs a fraction of a
millisecond, while handing it to a thread made every commit wait for that thread to be
scheduled and to take the GIL (under load, p99 move latency 173 ms against 22 ms inline).
The ``fsync``-ing part, the WAL checkpoint, is taken off the loop: automatic checkpoints are
off on the write connection and a PASSIVE checkpoint runs in a background thread every
``checkpoint_every`` commits (it never blocks the writer; readers keep working meanwhile).

Every table name starts with a prefix (``hokm_`` by default), so test runs can use their own
tables in a shared database and drop them afterwards.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from hokm.storage.base import (
    GameSummary,
    PlayerRow,
    RoomRow,
    StorageError,
    StoredEvent,
    VersionConflictError,
    database_url,
)

__all__ = ["SqlStorage", "open_storage"]

log = logging.getLogger(__name__)
T = TypeVar("T")
WriteFn = Callable[[sa.Connection], Any]


def _now_ms() -> int:
    return int(time.time() * 1000)


def _dump(data: Any) -> str:
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


class _Tables:
    """The schema, with every table name prefixed."""

    def __init__(self, prefix: str) -> None:
        md = self.metadata = sa.MetaData()
        self.settings = sa.Table(
            f"{prefix}settings",
            md,
            sa.Column("key", sa.String(64), primary_key=True),
            sa.Column("value", sa.Text, nullable=False),
        )
        self.players = sa.Table(
            f"{prefix}players",
            md,
            sa.Column("id", sa.String(64), primary_key=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("created_at", sa.BigInteger, nullable=False),
            sa.Column("updated_at", sa.BigInteger, nullable=False),
            sa.Column("extra", sa.Text, nullable=False),
        )
        self.rooms = sa.Table(
            f"{prefix}rooms",
            md,
            sa.Column("code", sa.String(16), primary_key=True),
            sa.Column("owner", sa.String(64), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("created_at", sa.BigInteger, nullable=False),
            sa.Column("updated_at", sa.BigInteger, nullable=False),
            sa.Column("active", sa.Boolean, nullable=False),
        )
        # Who held a seat in a game in progress when the room left memory (``/api/session``
        # offers it to them from any browser); rewritten each time the room is unloaded.
        self.seated = sa.Table(
            f"{prefix}room_seated",
            md,
            sa.Column("code", sa.String(16), primary_key=True),
            sa.Column("player_id", sa.String(64), primary_key=True, index=True),
        )
        self.events = sa.Table(
            f"{prefix}table_events",
            md,
            sa.Column("code", sa.String(16), primary_key=True),
            sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("at", sa.BigInteger, nullable=False),
            sa.Column("data", sa.Text, nullable=False),
        )
        self.snapshots = sa.Table(
            f"{prefix}table_snapshots",
            md,
            sa.Column("code", sa.String(16), primary_key=True),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("at", sa.BigInteger, nullable=False),
            sa.Column("data", sa.Text, nullable=False),
        )
        self.games = sa.Table(
            f"{prefix}games",
            md,
            sa.Column("game_id", sa.String(40), primary_key=True),
            sa.Column("code", sa.String(16), nullable=False, index=True),
            sa.Column("number", sa.Integer, nullable=False),
            sa.Column("finished_at", sa.BigInteger, nullable=False),
            sa.Column("winner_team", sa.Integer, nullable=True),
            sa.Column("score", sa.String(32), nullable=False),
            sa.Column("cancelled", sa.Boolean, nullable=False),
            sa.Column("record", sa.Text, nullable=False),
        )


def _schema_differences(conn: sa.Connection, metadata: sa.MetaData) -> list[str]:
    """What keeps the existing tables of ``metadata`` from being used: columns missing, and
    columns of their own that need a value this version would not give."""
    inspector = sa.inspect(conn)
    wrong: list[str] = []
    for table in metadata.sorted_tables:
        if not inspector.has_table(table.name):
            continue  # (``create_all`` makes it as this version has it)
        have = {c["name"]: c for c in inspector.get_columns(table.name)}
        missing = [c.name for c in table.columns if c.name not in have]
        if missing:
            wrong.append(f"table {table.name} lacks {', '.join(missing)}")
        needed = [
            name
            for name, c in have.items()
            if name not in table.columns
            and not c.get("nullable", True)
            and c.get("default") is None
            and c.get("autoincrement") is not True
        ]
        if needed:
            wrong.append(f"table {table.name} has required columns {', '.join(needed)}")
    return wrong


class _Write:
    """A queued write: a function, or (``fn`` None) event-log rows, which the writer merges
    with the other queued rows into one multi-row insert."""

    __slots__ = ("fn", "future", "rows")

    def __init__(
        self,
        fn: WriteFn | None,
        future: asyncio.Future[Any],
        rows: list[dict[str, Any]] | None = None,
    ) -> None:
        self.fn = fn
        self.future = future
        self.rows = rows


class SqlStorage:
    """The one storage implementation (SQLite or PostgreSQL, chosen by the URL).

    Use :func:`open_storage`, or construct and ``await storage.start()``; ``await
    storage.close()`` at the end.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        prefix: str = "hokm_",
        batch: int = 512,
        checkpoint_every: int = 256,
    ) -> None:
        self.url = database_url(url)
        self.checkpoint_every = checkpoint_every
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Future[None] | None = None
        self.prefix = prefix
        self.batch = batch
        self.t = _Tables(prefix)
        self.is_sqlite = self.url.startswith("sqlite")
        self._sync_engine: sa.Engine | None = None
        # What says this process serves the database (:meth:`hold_serving`): a SQLite file's
        # descriptor under flock, or the PostgreSQL connection holding an advisory lock.
        self._serving: int | AsyncConnection | None = None
        self._serving_shared: bool | None = None  # as hold_serving was asked (None: never)
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self.engine: AsyncEngine = self._make_engine()
        self._queue: asyncio.Queue[_Write | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed by the writer (for benchmarks)
        self._last_ping = True  # the last answer of ping(), to log its changes once
        # Why writes fail (a full disk, a read-only file…), from the first failure to the next
        # commit that works: logged once with its traceback, then counted, not logged again.
        self.writes_failing: str | None = None
        self._failed_writes = 0

    # ------------------------------------------------------------------ life cycle

    def _make_engine(self) -> AsyncEngine:
        if not self.is_sqlite:
            return create_async_engine(self.url, pool_size=5, max_overflow=5)
        database = make_url(self.url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(self.url, connect_args={"timeout": 30})
        _sqlite_pragmas(engine.sync_engine)
        # Writes use the plain sqlite3 driver in one dedicated thread: a whole batch is one
        # hop to that thread instead of one per statement.
        sync_url = make_url(self.url).set(drivername="sqlite")
        self._sync_engine = sa.create_engine(
            sync_url, connect_args={"timeout": 30, "check_same_thread": False}
        )
        _sqlite_pragmas(self._sync_engine, autocheckpoint=False)
        self._thread = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix="sqlite-checkpoint"
        )
        return engine

    async def start(self) -> None:
        """Create missing tables, check the existing ones have this version's columns, and
        start the writer."""
        try:
            async with self.engine.begin() as conn:
                await self.schema_lock(conn)
                await conn.run_sync(self.t.metadata.create_all)
                await self.check_columns(conn, self.t.metadata)
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot open the database {self._safe_url()}: {exc}") from exc
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    async def check_columns(self, conn: AsyncConnection, metadata: sa.MetaData) -> None:
        """Refuse, in one clear error, tables that ``create_all`` found already there but
        without a column this version reads, or with a required column it does not write (a
        database of another version of hokm, which has no schema migrations): the server would
        otherwise start and fail at its first query of them, in the middle of a game."""
        wrong = await conn.run_sync(_schema_differences, metadata)
        if wrong:
            raise StorageError(
                f"the database, {self.describe()}, was made by another version of hokm: "
                f"{'; '.join(wrong)} (hokm has no schema migrations yet: use a new database, "
                "or alter these tables to match)"
            )

    async def schema_lock(self, conn: AsyncConnection) -> None:
        """Hold the lock under which tables are created until ``conn``'s transaction ends:
        several processes starting at once on a new database create them one after the
        other, each finding the tables of those before it (SQLite: the write lock)."""
        if self.is_sqlite:
            await conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            key = zlib.crc32(f"hokm schema {self.prefix}".encode())
            await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})

    async def hold_serving(self, *, shared: bool) -> None:
        """Say, for as long as this storage is open, that a server serves this database:
        alone (``shared`` False) or as one process of a cluster (``shared``, all through one
        Redis). A second server alone on a database another serves, or a cluster's process on
        one a server alone serves, is refused (:class:`StorageError`): two servers that do
        not know of each other load the same rooms and write their logs and snapshots over
        each other's. SQLite: ``flock`` of the database file (the operator's tools, ``hokm
        accounts`` and ``hokm prune``, do not take it); PostgreSQL: an advisory lock on a
        connection held open (``pg_try_advisory_lock``, shared for a cluster's processes)."""
        if self._serving is not None:
            return
        alone = (
            "another hokm serve uses this database ({where}): stop it first, or run every "
            "process with the same --redis to share it"
        )
        clustered = (
            "a hokm serve without --redis uses this database ({where}): stop it before "
            "starting the processes of a cluster on it"
        )
        if self.is_sqlite:
            file = make_url(self.url).database
            if not file or file == ":memory:":
                return
            try:
                import fcntl
            except ImportError:  # pragma: no cover - not on Windows
                return
            fd = os.open(file, os.O_RDONLY)
            try:
                fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise StorageError(
                    (clustered if shared else alone).format(where=self.describe())
                ) from None
            self._serving = fd
            return
        key = zlib.crc32(f"hokm serve {self.prefix}".encode())
        conn = await self.engine.connect()
        try:
            call = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
            held = (await conn.execute(sa.text(f"SELECT {call}(:key)"), {"key": key})).scalar()
            await conn.commit()  # (a session's lock outlives the transaction)
        except BaseException:
            await conn.close()
            raise
        if not held:
            await conn.close()
            raise StorageError((clustered if shared else alone).format(where=self.describe()))
        self._serving = conn
        self._serving_shared = shared

    async def keep_serving(self, timeout: float = 5.0) -> bool | None:
        """Whether this process still holds what says it serves the database
        (:meth:`hold_serving`): True, taking it again if it was lost (a PostgreSQL restart
        ends the session that held the advisory lock, and a second server could then start);
        False when another server took it meanwhile; None when the database does not answer
        (asked again later). SQLite's ``flock`` lives with its descriptor: always True."""
        serving = self._serving
        # (set by PostgreSQL's hold alone: SQLite's, a memory database's, or none at all)
        if self._serving_shared is None or isinstance(serving, int):
            return True
        if serving is not None:
            try:
                await asyncio.wait_for(serving.execute(sa.text("SELECT 1")), timeout)
                await serving.rollback()
                return True
            except Exception as exc:
                log.warning(
                    "the connection holding this server's lock on %s dropped (%s): taking it again",
                    self._safe_url(),
                    f"{type(exc).__name__}: {exc}"[:200],
                )
                self._serving = None
                with contextlib.suppress(Exception):
                    await serving.invalidate()
                with contextlib.suppress(Exception):
                    await serving.close()
        try:
            await asyncio.wait_for(self.hold_serving(shared=self._serving_shared), timeout)
        except StorageError as exc:
            log.error("%s", exc)
            return False
        except Exception:
            return None
        log.info("this server's lock on %s is held again", self._safe_url())
        return True

    async def _release_serving(self) -> None:
        serving, self._serving = self._serving, None
        self._serving_shared = None
        if isinstance(serving, int):
            os.close(serving)  # (the lock goes with the descriptor)
        elif serving is not None:
            with contextlib.suppress(Exception):
                await serving.close()

    async def close(self) -> None:
        if self._writer is not None:
            await self._queue.put(None)
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._checkpointing is not None:
            with contextlib.suppress(Exception):
                await self._checkpointing
            self._checkpointing = None
        await self._release_serving()  # (after the last write: the next server starts after it)
        await self.engine.dispose()
        if self._thread is not None:
            self._thread.shutdown(wait=True)
        if self._sync_engine is not None:
            self._sync_engine.dispose()

    async def drop_all(self) -> None:
        """Drop this prefix's tables (tests)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(self.t.metadata.drop_all)

    async def ping(self, timeout: float = 2.0) -> bool:
        """Whether the database answers a trivial query within ``timeout`` seconds and the
        writer task that stores everything is alive. A change of answer is logged once."""

        async def query() -> None:
            async with self.engine.connect() as conn:
                await conn.execute(sa.text("SELECT 1"))

        async def probe() -> None:  # a real write: a full disk takes no UPDATE of nothing
            await self._write(self._probe_write)

        up = True
        if self._writer is not None and self._writer.done():
            up, why = False, "the writer task has stopped"
        else:
            try:
                await asyncio.wait_for(query(), timeout)
                if self.writes_failing is not None:  # reads work; do writes again?
                    await asyncio.wait_for(probe(), timeout)
            except Exception as exc:
                up, why = False, f"{type(exc).__name__}: {exc}"[:300]
        if up != self._last_ping:
            if up:
                log.info("the database answers again (%s)", self._safe_url())
            else:
                log.warning("the database does not answer (%s): %s", self._safe_url(), why)
            self._last_ping = up
        return up

    def _probe_write(self, conn: sa.Connection) -> None:
        t = self.t.settings
        conn.execute(t.delete().where(t.c.key == "health_probe"))
        conn.execute(t.insert().values(key="health_probe", value=str(_now_ms())))

    def describe(self) -> str:
        """Where the data lives, for the operator's log (no password; a SQLite file by its
        absolute path: ``sqlite:///tmp/x.db`` is ``./tmp/x.db``, which the URL hides)."""
        url = make_url(self.url)
        if url.drivername.startswith("sqlite") and url.database not in (None, "", ":memory:"):
            where = f"SQLite file {Path(url.database).resolve()}"
        else:
            where = self._safe_url()
        return f"{where} (tables {self.prefix}*)"

    def _safe_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    # ------------------------------------------------------------------ the writer

    async def _write(self, fn: WriteFn | None, rows: list[dict[str, Any]] | None = None) -> Any:
        if self._writer is None:
            raise StorageError("storage is not started")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Write(fn, future, rows))
        return await future

    async def _write_loop(self) -> None:
        while True:
            first = await self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.batch and not self._queue.empty():
                item = self._queue.get_nowait()
                if item is None:
                    stop = True
                    break
                batch.append(item)
            await self._commit_batch(batch)
            if stop:
                return

    def _run_sync(self, conn: sa.Connection, batch: list[_Write]) -> list[Any]:
        # Every statement is a round trip to the driver, so all queued event-log rows go in
        # one multi-row insert.
        rows = [row for item in batch if item.rows for row in item.rows]
        if rows:
            conn.execute(self.t.events.insert(), rows)
        return [None if item.fn is None else item.fn(conn) for item in batch]

    def _sqlite_batch(self, batch: list[_Write]) -> list[Any]:
        assert self._sync_engine is not None
        with self._sync_engine.begin() as conn:
            return self._run_sync(conn, batch)

    async def _run(self, batch: list[_Write]) -> list[Any]:
        if self._sync_engine is not None:
            results = self._sqlite_batch(batch)  # on this thread: see the module docstring
            self._since_checkpoint += 1
            if self._since_checkpoint >= self.checkpoint_every and self._checkpointing is None:
                self._start_checkpoint()
        else:
            async with self.engine.begin() as conn:
                results = await conn.run_sync(self._run_sync, batch)
        self.commits += 1
        if self.writes_failing is not None:
            log.warning(
                "storage writes work again (%d failed meanwhile; %s)",
                self._failed_writes,
                self._safe_url(),
            )
            self.writes_failing, self._failed_writes = None, 0
        return results

    def _start_checkpoint(self) -> None:
        assert self._thread is not None
        self._since_checkpoint = 0
        future = asyncio.get_running_loop().run_in_executor(self._thread, self._checkpoint)
        self._checkpointing = future

        def finished(f: asyncio.Future[None]) -> None:
            self._checkpointing = None
            if not f.cancelled() and f.exception() is not None:
                log.warning("WAL checkpoint failed: %s", f.exception())

        future.add_done_callback(finished)

    def _checkpoint(self) -> None:
        """Copy committed WAL pages into the database file (PASSIVE: never waits for the
        writer or readers). Runs in the background thread."""
        assert self._sync_engine is not None
        with self._sync_engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def _commit_batch(self, batch: list[_Write]) -> None:
        if len(batch) > 1:
            try:
                results = await self._run(batch)
            except Exception:
                # One write failed: commit the others one by one, so only it gets the error.
                for item in batch:
                    await self._commit_batch([item])
                return
            for item, result in zip(batch, results, strict=True):
                if not item.future.done():
                    item.future.set_result(result)
            return
        item = batch[0]
        try:
            (result,) = await self._run(batch)
        except IntegrityError as exc:
            _fail(item, VersionConflictError(str(exc.orig)))
        except SQLAlchemyError as exc:
            self._failed_writes += 1
            if self.writes_failing is None:  # once an outage: then counted, said at its end
                log.exception("storage write failed; later failures are counted until one works")
                self.writes_failing = str(exc.orig if isinstance(exc, DBAPIError) else exc)[:300]
            _fail(item, StorageError(str(exc)))
        except Exception as exc:  # a bug in a write function
            log.exception("storage write failed")
            _fail(item, exc)
        else:
            if not item.future.done():
                item.future.set_result(result)

    # ------------------------------------------------------------------ settings

    async def setting(self, key: str, default: str) -> str:
        """The stored value of ``key``; stores ``default`` first if there is none."""
        t = self.t.settings

        def write(conn: sa.Connection) -> str:
            row = (conn.execute(sa.select(t.c.value).where(t.c.key == key))).first()
            if row is not None:
                return str(row[0])
            conn.execute(t.insert().values(key=key, value=default))
            return default

        try:
            return str(await self._write(write))
        except VersionConflictError:  # another process stored one meanwhile: that one
            return str(await self._write(write))

    # ------------------------------------------------------------------ players

    async def save_player(self, player: PlayerRow) -> None:
        """Insert or update a player (name, kind, extra)."""
        t = self.t.players
        now = _now_ms()

        def write(conn: sa.Connection) -> None:
            values = {"name": player.name, "kind": player.kind, "extra": _dump(player.extra)}
            result = conn.execute(
                t.update().where(t.c.id == player.id).values(updated_at=now, **values)
            )
            if result.rowcount == 0:
                created = player.created_at or now
                conn.execute(
                    t.insert().values(id=player.id, created_at=created, updated_at=now, **values)
                )

        await self._write(write)

    async def get_player(self, player_id: str) -> PlayerRow | None:
        t = self.t.players
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(t).where(t.c.id == player_id))).first()
        if row is None:
            return None
        return PlayerRow(row.id, row.name, row.kind, row.created_at, json.loads(row.extra))

    # ------------------------------------------------------------------ rooms

    async def create_room(self, room: RoomRow) -> bool:
        """Insert a new room; False if the code is taken."""
        t = self.t.rooms

        def write(conn: sa.Connection) -> bool:
            exists = (conn.execute(sa.select(t.c.code).where(t.c.code == room.code))).first()
            if exists is not None:
                return False
            conn.execute(
                t.insert().values(
                    code=room.code,
                    owner=room.owner,
                    status=room.status,
                    created_at=room.created_at,
                    updated_at=room.created_at,
                    active=room.active,
                )
            )
            return True

        return bool(await self._write(write))

    async def update_room(
        self,
        code: str,
        *,
        status: str | None = None,
        owner: str | None = None,
        active: bool | None = None,
    ) -> None:
        t = self.t.rooms
        values: dict[str, Any] = {"updated_at": _now_ms()}
        if status is not None:
            values["status"] = status
        if owner is not None:
            values["owner"] = owner
        if active is not None:
            values["active"] = active

        def write(conn: sa.Connection) -> None:
            conn.execute(t.update().where(t.c.code == code).values(**values))

        await self._write(write)

    async def set_seated(self, code: str, players: Sequence[str]) -> None:
        """The players seated in the room's game in progress (none: no game goes on)."""
        t = self.t.seated

        def write(conn: sa.Connection) -> None:
            conn.execute(t.delete().where(t.c.code == code))
            if players:
                conn.execute(t.insert(), [{"code": code, "player_id": p} for p in set(players)])

        await self._write(write)

    async def seated_rooms(self, player_id: str) -> list[str]:
        """Rooms whose game was in progress with ``player_id`` seated when they were unloaded
        (:meth:`set_seated`); a room loaded since may have moved on."""
        t = self.t.seated
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(t.c.code).where(t.c.player_id == player_id))
            return sorted(row.code for row in rows)

    async def get_room(self, code: str) -> RoomRow | None:
        t = self.t.rooms
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(t).where(t.c.code == code))).first()
        return None if row is None else _room(row)

    async def active_rooms(self) -> list[RoomRow]:
        """Rooms to bring back after a restart."""
        t = self.t.rooms
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(t).where(t.c.active.is_(True)))).all()
        return [_room(row) for row in rows]

    # ------------------------------------------------------------------ table event log

    async def append_events(
        self,
        code: str,
        first_version: int,
        events: Sequence[dict[str, Any]],
        *,
        at: int | None = None,
    ) -> None:
        """Append events with versions ``first_version, first_version + 1, …``; committed on return.

        Raises :class:`VersionConflictError` if one of those versions is already stored.
        """
        if not events:
            return
        when = _now_ms() if at is None else at
        rows = [
            {"code": code, "version": first_version + i, "at": when, "data": _dump(data)}
            for i, data in enumerate(events)
        ]
        await self._write(None, rows)

    async def rooms_with_tail(self) -> list[str]:
        """Rooms with stored events after their snapshot (the server stopped without taking
        its final snapshot of them), by code."""
        e, s = self.t.events, self.t.snapshots
        later = sa.exists().where(e.c.code == s.c.code, e.c.version > s.c.version)
        query = sa.select(s.c.code).where(later).order_by(s.c.code)
        async with self.engine.connect() as conn:
            return [row.code for row in (await conn.execute(query)).all()]

    async def events_after(
        self, code: str, version: int, *, limit: int | None = None
    ) -> list[StoredEvent]:
        """Stored events with a version greater than ``version``, in order."""
        t = self.t.events
        query = (
            sa.select(t.c.version, t.c.at, t.c.data)
            .where(t.c.code == code, t.c.version > version)
            .order_by(t.c.version)
        )
        if limit is not None:
            query = query.limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [StoredEvent(row.version, json.loads(row.data), row.at) for row in rows]

    async def last_version(self, code: str) -> int:
        t = self.t.events
        async with self.engine.connect() as conn:
            value = (
                await conn.execute(sa.select(sa.func.max(t.c.version)).where(t.c.code == code))
            ).scalar()
        return int(value or 0)

    async def prune_inputs(
        self, before: int, *, dry_run: bool = False, rows_per_commit: int = 2000
    ) -> tuple[int, int, int]:
        """Delete the inputs stored before ``before`` (Unix ms) that lie before their room's
        snapshot: a room is rebuilt from its snapshot and the inputs after it, so these are
        never read again. The snapshot's own input and every later one stay (``last_version``
        and the version guard see the same log), and a room without a snapshot keeps all.

        Returns (rows, bytes of their data, rooms), the bytes as counted before the delete;
        with ``dry_run`` only counts them. At most ``rows_per_commit`` inputs go in one
        commit (small rooms together, a long-lived room's log in ranges of versions), so a
        server using the database meanwhile never waits long for the write lock.
        """
        e, s = self.t.events, self.t.snapshots
        snapshot_version = sa.select(s.c.version).where(s.c.code == e.c.code).scalar_subquery()
        prunable = sa.and_(e.c.at < before, e.c.version < snapshot_version)
        octets = (  # (bytes, not characters: Persian chat and names take two a letter)
            sa.func.length(sa.cast(e.c.data, sa.LargeBinary))
            if self.is_sqlite
            else sa.func.octet_length(e.c.data)
        )
        count = (
            sa.select(
                e.c.code,
                sa.func.count(),
                sa.func.coalesce(sa.func.sum(octets), 0),
                sa.func.min(e.c.version),
                sa.func.max(e.c.version),
            )
            .where(prunable)
            .group_by(e.c.code)
            .order_by(e.c.code)
        )
        async with self.engine.connect() as conn:
            found = [
                (str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]))
                for r in (await conn.execute(count)).all()
            ]
        rows = sum(f[1] for f in found)
        size = sum(f[2] for f in found)
        if dry_run or not found:
            return rows, size, len(found)

        async def delete(*where: sa.ColumnElement[bool]) -> int:
            def write(conn: sa.Connection) -> int:
                return int(conn.execute(e.delete().where(prunable, *where)).rowcount or 0)

            result: int = await self._write(write)
            return result

        deleted = 0
        group: list[str] = []
        held = 0
        for code, n, _, low, high in found:
            if n > rows_per_commit:  # a long-lived room: its log a range of versions at a time
                for start in range(low, high + 1, rows_per_commit):
                    deleted += await delete(
                        e.c.code == code,
                        e.c.version >= start,
                        e.c.version < start + rows_per_commit,
                    )
                continue
            if held + n > rows_per_commit:
                deleted += await delete(e.c.code.in_(group))
                group, held = [], 0
            group.append(code)
            held += n
        if group:
            deleted += await delete(e.c.code.in_(group))
        return deleted, size, len(found)

    async def put_snapshot(self, code: str, version: int, data: dict[str, Any]) -> None:
        """Store the table's snapshot at ``version`` (replacing an older one)."""
        t = self.t.snapshots
        text = _dump(data)
        now = _now_ms()

        def write(conn: sa.Connection) -> None:
            result = conn.execute(
                t.update()
                .where(t.c.code == code, t.c.version <= version)
                .values(version=version, at=now, data=text)
            )
            if result.rowcount == 0:
                exists = (conn.execute(sa.select(t.c.code).where(t.c.code == code))).first()
                if exists is None:
                    conn.execute(t.insert().values(code=code, version=version, at=now, data=text))

        await self._write(write)

    async def get_snapshot(self, code: str) -> tuple[int, dict[str, Any]] | None:
        t = self.t.snapshots
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(t.c.version, t.c.data).where(t.c.code == code))
            ).first()
        return None if row is None else (int(row.version), json.loads(row.data))

    # ------------------------------------------------------------------ finished games

    async def save_game(self, summary: GameSummary, record: dict[str, Any]) -> None:
        """Store a finished game and its record (idempotent: the same id is stored once)."""
        t = self.t.games
        text = _dump(record)

        def write(conn: sa.Connection) -> None:
            exists = (
                conn.execute(sa.select(t.c.game_id).where(t.c.game_id == summary.game_id))
            ).first()
            if exists is not None:
                return
            conn.execute(
                t.insert().values(
                    game_id=summary.game_id,
                    code=summary.code,
                    number=summary.number,
                    finished_at=summary.finished_at,
                    winner_team=summary.winner_team,
                    score=_dump(list(summary.score)),
                    cancelled=summary.cancelled,
                    record=text,
                )
            )

        await self._write(write)

    async def list_games(self, code: str) -> list[GameSummary]:
        t = self.t.games
        query = sa.select(t).where(t.c.code == code).order_by(t.c.number)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_game(row) for row in rows]

    async def get_game(self, game_id: str) -> tuple[GameSummary, dict[str, Any]] | None:
        t = self.t.games
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(t).where(t.c.game_id == game_id))).first()
        return None if row is None else (_game(row), json.loads(row.record))


def _sqlite_pragmas(engine: sa.Engine, *, autocheckpoint: bool = True) -> None:
    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        # WAL + NORMAL: a committed transaction survives a killed process (kill -9).
        for attempt in range(100):
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except Exception as exc:
                # Processes opening a new file at once: while one holds its lock, turning it
                # to WAL is refused at once, not after the busy timeout. Try again a while.
                if "locked" not in str(exc) or attempt == 99:
                    raise
                time.sleep(0.05)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        # After a checkpoint the WAL file is cut back to this size (64 MiB): a burst of writes
        # would otherwise leave it as large as it ever grew.
        cursor.execute("PRAGMA journal_size_limit=67108864")
        if not autocheckpoint:  # the storage checkpoints in a background thread instead
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()


def _fail(item: _Write, exc: BaseException) -> None:
    if not item.future.done():
        item.future.set_exception(exc)


def _room(row: Any) -> RoomRow:
    return RoomRow(row.code, row.owner, row.status, int(row.created_at), bool(row.active))


def _game(row: Any) -> GameSummary:
    a, b = json.loads(row.score)
    return GameSummary(
        row.game_id,
        row.code,
        int(row.number),
        int(row.finished_at),
        None if row.winner_team is None else int(row.winner_team),
        (int(a), int(b)),
        bool(row.cancelled),
    )


async def open_storage(url: str | None = None, *, prefix: str = "hokm_") -> SqlStorage:
    """A started :class:`SqlStorage` for ``url`` (default: ``HOKM_DATABASE_URL`` or SQLite)."""
    storage = SqlStorage(url, prefix=prefix)
    await storage.start()
    return storage
