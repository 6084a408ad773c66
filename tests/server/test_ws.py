"""The WebSocket protocol on a real server with real clients (hokm.client)."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hokm.accounts.store import AccountStore
from hokm.analysis import analyse
from hokm.client import HokmClient, ServerError
from hokm.engine.records import judge
from hokm.storage import SqlStorage
from tests.server.helpers import PG_URL, running_server, settings, table_with_bots


def _kinds(client: HokmClient) -> list[str]:
    return [e["event"]["kind"] for e in client.events]


def _game_over(client: HokmClient) -> bool:
    return "game_result" in _kinds(client)


async def test_hello_welcome_and_identity_kept_by_token(server: str) -> None:
    """hello gets a welcome with a token; the token brings back the same player."""
    async with HokmClient(server, name="Sara") as first:
        assert first.player is not None and first.player["name"] == "Sara"
        token = first.token
        pong = await first.ping()
        assert pong["type"] == "pong" and pong["server_time"] > 0
    async with HokmClient(server, token=token) as again:
        assert again.player == first.player


async def test_origin_is_checked_on_upgrade(server: str, caplog: pytest.LogCaptureFixture) -> None:
    """A browser page of another site may not open the socket (the log says which origin, for
    an operator whose proxy or allowed origins are wrong); the same host may."""
    foreign = HokmClient(server, origin="https://evil.example")
    with pytest.raises(Exception, match="403"):
        await foreign.connect()
    assert any("origin 'https://evil.example'" in r.getMessage() for r in caplog.records)
    host = server.removeprefix("http://")
    async with HokmClient(server, origin=f"http://{host}") as same:
        assert same.player is not None


async def test_no_hello_closes_the_socket(tmp_path: Path) -> None:
    """A client that never says hello is closed with 4001."""
    async with (
        running_server(settings(tmp_path / "h.db", hello_timeout=0.2)) as url,
        websockets.connect(url.replace("http", "ws") + "/ws") as ws,
    ):
        bye = json.loads(await ws.recv())
        assert bye["type"] == "bye" and bye["code"] == 4001
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4001


async def test_a_protocol_other_than_the_integer_1_is_refused(server: str) -> None:
    """``protocol`` is compared as the integer 1: true and 1.0 (equal to 1 in Python) were
    taken for it."""
    ws_url = server.replace("http", "ws") + "/ws"
    for protocol in (True, 1.0, "1", 2):
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": protocol}))
            bye = json.loads(await ws.recv())
            assert bye["type"] == "bye" and bye["code"] == 4002, (protocol, bye)
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 4002


async def test_a_player_reconnecting_in_a_loop_is_held_back(server: str) -> None:
    """Each join, and its socket's close, logs an input and tells the room: a loop of
    reconnects filled the room's log (600 rows in 3 s from loopback, which the address limits
    exempt). Past 30 joins at once a player waits: refused (``rate_limited``), nothing logged
    and nobody told; the room is joined again a little later."""
    async with HokmClient(server, name="Sara") as sara:
        code = await sara.create_room()
        await sara.join(code)
        token = sara.token
    ws_url = server.replace("http", "ws") + "/ws"
    answers = []
    while len(answers) < 60 and (not answers or answers[-1]["type"] == "snapshot"):
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "join", "code": code, "ref": "j"}))
            answers.append(json.loads(await ws.recv()))
    # (30 at once, with sara's own; one more every 2 s of the loop)
    assert 29 <= len(answers) - 1 <= 40, len(answers)
    refused = answers[-1]
    assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
    assert refused["message_fa"] and refused["ref"] == "j" and refused["command"] == "join"
    async with httpx.AsyncClient(base_url=server) as http:
        version = (await http.get(f"/api/rooms/{code}")).json()["version"]
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            await ws.recv()
            await ws.send(json.dumps({"type": "join", "code": code}))
            assert json.loads(await ws.recv())["code"] == "rate_limited"
        assert (await http.get(f"/api/rooms/{code}")).json()["version"] == version
    await asyncio.sleep(2.1)  # one more join every 2 s
    async with HokmClient(server, name="Sara", token=token) as again:
        assert (await again.join(code))["type"] == "snapshot"


async def test_a_token_that_identifies_nobody_is_refused(server: str) -> None:
    """A forged or damaged token in hello is refused with 4001 (it used to make a new guest
    quietly, who then had no seat); without a token a new guest is made."""
    async with HokmClient(server, name="Sara") as sara:
        assert sara.token is not None and sara.player is not None
        player_id, good = sara.player["id"], sara.token
    ws_url = server.replace("http", "ws") + "/ws"
    for bad in (good[:-4] + "AAAA", "g_nobody.xyz", "not-a-session", good[:-1] + "ü", "ü.ü"):
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": bad}))
            bye = json.loads(await ws.recv())
            assert bye["type"] == "bye" and bye["code"] == 4001, bye
            assert bye["reason"]["fa"]
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
    async with HokmClient(server, token=good) as again:  # the real token still works
        assert again.player is not None and again.player["id"] == player_id
    async with HokmClient(server, name="New") as fresh:
        assert fresh.player is not None and fresh.player["id"] != player_id


async def test_malformed_frames_get_errors_and_change_nothing(server: str) -> None:
    """Bad JSON, binary, oversized, unknown types and bad fields: an error each, same version."""
    owner, code = await table_with_bots(server)
    version = owner.version
    for raw in ("{nope", "[1, 2]", "null", json.dumps({"no": "type"})):
        await owner.send_raw(raw)
    await owner.send_raw(b"\x00\x01")
    await owner.send_raw(json.dumps({"type": "chat", "text": "x" * 9000}))
    replies = [
        await owner.request(frame, check=False)
        for frame in (
            {"type": "dance"},
            {"type": "sit", "seat": 7},
            {"type": "sit", "seat": 1, "extra": True},
            {"type": "action", "version": "x", "action_id": "a", "action": {"type": "play"}},
            {"type": "join", "code": "ZZZZZZ"},
            {"type": "join"},
            {"type": "join", "code": 12},
            {"type": "hello", "protocol": 1},
        )
    ]
    assert [r["code"] for r in replies] == [
        "bad_message",
        "bad_command",
        "bad_command",
        "bad_command",
        "room_not_found",
        "bad_message",
        "bad_message",
        "bad_message",
    ]
    assert all(r["message"] and r["message_fa"] for r in replies)
    await owner.wait_for(lambda c: sum(f.get("type") == "error" for f in c.frames) >= 14)
    codes = [f["code"] for f in owner.frames if f.get("type") == "error"][:6]
    assert codes == ["bad_json", "bad_json", "bad_json", "bad_message", "bad_json", "too_large"]
    info = await owner.rest("GET", f"/api/rooms/{code}")
    assert info["version"] == version
    await owner.close()


async def test_frames_the_server_could_not_store_are_refused(server: str) -> None:
    """Lone surrogates, integers beyond 64 bits and NaN are refused as bad JSON at the door:
    once they reached storage, failed to be written and closed every socket of the room."""
    owner, code = await table_with_bots(server)
    friend = HokmClient(server, name="Dara")
    await friend.connect()
    await friend.join(code)
    version = (await owner.rest("GET", f"/api/rooms/{code}"))["version"]
    big = 2**70
    raws = [
        '{"type": "chat", "text": "hi\\ud800"}',
        '{"type": "sit", "seat": 9, "action_id": "\\udc00"}',
        '{"type": "chat", "text": "x", "ref": "\\ud800"}',
        '{"type": "ping", "t": NaN}',
    ]
    for raw in raws:
        await friend.send_raw(raw)
    await friend.wait_for(lambda c: sum(f.get("type") == "error" for f in c.frames) >= 4)
    assert [f["code"] for f in friend.frames if f.get("type") == "error"] == ["bad_json"] * 4
    # Integers beyond 64 bits arrive as floats: every integer field refuses them.
    action = {"type": "play", "card": "AS"}
    refused = [
        await friend.request({"type": "action", "version": big, "action": action}, check=False),
        await owner.request({"type": "set_rules", "rules": {"target_points": big}}, check=False),
    ]
    assert [r["type"] for r in refused] == ["error", "error"]
    pong = await friend.request({"type": "ping", "t": big})  # an echoed float, not a dead writer
    assert pong["type"] == "pong"
    assert (await owner.ping())["type"] == "pong"  # nobody was disconnected
    info = await owner.rest("GET", f"/api/rooms/{code}")
    assert info["version"] == version
    await friend.close()
    await owner.close()


async def test_values_nested_too_deep_to_store_are_refused(server: str) -> None:
    """orjson reads 1024 levels of nesting but writes only 254: a legal action carrying a
    deeply nested extra field was applied, failed to be logged, and closed every socket of
    the room (1011); an echoed ``ping`` ``t`` became a ``server_error``. Refused at the door."""
    owner, code = await table_with_bots(server, rules={"first_hakem": "manual"})
    friend = HokmClient(server, name="Dara")
    await friend.connect()
    await friend.join(code)
    await owner.command("start")
    await owner.command("choose_hakem", seat=0)
    await owner.wait_for(lambda c: bool(c.legal))
    version = (await owner.rest("GET", f"/api/rooms/{code}"))["version"]
    deep: Any = []
    for _ in range(300):
        deep = [deep]
    action = {**owner.legal[0], "note": deep}
    refused = await owner.request(
        {"type": "action", "version": owner.version, "action_id": "d1", "action": action},
        check=False,
    )
    assert refused["type"] == "error" and refused["code"] == "bad_json"
    pong = await friend.request({"type": "ping", "t": deep}, check=False)
    assert pong["type"] == "error" and pong["code"] == "bad_json"
    assert (await friend.ping())["type"] == "pong"  # nobody was disconnected
    assert (await owner.ping())["type"] == "pong"
    info = await owner.rest("GET", f"/api/rooms/{code}")
    assert info["version"] == version
    await friend.close()
    await owner.close()


async def test_new_guests_over_the_socket_share_the_address_limit(tmp_path: Path) -> None:
    """A hello without a token makes a guest: it counts against the same per-address limit
    as POST /api/guest, which it used to bypass (200 guests in 0.4 s). (No refill here, so
    the count does not depend on how fast the test runs.)"""
    async with running_server(settings(tmp_path / "h.db", creations_per_second=0.0)) as server:
        await _guests_over_the_limit(server)


async def test_a_guest_renamed_in_hello_counts_as_post_guest_does(tmp_path: Path) -> None:
    """POST /api/guest counts a rename against the address's limit; a hello with a new
    name renamed (a write) without counting: hundreds a second from one client. A hello
    with the name already held changes nothing and is not counted."""
    config = settings(tmp_path / "h.db", creations_per_second=0.0, creations_burst=3.0)
    async with running_server(config) as server, httpx.AsyncClient(base_url=server) as http:
        url = server.replace("http", "ws") + "/ws"
        here = {"X-Forwarded-For": "203.0.113.9"}
        made = await http.post("/api/guest", json={"name": "Sara"}, headers=here)
        token = made.json()["token"]

        async def hello(name: str) -> dict[str, Any]:
            async with websockets.connect(url, additional_headers=here) as ws:
                frame = {"type": "hello", "protocol": 1, "token": token, "name": name}
                await ws.send(json.dumps(frame))
                answer: dict[str, Any] = json.loads(await ws.recv())
                return answer

        for name in ("Sara", "Sara", "Ali", "Ali", "Reza"):
            assert (await hello(name))["type"] == "welcome", name
        bye = await hello("Nima")
        assert bye["type"] == "bye" and bye["code"] == 4008
        me = await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert me.json()["player"]["name"] == "Reza"
        assert (await hello("Reza"))["type"] == "welcome"


async def _guests_over_the_limit(server: str) -> None:
    url = server.replace("http", "ws") + "/ws"
    here = {"X-Forwarded-For": "203.0.113.9"}
    hello = json.dumps({"type": "hello", "protocol": 1, "name": "x"})
    async with httpx.AsyncClient(base_url=server) as http:
        for _ in range(29):
            assert (await http.post("/api/guest", json={"name": "x"}, headers=here)).is_success
    async with websockets.connect(url, additional_headers=here) as ws:
        await ws.send(hello)
        assert json.loads(await ws.recv())["type"] == "welcome"  # the 30th
    async with websockets.connect(url, additional_headers=here) as ws:
        await ws.send(hello)
        bye = json.loads(await ws.recv())
        assert bye["type"] == "bye" and bye["code"] == 4008
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
    async with HokmClient(server, name="local") as local:  # loopback is exempt
        assert local.player is not None


async def test_commands_before_join_are_refused(server: str) -> None:
    """A table command outside a room gets not_in_room."""
    async with HokmClient(server, name="X") as client:
        with pytest.raises(ServerError) as refused:
            await client.command("sit", seat=0)
        assert refused.value.code == "not_in_room"


async def test_flooding_is_rate_limited_then_closed(tmp_path: Path) -> None:
    """Beyond the rate a client gets rate_limited, and a client that keeps flooding is closed."""
    config = settings(
        tmp_path / "h.db", messages_per_second=5, message_burst=5, flood_close_seconds=0.3
    )
    async with running_server(config) as url:
        client = HokmClient(url, name="Flood")
        await client.connect()
        with pytest.raises(Exception):  # noqa: B017 - closed while flooding
            for n in range(2000):
                await client.send({"type": "ping", "ref": f"p{n}"})
                await asyncio.sleep(0.001)
        assert client.closed is not None
        code, _ = await asyncio.wait_for(client.closed, 5)
        assert code == 4008
        limited = [f for f in client.frames if f.get("code") == "rate_limited"]
        assert limited and all(f["ref"].startswith("p") for f in limited)  # which frame
        answered = {f["ref"] for f in client.frames if f.get("type") == "pong"}
        assert not answered & {f["ref"] for f in limited}  # refused: not answered too
        assert any(f.get("type") == "bye" and f["code"] == 4008 for f in client.frames)


async def test_the_client_sends_a_rate_limited_action_again_after_a_pause(
    tmp_path: Path,
) -> None:
    """As the protocol asks of clients: an action refused as rate_limited is sent again,
    after a pause, with the same action_id (a fast test client failed a game on it)."""
    config = settings(tmp_path / "h.db", messages_per_second=5, message_burst=2)
    async with running_server(config) as url, HokmClient(url, name="Quick") as client:
        sent: list[dict[str, Any]] = []
        send = client.send

        async def recording(frame: dict[str, Any]) -> None:
            sent.append(frame)
            await send(frame)

        client.send = recording  # type: ignore[method-assign]
        await client.ping()
        await client.ping()  # the burst is spent
        with pytest.raises(ServerError) as refused:
            await client.act({"type": "play", "card": "AS"})
        assert refused.value.code == "not_in_room"  # answered on a later try, not limited
        assert any(f.get("code") == "rate_limited" for f in client.frames)
        actions = [f for f in sent if f.get("type") == "action"]
        assert len(actions) >= 2 and len({f["action_id"] for f in actions}) == 1


async def test_join_by_code_and_a_full_game_with_bots(server: str) -> None:
    """One human and three bots play a whole game over the socket; the record is stored."""
    owner, code = await table_with_bots(server, rules={"target_points": 2})
    guest = HokmClient(server, name="Watcher", batch=True)
    await guest.connect()
    snapshot = await guest.join(code.lower())
    assert snapshot["type"] == "snapshot" and snapshot["room"] == code
    assert snapshot["you"]["seat"] is None and snapshot["table"]["seats"][1]["kind"] == "bot"
    await owner.command("start")
    await owner.play_until(_game_over, timeout=60)
    await guest.wait_for(_game_over)
    assert guest.view is not None and guest.view["hand"] == []
    assert guest.messages < len(guest.frames)  # batched: several frames per message
    games = (await owner.rest("GET", f"/api/rooms/{code}/games"))["games"]
    assert len(games) == 1 and games[0]["cancelled"] is False
    record = await owner.rest("GET", games[0]["record"])
    assert record["format"] == "hokm-record/1" and record["hands"]
    report = judge(record)  # what `hokm referee` says about the downloaded record
    assert report["ok"] is True and report["game_over"] is True
    assert report["winner_team"] == games[0]["winner_team"] and report["score"] == games[0]["score"]
    shuffle = await owner.rest("GET", f"/api/games/{games[0]['game_id']}/shuffle")
    hand = shuffle["hands"][0]
    check = await owner.rest(
        "POST",
        "/api/verify",
        {
            "seed": hand["seed"],
            "seed_commitment": hand["seed_commitment"],
            "hakem": hand["hakem"],
            "cards": record["hands"][0]["cards"],
        },
    )
    assert check["ok"] is True
    analysis = await owner.rest("GET", f"/api/games/{games[0]['game_id']}/analysis")
    assert analysis["game_id"] == games[0]["game_id"] and analysis["ok"] is True
    assert analysis == {"game_id": games[0]["game_id"], **analyse(record).to_dict()}
    assert [h["result"] for h in analysis["hands"]] == [h["result"] for h in report["hands"]]
    again = await owner.rest("GET", f"/api/games/{games[0]['game_id']}/analysis")
    assert again == analysis
    with pytest.raises(ServerError) as missing:
        await owner.rest("GET", "/api/games/NOSUCH-1/analysis")
    assert missing.value.frame["status"] == 404 and missing.value.code == "not_found"
    commitments = [
        e["event"]["commitment"] for e in guest.events if e["event"]["kind"] == "deal_committed"
    ]
    assert commitments[0] == hand["seed_commitment"]
    await owner.close()
    await guest.close()


async def test_repeated_and_stale_actions_are_answered_never_applied_twice(server: str) -> None:
    """The same action_id gets the same answer again; an old version gets stale."""
    owner, _ = await table_with_bots(server, rules={"turn_seconds": 60, "trump_seconds": 60})
    await owner.command("start")
    await owner.wait_for(lambda c: bool(c.legal))
    first_version = owner.version
    action = {k: v for k, v in owner.legal[0].items() if k != "seat"}
    ack = await owner.act(action, action_id="same")
    again = await owner.act(action, action_id="same")
    assert again["duplicate"] is True and again["version"] == ack["version"]
    assert again["action_id"] == "same"
    await owner.wait_for(lambda c: bool(c.legal) and c.version > ack["version"])
    other = {k: v for k, v in owner.legal[0].items() if k != "seat"}
    with pytest.raises(ServerError) as stale:
        await owner.act(other, version=first_version)
    assert stale.value.code == "stale"
    plays = [e for e in owner.events if e["event"]["kind"] in ("card_played", "trump_chosen")]
    mine = [e for e in plays if e["event"].get("seat") == 0 and not e["event"].get("auto")]
    assert len(mine) == 1
    await owner.close()


async def test_reconnect_mid_hand_gets_missed_events_or_a_snapshot(server: str) -> None:
    """A dropped player resumes from its last version; the seat was held meanwhile."""
    owner, code = await table_with_bots(server, rules={"turn_seconds": 60, "trump_seconds": 60})
    partner = HokmClient(server, name="Ali")
    await partner.connect()
    await partner.join(code)
    await owner.command("add_bot", seat=2, level="random")  # already a bot: level change
    await owner.command("start")
    await owner.wait_for(lambda c: bool(c.legal))
    await owner.act({k: v for k, v in owner.legal[0].items() if k != "seat"})
    last = owner.version
    await owner.drop()
    await partner.wait_for(
        lambda c: any(
            e["event"]["kind"] == "presence" and e["event"]["connected"] is False for e in c.events
        )
    )
    await partner.wait_for(  # while the owner is away, a bot plays the owner's turns
        lambda c: any(e["event"].get("seat") == 0 and e["event"].get("auto") for e in c.events)
    )
    back = HokmClient(server, token=owner.token)
    await back.connect()
    resumed = await back.join(code, last_version=last)
    assert resumed["type"] == "events" and resumed["from_version"] == last + 1
    kinds = [e["event"]["kind"] for e in resumed["events"]]
    assert "presence" in kinds
    assert resumed["you"]["seat"] == 0 and resumed["game"]["seat"] == 0
    fresh = HokmClient(server, token=owner.token)
    await fresh.connect()
    snap = await fresh.join(code)
    assert snap["type"] == "snapshot" and snap["game"]["hand"] == resumed["game"]["hand"]
    for client in (back, fresh, partner):
        await client.close()


async def test_timeouts_let_a_bot_move_and_mark_the_player_away(tmp_path: Path) -> None:
    """With a short turn time a silent player's moves are made for them; after two, away."""
    async with running_server(settings(tmp_path / "h.db")) as url:
        owner, _ = await table_with_bots(url, rules={"turn_seconds": 0.2, "trump_seconds": 0.2})
        await owner.command("start")
        await owner.wait_event("player_away", timeout=20)
        timeouts = [e for e in owner.events if e["event"]["kind"] == "timeout"]
        assert len(timeouts) >= 2 and timeouts[0]["event"]["seat"] == 0
        auto = [e for e in owner.events if e["event"].get("auto") and e["event"].get("seat") == 0]
        assert auto and auto[0]["event"]["kind"] in ("trump_chosen", "card_played")
        await owner.command("back")
        await owner.wait_event("player_back")
        await owner.close()


