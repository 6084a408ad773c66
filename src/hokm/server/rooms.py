"""Rooms at run time: one actor per table applies every input, stores it, then broadcasts.

Exactly one owner applies inputs to a table: each :class:`RoomActor` has an inbox and one
task that takes inputs one at a time (a command, a connection opening or closing, a timer
tick, a bot's move). For each input the actor

1. applies it to the :class:`~hokm.table.Table` (pure, synchronous);
2. appends the input to the table's **input log** in storage and waits for the commit
   (group commit across tables), and stores finished games;
3. only then sends every connected member the events rendered for them, and the sender its
   reply (``ack`` / ``error``).

A snapshot of the table (``Table.to_dict`` plus what the actor needs to replay exactly: the
connection counts, the chat flood window and the deal-seed counter) is stored every
``snapshot_every`` inputs, at each game end and at shutdown. After a restart (clean or
``kill -9``) a table is rebuilt from its snapshot and the inputs logged after it, replayed
with their recorded times — deals come from an HMAC of a per-room secret and a counter, so
the replay deals the same cards — and then restored as the table docs say (paused until a
human returns, deadlines re-armed with a short grace). No acknowledged input is lost.

Slow bots (the search bot) think in an executor (a process pool by default), never on the
event loop. Cheap levels (``Settings.inline_bot_levels``: a decision of 15–60 µs, less than the
≈ 0.3 ms that handing it to a worker costs the event loop) are computed in a loop callback
scheduled after the current input, so they still arrive as inputs of their own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import gc
import hashlib
import hmac
import logging
import os
import secrets
import signal
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from hokm.engine import HokmError, RuleSet, action_from_dict, view_of
from hokm.server.auth import Identity
from hokm.server.errors import error_frame
from hokm.server.state import Settings
from hokm.storage import GameSummary, RoomRow, SqlStorage, StorageError
from hokm.table import (
    BotTurn,
    Deadline,
    GameResult,
    Outcome,
    Table,
    TableEvent,
    choose_bot_action,
    new_code,
)
from hokm.table.commands import as_logged_before

if TYPE_CHECKING:
    from hokm.server.cluster import Cluster

__all__ = [
    "Busy",
    "Connection",
    "Finished",
    "Loaded",
    "Metrics",
    "RoomActor",
    "RoomManager",
    "SeedCounter",
]

log = logging.getLogger(__name__)
T = TypeVar("T")
SIDE_QUEUE = 8  # jobs outside the rooms (RoomManager.offload) waiting before more are refused
ANALYSIS_QUEUE = 4  # analyses (RoomManager.analyse) running or waiting before more are refused
DAY = 86_400.0
PRUNE_FIRST_SECONDS = 600.0  # the first daily prune of old inputs (prune_days) after a start
# With several processes (a cluster), each looks this often for what a process that died and
# never came back left undone (RoomManager.recover): a game it ended but did not store, or
# stored but did not report. Games that ended in the last RECOVER_SETTLE seconds are left to
# their room, which may be reporting them right now.
RECOVER_SECONDS = 3600.0
RECOVER_SETTLE = 600.0


class Busy(Exception):
    """The bot workers cannot take another job from outside the rooms now."""


# Events after which a recipient's game view is attached to the frame (the browser never
# re-implements the rules: it shows ``game.hand`` and enables ``game.legal``).
_VIEW_KINDS = frozenset(
    {"game_started", "status", "game_result", "game_closed", "game_cancelled", "turn", "resumed"}
)


#: ``await listener(actor, result, game_id, finished_at_ms)``
GameListener = Callable[["RoomActor", GameResult, str, int], Awaitable[None]]


class Connection(Protocol):
    """A client connection as the actor sees it: a player id and a non-blocking send."""

    player: str

    def push(self, frame: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class SeedCounter:
    """The deal seeds of one room: ``HMAC-SHA-256(secret, "code:n")``, n = 0, 1, 2, …

    Unpredictable without the room's secret (kept server-side), and reproducible when a
    table is replayed from its input log after a restart.

    >>> seeds = SeedCounter("ab" * 32, "ACDEFG")
    >>> first = seeds()
    >>> seeds.n, len(first), SeedCounter("ab" * 32, "ACDEFG")() == first
    (1, 64, True)
    """

    def __init__(self, secret: str, code: str, n: int = 0) -> None:
        self.secret = secret
        self.code = code
        self.n = n

    def __call__(self) -> str:
        message = f"{self.code}:{self.n}".encode()
        self.n += 1
        return hmac.new(bytes.fromhex(self.secret), message, hashlib.sha256).hexdigest()


# ---------------------------------------------------------------------------------- inputs


@dataclass(slots=True)
class _Command:
    conn: Connection | None
    player: str
    data: dict[str, Any]
    reply: asyncio.Future[dict[str, Any]]
    received: float = 0.0  # time.time() when the frame arrived (for the latency metric)


@dataclass(slots=True)
class _Attach:
    conn: Connection
    name: str
    last_version: int | None
    reply: asyncio.Future[dict[str, Any]]


@dataclass(slots=True)
class _Detach:
    conn: Connection


@dataclass(slots=True)
class _Sync:
    conn: Connection
    last_version: int
    reply: asyncio.Future[dict[str, Any]]


@dataclass(slots=True)
class _Tick:
    pass


@dataclass(slots=True)
class _BotMove:
    seat: int
    action: dict[str, Any]
    version: int


@dataclass(slots=True)
class _Stop:
    done: asyncio.Future[None]


_Input = _Command | _Attach | _Detach | _Sync | _Tick | _BotMove | _Stop


@dataclass(slots=True)
class _Step:
    """What one input did: the outcome and the log entries that reproduce it."""

    outcome: Outcome = field(default_factory=Outcome)
    entries: list[dict[str, Any]] = field(default_factory=list)
    # A player's other sockets after they left from one: detached once they got the news.
    left: list[Connection] = field(default_factory=list)


@dataclass(slots=True)
class Finished:
    """A game that ended in logged inputs, with the time of the input that ended it."""

    result: GameResult
    record: dict[str, Any]
    at: float


@dataclass(slots=True)
class Loaded:
    """A room rebuilt from storage (:meth:`RoomManager.load_table`)."""

    table: Table
    seeds: SeedCounter
    seq: int  # the last logged input
    snapshot_seq: int  # the input of the snapshot it started from
    finished: list[Finished]  # games that ended after that snapshot: stored again, once


# ---------------------------------------------------------------------------------- actor


class RoomActor:
    """The single owner of one table."""

    def __init__(
        self,
        manager: RoomManager,
        table: Table,
        seeds: SeedCounter,
        *,
        seq: int,
        snapshot_seq: int,
    ) -> None:
        self.manager = manager
        self.table = table
        self.seeds = seeds
        self.code = table.code
        self.seq = seq  # last logged input
        self.snapshot_seq = snapshot_seq
        self.conns: dict[Connection, None] = {}
        self.inbox: asyncio.Queue[_Input] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._bot_busy = False
        self.stopped = False
        self.abandoned = False  # dropped by a node that lost its claim on the room
        self.broken = False  # storage failed and the table could not be reloaded yet
        self.failing_logged = False  # this room said storage writes fail (once an outage)
        # A table loaded from storage is restored (nobody connected, a game paused, deadlines
        # moved on): its inputs from then on apply to it, so it must be the snapshot they are
        # replayed from. Stored before the first input (a room only looked at writes nothing).
        self.snapshot_due = False
        self.last_input = time.time()
        self._seated: tuple[str, ...] | None = table.players_in_game()

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"room {self.code}")
        self._schedule()

    # ------------------------------------------------------------------ submitting inputs

    def _future(self) -> asyncio.Future[dict[str, Any]]:
        return asyncio.get_running_loop().create_future()

    async def command(
        self,
        conn: Connection | None,
        player: str,
        data: dict[str, Any],
        *,
        received: float | None = None,
    ) -> dict[str, Any]:
        """Apply a table command from ``player``; returns their reply frame."""
        if self.stopped:
            return error_frame("room_unloaded")
        future = self._future()
        arrived = time.time() if received is None else received
        self.inbox.put_nowait(_Command(conn, player, data, future, arrived))
        return await future

    async def attach(self, conn: Connection, name: str, last_version: int | None) -> dict[str, Any]:
        """Enter the room on ``conn`` (join + connect); returns a snapshot or an events frame
        (``room_unloaded`` if this actor has stopped: load the room again)."""
        if self.stopped:
            return error_frame("room_unloaded")
        future = self._future()
        self.inbox.put_nowait(_Attach(conn, name, last_version, future))
        return await future

    def detach(self, conn: Connection) -> None:
        if not self.stopped:
            self.inbox.put_nowait(_Detach(conn))

    async def sync(self, conn: Connection, last_version: int) -> dict[str, Any]:
        if self.stopped:
            return error_frame("room_unloaded")
        future = self._future()
        self.inbox.put_nowait(_Sync(conn, last_version, future))
        return await future

    async def info(self) -> dict[str, Any]:
        """Public information about the room (:meth:`public_info`; a remote room asks)."""
        return self.public_info()

    async def seated(self, player: str) -> bool:
        """:meth:`holds` (the :class:`Room` protocol's question, which a remote room asks
        its owner)."""
        return self.holds(player)

    def holds(self, player: str) -> bool:
        """Whether ``player`` holds a seat in a game in progress here, or in a quick match's
        room whose matched game has not started yet (it waits for its players, up to 20 s):
        a player matched there who joined the queue again was matched a second time, and
        both rated games started with them."""
        if player in self.table.players_in_game():
            return True
        table = self.table
        return table.quick and table.status == "lobby" and table.seat_of(player) is not None

    def abandon(self) -> None:
        """Stop at once, storing nothing: another node may own the room by now
        (:mod:`hokm.server.cluster`). Its sockets are told to reconnect, which finds the
        room's new owner."""
        self.stopped = self.abandoned = True
        if self._timer is not None:
            self._timer.cancel()
        for conn in list(self.conns):
            conn.close(1012, "room_moved")
        self.conns.clear()
        if self.task is not None and not self.task.done():
            # Inputs still queued are answered ``room_unloaded``; the one being applied, if
            # any, finishes (its log entry is refused if a new owner stored that version).
            self.inbox.put_nowait(_Stop(asyncio.get_running_loop().create_future()))

    async def stop(self) -> None:
        """Finish the queued inputs, store a snapshot, stop the task."""
        if self.task is None or self.task.done():
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(_Stop(done))
        await done

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        while True:
            item = await self.inbox.get()
            if isinstance(item, _Stop):
                await self._stop(item)
                return
            cluster = self.manager.cluster
            if cluster is not None and not self.abandoned and not cluster.trusted():
                # Cut off from Redis too long: another node may claim the room any moment.
                log.error("room %s: this node's heartbeat is stale; dropping the room", self.code)
                self.manager.drop(self)
            if self.abandoned:
                _answer(item, error_frame("room_unloaded"))
                continue
            if self.broken and not await self._recover(None):
                _answer(item, error_frame("server_error"))
                continue
            try:
                await self._process(item)
            except Exception:
                failing = self.manager.storage.writes_failing
                if failing is None:
                    log.exception(
                        "room %s: input failed; reloading the table from storage", self.code
                    )
                elif not self.failing_logged:  # storage said it (once): once a room too
                    self.failing_logged = True
                    log.error(
                        "room %s: inputs refused while storage writes fail (%s); its players "
                        "are sent to reconnect until writes work",
                        self.code,
                        failing,
                    )
                await self._recover(item)
            else:
                self.failing_logged = False

    async def _stop(self, item: _Stop) -> None:
        self.stopped = True
        if self._timer is not None:
            self._timer.cancel()
        if not self.abandoned:  # (another node may own an abandoned room: nothing is written)
            try:
                await self._snapshot()
            except Exception:  # pragma: no cover - the log still has everything
                log.exception("room %s: final snapshot failed", self.code)
            try:  # who may come back to the game from another browser (/api/session)
                await self.manager.storage.set_seated(self.code, self.table.players_in_game())
            except Exception:  # pragma: no cover - only the home page's offer is lost
                log.exception("room %s: storing who is seated failed", self.code)
        late = error_frame("room_unloaded" if self.abandoned else "shutting_down")
        while not self.inbox.empty():  # answer whatever raced in
            _answer(self.inbox.get_nowait(), late)
        if not item.done.done():  # (whoever asked may have stopped waiting: a cancelled stop)
            item.done.set_result(None)

    async def _recover(self, item: _Input | None) -> bool:
        """Reload the table from storage after a failed input; False if that failed too (the
        room then refuses inputs until a reload works)."""
        if item is not None:
            _answer(item, error_frame("server_error"))
        if not await self.manager.still_owns(self):
            return False
        try:
            loaded = await self.manager.load_table(self.code)
            await self._store_finished(loaded.finished)  # the failed input may have ended one
        except Exception:  # storage is down
            if not self.broken:  # once an outage: each later input tries again, quietly
                log.exception(
                    "room %s: reload failed; inputs are refused until one works", self.code
                )
            self.broken = True
            return False
        self.broken = False
        self.table, self.seeds = loaded.table, loaded.seeds
        self.seq, self.snapshot_seq = loaded.seq, loaded.snapshot_seq
        self.snapshot_due = True  # the restored table: what later inputs apply to (get())
        for conn in list(self.conns):  # clients reconnect and resume from the restored table
            conn.close(1011, "server_error")
        self.conns.clear()
        self._timer_at = -1.0
        self._schedule()
        return True

    async def _process(self, item: _Input) -> None:
        if self.snapshot_due:
            await self._snapshot()
            self.snapshot_due = False
        now = time.time()
        self.last_input = now
        step = self._apply(item, now)
        outcome = step.outcome
        if step.entries:
            step.entries[-1]["after"] = self.table.version  # checked when replayed
            first = self.seq + 1
            await self.manager.storage.append_events(self.code, first, step.entries)
            self.seq += len(step.entries)
        try:
            for result, record in zip(outcome.results, outcome.records, strict=False):
                # dated by the input that ended it, as a replay after a crash would date it
                await self._store_game(result, record, at=now)
        except Exception:
            # The input is logged, so it stands (a replay makes it again, and the reload in
            # _recover stores the game): its sender is told it was done, not server_error;
            # everyone resumes from the reloaded table.
            self._reply(item, step)
            raise
        self._broadcast(outcome.events)
        for conn in step.left:
            self.conns.pop(conn, None)
        if isinstance(item, _Command) and outcome.changed and item.data.get("type") == "action":
            self.manager.metrics.record(time.time(), time.time() - item.received)
        self._reply(item, step)
        if outcome.results or self.seq - self.snapshot_seq >= self.manager.settings.snapshot_every:
            await self._snapshot()
        if isinstance(item, _Detach | _Command) and self.table.is_empty:
            await self.manager.storage.update_room(self.code, active=False)
        self._dispatch_bots(now)
        self._schedule()
        seated = self.table.players_in_game()
        if seated != self._seated:
            # Who may come back to the game from another browser or server process
            # (/api/session), kept as it changes, not only when the room is unloaded; after
            # the timers and bots are set, so this write never delays them.
            self._seated = seated
            try:
                await self.manager.storage.set_seated(self.code, seated)
            except Exception:  # only the home page's offer is stale; the next change retries
                log.exception("room %s: storing who is seated failed", self.code)
                self._seated = None

    def _apply(self, item: _Input, now: float) -> _Step:
        table = self.table
        step = _Step()
        if isinstance(item, _Command):
            step.outcome = table.handle(item.player, item.data, now)
            hint = item.data.get("type") == "hint"
            if hint and step.outcome.changed:
                # The first hint of a game: logged as that fact, so that a replay marks the
                # player without asking the bot again (later hints change nothing).
                step.entries.append({"op": "hinted", "p": item.player, "t": now})
            elif step.outcome.changed:  # (a refusal changed nothing: not stored)
                op, data = "cmd", item.data
                said = [e.data["text"] for e in step.outcome.events if e.kind == "chat"]
                if said and data.get("text") is not None:
                    # A delivered message is logged as delivered ("said"), and a replay under
                    # later chat rules delivers it again instead of judging it anew.
                    op, data = "said", {**data, "text": said[0]}
                step.entries.append({"op": op, "p": item.player, "d": data, "t": now})
            kind = item.data.get("type")
            if kind in ("leave", "kick") and step.outcome.changed:
                # Every socket of the player leaves the room: the one that asked now, the
                # others once they have seen the player leave (the client goes home then).
                # A player the owner removed: all their sockets, once they have seen it.
                gone = item.player if kind == "leave" else str(item.data.get("player"))
                if kind == "leave" and item.conn is not None:
                    self.conns.pop(item.conn, None)
                step.left = [c for c in self.conns if c.player == gone]
        elif isinstance(item, _Attach):
            if item.conn in self.conns:  # joined again on the same socket: a resume only
                return step
            join = {"type": "join", "name": item.name}
            joined = table.handle(item.conn.player, join, now)
            if joined.changed:
                step.entries.append({"op": "cmd", "p": item.conn.player, "d": join, "t": now})
            step.outcome = joined
            if joined.reply is not None and joined.reply.get("type") == "error":
                return step
            connected = table.connect(item.conn.player, now)
            step.entries.append({"op": "connect", "p": item.conn.player, "t": now})
            step.outcome.merge(connected)
        elif isinstance(item, _Detach):
            attached = item.conn in self.conns
            self.conns.pop(item.conn, None)
            if attached and item.conn.player in table.members:
                step.outcome = table.disconnect(item.conn.player, now)
                step.entries.append({"op": "disconnect", "p": item.conn.player, "t": now})
        elif isinstance(item, _Tick):
            step.outcome = table.tick(now)
            if step.outcome.changed:
                step.entries.append({"op": "tick", "t": now})
        elif isinstance(item, _BotMove):
            self._bot_busy = False
            try:
                action = action_from_dict(item.action)
            except HokmError:  # pragma: no cover - bots return engine actions
                log.error("room %s: a bot returned %r", self.code, item.action)
                return step
            step.outcome = table.apply_bot_action(item.seat, action, item.version, now)
            if step.outcome.changed:
                step.entries.append(
                    {"op": "bot", "seat": item.seat, "a": item.action, "v": item.version, "t": now}
                )
        return step

    def _reply(self, item: _Input, step: _Step) -> None:
        if isinstance(item, _Command):
            _settle(item.reply, step.outcome.reply or {"type": "ok"})
        elif isinstance(item, _Attach):
            reply = step.outcome.reply
            if reply is not None and reply.get("type") == "error":
                _settle(item.reply, reply)
                return
            self.conns[item.conn] = None
            _settle(item.reply, self._resume_frame(item.conn.player, item.last_version))
        elif isinstance(item, _Sync):
            if item.conn not in self.conns:  # e.g. its player left the room on another socket
                _settle(item.reply, error_frame("not_in_room"))
                return
            _settle(item.reply, self._resume_frame(item.conn.player, item.last_version))

    def _resume_frame(self, player: str, last_version: int | None) -> dict[str, Any]:
        if last_version is not None:
            frames = self.table.events_since(last_version, player)
            if frames is not None:
                return self._events_frame(player, last_version, frames)
        return self._snapshot_frame(player)

    def _snapshot_frame(self, player: str) -> dict[str, Any]:
        frame = self.table.snapshot_for(player)
        frame["room"] = self.code
        frame["server_time"] = time.time()
        return frame

    def _events_frame(
        self, player: str, since: int, frames: list[dict[str, Any]]
    ) -> dict[str, Any]:
        table = self.table
        game = None if table.game is None else view_of(table.game, table.seat_of(player)).to_dict()
        return {
            "type": "events",
            "room": self.code,
            "from_version": since + 1,
            "version": table.version,
            "events": [_wrap(self.code, f) for f in frames],
            "game": game,
            "you": _you(table, player),
            "server_time": time.time(),
        }

    # ------------------------------------------------------------------ broadcasting

    def _broadcast(self, events: list[TableEvent]) -> None:
        if not events or not self.conns:
            return
        game_changed = any(e.engine is not None or e.kind in _VIEW_KINDS for e in events)
        by_player: dict[str, list[dict[str, Any]]] = {}
        for conn in self.conns:
            frames = by_player.get(conn.player)
            if frames is None:
                frames = self._frames_for(conn.player, events, game_changed)
                by_player[conn.player] = frames
            for frame in frames:
                conn.push(frame)

    def _frames_for(
        self, player: str, events: list[TableEvent], game_changed: bool
    ) -> list[dict[str, Any]]:
        table = self.table
        frames = []
        for event in events:
            rendered = table.render(event, player)
            if rendered is not None:
                frames.append(_wrap(self.code, rendered))
        if frames and game_changed:
            seat = table.seat_of(player)
            frames[-1]["game"] = None if table.game is None else view_of(table.game, seat).to_dict()
            frames[-1]["you"] = _you(table, player)
        return frames

    # ------------------------------------------------------------------ timers and bots

    def _schedule(self) -> None:
        if self.stopped:
            return
        at = self._next_at(time.time())
        if at == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = at
        if at is None:
            return
        delay = max(0.0, at - time.time())
        self._timer = asyncio.get_running_loop().call_later(delay, self._on_timer)

    def _next_at(self, now: float) -> float | None:
        """When the actor must look at the table again. A due bot move that is being computed
        is not a reason to wake up (its answer is an input); one whose answer was lost is
        looked at again a second later."""
        if self.table.is_paused:  # only the grace periods of a game of several people run
            return self.table.next_deadline()
        times = []
        for key, deadline in self.table.deadlines.items():
            if key == "bot" and deadline.at <= now:
                if not self._bot_busy:
                    times.append(now + 1.0)
            else:
                times.append(deadline.at)
        return min(times) if times else None

    def _on_timer(self) -> None:
        self._timer = None
        self._timer_at = None
        self.inbox.put_nowait(_Tick())

    def _dispatch_bots(self, now: float) -> None:
        if self._bot_busy or self.stopped:
            return
        turns = self.table.pending_bot_turns(now)
        for turn in turns:
            self._bot_busy = True
            self.manager.think(turn, self._bot_done(turn))

    def _bot_done(self, turn: BotTurn) -> Callable[[dict[str, Any] | None], None]:
        def done(action: dict[str, Any] | None) -> None:
            if action is None:
                self._bot_busy = False
                return
            self.inbox.put_nowait(_BotMove(turn.seat, action, turn.version))

        return done

    # ------------------------------------------------------------------ storage

    async def _store_game(
        self, result: GameResult, record: dict[str, Any], *, at: float | None = None
    ) -> None:
        """Store a finished game, then tell the listeners (both may happen twice for one game
        after a restart: storing is idempotent, and so must listeners be)."""
        summary = GameSummary(
            game_id=f"{self.code}-{result.game}",
            code=self.code,
            number=result.game,
            finished_at=int((time.time() if at is None else at) * 1000),
            winner_team=result.winner_team,
            score=result.score,
            cancelled=result.status != "completed",
        )
        await self.manager.storage.save_game(summary, {**record, "result": result.to_dict()})
        log.info(
            "room %s: game %d %s, %d–%d",
            self.code,
            result.game,
            result.status,
            result.score[0],
            result.score[1],
        )
        for listener in list(self.manager.game_listeners):
            try:
                await listener(self, result, summary.game_id, summary.finished_at)
            except Exception:
                # Stored but not reported: the manager's catch-up reports it again later.
                log.exception("room %s: a game listener failed", self.code)
                self.manager.catch_up_due = True

    async def _store_finished(self, finished: list[Finished]) -> None:
        """Store (again) the games a replayed log ended, each dated by its ending input."""
        for game in finished:
            await self._store_game(game.result, game.record, at=game.at)

    async def _snapshot(self) -> None:
        data = snapshot_data(self.table, self.seeds)
        seq = self.seq
        await self.manager.storage.put_snapshot(self.code, seq, data)
        self.snapshot_seq = seq

    def public_info(self) -> dict[str, Any]:
        return {**self.table.public_state(), "version": self.table.version}


