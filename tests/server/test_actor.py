"""The room actor: one owner applies inputs, so racing inputs apply exactly once."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import gc
import logging
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hokm.client import HokmClient, ServerError
from hokm.engine import Deal, Game, Play, RuleSet, Seat, view_of
from hokm.server import create_app
from hokm.server.auth import Identity
from hokm.server.rooms import (
    FullCollections,
    GcPauses,
    RoomManager,
    _BotMove,
    _Command,
    _Sync,
    _Tick,
)
from hokm.storage import SqlStorage, StorageError
from hokm.table.model import BotTurn, GameResult
from tests.server.helpers import running_server, settings, table_with_bots


class FakeConnection:
    def __init__(self, player: str) -> None:
        self.player = player
        self.frames: list[dict[str, Any]] = []

    def push(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)

    def close(self, code: int, reason: str) -> None:
        pass


@contextlib.asynccontextmanager
async def _rooms(tmp_path: Path) -> AsyncIterator[tuple[SqlStorage, RoomManager]]:
    """A fresh SQLite store and a room manager without bot workers, shut down after."""
    storage = SqlStorage(str(tmp_path / "h.db"))
    await storage.start()
    rooms = RoomManager(storage, dataclasses.replace(settings(tmp_path / "h.db"), bot_workers=0))
    await rooms.start()
    try:
        yield storage, rooms
    finally:
        await rooms.shutdown()
        await storage.close()


async def test_a_move_a_timeout_and_a_bot_move_together_apply_once(tmp_path: Path) -> None:
    """The human's card, the turn timeout and a bot move for the same turn: one card is played."""
    async with _rooms(tmp_path) as (_storage, rooms):
        ann = Identity("g_ann", "Ann")
        actor = await rooms.create(ann, RuleSet(turn_seconds=0.3, trump_seconds=0.3))
        conn = FakeConnection(ann.id)
        await actor.attach(conn, "Ann", None)
        await actor.command(conn, ann.id, {"type": "sit", "seat": 0})
        for seat in (1, 2, 3):
            await actor.command(conn, ann.id, {"type": "add_bot", "seat": seat, "level": "random"})
        await actor.command(conn, ann.id, {"type": "start"})
        for _ in range(400):
            game = actor.table.game
            if game is not None and view_of(game, 0).legal:
                break
            await asyncio.sleep(0.01)
        table = actor.table
        assert table.game is not None
        legal = dict(view_of(table.game, 0).legal[0])
        before = table.version
        # Hold the room's own timer (it is not re-armed while its time stays the same), so
        # the timeout is due but not yet applied when the three inputs arrive together.
        assert actor._timer is not None
        actor._timer.cancel()
        actor._timer = None
        await asyncio.sleep(0.35)  # the turn's deadline has passed
        assert table.version == before  # nothing was applied meanwhile
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[dict[str, Any]] = loop.create_future()
        command = {"type": "action", "action": legal, "version": before, "action_id": "race"}
        actor.inbox.put_nowait(_Command(conn, ann.id, command, reply, time.time()))
        actor.inbox.put_nowait(_Tick())
        actor.inbox.put_nowait(_BotMove(0, legal, table.game_version))
        done: asyncio.Future[dict[str, Any]] = loop.create_future()
        actor.inbox.put_nowait(_Sync(conn, before, done))  # answered after the three
        answer = await asyncio.wait_for(reply, 10)
        await asyncio.wait_for(done, 10)
        moves = [
            f["event"]
            for f in conn.frames
            if f.get("type") == "event"
            and f["version"] > before
            and f["event"]["kind"] in ("card_played", "trump_chosen")
            and f["event"]["seat"] == 0
        ]
        assert answer["type"] in ("ok", "error")
        assert len(moves) == 1  # exactly once, whoever won the race
        assert not moves[0].get("auto") if answer["type"] == "ok" else moves[0].get("auto")


class CountingPool(concurrent.futures.ThreadPoolExecutor):
    """A real thread pool that counts the work handed to it."""

    submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def _turn_mid_hand(level: str) -> BotTurn:
    game = Game(hakem=Seat(0))
    rng = random.Random(7)
    plays = 0
    while plays < 9:
        actions = game.legal_actions()
        if not actions:
            game.apply(Deal.from_seed("inline-bots", Seat(0)))
            continue
        plays += isinstance(actions[0], Play)
        game.apply(rng.choice(actions))
    seat = game.legal_actions()[0].seat
    return BotTurn(seat, view_of(game, seat), level, 1, "seed")


