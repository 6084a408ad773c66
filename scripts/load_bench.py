"""Load benchmark of ``hokm serve`` (not a test): many concurrent tables on loopback.

Each table has one scripted human client (it thinks ``--think`` seconds, then plays a legal
card) and three bots (``--level``, moving after the server's ``--bot-delay``). The server runs
in a subprocess on a fresh SQLite database (or ``--db``). Measured:

* move-to-broadcast latency: from the scripted client sending its action to the same client
  receiving the event of that move (stored, applied and broadcast by the server);
* moves per second over all tables (human and bot moves);
* the server's memory per table (RSS growth divided by the number of tables).

With ``--relay REDIS_URL`` two server processes share the database through Redis
(``hokm serve --redis``): every room is created on the first and played from the second, so
each move and each frame crosses Redis twice (``docs/operations.md``, "Scaling out").

Usage::

    .venv/bin/python scripts/load_bench.py --tables 500 --seconds 60
    .venv/bin/python scripts/load_bench.py --tables 100 200 500 1000 --seconds 30
    .venv/bin/python scripts/load_bench.py --tables 200 --relay redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from hokm.client import ClientError, HokmClient

MOVE_KINDS = {"card_played", "trump_chosen", "bam_decided", "redealt"}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    games: int = 0
    measuring: bool = False

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def rss_kib(pid: int) -> int:
    total = 0
    for p in [pid, *children(pid)]:
        with contextlib.suppress(OSError):
            text = Path(f"/proc/{p}/status").read_text()
            match = re.search(r"VmRSS:\s+(\d+)", text)
            if match and p == pid:
                total += int(match.group(1))
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` and its children (the bot workers)."""
    total = 0.0
    for p in [pid, *children(pid)]:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def children(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return []


class Server:
    def __init__(self, db: str, args: argparse.Namespace, *extra: str) -> None:
        self.db = db
        self.args = args
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkdtemp()) / "server.log"

    def start(self) -> str:
        cmd = [
            sys.executable,
            "-m",
            "hokm",
            "serve",
            "--port",
            "0",
            "--db",
            self.db,
            "--bot-delay",
            str(self.args.bot_delay),
            "--hand-pause",
            "1",
            "--bot-workers",
            str(self.args.bot_workers),
            "--full-gc-seconds",
            str(self.args.full_gc_seconds),
            "--log-level",
            "warning",
            *self.extra,
        ]
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        # uvicorn prints the port only at info level: find the listening socket instead.
        for _ in range(600):
            port = self._port()
            if port:
                return f"http://127.0.0.1:{port}"
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(self.log.read_text()[-2000:])

    def _port(self) -> int | None:
        assert self.proc is not None
        inodes = set()
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{self.proc.pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        with contextlib.suppress(OSError):
            for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
                parts = line.split()
                if parts[3] == "0A" and parts[9] in inodes:  # LISTEN
                    return int(parts[1].split(":")[1], 16)
        return None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


def _moved_on(client: HokmClient, *, seen: int) -> bool:
    return client.version != seen


async def table(
    url: str, n: int, args: argparse.Namespace, stats: Stats, stop: asyncio.Event
) -> None:
    rng = random.Random(n)
    client = HokmClient(url, name=f"bench{n}", timeout=60, batch=not args.no_batch)
    sent: dict[str, float] = {}

    def on_frame(frame: dict[str, Any]) -> None:
        event = frame.get("event")
        if not isinstance(event, dict):
            return
        kind = event.get("kind")
        if kind in MOVE_KINDS and stats.measuring:
            stats.moves += 1
        if kind == "game_result":
            stats.games += 1
        if kind in MOVE_KINDS and event.get("seat") == 0 and not event.get("auto") and "t" in sent:
            started = sent.pop("t")
            if stats.measuring:
                stats.latencies.append(time.perf_counter() - started)

    client.on_frame = on_frame
    await client.connect()
    rules = {"turn_seconds": 120, "trump_seconds": 120, "target_points": 7}
    if args.create_url:  # the room is owned by the other process: this socket is relayed
        code = await HokmClient(args.create_url, token=client.token).create_room(rules=rules)
    else:
        code = await client.create_room(rules=rules)
    await client.join(code)
    await client.command("sit", seat=0)
    for seat in (1, 2, 3):
        await client.command("add_bot", seat=seat, level=args.level)
    await client.command("start")
    while not stop.is_set():
        status = (client.table or {}).get("status")
        if client.legal:
            await asyncio.sleep(rng.uniform(*args.think))
            legal = client.legal
            if not legal:
                continue
            action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
            sent["t"] = time.perf_counter()
            try:
                await client.act(action)
            except ClientError as exc:
                sent.pop("t", None)
                stats.error(getattr(exc, "code", "client"))
            continue
        if status == "between_games" or any(
            e["event"].get("kind") == "game_result" for e in client.events[-3:]
        ):
            with contextlib.suppress(ClientError):
                await client.command("continue_game")
        seen = client.version
        with contextlib.suppress(ClientError):
            await client.wait_for(partial(_moved_on, seen=seen), timeout=5)
        del client.events[:-10]
        del client.frames[:]
    await client.close()


async def drive(
    url: str, tables: range, args: argparse.Namespace, start_at: float
) -> dict[str, Any]:
    """Run ``tables`` in this process; measure from ``start_at`` for ``args.seconds``."""
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    for n in tables:
        tasks.append(asyncio.create_task(table(url, n, args, stats, stop)))
        if n % 25 == 24:
            await asyncio.sleep(0.25)
    await asyncio.sleep(max(0.0, start_at - time.time()))
    stats.measuring = True
    cpu = time.process_time()
    await asyncio.sleep(args.seconds)
    cpu = time.process_time() - cpu
    stats.measuring = False
    stop.set()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "latencies": stats.latencies,
        "moves": stats.moves,
        "errors": stats.errors,
        "failed": sum(isinstance(d, BaseException) for d in done),
        "cpu_percent": 100 * cpu / args.seconds,
    }


