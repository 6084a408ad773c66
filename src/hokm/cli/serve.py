"""``hokm serve``: run the server (one process, SQLite by default).

Options: ``--host`` (127.0.0.1), ``--port`` (8000), ``--db`` (a SQLite path or a database URL;
default ``HOKM_DATABASE_URL`` or ``var/hokm.db``), ``--bot-workers`` (processes for bots),
``--allow-origin`` (extra origins for the WebSocket and the API's writes), ``--bot-delay``
and ``--hand-pause`` (seconds),
``--redis`` (a Redis URL: one of several processes on one database, :mod:`hokm.server.cluster`).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import errno
import logging
import logging.config
import sys
import time
from collections.abc import Awaitable
from typing import Any, cast

from hokm.cli import clip, not_blank, whole_number
from hokm.table import TableConfig

__all__ = [
    "add_database_option",
    "check_database",
    "check_listen",
    "check_redis",
    "log_config",
    "missing_database_file",
    "origin",
    "register",
    "run",
    "sqlite_file",
]

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def seconds(what: str, *, least: float = 0.0, zero: str = "") -> Any:
    """An argparse ``type``: a number of seconds up to a day (a clear error naming ``what``).

    With ``least``, a value other than 0 is at least ``least`` and 0 means ``zero``: a full
    garbage collection every 1e-9 s would hold the event loop for good.
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {clip(text)!r}") from None
        if not 0 <= value <= 86_400 or 0 < value < least:
            allowed = f"0 ({zero}) or from {least:g}" if least else "from 0"
            raise argparse.ArgumentTypeError(
                f"{what} is {allowed} to 86400 seconds, not {clip(text)}"
            )
        return value

    return parse