async def test_chat_phases(server: str) -> None:
    """Free text in the lobby; during a hand only phrases and emoji; links never."""
    owner, code = await table_with_bots(server, rules={"turn_seconds": 60, "trump_seconds": 60})
    friend = HokmClient(server, name="Ali")
    await friend.connect()
    await friend.join(code)
    await owner.chat(text="سلام، آماده‌اید؟")
    await friend.wait_event("chat")
    for text in ("see example dot com", "call ۰۹۱۲ ۳۴۵ ۶۷ ۸۹"):
        with pytest.raises(ServerError) as refused:
            await owner.chat(text=text)
        assert refused.value.code == "chat_rejected"
        assert refused.value.frame["reason"] in ("link", "phone")
    await owner.command("start")
    await owner.wait_for(lambda c: bool(c.legal))
    with pytest.raises(ServerError) as refused:
        await owner.chat(text="I have the ace of hearts")
    assert refused.value.frame["reason"] == "preset_only"
    await owner.chat(phrase="gl")
    await friend.chat(text="👍")  # the owner has used up the flood window (5 per 10 s)
    await friend.wait_for(lambda c: sum(e["event"]["kind"] == "chat" for e in c.events) >= 3)
    chats = [e["event"] for e in friend.events if e["event"]["kind"] == "chat"]
    assert [c["text"] or c["phrase"] for c in chats] == ["سلام، آماده‌اید؟", "gl", "👍"]
    await owner.close()
    await friend.close()