def client_process(
    url: str, first: int, count: int, args: argparse.Namespace, start_at: float
) -> subprocess.Popen[str]:
    cmd = [
        sys.executable,
        __file__,
        "--client-of",
        url,
        "--first",
        str(first),
        "--tables",
        str(count),
        "--start-at",
        str(start_at),
        "--seconds",
        str(args.seconds),
        "--level",
        args.level,
        "--think",
        str(args.think[0]),
        str(args.think[1]),
        *(["--no-batch"] if args.no_batch else []),
        *(["--create-url", args.create_url] if args.create_url else []),
    ]
    nice = args.client_nice
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, text=True, preexec_fn=(lambda: os.nice(nice)) if nice else None
    )


async def run_level(
    url: str, server: Server, tables: int, args: argparse.Namespace
) -> dict[str, Any]:
    assert server.proc is not None
    base = rss_kib(server.proc.pid)
    ramp = tables / 100 + 3.0  # the clients connect and seat their tables meanwhile
    start_at = time.time() + ramp + args.warmup
    share = [tables // args.procs + (i < tables % args.procs) for i in range(args.procs)]
    procs, first = [], 0
    for count in share:
        procs.append(client_process(url, first, count, args, start_at))
        first += count
    await asyncio.sleep(max(0.0, start_at - time.time()))
    cpu_before = cpu_seconds(server.proc.pid)
    started = time.time()
    await asyncio.sleep(args.seconds)
    elapsed = time.time() - started
    cpu = cpu_seconds(server.proc.pid) - cpu_before
    rss = rss_kib(server.proc.pid)
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        metrics = (await http.get("/api/metrics", params={"since": str(start_at)})).json()
    results = []
    for proc in procs:
        out, _ = await asyncio.get_running_loop().run_in_executor(None, proc.communicate)
        results.append(json.loads(out.strip().splitlines()[-1]))
    lat = sorted(x for r in results for x in r["latencies"])
    moves = sum(r["moves"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v

    def q(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else float("nan")

    return {
        "tables": tables,
        "client_processes": args.procs,
        "client_nice": args.client_nice,
        "batch": not args.no_batch,
        "seconds": round(elapsed, 1),
        "human_moves": len(lat),
        "moves_per_s": round(moves / elapsed, 1),
        "server_latency": metrics["latency"],
        "server_gc": metrics.get("gc"),
        "client_p50_ms": q(0.50),
        "client_p90_ms": q(0.90),
        "client_p99_ms": q(0.99),
        "client_mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
        "server_cpu_percent": round(100 * cpu / elapsed, 1),
        "server_cpu_ms_per_move": round(1000 * cpu / max(moves, 1), 2),
        "server_rss_mib": round(rss / 1024, 1),
        "client_cpu_percent": [round(r["cpu_percent"], 1) for r in results],
        "kib_per_table": round((rss - base) / tables, 1),
        "errors": errors,
        "failed_tables": sum(r["failed"] for r in results),
    }


async def main(args: argparse.Namespace) -> None:
    if args.client_of:
        tables = range(args.first, args.first + args.tables[0])
        result = await drive(args.client_of, tables, args, args.start_at)
        print(json.dumps(result), flush=True)
        return
    for tables in args.tables:
        db = args.db or str(Path(tempfile.mkdtemp()) / "bench.db")
        if not args.relay:
            server = Server(db, args)
            url = server.start()
            try:
                result = await run_level(url, server, tables, args)
            finally:
                server.stop()
            print(json.dumps(result), flush=True)
            continue
        os.environ["HOKM_REDIS_PREFIX"] = f"hokm-bench-{os.getpid()}-{tables}:"
        owner, relay = (
            Server(db, args, "--redis", args.relay),
            Server(db, args, "--redis", args.relay),
        )
        args.create_url = owner.start()
        try:
            url = relay.start()
            try:
                result = await run_level(url, relay, tables, args)
            finally:
                relay.stop()
        finally:
            owner.stop()
        args.create_url = None
        print(json.dumps({**result, "relayed": True}), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, nargs="+", default=[100])
    parser.add_argument("--seconds", type=float, default=30.0, help="measuring time per level")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds after the ramp")
    parser.add_argument(
        "--think", type=float, nargs=2, default=(1.0, 3.0), help="human think time range"
    )
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument(
        "--full-gc-seconds", type=float, default=300.0, help="hokm serve --full-gc-seconds"
    )
    parser.add_argument("--level", default="random")
    parser.add_argument(
        "--db", default=None, help="database URL or SQLite path (default: a new file)"
    )
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument(
        "--no-batch", action="store_true", help="one WebSocket message per frame (no hello.batch)"
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=0,
        help="run the client processes at this niceness (they stand for remote machines; on "
        "loopback they otherwise take the CPU from the server each time a frame wakes them)",
    )
    parser.add_argument(
        "--relay",
        default=None,
        metavar="REDIS_URL",
        help="two server processes through this Redis: rooms created on one, played on the other",
    )
    parser.add_argument("--create-url", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--client-of", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    try:  # the clients stand for remote machines: keep their own CPU cost low
        import uvloop
    except ImportError:
        asyncio.run(main(parser.parse_args()))
    else:
        uvloop.run(main(parser.parse_args()))