class _UtcFormatter(logging.Formatter):
    """Times in UTC, ISO 8601 to the millisecond: one clock for every process and host."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}Z"


def log_config(level: str = "info") -> dict[str, Any]:
    """The logging set-up of ``hokm serve`` (for :func:`logging.config.dictConfig` and
    uvicorn): every line starts with its UTC time, then the level and the logger's name;
    the server's own lines and uvicorn's go to standard error, the access lines (one per
    HTTP request) to standard output. ``level`` (``--log-level``) applies to both.

    >>> log_config("warning")["loggers"]["hokm"]["level"]
    'WARNING'
    """
    name = "DEBUG" if level == "trace" else level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "line": {"()": _UtcFormatter, "fmt": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        },
        "handlers": {
            "default": {
                "formatter": "line",
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
            },
            "access": {
                "formatter": "line",
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
            },
        },
        "loggers": {
            "hokm": {"handlers": ["default"], "level": name, "propagate": False},
            "uvicorn": {"handlers": ["default"], "level": name, "propagate": False},
            "uvicorn.error": {"level": name},
            "uvicorn.access": {"handlers": ["access"], "level": name, "propagate": False},
        },
        "root": {"handlers": ["default"], "level": "WARNING"},
    }


def origin(text: str) -> str:
    """An argparse ``type``: a web origin, kept as browsers send it
    (:func:`hokm.server.origins.normalize_origin`), or ``*`` for any.

    >>> origin("HTTPS://Play.Example.com:8443/")
    'https://play.example.com:8443'
    """
    from hokm.server.origins import normalize_origin

    try:
        return normalize_origin(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the Hokm server (web client, REST, WebSocket)",
        description="Run the Hokm server: the Persian-first web client, the REST API "
        "(/openapi.json) and the WebSocket (/ws), on SQLite by default or PostgreSQL "
        "(--db postgresql://… or HOKM_DATABASE_URL).",
    )
    table = TableConfig()  # the defaults, for the help
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument(
        "--port",
        type=whole_number("a port", 0, 65535),
        default=8000,
        help="port (8000; 0 picks a free one)",
    )
    parser.add_argument(
        "--db",
        type=not_blank("--db is empty"),  # "$DB" unset: not the default, silently
        default=None,
        help="SQLite file or database URL (var/hokm.db)",
    )
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="Redis URL: run as one of several processes on one database "
        "(default HOKM_REDIS_URL; none: this process alone; key names start with "
        "HOKM_REDIS_PREFIX, default 'hokm:')",
    )
    parser.add_argument(
        "--bot-workers",
        type=whole_number("--bot-workers", 0, 64),
        default=1,
        help="bot processes (1; 0: a thread)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        type=origin,
        default=[],
        metavar="ORIGIN",
        help="another allowed origin (WebSocket and API writes), e.g. https://play.example.com "
        "(* for any; may be given again; added to HOKM_ALLOWED_ORIGINS)",
    )
    parser.add_argument(
        "--bot-delay",
        type=seconds("--bot-delay"),
        default=None,
        help=f"seconds before a bot moves ({table.bot_delay:g})",
    )
    parser.add_argument(
        "--hand-pause",
        type=seconds("--hand-pause"),
        default=None,
        help=f"seconds between hands ({table.hand_pause:g})",
    )
    parser.add_argument(
        "--ws-deflate", action="store_true", help="compress WebSocket frames (permessage-deflate)"
    )
    parser.add_argument(
        "--full-gc-seconds",
        type=seconds("--full-gc-seconds", least=10, zero="CPython's own heuristic"),
        default=300.0,
        help="seconds between full garbage collections, at least 10 "
        "(300; 0: CPython's own heuristic)",
    )
    parser.add_argument(
        "--prune-days",
        type=whole_number("--prune-days", 0, 36_500),
        default=0,
        help="once a day, delete the stored inputs older than this many days that no restart "
        "reads again, as hokm prune does (0, the default: never)",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=LOG_LEVELS,
        help="log level of the server and uvicorn: critical, error, warning, info (the default),"
        " debug, trace",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from hokm.server import Settings, create_app
    from hokm.storage import database_url

    problem = check_listen(args.host, args.port)
    if problem is not None:
        print(f"hokm serve: {problem}", file=sys.stderr)
        return 2
    url = database_url(args.db)
    try:  # HOKM_ALLOWED_ORIGINS (checked like --allow-origin) and the others are read here
        settings = Settings(database_url=url, bot_workers=args.bot_workers)
    except ValueError as error:  # (it names the variable)
        print(f"hokm serve: {error}", file=sys.stderr)
        return 2
    if args.redis is not None:
        settings = dataclasses.replace(settings, redis_url=args.redis or None)
    if settings.redis_url:  # before the database, which a check may create
        source = "--redis" if args.redis else "HOKM_REDIS_URL"
        problem = check_redis(settings.redis_url, source=source)
        if problem is not None:
            print(f"hokm serve: {problem}", file=sys.stderr)
            return 2
    problem = check_database(url, serving=True, shared=bool(settings.redis_url))
    if problem is not None:
        print(f"hokm serve: {problem}", file=sys.stderr)
        return 2
    settings = dataclasses.replace(
        settings, allowed_origins=(*settings.allowed_origins, *args.allow_origin)
    )
    table = settings.table
    if args.bot_delay is not None:
        table = dataclasses.replace(table, bot_delay=args.bot_delay)
    if args.hand_pause is not None:
        table = dataclasses.replace(table, hand_pause=args.hand_pause)
    settings = dataclasses.replace(
        settings,
        table=table,
        full_gc_seconds=args.full_gc_seconds or None,
        prune_days=args.prune_days or None,
    )
    logging.config.dictConfig(log_config(args.log_level))
    config = uvicorn.Config(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_config=log_config(args.log_level),
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        ws_ping_interval=20.0,
        ws_ping_timeout=40.0,
        ws_per_message_deflate=args.ws_deflate,  # off by default: it costs CPU per frame
        lifespan="on",
    )
    server = uvicorn.Server(config)
    _tune_gc()
    try:
        server.run()
    except KeyboardInterrupt:  # Ctrl-C, a server's usual stop: its log said "Shutting down"
        return 130
    return 0


def add_database_option(parser: argparse.ArgumentParser, *, default: Any = None) -> None:
    """``--db`` of an operator's tool that works on the server's database (``default``
    ``argparse.SUPPRESS`` on a subcommand keeps the value given before it)."""
    parser.add_argument(
        "--db",
        type=not_blank("--db is empty"),
        default=default,
        help="SQLite file or database URL, as for hokm serve (var/hokm.db)",
    )


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite ``url`` (None for another database, or a URL that is none:
    :func:`check_database` says what is wrong with it)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    return parsed.database if parsed.drivername.startswith("sqlite") else None


def missing_database_file(url: str) -> str | None:
    """Why an operator's tool (``hokm accounts``, ``hokm prune``) refuses ``url``: a SQLite
    file that is not there is a mistyped ``--db``, said, not made anew (as the server would
    make it) to find nothing in. None otherwise."""
    from pathlib import Path

    file = sqlite_file(url)
    if file and file != ":memory:" and not Path(file).is_file():
        return f"no database at {clip(file)} (check --db or HOKM_DATABASE_URL)"
    return None


def check_database(url: str, *, serving: bool = False, shared: bool = False) -> str | None:
    """Why the server could not use the database at ``url`` (one line), or None: checked
    before the server starts, so a wrong ``--db`` is one clear line, not a traceback from
    the server's start-up. With ``serving`` (``hokm serve``, not the operator's tools that
    work beside it) a database another server serves is refused too (``shared``: as a
    cluster's process; :meth:`~hokm.storage.SqlStorage.hold_serving`)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from hokm.storage import SqlStorage

    try:
        parsed = make_url(url)
    except ArgumentError:
        return f"not a database URL: {clip(url)!r} (a SQLite file path, or postgresql://…)"
    shown = parsed.render_as_string(hide_password=True)
    if not parsed.drivername.startswith(("sqlite", "postgresql")):
        return f"unsupported database {shown}: use a SQLite file path or postgresql://…"
    if parsed.drivername.startswith("sqlite") and parsed.database in (None, "", ":memory:"):
        return (
            "an in-memory SQLite database cannot hold the server's games (each connection "
            "would see its own, and all is lost at a stop): give a file path, e.g. var/hokm.db"
        )

    async def open_and_close() -> None:
        from hokm.accounts.store import AccountStore

        storage = SqlStorage(url)
        try:
            await storage.start()
            # the accounts' columns only: the server's own start makes and re-keys them
            async with storage.engine.connect() as conn:
                await storage.check_columns(conn, AccountStore(storage).t.metadata)
            if serving:
                await storage.hold_serving(shared=shared)  # (let go at once: asked, not kept)
        finally:
            await storage.close()

    try:
        asyncio.run(open_and_close())
    except Exception as exc:  # any driver's own error: say it in one line
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if shown not in reason and not reason.startswith(
            ("the database", "cannot open", "another hokm serve", "a hokm serve")
        ):
            reason = f"cannot open the database {shown}: {reason}"
        return reason
    return None


def check_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (one line), or None: checked before
    anything else, so a busy port or a mistyped host is one line, not uvicorn's six."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        hint = ""
        if host.startswith("[") and host.endswith("]"):
            hint = f"; write an IPv6 address without brackets: --host {host[1:-1]}"
        elif host.count(":") == 1 and host.rpartition(":")[2].isdigit():
            name, _, number = host.rpartition(":")
            hint = f"; give the port on its own: --host {name} --port {number}"
        return f"cannot listen on {clip(host)!r}: not an address of this machine ({exc}){hint}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"port {port} on {host} is in use: stop what uses it, or choose another"
                    " port (--port N; with make: make run PORT=N)"
                )
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def check_redis(url: str, *, source: str = "--redis") -> str | None:
    """Why the server could not use Redis at ``url`` (one line, naming ``source``, the
    option or variable it came from), or None."""
    import redis.asyncio as aioredis

    from hokm.server.cluster import Cluster

    shown = f"{Cluster(url).describe()} ({source})"

    async def ping() -> None:
        client = aioredis.Redis.from_url(url, socket_connect_timeout=5)
        try:
            await cast("Awaitable[bool]", client.ping())  # (typed for both clients)
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"cannot use Redis at {shown}: {reason}"
    return None


def _tune_gc() -> None:
    """Move everything built at start-up (modules, the app) out of the collector's reach: a
    full collection walks every tracked object while every table waits, and these never
    become garbage. (A larger first threshold was tried: fewer collections, but each young
    collection then walked 20,000 objects and the middle one up to 200,000 — longer pauses.)"""
    import gc

    gc.collect()
    gc.freeze()
