"""REST endpoints of accounts, profiles, the leaderboard and the quick-match queue.

The server's app calls :func:`install` once (after the storage is started) and mounts
:func:`routes`. Sessions are random tokens in the HttpOnly, SameSite=Lax cookie
``hokm_session`` (or ``Authorization: Bearer`` / ``hello.token`` for scripts); an account is
an :class:`~hokm.server.auth.Identity` of kind ``account``. See ``docs/protocol.md`` §9 and
``docs/accounts.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hokm.accounts.errors import (
    AccountError,
    AlreadyQueuedError,
    InGameError,
    InvalidInputError,
    NotAuthenticatedError,
    NotFoundError,
    NotQueuedError,
    RateLimitedError,
)
from hokm.accounts.matchmaking import Match, MatchmakingConfig, QuickMatchQueue
from hokm.accounts.rating import PROVISIONAL_GAMES, Tier
from hokm.accounts.security import SESSION_COOKIE, Passwords
from hokm.accounts.service import SESSION_DAYS, AccountService, Session
from hokm.accounts.store import AccountStore, GameOutcome
from hokm.engine import RuleSet
from hokm.server import jsonio
from hokm.server.auth import (
    COOKIE_NAME,
    AuthChain,
    Authenticator,
    BadName,
    Identity,
    clean_name,
)
from hokm.server.cluster import (
    UNREACHABLE,
    Cluster,
    ClusterError,
    RedisAddressLimits,
    RedisFailedLogins,
)
from hokm.server.limits import AddressLimits, Limits, client_address
from hokm.server.state import ServerState
from hokm.table.model import GameResult

__all__ = [
    "AccountsState",
    "GuestOnlyAuthenticator",
    "QuickMatch",
    "RoomStarter",
    "SessionAuthenticator",
    "install",
    "openapi_paths",
    "outcome_of",
    "routes",
    "setup",
]

log = logging.getLogger(__name__)
MAX_BODY = 8 * 1024
StartMatch = Callable[[Match, dict[str, Identity]], Awaitable[str]]

_FA = {
    "invalid_input": "ورودی نامعتبر است",
    "invalid_credentials": "نام کاربری یا گذرواژه نادرست است",
    "not_authenticated": "اول با حساب کاربری وارد شوید",
    "username_taken": "این نام کاربری گرفته شده است",
    "rate_limited": "تلاش‌های ورود بیش از حد؛ کمی بعد دوباره امتحان کنید",
    "already_queued": "در صف بازی سریع هستید",
    "not_queued": "در صف بازی سریع نیستید",
    "bad_request": "درخواست نامعتبر است",
    "bad_json": "پیام دریافتی JSON معتبر نیست",
    "not_found": "پیدا نشد",
}


# ---------------------------------------------------------------------------------- identity


class SessionAuthenticator:
    """Accounts: the session cookie, or a session token as bearer / hello token."""

    def __init__(self, service: AccountService) -> None:
        self.service = service
        self.state: AccountsState | None = None  # set by install(); request handlers find it

    async def identify(self, cookies: Mapping[str, str], token: str | None) -> Identity | None:
        for candidate in (cookies.get(SESSION_COOKIE), token):
            if candidate and "." not in candidate:  # guest tokens are "<id>.<signature>"
                found = await self.service.session_identity(candidate)
                if found is not None:
                    return Identity(found[0], found[1], "account")
        return None


class GuestOnlyAuthenticator:
    """Wraps the guest authenticator: a guest token stops working once it became an account."""

    def __init__(self, inner: Authenticator, store: AccountStore) -> None:
        self.inner = inner
        self.store = store

    async def identify(self, cookies: Mapping[str, str], token: str | None) -> Identity | None:
        identity = await self.inner.identify(cookies, token)
        if identity is None:
            return None
        found = await self.store.player(identity.id)
        if found is None or found[1] != "guest":
            return None
        return identity


# ---------------------------------------------------------------------------------- quick match


#: how long the quick match remembers why a player stopped waiting (see ``QuickMatch.gone``)
GONE_SECONDS = 600.0


@dataclass
class QuickMatch:
    """The quick-match queue of this server process and the quick games it started."""

    service: AccountService
    start_match: StartMatch | None = None  # set by the server: creates and starts the room
    config: MatchmakingConfig = field(default_factory=MatchmakingConfig)
    clock: Callable[[], float] = time.time
    queue: QuickMatchQueue = field(init=False)
    identities: dict[str, Identity] = field(default_factory=dict)
    matched: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: dict[str, Match] = field(default_factory=dict)  # room code -> the match
    # Why a player who was waiting no longer is: "away" (dropped for not asking) or "left"
    # (asked to leave, or logged out), with when; kept ``GONE_SECONDS``. A waiting page told
    # "idle" with no reason knows the queue itself was lost (a restart) and joins again.
    gone: dict[str, tuple[str, float]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Answers in ``matched`` and matches in ``games`` kept at most (the oldest dropped first):
    # both are dropped when the matched game ends here, but a game that never ends here (its
    # players never came, it ended in another process) would keep them for good. ``games`` is
    # a cache of the stored matches; a player dropped from ``matched`` is told ``idle``.
    keep: int = 10_000

    # With several server processes (hokm.server.cluster) one of them keeps the queue: the
    # others send the four calls there. ``route(action, identity)`` is that forwarding.
    route: Callable[[str, Identity], Awaitable[dict[str, Any]]] | None = None
    # Whether a player holds a seat in a game in progress (set by the server): a match is not
    # started with such a player (two games at once); they leave the queue, the others wait on.
    seated: Callable[[str], Awaitable[bool]] | None = None

    def __post_init__(self) -> None:
        self.queue = QuickMatchQueue(self.config)

    async def run(self, action: str, identity: Identity) -> dict[str, Any]:
        """One of the calls below by name, here (the process that keeps the queue)."""
        calls = {
            "join": self._join,
            "leave": self._leave,
            "status": self._status_of,
            "bots": self._play_with_bots,
        }
        if action not in calls:
            raise InvalidInputError(f"no quick-match call {action!r}")
        return await calls[action](identity)

    async def join(self, identity: Identity) -> dict[str, Any]:
        if self.route is not None:
            return await self.route("join", identity)
        return await self._join(identity)

    async def leave(self, identity: Identity) -> dict[str, Any]:
        if self.route is not None:
            return await self.route("leave", identity)
        return await self._leave(identity)

    async def status(self, identity: Identity) -> dict[str, Any]:
        if self.route is not None:
            return await self.route("status", identity)
        return await self._status_of(identity)

    async def play_with_bots(self, identity: Identity) -> dict[str, Any]:
        if self.route is not None:
            return await self.route("bots", identity)
        return await self._play_with_bots(identity)

    async def _join(self, identity: Identity) -> dict[str, Any]:
        async with self.lock:
            rating = (await self.service.store.ratings([identity.id]))[identity.id]
            self.queue.join(identity.id, rating.mu, now=self.clock())
            self.matched.pop(identity.id, None)
            self.gone.pop(identity.id, None)
            self.identities[identity.id] = identity
            await self._tick()
            return self._status(identity.id)

    async def _leave(self, identity: Identity) -> dict[str, Any]:
        async with self.lock:
            self.queue.leave(identity.id)
            self.identities.pop(identity.id, None)
            self.gone[identity.id] = ("left", self.clock())
            return {"state": "idle", "reason": "left"}

    async def _status_of(self, identity: Identity) -> dict[str, Any]:
        async with self.lock:
            self.queue.touch(identity.id, now=self.clock())
            await self._tick()
            return self._status(identity.id)

    async def _play_with_bots(self, identity: Identity) -> dict[str, Any]:
        async with self.lock:
            self._drop_gone()
            match = self.queue.play_with_bots(identity.id, now=self.clock())
            await self._start(match)
            return self._status(identity.id)

    def forget_room(self, code: str) -> None:
        """The matched game of quick room ``code`` is over: its players are idle again (their
        answers were kept until they next joined the queue, one per player ever matched)."""
        for player in [p for p, m in self.matched.items() if m.get("code") == code]:
            del self.matched[player]

    def _status(self, player: str) -> dict[str, Any]:
        if player in self.queue:
            return {"state": "waiting", **self.queue.status(player, now=self.clock()).to_dict()}
        if player in self.matched:
            return {"state": "matched", **self.matched[player]}
        if player in self.gone:
            return {"state": "idle", "reason": self.gone[player][0]}
        return {"state": "idle"}

    def _drop_gone(self) -> None:
        """Drop the waiters who stopped asking, noting why; forget old notes."""
        now = self.clock()
        for player in self.queue.drop_gone(now=now):
            self.gone[player] = ("away", now)
        for player in [p for p, (_, at) in self.gone.items() if now - at > GONE_SECONDS]:
            del self.gone[player]

    async def _tick(self) -> None:
        self._drop_gone()
        for match in self.queue.tick(now=self.clock()):
            busy = {p: why for p in match.humans if (why := await self._unavailable(p))}
            if busy:  # out of the queue, told why; the others back in with their waiting time
                for player, why in busy.items():
                    self.gone[player] = (why, self.clock())
                    self.identities.pop(player, None)
                self.queue.restore([p for p in match.humans if p not in busy])
                continue
            await self._start(match)
        for player in [p for p in self.identities if p not in self.queue]:
            del self.identities[player]

    async def _unavailable(self, player: str) -> str | None:
        """Why a matched player cannot play the match, if they cannot: ``in_game`` (sat down
        to another game since their last look: two games at once) or ``deleted`` (the
        account was erased by the operator's ``hokm accounts delete``, from another process:
        the queue would have kept them until they were ``stale_seconds`` away, a ghost that
        three players would wait for and then play against a bot)."""
        if self.seated is not None and await self.seated(player):
            return "in_game"
        if await self.service.store.account_by_id(player) is None:
            return "deleted"
        return None

    async def _start(self, match: Match) -> None:
        if self.start_match is None:
            raise InvalidInputError("quick games are not available on this server")
        people = {p: self.identities.pop(p) for p in match.humans}
        code = await self.start_match(match, people)
        self.games[code] = match
        await self.service.store.save_quick_match(code, match)
        for seat, player in enumerate(match.players):
            if player is not None:
                self.matched[player] = {"code": code, "seat": seat, **match.to_dict()}
        _trim(self.matched, self.keep)
        _trim(self.games, self.keep)


def _trim(kept: dict[str, Any], keep: int) -> None:
    """Drop the oldest entries of ``kept`` beyond ``keep``."""
    while len(kept) > keep:
        del kept[next(iter(kept))]


class RoomStarter:
    """Starts a quick game in a new room: the players seated as matched, bots elsewhere.

    ``rooms`` is the server's ``RoomManager``. The first human is the room's owner. The game
    starts as soon as every matched human is connected to the room, or after
    ``connect_wait`` seconds anyway (then a bot plays for whoever is missing, as for a
    disconnect). ``overrides`` change rule options of the match's preset (tests shorten the
    game; the server leaves it empty).
    """

    def __init__(
        self, rooms: Any, *, bot_level: str | None = None, connect_wait: float = 20.0
    ) -> None:
        self.rooms = rooms
        self.bot_level = bot_level
        self.connect_wait = connect_wait
        self.overrides: dict[str, Any] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    async def __call__(self, match: Match, people: dict[str, Identity]) -> str:
        humans = match.humans
        owner = people[humans[0]]
        rules = RuleSet.preset(match.preset, **self.overrides)
        actor = await self.rooms.create(owner, rules, preset=match.preset, quick=True)
        for player in humans[1:]:
            await _ok(actor.command(None, player, {"type": "join", "name": people[player].name}))
        for seat, sitter in enumerate(match.players):
            if sitter is not None:
                cmd: dict[str, Any] = {"type": "sit", "seat": seat, "player": sitter}
            else:
                cmd = {"type": "add_bot", "seat": seat}
                if self.bot_level is not None:
                    cmd["level"] = self.bot_level
            await _ok(actor.command(None, owner.id, cmd))
        self._start_soon(actor, humans)
        return str(actor.code)

    def resume(self, actor: Any) -> None:
        """A room loaded from storage: a quick room set up but not started when the server
        stopped (the start waited for its players' pages, in this process's memory only) is
        started as a fresh one is, once its players are back or ``connect_wait`` passed; it
        would otherwise wait in the lobby for a start nobody can give."""
        table = actor.table
        if not table.quick or table.status != "lobby" or table.game_number != 0:
            return
        if any(slot.kind == "empty" for slot in table.seats):
            return  # (stopped while it was being set up: there is no match to start)
        self._start_soon(actor, [slot.player for slot in table.seats if slot.kind == "human"])

    def _start_soon(self, actor: Any, humans: list[str]) -> None:
        task = asyncio.get_running_loop().create_task(self._start_when_connected(actor, humans))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _stopping(self) -> bool:
        return bool(getattr(self.rooms, "_stopping", False))

    async def _start_when_connected(self, actor: Any, humans: list[str]) -> None:
        deadline = time.monotonic() + self.connect_wait
        while time.monotonic() < deadline and not self._stopping():
            members = actor.table.members
            if all(p in members and members[p].is_connected for p in humans):
                break
            await asyncio.sleep(0.05)
        if self._stopping() or actor.table.owner is None:
            return
        reply = await actor.command(None, actor.table.owner, {"type": "start"})
        if reply.get("type") == "error":  # e.g. a matched player left the room before the start
            log.info("quick room %s did not start: %s", actor.code, reply.get("code"))


async def _ok(reply: Awaitable[dict[str, Any]]) -> None:  # setting up a fresh room cannot fail
    frame = await reply
    if frame.get("type") == "error":
        raise RuntimeError(f"a quick room could not be set up: {frame}")


def outcome_of(
    result: GameResult, *, game_id: str, code: str | None, match: Match | None, at: int
) -> GameOutcome:
    """The accounts' view of a table's game result (leavers back on their seats).

    A game is quick when its room was made by the quick match and it is the room's first game;
    it is rated when the match was among four humans who are still the game's four players.
    In a quick game, the player whose absence got the game cancelled counts as a leaver too
    (closing the page must not be a way around the loss), and so does every other player
    still away then after their own grace warning (``GameResult.absent``): they stayed away
    until the cancellation as well, and are not rated as its winners.
    """
    players = list(result.players)
    for player, seat in result.left:
        if players[seat] is None:
            players[seat] = player
    seats = (players[0], players[1], players[2], players[3])
    quick = match is not None and result.game == 1
    humans = {p for p in seats if p is not None}
    leavers = {p for p, _ in result.left}
    if quick:  # every player still away at the cancellation, warned, stayed away until it
        leavers |= {p for p in (result.abandoned, *result.absent) if p in humans}
    rated = bool(quick and match is not None and match.rated and humans == set(match.humans))
    completed = result.status == "completed"
    return GameOutcome(
        game_id=game_id,
        players=seats,
        winner_team=result.winner_team if completed else None,
        par_bam=result.par_bam and completed,
        quick=quick,
        rated=rated and len(humans) == 4,
        leavers=frozenset(leavers),
        # (asked for hints, or left most of their decisions to the bot: no points for a win)
        assisted=frozenset(p for p in (*result.hinted, *result.idle) if p in humans),
        code=code,
        finished_at=at,
    )


# ---------------------------------------------------------------------------------- state


@dataclass
class AccountsState:
    service: AccountService
    quick: QuickMatch
    secure_cookies: bool | None = None  # None: when the request is https
    # New accounts per client address: 5 at once, then one a minute (docs/protocol.md §8).
    registrations: Limits = field(default_factory=lambda: AddressLimits(rate=1 / 60, burst=5))
    # Leaderboard pages per client address: 30 at once, then one every 2 seconds. A page the
    # store does not keep reads every account (a quarter to half a second at 100,000,
    # docs/benchmarks.md), and each page number and size is a page of its own.
    boards: Limits = field(default_factory=lambda: AddressLimits(rate=0.5, burst=30))

    async def catch_up(self, before: int | None = None) -> int:
        """Record the stored games whose outcome was never recorded (the server died, or
        recording failed, between storing a game and recording it), each dated when it
        finished; how many were recorded. Games finished before this server first recorded
        games (:data:`RECORDING_SINCE`) are left alone, and with ``before`` (ms) those that
        finished at or after it. Raises if some could not be recorded (they are tried again
        at the next catch-up)."""
        # (first set by the catch-up of the first start, before any game is played)
        since = int(await self.service.store.storage.setting(RECORDING_SINCE, str(_now_ms())))
        done, failed = 0, 0
        after: tuple[int, str] | None = None
        store = self.service.store
        while rows := await store.unrecorded_games(since=since, before=before, after=after):
            for game in rows:
                try:
                    result = GameResult.from_dict(game.record["result"])
                    recorded = await self.game_finished(
                        result,
                        game_id=game.game_id,
                        code=game.code,
                        owner=game.owner,
                        at=game.finished_at,
                    )
                except Exception:
                    log.exception("game %s could not be recorded", game.game_id)
                    failed += 1
                else:
                    done += int(recorded)  # False: recorded meanwhile by its room
            after = (rows[-1].finished_at, rows[-1].game_id)
        if failed:
            raise RuntimeError(f"{failed} stored game(s) could not be recorded")
        return done

    async def on_room_game(
        self, actor: Any, result: GameResult, game_id: str, finished_at: int
    ) -> None:
        """The room manager's game listener: a room's game ended (stored already) at
        ``finished_at`` (ms; stored again after a restart, it is still the game's end)."""
        owner = getattr(getattr(actor, "table", None), "owner", None)
        await self.game_finished(
            result, game_id=game_id, code=actor.code, owner=owner, at=finished_at
        )

    async def game_finished(
        self,
        result: GameResult,
        *,
        game_id: str,
        code: str | None,
        owner: str | None = None,
        at: int | None = None,
    ) -> bool:
        """Record a finished/cancelled/closed game: history, stats, points and rating, once.

        In a quick game, closing the game early counts as leaving for the owner who closed it
        (the result names them; ``owner``, the room's owner when it is reported, stands in for
        results stored before it did: a catch-up's is the room's creator).
        """
        match = None
        if code is not None:
            match = self.quick.games.get(code) or await self.service.store.quick_match(code)
        closer = result.closed_by or owner
        if (
            match is not None
            and result.game == 1  # the matched game; later ones are a private room's
            and result.status == "closed"
            and closer in match.humans
        ):
            seat = list(result.players).index(closer) if closer in result.players else None
            if seat is not None:
                result = replace(result, left=(*result.left, (closer, seat)))
        at = _now_ms() if at is None else at
        outcome = outcome_of(result, game_id=game_id, code=code, match=match, at=at)
        try:
            return await self.service.store.record_game(outcome)
        finally:
            if code is not None and result.game == 1:
                self.quick.games.pop(code, None)
                self.quick.forget_room(code)


#: The settings key of the time (ms) from which stored games are recorded by the catch-up:
#: the first start of a server that has it (games of a database from before are not counted).
RECORDING_SINCE = "accounts.recording_since"

#: argon2id parameters of the server (tests lower them to stay fast)
PASSWORD_PARAMS: dict[str, int] = {"time_cost": 3, "memory_cost": 65536, "parallelism": 1}


async def install(
    auth: AuthChain,
    service: AccountService,
    *,
    start_match: StartMatch | None = None,
    config: MatchmakingConfig | None = None,
) -> AccountsState:
    """Create the accounts' tables, put session auth first and guard the guest authenticator."""
    await service.store.start()
    await service.passwords.warm()
    auth.authenticators = [GuestOnlyAuthenticator(a, service.store) for a in auth.authenticators]
    session_auth = SessionAuthenticator(service)
    auth.add(session_auth, first=True)
    state = AccountsState(service, QuickMatch(service, start_match, config or MatchmakingConfig()))
    session_auth.state = state
    return state


def account_name(name: str) -> str:
    """An account's display name follows the rule of every name shown at a table
    (:func:`hokm.server.auth.clean_name`: no links, no phone numbers), as guests' names do.

    >>> account_name("سارا")
    'سارا'
    >>> account_name("call 09121234567")
    Traceback (most recent call last):
    ...
    hokm.accounts.errors.InvalidInputError: a name may not contain a phone number
    """
    try:
        return clean_name(name)
    except BadName as exc:
        raise InvalidInputError(str(exc), message_fa=exc.fa) from exc


async def setup(server: ServerState) -> AccountsState:
    """The server's plugin hook (``hokm.server.app``): accounts on the server's storage."""
    service = AccountService(
        AccountStore(server.storage), passwords=Passwords(**PASSWORD_PARAMS), names=account_name
    )
    starter = RoomStarter(server.rooms)
    state = await install(server.auth, service, start_match=starter)

    async def seated(player: str) -> bool:
        return bool(await server.playing_rooms(player))

    state.quick.seated = seated
    loaded = getattr(server.rooms, "load_listeners", None)
    if loaded is not None:
        loaded.append(starter.resume)
    server.features.add("accounts")
    cluster = getattr(server.rooms, "cluster", None)
    if cluster is not None:
        _share_quick_match(cluster, state.quick)
        service.failed_logins = RedisFailedLogins(cluster, lambda: service.limiter)
        if isinstance(state.registrations, AddressLimits):
            state.registrations = RedisAddressLimits(cluster, "registrations", state.registrations)
        if isinstance(state.boards, AddressLimits):
            state.boards = RedisAddressLimits(cluster, "boards", state.boards)
    listeners = getattr(server.rooms, "game_listeners", None)
    if listeners is not None:
        listeners.append(state.on_room_game)
        server.rooms.catch_ups.append(state.catch_up)
    else:  # pragma: no cover - a server without game listeners records no games
        log.warning("the room manager reports no finished games: accounts see none")
    return state


def _share_quick_match(cluster: Cluster, quick: QuickMatch) -> None:
    """With several processes, one keeps the quick-match queue (elected through Redis like a
    room's owner, ``{prefix}quick``); the others forward the calls. Errors come back as the
    same :class:`AccountError` codes."""
    key = f"{cluster.prefix}quick"

    async def answer(action: str, identity: Identity) -> dict[str, Any]:
        try:
            return {"ok": await quick.run(action, identity)}
        except AccountError as exc:
            return {"error": {"status": exc.status, "code": exc.code, "message": str(exc)}}

    async def route(action: str, identity: Identity) -> dict[str, Any]:
        leader = await cluster.owner(key)
        if leader == cluster.node:
            return await quick.run(action, identity)
        payload = {"method": "quick", "action": action, "identity": identity.to_dict()}
        frame = await cluster.call(leader, payload)
        if "ok" in frame:
            return dict(frame["ok"])
        error = frame.get("error") or {"status": 503, "code": "server_error", "message": ""}
        raise _relayed(error)

    cluster.quick_handler = answer
    quick.route = route


class _RelayedError(AccountError):
    """An error of the process that keeps the quick-match queue, answered here as it was."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def _relayed(error: dict[str, Any]) -> AccountError:
    message = str(error.get("message", ""))
    code = str(error.get("code", "bad_request"))
    known: dict[str, type[AccountError]] = {
        NotQueuedError.code: NotQueuedError,
        AlreadyQueuedError.code: AlreadyQueuedError,
        InvalidInputError.code: InvalidInputError,
    }
    if code in known:
        return known[code](message)
    return _RelayedError(int(error.get("status", 400)), code, message)


def _now_ms() -> int:
    return int(time.time() * 1000)


# ---------------------------------------------------------------------------------- HTTP


def _accounts(request: Request) -> AccountsState:
    for authenticator in request.app.state.hokm.auth.authenticators:
        if isinstance(authenticator, SessionAuthenticator) and authenticator.state is not None:
            return authenticator.state
    raise RuntimeError("accounts are not installed")  # pragma: no cover


def _error(exc: AccountError) -> JSONResponse:
    body = {
        "code": exc.code,
        "message": str(exc),
        "message_fa": exc.message_fa or _FA.get(exc.code, _FA["bad_request"]),
    }
    if isinstance(exc, InGameError):  # which game: for scripts, as the status's «room»
        body["room"] = exc.room
    headers = {"Retry-After": str(exc.retry_after)} if hasattr(exc, "retry_after") else None
    return JSONResponse(body, status_code=exc.status, headers=headers)


def _handler(
    fn: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except AccountError as exc:
            return _error(exc)
        except ClusterError as exc:  # the quick-match queue's process cannot be reached
            log.warning("%s: %s", request.url.path, exc)
            body = {"code": "server_error", "message": UNREACHABLE}
            return JSONResponse(body, status_code=503)

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


async def _body(request: Request, *allowed: str) -> dict[str, Any]:
    try:
        raw = await jsonio.read_body(request, MAX_BODY)
    except jsonio.TooLarge as exc:
        raise InvalidInputError("the body is too large") from exc
    except jsonio.BadJSON as exc:  # cut off
        raise InvalidInputError(str(exc)) from exc
    try:
        data = jsonio.loads(raw) if raw.strip() else {}
    except jsonio.BadJSON as exc:
        raise InvalidInputError(f"the body is {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidInputError("the body must be a JSON object")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise InvalidInputError(f"unknown field {unknown[0]!r}")
    return data


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() or None if header.lower().startswith("bearer ") else None


def _session_token(request: Request) -> str | None:
    token = request.cookies.get(SESSION_COOKIE) or _bearer(request)
    return token if token and "." not in token else None


async def _identity(request: Request) -> Identity | None:
    auth: AuthChain = request.app.state.hokm.auth
    return await auth.identify(request.cookies, _bearer(request))


async def _account(request: Request) -> Identity:
    identity = await _identity(request)
    if identity is None or identity.kind != "account":
        raise NotAuthenticatedError("log in with an account first")
    return identity


def _secure(request: Request) -> bool:
    setting = _accounts(request).secure_cookies
    return request.url.scheme == "https" if setting is None else setting


def _with_session(response: Response, session: Session, request: Request) -> Response:
    response.set_cookie(
        SESSION_COOKIE,
        session.token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=_secure(request),
        path="/",
    )
    return response


def _player(identity: Identity) -> dict[str, str]:
    return identity.to_dict()


@_handler
async def register(request: Request) -> Response:
    """Create an account; a guest calling it becomes the account and keeps its history."""
    data = await _body(request, "username", "password", "name")
    accounts = _accounts(request)
    address = client_address(request)
    if not await accounts.registrations.take(address):
        raise RateLimitedError(
            60,
            "new accounts from this address",
            message_fa="حساب تازه از این نشانی بیش از حد؛ کمی بعد دوباره امتحان کنید",
        )
    current = await _identity(request)
    guest = current if current is not None and current.kind == "guest" else None
    service = _accounts(request).service
    try:
        session = await service.register(
            data.get("username"),
            data.get("password"),
            name=data.get("name"),
            guest_id=guest.id if guest else None,
            guest_name=guest.name if guest else None,
        )
    except AccountError:  # refused (a taken name, a short password): no account was made
        await accounts.registrations.refund(address)
        raise
    found = await service.store.player(session.player_id)
    identity = Identity(session.player_id, found[0] if found else "", "account")
    _rename_in_rooms(request, identity)
    if guest is not None:
        _end_sockets(request, guest.id)  # the guest's sockets come back as the account (1012)
    response = JSONResponse({"player": _player(identity), "upgraded": guest is not None}, 201)
    if guest is not None:
        response.delete_cookie(COOKIE_NAME, path="/")
    return _with_session(response, session, request)


@_handler
async def login(request: Request) -> Response:
    """Log in. A wrong password and an unknown username get the same answer."""
    data = await _body(request, "username", "password")
    address = client_address(request) or "unknown"
    service = _accounts(request).service
    session = await service.login(data.get("username"), data.get("password"), address=address)
    found = await service.store.player(session.player_id)
    identity = Identity(session.player_id, found[0] if found else "", "account")
    return _with_session(JSONResponse({"player": _player(identity)}), session, request)


@_handler
async def logout(request: Request) -> Response:
    """End this session (its token stops working at once) and leave the quick-match queue."""
    identity = await _identity(request)
    accounts = _accounts(request)
    if identity is not None and identity.kind == "account":
        with contextlib.suppress(NotQueuedError, ClusterError):  # the log-out happens anyway
            await accounts.quick.leave(identity)
    await accounts.service.logout(_session_token(request))
    if identity is not None and identity.kind == "account":
        _end_sockets(request, identity.id)  # the sockets of this session close (4003)
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@_handler
async def change_password(request: Request) -> Response:
    """Change the password (the old one is needed); other sessions are logged out."""
    identity = await _account(request)
    data = await _body(request, "old_password", "new_password")
    await _accounts(request).service.change_password(
        identity.id,
        data.get("old_password"),
        data.get("new_password"),
        current_token=_session_token(request),
        address=client_address(request) or "unknown",
    )
    _end_sockets(request, identity.id)  # the other sessions' sockets close (4003)
    return JSONResponse({"ok": True})


@_handler
async def delete_account(request: Request) -> Response:
    """Delete the account for good (its password is needed): username, password, sessions,
    rating, points and history are erased; games already played keep the name shown."""
    identity = await _account(request)
    data = await _body(request, "password")
    accounts = _accounts(request)
    await accounts.service.delete_account(
        identity.id,
        data.get("password"),
        address=client_address(request) or "unknown",
    )
    with contextlib.suppress(NotQueuedError, ClusterError):  # (deleted either way)
        await accounts.quick.leave(identity)
    await _leave_rooms(request, identity.id)
    _end_sockets(request, identity.id)  # every socket of the account closes (4003)
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@_handler
async def get_profile_me(request: Request) -> Response:
    """The caller's own profile (an account)."""
    identity = await _account(request)
    return JSONResponse(await _accounts(request).service.profile(identity.id))


@_handler
async def patch_profile_me(request: Request) -> Response:
    """Change the display name."""
    identity = await _account(request)
    data = await _body(request, "name")
    # A new name is a write, and the leaderboards kept are forgotten (read again) for it:
    # counted against the address's new guests and names, as a guest's rename is.
    creations: Limits = request.app.state.hokm.creations
    address = client_address(request)
    if not await creations.take(address):
        raise RateLimitedError(
            2,
            "new names from this address",
            message_fa="نام تازه از این نشانی بیش از حد؛ کمی بعد دوباره امتحان کنید",
        )
    try:
        name = await _accounts(request).service.set_name(identity.id, data.get("name"))
    except AccountError:  # refused for its input: nothing was written
        await creations.refund(address)
        raise
    _rename_in_rooms(request, Identity(identity.id, name, identity.kind))
    return JSONResponse(await _accounts(request).service.profile(identity.id))


@_handler
async def get_profile(request: Request) -> Response:
    """Any player's public profile."""
    player_id = request.path_params["player_id"]
    if len(player_id) > 64:
        raise NotFoundError("no such player")
    profile = await _accounts(request).service.profile(player_id)
    return JSONResponse(profile)


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 9:
        raise InvalidInputError(f"{name} must be a positive integer")
    return int(raw)


@_handler
async def get_leaderboard(request: Request) -> Response:
    """Accounts ranked by account points (``period`` all or week) or ``by=rating``, with the
    viewer's place."""
    identity = await _identity(request)
    accounts = _accounts(request)

    async def reading() -> None:
        # Only a page (or a viewer's place) not kept counts: it reads every account. The
        # pages kept answer anyone, so many players behind one address (a carrier's NAT)
        # looking at the leaderboard are not refused.
        if not await accounts.boards.take(client_address(request)):
            raise RateLimitedError(
                2,
                "leaderboard pages from this address",
                message_fa="درخواست جدول امتیاز از این نشانی بیش از حد؛ کمی بعد دوباره امتحان کنید",
            )

    board = await accounts.service.leaderboard(
        by=request.query_params.get("by", "points"),
        period=request.query_params.get("period", "all"),
        page=_int_param(request, "page", 1),
        per_page=_int_param(request, "per_page", 20),
        viewer=identity.id if identity is not None and identity.kind == "account" else None,
        reading=reading,
    )
    return JSONResponse(board)


async def get_tiers(request: Request) -> Response:
    """The rating tiers, low to high, and how many games a player is provisional for."""
    return JSONResponse(
        {"tiers": [t.to_dict() for t in Tier], "provisional_games": PROVISIONAL_GAMES}
    )


@_handler
async def quick_join(request: Request) -> Response:
    """Wait for a quick game (platform-a rules) against players of a similar rating."""
    identity = await _account(request)
    await _body(request)
    await _refuse_if_playing(request, identity)
    return JSONResponse(await _accounts(request).quick.join(identity))


@_handler
async def quick_status(request: Request) -> Response:
    """idle, waiting (with the accepted gap and whether bots are offered) or matched (room)."""
    identity = await _account(request)
    quick = _accounts(request).quick
    status = await quick.status(identity)
    if status.get("state") == "waiting":
        # Seated meanwhile in a game in progress (a practice game in another tab): out of the
        # queue, told why, before a match makes them play two games at once. (A matched
        # player is seated in the quick game itself: "waiting" only.)
        playing = await request.app.state.hokm.playing_rooms(identity.id)
        if playing:
            with contextlib.suppress(NotQueuedError):  # (matched meanwhile: left as it is)
                await quick.leave(identity)
                return JSONResponse({"state": "idle", "reason": "in_game", "room": playing[0]})
            status = await quick.status(identity)
    elif status.get("reason") == "in_game":  # (taken out as a match formed: which room)
        playing = await request.app.state.hokm.playing_rooms(identity.id)
        status = {**status, **({"room": playing[0]} if playing else {})}
    return JSONResponse(status)


@_handler
async def quick_leave(request: Request) -> Response:
    """Stop waiting."""
    identity = await _account(request)
    return JSONResponse(await _accounts(request).quick.leave(identity))


@_handler
async def quick_bots(request: Request) -> Response:
    """After the set waiting time: play now with bots instead (not rated)."""
    identity = await _account(request)
    await _refuse_if_playing(request, identity)
    return JSONResponse(await _accounts(request).quick.play_with_bots(identity))


async def _refuse_if_playing(request: Request, identity: Identity) -> None:
    """Not a quick game for a player seated in a game in progress: they would be in two
    games, a bot playing one (and two rated games of one player at once)."""
    playing = await request.app.state.hokm.playing_rooms(identity.id)
    if playing:
        raise InGameError(playing[0])


def _rename_in_rooms(request: Request, identity: Identity) -> None:
    rooms = getattr(request.app.state.hokm, "rooms", None)
    rename = getattr(rooms, "rename", None)
    if rename is not None:
        rename(identity)


async def _leave_rooms(request: Request, player: str) -> None:
    """A deleted account leaves the rooms this process holds (or loads, where it was seated
    in a game): in a game in progress a bot takes its seat and the game goes on, instead of
    waiting out the grace periods of a player who cannot come back and being cancelled for
    everyone. A room another process holds sees its sockets close and waits it out."""
    rooms = getattr(request.app.state.hokm, "rooms", None)
    actors: dict[str, Any] | None = getattr(rooms, "actors", None)
    if rooms is None or actors is None:
        return
    codes = set(actors)
    with contextlib.suppress(Exception):  # storage down: the rooms loaded now still count
        codes.update(await request.app.state.hokm.storage.seated_rooms(player))
    for code in sorted(codes):
        try:
            room = await rooms.get(code)
            actor = actors.get(code)
            if actor is None or room is not actor or player not in actor.table.members:
                continue  # (unknown, held by another process, or not a member)
            await actor.command(None, player, {"type": "leave"})
        except Exception:  # one room's trouble does not keep the others
            log.exception("room %s: the deleted account %s could not leave it", code, player)


def _end_sockets(request: Request, player: str) -> None:
    request.app.state.hokm.sessions_ended(player)


def _routes() -> list[BaseRoute]:
    return [
        Route("/api/accounts/register", register, methods=["POST"]),
        Route("/api/accounts/login", login, methods=["POST"]),
        Route("/api/accounts/logout", logout, methods=["POST"]),
        Route("/api/accounts/password", change_password, methods=["POST"]),
        Route("/api/accounts/me", get_profile_me, methods=["GET"]),
        Route("/api/accounts/me", patch_profile_me, methods=["PATCH"]),
        Route("/api/accounts/me", delete_account, methods=["DELETE"]),
        Route("/api/players/{player_id}", get_profile, methods=["GET"]),
        Route("/api/leaderboard", get_leaderboard, methods=["GET"]),
        Route("/api/tiers", get_tiers, methods=["GET"]),
        Route("/api/quick/join", quick_join, methods=["POST"]),
        Route("/api/quick/status", quick_status, methods=["GET"]),
        Route("/api/quick/leave", quick_leave, methods=["POST"]),
        Route("/api/quick/bots", quick_bots, methods=["POST"]),
    ]


#: the routes the server mounts (``hokm.server.app`` reads this list)
routes: list[BaseRoute] = _routes()

_ERRORS = {
    "register": (400, 409),
    "login": (400, 401, 429),
    "logout": (),
    "change_password": (400, 401, 429),
    "get_profile_me": (401,),
    "patch_profile_me": (400, 401),
    "delete_account": (400, 401, 429),
    "get_profile": (404,),
    "get_leaderboard": (400,),
    "get_tiers": (),
    "quick_join": (401, 409),
    "quick_status": (401,),
    "quick_leave": (401, 409),
    "quick_bots": (400, 401, 409),
}


def _openapi_paths() -> dict[str, dict[str, Any]]:
    """OpenAPI 3 path items of these routes (summaries from the handlers' docstrings)."""
    paths: dict[str, dict[str, Any]] = {}
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    for route in routes:
        assert isinstance(route, Route) and route.methods is not None
        name = route.name
        summary = (route.endpoint.__doc__ or name).strip().splitlines()[0]
        op: dict[str, Any] = {
            "summary": summary,
            "tags": ["accounts"],
            "responses": {"200": {"description": "OK"}},
        }
        for status in _ERRORS.get(name, ()):
            op["responses"][str(status)] = {"description": "refused; nothing changed", **error}
        if "{player_id}" in route.path:
            op["parameters"] = [
                {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}
            ]
        for method in route.methods - {"HEAD"}:
            paths.setdefault(route.path, {})[method.lower()] = op
    return paths


#: OpenAPI path items of the accounts API (merged into ``/openapi.json`` by the app)
openapi_paths: dict[str, dict[str, Any]] = _openapi_paths()
