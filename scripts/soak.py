"""Soak test of a running ``hokm serve`` (not a test): a realistic mix of clients for a long
time, while the server's memory, descriptors, threads, metrics and database are sampled.

Start a server, then the driver (both niced, so the machine's other users keep a core)::

    nice -n 10 .venv/bin/hokm serve --port 8801 --db /tmp/soak/hokm.db \\
        --bot-delay 0.05 --hand-pause 0.2 &
    nice -n 10 .venv/bin/python scripts/soak.py http://127.0.0.1:8801 --minutes 30 \\
        --pid $(pgrep -f 'hokm serve --port 8801' | head -1) --db /tmp/soak/hokm.db \\
        --out /tmp/soak/samples.jsonl

``--workers`` coroutines each loop over scenarios picked at random (weights in ``SCENARIOS``):
whole games against bots (with chat, sometimes an analysis of the finished game, sometimes
the next game), rooms abandoned mid-game (the socket dropped, never back), reconnections that
resume with ``last_version``, a second person at the table, spectators, guests that connect
and go, accounts that register, log out, log in and take a quick match (with bots after the
offer, or leaving the queue), and probes of unknown room codes; every such player and room is
new. One room lives for the whole run (a club's table: bots play game after game, new visitors
look in, chat and go), to show what one long-lived room keeps.

Every ``--every`` seconds (30) one JSON line goes to ``--out`` (and a summary to standard
output): the server's RSS, peak RSS, threads and open descriptors (``--pid``; its children,
the bot workers, too), ``/api/metrics`` and ``/api/health``, the database's size with its
``-wal`` and its rows per table (``--db``, SQLite), and the driver's counts (rooms, games,
players so far). Compare the figures against the counts: what keeps growing with rooms or
players seen, not with those active now, is a leak.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from hokm.client import HokmClient
from hokm.client.client import ClientError, ServerError

LEVELS = ("random", "naive", "easy", "medium")


def game_over(client: HokmClient) -> bool:
    return any(e["event"]["kind"] == "game_result" for e in client.events)


class Soak:
    def __init__(self, url: str, seed: int) -> None:
        self.url = url.rstrip("/")
        self.rng = random.Random(seed)
        self.run = f"{seed:x}{int(time.time()) % 100000:x}"
        self.counts: Counter[str] = Counter()
        self.live: list[str] = []  # rooms with a game being played now (for spectators)
        self.finished: list[str] = []  # game ids of finished games (for analyses)
        self.serial = 0
        self.club: str | None = None  # the room of club_host, if it runs

    def name(self, prefix: str) -> str:
        self.serial += 1
        return f"{prefix}{self.serial}"

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] += n

    # ------------------------------------------------------------------ helpers

    async def _new_room(
        self, client: HokmClient, bots: tuple[int, ...], target: int, humans: int = 1
    ) -> str:
        await client.connect()
        code = await client.create_room(rules={"target_points": target})
        self.count("rooms")
        await client.join(code)
        await client.command("sit", seat=0)
        for seat in bots:
            level = self.rng.choice(LEVELS)
            await client.command("add_bot", seat=seat, level=level)
        return code

    async def _play(self, client: HokmClient, *, chat: bool, timeout: float = 600.0) -> None:
        chatter: asyncio.Task[None] | None = None
        stop = asyncio.Event()
        if chat:
            chatter = asyncio.create_task(self._chat(client, stop))
        try:
            await client.play_until(game_over, timeout=timeout)
        finally:
            stop.set()  # (a cancel alone can be lost in Python 3.11's wait_for)
            if chatter is not None:
                chatter.cancel()
                with contextlib.suppress(asyncio.CancelledError, ClientError):
                    await chatter

    async def _chat(self, client: HokmClient, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await asyncio.sleep(self.rng.uniform(1.0, 4.0))
            with contextlib.suppress(ServerError):
                if self.rng.random() < 0.7:
                    await client.chat(phrase=self.rng.choice(("hi", "gl", "nice", "thanks")))
                else:
                    await client.chat(text=f"soak {self.rng.randrange(1000)} 🙂")
                self.count("chats")

    async def _rest(self, method: str, path: str, **kw: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.url, timeout=60) as http:
            return await http.request(method, path, **kw)

    # ------------------------------------------------------------------ scenarios

    async def full_game(self) -> None:
        """A guest, three bots, a whole game; then leave, continue, or just close."""
        client = HokmClient(self.url, name=self.name("p"), timeout=30)
        try:
            code = await self._new_room(client, (1, 2, 3), self.rng.choice((1, 2, 3)))
            await client.command("start")
            self.live.append(code)
            try:
                await self._play(client, chat=self.rng.random() < 0.5)
            finally:
                self.live.remove(code)
            self.count("games")
            self.finished.append(f"{code}-1")
            await self._rest("GET", f"/api/rooms/{code}/games")
            end = self.rng.random()
            if end < 0.2:  # the next game, abandoned a little way in
                await client.command("continue_game")
                with contextlib.suppress(ClientError):
                    await client.play_until(lambda c: c.version > client.version + 20, timeout=10)
                self.count("continued")
            elif end < 0.7:
                await client.command("leave")
        finally:
            await client.close()

    async def abandon(self) -> None:
        """A game started and left mid-hand with a dropped socket (nobody comes back)."""
        client = HokmClient(self.url, name=self.name("a"), timeout=30)
        try:
            await self._new_room(client, (1, 2, 3), 3)
            await client.command("start")
            stop_at = client.version + self.rng.randrange(5, 40)
            with contextlib.suppress(ClientError):
                await client.play_until(lambda c: c.version >= stop_at, timeout=30)
            self.count("abandoned")
        finally:
            await client.drop()

    async def reconnect(self) -> None:
        """A game played with a drop in the middle: a new socket resumes with last_version."""
        client = HokmClient(self.url, name=self.name("r"), timeout=30)
        code = await self._new_room(client, (1, 2, 3), 1)
        await client.command("start")
        stop_at = client.version + self.rng.randrange(5, 30)
        with contextlib.suppress(ClientError):
            await client.play_until(lambda c: c.version >= stop_at, timeout=30)
        token, version = client.token, client.version
        await client.drop()
        await asyncio.sleep(self.rng.uniform(0.1, 2.0))
        again = HokmClient(self.url, token=token, timeout=30)
        try:
            await again.connect()
            await again.join(code, last_version=version)
            self.count("reconnects")
            await self._play(again, chat=False)
            self.count("games")
            self.finished.append(f"{code}-1")
            await again.command("leave")
        finally:
            await again.close()

    async def two_people(self) -> None:
        """Two guests and two bots in one room, both playing to the end."""
        host = HokmClient(self.url, name=self.name("h"), timeout=30)
        guest = HokmClient(self.url, name=self.name("g"), timeout=30)
        try:
            code = await self._new_room(host, (1, 3), self.rng.choice((1, 2)))
            await guest.connect()
            await guest.join(code)
            await guest.command("sit", seat=2)
            await host.command("start")
            self.live.append(code)
            try:
                await asyncio.gather(self._play(host, chat=True), self._play(guest, chat=False))
            finally:
                self.live.remove(code)
            self.count("games")
            self.finished.append(f"{code}-1")
            await guest.command("leave")
            await host.command("leave")
        finally:
            await guest.close()
            await host.close()

    async def spectate(self) -> None:
        """A new guest watches a game in play for a few seconds."""
        if not self.live:
            return
        code = self.rng.choice(self.live)
        async with HokmClient(self.url, name=self.name("s"), timeout=30) as client:
            with contextlib.suppress(ServerError):
                await client.join(code, spectator=True)
                self.count("spectators")
                await asyncio.sleep(self.rng.uniform(1.0, 5.0))
                if self.rng.random() < 0.5:
                    await client.command("leave")

    async def guest_churn(self) -> None:
        """A guest made over REST, a socket that pings and goes; a page's session calls."""
        data = (await self._rest("POST", "/api/guest", json={"name": self.name("c")})).json()
        self.count("guests")
        headers = {"Authorization": f"Bearer {data['token']}"}
        await self._rest("GET", "/api/session", headers=headers)
        await self._rest("GET", "/api/me", headers=headers)
        async with HokmClient(self.url, token=data["token"], timeout=30) as client:
            for _ in range(self.rng.randrange(1, 4)):
                await client.ping()
        for code in ("ZZZZZZ", "QQQQQQ"):  # unknown rooms
            await self._rest("GET", f"/api/rooms/{code}")

    async def analysis(self) -> None:
        """The analysis of a finished game (the same ones asked again are cached)."""
        if not self.finished:
            return
        game_id = self.rng.choice(self.finished[-40:])
        response = await self._rest("GET", f"/api/games/{game_id}/analysis")
        self.count(f"analysis_{response.status_code}")

    async def account(self) -> None:
        """Register, log out, log in, then a quick match: leave the queue, or wait for the
        bots offer and play the quick game (sometimes never joining the room)."""
        username = f"soak{self.run}{self.name('u')}"
        password = "soak-password-1234"
        async with httpx.AsyncClient(base_url=self.url, timeout=60) as http:
            body = {"username": username, "password": password, "name": f"S{self.serial}"}
            r = await http.post("/api/accounts/register", json=body)
            if r.status_code != 201:
                self.count(f"register_{r.status_code}")
                return
            self.count("accounts")
            await http.get("/api/accounts/me")
            await http.post("/api/accounts/logout")
            r = await http.post(
                "/api/accounts/login", json={"username": username, "password": password}
            )
            self.count(f"login_{r.status_code}")
            await http.get("/api/leaderboard")
            token = http.cookies.get("hokm_session")
            r = await http.post("/api/quick/join")
            self.count("quick_joins")
            status = r.json()
            if self.rng.random() < 0.25:
                await asyncio.sleep(self.rng.uniform(1, 10))
                await http.post("/api/quick/leave")
                self.count("quick_left")
            else:
                deadline = time.monotonic() + 120
                while status.get("state") == "waiting" and time.monotonic() < deadline:
                    await asyncio.sleep(2.0)
                    status = (await http.get("/api/quick/status")).json()
                    if status.get("state") == "waiting" and status.get("bots_offered"):
                        status = (await http.post("/api/quick/bots")).json()
                if status.get("state") == "matched":
                    self.count("quick_matched")
                    if self.rng.random() < 0.2:
                        self.count("quick_never_joined")  # the page was closed
                    else:
                        client = HokmClient(self.url, token=token, timeout=30)
                        try:
                            await client.connect()
                            await client.join(status["code"])
                            await self._play(client, chat=False, timeout=300)
                            self.count("quick_games")
                        finally:
                            await client.close()
            if self.rng.random() < 0.5:
                await http.post("/api/accounts/logout")

    async def club_host(self, until: float) -> None:
        """One room used for the whole run (a club's table): four bots play game after game
        (first to one point) while its owner watches and visitors come and go
        (:meth:`club_visit`); what a room keeps should not grow with its games or visitors."""
        host = HokmClient(self.url, name=self.name("club"), timeout=30)
        try:
            code = await self._new_room(host, (1, 2, 3), 1)
            await host.command("stand")
            await host.command("add_bot", seat=0, level=self.rng.choice(LEVELS))
            self.club = code
            await host.command("start")
            while time.monotonic() < until:
                done = sum(e["event"]["kind"] == "game_result" for e in host.events)
                await host.wait_for(
                    lambda c, n=done: (
                        sum(e["event"]["kind"] == "game_result" for e in c.events) > n
                    ),
                    timeout=300,
                )
                self.count("club_games")
                host.events.clear()
                host.frames.clear()
                await host.command("continue_game")
        finally:
            await host.close()

    async def club_visit(self) -> None:
        """A new guest looks in at the club's table, says something, and leaves or drops."""
        if self.club is None:
            return
        client = HokmClient(self.url, name=self.name("v"), timeout=30)
        await client.connect()
        try:
            await client.join(self.club)
            self.count("club_visits")
            with contextlib.suppress(ServerError):
                await client.chat(phrase=self.rng.choice(("hi", "gl", "nice", "thanks")))
            await asyncio.sleep(self.rng.uniform(0.5, 3.0))
            if self.rng.random() < 0.5:
                await client.command("leave")
        finally:
            if self.rng.random() < 0.5:
                await client.drop()
            else:
                await client.close()

    # ------------------------------------------------------------------ driving

    SCENARIOS: tuple[tuple[str, float], ...] = (
        ("full_game", 30),
        ("abandon", 12),
        ("reconnect", 10),
        ("two_people", 6),
        ("spectate", 10),
        ("guest_churn", 20),
        ("analysis", 3),
        ("account", 4),
        ("club_visit", 8),
    )

    async def worker(self, until: float) -> None:
        names = [n for n, _ in self.SCENARIOS]
        weights = [w for _, w in self.SCENARIOS]
        while time.monotonic() < until:
            scenario = self.rng.choices(names, weights)[0]
            job: Callable[[], Awaitable[None]] = getattr(self, scenario)
            try:
                await job()
                self.count(f"ok_{scenario}")
            except (ClientError, httpx.HTTPError, KeyError, OSError) as exc:
                self.count(f"failed_{scenario}")
                print(f"{scenario}: {type(exc).__name__}: {exc}", flush=True)
            await asyncio.sleep(self.rng.uniform(0.0, 0.5))