async def test_cheap_bots_think_in_the_loop_and_the_search_bot_in_the_pool(
    tmp_path: Path,
) -> None:
    """A rule-bot decision costs less than a trip to a worker, so it is computed in a loop
    callback; the search bot's goes to the pool. Both answer with a legal action."""
    storage = SqlStorage(str(tmp_path / "h.db"))
    await storage.start()
    rooms = RoomManager(storage, settings(tmp_path / "h.db"))
    pool = CountingPool(1)
    rooms._pool = pool
    loop = asyncio.get_running_loop()
    try:
        for level, trips in (("random", 0), ("medium", 0), ("hard", 1)):
            turn = _turn_mid_hand(level)
            answer: asyncio.Future[dict[str, Any] | None] = loop.create_future()
            rooms.think(turn, answer.set_result)
            action = await asyncio.wait_for(answer, 30)
            assert action in turn.view.legal
            assert pool.submitted == trips
            pool.submitted = 0
    finally:
        pool.shutdown()
        await storage.close()


async def test_a_failing_inline_bot_reports_no_action(tmp_path: Path) -> None:
    """A bot that raises answers None (the table hands the turn out again later)."""
    storage = SqlStorage(str(tmp_path / "h.db"))
    await storage.start()
    rooms = RoomManager(storage, settings(tmp_path / "h.db"))
    try:
        answer: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        broken = dataclasses.replace(_turn_mid_hand("medium"), view=None)  # type: ignore[arg-type]
        rooms.think(broken, answer.set_result)
        assert await asyncio.wait_for(answer, 5) is None
    finally:
        await storage.close()


async def test_full_collections_run_on_their_period_only() -> None:
    """With a period, the oldest generation is collected by the timer, not by CPython's
    heuristic; the thresholds come back when it stops."""
    saved = gc.get_threshold()
    pauses = GcPauses()
    full = FullCollections(0.05)
    full.start()
    pauses.install()
    try:
        assert gc.get_threshold()[:2] == saved[:2]
        assert gc.get_threshold()[2] > 10**8
        # Each full collection walks every object of this test process: under load one can
        # take longer than the period, so wait for two of them rather than a fixed time.
        deadline = asyncio.get_running_loop().time() + 20
        while pauses.summary()["gen2"]["count"] < 2:
            assert asyncio.get_running_loop().time() < deadline, "no second full collection"
            await asyncio.sleep(0.05)
    finally:
        pauses.uninstall()
        await full.stop()
    assert gc.get_threshold() == saved


def test_gc_pause_summary_survives_a_collection_while_it_reads() -> None:
    """A collection can start at any allocation, also inside ``summary`` while it walks the
    samples; its hook then adds a sample. ``/api/metrics`` used to fail with "deque mutated
    during iteration" (seen in CI)."""
    pauses = GcPauses()
    for i in range(2_000):
        pauses.samples.append((float(i), i % 3, 0.001, 0.001))
    saved = gc.get_threshold()
    pauses.install()
    gc.set_threshold(1)  # every allocation of a tracked object starts a collection
    try:
        summary = pauses.summary()
    finally:
        gc.set_threshold(*saved)
        pauses.uninstall()
    assert sum(summary[f"gen{g}"]["count"] for g in (0, 1, 2)) >= 2_000
    assert len(pauses.samples) > 2_000


async def test_leaving_from_one_socket_takes_the_players_other_sockets_out_too(
    tmp_path: Path,
) -> None:
    """Ann leaves on one socket and joins again on it; when her other socket, which saw her
    leave, closes later, she is still connected and the game goes on (it used to count as
    her disconnecting, and paused the game)."""
    storage = SqlStorage(str(tmp_path / "h.db"))
    await storage.start()
    rooms = RoomManager(storage, settings(tmp_path / "h.db"))
    await rooms.start()
    try:
        ann = Identity("g_ann", "Ann")
        actor = await rooms.create(ann, RuleSet(turn_seconds=60, trump_seconds=60))
        first, second = FakeConnection(ann.id), FakeConnection(ann.id)
        await actor.attach(first, "Ann", None)
        await actor.attach(second, "Ann", None)
        await actor.command(first, ann.id, {"type": "sit", "seat": 0})
        for seat in (1, 2, 3):
            await actor.command(first, ann.id, {"type": "add_bot", "seat": seat, "level": "random"})
        await actor.command(first, ann.id, {"type": "start"})
        assert (await actor.command(first, ann.id, {"type": "leave"}))["type"] == "ok"
        left = [
            f["event"]["player"]
            for f in second.frames
            if f.get("type") == "event" and f["event"]["kind"] == "member_left"
        ]
        assert left == [ann.id]  # the other socket saw her leave ...
        assert second not in actor.conns  # ... and is out of the room
        assert (await actor.sync(second, -1))["code"] == "not_in_room"
        heard = len(second.frames)

        await actor.attach(first, "Ann", None)  # she comes back on the first socket
        actor.detach(second)  # and the second one closes
        assert (await actor.sync(first, -1))["type"] == "snapshot"  # the detach is applied
        assert actor.table.members[ann.id].is_connected
        assert actor.table.status != "paused"
        assert len(second.frames) == heard  # the old socket heard nothing more
    finally:
        await rooms.shutdown()
        await storage.close()


