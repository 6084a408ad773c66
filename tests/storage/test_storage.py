"""The storage interface behaves the same on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from pathlib import Path

import pytest

from hokm.accounts.store import AccountStore
from hokm.storage import (
    GameSummary,
    PlayerRow,
    RoomRow,
    SqlStorage,
    StorageError,
    VersionConflictError,
    database_url,
)
from tests.storage.conftest import PG_URL, end_the_session_holding_the_lock


async def test_settings_keep_the_first_value(storage: SqlStorage) -> None:
    """A setting is stored once; later calls return the stored value, not the new default."""
    assert await storage.setting("secret", "abc") == "abc"
    assert await storage.setting("secret", "xyz") == "abc"


async def test_players_insert_and_rename(storage: SqlStorage) -> None:
    """Saving a player twice updates the name and keeps one row."""
    await storage.save_player(PlayerRow("g_1", "Sara"))
    await storage.save_player(PlayerRow("g_1", "سارا", extra={"lang": "fa"}))
    player = await storage.get_player("g_1")
    assert player is not None
    assert (player.name, player.kind, player.extra) == ("سارا", "guest", {"lang": "fa"})
    assert await storage.get_player("g_2") is None


async def test_room_codes_are_unique(storage: SqlStorage) -> None:
    """Creating a room with a taken code fails; rooms can be updated and listed as active."""
    assert await storage.create_room(RoomRow("ABCDEF", "g_1", "lobby", 1))
    assert not await storage.create_room(RoomRow("ABCDEF", "g_2", "lobby", 2))
    await storage.update_room("ABCDEF", status="playing", owner="g_2")
    room = await storage.get_room("ABCDEF")
    assert room is not None and (room.status, room.owner, room.active) == ("playing", "g_2", True)
    assert [r.code for r in await storage.active_rooms()] == ["ABCDEF"]
    await storage.update_room("ABCDEF", active=False)
    assert await storage.active_rooms() == []


async def test_event_log_is_append_only_and_ordered(storage: SqlStorage) -> None:
    """Events come back in version order; a version stored twice is a conflict."""
    await storage.append_events("ROOM1", 1, [{"kind": "a"}, {"kind": "b"}])
    await storage.append_events("ROOM1", 3, [{"kind": "c", "text": "سلام"}])
    await storage.append_events("ROOM2", 1, [{"kind": "x"}])
    events = await storage.events_after("ROOM1", 1)
    assert [(e.version, e.data) for e in events] == [
        (2, {"kind": "b"}),
        (3, {"kind": "c", "text": "سلام"}),
    ]
    assert await storage.last_version("ROOM1") == 3
    assert await storage.last_version("NONE") == 0
    with pytest.raises(VersionConflictError):
        await storage.append_events("ROOM1", 3, [{"kind": "again"}])
    assert [e.data["kind"] for e in await storage.events_after("ROOM1", 0)] == ["a", "b", "c"]


async def test_concurrent_appends_are_grouped_and_all_committed(storage: SqlStorage) -> None:
    """Many tables appending at once all commit, in fewer transactions than writes."""
    before = storage.commits

    async def table(n: int) -> None:
        for v in range(1, 6):
            await storage.append_events(f"T{n}", v, [{"n": n, "v": v}])

    await asyncio.gather(*(table(n) for n in range(40)))
    for n in range(40):
        assert [e.version for e in await storage.events_after(f"T{n}", 0)] == [1, 2, 3, 4, 5]
    assert storage.commits - before < 200


async def test_a_failing_write_does_not_fail_its_batch(storage: SqlStorage) -> None:
    """In a batch with one conflicting append, the others are committed."""
    await storage.append_events("C", 1, [{"k": 1}])
    results = await asyncio.gather(
        storage.append_events("C", 1, [{"k": "dup"}]),
        storage.append_events("D", 1, [{"k": 2}]),
        return_exceptions=True,
    )
    assert isinstance(results[0], VersionConflictError)
    assert results[1] is None
    assert [e.data for e in await storage.events_after("D", 0)] == [{"k": 2}]


async def test_snapshots_keep_the_newest(storage: SqlStorage) -> None:
    """A snapshot replaces an older one and is never replaced by an older one."""
    assert await storage.get_snapshot("S") is None
    await storage.put_snapshot("S", 5, {"v": 5})
    await storage.put_snapshot("S", 9, {"v": 9})
    await storage.put_snapshot("S", 7, {"v": 7})
    assert await storage.get_snapshot("S") == (9, {"v": 9})


async def test_games_are_stored_once_with_their_record(storage: SqlStorage) -> None:
    """A finished game is listed per room and its record comes back unchanged."""
    summary = GameSummary("ROOM-1", "ROOM", 1, 1000, 0, (7, 3), False)
    record = {"format": "hokm-record/1", "hands": [{"hakem": 0, "plays": ["AS"]}]}
    await storage.save_game(summary, record)
    await storage.save_game(summary, {"format": "other"})
    await storage.save_game(GameSummary("ROOM-2", "ROOM", 2, 2000, None, (1, 2), True), {})
    assert [g.game_id for g in await storage.list_games("ROOM")] == ["ROOM-1", "ROOM-2"]
    assert await storage.get_game("ROOM-1") == (summary, record)
    assert await storage.get_game("nope") is None


def test_database_urls() -> None:
    """Plain PostgreSQL URLs get the asyncpg driver; SQLite paths become URLs."""
    assert database_url("postgresql://u@h/d", env={}) == "postgresql+asyncpg://u@h/d"
    assert database_url("sqlite:///x.db", env={}) == "sqlite+aiosqlite:///x.db"


async def test_sqlite_checkpoints_the_wal_in_the_background(tmp_path: Path) -> None:
    """SQLite commits on the loop with automatic checkpoints off; every ``checkpoint_every``
    commits a background checkpoint copies the WAL into the database file, and a new storage
    on the same file reads everything back."""
    path = tmp_path / "wal.db"
    storage = SqlStorage(str(path), checkpoint_every=8)
    await storage.start()
    try:
        before = path.stat().st_size
        text = "x" * 2000  # each event needs a page of its own
        for version in range(1, 41):
            await storage.append_events("ROOMW", version, [{"n": version, "text": text}])
        while storage._checkpointing is not None:
            await asyncio.sleep(0.01)
        assert path.stat().st_size > before + 30 * 2000  # the pages reached the file
    finally:
        await storage.close()
    again = SqlStorage(str(path))
    await again.start()
    try:
        events = await again.events_after("ROOMW", 0)
        assert [e.data["n"] for e in events] == list(range(1, 41))
    finally:
        await again.close()


async def test_rooms_with_events_after_their_snapshot_are_found(storage: SqlStorage) -> None:
    """A room whose log goes past its snapshot (the server stopped without its final snapshot)
    is listed for recovery; rooms snapshotted at their last input are not."""
    for code in ("TAIL", "DONE", "FRESH"):
        await storage.put_snapshot(code, 0, {"v": 0})
    await storage.append_events("TAIL", 1, [{"op": "a"}, {"op": "b"}])
    await storage.put_snapshot("TAIL", 1, {"v": 1})
    await storage.append_events("DONE", 1, [{"op": "a"}, {"op": "b"}])
    await storage.put_snapshot("DONE", 2, {"v": 2})
    assert await storage.rooms_with_tail() == ["TAIL"]
    await storage.put_snapshot("TAIL", 2, {"v": 2})
    assert await storage.rooms_with_tail() == []


async def test_pruning_deletes_only_old_inputs_before_their_rooms_snapshot(
    storage: SqlStorage,
) -> None:
    """The inputs a restart never reads again go: older than the cut-off and before the
    room's snapshot. The snapshot's own input, the inputs after it, a room without a snapshot
    and inputs newer than the cut-off all stay, so the room loads as before and a write at a
    stored version is still refused."""
    old, new = 1_000, 5_000
    await storage.append_events("A", 1, [{"n": i} for i in range(1, 7)], at=old)  # 1..6
    await storage.append_events("A", 7, [{"n": 7}, {"n": 8}], at=new)
    await storage.put_snapshot("A", 5, {"v": 5})
    await storage.append_events("B", 1, [{"n": 1}, {"n": 2}], at=old)  # no snapshot
    await storage.append_events("C", 1, [{"n": 1}, {"n": 2}, {"n": 3}], at=new)
    await storage.put_snapshot("C", 3, {"v": 3})  # recent: kept
    for code in ("D", "E"):  # two small rooms, pruned in one commit; bytes, not letters
        await storage.append_events(code, 1, [{"t": "سلام"}, {"t": "سلام"}], at=old)
        await storage.put_snapshot(code, 2, {"v": 2})
    size = 4 * len('{"n":1}') + 2 * len('{"t":"سلام"}'.encode())
    assert await storage.prune_inputs(2_000, dry_run=True) == (6, size, 3)
    assert len(await storage.events_after("A", 0)) == 8
    # (A's four in two ranges of versions, D's and E's together)
    assert await storage.prune_inputs(2_000, rows_per_commit=3) == (6, size, 3)
    assert [e.version for e in await storage.events_after("A", 0)] == [5, 6, 7, 8]
    assert [e.version for e in await storage.events_after("D", 0)] == [2]
    assert [e.version for e in await storage.events_after("B", 0)] == [1, 2]
    assert [e.version for e in await storage.events_after("C", 0)] == [1, 2, 3]
    assert await storage.last_version("A") == 8
    with pytest.raises(VersionConflictError):
        await storage.append_events("A", 8, [{"n": "again"}])
    assert await storage.prune_inputs(2_000) == (0, 0, 0)  # nothing left to do


async def test_who_is_seated_in_an_unloaded_game_is_rewritten_per_room(
    storage: SqlStorage,
) -> None:
    """The players seated in a room's game in progress, stored when it is unloaded, replace
    that room's earlier list and no other's; an empty list clears it."""
    await storage.set_seated("ROOM1", ["p1", "p2", "p1"])
    await storage.set_seated("ROOM2", ["p2"])
    assert await storage.seated_rooms("p1") == ["ROOM1"]
    assert await storage.seated_rooms("p2") == ["ROOM1", "ROOM2"]
    await storage.set_seated("ROOM1", ["p3"])
    assert await storage.seated_rooms("p1") == []
    assert await storage.seated_rooms("p2") == ["ROOM2"]
    await storage.set_seated("ROOM2", [])
    assert await storage.seated_rooms("p2") == [] and await storage.seated_rooms("p3") == ["ROOM1"]


def test_the_log_names_a_sqlite_file_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sqlite:///tmp/x.db`` is ``./tmp/x.db`` (SQLAlchemy's rule: four slashes for an
    absolute path), which the URL in the log hid; a password is never shown."""
    monkeypatch.chdir(tmp_path)
    said = SqlStorage("sqlite:///tmp/x.db").describe()
    assert said == f"SQLite file {tmp_path / 'tmp' / 'x.db'} (tables hokm_*)"
    pg = SqlStorage("postgresql://u:secret@db.example/hokm").describe()
    assert "secret" not in pg and "db.example/hokm" in pg


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_processes_starting_at_once_on_an_empty_database_share_one_schema(
    kind: str, tmp_path: Path
) -> None:
    """The scale-out start (several ``hokm serve`` at once on a new database): one creates
    the tables (the storage's, then the accounts') and the others wait for it, and all keep
    the one secret stored first. All but one used to fail at start: duplicate key in
    ``pg_type`` (two CREATE TABLE of one name) or in the settings (two secrets)."""
    prefix = f"t{secrets.token_hex(4)}_"
    url = str(tmp_path / "hokm.db") if kind == "sqlite" else PG_URL
    stores = [SqlStorage(url, prefix=prefix) for _ in range(4)]
    try:
        started = await asyncio.gather(*(s.start() for s in stores), return_exceptions=True)
        assert started == [None] * 4, started
        accounts = [AccountStore(store).start() for store in stores]  # the accounts' tables
        started = await asyncio.gather(*accounts, return_exceptions=True)
        assert started == [None] * 4, started
        kept = await asyncio.gather(*(s.setting("secret", f"s{n}") for n, s in enumerate(stores)))
        assert len(set(kept)) == 1, kept
    finally:
        with contextlib.suppress(Exception):
            async with stores[0].engine.begin() as conn:
                await conn.run_sync(AccountStore(stores[0]).t.metadata.drop_all)
            await stores[0].drop_all()
        for store in stores:
            await store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_database_is_served_by_one_server_or_by_one_clusters_processes(
    kind: str, tmp_path: Path
) -> None:
    """Two servers that do not know of each other on one database load the same rooms and
    write over each other's logs and snapshots: a second server alone is refused, as is a
    cluster's process beside a server alone, or a server alone beside a cluster; the
    processes of one cluster share it; a stopped server lets the next one in."""
    prefix = f"t{secrets.token_hex(4)}_"
    url = str(tmp_path / "hokm.db") if kind == "sqlite" else PG_URL
    stores = [SqlStorage(url, prefix=prefix) for _ in range(4)]
    try:
        for store in stores:
            await store.start()
        await stores[0].hold_serving(shared=False)
        with pytest.raises(StorageError, match="another hokm serve uses this database"):
            await stores[1].hold_serving(shared=False)
        with pytest.raises(StorageError, match="a hokm serve without --redis uses this"):
            await stores[1].hold_serving(shared=True)
        await stores[0].close()  # stopped
        await stores[1].hold_serving(shared=True)  # a cluster's processes
        await stores[2].hold_serving(shared=True)
        with pytest.raises(StorageError, match="another hokm serve uses this database"):
            await stores[3].hold_serving(shared=False)
    finally:
        with contextlib.suppress(Exception):
            await stores[3].drop_all()
        for store in stores:
            await store.close()


