"""The table is a state machine without I/O: no clock, sockets, files, asyncio or global random."""

from __future__ import annotations

import ast
from pathlib import Path

import hokm.table

TABLE = Path(hokm.table.__file__).resolve().parent
FORBIDDEN = {"asyncio", "socket", "time", "datetime", "os", "pathlib", "sqlite3", "io", "threading"}


def test_the_table_imports_no_io_and_calls_no_global_random() -> None:
    for path in TABLE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            else:
                names = []
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
            # ``random`` is allowed only as the type of an injected generator.
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr in ("Random", "SystemRandom"), f"{path.name}: random.{node.attr}"
