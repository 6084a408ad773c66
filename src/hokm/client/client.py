"""The client: REST calls with httpx, the real-time protocol with ``websockets``.

A :class:`HokmClient` keeps what the server told it: the latest table snapshot, the
player's own game view (``view``, a :class:`~hokm.engine.SeatView` dict with ``legal``), the
version, and every frame received (``frames``; tests check them for leaks).
With ``reconnect=True`` it comes back by itself when the server restarts, moves the room or
the network drops (close codes 1001, 1006, 1011, 1012): it connects again with backoff, joins
its room with the last version it saw (the server answers with the missed events or a
snapshot), and an action in flight is sent again with its ``action_id`` (never applied
twice). See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["ClientError", "HokmClient", "ServerError"]

Frame = dict[str, Any]

# Close codes after which a client with ``reconnect=True`` comes back: the server going away
# or restarting, a lost network (1006), a server error, a room moved to another process.
RECONNECT_CODES = frozenset({1001, 1006, 1011, 1012, None})
# Error codes of an input that reached a room just as it moved to another process or its
# server began to stop: nothing was applied; the client joins again (docs/protocol.md).
# ``server_error`` too: the protocol asks the client to reconnect after it, and a process
# relaying to a room's owner that died answers it once its call times out (the owner may
# have stored the input first: sent again with its ``action_id``, it is never applied twice).
MOVED_ERRORS = frozenset({"room_unloaded", "shutting_down", "server_error"})


class ClientError(Exception):
    """The connection failed or the server did not answer in time."""


class ServerError(ClientError):
    """The server refused a request; ``code`` and ``frame`` say why."""

    def __init__(self, frame: Frame) -> None:
        super().__init__(f"{frame.get('code')}: {frame.get('message')}")
        self.code: str = str(frame.get("code"))
        self.frame = frame


class HokmClient:
    """One player's connection. ``async with HokmClient(url, name="Sara") as c: …``"""

    def __init__(
        self,
        base_url: str,
        *,
        name: str | None = None,
        token: str | None = None,
        origin: str | None = None,
        timeout: float = 10.0,
        batch: bool = False,
        reconnect: bool = False,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.ws_url = (
            "ws" + self.base_url[4:] + "/ws" if self.base_url.startswith("http") else self.base_url
        )
        self.name = name
        self.token = token
        self.origin = origin
        self.timeout = timeout
        self.batch = batch  # ask the server to send queued frames together (fewer messages)
        self.player: dict[str, Any] | None = None
        self.room: str | None = None
        self.version = 0
        self.table: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.you: dict[str, Any] | None = None
        self.timer: dict[str, Any] | None = None
        self.frames: list[Frame] = []
        self.messages = 0  # WebSocket messages received (a batch holds several frames)
        self.events: list[Frame] = []
        self.closed: asyncio.Future[tuple[int | None, str]] | None = None
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._waiters: dict[str, asyncio.Future[Frame]] = {}
        self._changed = asyncio.Condition()
        self._refs = itertools.count(1)
        self._action_ids = itertools.count(1)
        self._id_prefix = f"{time.monotonic_ns():x}"
        self.on_frame: Callable[[Frame], None] | None = None
        self.reconnect = reconnect  # come back by itself after a server's stop or a drop
        self.reconnects = 0  # how many times it has
        self.reconnect_for = 120.0  # seconds of trying before it gives up
        self._rejoining: asyncio.Task[None] | None = None
        self._leaving = False  # close() was called: a close is not a drop

    # ------------------------------------------------------------------ REST

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def rest(self, method: str, path: str, body: Any = None) -> Any:
        """Call a REST endpoint; raises :class:`ServerError` for an error answer."""
        # Plain-http servers need no certificates (loading them costs tens of milliseconds).
        verify = self.base_url.startswith("https:")
        async with httpx.AsyncClient(
            base_url=self.base_url, timeout=self.timeout, verify=verify
        ) as http:
            response = await http.request(method, path, json=body, headers=self._headers())
        data = response.json()
        if response.status_code >= 400:
            raise ServerError({"type": "error", **data, "status": response.status_code})
        return data

    async def create_room(
        self, *, preset: str | None = None, rules: dict[str, Any] | None = None
    ) -> str:
        """Create a room (needs an identity: call :meth:`connect` or :meth:`guest` first)."""
        if self.token is None:
            await self.guest(self.name or "Player")
        body: dict[str, Any] = {}
        if preset is not None:
            body["preset"] = preset
        if rules:
            body["rules"] = rules
        data = await self.rest("POST", "/api/rooms", body)
        return str(data["code"])

    async def guest(self, name: str) -> dict[str, Any]:
        """Become a guest named ``name`` (keeps the id if this client has a token)."""
        data = await self.rest("POST", "/api/guest", {"name": name})
        self.token = data["token"]
        self.player = data["player"]
        return dict(data["player"])

    # ------------------------------------------------------------------ connection

    async def connect(self) -> Frame:
        """Open the WebSocket and say hello; returns the ``welcome`` frame."""
        headers = {"Origin": self.origin} if self.origin else None
        try:
            self._ws = await connect(
                self.ws_url, additional_headers=headers, open_timeout=self.timeout, max_size=2**22
            )
        except (OSError, websockets.exceptions.WebSocketException) as exc:
            raise ClientError(f"cannot connect to {self.ws_url}: {exc}") from exc
        self.closed = asyncio.get_running_loop().create_future()
        self._reader = asyncio.get_running_loop().create_task(self._read())
        hello: dict[str, Any] = {"type": "hello", "protocol": 1}
        if self.name:
            hello["name"] = self.name
        if self.token:
            hello["token"] = self.token
        if self.batch:
            hello["batch"] = True
        welcome = await self.request(hello)
        self.player = welcome["player"]
        self.token = welcome["token"]
        return welcome

    async def close(self) -> None:
        self._leaving = True
        if self._rejoining is not None:
            self._rejoining.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._rejoining
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._ws = None

    async def drop(self) -> None:
        """Cut the connection abruptly (no close handshake): a lost network, for tests."""
        if self._ws is not None:
            self._ws.transport.abort()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._ws = None

    async def __aenter__(self) -> HokmClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read(self) -> None:
        assert self._ws is not None
        ws = self._ws
        try:
            async for message in ws:
                self.messages += 1
                data = json.loads(message)
                frames = data["frames"] if data.get("type") == "batch" else [data]
                for frame in frames:
                    self.frames.append(frame)
                    await self._absorb(frame)
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            code = ws.close_code
            reason = ws.close_reason or ""
            if self.closed is not None and not self.closed.done():
                self.closed.set_result((code, reason))
            for waiter in self._waiters.values():
                if not waiter.done():
                    waiter.set_exception(ClientError(f"connection closed ({code} {reason})"))
            if (
                self.reconnect
                and not self._leaving
                and code in RECONNECT_CODES
                and (self._rejoining is None or self._rejoining.done())
            ):
                self._rejoining = asyncio.get_running_loop().create_task(self._come_back())
            async with self._changed:
                self._changed.notify_all()

    async def _come_back(self) -> None:
        """Connect again with backoff and rejoin the room where this client left off."""
        give_up = time.monotonic() + self.reconnect_for
        pause = 0.25
        try:
            while True:
                await asyncio.sleep(pause)
                try:
                    await self.connect()
                    if self.room is not None:
                        await self.join(self.room, last_version=self.version)
                except ClientError:
                    if self._ws is not None:
                        with contextlib.suppress(Exception):
                            await self._ws.close()
                    if time.monotonic() > give_up:
                        return
                    pause = min(pause * 2, 5.0)
                    continue
                self.reconnects += 1
                return
        finally:
            async with self._changed:  # back, or given up: waiters look again
                self._changed.notify_all()

    @property
    def reconnecting(self) -> bool:
        """Whether it is coming back after a drop (``reconnect=True``)."""
        return self._rejoining is not None and not self._rejoining.done()

    async def _back(self) -> None:
        """Wait until a reconnection under way is over (it may have given up)."""
        if self._rejoining is not None and asyncio.current_task() is not self._rejoining:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._rejoining), self.reconnect_for)

    async def _absorb(self, frame: Frame) -> None:
        kind = frame.get("type")
        if kind == "snapshot":
            self.room = frame.get("room")
            self.version = int(frame["version"])
            self.table = frame.get("table")
            self.you = frame.get("you")
            self.view = frame.get("game")
            self.timer = frame.get("turn")
        elif kind == "event":
            self._event(frame)
        elif kind == "events":
            for item in frame.get("events", []):
                self._event(item)
            self.version = max(self.version, int(frame.get("version", self.version)))
            if "game" in frame:
                self.view = frame["game"]
            if "you" in frame:
                self.you = frame["you"]
        ref = frame.get("ref")
        if (
            isinstance(ref, str)
            and ref in self._waiters
            and kind in ("ack", "error", "welcome", "snapshot", "events", "pong")
        ):
            waiter = self._waiters.pop(ref)
            if not waiter.done():
                waiter.set_result(frame)
        if self.on_frame is not None:
            self.on_frame(frame)
        async with self._changed:
            self._changed.notify_all()

    def _event(self, frame: Frame) -> None:
        self.events.append(frame)
        self.version = max(self.version, int(frame.get("version", self.version)))
        if "game" in frame:
            self.view = frame["game"]
        event = frame.get("event")
        if isinstance(event, dict) and event.get("kind") == "turn":
            self.timer = event
        if "table" in frame and isinstance(frame["table"], dict):
            self.table = frame["table"]
        if "you" in frame:
            self.you = frame["you"]

    # ------------------------------------------------------------------ requests

    async def send(self, frame: Frame) -> None:
        """Send one frame as is (tests use it for malformed input)."""
        if self._ws is None:
            raise ClientError("not connected")
        try:
            await self._ws.send(json.dumps(frame, ensure_ascii=False))
        except websockets.exceptions.ConnectionClosed as exc:
            raise ClientError(f"connection closed ({exc})") from exc

    async def send_raw(self, data: str | bytes) -> None:
        if self._ws is None:
            raise ClientError("not connected")
        await self._ws.send(data)

    async def request(self, frame: Frame, *, check: bool = True) -> Frame:
        """Send ``frame`` with a fresh ``ref`` and wait for the answer with that ref."""
        ref = f"r{next(self._refs)}"
        future: asyncio.Future[Frame] = asyncio.get_running_loop().create_future()
        self._waiters[ref] = future
        try:
            await self.send({**frame, "ref": ref})
        except ClientError:
            # Never sent: not left waiting (the next close would set an error on it that
            # nobody reads, printed as "Future exception was never retrieved").
            del self._waiters[ref]
            raise
        try:
            answer = await asyncio.wait_for(future, self.timeout)
        except TimeoutError as exc:
            self._waiters.pop(ref, None)
            raise ClientError(f"no answer to {frame.get('type')} in {self.timeout} s") from exc
        if check and answer.get("type") == "error":
            raise ServerError(answer)
        return answer

    async def join(
        self, code: str, *, spectator: bool = False, last_version: int | None = None
    ) -> Frame:
        """Enter a room (as a player, or a spectator); returns the snapshot or events frame."""
        frame: Frame = {"type": "join", "code": code}
        if spectator:
            frame["as"] = "spectator"
        if last_version is not None:
            frame["last_version"] = last_version
        return await self.request(frame)

    async def command(self, kind: str, **fields: Any) -> Frame:
        """A table command (``sit``, ``add_bot``, ``start``, ``chat``…); returns the ack."""
        return await self.request({"type": kind, **fields})

    def next_action_id(self) -> str:
        return f"{self._id_prefix}-{next(self._action_ids)}"

    async def act(
        self, action: dict[str, Any], *, version: int | None = None, action_id: str | None = None
    ) -> Frame:
        """A game action (``{"type": "play", "card": "AS"}``…) against the current version.

        Refused as ``rate_limited`` (faster than the server's limit, ``docs/protocol.md`` §8),
        it is sent again after a pause, with the same ``action_id`` (never applied twice), as
        the protocol asks of clients; a few times, then the refusal is raised. With
        ``reconnect=True``, refused as ``room_unloaded`` or ``shutting_down`` (the room moved
        or the server stops as it arrived: nothing applied) or ``server_error`` (e.g. the
        room's process died while another relayed it), it is sent again, with the same
        ``action_id``, once the client has joined the room again."""
        frame = {
            "type": "action",
            "version": self.version if version is None else version,
            "action_id": action_id or self.next_action_id(),
            "action": action,
        }
        for pause in (0.25, 0.5, 1.0, 2.0):
            try:
                return await self.request(dict(frame))
            except ServerError as exc:
                if exc.code in MOVED_ERRORS and self.reconnect and not self._leaving:
                    await self._join_again(pause)  # then the same id again
                    continue
                if exc.code != "rate_limited":
                    raise
            except ClientError:
                if not self.reconnect or self._leaving:
                    raise
                await self._back()  # dropped with the action in flight: same id again
                continue
            await asyncio.sleep(pause)
        return await self.request(dict(frame))

    async def _join_again(self, wait: float) -> None:
        """After ``room_unloaded`` or ``shutting_down``: wait up to ``wait`` seconds for the
        close that follows (the room moved, the server stops) and for the reconnection it
        starts; if the socket stays open, join the room again on it."""
        if self.closed is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.closed), wait)
        if self.reconnecting:
            await self._back()
        elif self.room is not None and self.closed is not None and not self.closed.done():
            with contextlib.suppress(ClientError):
                await self.join(self.room, last_version=self.version)

    async def chat(self, *, text: str | None = None, phrase: str | None = None) -> Frame:
        fields = {"text": text} if text is not None else {"phrase": phrase}
        return await self.request({"type": "chat", **fields})

    async def ping(self) -> Frame:
        return await self.request({"type": "ping", "t": int(time.time() * 1000)})

    # ------------------------------------------------------------------ waiting

    async def wait_for(
        self, predicate: Callable[[HokmClient], bool], *, timeout: float | None = None
    ) -> None:
        """Wait until ``predicate(self)`` holds (checked after each frame)."""

        async def waiting() -> None:
            async with self._changed:
                while not predicate(self):
                    closed = self.closed is not None and self.closed.done()
                    if closed and not self.reconnecting:
                        raise ClientError("connection closed while waiting")
                    await self._changed.wait()

        try:
            await asyncio.wait_for(waiting(), self.timeout if timeout is None else timeout)
        except TimeoutError as exc:
            raise ClientError("timed out waiting") from exc

    async def wait_event(self, kind: str, *, timeout: float | None = None, after: int = 0) -> Frame:
        """Wait for an event of ``kind`` with a version above ``after``; return its frame."""

        def found(_: HokmClient) -> bool:
            return any(_kind(e) == kind and int(e.get("version", 0)) > after for e in self.events)

        await self.wait_for(found, timeout=timeout)
        return next(e for e in self.events if _kind(e) == kind and int(e.get("version", 0)) > after)

    @property
    def seat(self) -> int | None:
        return None if self.you is None else self.you.get("seat")

    @property
    def legal(self) -> list[dict[str, Any]]:
        """The legal actions of this player now (from the latest view)."""
        return list((self.view or {}).get("legal") or [])

    async def play_until(
        self,
        predicate: Callable[[HokmClient], bool],
        *,
        choose: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None,
        timeout: float = 60.0,
    ) -> None:
        """Play the first (or ``choose``-n) legal action whenever it is this player's turn,
        until ``predicate`` holds."""
        pick = choose or (lambda legal: legal[0])
        deadline = time.monotonic() + timeout
        while not predicate(self):
            if time.monotonic() > deadline:
                raise ClientError("timed out playing")
            legal = self.legal
            if legal:
                action = {k: v for k, v in pick(legal).items() if k != "seat"}
                try:
                    await self.act(action)
                except ServerError as exc:
                    # The state moved on under a legal list already seen (e.g. the partner
                    # decided the bam first and the game ended): refused, nothing changed.
                    if exc.code not in (
                        "stale",
                        "not_your_turn",
                        "wrong_phase",
                        "illegal",
                        "wrong_status",
                    ):
                        raise
            seen = self.version
            with contextlib.suppress(ClientError):
                await self.wait_for(
                    lambda c, seen=seen: c.version != seen or predicate(c),  # type: ignore[misc]
                    timeout=1.0,
                )


def _kind(frame: Frame) -> str | None:
    event = frame.get("event")
    return event.get("kind") if isinstance(event, dict) else None
