"""``hokm prune`` on a running server's database: the old inputs go, nothing a restart
needs does."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from hokm.cli import main
from hokm.client import HokmClient
from tests.server.helpers import ServerProcess, table_with_bots
from tests.server.test_restart import SLOW, _my_turn_after_acting, _rejoin, _same_game


def _inputs(db: Path, code: str) -> list[int]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT version FROM hokm_table_events WHERE code = ? ORDER BY version", (code,)
        )
        return [int(v) for (v,) in rows]


def _prune(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    later = time.time() + 3 * 86_400  # (the inputs of today are three days old)
    monkeypatch.setattr("hokm.cli.prune.time.time", lambda: later)
    return main(["prune", *args])


async def test_a_room_pruned_while_the_server_runs_comes_back_whole_after_a_kill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "hokm.db"
    server = ServerProcess(db, "--bot-delay", "0", "--hand-pause", "0")
    clients: list[HokmClient] = []
    try:
        url = await server.start()
        owner, code = await table_with_bots(url, rules=SLOW)
        clients.append(owner)
        await owner.command("start")
        await owner.play_until(
            lambda c: any(e["event"]["kind"] == "game_result" for e in c.events), timeout=60
        )
        await asyncio.sleep(1)  # the game's end is stored, with a snapshot
        await owner.command("continue_game")
        await _my_turn_after_acting(owner, 2)
        before, acked = dict(owner.view or {}), owner.version
        logged = _inputs(db, code)

        # a dry run says what would go and deletes nothing (exit 1: not done)
        assert await asyncio.to_thread(_prune, monkeypatch, "--db", str(db)) == 0
        assert capsys.readouterr().out.startswith("nothing to prune")  # (30 days by default)
        assert await asyncio.to_thread(_prune, monkeypatch, "--db", str(db), "--days", "2") == 1
        said = capsys.readouterr().out
        assert said.startswith("would delete ") and "add --yes" in said, said
        assert _inputs(db, code) == logged
        assert (
            await asyncio.to_thread(_prune, monkeypatch, "--db", str(db), "--days", "2", "--json")
            == 1
        )
        (counted,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]

        args = ("--db", str(db), "--days", "2", "--yes", "--json")
        assert await asyncio.to_thread(_prune, monkeypatch, *args) == 0
        (done,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert done["deleted"] == counted["would_delete"] > 0 and done["rooms"] == 1
        kept = _inputs(db, code)
        assert len(kept) == len(logged) - done["deleted"] and kept[-1] == logged[-1]

        await _my_turn_after_acting(owner, 1)  # the server goes on writing its log
        before, acked = dict(owner.view or {}), owner.version
        server.kill()
        url = await server.start()
        again, frame = await _rejoin(url, owner.token, code, acked)
        clients.append(again)
        assert frame["version"] >= acked and _same_game(frame["game"], before)
        await _my_turn_after_acting(again, 1)  # and the game goes on
        games: dict[str, Any] = await asyncio.to_thread(
            lambda: json.load(urllib.request.urlopen(f"{url}/api/rooms/{code}/games"))
        )
        (game,) = games["games"]  # the finished game's record is kept
        record = await asyncio.to_thread(
            lambda: json.load(urllib.request.urlopen(url + game["record"]))
        )
        assert record["hands"]
    finally:
        for client in clients:
            await client.close()
        server.stop()


def test_prune_refuses_what_it_cannot_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["prune", "--db", str(tmp_path / "missing.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists()  # (not made anew)
    with pytest.raises(SystemExit) as exit_:
        main(["prune", "--db", str(tmp_path / "x.db"), "--days", "0"])
    assert exit_.value.code == 2
    assert "--days is from 1 to 36500" in capsys.readouterr().err
    assert main(["prune", "--db", str(tmp_path / "x.db"), "--vacuum"]) == 2
    assert "--vacuum goes with --yes" in capsys.readouterr().err
    pg = "postgresql://postgres@127.0.0.1:5432/test"
    assert main(["prune", "--db", pg, "--yes", "--vacuum"]) == 2
    assert "--vacuum is for a SQLite file" in capsys.readouterr().err


def test_prune_vacuums_a_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to prune in a fresh database; --vacuum still gives the free pages back."""
    db = tmp_path / "hokm.db"
    with sqlite3.connect(db) as conn:  # a file with a megabyte of free pages
        conn.execute("CREATE TABLE junk (x BLOB)")
        conn.execute("INSERT INTO junk VALUES (zeroblob(1000000))")
        conn.commit()
        conn.execute("DELETE FROM junk")
    assert _prune(monkeypatch, "--db", str(db)) == 0
    assert capsys.readouterr().out.startswith("nothing to prune")
    big = db.stat().st_size
    assert _prune(monkeypatch, "--db", str(db), "--yes", "--vacuum") == 0
    said = capsys.readouterr()
    assert "nothing to prune" in said.out and "stop it first" in said.err
    assert db.stat().st_size < big - 500_000
    # the figures are of the database file, not of a -wal emptied on the way
    assert f"the database file went from {big / 1e6:.1f} MB to " in said.out
    assert _prune(monkeypatch, "--db", str(db), "--yes", "--vacuum", "--json") == 0
    (data,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert data["file_bytes_before"] == data["file_bytes_after"] == db.stat().st_size