def _wrap(code: str, frame: dict[str, Any]) -> dict[str, Any]:
    event = {k: v for k, v in frame.items() if k not in ("type", "version")}
    return {"type": "event", "room": code, "version": frame["version"], "event": event}


def _you(table: Table, player: str) -> dict[str, Any]:
    return {
        "player": player,
        "seat": table.seat_of(player),
        "is_owner": player == table.owner,
        "is_member": player in table.members,
    }


def _settle(future: asyncio.Future[dict[str, Any]], frame: dict[str, Any]) -> None:
    if not future.done():
        future.set_result(frame)


def _answer(item: _Input, frame: dict[str, Any]) -> None:
    reply = getattr(item, "reply", None)
    if isinstance(reply, asyncio.Future):
        _settle(reply, frame)
    if isinstance(item, _Stop) and not item.done.done():
        item.done.set_result(None)


# ---------------------------------------------------------------------------------- snapshots


def snapshot_data(table: Table, seeds: SeedCounter) -> dict[str, Any]:
    """Everything needed to replay the input log exactly from this point."""
    return {
        "format": "hokm-room/1",
        "table": table.to_dict(),
        "connections": {m.player: m.connections for m in table.members.values() if m.connections},
        "flood": {p: list(ts) for p, ts in table.flood.sent.items()},
        "seed_secret": seeds.secret,
        "seed_n": seeds.n,
        "saved_at": time.time(),
    }


