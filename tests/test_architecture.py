"""The layout tells the architecture: imports point one way (docs/architecture.md)."""

import ast
import gc
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "hokm"

# package -> the hokm packages it may import
ALLOWED: dict[str, set[str]] = {
    "engine": {"engine"},
    "bots": {"engine", "bots"},
    "table": {"engine", "bots", "table"},
    "storage": {"engine", "storage"},
    "accounts": {"engine", "storage", "accounts"},
    "client": {"client"},  # a standalone client: scripts and external bots need nothing else
}
# top-level modules -> the hokm packages they may import
ALLOWED_MODULES: dict[str, set[str]] = {
    "arena": {"engine", "bots"},
    "analysis": {"engine", "bots"},
}
FORBIDDEN_IN_ENGINE = {"asyncio", "socket", "time", "random", "os", "pathlib", "sqlite3", "io"}


def _imports(path: Path) -> set[str]:
    # Parsed with the collector off: CPython 3.11.7's ast.parse raised "AST constructor
    # recursion depth mismatch" in two full runs, most likely when a collection during the
    # parse ran finalizers of objects earlier tests left (Python code inside the conversion).
    text = path.read_text(encoding="utf-8")
    gc.disable()
    try:
        tree = ast.parse(text)
    finally:
        gc.enable()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_packages_import_only_downstream_layers() -> None:
    """engine ← bots ← table; storage ← accounts; the client stands alone; no server imports."""
    for package, allowed in ALLOWED.items():
        for path in (SRC / package).rglob("*.py"):
            for name in _imports(path):
                parts = name.split(".")
                if parts[0] == "hokm" and len(parts) > 1:
                    assert parts[1] in allowed, f"{path.relative_to(SRC)} imports {name}"


def test_the_arena_and_the_analysis_sit_on_the_engine_and_the_bots() -> None:
    for module, allowed in ALLOWED_MODULES.items():
        path = SRC / f"{module}.py"
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "hokm" and len(parts) > 1:
                assert parts[1] in allowed, f"{path.name} imports {name}"


def test_engine_does_no_io() -> None:
    """The engine imports no clock, sockets, files, asyncio or global random."""
    for path in (SRC / "engine").rglob("*.py"):
        for name in _imports(path):
            assert name.split(".")[0] not in FORBIDDEN_IN_ENGINE, f"{path.name} imports {name}"
