"""``hokm prune``: give back the disk the rooms' old inputs take.

Every input a room accepts is stored before anyone hears of it (``docs/operations.md``, "What
a crash keeps"), and a snapshot of the room is stored at every game's end and whenever the
room leaves memory. A room is rebuilt from its snapshot and the inputs after it, so the inputs
before its snapshot are never read again: they are over half of the database (a soak's: 29.6
kB per stored game, 13.4 kB once pruned). ``prune`` deletes those older than ``--days`` (30);
the finished games' records, the snapshots, the accounts and their histories stay. Without
``--yes`` it only says what it would delete. The server may be running meanwhile: at most
2,000 inputs go in one commit, a few milliseconds of the write lock each.

The age is what keeps the cluster's last guard (the log's primary key, ``docs/operations.md``,
"Scaling out"): a process that lost a room stops writing within seconds, so it never writes
again where inputs a day old or more were deleted.

Exit status 0: done (or nothing to do); 1: found some, not deleted (no ``--yes``); 2: unusable
input or database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import time

from hokm.cli import clip, whole_number
from hokm.cli.serve import add_database_option, check_database, missing_database_file
from hokm.cli.serve import sqlite_file as sqlite_file_of

__all__ = ["register", "run"]

EXIT_OK, EXIT_NOT_DONE, EXIT_INPUT = 0, 1, 2
DAY_MS = 86_400_000


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "prune",
        help="delete the rooms' old inputs that no restart reads again (disk space)",
        description="Delete the stored inputs of rooms that lie before the room's snapshot "
        "and are older than --days: no restart reads them again. Games' records, snapshots "
        "and accounts stay. Without --yes, only say what would go. The server may be running.",
    )
    add_database_option(parser)
    parser.add_argument(
        "--days",
        type=whole_number("--days", 1, 36_500),
        default=30,
        help="keep the inputs of the last DAYS days, for looking into a complaint (30)",
    )
    parser.add_argument("--yes", action="store_true", help="delete them (without it: count)")
    parser.add_argument(
        "--vacuum",
        action="store_true",
        help="SQLite, with --yes: then rewrite the file to give the space back to the disk. "
        "Stop the server first: it holds the write lock for about a second per 150 MB, the "
        "server's moves wait meanwhile and fail after 10 s",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from hokm.storage import StorageError, database_url

    url = database_url(args.db)
    sqlite_file = sqlite_file_of(url)
    if args.vacuum and not args.yes:
        print("hokm prune: --vacuum goes with --yes (it rewrites the file)", file=sys.stderr)
        return EXIT_INPUT
    if args.vacuum and sqlite_file is None:
        print(
            "hokm prune: --vacuum is for a SQLite file; PostgreSQL's autovacuum reuses the "
            "space by itself (VACUUM FULL gives it back to the disk)",
            file=sys.stderr,
        )
        return EXIT_INPUT
    problem = missing_database_file(url) or check_database(url)
    if problem is not None:
        print(f"hokm prune: {problem}", file=sys.stderr)
        return EXIT_INPUT
    before = int(time.time() * 1000) - args.days * DAY_MS
    vacuumed: tuple[int, int] | None = None
    try:
        rows, size, rooms = asyncio.run(_prune(url, before, dry_run=not args.yes))
        if args.vacuum and sqlite_file:
            vacuumed = _vacuum(sqlite_file)
    except (StorageError, SQLAlchemyError, sqlite3.Error, OSError) as exc:
        print(f"hokm prune: the database refused: {clip(str(exc), 300)}", file=sys.stderr)
        return EXIT_INPUT
    if args.json:
        out = {
            "deleted" if args.yes else "would_delete": rows,
            "bytes": size,
            "rooms": rooms,
            "days": args.days,
        }
        if vacuumed is not None:
            out["file_bytes_before"], out["file_bytes_after"] = vacuumed
        print(json.dumps(out))
    else:
        _say(args, rows, size, rooms, sqlite_file, vacuumed)
    return EXIT_OK if args.yes or rows == 0 else EXIT_NOT_DONE


def _say(
    args: argparse.Namespace,
    rows: int,
    size: int,
    rooms: int,
    sqlite_file: str | None,
    vacuumed: tuple[int, int] | None,
) -> None:
    age = f"older than {args.days} day{'s' * (args.days != 1)}"
    what = f"{rows:,} inputs ({_mb(size)} of data) of {rooms:,} rooms, {age}"
    if rows == 0:
        print(f"nothing to prune: no room has inputs {age} before its snapshot")
    elif not args.yes:
        print(f"would delete {what}; add --yes to do it")
        return
    else:
        print(f"deleted {what}")
    if vacuumed is not None:
        print(f"the database file went from {_mb(vacuumed[0])} to {_mb(vacuumed[1])}")
    elif sqlite_file and rows:
        print(
            "SQLite reuses the freed space for new games; to give it back to the disk, run "
            "this again with --vacuum, with the server stopped"
        )


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


async def _prune(url: str, before: int, *, dry_run: bool) -> tuple[int, int, int]:
    from hokm.storage import SqlStorage

    storage = SqlStorage(url)
    await storage.start()
    try:
        return await storage.prune_inputs(before, dry_run=dry_run)
    finally:
        await storage.close()


def _vacuum(file: str) -> tuple[int, int]:
    """Rewrite the SQLite file without its free pages: the file's bytes before and after,
    its write-ahead log folded in first (so the figures are of the database, not of a
    ``-wal`` emptied on the way)."""
    import os

    print(
        f"rewriting {file}: a server using it waits until this ends (stop it first)",
        file=sys.stderr,
    )
    conn = sqlite3.connect(file, timeout=60, isolation_level=None)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        was = os.path.getsize(file)
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return was, os.path.getsize(file)