# ---------------------------------------------------------------------------------- sampling


def proc_figures(pid: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {"gone": True}
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon"):
            out[key] = int(value.split()[0])  # kB
        elif key == "Threads":
            out["threads"] = int(value)
    with contextlib.suppress(OSError):
        out["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    children = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            raw = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
            children.extend(int(c) for c in raw)
    out["children_rss_kB"] = {}
    for child in children:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{child}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    out["children_rss_kB"][child] = int(line.split()[1])
    return out


def db_figures(path: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for suffix in ("", "-wal"):
        with contextlib.suppress(OSError):
            out[f"bytes{suffix}"] = os.path.getsize(path + suffix)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            out["rows"] = {
                t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables
            }
        finally:
            db.close()
    except sqlite3.Error as exc:
        out["error"] = str(exc)
    return out


async def sampler(
    soak: Soak, every: float, until: float, pid: int | None, db: str | None, out: Path | None
) -> None:
    started = time.monotonic()
    while True:
        sample: dict[str, Any] = {"t": round(time.monotonic() - started, 1), "at": time.time()}
        if pid is not None:
            sample["proc"] = proc_figures(pid)
        async with httpx.AsyncClient(base_url=soak.url, timeout=30) as http:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                sample["metrics"] = (await http.get("/api/metrics")).json()
                sample["health"] = (await http.get("/api/health")).json()
        if db is not None:
            sample["db"] = await asyncio.to_thread(db_figures, db)
        sample["counts"] = dict(soak.counts)
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(sample) + "\n")
        proc = sample.get("proc", {})
        metrics = sample.get("metrics", {})
        print(
            f"t={sample['t']:7.1f}s rss={proc.get('VmRSS', 0) / 1024:.1f}MB "
            f"fds={proc.get('fds')} threads={proc.get('threads')} "
            f"rooms={metrics.get('rooms')} conns={metrics.get('connections')} "
            f"db={sample.get('db', {}).get('bytes', 0) / 1e6:.1f}MB "
            f"created={soak.counts['rooms']} games={soak.counts['games']}",
            flush=True,
        )
        if time.monotonic() >= until:
            return
        await asyncio.sleep(every)


async def main(args: argparse.Namespace) -> None:
    soak = Soak(args.url, args.seed)
    until = time.monotonic() + args.minutes * 60
    out = Path(args.out) if args.out else None
    sampling = asyncio.create_task(sampler(soak, args.every, until, args.pid, args.db, out))
    club = asyncio.create_task(soak.club_host(until)) if args.workers else None
    await asyncio.gather(*(soak.worker(until) for _ in range(args.workers)))
    await sampling
    if club is not None:
        with contextlib.suppress(ClientError):
            await club
    print(json.dumps(dict(sorted(soak.counts.items()))), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--pid", type=int, help="the server's process id (memory, fds)")
    parser.add_argument("--db", help="the server's SQLite file (size, rows per table)")
    parser.add_argument("--out", help="append one JSON line per sample here")
    asyncio.run(main(parser.parse_args()))