async def test_the_sweeper_catches_up_after_a_listener_failed_and_backs_off(
    tmp_path: Path,
) -> None:
    """A game is stored but its listener (the accounts' points) fails: the manager's sweep
    runs the catch-ups soon after; a catch-up that fails is tried again only after a wait.
    (What the accounts' catch-up records: tests/accounts/test_api_points.py.)"""
    storage = SqlStorage(str(tmp_path / "h.db"))
    await storage.start()
    rooms = RoomManager(storage, settings(tmp_path / "h.db", room_idle_seconds=0.1))
    heard: list[str] = []
    calls: list[float] = []

    async def failing(actor: Any, result: GameResult, game_id: str, at: int) -> None:
        heard.append(game_id)
        raise RuntimeError("the accounts' database is away")

    async def catch_up(before: int | None) -> int:
        calls.append(time.time())
        if len(calls) == 1:
            raise RuntimeError("still away")
        return 1

    rooms.game_listeners.append(failing)
    rooms.catch_ups.append(catch_up)
    await rooms.start()
    try:
        actor = await rooms.create(Identity("g_ann", "Ann"), RuleSet())
        result = GameResult(
            "T",
            1,
            "completed",
            0,
            (7, 2),
            ("g_ann", None, None, None),
            (None, "random", "random", "random"),
            ("normal",),
            False,
            (),
        )
        await actor._store_game(result, {"format": "hokm-record/1"})
        assert heard == [f"{actor.code}-1"] and rooms.catch_up_due
        assert [g.game_id for g in await storage.list_games(actor.code)] == heard  # stored
        for _ in range(100):
            if calls:
                break
            await asyncio.sleep(0.02)
        assert len(calls) == 1 and rooms.catch_up_due  # it failed: due again, later
        await asyncio.sleep(0.5)
        assert len(calls) == 1  # backing off (a minute)
        rooms._catch_up_next = 0.0  # the minute has passed
        for _ in range(100):
            if len(calls) == 2:
                break
            await asyncio.sleep(0.02)
        assert len(calls) == 2 and not rooms.catch_up_due
    finally:
        await rooms.shutdown()
        await storage.close()


async def test_refused_commands_are_not_stored(tmp_path: Path) -> None:
    """A refused command changes nothing, so nothing of it is written: sockets sending
    commands that are always refused, each with a fresh ``action_id``, used to add a stored
    log row each and fill the snapshot with refusals (a database filled at thousands of rows
    a second). Sent again, a refusal is still answered as before ("repeated")."""
    async with _rooms(tmp_path) as (storage, rooms):
        ann = Identity("g_ann", "Ann")
        actor = await rooms.create(ann, RuleSet())
        conn = FakeConnection(ann.id)
        await actor.attach(conn, "Ann", None)
        await actor.command(conn, ann.id, {"type": "sit", "seat": 0, "action_id": "ok-1"})
        stored = len(await storage.events_after(actor.code, 0))
        for n in range(200):
            bad = {"type": "sit", "seat": 9, "action_id": f"flood-{n}"}
            reply = await actor.command(conn, ann.id, bad)
            assert reply["type"] == "error"
        again = await actor.command(
            conn, ann.id, {"type": "sit", "seat": 9, "action_id": "flood-7"}
        )
        assert again["type"] == "error" and again.get("repeated") is True
        assert len(await storage.events_after(actor.code, 0)) == stored
        assert "flood" not in str(actor.table.to_dict()["replies"])
        moved = await actor.command(conn, ann.id, {"type": "sit", "seat": 0, "action_id": "ok-1"})
        assert moved.get("repeated") is True  # a command that changed the table: kept


