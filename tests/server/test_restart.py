"""A restart — kill -9 or a clean stop — loses no acknowledged action; clients resume."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hokm.client import ClientError, HokmClient
from tests.server.helpers import ServerProcess, table_with_bots

SLOW = {"target_points": 1, "turn_seconds": 120, "trump_seconds": 120}
STABLE = ("hand", "trump", "trick", "tricks", "tricks_won", "score", "hakem", "to_move", "legal")


def _same_game(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a[key] == b[key] for key in STABLE)


async def _my_turn_after_acting(client: HokmClient, moves: int) -> None:
    for _ in range(moves):
        await client.wait_for(lambda c: bool(c.legal))
        await client.act({k: v for k, v in client.legal[0].items() if k != "seat"})
    await client.wait_for(lambda c: bool(c.legal))


async def _rejoin(
    url: str, token: str | None, code: str, last: int
) -> tuple[HokmClient, dict[str, Any]]:
    client = HokmClient(url, token=token)
    await client.connect()
    frame = await client.join(code, last_version=last)
    return client, frame


async def test_kill_and_clean_restart_mid_hand(tmp_path: Path) -> None:
    """Tables, the hand, chat and timers come back after kill -9 and after a clean stop."""
    server = ServerProcess(tmp_path / "hokm.db", "--bot-delay", "0", "--hand-pause", "0")
    try:
        url = await server.start()
        owner, code = await table_with_bots(url, rules=SLOW)
        await owner.chat(text="before the restart")
        await owner.command("start")
        await _my_turn_after_acting(owner, 3)  # trump (if hakem) and cards, all acknowledged
        before = dict(owner.view or {})
        acked = owner.version

        server.kill()  # kill -9: no shutdown code runs
        url = await server.start()
        owner2, frame = await _rejoin(url, owner.token, code, acked)
        assert frame["type"] in ("events", "snapshot") and frame["version"] >= acked
        assert _same_game(frame["game"], before)
        reload = HokmClient(url, token=owner.token)  # a page reload: no last version
        await reload.connect()
        frame = await reload.join(code)
        assert frame["type"] == "snapshot" and _same_game(frame["game"], before)
        assert [m["text"] for m in frame["chat"]] == ["before the restart"]
        assert frame["table"]["status"] == "playing"
        assert frame["turn"]["seat"] == 0 and frame["turn"]["deadline"] > frame["server_time"]
        await reload.close()

        await _my_turn_after_acting(owner2, 2)
        before = dict(owner2.view or {})
        acked = owner2.version
        server.stop()  # a clean stop stores snapshots
        url = await server.start()
        owner3, frame = await _rejoin(url, owner.token, code, acked)
        assert _same_game(frame["game"], before)

        await owner3.play_until(
            lambda c: any(e["event"]["kind"] == "game_result" for e in c.events), timeout=60
        )
        games = (await owner3.rest("GET", f"/api/rooms/{code}/games"))["games"]
        assert len(games) == 1 and not games[0]["cancelled"]
        record = await owner3.rest("GET", games[0]["record"])
        first_hand = record["hands"][0]
        assert len(first_hand["plays"]) >= 7 * 4 - 3
        for client in (owner, owner2, owner3):
            await client.close()
    finally:
        server.stop()


async def test_moves_after_a_restart_survive_a_second_crash(tmp_path: Path) -> None:
    """A restart loads the table as nobody connected; the moves made after it must be
    replayed from that state at the next restart. (They were replayed onto the snapshot
    stored before the first restart, here at the game's end with the owner connected, whose
    connection counts made the versions part: after a second kill -9 the new game went back
    to its start and the moves the player had seen were lost.)"""
    server = ServerProcess(tmp_path / "hokm.db", "--bot-delay", "0", "--hand-pause", "0")
    try:
        url = await server.start()
        owner, code = await table_with_bots(url, rules=SLOW)
        await owner.command("start")
        await owner.play_until(
            lambda c: any(e["event"]["kind"] == "game_result" for e in c.events), timeout=60
        )
        await asyncio.sleep(1)  # the game's end is stored, with a snapshot: owner connected
        server.kill()  # nothing is logged after that snapshot
        url = await server.start()
        owner2, frame = await _rejoin(url, owner.token, code, owner.version)
        await owner2.command("continue_game")
        await _my_turn_after_acting(owner2, 3)  # bots move between: their moves are logged
        before, acked = dict(owner2.view or {}), owner2.version
        assert before["tricks"], "a trick was played after the restart"
        server.kill()
        url = await server.start()
        owner3, frame = await _rejoin(url, owner.token, code, acked)
        assert frame["version"] >= acked
        assert _same_game(frame["game"], before)
        # and once more: moves after a restart that replayed a log
        await _my_turn_after_acting(owner3, 2)
        before, acked = dict(owner3.view or {}), owner3.version
        server.kill()
        url = await server.start()
        owner4, frame = await _rejoin(url, owner.token, code, acked)
        assert frame["version"] >= acked and _same_game(frame["game"], before)
        for client in (owner, owner2, owner3, owner4):
            await client.close()
    finally:
        server.stop()


@pytest.mark.parametrize("crash_at", ["save_game", "record_game"])
async def test_a_game_ended_just_before_a_crash_is_stored_and_counted(
    tmp_path: Path, crash_at: str
) -> None:
    """The server dies as under kill -9 right after the input that ended a game was logged,
    before the game was stored (or before its points were recorded). After the restart the
    game is stored, with its record, and counted in the player's profile, exactly once."""
    server = ServerProcess(tmp_path / "hokm.db", "--bot-delay", "0", "--hand-pause", "0")
    server.crash_at = crash_at
    try:
        url = await server.start()
        owner, code = await table_with_bots(url, rules=SLOW, level="medium")
        await owner.command("start")
        with contextlib.suppress(ClientError):  # until the server dies as the game ends
            await owner.play_until(lambda c: c.closed is not None and c.closed.done(), timeout=90)
        assert server.proc is not None and server.proc.wait(10) == 9
        token, player = owner.token, (owner.player or {})["id"]
        await owner.close()

        server.crash_at = None
        for _ in range(2):  # the restart that recovers, then one more: still counted once
            url = await server.start()
            client = HokmClient(url, token=token)
            await client.connect()
            games = (await client.rest("GET", f"/api/rooms/{code}/games"))["games"]
            assert len(games) == 1 and not games[0]["cancelled"]
            record = await client.rest("GET", games[0]["record"])
            assert record["result"]["status"] == "completed"
            profile = await client.rest("GET", f"/api/players/{player}")
            assert profile["games_played"] == 1
            assert profile["points"] == (1 if record["result"]["winner_team"] == 0 else 0)
            assert [g["game_id"] for g in profile["recent_games"]] == [games[0]["game_id"]]
            # dated when the game ended, not when the restart stored or counted it
            assert profile["recent_games"][0]["finished_at"] == games[0]["finished_at"]
            frame = await client.join(code)
            assert frame["table"]["status"] == "between_games"
            await client.close()
            server.stop()
    finally:
        server.stop()


