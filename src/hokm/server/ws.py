"""The WebSocket endpoint ``/ws``: framing, limits, identity, and routing to room actors.

Every inbound frame is checked here first (size, rate, JSON object, envelope fields); table
commands are then schema-checked by the table itself. Nothing a client sends can raise out of
this module: a bad frame gets an ``error`` frame and changes nothing. Outbound frames go
through a per-connection queue, so a slow client never blocks a room. See
``docs/protocol.md`` §3–5.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from hokm.server import jsonio
from hokm.server.auth import BadName, Identity, clean_name
from hokm.server.cluster import MOVED, ClusterError
from hokm.server.errors import MESSAGES, error_frame
from hokm.server.limits import LOOPBACK, NO_ROOM_LIMITED, TokenBucket, client_address
from hokm.server.origins import origin_allowed
from hokm.server.rest import PROTOCOL_VERSION
from hokm.server.rooms import Room
from hokm.server.state import ServerState, Settings
from hokm.table import COMMAND_TYPES, is_code, normalize_code

__all__ = ["WsConnection", "origin_allowed", "websocket_endpoint"]

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 4000  # frames queued for one client before it is dropped as too slow
_ENVELOPE = {
    "hello": ({"protocol"}, {"name", "token", "batch"}),
    "join": ({"code"}, {"last_version", "as"}),
    "sync": ({"last_version"}, set()),
    "ping": (set(), {"t"}),
}


class WsConnection:
    """One client socket: who it is, which room it is in, and its outgoing queue."""

    def __init__(self, websocket: WebSocket, identity: Identity, *, batch: bool = False) -> None:
        self.websocket = websocket
        self.identity = identity
        self.batch = batch  # the client asked for queued frames in one ``batch`` message
        self.player = identity.id
        self.room: Room | None = None
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closing: tuple[int, str] | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def push(self, frame: dict[str, Any]) -> None:
        if self.closing is not None:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            log.warning("dropping a slow client %s", self.player)
            self.close(1008, "too_slow")
            return
        self.outbox.put_nowait(frame)

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then close the socket with ``code``."""
        if self.closing is None:
            self.closing = (code, reason)
            self.outbox.put_nowait(None)

    async def _write(self) -> None:
        ws = self.websocket
        try:
            while True:
                frame = await self.outbox.get()
                if frame is None:
                    break
                if self.batch:
                    # Let the rest of this loop turn queue its frames too (the events of a
                    # move and the reply to it), so they leave in one message.
                    await asyncio.sleep(0)
                if self.batch and not self.outbox.empty():
                    frames, last = [frame], None
                    while not self.outbox.empty():
                        last = self.outbox.get_nowait()
                        if last is None:
                            break
                        frames.append(last)
                    await ws.send_text(_encode_batch(frames))
                    if last is None and self.closing is not None and self.outbox.empty():
                        break
                    continue
                await ws.send_text(_encode(frame))
        except Exception:  # the peer went away: the reader notices and cleans up
            return
        code, reason = self.closing or (1000, "")
        with contextlib.suppress(Exception):
            await ws.close(code=code, reason=reason)

    async def finish(self) -> None:
        self.close(1000, "")
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self.writer, 2.0)
        if not self.writer.done():
            self.writer.cancel()


def _dumps(frame: dict[str, Any]) -> str:
    """Compact UTF-8 JSON (orjson: the same text as ``json.dumps(..., ensure_ascii=False,
    separators=(",", ":"))`` at a fraction of the cost; every outgoing frame goes through it)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def _encode(frame: dict[str, Any]) -> str:
    """``frame`` as text; a frame that cannot be encoded (a server bug: inbound JSON is read
    strictly, so nothing a client sent can cause it) is logged and replaced by a
    ``server_error`` answer, so the connection's writer goes on."""
    try:
        return _dumps(frame)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        log.exception("an outgoing %r frame could not be encoded", frame.get("type"))
        ref = frame.get("ref") if isinstance(frame.get("ref"), str) else None
        return _dumps(error_frame("server_error", ref=ref))


def _encode_batch(frames: list[dict[str, Any]]) -> str:
    try:
        return _dumps({"type": "batch", "frames": frames})
    except TypeError:
        return '{"type":"batch","frames":[' + ",".join(_encode(f) for f in frames) + "]}"


