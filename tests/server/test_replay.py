"""A room is rebuilt exactly from its snapshot and the inputs logged after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hokm.engine import view_of
from hokm.server.rooms import SeedCounter, replay, snapshot_data
from hokm.storage import SqlStorage
from hokm.table import Table, TableConfig, choose_bot_action, handlers
from hokm.table.chat import rejection
from tests.server.helpers import running_server, settings, table_with_bots

CONFIG = TableConfig(bot_delay=0.5, hand_pause=1.0, restore_grace=5.0)


def _play(table: Table, log: list[dict[str, Any]], until: float) -> None:
    """Drive a table like the server's actor does, logging each input that changed it."""
    now = table.created_at
    while now < until:
        now += 0.25
        if table.tick(now).changed:
            log.append({"op": "tick", "t": now})
        for turn in table.pending_bot_turns(now):
            action = choose_bot_action(turn)
            if table.apply_bot_action(turn.seat, action, turn.version, now).changed:
                log.append(
                    {
                        "op": "bot",
                        "seat": turn.seat,
                        "a": action.to_dict(),
                        "v": turn.version,
                        "t": now,
                    }
                )
        if table.game is not None and view_of(table.game, 0).legal and int(now * 4) % 3 == 0:
            action = dict(view_of(table.game, 0).legal[0])
            command = {
                "type": "action",
                "action": action,
                "version": table.version,
                "action_id": f"a{now}",
            }
            table.handle("ann", command, now)
            log.append({"op": "cmd", "p": "ann", "d": command, "t": now})


def test_replay_rebuilds_the_same_table_and_restores_it() -> None:
    """Same deals (seeds from the room secret), same game, same version; then paused."""
    seeds = SeedCounter("ab" * 32, "ACDEFG")
    table = Table(
        "ACDEFG",
        "ACDEFG",
        owner="ann",
        owner_name="Ann",
        now=100.0,
        config=CONFIG,
        seed_source=seeds,
    )
    log: list[dict[str, Any]] = [{"op": "connect", "p": "ann", "t": 100.0}]
    table.connect("ann", 100.0)
    for command in (
        {"type": "sit", "seat": 0},
        {"type": "add_bot", "seat": 1, "level": "random"},
        {"type": "add_bot", "seat": 2, "level": "random"},
        {"type": "add_bot", "seat": 3, "level": "random"},
        {"type": "chat", "text": "salam"},
    ):
        table.handle("ann", command, 100.0)
        log.append({"op": "cmd", "p": "ann", "d": command, "t": 100.0})
    snapshot = snapshot_data(table, SeedCounter("ab" * 32, "ACDEFG"))
    table.handle("ann", {"type": "start"}, 101.0)
    log.append({"op": "cmd", "p": "ann", "d": {"type": "start"}, "t": 101.0})
    _play(table, log, until=140.0)
    assert table.game is not None and table.game.history

    rebuilt, rebuilt_seeds = replay(snapshot, log[6:], now=500.0)
    assert rebuilt.version == table.version
    assert rebuilt.game is not None and rebuilt.game.to_dict() == table.game.to_dict()
    assert [m["text"] for m in rebuilt.chat] == ["salam"]
    assert rebuilt_seeds.n == seeds.n
    assert rebuilt.is_paused  # nobody is connected after a restart
    people = [d for d in rebuilt.deadlines.values() if d.kind not in ("bot", "deal")]
    assert all(d.at >= 500.0 + CONFIG.restore_grace for d in people), rebuilt.deadlines


def test_a_log_of_an_earlier_version_with_extra_action_fields_replays_the_same() -> None:
    """Earlier versions accepted (and logged) actions with fields an action does not have;
    this one refuses them from clients. Replayed after an upgrade, such a log must make the
    same moves, not refuse them and diverge."""
    seeds = SeedCounter("ef" * 32, "ACDEFG")
    table = Table(
        "r3", "ACDEFG", owner="ann", owner_name="Ann", now=100.0, config=CONFIG, seed_source=seeds
    )
    log: list[dict[str, Any]] = [{"op": "connect", "p": "ann", "t": 100.0}]
    table.connect("ann", 100.0)
    for command in (
        {"type": "sit", "seat": 0},
        *({"type": "add_bot", "seat": s, "level": "random"} for s in (1, 2, 3)),
    ):
        table.handle("ann", command, 100.0)
        log.append({"op": "cmd", "p": "ann", "d": command, "t": 100.0})
    snapshot = snapshot_data(table, SeedCounter("ef" * 32, "ACDEFG"))
    table.handle("ann", {"type": "start"}, 101.0)
    log.append({"op": "cmd", "p": "ann", "d": {"type": "start"}, "t": 101.0})
    _play(table, log, until=130.0)
    moves = [e for e in log if e["op"] == "cmd" and e["d"]["type"] == "action"]
    assert moves, "Ann made no move"
    for entry in moves:  # as an earlier version logged a client's extra field
        entry["d"] = {**entry["d"], "action": {**entry["d"]["action"], "note": "x" * 10}}
    rebuilt, _ = replay(snapshot, log[5:], now=500.0)
    assert rebuilt.version == table.version
    assert rebuilt.game is not None and table.game is not None
    assert rebuilt.game.to_dict() == table.game.to_dict()


