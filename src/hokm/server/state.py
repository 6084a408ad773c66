"""What the running server holds: settings, storage, identity and the rooms."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hokm.server.limits import AddressLimits, Limits
from hokm.server.origins import normalize_origin
from hokm.storage import SqlStorage
from hokm.table import TableConfig

if TYPE_CHECKING:
    from hokm.server.auth import AuthChain, GuestAuthenticator
    from hokm.server.rooms import RoomManager

__all__ = ["ServerState", "Settings"]


def _env_origins() -> tuple[str, ...]:
    """``HOKM_ALLOWED_ORIGINS`` (comma-separated) as browsers send origins; a ValueError
    names the variable and an entry that is not one."""
    raw = os.environ.get("HOKM_ALLOWED_ORIGINS", "")
    try:
        return tuple(normalize_origin(o) for o in raw.split(",") if o.strip())
    except ValueError as exc:
        raise ValueError(f"HOKM_ALLOWED_ORIGINS: {exc}") from None


def _env_sockets_per_address() -> int:
    """``HOKM_SOCKETS_PER_ADDRESS`` (200 when empty or unset); a ValueError names the
    variable (0 or less would refuse every socket that is not from loopback)."""
    raw = os.environ.get("HOKM_SOCKETS_PER_ADDRESS", "").strip()
    if not raw:
        return 200
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise ValueError(
            f"HOKM_SOCKETS_PER_ADDRESS is a whole number of sockets from 1, not {raw[:40]!r}"
        )
    return int(raw)


# A shorter HOKM_SECRET can be found by trying: whoever does signs tokens for any guest.
MIN_SECRET_LENGTH = 16


def _env_secret() -> str | None:
    """``HOKM_SECRET`` (None when empty or unset: the one kept in the database); a
    ValueError names it when it is too short to keep guests' tokens from being forged."""
    raw = os.environ.get("HOKM_SECRET", "").strip()
    if not raw:
        return None
    if len(raw) < MIN_SECRET_LENGTH:
        raise ValueError(
            f"HOKM_SECRET is {len(raw)} characters; it signs guests' tokens and needs at least "
            f"{MIN_SECRET_LENGTH} (a random one: python3 -c 'import secrets; "
            "print(secrets.token_hex(32))'), or leave it unset to keep the database's"
        )
    return raw


@dataclass(frozen=True, slots=True)
class Settings:
    """Knobs of the server (the defaults are the documented protocol limits)."""

    database_url: str | None = None
    # Several processes on one database (hokm.server.cluster): Redis for who owns which room.
    redis_url: str | None = field(default_factory=lambda: os.environ.get("HOKM_REDIS_URL") or None)
    # Every Redis key and channel name starts with it (several deployments may share a Redis);
    # set but empty is the default, as for HOKM_REDIS_URL (not keys with no prefix at all).
    redis_prefix: str = field(
        default_factory=lambda: os.environ.get("HOKM_REDIS_PREFIX", "").strip() or "hokm:"
    )
    heartbeat_ms: int = 10_000  # a process silent this long is gone; its rooms move
    table_prefix: str = "hokm_"  # every database table's name starts with it
    allowed_origins: tuple[str, ...] = field(default_factory=_env_origins)
    max_frame_bytes: int = 8192
    messages_per_second: float = 20.0
    message_burst: float = 40.0
    # New guests and rooms per client address: ``creations_burst`` at once, then this many a
    # second (loopback is exempt).
    creations_per_second: float = 0.5
    creations_burst: float = 30.0
    flood_close_seconds: float = 5.0  # a connection flooding this long is closed
    # Open WebSockets per client address in this process (loopback is exempt): enough for a
    # school or a mobile carrier's shared address, not for one script opening thousands.
    sockets_per_address: int = field(default_factory=_env_sockets_per_address)
    hello_timeout: float = 10.0
    # An account's socket is checked against its session this often (a guest's, ten times as
    # long): logged out or ended by a password change it is closed (4003); a guest who
    # registered is sent to connect again as the account (1012). In this process: at once.
    session_check_seconds: float = 30.0
    # How often the hold on the database is checked (PostgreSQL: taken again after a restart
    # of the database, which ends the session that held it; SqlStorage.keep_serving)
    serving_check_seconds: float = 10.0
    bot_workers: int = 1  # processes computing bot moves; 0: a thread in this process
    # Levels whose decision costs less than handing it to a worker (tens of microseconds
    # against ≈ 0.3 ms of pickling and inter-process traffic on the event loop): they are
    # computed in the actor's own loop turn. Slow levels (``hard``) always go to the workers.
    inline_bot_levels: frozenset[str] = frozenset({"random", "naive", "easy", "medium"})
    # Seconds between full garbage collections (None: CPython's own heuristic). ``hokm serve``
    # sets 300: see hokm.server.rooms.FullCollections.
    full_gc_seconds: float | None = None
    snapshot_every: int = 64  # logged inputs between table snapshots
    # Once a day, delete the stored inputs before their room's snapshot that are older than
    # this many days (as ``hokm prune --days``); None: never (the operator prunes, or not).
    prune_days: int | None = None
    room_idle_seconds: float = 600.0  # rooms with no connection are unloaded after this
    table: TableConfig = field(default_factory=TableConfig)
    web_dir: str | None = None  # the static client; default: the package's web/ directory
    secret: str | None = field(default_factory=_env_secret)