def replay(
    data: dict[str, Any],
    entries: list[dict[str, Any]],
    *,
    now: float,
    finished: list[Finished] | None = None,
) -> tuple[Table, SeedCounter]:
    """Rebuild a table from a snapshot and the inputs logged after it, then restore it.

    The snapshot is loaded exactly (deadlines, pause, connections, flood window), each input is
    applied again with its recorded time, and the result is restored for ``now`` (nobody is
    connected yet: a game in progress pauses; deadlines get the restore grace). The games
    those inputs ended are appended to ``finished``: the server may have stopped before it
    stored them.
    """
    raw = data["table"]
    seeds = SeedCounter(data["seed_secret"], raw["code"], int(data["seed_n"]))
    table = Table.from_dict(raw, now=float(data.get("saved_at", now)), seed_source=seeds)
    table.paused_at = raw["paused_at"]
    table.deadlines = {k: Deadline.from_dict(v) for k, v in raw["deadlines"].items()}
    clock = raw.get("turn_clock")
    table.turn_clock = None if clock is None else (int(clock[0]), float(clock[1]))
    table.returning = set(raw.get("returning", []))
    for player, count in data.get("connections", {}).items():
        if player in table.members:
            table.members[player].connections = int(count)
    table.flood.sent = {p: [float(t) for t in ts] for p, ts in data.get("flood", {}).items()}
    diverged = False
    for entry in entries:
        outcome = _replay_one(table, entry)
        after = entry.get("after")
        if after is not None and after != table.version and not diverged:
            diverged = True  # the table code changed since the log was written
            log.warning(
                "room %s: replay reached version %s, the log says %s",
                raw["code"],
                table.version,
                after,
            )
        if finished is not None and outcome is not None and not diverged:
            # (after a divergence a game "ended" here may never have ended: not stored)
            at = float(entry["t"])
            finished.extend(
                Finished(result, record, at)
                for result, record in zip(outcome.results, outcome.records, strict=False)
            )
    restored = Table.from_dict(table.to_dict(), now=now, seed_source=seeds)
    return restored, seeds


