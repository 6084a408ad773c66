"""Fuzz of "nothing is lost on a crash": random inputs from five people (commands, mostly
well-formed, often junk; sockets coming and going; the room's own timers and bots) go through
a real room actor and its input log; the process then dies at a random moment (the room is
dropped without its final snapshot) and another room manager loads the room from the same
database. The table it rebuilds is the one the players had: the same version, game, seats,
score, chat and members.

``HOKM_CRASH_FUZZ_SEEDS=N`` runs N seeds on SQLite and N/2 on PostgreSQL (a longer soak;
CI runs a few).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import secrets
from pathlib import Path
from typing import Any

import pytest

from hokm.engine import RuleSet
from hokm.server import Settings
from hokm.server.auth import Identity
from hokm.server.rooms import RoomActor, RoomManager
from hokm.storage import SqlStorage
from hokm.table import TableConfig
from tests.server.helpers import PG_URL, settings
from tests.server.test_actor import FakeConnection
from tests.table.test_fuzz import _PLAYERS, _command

SEEDS = int(os.environ.get("HOKM_CRASH_FUZZ_SEEDS", "4"))
# Short turns and pauses, so the room's own timers and bots act during the run too.
CONFIG = TableConfig(bot_delay=0.0, hand_pause=0.0, restore_grace=0.2)


def _kept(data: dict[str, Any]) -> dict[str, Any]:
    """What a restart must give back: the stored table but for its clocks (a reload pauses
    a game and moves its deadlines on) and who is returning (everyone, after a restart);
    the replies kept for retried commands included."""
    kept = {k: v for k, v in data.items() if k not in ("deadlines", "paused_at", "turn_clock")}
    kept.pop("returning", None)
    return kept


async def _settled(actor: RoomActor) -> None:
    """Every input queued so far is applied (a sync is answered after them)."""
    probe = FakeConnection("probe")
    await actor.sync(probe, actor.table.version)


@pytest.mark.parametrize(
    ("backend", "seed"),
    [*(("sqlite", s) for s in range(SEEDS)), *(("postgresql", s) for s in range(SEEDS // 2))],
)
async def test_a_room_rebuilt_after_a_crash_is_the_one_its_players_had(
    tmp_path: Path, backend: str, seed: int
) -> None:
    rng = random.Random(seed)
    config = dataclasses.replace(settings(tmp_path / "h.db", table=CONFIG), bot_workers=0)
    if backend == "postgresql":
        prefix = f"cf{secrets.token_hex(4)}_"
        config = dataclasses.replace(config, database_url=PG_URL, table_prefix=prefix)
    storage = SqlStorage(config.database_url, prefix=config.table_prefix)
    await storage.start()
    try:
        code, had = await _play_then_crash(rng, storage, config)
        second = RoomManager(storage, config)
        await second.start()
        try:
            room = await second.get(code)
            assert isinstance(room, RoomActor)
            got = room.table.to_dict()
        finally:
            await second.shutdown()
    finally:
        if backend == "postgresql":
            await storage.drop_all()
        await storage.close()
    assert got["version"] == had["version"]
    before, after = _kept(had), _kept(got)
    assert {k: (v, after.get(k)) for k, v in before.items() if after.get(k) != v} == {}


async def _play_then_crash(
    rng: random.Random, storage: SqlStorage, config: Settings
) -> tuple[str, dict[str, Any]]:
    """A room played at random, then its process killed: the room's code and its table."""
    first = RoomManager(storage, config)
    await first.start()
    try:
        actor = await first.create(Identity("ann", "Ann"), _rules(rng))
        conns: dict[str, list[FakeConnection]] = {p: [] for p in _PLAYERS}
        for _ in range(rng.randrange(150, 400)):
            roll = rng.random()
            player = rng.choice(_PLAYERS)
            if roll < 0.72:
                sender, command = _command(rng, actor.table)
                conn = conns[sender][0] if conns.get(sender) else None
                if isinstance(command, dict):
                    await actor.command(conn, sender, command)
            elif roll < 0.82:
                conn = FakeConnection(player)
                answer = await actor.attach(conn, player.title(), None)
                if answer.get("type") != "error":
                    conns[player].append(conn)
            elif roll < 0.9 and conns[player]:
                actor.detach(conns[player].pop(rng.randrange(len(conns[player]))))
            else:
                await asyncio.sleep(rng.choice([0.0, 0.02, 0.12, 0.12]))  # timers, bots act
            if actor.stopped:  # (everyone left: a room may stop itself)
                break
        await _settled(actor)
        had = actor.table.to_dict()
        first.drop(actor)  # killed: no final snapshot, nothing more written
        return actor.code, had
    finally:
        await first.shutdown()


def _rules(rng: random.Random) -> RuleSet:
    preset = rng.choice(["platform-a", "classic"])
    return dataclasses.replace(RuleSet.preset(preset), turn_seconds=0.1, trump_seconds=0.1)
