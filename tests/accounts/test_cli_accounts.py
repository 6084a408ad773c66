"""``hokm accounts``: the operator finds accounts, resets a forgotten password, deletes one."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hokm.accounts.security import Passwords
from hokm.accounts.store import AccountStore
from hokm.cli import main
from hokm.storage import SqlStorage

CHEAP = Passwords(time_cost=1, memory_cost=1024)


async def _with_store(db: Path, work: object) -> object:
    storage = SqlStorage(str(db))
    await storage.start()
    try:
        store = AccountStore(storage)
        await store.start()
        return await work(store)  # type: ignore[operator]
    finally:
        await storage.close()


def _run(db: Path, work: object) -> object:
    return asyncio.run(_with_store(db, work))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "hokm.db"

    async def make(store: AccountStore) -> None:
        for username, name in [("sara_k", "سارا"), ("ali_100", "Ali"), ("maryam", "مریم")]:
            pid = await store.create_account(
                username=username, password_hash=CHEAP.hash_sync("old password"), name=name
            )
            await store.create_session(f"token-{username}", pid, expires_at=2**62)

    _run(path, make)
    return path


def test_list_finds_accounts_by_username_or_name(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["accounts", "--db", str(db), "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["maryam", "ali_100", "sara_k"]  # newest first
    assert main(["accounts", "--db", str(db), "list", "--json", "سار"]) == 0
    (found,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (found["username"], found["name"], found["points"]) == ("sara_k", "سارا", 0)
    assert main(["accounts", "--db", str(db), "list", "_1"]) == 0  # "_" is itself, no wildcard
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["ali_100"]
    assert main(["accounts", "--db", str(db), "list", "zz%"]) == 0
    assert capsys.readouterr().out.strip() == "no accounts matching 'zz%'"


def test_db_may_follow_the_action(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``hokm accounts reset-password sara_k --db FILE``, as an operator writes it after
    ``hokm prune --yes --db FILE``: it was refused (unrecognized arguments: --db)."""
    assert main(["accounts", "list", "sara", "--db", str(db)]) == 0
    assert capsys.readouterr().out.split()[0] == "sara_k"
    assert main(["accounts", "reset-password", "sara_k", "--db", str(db)]) == 0
    assert "new password of 'sara_k'" in capsys.readouterr().out
    assert main(["accounts", "delete", "maryam", "--db", str(db), "--yes"]) == 0
    assert main(["accounts", "--db", str(db), "list", "maryam"]) == 0  # before it, as ever
    assert capsys.readouterr().out.splitlines()[-1] == "no accounts matching 'maryam'"


def test_a_reset_password_is_printed_once_and_ends_every_session(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["accounts", "--db", str(db), "reset-password", "Sara_K"]) == 0
    out = capsys.readouterr().out
    password = out.splitlines()[0].rsplit(": ", 1)[1]
    assert len(password) >= 16

    async def check(store: AccountStore) -> None:
        account = await store.account_by_username("sara_k")
        assert account is not None
        assert CHEAP.verify_sync(account.password_hash, password)
        assert not CHEAP.verify_sync(account.password_hash, "old password")
        assert await store.session_player("token-sara_k", now=0) is None
        assert await store.session_player("token-maryam", now=0) is not None  # others kept

    _run(db, check)


def test_delete_says_what_would_go_then_does_it_with_yes(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["accounts", "--db", str(db), "delete", "maryam"]) == 1
    assert "add --yes" in capsys.readouterr().out
    assert main(["accounts", "--db", str(db), "delete", "maryam", "--yes"]) == 0

    async def gone(store: AccountStore) -> None:
        assert await store.account_by_username("maryam") is None
        assert await store.session_player("token-maryam", now=0) is None

    _run(db, gone)


def test_bad_input_is_one_line_and_changes_nothing(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["accounts", "--db", str(db), "reset-password", "nobody"]) == 1
    assert capsys.readouterr().err.strip() == "hokm accounts: no account named 'nobody'"
    missing = tmp_path / "typo" / "hokm.db"
    assert main(["accounts", "--db", str(missing), "list"]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not missing.parent.exists()  # not made anew
    with pytest.raises(SystemExit) as exit_info:
        main(["accounts", "--db", str(db), "list", "--limit", "0"])
    assert exit_info.value.code == 2
