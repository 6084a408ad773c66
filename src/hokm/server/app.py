"""The ASGI application: REST, the WebSocket, OpenAPI and the static web client.

>>> app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
>>> sorted({r.path for r in app.routes} & {"/ws", "/openapi.json", "/api/rooms"})
['/api/rooms', '/openapi.json', '/ws']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import logging
import mimetypes
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from hokm.server import rest
from hokm.server.auth import AuthChain, GuestAuthenticator, TokenSigner
from hokm.server.cluster import Cluster, RedisAddressLimits
from hokm.server.headers import SecurityHeaders
from hokm.server.openapi import openapi_document
from hokm.server.origins import SameOriginWrites
from hokm.server.rooms import RoomManager
from hokm.server.state import ServerState, Settings
from hokm.server.ws import websocket_endpoint
from hokm.storage import SqlStorage

__all__ = ["create_app"]

log = logging.getLogger(__name__)
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# The web app manifest's own type (Python's table does not know the suffix).
mimetypes.add_type("application/manifest+json", ".webmanifest")

# Optional modules that add routes (and a ``setup(state)`` hook) without editing this file:
# the web client's simulator API and the accounts API.
PLUGINS = ("hokm.server.sim_api", "hokm.server.accounts_api")


_NOT_FOUND = {"code": "not_found", "message": "not found", "message_fa": "پیدا نشد"}


class _WebClient:
    """Static files of the web client at ``/``; a plain 404 until the directory exists.

    An address with no file gets the client's ``404.html`` (a page in both languages with
    the way home; it was a bare English «Not Found»), except under ``/api/``: an unknown
    endpoint answers as the API's errors do, in JSON."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.files: StaticFiles | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
            await JSONResponse(_NOT_FOUND, status_code=404)(scope, receive, send)
            return
        if self.files is None:
            if not (self.directory / "index.html").is_file():
                await JSONResponse(_NOT_FOUND, status_code=404)(scope, receive, send)
                return
            self.files = StaticFiles(directory=self.directory, html=True)

        async def revalidated(message: Message) -> None:
            # Asked again at every load (a 304 when unchanged): with no Cache-Control a browser
            # may keep a file it thinks fresh for a tenth of its age, and after an upgrade run
            # old modules beside new ones, or an old client against the new protocol.
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).setdefault("cache-control", "no-cache")
            await send(message)

        await self.files(scope, receive, revalidated)


def _plugins() -> list[Any]:
    modules = []
    for name in PLUGINS:
        try:
            modules.append(importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return modules


async def openapi(request: Request) -> Response:
    """This API in OpenAPI 3."""
    document = openapi_document()
    for plugin in _plugins():  # plugins may describe their routes (``openapi_paths``)
        document["paths"].update(getattr(plugin, "openapi_paths", {}))
    return JSONResponse(document)


async def watch_serving(storage: SqlStorage, every: float) -> None:
    """Keep this server's hold on its database (:meth:`SqlStorage.keep_serving`: taken again
    after a PostgreSQL restart). If another server took the database meanwhile, this one stops
    at once, as a crash would (:func:`lost_serving`): every input it took is stored, while two
    servers on one database write over each other's logs, and a clean stop would store this
    one's rooms over the other's."""
    while True:
        await asyncio.sleep(every)
        if await storage.keep_serving() is False:
            log.critical(
                "another hokm serve took this database (%s) while this one's hold on it was "
                "lost: this server stops now, as a crash would; restart it once only one "
                "server is meant to serve the database",
                storage.describe(),
            )
            lost_serving()


def lost_serving() -> None:
    """Stop the process at once, without a clean stop (:func:`watch_serving`)."""
    logging.shutdown()
    os._exit(3)


def create_app(settings: Settings | None = None) -> Starlette:
    """The server app; storage opens and rooms start in the lifespan."""
    settings = settings or Settings()
    plugins = _plugins()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        storage = SqlStorage(settings.database_url, prefix=settings.table_prefix)
        await storage.start()
        try:  # (one server alone on a database, or every process of one cluster)
            await storage.hold_serving(shared=bool(settings.redis_url))
        except BaseException:
            await storage.close()
            raise
        log.info("storage: %s", storage.describe())
        if settings.allowed_origins:
            log.info(
                "WebSocket origins allowed besides this host: %s",
                ", ".join(settings.allowed_origins),
            )
            if "*" in settings.allowed_origins:
                log.warning("any site may open a WebSocket here (allowed origin '*')")
        secret = settings.secret or await storage.setting("secret", secrets.token_hex(32))
        guests = GuestAuthenticator(TokenSigner(secret.encode()), storage)
        rooms = RoomManager(storage, settings)
        if settings.redis_url:
            cluster = Cluster(
                settings.redis_url, prefix=settings.redis_prefix, heartbeat_ms=settings.heartbeat_ms
            )
            try:
                await cluster.start(rooms)
            except Exception:
                await storage.close()
                raise
        await rooms.start()
        state = ServerState(settings, storage, AuthChain(guests), guests, rooms)
        if rooms.cluster is not None:
            state.share_limits(functools.partial(RedisAddressLimits, rooms.cluster))
        app.state.hokm = state
        for plugin in plugins:
            setup = getattr(plugin, "setup", None)
            if setup is not None:
                await setup(state)
        await rooms.recover()  # after the plugins: their listeners hear of recovered games
        watch = asyncio.get_running_loop().create_task(
            watch_serving(storage, settings.serving_check_seconds)
        )
        try:
            yield
        finally:
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
            await rooms.shutdown()
            await storage.close()

    routes: list[BaseRoute] = [
        *rest.routes(),
        Route("/openapi.json", openapi, methods=["GET"]),
        WebSocketRoute("/ws", websocket_endpoint),
    ]
    for plugin in plugins:
        extra = getattr(plugin, "routes", [])
        routes.extend(extra() if callable(extra) else extra)
    web_dir = Path(settings.web_dir) if settings.web_dir else WEB_DIR
    # The client's files compressed for browsers that take gzip: its scripts, styles and page
    # are about 340 kB as written and 100 kB gzipped, the first load on a slow phone network.
    # (Only the files: the API's answers stay as they are.)
    client = GZipMiddleware(_WebClient(web_dir), minimum_size=1024, compresslevel=6)
    routes.append(Mount("/", app=client))
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(SecurityHeaders, web_dir=web_dir),
            Middleware(SameOriginWrites, allowed=settings.allowed_origins),
        ],
    )