async def test_a_room_that_cannot_reload_says_so_once_per_outage(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database down (writes and reads fail): the room refuses each input and tries to
    reload its table at the next one. The failed reload is logged once with its traceback,
    not at every input (a client retrying once a second wrote a traceback a second); when
    the database is back the room reloads and play goes on."""
    app = create_app(settings(tmp_path / "hokm.db"))
    async with running_server(settings(tmp_path / "hokm.db"), app) as url:
        owner, code = await table_with_bots(url, rules={"turn_seconds": 120})
        await owner.command("start")
        await owner.wait_for(lambda c: bool(c.legal))
        action = {k: v for k, v in owner.legal[0].items() if k != "seat"}

        async def down(*args: Any, **kwargs: Any) -> Any:
            raise StorageError("the database does not answer")

        state = app.state.hokm
        monkeypatch.setattr(state.storage, "append_events", down)
        monkeypatch.setattr(state.rooms, "load_table", down)
        for _ in range(4):
            with pytest.raises(ServerError, match="server_error"):
                await owner.act(action)
        failed = [r for r in caplog.records if "reload failed" in r.getMessage()]
        assert len(failed) == 1 and failed[0].exc_info is not None
        monkeypatch.undo()
        back = HokmClient(url, token=owner.token)
        await back.connect()
        await back.join(code)
        await back.wait_for(lambda c: bool(c.legal))
        await back.act({k: v for k, v in back.legal[0].items() if k != "seat"})
        await back.close()
        await owner.close()
    assert len([r for r in caplog.records if "reload failed" in r.getMessage()]) == 1


async def test_a_logged_input_whose_game_fails_to_save_is_answered_as_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The input that ends a game is logged, then the game is stored: if storing fails, the
    input still stands (a replay makes it again, and the reload stores the game). Its sender
    was told ``server_error`` for a command that took effect; it is told it was done."""
    app = create_app(settings(tmp_path / "hokm.db"))
    async with running_server(settings(tmp_path / "hokm.db"), app) as url:
        owner, code = await table_with_bots(url, rules={"turn_seconds": 120})
        await owner.command("start")
        await owner.wait_for(lambda c: bool(c.legal))
        storage = app.state.hokm.storage
        save = storage.save_game
        calls: list[str] = []

        async def once_down(summary: Any, record: Any) -> None:
            calls.append(summary.game_id)
            if len(calls) == 1:
                raise StorageError("the database does not answer")
            await save(summary, record)

        monkeypatch.setattr(storage, "save_game", once_down)
        reply = await owner.command("close_game")  # raises ServerError on an error frame
        assert reply.get("type") != "error", reply
        for _ in range(200):  # the reload follows the answer
            if len(calls) == 2:
                break
            await asyncio.sleep(0.02)
        assert calls == [f"{code}-1", f"{code}-1"]  # failed, then stored by the reload
        found = await storage.get_game(f"{code}-1")
        assert found is not None and found[1]["result"]["status"] == "closed"
        await owner.close()


async def test_unloaded_and_unknown_rooms_leave_no_loading_lock_behind(tmp_path: Path) -> None:
    """The sweeper unloads an idle room, a join loads it again, it is unloaded again, and
    unknown codes are probed: the manager keeps no lock for any of them (it kept one for every
    room it ever unloaded, so a server running for weeks held one per room it had seen)."""
    storage = SqlStorage(str(tmp_path / "h.db"))
    await storage.start()
    rooms = RoomManager(storage, settings(tmp_path / "h.db", room_idle_seconds=0.1))
    await rooms.start()

    async def swept(code: str) -> None:
        for _ in range(200):
            if code not in rooms.actors:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"room {code} was not unloaded")

    try:
        ann = Identity("g_ann", "Ann")
        codes = [(await rooms.create(ann, RuleSet())).code for _ in range(3)]
        for code in codes:
            await swept(code)
        assert rooms._loading == {}
        again = await rooms.get(codes[0])  # a join after the unload loads it from storage
        assert again is not None and rooms.actors[codes[0]] is again
        assert rooms._loading == {}
        await swept(codes[0])
        assert await rooms.get("ZZZZZZ") is None
        assert rooms._loading == {}
    finally:
        await rooms.shutdown()
        await storage.close()