def _replay_one(table: Table, entry: dict[str, Any]) -> Outcome | None:
    op = entry.get("op")
    t = float(entry["t"])
    if op == "cmd":
        return table.handle(entry["p"], as_logged_before(entry["d"]), t)
    if op == "said":
        table.replaying = True
        try:
            return table.handle(entry["p"], as_logged_before(entry["d"]), t)
        finally:
            table.replaying = False
    if op == "connect":
        return table.connect(entry["p"], t)
    if op == "disconnect":
        return table.disconnect(entry["p"], t)
    if op == "tick":
        return table.tick(t)
    if op == "hinted":
        return table.replay_hinted(entry["p"])
    if op == "bot":
        action = action_from_dict(entry["a"])
        return table.apply_bot_action(int(entry["seat"]), action, int(entry["v"]), t)
    log.error("unknown log entry %r", entry)  # pragma: no cover - only the ops above are written
    return None  # pragma: no cover


# ---------------------------------------------------------------------------------- manager


def _warm() -> None:
    """Worker start-up: import the bots and load the search bot's learned model once (a
    broken model file fails here, at start-up, not at a bot's first move)."""
    import hokm.bots
    import hokm.table.bots  # noqa: F401
    from hokm.bots.learned import early_value_model

    early_value_model()


def _worker_start(parent: int) -> None:
    """Worker start-up: exit when the server process is gone. Killed with ``kill -9`` the
    server runs no shutdown code, and a worker waiting for work would live on as an orphan.
    Ctrl-C in a terminal signals the whole process group: the server stops its workers
    itself, so a worker ignores SIGINT (it printed a KeyboardInterrupt traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="hokm-parent-watch", daemon=True).start()
    _warm()


def bot_move(turn: BotTurn) -> dict[str, Any]:
    """Run in a worker: the bot's action for ``turn``, as JSON."""
    return choose_bot_action(turn).to_dict()