class _Refused(Exception):
    def __init__(self, frame: dict[str, Any]) -> None:
        super().__init__(frame.get("code"))
        self.frame = frame


def _check_envelope(data: dict[str, Any], kind: str) -> None:
    required, optional = _ENVELOPE[kind]
    keys = set(data) - {"type", "ref"}
    missing = sorted(required - keys)
    if missing:
        raise _Refused(error_frame("bad_message", f"{kind}: missing field {missing[0]!r}"))
    unknown = sorted(keys - required - optional)
    if unknown:
        raise _Refused(error_frame("bad_message", f"{kind}: unknown field {unknown[0]!r}"))


def _version(value: object, kind: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Refused(error_frame("bad_message", f"{kind}: last_version must be an integer ≥ 0"))
    return value


class _Session:
    """The conversation on one socket after the WebSocket is accepted."""

    def __init__(self, websocket: WebSocket, state: ServerState) -> None:
        self.websocket = websocket
        self.state = state
        self.settings: Settings = state.settings
        self.bucket = TokenBucket(
            rate=self.settings.messages_per_second, burst=self.settings.message_burst
        )
        self.flood_since: float | None = None
        self.batch = False
        self.last_flood_error = 0.0
        self.conn: WsConnection | None = None
        self.token: str | None = None  # the hello's token (with the cookies: who this is)

    async def receive(self, timeout: float | None = None) -> str | bytes | None:
        """The next message's data; None when the peer disconnected."""
        message = await asyncio.wait_for(self.websocket.receive(), timeout)
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is not None:
            return str(text)
        raw = message.get("bytes")
        return bytes(raw) if raw is not None else b""

    def decode(self, raw: str | bytes) -> dict[str, Any]:
        limit = self.settings.max_frame_bytes
        if isinstance(raw, bytes):
            if len(raw) > limit:
                raise _Refused(error_frame("too_large", f"at most {limit} bytes"))
            raise _Refused(error_frame("bad_json", "send JSON text frames, not binary"))
        if len(raw) > limit or len(raw.encode()) > limit:
            raise _Refused(error_frame("too_large", f"at most {limit} bytes"))
        try:
            data = jsonio.loads(raw)
        except jsonio.BadJSON as exc:
            raise _Refused(error_frame("bad_json", str(exc)[:120])) from exc
        if not isinstance(data, dict):
            raise _Refused(error_frame("bad_json", "a frame is a JSON object"))
        ref = data.get("ref")
        if ref is not None and (not isinstance(ref, str) or len(ref) > 64):
            raise _Refused(
                error_frame("bad_message", "ref must be a string of at most 64 characters")
            )
        if not isinstance(data.get("type"), str):
            raise _Refused(error_frame("bad_message", "a frame needs a string type", ref=ref))
        return data

    # ------------------------------------------------------------------ hello

    async def hello(self) -> Identity | None:
        """Wait for ``hello`` and resolve the identity; None if the socket must close."""
        try:
            raw = await self.receive(self.settings.hello_timeout)
        except TimeoutError:
            await self._close(4001, "unauthorized", "no hello in time")
            return None
        if raw is None:
            return None
        try:
            data = self.decode(raw)
            if data["type"] != "hello":
                raise _Refused(error_frame("unauthorized", "the first frame must be hello"))
            _check_envelope(data, "hello")
            protocol = data.get("protocol")
            if type(protocol) is not int or protocol != PROTOCOL_VERSION:  # (not true, not 1.0)
                await self._close(
                    4002, "unsupported_protocol", f"this server speaks protocol {PROTOCOL_VERSION}"
                )
                return None
            name = None if data.get("name") is None else clean_name(data.get("name"))
            if not isinstance(data.get("batch", False), bool):
                raise _Refused(error_frame("bad_message", "batch must be true or false"))
            self.batch = bool(data.get("batch", False))
            token = data.get("token")
            if token is not None and not isinstance(token, str):
                raise _Refused(error_frame("bad_message", "token must be a string"))
        except BadName as exc:
            await self._close(4001, "bad_name", str(exc), exc.fa)
            return None
        except _Refused as refusal:
            await self._send(refusal.frame)
            await self._close(4001, str(refusal.frame["code"]), None)
            return None
        self.token = token
        identity = await self.state.auth.identify(self.websocket.cookies, token)
        if identity is None and token:
            # A token that identifies nobody (forged, damaged, from another server, a session
            # logged out) is refused: quietly becoming a new guest would lose the seat.
            await self._close(
                4001,
                "unauthorized",
                "this token identifies nobody: say hello without it to be a new guest",
                "این نشانه متعلق به هیچ بازیکنی نیست؛ بدون آن وارد شوید تا مهمان تازه‌ای باشید",
            )
            return None
        renaming = (
            identity is not None
            and name is not None
            and name != identity.name
            and identity.kind == "guest"
        )
        # A new guest or a guest's new name is a write, counted as POST /api/guest counts
        # them: a loop of hellos with a new name each made hundreds a second from one client.
        if (identity is None or renaming) and not await self.state.creations.take(
            client_address(self.websocket)
        ):
            await self._close(
                4008,
                "rate_limited",
                "too many new guests or names from this address",
                "مهمان یا نام تازه از این نشانی بیش از حد بوده است؛ کمی بعد دوباره امتحان کنید",
            )
            return None
        if identity is None:
            identity, token = await self.state.guests.create(name or "مهمان")
            self.token = token  # (who this socket is from now on)
        elif renaming:
            assert name is not None
            identity = await self.state.guests.rename(identity, name)
        await self._send(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "ref": data.get("ref"),
                "server_time": time.time(),
                "player": identity.to_dict(),
                "token": self.state.guests.token_for(identity)
                if identity.kind == "guest"
                else token,
                "limits": {
                    "max_frame_bytes": self.settings.max_frame_bytes,
                    "messages_per_second": self.settings.messages_per_second,
                    "chat_max_chars": 200,
                },
            }
        )
        return identity

    async def _send(self, frame: dict[str, Any]) -> None:
        frame = {k: v for k, v in frame.items() if v is not None or k in ("game",)}
        await self.websocket.send_text(_dumps(frame))

    async def _close(
        self, code: int, error: str, detail: str | None, detail_fa: str | None = None
    ) -> None:
        frame = error_frame(error, detail, detail_fa)
        with contextlib.suppress(Exception):
            await self._send(
                {
                    "type": "bye",
                    "code": code,
                    "reason": {"en": frame["message"], "fa": frame["message_fa"]},
                }
            )
            await self.websocket.close(code=code, reason=error)

    # ------------------------------------------------------------------ the loop

    def flooding(self) -> bool:
        """Take a token; True if this frame must be refused (and maybe the socket closed)."""
        now = time.monotonic()
        if self.bucket.take(now):
            # A flood ends when the client slowed down enough for the bucket to refill.
            if self.bucket.tokens >= self.bucket.burst / 2:
                self.flood_since = None
            return False
        if self.flood_since is None:
            self.flood_since = now
        return True

    async def watch_session(self, conn: WsConnection) -> None:
        """A socket lasts as long as the identity it said ``hello`` with. An account's session
        logged out, ended by a password change or expired: ``bye`` and close 4003 (within
        ``session_check_seconds``). A guest who registered (the guest token no longer
        identifies anyone): close 1012, and the page comes back as the account (within ten
        times that). At once when it happened in this process."""
        account = conn.identity.kind == "account"
        period = self.settings.session_check_seconds * (1 if account else 10)
        wake = asyncio.Event()
        watchers = self.state.session_watchers.setdefault(conn.player, set())
        watchers.add(wake)
        try:
            while conn.closing is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), period)
                wake.clear()
                try:
                    now = await self.state.auth.identify(self.websocket.cookies, self.token)
                except Exception as exc:  # the database is down: nobody is sent away for it
                    log.debug("the identity of %s could not be checked: %s", conn.player, exc)
                    continue
                if now is not None and now.id == conn.player and now.kind == conn.identity.kind:
                    continue
                code, reason = (4003, "session_ended") if account else (1012, "identity_changed")
                en, fa = MESSAGES[reason]
                log.info("closing a socket of %s: %s (%d)", conn.player, reason, code)
                conn.push({"type": "bye", "code": code, "reason": {"en": en, "fa": fa}})
                conn.close(code, reason)
                return
        finally:
            watchers.discard(wake)
            if not watchers:
                self.state.session_watchers.pop(conn.player, None)

    async def run(self, identity: Identity) -> None:
        conn = self.conn = WsConnection(self.websocket, identity, batch=self.batch)
        watch = asyncio.get_running_loop().create_task(self.watch_session(conn))
        try:
            while conn.closing is None:
                raw = await self.receive()
                if raw is None or conn.closing is not None:
                    break  # (closed while this frame came: its session ended, say)
                if self.flooding():
                    now = time.monotonic()
                    assert self.flood_since is not None
                    if now - self.flood_since > self.settings.flood_close_seconds:
                        en, fa = MESSAGES["flooding"]
                        log.info("closing a flooding connection of %s (4008)", conn.player)
                        conn.push({"type": "bye", "code": 4008, "reason": {"en": en, "fa": fa}})
                        conn.close(4008, "flooding")
                        break
                    if now - self.last_flood_error >= 1.0:
                        # naming the refused frame, so a client waiting for its answer
                        # learns at once (others refused in the same second get none)
                        self.last_flood_error = now
                        ref = _ref_of(raw) if isinstance(raw, str) else None
                        conn.push(error_frame("rate_limited", ref=ref))
                    continue
                received = time.time()
                try:
                    data = self.decode(raw)
                    reply = await self.dispatch(conn, data, received)
                except _Refused as refusal:
                    reply = refusal.frame
                    if "ref" not in reply and isinstance(raw, str):
                        reply["ref"] = _ref_of(raw)
                if reply is not None:
                    conn.push({k: v for k, v in reply.items() if v is not None or k == "game"})
        except WebSocketDisconnect:
            pass
        finally:
            watch.cancel()
            if conn.room is not None:
                conn.room.detach(conn)
                conn.room = None
            await conn.finish()

    async def dispatch(
        self, conn: WsConnection, data: dict[str, Any], received: float = 0.0
    ) -> dict[str, Any] | None:
        kind = data["type"]
        ref = data.get("ref")
        if kind == "ping":
            _check_envelope(data, "ping")
            return {"type": "pong", "t": data.get("t"), "server_time": time.time(), "ref": ref}
        if kind == "hello":
            return error_frame("bad_message", "hello is only the first frame", ref=ref)
        if kind == "join":
            return await self.join(conn, data)
        if conn.room is not None and conn.room.stopped:
            # The room was unloaded while this socket was out of it (its player left it on
            # another socket): the socket is in no room.
            conn.room = None
        if kind == "sync":
            _check_envelope(data, "sync")
            if conn.room is None:
                return error_frame("not_in_room", ref=ref)
            last = _version(data.get("last_version"), "sync")
            frame = await conn.room.sync(conn, -1 if last is None else last)
            return {**frame, "ref": ref}
        if kind in COMMAND_TYPES:
            if conn.room is None:
                return error_frame("not_in_room", ref=ref)
            command = {k: v for k, v in data.items() if k != "ref"}
            room = conn.room
            reply = await room.command(conn, conn.player, command, received=received)
            if kind == "leave" and reply.get("type") == "ok":
                conn.room = None
            return _translate(reply, ref)
        return error_frame("bad_message", f"unknown message type {kind!r}", ref=ref)

    async def _no_room(self, ref: str | None) -> dict[str, Any]:
        """``room_not_found``, or ``rate_limited`` once this address tried too many codes that
        name no room (as over REST: guessing a private room's code)."""
        if not await self.state.misses.take(client_address(self.websocket)):
            return error_frame("rate_limited", *NO_ROOM_LIMITED, command="join", ref=ref)
        return error_frame("room_not_found", ref=ref)

    async def join(self, conn: WsConnection, data: dict[str, Any]) -> dict[str, Any]:
        _check_envelope(data, "join")
        ref = data.get("ref")
        code_raw = data.get("code")
        last = _version(data.get("last_version"), "join")
        if data.get("as") not in (None, "player", "spectator"):
            return error_frame("bad_message", "join: as is player or spectator", ref=ref)
        if not isinstance(code_raw, str):
            return error_frame("bad_message", "join: code must be a string", ref=ref)
        if len(code_raw) > 32 or not is_code(code_raw):
            return await self._no_room(ref)
        if not self.state.joins.allow(conn.player):
            return error_frame(
                "rate_limited",
                "too many joins: wait a few seconds",
                "چند ثانیه صبر کنید",
                command="join",
                ref=ref,
            )
        for _ in range(3):  # a room unloaded just as the join arrived is loaded again
            try:
                room = await self.state.rooms.get(normalize_code(code_raw))
            except ClusterError as exc:  # Redis does not answer: nobody may own a room now
                cluster = self.state.rooms.cluster
                # (an outage is logged once, by the cluster: each join of it is a detail)
                level = (
                    logging.DEBUG if cluster is None or not cluster.trusted() else logging.WARNING
                )
                log.log(level, "join %s: the room's owner cannot be known (%s)", code_raw, exc)
                conn.close(*MOVED)  # the client reconnects, and joins once Redis is back
                return error_frame("server_error", ref=ref)
            if room is None:
                return await self._no_room(ref)
            if conn.room is not None and conn.room is not room:
                conn.room.detach(conn)
                conn.room = None
            # (a socket already in the room gets a resume; one whose player left the room
            # from another socket joins it again)
            frame = await room.attach(conn, conn.identity.name, last)
            if frame.get("code") != "room_unloaded":
                break
        if frame.get("type") == "error":
            if conn.room is room:
                conn.room = None
            return _translate(frame, ref)
        conn.room = room
        return {**frame, "ref": ref}