async def test_a_game_on_postgresql(tmp_path: Path) -> None:
    """The same server on PostgreSQL (tables with a per-run prefix, dropped afterwards)."""
    prefix = f"s{secrets.token_hex(4)}_"
    config = settings(tmp_path / "unused.db", database_url=PG_URL, table_prefix=prefix)
    try:
        async with running_server(config) as url:
            owner, code = await table_with_bots(url, rules={"target_points": 1})
            await owner.chat(text="on postgres")
            await owner.command("start")
            await owner.play_until(_game_over, timeout=60)
            games = (await owner.rest("GET", f"/api/rooms/{code}/games"))["games"]
            assert len(games) == 1
            await owner.close()
    finally:
        store = SqlStorage(PG_URL, prefix=prefix)
        await AccountStore(store).drop_all()  # the accounts plugin made its tables too
        await store.drop_all()
        await store.close()


async def until_unloaded(client: HokmClient) -> None:
    """Wait until the server has no room in memory (idle rooms are unloaded)."""
    for _ in range(100):
        if (await client.rest("GET", "/api/metrics"))["rooms"] == 0:
            break
        await asyncio.sleep(0.05)
    assert (await client.rest("GET", "/api/metrics"))["rooms"] == 0


async def test_idle_rooms_are_unloaded_and_come_back(tmp_path: Path) -> None:
    """A room nobody is connected to leaves memory and is loaded again, unchanged, on demand."""
    async with running_server(settings(tmp_path / "h.db", room_idle_seconds=0.2)) as url:
        owner, code = await table_with_bots(url)
        await owner.chat(text="still here?")
        await owner.close()
        await until_unloaded(owner)
        info = await owner.rest("GET", f"/api/rooms/{code}")
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
        back = HokmClient(url, token=owner.token)
        await back.connect()
        snapshot = await back.join(code)
        assert [m["text"] for m in snapshot["chat"]] == ["still here?"]
        await back.close()


