"""Does the simulator's hard bot slow the rooms down? Ping latency under /api/sim/bot load.

    .venv/bin/hokm serve --port 8792 &
    .venv/bin/python scripts/sim_bot_load.py http://127.0.0.1:8792 --clients 4 --seconds 10

``--clients`` HTTP clients loop ``POST /api/sim/bot`` (level ``hard``, an opening lead) for
``--seconds`` while one WebSocket client pings every 0.1 s; prints the ping latency (what every
player at every table would feel) and how many bot answers came back. Figures:
``docs/benchmarks.md``, "The simulator's hard bot and the event loop".
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import httpx

from hokm.client import HokmClient


async def main(url: str, clients: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        deal = (await http.post("/api/sim/deal", json={"seed": "load", "hakem": 0})).json()
        body = {"hakem": 0, "hands": deal["hands"], "trump": "S", "plays": [], "level": "hard"}
        stop = time.monotonic() + seconds
        answers: dict[int, int] = {}

        async def ask() -> None:
            while time.monotonic() < stop:
                status = (await http.post("/api/sim/bot", json=body)).status_code
                answers[status] = answers.get(status, 0) + 1

        async def ping(player: HokmClient) -> list[float]:
            out = []
            while time.monotonic() < stop:
                started = time.perf_counter()
                await player.ping()
                out.append((time.perf_counter() - started) * 1000)
                await asyncio.sleep(0.1)
            return out

        async with HokmClient(url, name="pinger") as player:
            pings, *_ = await asyncio.gather(ping(player), *(ask() for _ in range(clients)))
    pings.sort()
    p90 = pings[int(len(pings) * 0.9)]
    print(
        f"{clients} clients, {seconds:g} s: answers {dict(sorted(answers.items()))}; "
        f"ping p50 {statistics.median(pings):.1f} ms, p90 {p90:.1f} ms, "
        f"max {pings[-1]:.1f} ms ({len(pings)} pings)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(main(args.url, args.clients, args.seconds))