def _think_inline(turn: BotTurn, done: Callable[[dict[str, Any] | None], None]) -> None:
    try:
        action = bot_move(turn)
    except Exception:
        log.exception("bot failed")
        done(None)
        return
    done(action)


class Metrics:
    """Move-to-broadcast latency of player actions: from the frame's arrival to its events
    being handed to every recipient's socket (stored first). Keeps the latest samples.

    >>> m = Metrics()
    >>> for i in range(100):
    ...     m.record(float(i), i / 1000)
    >>> m.summary(since=50.0)["count"], m.summary()["p50_ms"]
    (50, 50.0)
    """

    def __init__(self, keep: int = 200_000) -> None:
        self.samples: deque[tuple[float, float]] = deque(maxlen=keep)

    def record(self, at: float, seconds: float) -> None:
        self.samples.append((at, seconds))

    def summary(self, since: float = 0.0) -> dict[str, Any]:
        values = sorted(s for at, s in self.samples if at >= since)
        if not values:
            return {"count": 0}

        def q(p: float) -> float:
            return round(1000 * values[min(len(values) - 1, int(p * len(values)))], 2)

        return {
            "count": len(values),
            "p50_ms": q(0.5),
            "p90_ms": q(0.9),
            "p99_ms": q(0.99),
            "max_ms": round(1000 * values[-1], 2),
        }