def _translate(reply: dict[str, Any], ref: str | None) -> dict[str, Any]:
    """A table reply as a protocol frame: ``ok`` becomes ``ack``; errors keep their code."""
    if reply.get("type") == "ok":
        frame = {
            "type": "ack",
            "command": reply.get("command"),
            "action_id": reply.get("action_id"),
            "version": reply.get("version"),
            "ref": ref,
        }
        if reply.get("repeated"):
            frame["duplicate"] = True
        if "hint" in reply:  # what the command answers (docs/protocol.md, `hint`)
            frame["hint"] = reply["hint"]
        return frame
    frame = {k: v for k, v in reply.items() if k != "repeated"}
    frame["ref"] = ref
    if reply.get("repeated"):
        frame["duplicate"] = True
    return frame


def _ref_of(raw: str) -> str | None:
    with contextlib.suppress(Exception):
        data = orjson.loads(raw)  # (not jsonio's: a frame refused as nested too deep has one)
        if isinstance(data, dict) and isinstance(data.get("ref"), str) and len(data["ref"]) <= 64:
            return str(data["ref"])
    return None


async def websocket_endpoint(websocket: WebSocket) -> None:
    state: ServerState = websocket.app.state.hokm
    if not origin_allowed(websocket.headers, state.settings.allowed_origins):
        if time.monotonic() - state.origin_logged >= 60:  # (any site can: once a minute)
            state.origin_logged = time.monotonic()
            log.warning(  # (uvicorn's own line does not say why)
                "websocket refused: origin %r is not this host (%r) nor allowed",
                websocket.headers.get("origin", "")[:200],
                websocket.headers.get("host", "")[:200],
            )
        await websocket.close(code=1008)  # before accept: the upgrade is refused (HTTP 403)
        return
    await websocket.accept()
    address = client_address(websocket) or "?"
    if address not in LOOPBACK and state.sockets.get(address, 0) >= (
        state.settings.sockets_per_address
    ):
        en, fa = MESSAGES["too_many_sockets"]
        with contextlib.suppress(Exception):
            await websocket.send_text(
                _dumps({"type": "bye", "code": 4008, "reason": {"en": en, "fa": fa}})
            )
            await websocket.close(code=4008, reason="too_many_sockets")
        return
    state.sockets[address] = state.sockets.get(address, 0) + 1
    session = _Session(websocket, state)
    try:
        identity = await session.hello()
        if identity is not None:
            await session.run(identity)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("websocket session failed")
        if websocket.application_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(code=1011)
    finally:
        left = state.sockets.get(address, 1) - 1
        if left > 0:
            state.sockets[address] = left
        else:
            state.sockets.pop(address, None)