@dataclass(slots=True)
class ServerState:
    settings: Settings
    storage: SqlStorage
    auth: AuthChain
    guests: GuestAuthenticator
    rooms: RoomManager
    # New guests (REST and WebSocket hello) and rooms, per client address (docs/protocol.md §8).
    creations: Limits = field(init=False)
    # The simulator's hard bot (/api/sim/bot), per client address: 10 at once, then one a second.
    sim_bots: Limits = field(default_factory=lambda: AddressLimits(rate=1.0, burst=10))
    # Analyses of finished games (/api/games/{id}/analysis), per client address: 5 at once,
    # then one every 10 seconds; answers are kept (a finished game does not change).
    analysis_limits: Limits = field(default_factory=lambda: AddressLimits(rate=0.1, burst=5))
    analyses: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    # Room codes looked up over REST that name no room, per client address: 30 at once, then
    # one every 2 seconds. A code is all that keeps a private room to its guests (23^6 codes,
    # a few thousand in use): unlimited, one client could try thousands a second.
    misses: Limits = field(default_factory=lambda: AddressLimits(rate=0.5, burst=30))
    # Joins of rooms per player, in this process: 30 at once, then one every 2 seconds. Each
    # join and its socket's close log an input and tell the room (presence), so a loop of
    # reconnects (from loopback or behind a proxy too, which the address limits exempt) would
    # fill the room's log; a person's reconnects back off to one every 5 s.
    joins: AddressLimits = field(default_factory=lambda: AddressLimits(rate=0.5, burst=30))
    # What plugins add to the core, by name (``accounts``): told to pages by /api/session.
    features: set[str] = field(default_factory=set)
    origin_logged: float = -60.0  # when a refused WebSocket origin was last logged (monotonic)
    started: float = field(default_factory=time.monotonic)  # when this process began serving
    sockets: dict[str, int] = field(default_factory=dict)  # open WebSockets per address
    # The sockets of this process by player, each an event that asks it to check now who it
    # is (set by :meth:`sessions_ended`).
    session_watchers: dict[str, set[asyncio.Event]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.creations = AddressLimits(
            rate=self.settings.creations_per_second, burst=self.settings.creations_burst
        )

    def sessions_ended(self, player: str) -> None:
        """Some session of ``player``'s account ended (a logout, a password change), or the
        guest ``player`` registered: its sockets in this process check who they are now;
        other processes' at their next check."""
        for event in self.session_watchers.get(player, ()):
            event.set()

    async def playing_rooms(self, player: str) -> list[str]:
        """The rooms where ``player`` holds a seat in a game in progress: those loaded now, and
        those stored so when they were unloaded (each loaded to check it; with storage down,
        the loaded rooms still answer)."""
        local = self.rooms.actors  # (looked at directly: asked at every quick-match look)
        playing = [c for c, a in local.items() if a.holds(player)]
        stored: list[str] = []
        with contextlib.suppress(Exception):
            stored = await self.storage.seated_rooms(player)
        for code in stored:
            if code in playing:
                continue
            try:
                room = await self.rooms.get(code)
                if room is not None and await room.seated(player):
                    playing.append(code)
            except Exception:  # a room that cannot be loaded is no game to go back to
                continue
        return sorted(playing)

    def share_limits(self, shared: Callable[[str, AddressLimits], Limits]) -> None:
        """Put the per-address limits where every process keeps them (``shared(name, local)``,
        e.g. :class:`hokm.server.cluster.RedisAddressLimits`)."""
        for name in ("creations", "sim_bots", "analysis_limits", "misses"):
            local = getattr(self, name)
            if isinstance(local, AddressLimits):
                setattr(self, name, shared(name, local))
