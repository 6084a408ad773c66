"""Several ``hokm serve`` processes on one database, coordinated through Redis.

Each process is a **node**. A loaded room has exactly one owner, the node whose
:class:`~hokm.server.rooms.RoomActor` applies its inputs; the others reach it through Redis.
Nothing about the rooms is kept in Redis: the database stays the whole state, and Redis holds
only who owns what and carries messages between the nodes.

* **Liveness.** A node keeps ``{prefix}alive:{node}`` alive with a short expiry
  (``heartbeat_ms``), renewing it every ``heartbeat_ms / 5``. A node that stops renewing
  (killed, frozen, cut off) is gone once that key expires.
* **Ownership.** ``{prefix}room:{code}`` names the room's owner. A node loading a room claims it
  in one atomic script: the claim succeeds when the key is unset, names this node, or names a
  node that is gone. A room that is unloaded (idle, or the node shuts down) is released after
  its final snapshot is stored. Every Redis command has a timeout, and a node applies no input
  once its last heartbeat that Redis took is older than 60 % of the expiry (:meth:`Cluster.
  trusted`): it drops every room without writing anything and closes their sockets so their
  players reconnect, before another node may claim them. The input log's primary key (room,
  version) is the last fence: two owners can never both store the same input.
* **Relaying.** A player's socket may reach any node (no sticky load balancing needed). When
  its room is owned elsewhere, the node gives the socket a :class:`RemoteRoom`, which sends the
  socket's join, commands and syncs to the owner over the owner's channel
  (``{prefix}node:{node}``). The owner wraps the socket as a :class:`RemoteConnection`, whose
  frames are published back to the socket's node and pushed to the socket unchanged. Every
  frame is still built by the owner for its recipient, so relaying can never show a card the
  player may not see. One sender task per node publishes in order, and an answer to a call
  reaches its socket before the frames that followed it, so a socket gets its frames in the
  order the owner sent them.
* **Failures.** A socket in a room whose owner is gone (or when this node's link to Redis
  breaks) is closed with 1012 (``room_moved``); the client reconnects and joins again with its
  last version, and the room is loaded from the database by whichever node the socket reached.
  A node that is gone no longer holds sockets: owners detach its players (the table then runs
  as after any disconnect).
* **The quick-match queue** is kept by one node at a time, elected the same way as a room's
  owner (``{prefix}quick``); the others forward its four calls there.
* **Failed logins** are counted in Redis (:class:`RedisFailedLogins`), and so are the
  per-address limits on new guests, rooms, accounts, simulator bots and analyses
  (:class:`RedisAddressLimits`): more nodes never allow more password guesses or creations.

Without ``HOKM_REDIS_URL`` (``hokm serve --redis``) none of this runs: one process, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from hokm.accounts.errors import RateLimitedError
from hokm.accounts.security import ACCOUNT_COUNTERS
from hokm.server.errors import error_frame
from hokm.server.limits import LOOPBACK, AddressLimits

if TYPE_CHECKING:
    from hokm.accounts.security import LoginLimiter
    from hokm.server.auth import Identity
    from hokm.server.rooms import Connection, RoomManager

__all__ = [
    "Cluster",
    "ClusterError",
    "RedisAddressLimits",
    "RedisFailedLogins",
    "RemoteConnection",
    "RemoteRoom",
]

log = logging.getLogger(__name__)

# What a Redis that stopped, restarted or cannot be reached raises: expected in an outage,
# logged in one line with its cause (a traceback is for a bug; an outage printed three a node).
_LINK_ERRORS = (RedisError, OSError, TimeoutError)


def _log_failure(level: int, message: str, exc: BaseException, *args: object) -> None:
    """Log ``message`` with ``exc``: one line for a link error, its traceback otherwise."""
    if isinstance(exc, (*_LINK_ERRORS, ClusterError)):
        log.log(level, message + " (%s: %s)", *args, type(exc).__name__, exc)
    else:
        log.log(level, message, *args, exc_info=exc)


# Claim a key for ARGV[1] unless it names another node that is alive (KEYS[2] .. owner).
_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. owner) == 1 then
  return owner
end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

# A token bucket (TokenBucket's arithmetic) in a hash {tokens, at}, timed by Redis's clock:
# ARGV rate, burst, cost (1 takes a token, -1 gives one back); 1 if taken (or given back).
_BUCKET = """
local rate, burst, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local kept = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(kept[1]) or burst
local at = tonumber(kept[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local taken = 1
if cost > 0 then
  if tokens >= cost then tokens = tokens - cost else taken = 0 end
else
  tokens = math.min(burst, tokens - cost)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
local full = 86400
if rate > 0 then full = math.min(full, math.ceil((burst - tokens) / rate) + 1) end
redis.call('EXPIRE', KEYS[1], math.max(1, full))
return taken
"""

#: what a request refused because Redis does not answer is told (503)
UNREACHABLE = "the server cannot reach its peers; try again soon"

MOVED = (1012, "room_moved")  # the close that sends a client to reconnect and join again


class ClusterError(Exception):
    """Redis could not be reached or used."""


QuickHandler = Callable[[str, "Identity"], Awaitable[dict[str, Any]]]


class RedisFailedLogins:
    """Failed logins counted in Redis (``{prefix}login:`` and the keys of
    :meth:`~hokm.accounts.security.LoginLimiter.keys`: per account from one address, per
    account, per address;
    sorted sets of their times): the sliding windows of ``limits()``, a
    :class:`~hokm.accounts.security.LoginLimiter`, kept once for every process, so running
    more processes does not allow more password guesses."""

    def __init__(self, cluster: Cluster, limits: Callable[[], LoginLimiter]) -> None:
        self.cluster = cluster
        self.limits = limits

    def _keys(self, account: str, address: str) -> list[tuple[str, int]]:
        prefix = f"{self.cluster.prefix}login:"
        return [(prefix + key, limit) for key, limit in self.limits().keys(account, address)]

    async def check(
        self, *, account: str, address: str, now: float, since: float | None = None
    ) -> None:
        window = self.limits().window_seconds
        keys = self._keys(account, address)
        async with self.cluster._db().pipeline(transaction=False) as pipe:
            for key, _ in keys:
                pipe.zremrangebyscore(key, "-inf", now - window)
                pipe.zrange(key, 0, -1, withscores=True)
            answers = await pipe.execute()
        wait = 0.0
        for i, ((_, limit), times) in enumerate(zip(keys, answers[1::2], strict=True)):
            # the account's counters (not the address's) keep only failures after ``since``
            if since is not None and i < ACCOUNT_COUNTERS:
                times = [t for t in times if float(t[1]) > since]
            if len(times) >= limit:
                wait = max(wait, float(times[len(times) - limit][1]) + window - now)
        if wait > 0:
            raise RateLimitedError(wait)

    async def failed(self, *, account: str, address: str, now: float) -> None:
        window = self.limits().window_seconds
        member = f"{now!r}:{secrets.token_hex(4)}"  # two failures in the same instant count twice
        async with self.cluster._db().pipeline(transaction=False) as pipe:
            for key, _ in self._keys(account, address):
                pipe.zadd(key, {member: now})
                pipe.expire(key, int(window) + 1)
            await pipe.execute()

    async def succeeded(self, *, account: str, address: str) -> None:
        async with self.cluster._db().pipeline(transaction=False) as pipe:
            for key, _ in self._keys(account, address)[:ACCOUNT_COUNTERS]:
                pipe.delete(key)
            await pipe.execute()


class RedisAddressLimits:
    """An :class:`~hokm.server.limits.AddressLimits` kept once for every node: one token
    bucket per address in ``{prefix}limit:{name}:{address}``, updated atomically by a script.
    Loopback is exempt, as in one process. If Redis does not answer, this node's own buckets
    decide (a limit per node, as before, rather than refusing everyone or letting all in) for
    :attr:`PAUSE` seconds before Redis is asked again, so a Redis that hangs costs one request
    its timeout, not every request; the outage is logged once, and its end.

    A key expires once its bucket would be full again (at most a day): a rate of 0 (a burst
    and nothing more, as tests use) refills after a day of quiet, where one process's bucket
    never does."""

    PAUSE = 5.0

    def __init__(self, cluster: Cluster, name: str, local: AddressLimits) -> None:
        self.cluster = cluster
        self.name = name
        self.local = local  # its rate and burst; its buckets while Redis does not answer
        self._script: Any = None
        self._down_until: float | None = None  # Redis failed: not asked again before then

    def _key(self, address: str) -> str:
        return f"{self.cluster.prefix}limit:{self.name}:{address}"

    async def _run(self, address: str | None, cost: int) -> bool | None:
        """The script's answer, or None when Redis did not give one (logged)."""
        address = address or "?"
        if address in LOOPBACK:
            return True
        if self._down_until is not None and time.monotonic() < self._down_until:
            return None
        try:
            if self._script is None:
                self._script = self.cluster._db().register_script(_BUCKET)
            rate, burst = self.local.rate, self.local.burst
            answer = await self._script(keys=[self._key(address)], args=[rate, burst, cost])
        except Exception as exc:
            if self._down_until is None:
                log.warning(
                    "cluster: limit %s in Redis failed (%s); this node's own limit applies",
                    self.name,
                    exc,
                )
            self._down_until = time.monotonic() + self.PAUSE
            return None
        if self._down_until is not None:
            log.info("cluster: limit %s is kept in Redis again", self.name)
            self._down_until = None
        return bool(answer)

    async def take(self, address: str | None) -> bool:
        taken = await self._run(address, 1)
        return self.local.allow(address) if taken is None else taken

    async def refund(self, address: str | None) -> None:
        if await self._run(address, -1) is None:
            self.local.give_back(address)


class RemoteConnection:
    """On the owner: a socket of another node, in one of this node's rooms."""

    __slots__ = ("cid", "cluster", "code", "node", "player")

    def __init__(self, cluster: Cluster, node: str, cid: int, player: str, code: str) -> None:
        self.cluster = cluster
        self.node = node
        self.cid = cid
        self.player = player
        self.code = code

    def push(self, frame: dict[str, Any]) -> None:
        self.cluster.send(self.node, {"op": "push", "cid": self.cid, "frame": frame})

    def close(self, code: int, reason: str) -> None:
        self.cluster.send(self.node, {"op": "close", "cid": self.cid, "code": code, "why": reason})


class RemoteRoom:
    """On a node that does not own the room: the room as its sockets see it."""

    def __init__(self, cluster: Cluster, code: str, owner: str) -> None:
        self.cluster = cluster
        self.code = code
        self.owner = owner
        self.conns: set[Connection] = set()
        self.stopped = False

    async def _call(self, method: str, conn: Connection | None, **fields: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {"method": method, "code": self.code, **fields}
        if conn is not None:
            payload["cid"] = self.cluster.cid_of(conn)
            payload["player"] = conn.player
        frame = await self.cluster.call(self.owner, payload)
        if frame.get("code") == "room_unloaded":
            self.stopped = True  # the owner let it go: the next join finds its new owner
            self.cluster.forget_room(self)
        return frame

    async def attach(self, conn: Connection, name: str, last_version: int | None) -> dict[str, Any]:
        if self.stopped:
            return error_frame("room_unloaded")
        self.conns.add(conn)
        frame = await self._call("attach", conn, name=name, last=last_version)
        if frame.get("type") == "error":
            # (an attach that timed out may still reach the owner: the detach follows it)
            self.detach(conn)
            if frame.get("code") == "server_error" and not await self.cluster.alive(self.owner):
                # The owner died (its heartbeat expired while this waited): this socket
                # reconnects and joins again, and finds the room's next owner (it answered
                # server_error, shown as an error). A live owner's refusal or a slow answer is
                # passed on as it is; the room's other sockets move when the death is noticed.
                conn.close(*MOVED)
        return frame

    async def command(
        self,
        conn: Connection | None,
        player: str,
        data: dict[str, Any],
        *,
        received: float | None = None,
    ) -> dict[str, Any]:
        if self.stopped:
            return error_frame("room_unloaded")
        if conn is None:  # only sockets reach a room through another node
            raise ValueError("a remote room takes commands from sockets only")
        frame = await self._call("command", conn, data=data, received=received)
        if data.get("type") == "leave" and frame.get("type") == "ok":
            self.detach(conn)  # out of the room (the owner forgot it already)
        return frame

    def detach(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        cid = self.cluster.forget_conn(conn)
        if cid is not None:
            message = {"op": "detach", "from": self.cluster.node, "code": self.code, "cid": cid}
            self.cluster.send(self.owner, message)

    async def sync(self, conn: Connection, last_version: int) -> dict[str, Any]:
        if self.stopped:
            return error_frame("room_unloaded")
        return await self._call("sync", conn, last=last_version)

    async def info(self) -> dict[str, Any]:
        frame = await self._call("info", None)
        if frame.get("type") == "error":
            raise ClusterError(f"room {self.code}: {frame.get('code')}")
        return frame

    async def seated(self, player: str) -> bool:
        frame = await self._call("seated", None, who=player)
        return bool(frame.get("seated"))

    def moved(self) -> None:
        """The owner is gone: every socket here reconnects and joins again."""
        self.stopped = True
        for conn in list(self.conns):
            self.cluster.forget_conn(conn)
            conn.close(*MOVED)
        self.conns.clear()
        self.cluster.forget_room(self)


class Cluster:
    """This node's link to the others (see the module's docstring)."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "hokm:",
        heartbeat_ms: int = 10_000,
        call_timeout: float | None = None,
    ) -> None:
        self.url = url
        self.prefix = prefix
        self.heartbeat_ms = heartbeat_ms
        # A call outlasts a heartbeat's expiry: unanswered, its node is alive or known dead.
        if call_timeout is None:
            call_timeout = max(10.0, heartbeat_ms / 1000 + 1.0)
        self.call_timeout = call_timeout
        self.node = secrets.token_hex(6)
        self.redis: aioredis.Redis | None = None  # commands, each with a timeout
        self.listener: aioredis.Redis | None = None  # the subscription (waits without one)
        self.manager: RoomManager | None = None
        # When the last heartbeat that Redis took was sent: rooms are only written while it
        # is recent (:meth:`trusted`), so a node cut off stops before its claims expire.
        self.last_ok = time.monotonic()
        self.quick_handler: QuickHandler | None = None  # set where the accounts plugin runs
        self._calls: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._cids: dict[Connection, int] = {}  # this node's sockets in other nodes' rooms
        self._locals: dict[int, Connection] = {}
        self._rooms: dict[str, RemoteRoom] = {}
        self._remote: dict[tuple[str, int], RemoteConnection] = {}  # other nodes' sockets here
        self._gone: set[tuple[str, int]] = set()  # detaches that came before their attach
        self._pubsub: Any = None  # the subscription in use (closed at the stop)
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self._claim: Any = None
        self._release: Any = None

    # ------------------------------------------------------------------ keys

    def _alive(self, node: str) -> str:
        return f"{self.prefix}alive:{node}"

    def _channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def _room_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def describe(self) -> str:
        """Where Redis is, without a password."""
        url = self.url
        netloc = re.split(r"[/?#]", url.partition("://")[2], maxsplit=1)[0]
        user, at, _ = netloc.rpartition("@")
        if at and ":" in user:  # redis://user:secret@host or redis://:secret@host
            url = url.replace(f"{user}@", f"{user.partition(':')[0]}:***@", 1)
        # (redis-py also takes ?password=… in the query)
        return re.sub(r"([?&]password=)[^&#]*", r"\1***", url)

    # ------------------------------------------------------------------ life cycle

    async def start(self, manager: RoomManager) -> None:
        """Connect, announce this node and listen; :class:`ClusterError` if Redis fails."""
        self.manager = manager
        manager.cluster = self
        wait = max(0.5, self.heartbeat_ms / 2000)  # no Redis command may hang the node
        try:
            self.redis = aioredis.Redis.from_url(
                self.url, socket_timeout=wait, socket_connect_timeout=wait
            )
            self.listener = aioredis.Redis.from_url(self.url, socket_connect_timeout=wait)
            await cast("Awaitable[bool]", self.redis.ping())  # (typed for both clients)
            self._claim = self.redis.register_script(_CLAIM)
            self._release = self.redis.register_script(_RELEASE)
            self.last_ok = time.monotonic()
            await self.redis.set(self._alive(self.node), b"1", px=self.heartbeat_ms)
            pubsub = self.listener.pubsub()
            await pubsub.subscribe(self._channel(self.node))
        except Exception as exc:
            await self._close_redis()
            raise ClusterError(f"Redis at {self.describe()} could not be used: {exc}") from exc
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(pubsub), name="cluster listen"),
            loop.create_task(self._send_loop(), name="cluster send"),
            loop.create_task(self._beat(), name="cluster beat"),
        ]
        log.info("cluster: node %s on %s, keys %s*", self.node, self.describe(), self.prefix)

    async def stop(self) -> None:
        """After the rooms stopped and were released: tell the sockets relayed here to
        reconnect elsewhere, then leave."""
        self._stopping = True
        log.info(
            "cluster: node %s leaves; %d socket(s) of other nodes sent to reconnect",
            self.node,
            len(self._remote),
        )
        for remote in list(self._remote.values()):
            remote.close(*MOVED)
        self._remote.clear()
        for room in list(self._rooms.values()):
            room.moved()
        for future in self._calls.values():
            if not future.done():
                future.set_result(error_frame("shutting_down"))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._outbox.join(), 2.0)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.delete(self._alive(self.node))
        await self._close()

    async def crash(self) -> None:
        """Stop at once, releasing nothing: what other nodes see when this one is killed
        (for tests)."""
        self._stopping = True
        await self._close()

    async def _close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # Bounded: a cancellation landing inside the Redis client's read may be taken as a
            # lost connection there and not end the task at once (a stop hung on it).
            await asyncio.wait(self._tasks, timeout=2.0)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self._close_redis()

    async def _close_redis(self) -> None:
        for client in (self.redis, self.listener):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()

    # ------------------------------------------------------------------ ownership

    def _db(self) -> aioredis.Redis:
        if self.redis is None:
            raise ClusterError("the cluster is not started")
        return self.redis

    async def owner(self, key: str) -> str:
        """Claim ``key`` for this node unless a live node holds it; the holder's id."""
        self._db()
        try:
            owner = await self._claim(keys=[key], args=[self.node, f"{self.prefix}alive:"])
        except (RedisError, OSError, TimeoutError) as exc:
            raise ClusterError(f"Redis does not answer: {exc}") from exc
        return owner.decode() if isinstance(owner, bytes) else str(owner)

    async def alive(self, node: str) -> bool:
        """Whether ``node``'s heartbeat is there (True when Redis cannot say: not proven dead)."""
        try:
            return bool(await self._db().exists(self._alive(node)))
        except (RedisError, OSError, TimeoutError, ClusterError):
            return True

    async def claim_room(self, code: str) -> str:
        return await self.owner(self._room_key(code))

    async def release_room(self, code: str) -> None:
        try:
            self._db()
            await self._release(keys=[self._room_key(code)], args=[self.node])
        except Exception as exc:  # the key names a node leaving or gone: others may claim it
            _log_failure(logging.ERROR, "cluster: releasing room %s failed", exc, code)

    def trusted(self) -> bool:
        """Whether this node may still write its rooms: its last heartbeat that Redis took is
        recent enough that no other node can have claimed them (it stops at 60 % of the
        expiry, before its claims can be taken)."""
        return time.monotonic() - self.last_ok < 0.6 * self.heartbeat_ms / 1000

    def remote_room(self, code: str, owner: str) -> RemoteRoom:
        room = self._rooms.get(code)
        if room is None or room.stopped or room.owner != owner:
            if room is not None and not room.stopped:
                room.moved()  # its owner changed: its sockets join the room's new owner
            room = self._rooms[code] = RemoteRoom(self, code, owner)
        return room

    def forget_room(self, room: RemoteRoom) -> None:
        if self._rooms.get(room.code) is room:
            del self._rooms[room.code]

    # ------------------------------------------------------------------ sockets of this node

    def cid_of(self, conn: Connection) -> int:
        cid = self._cids.get(conn)
        if cid is None:
            cid = self._cids[conn] = next(self._ids)
            self._locals[cid] = conn
        return cid

    def forget_conn(self, conn: Connection) -> int | None:
        cid = self._cids.pop(conn, None)
        if cid is not None:
            self._locals.pop(cid, None)
        return cid

    # ------------------------------------------------------------------ messages

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Queue a message for ``node`` (published in order by one task)."""
        self._outbox.put_nowait((node, orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)))

    async def call(self, node: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Ask ``node`` and wait for its answer frame (``server_error`` after the timeout)."""
        if self._stopping:
            return error_frame("shutting_down")
        number = next(self._ids)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._calls[number] = future

        def expire() -> None:
            if not future.done():
                log.warning("cluster: node %s did not answer %s", node, payload.get("method"))
                future.set_result(error_frame("server_error"))

        timer = loop.call_later(self.call_timeout, expire)
        self.send(node, {"op": "call", "id": number, "from": self.node, **payload})
        try:
            # Awaited directly (no wait_for): the caller resumes in the loop turn right after
            # the answer is handled, before the listener pushes the frames that followed it.
            return await future
        finally:
            timer.cancel()
            self._calls.pop(number, None)

    async def _send_loop(self) -> None:
        db = self._db()
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with db.pipeline(transaction=False) as pipe:
                    for node, data in batch:
                        pipe.publish(self._channel(node), data)
                    await pipe.execute()
            except Exception as exc:
                _log_failure(
                    logging.ERROR, "cluster: %d message(s) could not be published", exc, len(batch)
                )
            finally:
                for _ in batch:
                    self._outbox.task_done()

    async def _listen(self, pubsub: Any) -> None:
        broken = False  # the link broke and has not been made again yet
        while not self._stopping:
            try:
                if pubsub is None:
                    if self.listener is None:
                        raise ClusterError("the cluster is not started")
                    pubsub = self.listener.pubsub()
                    await pubsub.subscribe(self._channel(self.node))
                self._pubsub = pubsub
                if broken:
                    log.info("cluster: the link to Redis is back")
                    broken = False
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        replied = self._handle(orjson.loads(message["data"]))
                    except Exception:
                        log.exception("cluster: a message could not be handled")
                        continue
                    if replied:
                        # Let the caller push its answer before the frames that came after it
                        # (it resumes in this very next loop turn: the caller awaits directly).
                        await asyncio.sleep(0)
                raise ClusterError("the subscription ended")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._stopping:
                    return
                if not broken:  # the cause once per outage, not at every try (23 tracebacks)
                    _log_failure(
                        logging.WARNING, "cluster: the link to Redis broke; reconnecting", exc
                    )
                else:
                    log.debug("cluster: Redis still does not answer (%s)", exc)
                broken = True
                self._link_lost()
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                pubsub = None
                await asyncio.sleep(1.0)  # every failure waits: never a busy loop

    def _link_lost(self) -> None:
        """Messages may have been lost: relayed sockets start again from their last version."""
        for room in list(self._rooms.values()):
            room.moved()
        self._rooms.clear()
        for remote in list(self._remote.values()):
            remote.close(*MOVED)
        self._forget_remotes(list(self._remote))
        for future in self._calls.values():
            if not future.done():
                future.set_result(error_frame("server_error"))

    def _handle(self, message: dict[str, Any]) -> bool:
        """Handle one message; True if it was an answer to a call of this node."""
        op = message.get("op")
        if op == "push":
            conn = self._locals.get(message["cid"])
            if conn is not None:
                conn.push(message["frame"])
        elif op == "reply":
            future = self._calls.get(message["id"])
            if future is not None and not future.done():
                future.set_result(message["frame"])
                return True
        elif op == "close":
            conn = self._locals.get(message["cid"])
            if conn is not None:
                conn.close(int(message["code"]), str(message["why"]))
        elif op == "call":
            # The call's first step (which queues it in the actor's inbox) runs in the order
            # the calls arrived, before any detach queued after it.
            asyncio.get_running_loop().create_task(self._answer(message))
        elif op == "detach":
            asyncio.get_running_loop().call_soon(self._detach, message)
        return False

    def _detach(self, message: dict[str, Any]) -> None:
        key = (message["from"], message["cid"])
        remote = self._remote.pop(key, None)
        if remote is None:
            # A detach that overtook its attach (the room was still loading): the attach
            # must not happen after it (the player would seem connected for ever).
            if len(self._gone) > 10_000:
                self._gone.clear()
            self._gone.add(key)
            return
        actor = self.manager.actors.get(remote.code) if self.manager is not None else None
        if actor is not None:
            actor.detach(remote)

    def _forget_remotes(self, keys: list[tuple[str, int]]) -> None:
        """Detach these sockets of other nodes from this node's rooms and forget them."""
        for key in keys:
            remote = self._remote.pop(key, None)
            actor = None
            if remote is not None and self.manager is not None:
                actor = self.manager.actors.get(remote.code)
            if actor is not None and remote is not None:
                actor.detach(remote)

    async def _answer(self, message: dict[str, Any]) -> None:
        node = message["from"]
        try:
            frame = await self._serve(node, message)
        except Exception:
            log.exception("cluster: a call from node %s failed", node)
            frame = error_frame("server_error")
        self.send(node, {"op": "reply", "id": message["id"], "frame": frame})

    async def _serve(self, node: str, message: dict[str, Any]) -> dict[str, Any]:
        from hokm.server.auth import Identity
        from hokm.server.rooms import RoomActor

        method = message["method"]
        if method == "quick":
            if self.quick_handler is None:
                return error_frame("server_error", "quick games are not available here")
            identity = Identity(**message["identity"])
            return await self.quick_handler(str(message["action"]), identity)
        manager = self.manager
        if manager is None:
            return error_frame("server_error")
        code = message["code"]
        key = (node, int(message.get("cid", -1)))
        actor = manager.actors.get(code)
        if actor is None and method in ("attach", "info", "seated") and not self._stopping:
            got = await manager.get(code)  # this node holds the claim: load it
            actor = got if isinstance(got, RoomActor) else None
        if actor is None or actor.stopped:
            return error_frame("room_unloaded")
        if method == "info":
            return actor.public_info()
        if method == "seated":
            return {"seated": actor.holds(message["who"])}
        remote = self._remote.get(key)
        if method == "attach":
            if key in self._gone:  # its socket left while the room was loading
                self._gone.discard(key)
                return error_frame("room_unloaded")
            if remote is None or remote.code != code:
                remote = RemoteConnection(self, node, key[1], str(message["player"]), code)
            self._remote[key] = remote
            frame = await actor.attach(remote, str(message["name"]), message["last"])
            if frame.get("type") == "error" and self._remote.get(key) is remote:
                del self._remote[key]
            return frame
        if remote is None or remote.code != code:
            return error_frame("room_unloaded")  # not attached here (the room moved): join again
        if method == "command":
            frame = await actor.command(
                remote, remote.player, message["data"], received=message.get("received")
            )
            if message["data"].get("type") == "leave" and frame.get("type") == "ok":
                self._remote.pop(key, None)  # the actor forgot it too
            return frame
        if method == "sync":
            return await actor.sync(remote, int(message["last"]))
        return error_frame("bad_message", f"unknown call {method!r}")

    # ------------------------------------------------------------------ heartbeat

    async def _beat(self) -> None:
        """Renew this node's heartbeat; watch the nodes this one relays for. Unable to renew
        it for long (Redis down, or this node cut off), drop every room before another node
        may claim them."""
        period = self.heartbeat_ms / 5000
        while True:
            await asyncio.sleep(period)
            sent = time.monotonic()  # the renewal counts from before it was asked
            try:
                db = self._db()
                kept = await db.set(self._alive(self.node), b"1", px=self.heartbeat_ms, xx=True)
                if not kept:
                    log.error("cluster: this node's heartbeat expired; dropping its rooms")
                    self.last_ok = 0.0
                    await self._drop_rooms()
                    await db.set(self._alive(self.node), b"1", px=self.heartbeat_ms)
                self.last_ok = sent
                await self._watch(db)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                holding = bool(self.manager and self.manager.actors) or bool(self._rooms)
                if not self.trusted() and holding:
                    _log_failure(
                        logging.ERROR,
                        "cluster: no heartbeat for a while; dropping this node's rooms",
                        exc,
                    )
                    await self._drop_rooms()
                    self._link_lost()

    async def _drop_rooms(self) -> None:
        """Drop every room without writing (another node may own it by now); their sockets
        reconnect. Claims still naming this node are released, so others load them at once."""
        manager = self.manager
        if manager is None:
            return
        dropped = list(manager.actors.items())
        for code, actor in dropped:
            del manager.actors[code]
            actor.abandon()
        for remote in list(self._remote.values()):
            remote.close(*MOVED)
        self._remote.clear()
        for code, _ in dropped:
            with contextlib.suppress(Exception):
                await self._release(keys=[self._room_key(code)], args=[self.node])

    async def _watch(self, db: aioredis.Redis) -> None:
        for room in list(self._rooms.values()):
            if not room.conns:  # asked about once (REST): asked afresh next time
                self.forget_room(room)
        nodes = {room.owner for room in self._rooms.values()}
        nodes |= {node for node, _ in self._remote}
        nodes.discard(self.node)
        if not nodes:
            return
        ordered = sorted(nodes)
        async with db.pipeline(transaction=False) as pipe:
            for node in ordered:
                pipe.exists(self._alive(node))
            alive = await pipe.execute()
        gone = {node for node, up in zip(ordered, alive, strict=True) if not up}
        for room in list(self._rooms.values()):
            if room.owner in gone:
                log.warning("cluster: node %s is gone; its room %s moves", room.owner, room.code)
                room.moved()
                self.forget_room(room)
        self._forget_remotes([key for key, remote in self._remote.items() if remote.node in gone])
