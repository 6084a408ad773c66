"""The table (room) state machine: no sockets, no I/O, no asyncio, no clock.

Every input is a method call that takes the time ``now`` (seconds, any monotonic origin the
caller keeps; the server uses wall-clock time so deadlines survive a restart):

* :meth:`Table.handle` — a command from a member (a JSON object, schema-checked);
* :meth:`Table.connect` / :meth:`Table.disconnect` — a member's connection opened / closed;
* :meth:`Table.tick` — time passed: due deadlines fire;
* :meth:`Table.apply_bot_action` — a bot's move, computed elsewhere from a :class:`BotTurn`.

Each returns an :class:`Outcome`: a reply for the sender and the new numbered events.
Frames for a recipient are built only by :meth:`Table.render`, :meth:`Table.snapshot_for` and
:meth:`Table.events_since`, through the engine's ``view_of`` / ``event_for``: no frame ever
carries a card its recipient may not see.

>>> table = Table("t1", "ACDEFG", owner="ann", owner_name="Ann", now=0.0,
...               config=TableConfig(bot_delay=0, hand_pause=0), seed_source=iter_seeds("doc"))
>>> _ = table.connect("ann", now=0.0)
>>> _ = table.handle("ann", {"type": "sit", "seat": 0}, now=0.0)
>>> for seat in (1, 2, 3):
...     _ = table.handle("ann", {"type": "add_bot", "seat": seat, "level": "random"}, now=0.0)
>>> table.handle("ann", {"type": "start"}, now=1.0).reply["type"]
'ok'
>>> _ = table.advance(now=1.0)   # bots and chance steps that are due
>>> table.status, table.game is not None
('playing', True)
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from hokm.engine import (
    Action,
    Deal,
    DrawAces,
    Event,
    Game,
    InvalidNotationError,
    Phase,
    RuleSet,
    SetHakem,
    event_for,
    new_seed,
    seed_commitment,
    view_of,
)
from hokm.engine.events import HandEnded
from hokm.engine.views import result_to_dict
from hokm.table import handlers
from hokm.table.bots import choose_bot_action
from hokm.table.chat import FloodLimiter
from hokm.table.commands import Command, parse_command
from hokm.table.errors import TableError, error_frame
from hokm.table.handlers import HANDLERS, PLAYER_ACTIONS
from hokm.table.model import (
    BotTurn,
    Deadline,
    GameResult,
    Member,
    Outcome,
    SeatSlot,
    TableConfig,
    TableEvent,
)
from hokm.table.records import game_record

__all__ = ["STATUSES", "Table", "iter_seeds"]

STATUSES = ("lobby", "playing", "paused", "between_games")
# The results of a room's latest games kept with the table (its snapshot shows them as
# ``games``); every game is stored on its own when it ends, so a room played in for weeks
# keeps no more (it kept every one, in memory and in each stored snapshot).
RESULTS_KEPT = 20
_IN_HAND = (Phase.TRUMP, Phase.PLAY, Phase.BAM)
SeedSource = Callable[[], str]


def iter_seeds(prefix: str) -> SeedSource:
    """A deterministic seed source for tests: ``prefix-0``, ``prefix-1``, ...

    >>> source = iter_seeds("t")
    >>> source(), source()
    ('t-0', 't-1')
    """
    counter: Iterator[int] = iter(range(1 << 62))
    return lambda: f"{prefix}-{next(counter)}"


class Table:
    """One room: members, four seats, rules, the current game, timers, chat, versions."""

    def __init__(
        self,
        table_id: str,
        code: str,
        *,
        owner: str,
        owner_name: str,
        now: float,
        rules: RuleSet | None = None,
        config: TableConfig | None = None,
        seed_source: SeedSource = new_seed,
    ) -> None:
        self.id = table_id
        self.code = code
        self.config = config if config is not None else TableConfig()
        self.seed_source = seed_source
        self.owner: str | None = owner
        self.creator = owner  # who made the room: ownership may pass on, but never banned
        self.members: dict[str, Member] = {owner: Member(owner, owner_name)}
        self.seats: list[SeatSlot] = [SeatSlot() for _ in range(4)]
        self.rules = rules if rules is not None else RuleSet()
        self.preset: str | None = self.rules.preset_name()
        # Made by the quick match (its first game is the matched one, rated among four
        # people): pages offer another quick match after it instead of "wait for the owner".
        self.quick = False
        self._status = "lobby"
        self.paused_at: float | None = None
        self.game: Game | None = None
        self.game_number = 0
        self.results: list[GameResult] = []
        self.version = 0
        self.game_version = 0  # version of the last event that changed the game
        self.deadlines: dict[str, Deadline] = {}
        self.left_this_game: list[tuple[str, int]] = []
        # Where each of them left, for the game's record (``records.md``: ``left``).
        self.left_at: list[dict[str, Any]] = []
        self.hinted: list[str] = []  # players who asked for a hint in this game (no points)
        # Each seated player's decisions in this game: [made by them, made by the bot for them
        # (a timeout, or away)]; more by the bot than by them, and a win earns no points.
        self.decisions: dict[str, list[int]] = {}
        self.banned: set[str] = set()  # removed by the owner (``kick``): may not join again
        self.commitment: str | None = None  # commitment of the current hand's deal
        self.chat: deque[dict[str, Any]] = deque(maxlen=self.config.chat_size)
        self.log: deque[TableEvent] = deque(maxlen=self.config.log_size)
        self.replies: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self.refusals: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()  # not stored
        self.reply_extra: dict[str, Any] = {}  # set by a handler: more fields for its reply
        self.flood = FloodLimiter()
        # True while a stored log is applied again: what was delivered then is delivered again
        # (chat is not judged anew by rules that may have changed since), never stored.
        self.replaying = False
        self._claim: tuple[int, float] | None = None  # (game_version, when) of a handed-out turn
        self.forced_version: int | None = None  # game_version whose decision timed out
        # (game_version, deadline) of the last decision a person was given: one who drops and
        # comes back to it (or a teammate who takes over a bam decision) gets the time that was
        # left, not a fresh clock. Stored, so a replayed log times out exactly as it did.
        self.turn_clock: tuple[int, float] | None = None
        # Seated people not yet back after a restart (the server's stop, not theirs): their
        # decisions wait for them, on their own clock, until a ``return`` deadline
        # (``restore_grace`` after the table resumes); then a bot stands in as for anyone away.
        self.returning: set[str] = set()
        self._out: Outcome = Outcome()
        self._seats_shared: tuple[str | None, ...] = ()
        self.created_at = now

    # ------------------------------------------------------------------ public queries

    @property
    def status(self) -> str:
        """``lobby``, ``playing``, ``paused`` (playing, no human connected) or ``between_games``."""
        if self._status == "playing" and self.paused_at is not None:
            return "paused"
        return self._status

    def players_in_game(self) -> tuple[str, ...]:
        """The humans seated in a game in progress (playing or paused); none between games."""
        if self._status != "playing":
            return ()
        return tuple(p for p in self._seat_players() if p is not None)

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    @property
    def is_empty(self) -> bool:
        """No member is left: the server may drop the table."""
        return not self.members

    def seat_of(self, player: str | None) -> int | None:
        """The seat of ``player`` (None if not seated)."""
        if player is None:
            return None
        for i, slot in enumerate(self.seats):
            if slot.kind == "human" and slot.player == player:
                return i
        return None

    def connected_players(self) -> list[str]:
        """Members with at least one open connection: the recipients of broadcasts."""
        return [m.player for m in self.members.values() if m.is_connected]

    def next_deadline(self) -> float | None:
        """When :meth:`tick` or :meth:`pending_bot_turns` next has something to do; None if
        nothing is due. While paused only the grace periods of a game of two or more people
        count. A bot turn already handed out counts from its re-issue time."""
        if self.is_paused:
            graces = [d.at for k, d in self.deadlines.items() if self._runs_paused(k)]
            return min(graces) if graces else None
        if not self.deadlines:
            return None
        times = [d.at for k, d in self.deadlines.items() if k != "bot"]
        bot = self.deadlines.get("bot")
        if bot is not None:
            claim = self._claim
            if claim is not None and claim[0] == self.game_version:
                times.append(claim[1] + self._reclaim_seconds)
            else:
                times.append(bot.at)
        return min(times) if times else None

    def _runs_paused(self, key: str) -> bool:
        """Whether the deadline ``key`` runs while the table is paused: only a grace period,
        in a game of two or more people (everyone left it: it is cancelled as if one of them
        had stayed, and not kept for ever)."""
        return key.startswith("grace_") and len(self.players_in_game()) >= 2

    @property
    def _reclaim_seconds(self) -> float:
        return float(self.rules.turn_seconds)

    # ------------------------------------------------------------------ inputs

    def handle(self, player: str, data: object, now: float) -> Outcome:
        """Apply one command from ``player``. Checks auth → seat → status → version → turn,
        phase and legality, then applies. A refused command changes nothing and returns an
        ``error`` reply."""
        self._out = Outcome()
        action_id = data.get("action_id") if isinstance(data, Mapping) else None
        kind = data.get("type") if isinstance(data, Mapping) else None
        key = (player, action_id) if isinstance(action_id, str) else None
        if key is not None and (key in self.replies or key in self.refusals):
            answered = self.replies.get(key) or self.refusals[key]
            if answered.get("command") == (kind if isinstance(kind, str) else None):
                return Outcome(reply={**answered, "repeated": True})
            # The same id on another command is a client's bug: answering the first command's
            # reply would pass it off as this one's. Refused, and nothing is kept.
            error = TableError(
                "action_id_reused",
                f"action_id {action_id!r} was already used for a {answered.get('command')} command",
            )
            return Outcome(
                reply=error_frame(
                    error, command=kind if isinstance(kind, str) else None, action_id=action_id
                )
            )
        try:
            command = parse_command(data)
            reply = self._dispatch(player, command, now)
        except TableError as error:
            self._out = Outcome()
            reply = error_frame(
                error,
                command=kind if isinstance(kind, str) else None,
                action_id=action_id if isinstance(action_id, str) else None,
            )
            if isinstance(error, handlers.ChatError):
                reply["reason"] = error.reason
        else:
            self._settle(now)
        out = self._out
        out.reply = reply
        # The answer is kept by action id: sent again, a command is not applied twice, and a
        # refused one is not applied later (a "start" resent once the seats are full). The
        # answers of commands that changed the table are stored with it; refusals changed
        # nothing and are kept in memory only (stored, anyone could fill the database and
        # the snapshot with them). A hint's answer is not kept: asked anew.
        if key is not None and kind != "hint":
            kept = self.replies if out.changed else self.refusals
            kept[key] = reply
            while len(kept) > self.config.replies_kept:
                kept.popitem(last=False)
        self._out = Outcome()
        return out

    def connect(self, player: str, now: float) -> Outcome:
        """A connection of ``player`` opened. Send them :meth:`snapshot_for` afterwards.

        A returning player takes their seat back at once; a paused table resumes."""
        self._out = Outcome()
        member = self.members.get(player)
        if member is None:
            return Outcome(
                reply=error_frame(handlers.not_member(), command="connect", action_id=None)
            )
        member.connections += 1
        if member.connections == 1:
            self.returning.discard(player)
            self.deadlines.pop(f"return:{player}", None)
            self._emit("presence", {"player": player, "connected": True})
            warned = self.deadlines.pop(f"grace_cancel:{player}", None)
            self.deadlines.pop(f"grace_warn:{player}", None)
            if warned is not None:
                self._emit("player_returned", {"player": player, "seat": self.seat_of(player)})
            if self.paused_at is not None:
                self._resume(now)
        self._settle(now)
        return self._take()

    def disconnect(self, player: str, now: float) -> Outcome:
        """A connection of ``player`` closed. Their seat is kept; a bot plays for them."""
        self._out = Outcome()
        member = self.members.get(player)
        if member is None or member.connections == 0:
            return Outcome()
        member.connections -= 1
        if member.connections == 0:
            self._emit("presence", {"player": player, "connected": False})
            seat = self.seat_of(player)
            if self._status == "playing" and seat is not None:
                grace = self.rules.grace_seconds
                self._arm(Deadline("grace_warn", now + grace, seat, player), f"grace_warn:{player}")
            if self._status == "playing" and not self.connected_players():
                self.paused_at = now
                self._emit("paused", {})
        self._settle(now)
        return self._take()

    def tick(self, now: float) -> Outcome:
        """Fire every deadline due at ``now`` (while paused, only the grace periods of a game
        of two or more people)."""
        self._out = Outcome()
        for _ in range(64):
            due = [(d.at, key) for key, d in self.deadlines.items() if d.at <= now]
            due = [(at, key) for at, key in due if key not in ("bot", "deal")]
            if self.is_paused:
                due = [(at, key) for at, key in due if self._runs_paused(key)]
            if not due:
                break
            _, key = min(due)
            self._fire(key, self.deadlines.pop(key), now)
            self._settle(now)
        self._settle(now)
        return self._take()

    def pending_bot_turns(self, now: float, *, claim: bool = True) -> list[BotTurn]:
        """Bot decisions due at ``now``: compute them off the event loop, then call
        :meth:`apply_bot_action`. With ``claim`` the same turn is not handed out twice
        (until the game changes); a turn whose answer never comes is handed out again after
        one more ``turn_seconds``."""
        bot = self.deadlines.get("bot")
        if bot is None or self.is_paused or bot.at > now or self.game is None:
            return []
        if claim:
            held = self._claim
            if (
                held is not None
                and held[0] == self.game_version
                and now < held[1] + self._reclaim_seconds
            ):
                return []
            self._claim = (self.game_version, now)
        assert bot.seat is not None
        slot = self.seats[bot.seat]
        level = slot.level if slot.kind == "bot" and slot.level else self.config.timeout_bot_level
        seed = hashlib.sha256(f"{self.id}/{self.game_number}/{self.game_version}".encode())
        return [
            BotTurn(
                bot.seat,
                view_of(self.game, bot.seat),
                level,
                self.game_version,
                seed.hexdigest()[:16],
            )
        ]

    def apply_bot_action(self, seat: int, action: Action, version: int, now: float) -> Outcome:
        """Apply a bot's move made for ``version``; a stale or illegal one is dropped."""
        self._out = Outcome()
        if self._claim is not None and self._claim[0] == version:
            self._claim = None
        bot = self.deadlines.get("bot")
        if (
            version != self.game_version
            or bot is None
            or bot.seat != seat
            or self.game is None
            or self.is_paused
            or not isinstance(action, PLAYER_ACTIONS)
            or int(action.seat) != seat
        ):
            return Outcome()
        if not self.game.can(action):
            return Outcome()
        slot = self.seats[seat]
        self._apply_game_action(action, now, auto=slot.kind == "human")
        self._settle(now)
        return self._take()

    def advance(self, now: float) -> Outcome:
        """Synchronous convenience: :meth:`tick`, then run every due bot turn in this thread,
        until nothing more is due at ``now``. Tests and simple scripts use it."""
        total = self.tick(now)
        for _ in range(10_000):
            turns = self.pending_bot_turns(now)
            if not turns:
                break
            for turn in turns:
                total.merge(
                    self.apply_bot_action(turn.seat, choose_bot_action(turn), turn.version, now)
                )
            total.merge(self.tick(now))
        return total

    # ------------------------------------------------------------------ outputs

    def render(self, event: TableEvent, player: str | None) -> dict[str, Any] | None:
        """The frame of ``event`` for ``player`` (None: a spectator), or None if not for them."""
        if event.audience is not None and event.audience != player:
            return None
        data: dict[str, Any] | None
        if event.engine is not None:
            seat = (
                event.seats.index(player) if player is not None and player in event.seats else None
            )
            data = event_for(event.engine, seat)
            if data is None:
                return None
            data.update(event.data)
        else:
            data = dict(event.data)
        data["kind"] = event.kind
        return {"type": "event", "version": event.version, **data}

    def events_since(self, version: int, player: str | None) -> list[dict[str, Any]] | None:
        """Frames for every event after ``version`` for ``player``, or None if the log no
        longer reaches back that far (or ``version`` is from the future): send a snapshot."""
        if version > self.version or version < 0:
            return None
        if version == self.version:
            return []
        first = self.log[0].version if self.log else self.version + 1
        if version + 1 < first:
            return None
        frames = []
        for event in self.log:
            if event.version > version:
                frame = self.render(event, player)
                if frame is not None:
                    frames.append(frame)
        return frames

    def snapshot_for(self, player: str | None) -> dict[str, Any]:
        """The whole table as ``player`` may see it (None: a spectator)."""
        seat = self.seat_of(player)
        game = None
        if self.game is not None:
            game = view_of(self.game, seat).to_dict()
        turn = self._turn_info()
        return {
            "type": "snapshot",
            "version": self.version,
            "table": self.public_state(),
            "you": {
                "player": player,
                "seat": seat,
                "is_owner": player is not None and player == self.owner,
                "is_member": player in self.members,
            },
            "game": game,
            "hands": []
            if self.game is None
            else [result_to_dict(r) for r in self.game.hand_results],
            "turn": turn,
            "commitment": self.commitment,
            "chat": list(self.chat),
        }

    def public_state(self) -> dict[str, Any]:
        """The room's public facts (no cards): for snapshots and room listings."""
        return {
            "id": self.id,
            "code": self.code,
            "owner": self.owner,
            "creator": self.creator,  # (never removed from the room: ``kick``)
            "status": self.status,
            "rules": self.rules.to_dict(),
            "preset": self.preset,
            "quick": self.quick,
            "members": [
                {
                    "player": m.player,
                    "name": m.name,
                    "connected": m.is_connected,
                    "seat": self.seat_of(m.player),
                }
                for m in self.members.values()
            ],
            "seats": [self._seat_public(i) for i in range(4)],
            "game_number": self.game_number,
            "hinted": list(self.hinted),  # who asked for hints in this game (no points)
            "games": [r.to_dict() for r in self.results[-RESULTS_KEPT:]],
            "grace": [
                {"player": d.player, "seat": d.seat, "cancel_at": d.at}
                for key, d in self.deadlines.items()
                if key.startswith("grace_cancel:")
            ],
        }

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """The whole table as JSON data (server-side storage only: it holds hidden cards)."""
        return {
            "format": "hokm-table/1",
            "id": self.id,
            "code": self.code,
            "config": self.config.to_dict(),
            "owner": self.owner,
            "members": [m.to_dict() for m in self.members.values()],
            "seats": [s.to_dict() for s in self.seats],
            "rules": self.rules.to_dict(),
            "preset": self.preset,
            "quick": self.quick,
            "status": self._status,
            "paused_at": self.paused_at,
            "game": None if self.game is None else self.game.to_dict(),
            "game_number": self.game_number,
            "results": [r.to_dict() for r in self.results],
            "version": self.version,
            "game_version": self.game_version,
            "forced_version": self.forced_version,
            "turn_clock": None if self.turn_clock is None else list(self.turn_clock),
            "returning": sorted(self.returning),
            "deadlines": {k: d.to_dict() for k, d in self.deadlines.items()},
            "left_this_game": [[p, s] for p, s in self.left_this_game],
            "left_at": [dict(e) for e in self.left_at],
            "hinted": list(self.hinted),
            "decisions": {p: list(n) for p, n in self.decisions.items()},
            "banned": sorted(self.banned),
            "creator": self.creator,
            "commitment": self.commitment,
            "chat": list(self.chat),
            "replies": [[p, a, r] for (p, a), r in self.replies.items()],
            "created_at": self.created_at,
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, now: float, seed_source: SeedSource = new_seed
    ) -> Table:
        """Rebuild a table saved by :meth:`to_dict` after a restart. Nobody is connected yet,
        so a game in progress is paused; every deadline of a person (a turn, the manual hakem
        choice, a grace period) is at least ``restore_grace`` away; bots and deals go on as
        soon as the table resumes."""
        if not isinstance(data, Mapping) or data.get("format") != "hokm-table/1":
            raise InvalidNotationError("not a hokm-table/1 state")
        try:
            return cls._from_dict(data, now, seed_source)
        except (KeyError, TypeError, IndexError) as exc:
            raise InvalidNotationError(f"not a hokm-table/1 state: {exc!r}") from exc

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any], now: float, seed_source: SeedSource) -> Table:
        config = TableConfig.from_dict(data["config"])
        members = [
            Member(m["player"], m["name"], pending_name=m.get("pending_name"))
            for m in data["members"]
        ]
        table = cls(
            data["id"],
            data["code"],
            owner=data["owner"] or "",
            owner_name="",
            now=float(data["created_at"]),
            rules=RuleSet.from_dict(data["rules"]),
            config=config,
            seed_source=seed_source,
        )
        table.owner = data["owner"]
        table.members = {m.player: m for m in members}
        table.seats = [SeatSlot.from_dict(s) for s in data["seats"]]
        table.preset = data["preset"]
        table.quick = bool(data.get("quick", False))  # (states stored before it: not quick)
        table._status = data["status"]
        table.game = None if data["game"] is None else Game.from_dict(data["game"])
        table.game_number = int(data["game_number"])
        table.results = [GameResult.from_dict(r) for r in data["results"][-RESULTS_KEPT:]]
        table.version = int(data["version"])
        table.game_version = int(data["game_version"])
        table.forced_version = data.get("forced_version")
        table.left_this_game = [(str(p), int(s)) for p, s in data["left_this_game"]]
        table.left_at = [dict(e) for e in data.get("left_at", [])]  # (older snapshots: none)
        table.hinted = [str(p) for p in data.get("hinted", [])]
        table.decisions = {  # (older snapshots: none; their games count as played)
            str(p): [int(n[0]), int(n[1])] for p, n in data.get("decisions", {}).items()
        }
        table.banned = {str(p) for p in data.get("banned", [])}
        table.creator = str(data.get("creator") or data["owner"] or "")
        table.commitment = data["commitment"]
        table.chat.extend(data["chat"])
        for p, a, r in data["replies"]:
            table.replies[(p, a)] = r
        paused_at = data["paused_at"]
        shift = 0.0 if paused_at is None else max(0.0, now - float(paused_at))
        grace = config.restore_grace
        saved = [(Deadline.from_dict(raw), key) for key, raw in data["deadlines"].items()]
        floor = now + grace
        # In the order they were due, so deadlines lifted to the floor keep it (who left first).
        for d, key in sorted(saved, key=lambda item: (item[0].at, item[1])):
            # (the grace periods of a game everyone left ran on while it was paused)
            moved = 0.0 if paused_at is not None and table._runs_paused(key) else shift
            # Bots and deals simply go on when resumed; people get a grace after a restart.
            if d.kind in ("bot", "deal") or d.at + moved > floor:
                at = d.at + moved
            else:
                at, floor = floor, floor + 0.001
            table.deadlines[key] = Deadline(d.kind, at, d.seat, d.player)
        clock = data.get("turn_clock")
        if clock is not None:
            table.turn_clock = (int(clock[0]), max(float(clock[1]) + shift, now + grace))
        if table._status == "playing":
            table.paused_at = now  # resumes when a human connects
            # Nobody is connected yet: each seated person's decisions wait for them a while
            # (from the resume) instead of going to a bot at the first other reconnect.
            table.returning = {p for p in table._seat_players() if p is not None}
            for seat, slot in enumerate(table.seats):
                if slot.kind == "human" and slot.player is not None:
                    table.deadlines[f"return:{slot.player}"] = Deadline(
                        "return", now + grace, seat, slot.player
                    )
        return table

    # ------------------------------------------------------------------ internals: events

    def _take(self) -> Outcome:
        out, self._out = self._out, Outcome()
        return out

    def _emit(
        self,
        kind: str,
        data: dict[str, Any],
        *,
        engine: Event | None = None,
        audience: str | None = None,
    ) -> TableEvent:
        self.version += 1
        seats = self._seat_players()
        if seats == self._seats_shared:
            seats = self._seats_shared  # one tuple shared by the events of a game
        else:
            self._seats_shared = seats
        event = TableEvent(self.version, kind, data, engine, seats, audience)
        self.log.append(event)
        self._out.events.append(event)
        return event

    def _seat_players(self) -> tuple[str | None, str | None, str | None, str | None]:
        p = [s.player if s.kind == "human" else None for s in self.seats]
        return (p[0], p[1], p[2], p[3])

    def _seat_public(self, seat: int) -> dict[str, Any]:
        slot = self.seats[seat]
        member = self.members.get(slot.player) if slot.player else None
        return {
            "seat": seat,
            "kind": slot.kind,
            "occupant": slot.kind,  # same as kind; survives in seat_changed events
            "player": slot.player if slot.kind == "human" else None,
            "name": member.name if member is not None and slot.kind == "human" else None,
            "level": slot.level if slot.kind == "bot" else None,
            "connected": member.is_connected if member is not None else None,
            "away": slot.away,
            "replaced": slot.replaced,
        }

    def _arm(self, deadline: Deadline, key: str | None = None) -> None:
        self.deadlines[key or deadline.kind] = deadline

    # ------------------------------------------------------------------ internals: commands

    def _dispatch(self, player: str, cmd: Command, now: float) -> dict[str, Any]:
        self.reply_extra = {}
        if cmd.type == "join":
            handlers.cmd_join(self, player, cmd, now)
        else:
            if player not in self.members:
                raise handlers.not_member()
            HANDLERS[cmd.type](self, player, cmd, now)
        self._touch(player, cmd)
        extra, self.reply_extra = self.reply_extra, {}
        return {
            "type": "ok",
            "command": cmd.type,
            "action_id": cmd.action_id,
            "version": self.version,
            **extra,  # what a command answers (a hint's action)
        }

    def note_hinted(self, player: str) -> None:
        """``player`` asked for a hint in this game: the first time it is a change (the event
        ``hints_used``; a win then earns them no account points), later nothing. The room logs
        the first as its own input (``hinted``) and replays it with this method, without
        asking the bot again."""
        if player not in self.hinted:
            self.hinted.append(player)
            self._emit("hints_used", {"player": player, "seat": self.seat_of(player)})

    def replay_hinted(self, player: str) -> Outcome:
        """A logged first hint, replayed (see :meth:`note_hinted`)."""
        self._out = Outcome()
        self.note_hinted(player)
        return self._take()

    def _touch(self, player: str, cmd: Command) -> None:
        """Any accepted command from a seated human shows they are here."""
        if cmd.type in ("leave", "join", "chat", "hint"):
            return
        seat = self.seat_of(player)
        if seat is None:
            return
        slot = self.seats[seat]
        if slot.away or slot.missed:
            slot.away, slot.missed = False, 0
            # Every change of state is an event (so storing on ``Outcome.changed`` is enough).
            self._emit("player_back", {"player": player, "seat": seat})

    def _pass_ownership(self, *, exclude: str | None = None) -> None:
        """Make another human the owner: connected first, then seated, then the earliest."""

        def rank(m: Member) -> tuple[int, int]:
            return (0 if m.is_connected else 1, 0 if self.seat_of(m.player) is not None else 1)

        others = [m for m in self.members.values() if m.player != exclude]
        candidates = sorted(others, key=rank)
        self.owner = candidates[0].player if candidates else None
        self._emit("owner_changed", {"owner": self.owner})

    @property
    def in_hand(self) -> bool:
        """From the deal to the end of a hand: chat is limited to presets and emoji."""
        return self._status == "playing" and self.game is not None and self.game.phase in _IN_HAND

    def _set_status(self, status: str) -> None:
        if status != self._status:
            self._status = status
            if status != "playing":
                self.paused_at = None
            self._emit("status", {"status": self.status})

    def _begin_game(self, game: Game, now: float) -> None:
        self.game = game
        self.game_number += 1
        self.left_this_game = []
        self.left_at = []
        self.hinted = []
        self.decisions = {}
        self.commitment = None
        for slot in self.seats:
            slot.missed, slot.away = 0, False
        self._set_status("playing")
        self._emit(
            "game_started",
            {
                "game": self.game_number,
                "rules": game.rules.to_dict(),
                "seats": [self._seat_public(i) for i in range(4)],
            },
        )
        self.game_version = self.version
        self._arm_missing_graces(now)
        if not self.connected_players():
            self.paused_at = now
            self._emit("paused", {})
        if game.phase is Phase.CHOOSE_HAKEM and game.first_hakem_method == "manual":
            self._arm(Deadline("hakem", now + self.rules.turn_seconds))
            self._emit(
                "turn",
                {
                    "decision": "hakem",
                    "seat": None,
                    "deadline": now + self.rules.turn_seconds,
                },
            )
        for event in game.events:  # a kept hakem is already chosen
            self._emit(event.kind, _NO_DATA, engine=event)
        if game.phase is Phase.DEAL:
            self._arm(Deadline("deal", now + self.config.hand_pause))

    def _apply_game_action(self, action: Action, now: float, *, auto: bool) -> None:
        game = self.game
        assert game is not None
        events = game.apply(action)
        if isinstance(action, PLAYER_ACTIONS):
            player = self.seats[int(action.seat)].player
            if player is not None:  # (a human's seat: a bot's own seat has none)
                self.decisions.setdefault(player, [0, 0])[1 if auto else 0] += 1
        self.deadlines.pop("turn", None)
        self.deadlines.pop("bot", None)
        self.deadlines.pop("hakem", None)
        for event in events:
            data = _AUTO if auto and event.kind in _ACT_KINDS else _NO_DATA
            self._emit(event.kind, data, engine=event)
            if isinstance(event, HandEnded):
                self.commitment = None
        self.game_version = self.version
        if game.phase is Phase.DEAL and "deal" not in self.deadlines:
            self._arm(Deadline("deal", now + self.config.hand_pause))

    def _deal(self, now: float) -> None:
        game = self.game
        assert game is not None and game.hakem is not None
        seed = self.seed_source()
        self.commitment = seed_commitment(seed)
        self._emit("deal_committed", {"hand": game.hand_number, "commitment": self.commitment})
        self._apply_game_action(Deal.from_seed(seed, game.hakem), now, auto=False)

    def _check_owner_away(self, now: float) -> None:
        """Outside a game, an owner who stays away ``owner_grace`` seconds while someone else
        is here hands the room on (so a closed tab never blocks a room)."""
        owner = self.members.get(self.owner) if self.owner is not None else None
        others = owner is not None and any(
            m.is_connected for m in self.members.values() if m.player != owner.player
        )
        if self._status == "playing" or owner is None or owner.is_connected or not others:
            if self.deadlines.pop("owner_away", None) is not None:
                self._emit("owner_away", {"owner": self.owner, "handover_at": None})
        elif "owner_away" not in self.deadlines:
            at = now + self.config.owner_grace
            self._arm(Deadline("owner_away", at, None, owner.player))
            self._emit("owner_away", {"owner": owner.player, "handover_at": at})

    def _settle(self, now: float) -> None:
        """Do every automatic step that is due and arm the deadline of the next decision;
        outside a hand, show the names given during it."""
        self._settle_steps(now)
        if not self.in_hand:
            for member in self.members.values():
                if member.pending_name is not None:
                    name = handlers.distinct_name(self, member.player, member.pending_name)
                    member.pending_name = None
                    if name != member.name:
                        member.name = name
                        self._emit("member_renamed", {"player": member.player, "name": name})

    def _settle_steps(self, now: float) -> None:
        self._check_owner_away(now)
        for _ in range(16):
            game = self.game
            if self._status != "playing" or game is None or self.is_paused:
                return
            if game.phase is Phase.GAME_OVER:
                self._end_game("completed", now)
                return
            if game.phase is Phase.CHOOSE_HAKEM:
                method = game.first_hakem_method
                if method == "manual":
                    return
                seed = self.seed_source()
                chance: Action = (
                    DrawAces.from_seed(seed) if method == "ace_draw" else SetHakem.from_seed(seed)
                )
                self._apply_game_action(chance, now, auto=False)
                continue
            if game.phase is Phase.DEAL:
                deal = self.deadlines.get("deal")
                if deal is None:
                    self._arm(Deadline("deal", now + self.config.hand_pause))
                    continue
                if deal.at > now:
                    return
                del self.deadlines["deal"]
                self._deal(now)
                continue
            self._arm_decision(now)
            return

    def _actor(self) -> tuple[str, int, bool] | None:
        """The pending decision: (kind, seat, auto?) — auto when a bot makes it."""
        game = self.game
        assert game is not None
        if game.phase is Phase.TRUMP:
            assert game.hakem is not None
            kind, seats = "trump", [int(game.hakem)]
        elif game.phase is Phase.PLAY:
            assert game.to_move is not None
            kind, seats = "play", [int(game.to_move)]
        elif game.phase is Phase.BAM:
            assert game.bam_team is not None
            kind, seats = "bam", [s for s in range(4) if s % 2 == game.bam_team]
        else:
            return None
        humans = [s for s in seats if self._is_present_human(s)]
        if humans:
            return kind, humans[0], False
        return kind, seats[0], True

    def _is_present_human(self, seat: int) -> bool:
        """A person decides for this seat: connected, or not yet back after a restart."""
        slot = self.seats[seat]
        if slot.kind != "human" or slot.away or slot.player is None:
            return False
        member = self.members.get(slot.player)
        return member is not None and (member.is_connected or slot.player in self.returning)

    def _arm_decision(self, now: float) -> None:
        actor = self._actor()
        if actor is None:
            return
        kind, seat, auto = actor
        if self.forced_version == self.game_version and "bot" in self.deadlines:
            return  # this decision timed out: the bot makes it
        current = self.deadlines.get("bot") or self.deadlines.get("turn")
        wanted = "bot" if auto else "turn"
        if current is not None and current.kind == wanted and current.seat == seat:
            return
        self.deadlines.pop("bot", None)
        self.deadlines.pop("turn", None)
        if auto:
            at = now + self.config.bot_delay
        else:
            seconds = self.rules.trump_seconds if kind == "trump" else self.rules.turn_seconds
            at = now + seconds
            held = self.turn_clock
            if held is not None and held[0] == self.game_version:
                at = held[1]  # back to the same decision: its clock ran on (it may be due)
            self.turn_clock = (self.game_version, at)
        self._arm(Deadline(wanted, at, seat))
        self._emit("turn", {"decision": kind, "seat": seat, "deadline": at, "auto": auto})

    def _turn_info(self) -> dict[str, Any] | None:
        for key in ("turn", "bot", "hakem"):
            d = self.deadlines.get(key)
            if d is not None and self.game is not None:
                actor = self._actor()
                kind = "hakem" if key == "hakem" else (actor[0] if actor else None)
                return {
                    "kind": kind,
                    "decision": kind,
                    "seat": d.seat,
                    "deadline": d.at,
                    "auto": key == "bot",
                }
        return None

    def _fire(self, key: str, deadline: Deadline, now: float) -> None:
        if deadline.kind == "turn":
            assert deadline.seat is not None
            slot = self.seats[deadline.seat]
            slot.missed += 1
            self._emit("timeout", {"seat": deadline.seat, "player": slot.player})
            if slot.missed >= 2 and not slot.away:
                slot.away = True
                self._emit("player_away", {"player": slot.player, "seat": deadline.seat})
            # The move is now a bot's, due at once.
            self.forced_version = self.game_version
            self._arm(Deadline("bot", now, deadline.seat))
        elif deadline.kind == "hakem":
            seed = self.seed_source()
            self._apply_game_action(SetHakem.from_seed(seed), now, auto=True)
        elif deadline.kind == "grace_warn":
            assert deadline.player is not None
            # From when the warning was due: a late tick (a busy or paused room) adds no time.
            cancel_at = deadline.at + self.rules.grace_seconds
            self._arm(
                Deadline("grace_cancel", cancel_at, deadline.seat, deadline.player),
                f"grace_cancel:{deadline.player}",
            )
            self._emit(
                "grace_warning",
                {"player": deadline.player, "seat": deadline.seat, "cancel_at": cancel_at},
            )
        elif deadline.kind == "owner_away":
            self._pass_ownership(exclude=deadline.player)
        elif deadline.kind == "return":  # not back after the restart: a bot stands in now
            self.returning.discard(deadline.player or "")
        elif deadline.kind == "grace_cancel":
            # Others warned and still away stayed away until the cancellation as well.
            absent = tuple(
                d.player
                for k, d in sorted(self.deadlines.items(), key=lambda kd: kd[1].seat or 0)
                if k.startswith("grace_cancel:") and d.player not in (None, deadline.player)
            )
            self._end_game("cancelled", now, abandoned=deadline.player, absent=absent)
            self._set_status("lobby")
            self.game = None
            # Their seat is freed, and any other absent player's: the others fill them (a
            # bot, a friend) and start again without first removing people who are gone.
            # Back, they sit again.
            for gone, slot in enumerate(self.seats):
                member = self.members.get(slot.player) if slot.player else None
                if slot.kind == "human" and (member is None or not member.is_connected):
                    self.seats[gone] = SeatSlot()
                    self._emit("seat_changed", self._seat_public(gone))
            others = [p for p in self.connected_players() if p != deadline.player]
            if deadline.player == self.owner and others:
                self._pass_ownership(exclude=deadline.player)  # the room goes on without them

    def _arm_missing_graces(self, now: float) -> None:
        """Every seated player who is not connected during a game has a grace period running."""
        for seat, slot in enumerate(self.seats):
            player = slot.player
            member = self.members.get(player) if player is not None else None
            if slot.kind != "human" or member is None or member.is_connected:
                continue
            if f"grace_warn:{member.player}" in self.deadlines:
                continue
            if f"grace_cancel:{member.player}" in self.deadlines:
                continue
            at = now + self.rules.grace_seconds
            self._arm(
                Deadline("grace_warn", at, seat, member.player), f"grace_warn:{member.player}"
            )

    def _resume(self, now: float) -> None:
        assert self.paused_at is not None
        shift = now - self.paused_at
        self.paused_at = None
        self.deadlines = {  # those that ran on while paused are where they were
            k: d if self._runs_paused(k) else Deadline(d.kind, d.at + shift, d.seat, d.player)
            for k, d in self.deadlines.items()
        }
        if self.turn_clock is not None:
            version, at = self.turn_clock
            self.turn_clock = (version, at + shift)
        self._emit("resumed", {})
        self._arm_missing_graces(now)  # e.g. players who have not come back after a restart
        turn = self._turn_info()
        if turn is not None:
            self._emit("turn", {k: v for k, v in turn.items()})

    def _end_game(
        self,
        status: str,
        now: float,
        *,
        abandoned: str | None = None,
        absent: tuple[str | None, ...] = (),
        closed_by: str | None = None,
    ) -> None:
        game = self.game
        assert game is not None
        results = tuple(r.result for r in game.hand_results)
        players = self._seat_players()
        b = [s.level if s.kind == "bot" else None for s in self.seats]
        completed = status == "completed"
        result = GameResult(
            table_id=self.id,
            game=self.game_number,
            status=status,
            winner_team=game.winner_team if completed else None,
            score=(game.score[0], game.score[1]),
            players=players,
            bots=(b[0], b[1], b[2], b[3]),
            results=results,
            par_bam=completed and bool(results) and results[-1] == "par_bam",
            left=tuple(self.left_this_game),
            abandoned=abandoned,
            hinted=tuple(self.hinted),
            idle=tuple(p for p, (own, by_bot) in self.decisions.items() if by_bot > own),
            absent=tuple(p for p in absent if p is not None),
            closed_by=closed_by,
        )
        names: list[str | None] = [
            self.members[p].name if p is not None and p in self.members else None for p in players
        ]
        record = game_record(game, table=self.code, players=names)
        # A leaver's seat is a bot's by the end (``players`` names who finished the game):
        # the record says who played its cards before, up to which play of which hand.
        left = [e for e in self.left_at if e["hand"] < len(record.get("hands") or ())]
        if left:
            record["left"] = left
        for key in [k for k in self.deadlines if not k.startswith("grace_")] + [
            k for k in self.deadlines if k.startswith("grace_")
        ]:
            self.deadlines.pop(key, None)
        self.results.append(result)
        del self.results[:-RESULTS_KEPT]
        self._out.results.append(result)
        self._out.records.append(record)
        self.commitment = None
        for slot_index, slot in enumerate(self.seats):
            if slot.replaced is not None:  # a bot that stood in for a leaver frees the seat
                self.seats[slot_index] = SeatSlot("bot", None, slot.level)
        for slot_index, slot in enumerate(self.seats):
            # Away (two missed turns) was of this game: the lobby showed «غایب» beside a
            # player who was there, with no «برگشتم» to clear it.
            if slot.away or slot.missed:
                slot.missed, slot.away = 0, False
                self._emit("seat_changed", self._seat_public(slot_index))
        if status != "completed":
            self._emit(f"game_{status}", {"game": self.game_number, "abandoned": abandoned})
        self._emit("game_result", result.to_dict())
        self._set_status("between_games" if completed else "lobby")


# Shared, never mutated: the extra data of engine events (render copies before adding).
_NO_DATA: dict[str, Any] = {}
_AUTO: dict[str, Any] = {"auto": True}
_ACT_KINDS = {"card_played", "trump_chosen", "bam_decided", "redealt", "hakem_chosen"}