def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def _workers(server: ServerProcess, ready: Callable[[int], bool] = bool) -> set[int]:
    """The server's (at least two) bot worker processes, once each is ``ready``."""
    assert server.proc is not None
    workers: set[int] = set()
    for _ in range(100):  # the pool starts its workers at start-up
        workers = _children(server.proc.pid)
        if len(workers) >= 2 and all(ready(pid) for pid in workers):
            break
        await asyncio.sleep(0.1)
    assert len(workers) >= 2, workers
    return workers


async def _all_gone(workers: set[int]) -> None:
    for _ in range(100):
        if not any(_alive(pid) for pid in workers):
            break
        await asyncio.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]


async def test_bot_workers_do_not_outlive_a_killed_server(tmp_path: Path) -> None:
    """kill -9 of the server process alone (not its group): its bot workers exit too."""
    server = ServerProcess(tmp_path / "hokm.db", "--bot-workers", "2")
    try:
        await server.start()
        assert server.proc is not None
        workers = await _workers(server)
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)
        await _all_gone(workers)
    finally:
        server.stop()


async def _killed_and_back(
    server: ServerProcess, token: str | None, code: str
) -> tuple[HokmClient, dict[str, Any]]:
    """kill -9 the server, start it again, and open the room afresh (a page reload)."""
    server.kill()
    url = await server.start()
    client = HokmClient(url, token=token)
    await client.connect()
    return client, await client.join(code)


