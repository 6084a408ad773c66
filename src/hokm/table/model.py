"""The table's data: members, seats, deadlines, events, bot turns, outcomes and game results.

All of it is plain data that round-trips through JSON (``to_dict`` / ``from_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from hokm.engine import Event, SeatView

__all__ = [
    "BotTurn",
    "Deadline",
    "GameResult",
    "Member",
    "Outcome",
    "SeatSlot",
    "TableConfig",
    "TableEvent",
]

SeatKind = Literal["empty", "human", "bot"]


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Timing and size knobs of a table (not game rules; those are the :class:`RuleSet`)."""

    bot_delay: float = 0.8  # seconds a bot (or a bot playing for an absent human) waits
    hand_pause: float = 2.0  # seconds between a hand's end (or the ace draw) and the next deal
    restore_grace: float = 15.0  # after a restart no deadline fires sooner than this
    max_members: int = 40
    log_size: int = 300  # events kept for events_since(); older clients get a snapshot
    chat_size: int = 100  # chat messages kept for snapshots
    timeout_bot_level: str = "medium"  # the bot that moves for a human who timed out or left
    replies_kept: int = 512  # remembered (player, action_id) replies
    owner_grace: float = 120.0  # an owner away this long outside a game hands the room on

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot_delay": self.bot_delay,
            "hand_pause": self.hand_pause,
            "restore_grace": self.restore_grace,
            "max_members": self.max_members,
            "log_size": self.log_size,
            "chat_size": self.chat_size,
            "timeout_bot_level": self.timeout_bot_level,
            "replies_kept": self.replies_kept,
            "owner_grace": self.owner_grace,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableConfig:
        return cls(**dict(data))


@dataclass(slots=True)
class Member:
    """Someone in the room: a player id (opaque: a guest id now, an account id later)."""

    player: str
    name: str
    connections: int = 0  # open connections (sockets) of this player
    # A new name given during a hand, shown when the hand ends: a name changed mid-hand
    # would be free text to the partner, which the chat refuses then (RULES.md §8).
    pending_name: str | None = None

    @property
    def is_connected(self) -> bool:
        return self.connections > 0

    def to_dict(self) -> dict[str, Any]:
        """As stored (server-side: the pending name is nobody else's to see yet)."""
        data = {"player": self.player, "name": self.name}
        if self.pending_name is not None:
            data["pending_name"] = self.pending_name
        return data


@dataclass(slots=True)
class SeatSlot:
    """One of the four seats: empty, a human (player id) or a bot (level)."""

    kind: SeatKind = "empty"
    player: str | None = None
    level: str | None = None  # bot level, for kind == "bot"
    missed: int = 0  # consecutive timed-out decisions (humans)
    away: bool = False  # marked away after two missed decisions, until they act again
    replaced: str | None = None  # the human who left this seat mid-game (a bot took it)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player,
            "level": self.level,
            "missed": self.missed,
            "away": self.away,
            "replaced": self.replaced,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatSlot:
        return cls(
            kind=data["kind"],
            player=data.get("player"),
            level=data.get("level"),
            missed=int(data.get("missed", 0)),
            away=bool(data.get("away", False)),
            replaced=data.get("replaced"),
        )