def test_a_reload_in_a_turn_replays_with_the_clock_that_was_left() -> None:
    """Ann's turn is under way when the snapshot is taken; she reloads (her clock runs on)
    and her time runs out. Rebuilt from the snapshot and the log, the table times her out at
    the same moment and reaches the same version (the clock left used to be lost with the
    snapshot: a fresh one on replay, no timeout, a diverged log)."""
    seeds = SeedCounter("cd" * 32, "ACDEFG")
    table = Table(
        "r2", "ACDEFG", owner="ann", owner_name="Ann", now=100.0, config=CONFIG, seed_source=seeds
    )
    table.connect("ann", 100.0)
    table.handle("bob", {"type": "join", "name": "Bob"}, 100.0)
    table.connect("bob", 100.0)
    for player, command in (
        ("ann", {"type": "sit", "seat": 0}),
        ("bob", {"type": "sit", "seat": 1}),
        ("ann", {"type": "add_bot", "seat": 2, "level": "random"}),
        ("ann", {"type": "add_bot", "seat": 3, "level": "random"}),
        ("ann", {"type": "start"}),
    ):
        table.handle(player, command, 100.0)
    now = 100.0
    while not ("turn" in table.deadlines and table.deadlines["turn"].seat == 0):
        now += 0.25
        table.tick(now)
        for turn in table.pending_bot_turns(now):
            table.apply_bot_action(turn.seat, choose_bot_action(turn), turn.version, now)
        turn = table.deadlines.get("turn")
        if turn is not None and turn.seat == 1:  # Bob plays at once
            bob = dict(view_of(table.game, 1).legal[0]) if table.game else {}
            table.handle("bob", {"type": "action", "action": bob, "version": table.version}, now)
        assert now < 400
    snapshot = snapshot_data(table, SeedCounter("cd" * 32, "ACDEFG"))
    due = table.deadlines["turn"].at
    log = [
        {"op": "disconnect", "p": "ann", "t": now + 2},
        {"op": "connect", "p": "ann", "t": now + 2.2},
        {"op": "tick", "t": due},
    ]
    for entry in log:
        if entry["op"] == "disconnect":
            table.disconnect("ann", float(entry["t"]))
        elif entry["op"] == "connect":
            table.connect("ann", float(entry["t"]))
        else:
            assert any(e.kind == "timeout" for e in table.tick(float(entry["t"])).events)
    rebuilt, _ = replay(snapshot, log, now=due + 1)
    assert rebuilt.version == table.version
    assert rebuilt.forced_version == table.forced_version == table.game_version


async def test_delivered_chat_replays_as_delivered_under_later_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message is logged as delivered ("said"); replaying the log after the chat rules
    changed delivers it again instead of judging it anew, so the table comes back at the
    same version (an accepted message refused on replay would shift every later version)."""
    db = tmp_path / "h.db"
    async with running_server(settings(db, snapshot_every=10**6)) as url:
        owner, code = await table_with_bots(url, rules={"turn_seconds": 60})
        await owner.command("start")
        await owner.wait_for(lambda c: bool(c.view and c.view.get("phase") in ("trump", "play")))
        await owner.chat(text=" 👍  👍")
        storage = SqlStorage(f"sqlite+aiosqlite:///{db}")  # read while the room is live
        await storage.start()
        try:
            snapshot = await storage.get_snapshot(code)
            assert snapshot is not None
            entries = [e.data for e in await storage.events_after(code, snapshot[0])]
        finally:
            await storage.close()
        await owner.close()
    said = [e for e in entries if e.get("op") == "said"]
    assert [e["d"]["text"] for e in said] == ["👍👍"]
    # Stricter rules now: every message is refused.
    monkeypatch.setattr(handlers, "chat_text", lambda text, **_: rejection("preset_only"))
    table, _ = replay(snapshot[1], entries, now=entries[-1]["t"] + 1)
    assert [m["text"] for m in table.chat] == ["👍👍"]
    assert table.version >= max(e["after"] for e in entries if "after" in e)