async def test_the_first_hint_of_a_game_survives_crashes(tmp_path: Path) -> None:
    """The first hint is logged as that fact (the player earns no points for the game) and
    replayed without asking the bot again; later hints are not logged and change nothing."""
    server = ServerProcess(tmp_path / "hokm.db", "--bot-delay", "0", "--hand-pause", "0")
    try:
        url = await server.start()
        owner, code = await table_with_bots(url, rules=SLOW)
        await owner.command("start")
        await owner.wait_for(lambda c: bool(c.legal))
        assert (await owner.command("hint"))["hint"] in owner.legal
        hinted = owner.version
        again, frame = await _killed_and_back(server, owner.token, code)
        assert frame["table"]["hinted"] == [(owner.player or {})["id"]]
        assert frame["version"] >= hinted
        await again.wait_for(lambda c: bool(c.legal))
        before = again.version
        await again.command("hint")  # a later hint: no change
        assert again.version == before
        third, frame = await _killed_and_back(server, owner.token, code)
        assert frame["table"]["hinted"] == [(owner.player or {})["id"]]
        for client in (owner, again, third):
            await client.close()
    finally:
        server.stop()


async def test_every_log_line_starts_with_its_utc_time(tmp_path: Path) -> None:
    """An operator reading the log after a crash needs to know when each line was written:
    the server's own lines, uvicorn's and the access lines all start with an ISO 8601 UTC
    time to the millisecond (they used to have none)."""
    import re

    import httpx

    server = ServerProcess(tmp_path / "hokm.db")
    try:
        url = await server.start()
        async with httpx.AsyncClient() as http:
            assert (await http.get(f"{url}/api/health")).status_code == 200
    finally:
        server.stop()
    lines = server.log.read_text().splitlines()
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: "
    assert lines and all(re.match(stamp, line) for line in lines), lines
    assert any("hokm.server.app: storage: SQLite file" in line for line in lines)
    assert any("uvicorn.access: 127.0.0.1:" in line and "/api/health" in line for line in lines)


async def test_the_python_client_comes_back_by_itself_after_a_kill_and_a_clean_stop(
    tmp_path: Path,
) -> None:
    """``HokmClient(reconnect=True)``: a bot or script built on the client keeps playing
    through a ``kill -9`` and a clean stop of the server (restarted on the same port): it
    connects again, rejoins where it left off and its game goes on to the end."""
    server = ServerProcess(tmp_path / "hokm.db", "--bot-delay", "0", "--hand-pause", "0")
    try:
        url = await server.start()
        port = int(url.rpartition(":")[2])
        owner, code = await table_with_bots(url, rules={**SLOW, "target_points": 2})
        player = HokmClient(url, token=owner.token, reconnect=True)
        await player.connect()
        await player.join(code)
        await owner.close()
        await player.command("start")
        await _my_turn_after_acting(player, 2)
        for stop in (server.kill, server.stop):
            before = player.reconnects
            stop()
            await server.start(port)
            await player.wait_for(lambda c, n=before: c.reconnects == n + 1, timeout=30)  # type: ignore[misc]
            assert player.room == code and player.seat == 0
            await _my_turn_after_acting(player, 2)  # acknowledged by the new process
        await player.play_until(
            lambda c: any(_kind(e) == "game_ended" for e in c.events), timeout=120
        )
        assert player.reconnects == 2
        await player.close()
        await asyncio.sleep(0.5)
        assert player.reconnects == 2 and not player.reconnecting  # a close is not a drop
    finally:
        server.stop()


def _kind(frame: dict[str, Any]) -> str | None:
    event = frame.get("event")
    return event.get("kind") if isinstance(event, dict) else None