async def test_a_paused_game_unloaded_is_still_offered_to_its_players(tmp_path: Path) -> None:
    """Sara's game pauses when she leaves (only bots left) and the room is unloaded: from
    another browser the home page is still told where her game goes on (/api/session used to
    know loaded rooms only), and not once the game is over."""
    async with running_server(settings(tmp_path / "h.db", room_idle_seconds=0.2)) as url:
        owner, code = await table_with_bots(url)
        await owner.command("start")
        await owner.close()
        await until_unloaded(owner)
        headers = {"Authorization": f"Bearer {owner.token}"}
        async with httpx.AsyncClient(base_url=url, headers=headers) as http:
            assert (await http.get("/api/session")).json()["playing"] == [code]
            async with httpx.AsyncClient(base_url=url) as other:
                await other.post("/api/guest", json={"name": "Ann"})
                assert (await other.get("/api/session")).json()["playing"] == []  # not hers
            # Back at the table, she closes the game (cancelled, as the owner may); unloaded
            # again, the room is no longer offered.
            back = HokmClient(url, token=owner.token)
            await back.connect()
            await back.join(code)
            assert (await back.command("close_game"))["type"] == "ack"
            await back.close()
            await until_unloaded(owner)
            assert (await http.get("/api/session")).json()["playing"] == []