async def test_a_join_during_an_unload_loads_the_room_once(tmp_path: Path) -> None:
    """A join that arrives while the room is being unloaded waits for the unload, then loads
    the room: one actor, and no lock left behind."""
    async with _rooms(tmp_path) as (_storage, rooms):
        actor = await rooms.create(Identity("g_ann", "Ann"), RuleSet())
        code = actor.code
        loads = 0
        load = rooms._load

        async def counted(code: str) -> Any:
            nonlocal loads
            loads += 1
            return await load(code)

        rooms._load = counted  # type: ignore[method-assign]
        future = time.time() + 2 * rooms.settings.room_idle_seconds
        unloading = asyncio.create_task(rooms.unload_idle(future))
        while code in rooms.actors:  # the unload has begun: it stores the room's snapshot
            await asyncio.sleep(0)
        assert not unloading.done()
        first, second = await asyncio.gather(rooms.get(code), rooms.get(code))
        assert await unloading == [code] and actor.stopped
        assert first is second is rooms.actors[code] and first is not actor
        assert loads == 1
        assert rooms._loading == {}


async def test_a_stop_whose_caller_stopped_waiting_still_ends_the_room_cleanly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``stop()`` cancelled while the room stores its snapshot (a shutdown that timed out):
    the room still stores it and ends, and its task does not die on the cancelled answer
    ("Task exception was never retrieved: InvalidStateError", logged by the collector at any
    later moment: once in the middle of another test's ``ast.parse``, which then failed)."""
    async with _rooms(tmp_path) as (storage, rooms):
        actor = await rooms.create(Identity("g_ann", "Ann"), RuleSet())
        waiting = asyncio.create_task(actor.stop())
        await asyncio.sleep(0)  # the stop is queued; the room begins it
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        assert actor.task is not None
        await asyncio.wait_for(asyncio.shield(actor.task), 5)
        assert actor.task.exception() is None
        assert await storage.get_snapshot(actor.code) is not None
    assert "InvalidStateError" not in caplog.text


async def test_a_room_stored_before_the_creator_was_kept_takes_it_from_the_rooms_row(
    tmp_path: Path,
) -> None:
    """A snapshot stored before ``Table.creator`` existed, taken after ownership passed from
    the room's maker to another member: the creator is the maker (the room's stored owner,
    never changed since it was made), not the owner of the day, who could otherwise remove
    the maker and never be removed."""
    async with _rooms(tmp_path) as (storage, rooms):
        actor = await rooms.create(Identity("g_ann", "Ann"), RuleSet())
        code = actor.code
        actor.table.handle("g_bob", {"type": "join", "name": "Bob"}, time.time())
        actor.table.owner = "g_bob"  # (as when Ann was away long enough)
        await actor.stop()
        rooms.actors.pop(code, None)
        version, data = await storage.get_snapshot(code) or (0, {})
        del data["table"]["creator"]  # (as stored before it was kept)
        await storage.put_snapshot(code, version, data)
        loaded = await rooms.load_table(code)
        assert loaded.table.creator == "g_ann"


async def test_the_sweeper_prunes_old_inputs_once_a_day_when_asked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``prune_days``: the sweeper deletes the inputs before their room's snapshot older than
    that (as ``hokm prune``), logs it, and comes back in a day; without it nothing goes."""
    storage = SqlStorage(str(tmp_path / "h.db"))
    await storage.start()
    old = int((time.time() - 3 * 86_400) * 1000)  # three days ago
    await storage.append_events("OLDONE", 1, [{"n": i} for i in range(5)], at=old)  # 1…5
    await storage.put_snapshot("OLDONE", 4, {"v": 4})
    never = RoomManager(storage, settings(tmp_path / "h.db", room_idle_seconds=0.05))
    never.prune_next = 0.0  # (due at once, but not asked for)
    await never.start()
    await asyncio.sleep(0.2)  # several sweeps
    await never.shutdown()
    assert len(await storage.events_after("OLDONE", 0)) == 5
    caplog.set_level(logging.INFO, logger="hokm.server.rooms")
    rooms = RoomManager(storage, settings(tmp_path / "h.db", room_idle_seconds=0.05, prune_days=2))
    assert rooms.prune_next > time.time() + 500  # not at the start: ten minutes after it
    rooms.prune_next = 0.0
    try:
        await rooms.start()
        for _ in range(100):
            if len(await storage.events_after("OLDONE", 0)) == 2:
                break
            await asyncio.sleep(0.02)
        assert [e.version for e in await storage.events_after("OLDONE", 0)] == [4, 5]
        assert rooms.prune_next > time.time() + 86_000  # next in a day
        assert "pruned 3 stored inputs" in caplog.text
        assert await rooms.prune_old_inputs(time.time()) == 0  # nothing left
    finally:
        await rooms.shutdown()
        await storage.close()