@dataclass(frozen=True, slots=True)
class Deadline:
    """A pending timer, as data. ``kind``:

    * ``turn``: a human's decision (trump / card / bam) times out; a bot moves for them.
    * ``bot``: a bot (or a bot standing in for an absent or away human) is due to move.
    * ``hakem``: the owner's manual choice of the first hakem times out (then: random).
    * ``deal``: the next deal is due (after the ace draw or a hand's end).
    * ``grace_warn`` / ``grace_cancel``: a disconnected player's grace period steps.
    * ``owner_away``: outside a game, the absent owner hands the room to someone present.
    * ``return``: a seated person not back after a restart stops being waited for.
    """

    kind: str
    at: float
    seat: int | None = None
    player: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "at": self.at, "seat": self.seat, "player": self.player}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deadline:
        return cls(data["kind"], float(data["at"]), data.get("seat"), data.get("player"))


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One numbered table event, in its internal (unredacted) form. Never send it as is:
    :meth:`hokm.table.Table.render` builds the frame each recipient may see.

    ``engine`` holds the engine event for game events (it may carry hidden cards);
    ``seats`` the player id of each seat when it happened (who may see which hidden cards);
    ``audience`` restricts the event to one player (None: everyone in the room).
    """

    version: int
    kind: str
    data: dict[str, Any]
    engine: Event | None = None
    seats: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)
    audience: str | None = None


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot decision that is due: compute ``choose_bot_action(turn)`` anywhere (a worker
    thread or process), then call ``Table.apply_bot_action(turn.seat, action, turn.version, now)``.
    The view is the seat's own :class:`SeatView`, so the bot sees nothing else."""

    seat: int
    view: SeatView
    level: str
    version: int
    seed: str


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game of the table ended, for accounts, ratings and history.

    ``status``: ``completed`` (a team reached the target), ``cancelled`` (a player stayed away
    past the grace periods) or ``closed`` (the owner closed it before the end).
    ``players``: the player id on each seat at the end (None for a bot), ``bots`` the bot level
    on each seat (None for a human). ``left``: players who deliberately left during the game
    (each gets a loss), with their seat. ``abandoned``: the player whose absence cancelled it;
    ``absent``: the other players still away then whose own grace warning had been given (they
    stayed away until the cancellation too). ``closed_by``: the owner who closed it.
    ``results``: the result kind of each finished hand (``normal``, ``kot``, ``hakem_kot``,
    ``bam``, ``par_bam``, ``failed_bam``); ``par_bam`` is True if the game was won by a par-bam.
    ``hinted``: players who asked for a hint during the game (a win earns them no points).
    ``idle``: players for whom the bot made more of their decisions than they did (timeouts,
    or away): a win earns them no points either.
    """

    table_id: str
    game: int
    status: str
    winner_team: int | None
    score: tuple[int, int]
    players: tuple[str | None, str | None, str | None, str | None]
    bots: tuple[str | None, str | None, str | None, str | None]
    results: tuple[str, ...]
    par_bam: bool
    left: tuple[tuple[str, int], ...]
    abandoned: str | None = None
    hinted: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    idle: tuple[str, ...] = ()
    closed_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "game": self.game,
            "status": self.status,
            "winner_team": self.winner_team,
            "score": list(self.score),
            "players": list(self.players),
            "bots": list(self.bots),
            "results": list(self.results),
            "par_bam": self.par_bam,
            "left": [[p, s] for p, s in self.left],
            "abandoned": self.abandoned,
            "hinted": list(self.hinted),
            "absent": list(self.absent),
            "idle": list(self.idle),
            "closed_by": self.closed_by,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        p = data["players"]
        b = data["bots"]
        return cls(
            table_id=data["table_id"],
            game=int(data["game"]),
            status=data["status"],
            winner_team=data["winner_team"],
            score=(int(data["score"][0]), int(data["score"][1])),
            players=(p[0], p[1], p[2], p[3]),
            bots=(b[0], b[1], b[2], b[3]),
            results=tuple(data["results"]),
            par_bam=bool(data["par_bam"]),
            left=tuple((str(x), int(y)) for x, y in data["left"]),
            abandoned=data.get("abandoned"),
            hinted=tuple(str(p) for p in data.get("hinted", ())),
            absent=tuple(str(p) for p in data.get("absent", ())),
            idle=tuple(str(p) for p in data.get("idle", ())),
            closed_by=data.get("closed_by"),
        )


@dataclass(slots=True)
class Outcome:
    """What one input did to the table.

    ``reply``: the frame for the command's sender (``ok`` or ``error``), None for inputs that
    are not commands. ``events``: the new events, in order; broadcast
    ``table.render(event, player)`` to every connected member (skip None).
    ``results``: games that ended (store them, update accounts). ``records``: the
    ``hokm-record/1`` record of each game that ended, in the same order.
    An input that changed nothing has no events (a refused command changes nothing).
    """

    reply: dict[str, Any] | None = None
    events: list[TableEvent] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """True if the table changed (store ``table.to_dict()`` before broadcasting)."""
        return bool(self.events)

    def merge(self, other: Outcome) -> None:
        self.events.extend(other.events)
        self.results.extend(other.results)
        self.records.extend(other.records)