async def test_a_game_both_players_left_is_cancelled_not_kept_paused(tmp_path: Path) -> None:
    """Sara and Ali play with two bots and both close the page. The game pauses (no bot plays
    on), but it is cancelled when it would have been had one of them stayed, and only then is
    the room unloaded: it is no longer offered as a game to go back to (it used to stay
    paused for ever, never recorded)."""
    rules = {"grace_seconds": 0.3}
    async with running_server(settings(tmp_path / "h.db", room_idle_seconds=0.2)) as url:
        owner, code = await table_with_bots(url, rules=rules, bots=(2, 3))
        ali = HokmClient(url, name="Ali")
        await ali.connect()
        await ali.join(code)
        await ali.command("sit", seat=1)
        await owner.command("start")
        await ali.close()
        await owner.close()
        await until_unloaded(owner)
        info = await owner.rest("GET", f"/api/rooms/{code}")
        assert info["status"] == "lobby"
        headers = {"Authorization": f"Bearer {owner.token}"}
        async with httpx.AsyncClient(base_url=url, headers=headers) as http:
            assert (await http.get("/api/session")).json()["playing"] == []


async def test_a_socket_left_out_of_a_room_that_was_unloaded_still_answers(
    tmp_path: Path,
) -> None:
    """Sara leaves on one socket; with nobody left the room is unloaded. Her other socket,
    taken out of the room, still gets answers: not_in_room for a sync, and a join loads the
    room again (it used to wait for ever on the unloaded room)."""
    async with running_server(settings(tmp_path / "h.db", room_idle_seconds=0.2)) as url:
        owner, code = await table_with_bots(url)
        other = HokmClient(url, token=owner.token)
        await other.connect()
        await other.join(code)
        assert (await owner.command("leave"))["type"] == "ack"
        await until_unloaded(owner)
        answer = await asyncio.wait_for(
            other.request({"type": "sync", "last_version": 0}, check=False), 5
        )
        assert answer["type"] == "error" and answer["code"] == "not_in_room"
        frame = await asyncio.wait_for(other.join(code), 5)
        assert frame["type"] == "snapshot" and frame["you"]["is_member"]
        await other.close()
        await owner.close()


