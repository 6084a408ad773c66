"""A real server on a free port, in this process (uvicorn on port 0) or as a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn

from hokm.client import HokmClient
from hokm.server import Settings, create_app
from hokm.table import TableConfig

PG_URL = os.environ.get("HOKM_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
FAST = TableConfig(bot_delay=0.0, hand_pause=0.0, restore_grace=0.2)


def settings(db: Path, **changes: Any) -> Settings:
    table = changes.pop("table", FAST)
    return dataclasses.replace(
        Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_workers=0, secret="test-secret"),
        table=table,
        **changes,
    )


@contextlib.asynccontextmanager
async def running_server(config: Settings, app: Any = None) -> AsyncIterator[str]:
    """Serve ``app`` (default ``create_app(config)``) on a free port; yields the base URL."""
    server = uvicorn.Server(
        uvicorn.Config(
            app if app is not None else create_app(config),
            host="127.0.0.1",
            port=0,
            log_level="warning",
            lifespan="on",
            ws_max_size=64 * 1024,
            ws_per_message_deflate=False,
        )
    )
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    task = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


class ServerProcess:
    """``hokm serve`` in a subprocess (for restart tests, including ``kill -9``)."""

    def __init__(self, db: Path, *extra: str, name: str = "server") -> None:
        self.db = db
        self.extra = extra
        self.name = name  # its logs: ``<name>-<run>.log`` beside the database
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.runs = 0
        self.log = db
        self.crash_at: str | None = None  # a point of ``crash_serve.py`` to die at

    async def start(self, port: int = 0) -> str:
        program = ["-m", "hokm"]
        env = {**os.environ, "HOKM_SECRET": "test-secret-of-the-tests", "PYTHONUNBUFFERED": "1"}
        if self.crash_at is not None:
            program = [str(Path(__file__).with_name("crash_serve.py"))]
            env["HOKM_TEST_CRASH_AT"] = self.crash_at
        args = [sys.executable, *program, "serve", "--port", str(port), "--db", str(self.db)]
        self.runs += 1
        self.log = self.db.with_name(f"{self.name}-{self.runs}.log")
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [*args, *self.extra],
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
                env=env,
                start_new_session=True,  # its own process group: kill() takes its workers too
            )
        for _ in range(600):
            match = re.search(r"running on http://127\.0\.0\.1:(\d+)", self.log.read_text())
            if match:
                self.url = f"http://127.0.0.1:{match.group(1)}"
                return self.url
            if self.proc.poll() is not None:
                break
            await asyncio.sleep(0.05)
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """``kill -9``: no shutdown code runs."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """A clean stop (SIGTERM → uvicorn shuts down, rooms store snapshots)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


async def table_with_bots(
    url: str,
    *,
    name: str = "Sara",
    rules: dict[str, Any] | None = None,
    bots: tuple[int, ...] = (1, 2, 3),
    level: str = "random",
) -> tuple[HokmClient, str]:
    """A connected owner seated at 0 in a new room with bots on ``bots``; not started."""
    owner = HokmClient(url, name=name)
    await owner.connect()
    code = await owner.create_room(rules=rules)
    await owner.join(code)
    await owner.command("sit", seat=0)
    for seat in bots:
        await owner.command("add_bot", seat=seat, level=level)
    return owner, code
