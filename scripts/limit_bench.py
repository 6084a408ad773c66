"""What a per-address limit costs a request (not a test): the shared token bucket in Redis
(``hokm.server.cluster.RedisAddressLimits``, one script call) against one process's own
(``hokm.server.limits.AddressLimits``), each asked ``--calls`` times in a row from 50
addresses. Keys are written under a fresh prefix and deleted at the end.

Usage::

    .venv/bin/python scripts/limit_bench.py --redis redis://127.0.0.1:6379/0 --calls 5000
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from hokm.server.cluster import Cluster, RedisAddressLimits
from hokm.server.limits import AddressLimits


async def _timed(take: Callable[[str], Awaitable[bool]], calls: int) -> list[float]:
    times = []
    for i in range(calls):
        start = time.perf_counter()
        await take(f"203.0.113.{i % 50}")
        times.append(time.perf_counter() - start)
    return sorted(times)


async def main(url: str, calls: int) -> None:
    cluster = Cluster(url, prefix=f"hokm-bench-{secrets.token_hex(4)}:")
    cluster.redis = aioredis.Redis.from_url(url, socket_timeout=5)
    try:
        shared = RedisAddressLimits(cluster, "bench", AddressLimits(rate=1000.0, burst=1e9))
        local = AddressLimits(rate=1000.0, burst=1e9)
        for name, take in (("Redis (shared)", shared.take), ("this process", local.take)):
            times = await _timed(take, calls)
            p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
            print(f"{name:<15} p50 {p50 * 1e3:.3f} ms  p99 {p99 * 1e3:.3f} ms  ({calls} calls)")
    finally:
        keys = [key async for key in cluster.redis.scan_iter(match=f"{cluster.prefix}*")]
        if keys:
            await cluster.redis.delete(*keys)
        await cluster.redis.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    asyncio.run(main(args.redis, args.calls))