def test_a_frame_that_cannot_be_encoded_becomes_a_server_error() -> None:
    """A server bug (an unencodable value) costs that frame only: the connection's writer goes
    on (it used to end silently, leaving the client connected and deaf)."""
    from hokm.server.ws import _encode, _encode_batch

    bad = {"type": "events", "ref": "r1", "value": 2**70}
    frame = json.loads(_encode(bad))
    assert (frame["type"], frame["code"], frame["ref"]) == ("error", "server_error", "r1")
    assert frame["message"] and frame["message_fa"]
    good = {"type": "pong", "ref": "r2"}
    batch = json.loads(_encode_batch([good, bad]))
    assert batch["type"] == "batch"
    assert [f["type"] for f in batch["frames"]] == ["pong", "error"]


async def test_leaving_on_one_socket_takes_the_players_others_out_of_the_room(
    server: str,
) -> None:
    """Sara has the room open on two sockets and leaves on one: the other sees her leave and
    is out of the room (sync: not_in_room; the room's later events do not reach it). She joins
    again on the first; closing the second then does not mark her disconnected."""
    owner, code = await table_with_bots(server, bots=(1, 2))
    sara = str((owner.player or {})["id"])
    other = HokmClient(server, token=owner.token)
    await other.connect()
    await other.join(code)
    assert (await owner.command("leave"))["type"] == "ack"
    await other.wait_for(
        lambda c: any(
            e["event"]["kind"] == "member_left" and e["event"]["player"] == sara for e in c.events
        ),
        timeout=5,
    )
    answer = await other.request({"type": "sync", "last_version": 0}, check=False)
    assert answer["type"] == "error" and answer["code"] == "not_in_room"
    heard = len(other.events)
    async with HokmClient(server, name="Bita") as bita:  # the room goes on without her
        await bita.join(code)
        await bita.command("sit", seat=0)
        await asyncio.sleep(0.3)
        assert len(other.events) == heard
        frame = await owner.join(code)  # back in, on the first socket
        assert frame["type"] == "snapshot" and frame["you"]["is_member"]
        await other.close()  # the socket that was taken out closes
        await asyncio.sleep(0.3)
        snap = await bita.join(code)  # in the room already: a fresh snapshot
        members = {m["player"]: m for m in snap["table"]["members"]}
        assert members[sara]["connected"] is True
    await owner.close()


