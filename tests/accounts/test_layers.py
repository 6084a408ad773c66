"""The accounts package sits beside storage: it never imports the server, tables or bots."""

import ast
from pathlib import Path

ACCOUNTS = Path(__file__).resolve().parents[2] / "src" / "hokm" / "accounts"
ALLOWED = {"accounts", "storage"}


def test_accounts_import_only_accounts_and_storage() -> None:
    for path in ACCOUNTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                parts = name.split(".")
                if parts[0] == "hokm" and len(parts) > 1:
                    assert parts[1] in ALLOWED, f"{path.name} imports {name}"


def test_pure_accounts_modules_do_no_io() -> None:
    """Rating, matchmaking and points take time as an argument and touch no database."""
    for name in ("rating", "matchmaking", "points"):
        source = (ACCOUNTS / f"{name}.py").read_text(encoding="utf-8")
        for forbidden in ("import time", "import asyncio", "sqlalchemy", "datetime.now"):
            assert forbidden not in source, f"{name}.py uses {forbidden}"