async def test_a_lock_lost_with_its_postgresql_session_is_taken_again() -> None:
    """A PostgreSQL restart ends the session holding the server's advisory lock: nothing
    said the database was served, and a second server could start beside the first. The
    first takes it again at its next check; if another server took it meanwhile, it is told
    (False)."""
    prefix = f"t{secrets.token_hex(4)}_"
    first, second = SqlStorage(PG_URL, prefix=prefix), SqlStorage(PG_URL, prefix=prefix)
    try:
        await first.start()
        await second.start()
        await first.hold_serving(shared=False)
        assert await first.keep_serving() is True  # held: nothing to do
        await end_the_session_holding_the_lock(first)
        assert await first.keep_serving() is True  # taken again
        with pytest.raises(StorageError, match="another hokm serve uses this database"):
            await second.hold_serving(shared=False)
        await end_the_session_holding_the_lock(first)
        await second.hold_serving(shared=False)  # another server, while it was not held
        assert await first.keep_serving() is False
    finally:
        with contextlib.suppress(Exception):
            await second.drop_all()
        await first.close()
        await second.close()


async def test_a_server_whose_database_another_server_took_stops_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server's watch (hokm.server.app.watch_serving) keeps its hold on the database; when
    another server took the database meanwhile, it stops at once, as a crash would (its rooms
    stored over the other's by a clean stop, or two servers writing one log, would lose
    games)."""
    from hokm.server import app as server_app

    stopped = asyncio.Event()
    monkeypatch.setattr(server_app, "lost_serving", stopped.set)
    prefix = f"t{secrets.token_hex(4)}_"
    first, second = SqlStorage(PG_URL, prefix=prefix), SqlStorage(PG_URL, prefix=prefix)
    watch: asyncio.Task[None] | None = None
    try:
        await first.start()
        await second.start()
        await first.hold_serving(shared=False)
        watch = asyncio.create_task(server_app.watch_serving(first, 0.05))
        await end_the_session_holding_the_lock(first)  # a database restart: taken again
        await asyncio.sleep(0.5)
        assert not stopped.is_set()
        with pytest.raises(StorageError, match="another hokm serve"):
            await second.hold_serving(shared=False)
        watch.cancel()
        await end_the_session_holding_the_lock(first)
        await second.hold_serving(shared=False)  # another server, meanwhile
        watch = asyncio.create_task(server_app.watch_serving(first, 0.05))
        await asyncio.wait_for(stopped.wait(), 5)
    finally:
        if watch is not None:
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
        with contextlib.suppress(Exception):
            await second.drop_all()
        await first.close()
        await second.close()


async def test_a_sqlite_servers_hold_needs_no_check(tmp_path: Path) -> None:
    """SQLite's flock lives with its file descriptor: a check always finds it held."""
    store = SqlStorage(str(tmp_path / "hokm.db"))
    try:
        await store.start()
        await store.hold_serving(shared=False)
        assert await store.keep_serving() is True
    finally:
        await store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_tables_of_another_version_are_refused_at_start_in_one_clear_error(
    kind: str, tmp_path: Path
) -> None:
    """``create_all`` leaves existing tables as they are: a database made by another version
    of hokm (a column missing, or one of its own that needs a value) used to start and then
    fail at its first query of the table, in the middle of a game. It is refused at start,
    naming what differs; the data is left as it was."""
    prefix = f"t{secrets.token_hex(4)}_"
    url = str(tmp_path / "hokm.db") if kind == "sqlite" else PG_URL
    first = SqlStorage(url, prefix=prefix)
    await first.start()
    accounts = AccountStore(first)
    await accounts.start()
    try:
        async with first.engine.begin() as conn:
            await conn.exec_driver_sql(f"ALTER TABLE {prefix}games DROP COLUMN record")
            await conn.exec_driver_sql(
                f"ALTER TABLE {prefix}rooms ADD COLUMN region VARCHAR(8) NOT NULL DEFAULT 'x'"
            )
            await conn.exec_driver_sql(f"ALTER TABLE {prefix}accounts DROP COLUMN created_at")
        again = SqlStorage(url, prefix=prefix)
        try:
            with pytest.raises(StorageError) as refused:
                await again.start()
            said = str(refused.value)
            assert "made by another version of hokm" in said, said
            assert f"table {prefix}games lacks record" in said, said
            assert "region" not in said  # it has a default: this version's inserts work
            async with again.engine.begin() as conn:
                await conn.exec_driver_sql(
                    f"ALTER TABLE {prefix}games ADD COLUMN record TEXT NOT NULL DEFAULT ''"
                )
                await conn.exec_driver_sql(f"ALTER TABLE {prefix}rooms DROP COLUMN region")
                await conn.exec_driver_sql(
                    f"ALTER TABLE {prefix}rooms ADD COLUMN region VARCHAR(8) NOT NULL"
                )
            with pytest.raises(StorageError, match=f"{prefix}rooms has required columns region"):
                await again.start()
            async with again.engine.begin() as conn:
                await conn.exec_driver_sql(f"ALTER TABLE {prefix}rooms DROP COLUMN region")
            await again.start()  # the storage's tables match again
            with pytest.raises(StorageError, match=f"{prefix}accounts lacks created_at"):
                await AccountStore(again).start()
        finally:
            await again.close()
    finally:
        async with first.engine.begin() as conn:
            await conn.run_sync(accounts.t.metadata.drop_all)
        await first.drop_all()
        await first.close()