async def test_one_address_may_not_open_thousands_of_sockets(tmp_path: Path) -> None:
    """Open sockets per client address are capped (``sockets_per_address``; loopback is
    exempt, so the address comes through the proxy header here): the next one is told why
    (``bye`` 4008) and closed; another address is not affected, and a closed socket frees
    its place."""
    ws_url = ""

    def opened(address: str) -> Any:
        return websockets.connect(ws_url, additional_headers={"X-Forwarded-For": address})

    async with running_server(settings(tmp_path / "h.db", sockets_per_address=3)) as url:
        ws_url = url.replace("http", "ws") + "/ws"
        held = [await opened("10.9.9.9") for _ in range(3)]
        for ws in held:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Ali"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
        async with opened("10.9.9.9") as refused:
            bye = json.loads(await refused.recv())
            assert bye["type"] == "bye" and bye["code"] == 4008
            assert "too many connections" in bye["reason"]["en"] and bye["reason"]["fa"]
            with pytest.raises(websockets.ConnectionClosed):
                await refused.recv()
            assert refused.close_code == 4008
        async with opened("10.9.9.10") as other:
            await other.send(json.dumps({"type": "hello", "protocol": 1}))
            assert json.loads(await other.recv())["type"] == "welcome"
        await held.pop().close()
        await asyncio.sleep(0.2)
        async with opened("10.9.9.9") as again:
            await again.send(json.dumps({"type": "hello", "protocol": 1}))
            assert json.loads(await again.recv())["type"] == "welcome"
        for ws in held:
            await ws.close()


