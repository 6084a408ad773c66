"""How long the leaderboard's boards take on a server with many accounts (SQLite and PostgreSQL).

    python scripts/board_bench.py --accounts 20000 [--pg postgresql+asyncpg://…/test]

Fills fresh tables (a random prefix; PostgreSQL's are dropped afterwards, SQLite's file is a
temporary one) with ``--accounts`` accounts, each with a rating of some rated games, account
points and five games of history in the last two weeks, then times ``leaderboard`` (points, all
time and this week) and ``rating_board`` (first page, a middle page), each with the viewer's
own place, ``--runs`` times from the database (median and max in milliseconds), and the median
of the same call answered from the boards kept for ``BOARD_TTL``. The rows go in directly (no
password hashing), so filling 20,000 accounts takes seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from hokm.accounts.store import AccountStore
from hokm.storage import SqlStorage

DAY = 86_400_000


async def fill(store: AccountStore, n: int, rng: random.Random) -> list[str]:
    now = int(time.time() * 1000)
    ids = [f"a_{i:07d}" for i in range(n)]
    t, players = store.t, store.players
    rows: dict[Any, list[dict[str, Any]]] = {
        players: [],
        t.accounts: [],
        t.ratings: [],
        t.stats: [],
        t.history: [],
    }
    for i, pid in enumerate(ids):
        name = f"player{i}"
        rows[players].append(
            {
                "id": pid,
                "name": name,
                "kind": "account",
                "created_at": now,
                "updated_at": now,
                "extra": "{}",
            }
        )
        rows[t.accounts].append(
            {
                "player_id": pid,
                "username": name,
                "username_key": name,
                "password_hash": "x",
                "created_at": now,
                "password_changed_at": now,
            }
        )
        games = rng.randint(1, 60)
        rows[t.ratings].append(
            {
                "player_id": pid,
                "mu": rng.gauss(25, 3),
                "sigma": max(1.0, 8.33 - games / 8),
                "games": games,
                "updated_at": now,
            }
        )
        won = rng.randint(0, games)
        rows[t.stats].append({"player_id": pid, "points": won, "played": games, "won": won})
        for g in range(5):
            rows[t.history].append(
                {
                    "game_id": f"G{i}-{g}",
                    "player_id": pid,
                    "seat": 0,
                    "result": "won" if g % 2 else "lost",
                    "points": g % 2,
                    "quick": True,
                    "rated": True,
                    "code": "ABCDEF",
                    "at": now - rng.randint(0, 14) * DAY,
                }
            )
    async with store.storage.engine.begin() as conn:
        for table, values in rows.items():
            for start in range(0, len(values), 5000):
                await conn.execute(table.insert(), values[start : start + 5000])
    return ids


async def timed(runs: int, call: Any) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), max(times)


async def bench(url: str, prefix: str, n: int, runs: int) -> None:
    storage = SqlStorage(url, prefix=prefix)
    await storage.start()
    store = AccountStore(storage)
    await store.start()
    try:
        t0 = time.perf_counter()
        ids = await fill(store, n, random.Random(1))
        filled = time.perf_counter() - t0
        viewer = ids[n // 2]
        now = int(time.time() * 1000)
        cases = {
            "points, all time, page 1": lambda: store.leaderboard(
                period="all", offset=0, limit=20, viewer=viewer, now=now
            ),
            "points, this week, page 1": lambda: store.leaderboard(
                period="week", offset=0, limit=20, viewer=viewer, now=now
            ),
            "rating, page 1": lambda: store.rating_board(offset=0, limit=20, viewer=viewer),
            "rating, middle page": lambda: store.rating_board(
                offset=n // 2, limit=20, viewer=viewer
            ),
        }
        kind = "SQLite" if storage.is_sqlite else "PostgreSQL"
        print(f"{kind}: {n} accounts ({filled:.1f} s to fill)")
        for label, call in cases.items():

            async def cold(call: Any = call) -> None:
                store._boards.clear()  # read from the database, as after a game or BOARD_TTL
                await call()

            await cold()  # warm the database's caches
            median, worst = await timed(runs, cold)
            kept, _ = await timed(runs, call)
            print(
                f"  {label:28} median {median:7.1f} ms  max {worst:7.1f} ms  (kept: {kept:.2f} ms)"
            )
    finally:
        if not storage.is_sqlite:
            await store.drop_all()
            await storage.drop_all()
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--pg", default="", help="also on this PostgreSQL URL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(str(Path(tmp) / "bench.db"), "hokm_", args.accounts, args.runs))
    if args.pg:
        prefix = f"bb{secrets.token_hex(3)}_"
        asyncio.run(bench(args.pg, prefix, args.accounts, args.runs))


if __name__ == "__main__":
    main()