def _ignores_sigint(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    ignored = re.search(r"^SigIgn:\s*([0-9a-f]+)$", status, re.M)
    return ignored is not None and bool(int(ignored.group(1), 16) >> (signal.SIGINT - 1) & 1)


async def test_ctrl_c_stops_the_server_and_its_workers_without_a_traceback(
    tmp_path: Path,
) -> None:
    """Ctrl-C in the terminal of ``make run`` signals the whole process group, bot workers
    included: the server stops as after SIGTERM, and a worker prints no KeyboardInterrupt
    traceback (the server shuts its workers down itself)."""
    server = ServerProcess(tmp_path / "hokm.db", "--bot-workers", "2")
    try:
        await server.start()
        assert server.proc is not None
        workers = await _workers(server, _ignores_sigint)  # (set once the worker is up)
        os.killpg(server.proc.pid, signal.SIGINT)
        assert server.proc.wait(20) == 130  # as any command stopped by Ctrl-C
        await _all_gone(workers)
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log
    assert "Application shutdown complete" in log


@pytest.mark.parametrize("refusal", ["room_unloaded", "shutting_down", "server_error"])
async def test_an_action_refused_as_its_room_moves_is_sent_again_after_the_rejoin(
    refusal: str,
) -> None:
    """A rolling restart: the action in flight as the room's process stops is answered
    ``room_unloaded`` (or ``shutting_down``), then the socket is closed (1012). The client
    with ``reconnect=True`` joins again and sends the action again with its ``action_id``;
    ``act`` (and so the README's ``play_until``) used to raise the refusal instead. The same
    for ``server_error``, which a process relaying to a room whose owner was killed answers
    when its call times out (a script's ``play_until`` stopped there in a ``kill -9``)."""
    from websockets.asyncio.server import ServerConnection, serve

    actions: list[dict[str, Any]] = []
    sockets = 0

    # The relaying process answers server_error and keeps the socket open (it closes it only
    # once it sees the owner gone): the client joins again on it.
    closes = refusal != "server_error"
    joins = 0

    async def handler(ws: ServerConnection) -> None:
        nonlocal sockets, joins
        sockets += 1
        async for message in ws:
            frame = json.loads(message)
            ref, kind = frame.get("ref"), frame["type"]
            if kind == "hello":
                player = {"id": "g_1", "name": "Sara"}
                answer = {"type": "welcome", "ref": ref, "player": player, "token": "t"}
            elif kind == "join":
                joins += 1
                answer = {"type": "snapshot", "ref": ref, "room": "ROOM01", "version": 7}
            else:
                actions.append(frame)
                if len(actions) == 1:
                    error = {"type": "error", "ref": ref, "code": refusal, "message": "moved"}
                    await ws.send(json.dumps(error))
                    if closes:
                        await asyncio.sleep(0.05)
                        await ws.close(1012, "room_moved")
                        return
                    continue
                answer = {"type": "ack", "ref": ref, "action_id": frame["action_id"]}
            await ws.send(json.dumps(answer))

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = HokmClient(f"http://127.0.0.1:{port}", name="Sara", reconnect=True)
        await client.connect()
        await client.join("ROOM01")
        ack = await client.act({"type": "play", "card": "AS"})
        assert ack["type"] == "ack" and joins == 2
        assert (client.reconnects, sockets) == ((1, 2) if closes else (0, 1))
        assert [a["action_id"] for a in actions] == [ack["action_id"]] * 2
        await client.close()


async def test_a_request_that_cannot_be_sent_leaves_no_waiter_behind() -> None:
    """A request on a socket that the server has closed raises at once and is not kept
    waiting: a later close set an error on it that nobody read, and Python printed "Future
    exception was never retrieved" at the end of a script that came through a restart."""
    from websockets.asyncio.server import ServerConnection, serve

    async def handler(ws: ServerConnection) -> None:
        async for message in ws:
            ref = json.loads(message).get("ref")
            player = {"id": "g_1", "name": "Sara"}
            await ws.send(
                json.dumps({"type": "welcome", "ref": ref, "player": player, "token": "t"})
            )
            await ws.close(1000)
            return

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = HokmClient(f"http://127.0.0.1:{port}", name="Sara")
        await client.connect()
        assert client.closed is not None
        await client.closed
        with pytest.raises(ClientError):
            await client.ping()
        assert not client._waiters
        await client.close()


async def test_a_clean_stop_says_how_many_rooms_it_stored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The operator's log says what a stop kept for the next start (it said nothing between
    uvicorn's «Shutting down» and «Finished»)."""
    import logging

    from tests.server.helpers import running_server, settings

    caplog.set_level(logging.INFO, logger="hokm.server.rooms")
    async with running_server(settings(tmp_path / "h.db")) as url:
        owner, _ = await table_with_bots(url, rules=SLOW)
        await owner.command("start")
        idle, _ = await table_with_bots(url, name="Ali")
        await owner.close()
        await idle.close()
    said = [r.getMessage() for r in caplog.records]
    assert "stopping: stored 2 room(s) in memory, 1 with a game in progress" in said, said
