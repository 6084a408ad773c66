"""Work from outside the rooms (the simulator's hard bot) runs in the bot workers, bounded."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import httpx
import pytest

from hokm.server.rooms import SIDE_QUEUE, Busy, RoomManager
from hokm.server.sim_api import deal_json, replay
from tests.server.helpers import running_server, settings


async def test_side_jobs_wait_for_a_worker_and_too_many_are_refused(tmp_path: Path) -> None:
    manager = RoomManager(None, settings(tmp_path / "h.db"))  # type: ignore[arg-type]
    await manager.start()
    release = threading.Event()
    try:
        first = asyncio.ensure_future(manager.offload(release.wait, 10))
        await asyncio.sleep(0.05)
        waiting = [asyncio.ensure_future(manager.offload(sum, [i, 1])) for i in range(SIDE_QUEUE)]
        await asyncio.sleep(0.05)
        assert not any(job.done() for job in waiting)  # one job at a time per worker
        with pytest.raises(Busy):
            await manager.offload(sum, [0])
        release.set()
        assert await first is True
        assert await asyncio.gather(*waiting) == [i + 1 for i in range(SIDE_QUEUE)]
        assert await manager.offload(sum, [2, 3]) == 5  # the queue is free again
    finally:
        release.set()
        await manager.shutdown()


async def test_the_simulator_asks_the_hard_bot_in_a_worker_process(tmp_path: Path) -> None:
    """The hard bot's answer comes from the bot worker process (the turn is pickled there and
    back); an unknown level is refused before any bot is asked."""
    hands = deal_json("offload", 0)["hands"]
    body = {"hakem": 0, "hands": hands, "trump": "S", "plays": []}
    async with (
        running_server(settings(tmp_path / "h.db", bot_workers=1)) as url,
        httpx.AsyncClient(base_url=url, timeout=60) as http,
    ):
        answers = await asyncio.gather(
            *(http.post("/api/sim/bot", json={**body, "level": "hard"}) for _ in range(3))
        )
        unknown = await http.post("/api/sim/bot", json={**body, "level": "wizard"})
        assert unknown.status_code == 400 and "level must be one of" in unknown.text
    legal = replay(body)["legal"]
    for answer in answers:
        assert answer.status_code == 200, answer.text
        action = answer.json()["action"]
        assert action["type"] == "play" and action["card"] in legal