class GcPauses:
    """Garbage-collector pauses of this process (every table waits while one runs), for
    ``/api/metrics``: installed as a ``gc.callbacks`` hook while the server runs. Each pause is
    kept with its wall time and the CPU time the collector used in it.

    >>> pauses = GcPauses()
    >>> pauses.install()
    >>> import gc; _ = gc.collect()
    >>> pauses.uninstall()
    >>> pauses.summary()["gen2"]["count"] >= 1
    True
    """

    def __init__(self, keep: int = 100_000) -> None:
        self.samples: deque[tuple[float, int, float, float]] = deque(maxlen=keep)
        self._started = (0.0, 0.0)

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
        else:
            wall, cpu = self._started
            self.samples.append(
                (
                    time.time(),
                    info["generation"],
                    time.perf_counter() - wall,
                    time.thread_time() - cpu,
                )
            )

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def uninstall(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def snapshot(self) -> list[tuple[float, int, float, float]]:
        """The samples as they are now. A collection can start at any allocation of a tracked
        object, and its hook appends here: walking the deque in Python code (or into a tuple,
        which is allocated after the walk begins) failed with "deque mutated during
        iteration". ``list()`` makes its list before it takes the deque's iterator and grows
        it without allocating tracked objects, so no hook runs during the walk; the retry is
        a guard for other interpreters."""
        for _ in range(10):
            try:
                return list(self.samples)
            except RuntimeError:
                continue
        return []

    def summary(self, since: float = 0.0) -> dict[str, Any]:
        out: dict[str, Any] = {}
        samples = self.snapshot()
        for gen in (0, 1, 2):
            picked = [(w, c) for at, g, w, c in samples if g == gen and at >= since]
            walls = [w for w, _ in picked]
            out[f"gen{gen}"] = {
                "count": len(picked),
                "total_ms": round(1000 * sum(walls), 1),
                "max_ms": round(1000 * max(walls), 2) if walls else 0.0,
                "cpu_ms": round(1000 * sum(c for _, c in picked), 1),
            }
        return out


class FullCollections:
    """Full (oldest-generation) collections at a fixed period instead of whenever CPython's
    heuristic decides: a full collection walks every live object of every table (≈ 250 ms at
    1,000 tables on this machine) while all tables wait, and with the default heuristic it came
    every ≈ 10 s under load. The young generations are still collected automatically; cyclic
    garbage that reaches the oldest one waits at most ``period`` seconds.
    """

    def __init__(self, period: float) -> None:
        self.period = period
        self._saved: tuple[int, int, int] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._saved is None:
            self._saved = gc.get_threshold()
            gen0, gen1, _ = self._saved
            gc.set_threshold(gen0, gen1, 1 << 30)  # never by the heuristic
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            gc.collect()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None


class Room(Protocol):
    """A room as sockets and REST see it: an actor here, or a :class:`~hokm.server.cluster.
    RemoteRoom` for one another node owns."""

    code: str
    stopped: bool

    async def attach(
        self, conn: Connection, name: str, last_version: int | None
    ) -> dict[str, Any]: ...

    async def command(
        self,
        conn: Connection | None,
        player: str,
        data: dict[str, Any],
        *,
        received: float | None = None,
    ) -> dict[str, Any]: ...

    def detach(self, conn: Connection) -> None: ...

    async def sync(self, conn: Connection, last_version: int) -> dict[str, Any]: ...

    async def info(self) -> dict[str, Any]: ...

    async def seated(self, player: str) -> bool: ...


@dataclass(slots=True)
class _RoomLock:
    """A room's loading lock and how many hold or wait for it (:meth:`RoomManager._room_lock`)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class RoomManager:
    """Every room of this server process, loaded on demand."""

    def __init__(self, storage: SqlStorage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.actors: dict[str, RoomActor] = {}
        self.metrics = Metrics()
        self.gc_pauses = GcPauses()
        period = settings.full_gc_seconds
        self._full_gc = None if period is None else FullCollections(period)
        # Called once a game ended and was stored: ``await listener(actor, result, game_id, at)``
        # (the accounts code records points and ratings here).
        self.game_listeners: list[GameListener] = []
        # Called at start-up and after a listener failed: report stored games that were
        # never reported (the accounts code records the points of such games here); with a
        # ``before`` (ms), only games that ended before it.
        self.catch_ups: list[Callable[[int | None], Awaitable[int]]] = []
        # Called with each room loaded from storage (after a restart, or moved from another
        # process): the accounts code starts a quick room its matched players never saw begin.
        self.load_listeners: list[Callable[[RoomActor], None]] = []
        self.catch_up_due = False
        self._catch_up_wait = 0.0  # after a failed catch-up: 60 s, doubling up to an hour
        self._catch_up_next = 0.0
        # The next daily prune of old inputs (``prune_days``): ten minutes after the start,
        # not while a restart's recovery and returning players load rooms.
        self.prune_next = time.time() + PRUNE_FIRST_SECONDS
        self.recover_next = time.time() + RECOVER_SECONDS  # (the start recovers at once)
        # The lock of each room being loaded or unloaded (while someone holds or waits for it).
        self._loading: dict[str, _RoomLock] = {}
        self._pool: concurrent.futures.Executor | None = None
        self._side_slots: asyncio.Semaphore | None = None
        self._side_waiting = 0
        # Analyses of finished games run in a worker of their own, one at a time, so a long
        # one never delays a room's bot; one job per key (a game) at a time.
        self._analysis_pool: concurrent.futures.Executor | None = None
        self._analysis_slot = asyncio.Semaphore(1)
        self._analyses: dict[str, asyncio.Task[Any]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._stopping = False
        # Set by Cluster.start when several processes share the database (HOKM_REDIS_URL).
        self.cluster: Cluster | None = None

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        self.gc_pauses.install()
        if self._full_gc is not None:
            self._full_gc.start()
        workers = self.settings.bot_workers
        if workers > 0:
            import multiprocessing

            context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                workers, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
            )
            # Start the workers now (they import the bots), not at the first bot move.
            for _ in range(workers):
                self._pool.submit(_warm)
        else:
            self._pool = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="bot")
        # Jobs from outside the rooms use all workers but one (with one worker, that one):
        # with several workers a room's bot always finds one free.
        self._side_slots = asyncio.Semaphore(max(1, workers - 1))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def recover(self, before: int | None = None) -> None:
        """After a start: load every room whose input log goes past its snapshot (the server
        stopped without its final snapshot, e.g. killed), which stores and reports any game
        such inputs ended; then report stored games never reported (the catch-ups; with
        ``before``, ms, those that ended before it). With a cluster, a room another live
        process holds stays there (its tail is its own); one whose process died is claimed."""
        # (a room loaded here has a tail of its own: the inputs since its last snapshot)
        codes = [c for c in await self.storage.rooms_with_tail() if c not in self.actors]
        recovered = elsewhere = 0
        for code in codes:
            try:
                room = await self.get(code)
            except Exception:  # pragma: no cover - a broken room must not stop the server
                log.exception("room %s: could not be recovered at start-up", code)
                continue
            recovered += isinstance(room, RoomActor)
            elsewhere += room is not None and not isinstance(room, RoomActor)
        if codes and (recovered or before is None):  # (the hourly look: only what it found)
            log.info(
                "recovered %d of %d rooms whose inputs went past their snapshot%s (%s)",
                recovered,
                len(codes),
                f"; {elsewhere} held by another process" if elsewhere else "",
                ", ".join(codes[:20]) + (" …" if len(codes) > 20 else ""),
            )
        await self.catch_up(before)

    async def catch_up(self, before: int | None = None) -> None:
        """Run the catch-ups; if one fails, again later (backing off)."""
        self.catch_up_due = False
        failed = False
        for catch_up in list(self.catch_ups):
            try:
                done = await catch_up(before)
            except Exception:
                log.exception("catching up on unreported games failed; tried again later")
                failed = True
            else:
                if done:
                    log.warning("reported %d stored game(s) that had not been reported", done)
        if failed:
            self.catch_up_due = True
            self._catch_up_wait = min(3600.0, max(60.0, 2 * self._catch_up_wait))
            self._catch_up_next = time.time() + self._catch_up_wait
        else:
            self._catch_up_wait = 0.0

    async def _sweep(self) -> None:
        """Unload rooms nobody is connected to after ``room_idle_seconds`` (they are stored;
        the next ``get`` loads them again), and catch up on games a listener failed."""
        idle = self.settings.room_idle_seconds
        while not self._stopping:
            await asyncio.sleep(min(60.0, idle / 2))
            if self.catch_up_due and time.time() >= self._catch_up_next:
                await self.catch_up()
            await self.unload_idle(time.time())
            if self.settings.prune_days and time.time() >= self.prune_next:
                await self.prune_old_inputs(time.time())
            if self.cluster is not None and time.time() >= self.recover_next:
                await self.recover_orphans(time.time())

    async def recover_orphans(self, now: float) -> None:
        """What a process of the cluster that died and never came back left undone: its
        rooms' last inputs (a game ended but not stored: :meth:`recover` claims and loads
        such a room) and games it stored but did not report. A process that restarts does
        this at its start; every ``RECOVER_SECONDS`` each process does it too, so a process
        taken away for good (fewer processes after a crash) loses no game's points."""
        self.recover_next = now + RECOVER_SECONDS
        try:
            await self.recover(before=int((now - RECOVER_SETTLE) * 1000))
        except Exception:
            log.exception("looking for rooms and games a stopped process left failed")

    async def prune_old_inputs(self, now: float) -> int:
        """Delete the stored inputs before their room's snapshot older than ``prune_days``
        (``hokm prune``; at most 2,000 in one commit, through this process's writer, so the
        rooms' own writes go on between them). Next time in a day, or in an hour if it failed.
        The inputs deleted."""
        days = self.settings.prune_days or 0
        try:
            deleted, size, rooms = await self.storage.prune_inputs(int((now - days * DAY) * 1000))
        except Exception:
            log.exception(
                "pruning the inputs older than %d days failed; tried again in an hour", days
            )
            self.prune_next = now + 3600
            return 0
        self.prune_next = now + DAY
        if deleted:
            log.info(
                "pruned %d stored inputs (%.1f MB) of %d rooms, older than %d days and before "
                "their room's snapshot",
                deleted,
                size / 1e6,
                rooms,
                days,
            )
        return deleted

    async def unload_idle(self, now: float) -> list[str]:
        """Unload (store and stop) every room nobody has been connected to or sent an input
        for ``room_idle_seconds`` at ``now``; the codes unloaded."""
        idle = self.settings.room_idle_seconds
        unloaded = []
        for code, actor in list(self.actors.items()):
            if actor.conns or not actor.inbox.empty() or now - actor.last_input < idle:
                continue
            if actor.table.is_paused and actor.table.next_deadline() is not None:
                continue  # a game everyone left: kept until its grace periods cancel it
            async with self._room_lock(code):
                if self.actors.get(code) is actor and not actor.conns:
                    del self.actors[code]
                    await actor.stop()
                    unloaded.append(code)
                    if self.cluster is not None and not actor.abandoned:
                        await self.cluster.release_room(code)
        return unloaded

    @contextlib.asynccontextmanager
    async def _room_lock(self, code: str) -> AsyncIterator[None]:
        """Hold the lock that loads and unloads room ``code``. It is kept in ``_loading``
        while someone holds or waits for it, then forgotten: a lock per room ever unloaded
        or asked for was kept for good (one for each room seen in the process's life)."""
        entry = self._loading.get(code)
        if entry is None:
            entry = self._loading[code] = _RoomLock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0 and self._loading.get(code) is entry:
                del self._loading[code]

    async def shutdown(self) -> None:
        """Stop every actor (each stores a final snapshot) and the bot workers."""
        self._stopping = True
        self.gc_pauses.uninstall()
        if self._full_gc is not None:
            await self._full_gc.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
        actors = list(self.actors.values())
        await asyncio.gather(*(actor.stop() for actor in actors))
        if actors:  # what the next start (or another process) takes up
            playing = sum(actor.table.status in ("playing", "paused") for actor in actors)
            log.info(
                "stopping: stored %d room(s) in memory, %d with a game in progress",
                len(actors),
                playing,
            )
        if self.cluster is not None:
            for code, actor in list(self.actors.items()):
                if not actor.abandoned:
                    await self.cluster.release_room(code)
            await self.cluster.stop()
        for task in list(self._analyses.values()):
            task.cancel()
        pools = [p for p in (self._pool, self._analysis_pool) if p is not None]
        self._pool = self._analysis_pool = None
        for pool in pools:
            # Wait for the workers to exit, so none is left behind as an orphan.
            await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(pool.shutdown, wait=True, cancel_futures=True)
            )

    def analysing(self, key: str) -> bool:
        """Whether an analysis of ``key`` is running or waiting (asking again joins it)."""
        return key in self._analyses

    async def analyse(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (picklable) in the analysis worker, off the event loop and apart
        from the bots' workers; a second request for the same ``key`` waits for the first
        job instead of starting another. :class:`Busy` past ``ANALYSIS_QUEUE`` jobs."""
        task = self._analyses.get(key)
        if task is None:
            if self._stopping:
                raise Busy("the server is stopping")
            if len(self._analyses) >= ANALYSIS_QUEUE:
                raise Busy("too many analyses are waiting")
            task = asyncio.get_running_loop().create_task(self._analysis_job(fn, *args))
            self._analyses[key] = task
            task.add_done_callback(lambda _task: self._analyses.pop(key, None))
        # A request that goes away does not cancel the job the others wait for.
        result: T = await asyncio.shield(task)
        return result

    async def _analysis_job(self, fn: Callable[..., T], *args: Any) -> T:
        async with self._analysis_slot:
            if self._analysis_pool is None:
                if self.settings.bot_workers > 0:
                    import multiprocessing

                    self._analysis_pool = concurrent.futures.ProcessPoolExecutor(
                        1,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_worker_start,
                        initargs=(os.getpid(),),
                    )
                else:
                    self._analysis_pool = concurrent.futures.ThreadPoolExecutor(
                        1, thread_name_prefix="analysis"
                    )
            pool = self._analysis_pool
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (picklable) in the bot workers, off the event loop, for requests
        outside the rooms (the simulator's hard bot). Such jobs run one per worker but one at
        most (one at a time with a single worker, when a room's bot may wait for one job);
        :class:`Busy` if ``SIDE_QUEUE`` are already waiting."""
        if self._pool is None or self._side_slots is None:
            raise Busy("the server is stopping")
        if self._side_waiting >= SIDE_QUEUE:
            raise Busy("too many bot requests are waiting")
        self._side_waiting += 1
        entered = False
        try:
            async with self._side_slots:
                self._side_waiting -= 1
                entered = True
                return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            if not entered:  # cancelled while waiting
                self._side_waiting -= 1

    def think(self, turn: BotTurn, done: Callable[[dict[str, Any] | None], None]) -> None:
        """Compute a bot move; ``done`` gets the action (None on failure). Cheap levels run in
        a callback of this loop, the others off the event loop in the worker pool."""
        if self._stopping:
            return
        loop = asyncio.get_running_loop()
        if turn.level in self.settings.inline_bot_levels:
            loop.call_soon(_think_inline, turn, done)
            return
        if self._pool is None:
            return
        try:
            future = loop.run_in_executor(self._pool, bot_move, turn)
        except RuntimeError:  # pragma: no cover - the pool is shutting down
            done(None)
            return

        def finished(f: asyncio.Future[dict[str, Any]]) -> None:
            if f.cancelled():
                done(None)
            elif f.exception() is not None:
                log.error("bot failed: %r", f.exception())
                done(None)
            else:
                done(f.result())

        future.add_done_callback(finished)

    # ------------------------------------------------------------------ rooms

    async def create(
        self, owner: Identity, rules: RuleSet, *, preset: str | None = None, quick: bool = False
    ) -> RoomActor:
        """A new room with a fresh code; ``owner`` is its first member and owner (``quick``:
        made by the quick match, :attr:`hokm.table.Table.quick`)."""
        label = None
        if preset is not None:  # checked before the room is stored, so a refusal leaves none
            label = preset if rules == RuleSet.preset(preset) else rules.preset_name()
        rng = secrets.SystemRandom()
        now = time.time()
        for _ in range(50):
            code = new_code(rng)
            # Claimed before it is stored: if Redis does not answer, no room is left half made.
            if (
                self.cluster is not None
                and await self.cluster.claim_room(code) != self.cluster.node
            ):
                continue  # (a room of that code is another process's)
            if await self.storage.create_room(RoomRow(code, owner.id, "lobby", int(now * 1000))):
                break
            if self.cluster is not None:
                await self.cluster.release_room(code)
        else:  # pragma: no cover - 23**6 codes
            raise StorageError("no free room code")
        seeds = SeedCounter(secrets.token_hex(32), code)
        table = Table(
            code,
            code,
            owner=owner.id,
            owner_name=owner.name,
            now=now,
            rules=rules,
            config=self.settings.table,
            seed_source=seeds,
        )
        if preset is not None:
            table.preset = label
        table.quick = quick
        await self.storage.put_snapshot(code, 0, snapshot_data(table, seeds))
        actor = RoomActor(self, table, seeds, seq=0, snapshot_seq=0)
        self.actors[code] = actor
        actor.start()
        return actor

    async def get(self, code: str) -> Room | None:
        """The room, loading it from storage if needed; None if unknown. With a cluster, a
        room another node owns is a :class:`~hokm.server.cluster.RemoteRoom`."""
        actor = self.actors.get(code)
        if actor is not None:
            return actor
        if self._stopping:
            return None
        async with self._room_lock(code):
            actor = self.actors.get(code)
            if actor is not None:
                return actor
            if await self.storage.get_room(code) is None:
                return None
            if self.cluster is not None:
                owner = await self.cluster.claim_room(code)
                if owner != self.cluster.node:
                    return self.cluster.remote_room(code, owner)
                try:
                    return await self._load(code)
                except BaseException:
                    await self.cluster.release_room(code)
                    raise
            return await self._load(code)

    async def local(self, code: str) -> RoomActor | None:
        """The room's actor if this process owns it (loading it if needed), else None."""
        room = await self.get(code)
        return room if isinstance(room, RoomActor) else None

    async def still_owns(self, actor: RoomActor) -> bool:
        """Whether this process still owns ``actor``'s room; if not, the actor is dropped."""
        if self.cluster is None or actor.abandoned:
            return not actor.abandoned
        try:
            owner = await self.cluster.claim_room(actor.code)
        except Exception:  # Redis unreachable: ownership cannot be shown, so it is not kept
            owner = None
        if owner == self.cluster.node:
            return True
        log.error("room %s: owned by node %s now; dropping it here", actor.code, owner)
        self.drop(actor)
        return False

    def drop(self, actor: RoomActor) -> None:
        """Drop ``actor`` at once, storing nothing (:meth:`RoomActor.abandon`)."""
        if self.actors.get(actor.code) is actor:
            del self.actors[actor.code]
        actor.abandon()

    async def _load(self, code: str) -> RoomActor | None:
        """Under the room's loading lock, after checking it exists: load and start it."""
        snapshot = await self.storage.get_snapshot(code)
        if snapshot is None:
            # Its creation failed between storing the room and its first snapshot.
            log.warning("room %s was never set up; treated as unknown", code)
            return None
        loaded = await self.load_table(code, snapshot)
        actor = RoomActor(
            self, loaded.table, loaded.seeds, seq=loaded.seq, snapshot_seq=loaded.snapshot_seq
        )
        if loaded.seq != loaded.snapshot_seq:
            # The server stopped before it stored these games, or before it reported them.
            # Done before anyone can reach the actor (no input may come between), still
            # under the lock; if storing fails the room is not loaded and its log is kept.
            await actor._store_finished(loaded.finished)
            await actor._snapshot()
        else:
            # The restored table must be the snapshot later inputs replay from (replayed
            # onto the stored one, whose players were connected, they parted from what
            # the players saw, and a second crash lost their moves): before the first.
            actor.snapshot_due = True
        self.actors[code] = actor
        actor.start()
        for listener in list(self.load_listeners):
            try:
                listener(actor)
            except Exception:
                log.exception("room %s: a load listener failed", code)
        return actor

    async def load_table(
        self, code: str, snapshot: tuple[int, dict[str, Any]] | None = None
    ) -> Loaded:
        """Rebuild a room's table from storage. ``snapshot``: the room's latest, if the caller
        has read it already."""
        snapshot = snapshot or await self.storage.get_snapshot(code)
        if snapshot is None:
            raise StorageError(f"room {code} has no snapshot")
        snap_seq, data = snapshot
        if "creator" not in data.get("table", {}):
            # Stored before Table.creator: its owner then may be one ownership passed to. The
            # room's row keeps who made it (its owner is never updated).
            room = await self.storage.get_room(code)
            if room is not None:
                data = {**data, "table": {**data["table"], "creator": room.owner}}
        entries = await self.storage.events_after(code, snap_seq)
        finished: list[Finished] = []
        table, seeds = replay(data, [e.data for e in entries], now=time.time(), finished=finished)
        seq = entries[-1].version if entries else snap_seq
        return Loaded(table, seeds, seq, snap_seq, finished)

    def rename(self, identity: Identity) -> None:
        """A player changed their name: rooms learn it when they next join."""

    async def detach_all(self, conn: Connection) -> None:
        for actor in self.actors.values():
            if conn in actor.conns:
                actor.detach(conn)