async def test_a_member_the_owner_removes_is_out_and_cannot_join_again(server: str) -> None:
    """``kick``: every socket of the removed player sees it (``member_left`` with
    ``removed``) and is out of the room; joining again is refused ``not_allowed``, also on a
    new socket; the room goes on for the others."""
    owner, code = await table_with_bots(server, bots=(1, 2))
    async with HokmClient(server, name="Troll") as troll:
        await troll.join(code)
        await troll.command("sit", seat=3)
        pid = str((troll.player or {})["id"])
        assert (await owner.command("kick", player=pid))["type"] == "ack"
        await troll.wait_for(
            lambda c: any(
                e["event"]["kind"] == "member_left" and e["event"].get("removed") for e in c.events
            ),
            timeout=5,
        )
        answer = await troll.request({"type": "sync", "last_version": 0}, check=False)
        assert answer["type"] == "error" and answer["code"] == "not_in_room"
        again = await troll.request({"type": "join", "code": code}, check=False)
        assert again["type"] == "error" and again["code"] == "not_allowed", again
        assert again["message_fa"]
    async with HokmClient(server, token=troll.token) as back:  # a fresh socket, same player
        refused = await back.request({"type": "join", "code": code}, check=False)
        assert refused["type"] == "error" and refused["code"] == "not_allowed"
    snap = await owner.join(code)
    assert pid not in {m["player"] for m in snap["table"]["members"]}
    assert snap["table"]["seats"][3]["kind"] == "empty"
    await owner.close()
