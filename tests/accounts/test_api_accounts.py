"""Accounts over real HTTP and WebSocket clients against a running server (SQLite, PostgreSQL)."""

from __future__ import annotations

import asyncio
import time
from http.cookies import SimpleCookie
from pathlib import Path

import httpx
import pytest

from hokm.accounts.security import LoginLimiter, Passwords
from hokm.accounts.store import GameOutcome
from hokm.client import HokmClient
from tests.accounts.live import Live, autoplay, game_result, live_server

pytestmark = pytest.mark.asyncio(loop_scope="module")


def _cookie(response_headers: list[str], name: str) -> dict[str, str | bool]:
    for header in response_headers:
        jar: SimpleCookie = SimpleCookie()
        jar.load(header)
        if name in jar:
            morsel = jar[name]
            return {
                "value": morsel.value,
                "httponly": bool(morsel["httponly"]),
                "samesite": str(morsel["samesite"]).lower(),
                "max-age": str(morsel["max-age"]),
            }
    raise AssertionError(f"no {name} cookie set")


async def test_register_sets_an_httponly_samesite_session_cookie(live: Live) -> None:
    """Register → 201, the session travels only in an HttpOnly SameSite cookie; /api/me knows it."""
    async with live.http() as http:
        response = await http.post(
            "/api/accounts/register",
            json={"username": "Sara", "password": "correct horse", "name": "سارا"},
        )
        assert response.status_code == 201
        body = response.json()
        assert body["player"]["kind"] == "account" and body["player"]["name"] == "سارا"
        assert "token" not in body  # the token is never readable by page scripts
        cookie = _cookie(response.headers.get_list("set-cookie"), "hokm_session")
        assert cookie["httponly"] and cookie["samesite"] == "lax"
        me = (await http.get("/api/me")).json()["player"]
        assert me == {"id": body["player"]["id"], "name": "سارا", "kind": "account"}
        profile = (await http.get("/api/accounts/me")).json()
        assert profile["username"] == "Sara"
        assert profile["rating"] == 0 and profile["provisional"] is True
        assert profile["provisional_games_left"] == 10
        assert profile["tier"]["name"] == "Newcomer" and profile["tier"]["persian"] == "تازه‌وارد"
        assert (profile["points"], profile["games_played"], profile["games_won"]) == (0, 0, 0)


async def test_the_database_holds_only_a_hash_of_the_session(live: Live) -> None:
    """A session token is stored hashed: the raw cookie value is nowhere in the sessions table."""
    http = await live.account("hashcheck")
    token = http.cookies["hokm_session"]
    import sqlalchemy as sa

    table = live.store.t.sessions
    async with live.store.storage.engine.connect() as conn:
        rows = (await conn.execute(sa.select(table.c.token_hash))).all()
    assert rows and all(token not in row.token_hash for row in rows)
    await http.aclose()


async def test_bad_registrations_are_refused_and_change_nothing(live: Live) -> None:
    async with live.http() as http:
        # The Persian message says what to fix where the person typed it (a generic
        # "invalid input" otherwise).
        for body, code, fa in [
            ({"username": "ab", "password": "long enough"}, "invalid_input", "نام کاربری باید"),
            ({"username": "okname", "password": "short"}, "invalid_input", "دست‌کم ۸"),
            (
                {"username": "okname", "password": "long enough", "extra": 1},
                "invalid_input",
                "ورودی نامعتبر",
            ),
        ]:
            response = await http.post("/api/accounts/register", json=body)
            assert response.status_code == 400 and response.json()["code"] == code
            assert fa in response.json()["message_fa"]
        response = await http.post("/api/accounts/register", content=b"{not json")
        assert response.status_code == 400
        assert (
            await http.post(
                "/api/accounts/login", json={"username": "okname", "password": "long enough"}
            )
        ).status_code == 401
        first = await http.post(
            "/api/accounts/register", json={"username": "Taken", "password": "password-1"}
        )
        assert first.status_code == 201
    async with live.http() as other:
        again = await other.post(
            "/api/accounts/register", json={"username": "tAKEN", "password": "password-2"}
        )
        assert again.status_code == 409 and again.json()["code"] == "username_taken"


async def _register(live: Live, username: str, name: str | None = None) -> httpx.Response:
    body = {"username": username, "password": "password-1"}
    if name is not None:
        body["name"] = name
    async with live.http() as http:
        return await http.post("/api/accounts/register", json=body)


async def test_look_alike_usernames_and_unshowable_names_are_refused(live: Live) -> None:
    """Nobody can register a name that looks like another's (a Greek letter among Latin ones,
    fullwidth letters, Arabic yeh and kaf for the Persian ones), and names follow the guests'
    rule: no links, no phone numbers (a username is shown too)."""
    assert (await _register(live, "user7860")).status_code == 201
    for username in ("\u03c5ser7860", "\uff55ser7860", "\u01c5ser7860"):
        answer = await _register(live, username)
        assert answer.status_code == 400, username
        assert answer.json()["code"] == "invalid_input" and answer.json()["message_fa"]
    async with live.http() as http:  # the fullwidth spelling finds the plain account
        login = await http.post(
            "/api/accounts/login", json={"username": "\uff55ser7860", "password": "password-1"}
        )
        assert login.status_code == 200
    assert (await _register(live, "علي_٤")).status_code == 201  # Arabic yeh, Arabic-Indic 4
    assert (await _register(live, "علی_۴")).status_code == 409  # the Persian look-alike
    assert (await _register(live, "علی_4")).status_code == 409  # the same number, Latin digit
    assert (await _register(live, "نگار_۱۲")).status_code == 201
    async with live.http() as http:  # a phone keyboard may type the digits either way
        for typed in ("نگار_12", "نگار_١٢", "نگار_۱۲"):
            body = {"username": typed, "password": "password-1"}
            assert (await http.post("/api/accounts/login", json=body)).status_code == 200, typed
    for name, why in (
        ("t.me/joinme", "پیوند"),
        ("call 09121234567", "تلفن"),
        ("insta www.x.ir", "پیوند"),
    ):
        answer = await _register(live, "fresh_one", name)
        assert answer.status_code == 400 and why in answer.json()["message_fa"], name
    for username in ("09121234567", "ali.com"):
        answer = await _register(live, username)
        assert answer.status_code == 400 and "نام کاربری" in answer.json()["message_fa"]
    http = await live.account("namecheck")
    for name in ("t.me/joinme", "09121234567"):
        answer = await http.patch("/api/accounts/me", json={"name": name})
        assert answer.status_code == 400, name
    assert (await http.patch("/api/accounts/me", json={"name": "نیما"})).status_code == 200
    assert (await http.get("/api/me")).json()["player"]["name"] == "نیما"
    await http.aclose()


async def test_wrong_password_and_unknown_user_get_the_same_answer(live: Live) -> None:
    await (await live.account("real_user")).aclose()
    async with live.http() as http:
        wrong = await http.post(
            "/api/accounts/login", json={"username": "real_user", "password": "nope-nope"}
        )
        unknown = await http.post(
            "/api/accounts/login", json={"username": "ghost_user", "password": "nope-nope"}
        )
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json()
        assert "hokm_session" not in http.cookies
        ok = await http.post(
            "/api/accounts/login", json={"username": "REAL_USER", "password": "password-1"}
        )
        assert ok.status_code == 200 and "hokm_session" in http.cookies


async def test_login_is_rate_limited_per_account(live: Live) -> None:
    """Five failures from one address lock the account there, even with the right password;
    other accounts are fine."""
    await (await live.account("target")).aclose()
    await (await live.account("bystander")).aclose()
    async with live.http() as http:
        for _ in range(5):
            r = await http.post(
                "/api/accounts/login", json={"username": "target", "password": "bad-guess"}
            )
            assert r.status_code == 401
        locked = await http.post(
            "/api/accounts/login", json={"username": "target", "password": "password-1"}
        )
        assert locked.status_code == 429 and locked.json()["code"] == "rate_limited"
        assert int(locked.headers["retry-after"]) > 0
        ghost = [
            await http.post(
                "/api/accounts/login", json={"username": "nobody_here", "password": "x" * 8}
            )
            for _ in range(6)
        ]
        assert [r.status_code for r in ghost] == [401] * 5 + [429]  # unknown names count the same
        fine = await http.post(
            "/api/accounts/login", json={"username": "bystander", "password": "password-1"}
        )
        assert fine.status_code == 200


async def test_a_password_reset_lets_its_owner_in_at_once(live: Live) -> None:
    """A player who forgot their password locks themselves out trying; the operator resets it
    (``hokm accounts reset-password``, which writes the database from another process). The
    new password logs in at once, not 15 minutes later; wrong ones count again from there."""
    await (await live.account("forgetful")).aclose()
    async with live.http() as http:

        async def login(password: str) -> httpx.Response:
            body = {"username": "forgetful", "password": password}
            return await http.post("/api/accounts/login", json=body)

        for _ in range(5):
            assert (await login("was-it-this")).status_code == 401
        assert (await login("password-1")).status_code == 429
        found = await live.store.account_by_username("forgetful")
        assert found is not None
        await live.store.set_password(found.player_id, await Passwords().hash("fresh-pass-2"))
        assert (await login("fresh-pass-2")).status_code == 200
        for _ in range(5):
            assert (await login("was-it-this")).status_code == 401
        assert (await login("fresh-pass-2")).status_code == 429


async def test_wrong_passwords_from_elsewhere_do_not_lock_the_owner_out(live: Live) -> None:
    """Usernames are public (leaderboard, profiles): five wrong passwords for "target" from
    other addresses used to refuse its owner's right password for 15 minutes."""
    await (await live.account("target2")).aclose()
    async with live.http() as http:
        for i in range(6):
            r = await http.post(
                "/api/accounts/login",
                json={"username": "target2", "password": "bad-guess"},
                headers={"X-Forwarded-For": f"203.0.113.{i}"},
            )
            assert r.status_code == 401
        own = await http.post(
            "/api/accounts/login",
            json={"username": "target2", "password": "password-1"},
            headers={"X-Forwarded-For": "198.51.100.7"},
        )
        assert own.status_code == 200


async def test_login_is_rate_limited_per_address(live: Live) -> None:
    """Twenty failures from one address, spread over many names, block that address."""
    await (await live.account("victim")).aclose()
    async with live.http() as http:
        for i in range(20):
            r = await http.post(
                "/api/accounts/login", json={"username": f"spray{i}", "password": "guess-123"}
            )
            assert r.status_code == 401
        blocked = await http.post(
            "/api/accounts/login", json={"username": "victim", "password": "password-1"}
        )
        assert blocked.status_code == 429


async def test_registering_is_rate_limited_per_address(live: Live) -> None:
    """Five new accounts at once from one address, then one a minute (each costs a 64 MiB
    hash); another address is not affected. Behind the proxy uvicorn trusts (loopback), the
    address is the one X-Forwarded-For names."""
    here = {"X-Forwarded-For": "203.0.113.7"}
    async with live.http() as http:
        answers = [
            await http.post(
                "/api/accounts/register",
                json={"username": f"burst{i}", "password": "password-1"},
                headers=here,
            )
            for i in range(6)
        ]
        assert [a.status_code for a in answers] == [201] * 5 + [429]
        assert answers[-1].json()["code"] == "rate_limited"
        assert int(answers[-1].headers["Retry-After"]) >= 1
        assert "حساب تازه" in answers[-1].json()["message_fa"]
        other = await http.post(
            "/api/accounts/register",
            json={"username": "elsewhere", "password": "password-1"},
            headers={"X-Forwarded-For": "203.0.113.8"},
        )
        assert other.status_code == 201
        refused = await http.post(
            "/api/accounts/login",
            json={"username": "burst5", "password": "password-1"},
        )
        assert refused.status_code == 401  # the refused registration made no account
    mistakes = {"X-Forwarded-For": "203.0.113.10"}  # refusals for bad input cost nothing
    async with live.http() as http:
        for _ in range(6):
            taken = await http.post(
                "/api/accounts/register",
                json={"username": "burst0", "password": "password-1"},
                headers=mistakes,
            )
            assert taken.status_code == 409
        made = await http.post(
            "/api/accounts/register",
            json={"username": "after_typos", "password": "password-1"},
            headers=mistakes,
        )
        assert made.status_code == 201


async def test_logout_ends_the_session(live: Live) -> None:
    http = await live.account("leaver")
    token = http.cookies["hokm_session"]
    assert (await http.get("/api/accounts/me")).status_code == 200
    response = await http.post("/api/accounts/logout")
    assert response.status_code == 200
    assert "hokm_session" not in http.cookies
    async with live.http() as other:
        stolen = await other.get("/api/accounts/me", headers={"Authorization": f"Bearer {token}"})
        assert stolen.status_code == 401 and stolen.json()["code"] == "not_authenticated"
    await http.aclose()


async def test_change_password_needs_the_old_one_and_logs_out_other_sessions(live: Live) -> None:
    first = await live.account("changer", "first-password")
    async with live.http() as second:
        assert (
            await second.post(
                "/api/accounts/login", json={"username": "changer", "password": "first-password"}
            )
        ).status_code == 200
        bad = await first.post(
            "/api/accounts/password",
            json={"old_password": "wrong-one", "new_password": "second-password"},
        )
        assert bad.status_code == 401
        # said of the one password the form asks (it has no username to be wrong)
        assert bad.json()["message"] == "the current password is wrong"
        assert bad.json()["message_fa"] == "گذرواژهٔ کنونی نادرست است"
        weak = await first.post(
            "/api/accounts/password",
            json={"old_password": "first-password", "new_password": "short"},
        )
        assert weak.status_code == 400
        ok = await first.post(
            "/api/accounts/password",
            json={"old_password": "first-password", "new_password": "second-password"},
        )
        assert ok.status_code == 200
        assert (await first.get("/api/accounts/me")).status_code == 200  # this session stays
        assert (await second.get("/api/accounts/me")).status_code == 401  # the other one is gone
    async with live.http() as third:
        old = await third.post(
            "/api/accounts/login", json={"username": "changer", "password": "first-password"}
        )
        new = await third.post(
            "/api/accounts/login", json={"username": "changer", "password": "second-password"}
        )
        assert (old.status_code, new.status_code) == (401, 200)
    await first.aclose()


async def test_guessing_the_old_password_counts_as_failed_logins(live: Live) -> None:
    """Whoever holds a session (a shared computer, a stolen cookie) could try old passwords
    at /api/accounts/password without any limit; each wrong one now counts as a failed login
    of the account, and past the login limit even the right one is refused (429)."""
    http = await live.account("guessed", "first-password")
    change = {"old_password": "guess-123", "new_password": "second-password"}
    for _ in range(5):
        wrong = await http.post("/api/accounts/password", json=change)
        assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_credentials"
    right = {"old_password": "first-password", "new_password": "second-password"}
    locked = await http.post("/api/accounts/password", json=right)
    assert locked.status_code == 429 and locked.json()["code"] == "rate_limited"
    assert int(locked.headers["retry-after"]) > 0
    async with live.http() as other:  # the same counters as logging in from this address
        login = {"username": "guessed", "password": "first-password"}
        assert (await other.post("/api/accounts/login", json=login)).status_code == 429
    live.accounts.service.limiter = LoginLimiter()
    assert (await http.post("/api/accounts/password", json=right)).status_code == 200
    await http.aclose()


async def test_websocket_hello_with_the_session_identifies_the_account(live: Live) -> None:
    """A session token (hello.token) or the session cookie on the upgrade identifies the account."""
    http = await live.account("wsuser")
    client = await live.ws(http)
    assert client.player is not None and client.player["kind"] == "account"
    me = (await http.get("/api/me")).json()["player"]
    assert client.player["id"] == me["id"]
    await client.close()
    import websockets

    ws_url = "ws" + live.url[4:] + "/ws"
    cookie = f"hokm_session={http.cookies['hokm_session']}"
    async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
        import json

        await ws.send(json.dumps({"type": "hello", "protocol": 1}))
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["player"]["id"] == me["id"]
    await http.aclose()


async def _ended(client: HokmClient) -> tuple[int | None, str]:
    """How the server closed ``client``'s socket (it must within 5 s), after its ``bye``."""
    assert client.closed is not None
    code, reason = await asyncio.wait_for(asyncio.shield(client.closed), 5.0)
    bye = [f for f in client.frames if f.get("type") == "bye"]
    assert bye and bye[-1]["code"] == code and bye[-1]["reason"]["fa"], bye
    return code, reason


async def test_a_socket_ends_with_its_session(live: Live) -> None:
    """A password change logs the account's other sessions out, and a logout ends its own:
    their open sockets used to go on playing as the account (a stolen session kept its
    seat after the owner changed the password). They now say bye and close with 4003; the
    session that changed the password keeps its socket."""
    first = await live.account("holder", "first-password")
    second = live.http()
    login = {"username": "holder", "password": "first-password"}
    assert (await second.post("/api/accounts/login", json=login)).status_code == 200
    stolen, kept = await live.ws(first), await live.ws(second)
    change = {"old_password": "first-password", "new_password": "second-password"}
    assert (await second.post("/api/accounts/password", json=change)).status_code == 200
    assert await _ended(stolen) == (4003, "session_ended")
    await asyncio.sleep(0.3)  # (its own check, woken with the other's, is done by now)
    assert kept.closed is not None and not kept.closed.done()
    await kept.ping()  # the session that changed the password is still there
    assert (await second.post("/api/accounts/logout", json={})).status_code == 200
    assert await _ended(kept) == (4003, "session_ended")


async def test_a_guest_socket_comes_back_as_the_account_it_registered(live: Live) -> None:
    """A guest's socket lasts as long as the guest: once the guest registers, the guest token
    it said hello with identifies nobody, so the socket is closed with 1012 (reconnect: the
    page comes back with the session, as the account). It used to play on unwatched, a copy
    of the guest token holding the account's seat through any later logout. Another guest's
    socket is not touched."""
    signing_up, staying = HokmClient(live.url, name="Soon"), HokmClient(live.url, name="Stays")
    for client in (signing_up, staying):
        await client.connect()
    assert signing_up.token is not None
    http = live.http(cookies={"hokm_guest": signing_up.token})
    form = {"username": "soon_account", "password": "a long password"}
    registered = await http.post("/api/accounts/register", json=form)
    assert registered.status_code == 201 and registered.json()["upgraded"] is True
    assert await _ended(signing_up) == (1012, "identity_changed")
    again = await live.ws(http)  # with the session: the same player, as the account
    assert again.player is not None and again.player["kind"] == "account"
    assert signing_up.player is not None and again.player["id"] == signing_up.player["id"]
    await asyncio.sleep(0.3)
    await staying.ping()
    for client in (again, staying):
        await client.close()


async def test_a_session_ended_by_another_process_closes_the_socket_at_the_next_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the session ended elsewhere (another server process, or it expired), nothing
    wakes the socket: it checks its session every ``session_check_seconds``."""
    db = str(tmp_path / "h.db")
    async with live_server("sqlite", db, "", monkeypatch, session_check_seconds=0.2) as other:
        http = await other.account("elsewhere")
        client = await other.ws(http)
        await asyncio.sleep(0.5)
        await client.ping()  # checked and still valid
        player = client.player["id"] if client.player else ""
        await other.store.delete_sessions(player_id=player)  # as another process's logout
        assert await _ended(client) == (4003, "session_ended")


async def test_profile_rename_and_public_profile(live: Live) -> None:
    http = await live.account("renamer")
    response = await http.patch("/api/accounts/me", json={"name": "Neo Name"})
    assert response.status_code == 200 and response.json()["player"]["name"] == "Neo Name"
    bad = await http.patch("/api/accounts/me", json={"name": "visit www.spam.com"})
    assert bad.status_code == 400
    pid = response.json()["player"]["id"]
    async with live.http() as anyone:
        public = (await anyone.get(f"/api/players/{pid}")).json()
        assert public["player"]["name"] == "Neo Name" and public["tier"]["name"] == "Newcomer"
        assert (await anyone.get("/api/accounts/me")).status_code == 401
        missing = await anyone.get("/api/players/a_nobody")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        tiers = (await anyone.get("/api/tiers")).json()
        assert [t["name"] for t in tiers["tiers"]] == [
            "Newcomer",
            "Jack",
            "Queen",
            "King",
            "Ace",
            "Hakem",
        ]
    await http.aclose()


async def test_a_guest_becomes_an_account_keeps_its_history_and_its_guest_token_dies(
    live: Live,
) -> None:
    """A guest plays a game with bots, registers: same id, the game and its points stay."""
    guest = HokmClient(live.url, name="Mehman")
    await guest.connect()
    code = await guest.create_room(rules={"target_points": 1})
    await guest.join(code)
    await guest.command("sit", seat=0)
    for seat in (1, 2, 3):
        await guest.command("add_bot", seat=seat, level="random")
    await guest.command("start")
    await autoplay(guest)
    won = game_result(guest).winner_team == 0
    await guest.close()
    guest_token = guest.token
    assert guest_token is not None and guest.player is not None
    guest_id = guest.player["id"]
    async with live.http() as http:
        http.cookies.set("hokm_guest", guest_token)
        response = await http.post(
            "/api/accounts/register", json={"username": "mehman", "password": "password-1"}
        )
        assert response.status_code == 201
        assert response.json()["player"] == {"id": guest_id, "name": "Mehman", "kind": "account"}
        assert response.json()["upgraded"] is True
        profile = (await http.get("/api/accounts/me")).json()
        assert profile["player"]["id"] == guest_id
        assert profile["games_played"] == 1 and profile["points"] == (1 if won else 0)
        assert profile["recent_games"][0]["game_id"] == f"{code}-1"
    async with live.http() as old:
        me = await old.get("/api/me", headers={"Authorization": f"Bearer {guest_token}"})
        assert me.status_code == 401  # the guest token no longer opens the account


async def test_openapi_describes_the_accounts_endpoints(live: Live) -> None:
    async with live.http() as http:
        paths = (await http.get("/openapi.json")).json()["paths"]
    assert {"post"} <= set(paths["/api/accounts/register"])
    assert {"get", "patch"} <= set(paths["/api/accounts/me"])
    assert "429" in paths["/api/accounts/login"]["post"]["responses"]
    assert "/api/quick/join" in paths and "/api/leaderboard" in paths
    assert "/api/rooms" in paths  # the server's own paths stay


async def test_an_account_deleted_with_its_password_is_gone_for_good(live: Live) -> None:
    """DELETE /api/accounts/me with the password erases the account: its sessions and sockets
    end, its profile, points and place on the leaderboard go, the username is free again, and
    a game it finishes later records nothing for it. The other player keeps the game. A wrong
    or missing password changes nothing (and counts as a failed login)."""
    leaving = await live.account("leaving_one", "first-password")
    staying = await live.account("staying_one")
    gone_id = (await leaving.get("/api/me")).json()["player"]["id"]
    kept_id = (await staying.get("/api/me")).json()["player"]["id"]
    game = GameOutcome(f"DEL{time.monotonic_ns()}", (gone_id, None, kept_id, None), 0)
    assert await live.store.record_game(game)
    assert (await leaving.get("/api/accounts/me")).json()["points"] == 1
    socket = await live.ws(leaving)
    for body in ({"password": "wrong-password"}, {}, {"password": 7}):
        refused = await leaving.request("DELETE", "/api/accounts/me", json=body)
        assert refused.status_code in (400, 401), refused.text
        if body == {"password": "wrong-password"}:
            assert refused.json()["message_fa"] == "گذرواژه نادرست است", refused.text
        assert (await leaving.get("/api/accounts/me")).status_code == 200  # nothing changed
    done = await leaving.request("DELETE", "/api/accounts/me", json={"password": "first-password"})
    assert done.status_code == 200 and done.json() == {"ok": True}
    assert "hokm_session" not in leaving.cookies  # the cookie is cleared
    assert await _ended(socket) == (4003, "session_ended")
    assert (await leaving.get("/api/accounts/me")).status_code == 401
    assert (await staying.get(f"/api/players/{gone_id}")).status_code == 404
    board = (await staying.get("/api/leaderboard", params={"per_page": 100})).json()
    assert gone_id not in [e["player_id"] for e in board["entries"]]
    async with live.http() as other:
        login = {"username": "leaving_one", "password": "first-password"}
        assert (await other.post("/api/accounts/login", json=login)).status_code == 401
        again = {"username": "leaving_one", "password": "another password"}
        reborn = await other.post("/api/accounts/register", json=again)
        assert reborn.status_code == 201 and reborn.json()["player"]["id"] != gone_id
        assert (await other.get("/api/accounts/me")).json()["points"] == 0
    # The other player keeps the game; one the deleted account finishes later counts for the
    # others only, and brings nothing of it back.
    kept = (await staying.get("/api/accounts/me")).json()
    assert kept["points"] == 1 and [g["game_id"] for g in kept["recent_games"]] == [game.game_id]
    later = GameOutcome(f"DEL{time.monotonic_ns()}", (gone_id, None, kept_id, None), 0)
    assert await live.store.record_game(later)
    assert (await staying.get("/api/accounts/me")).json()["points"] == 2
    assert await live.store.profile(gone_id) is None
    assert await live.store.stats(gone_id) == {"points": 0, "games_played": 0, "games_won": 0}
    await staying.aclose()
    await leaving.aclose()


async def test_an_account_deleted_in_a_game_leaves_it_and_the_game_goes_on(live: Live) -> None:
    """Deleted while seated in a game in progress: the account leaves the room at once (a
    bot takes its seat, as for a leave), so the others' game goes on rather than waiting out
    the grace periods of a player who cannot come back and being cancelled."""
    http = await live.account("seated_leaver", "first-password")
    player = await live.ws(http)
    gone_id = str((player.player or {})["id"])
    code = await player.create_room()
    await player.join(code)
    await player.command("sit", seat=0)
    async with HokmClient(live.url, name="Partner") as partner:
        await partner.join(code)
        await partner.command("sit", seat=2)
        for seat in (1, 3):
            await player.command("add_bot", seat=seat, level="random")
        await player.command("start")
        await partner.wait_event("game_started")
        body = {"password": "first-password"}
        assert (await http.request("DELETE", "/api/accounts/me", json=body)).status_code == 200
        await partner.wait_for(
            lambda c: any(
                e["event"]["kind"] == "member_left" and e["event"]["player"] == gone_id
                for e in c.events
            ),
            timeout=5,
        )
        left = next(e["event"] for e in partner.events if e["event"]["kind"] == "member_left")
        assert left["forfeit"] is True and left["seat"] == 0
        snap = await partner.join(code)
        assert snap["table"]["status"] == "playing"
        assert snap["table"]["seats"][0]["kind"] == "bot"
        assert partner.player is not None
        assert partner.player["id"] == snap["table"]["owner"]  # the room passed on to them
    await http.aclose()


async def test_leaderboard_pages_are_limited_per_address(live: Live) -> None:
    """A page the store does not keep reads every account (a quarter to half a second at
    100,000), and each page number and size is its own page: anyone could ask page 1, 2,
    3… without end and keep the database busy. An address gets 30 such reads at once, then
    one every 2 seconds (429 with Retry-After beyond); another address is not affected, and
    a page the store keeps is answered to anyone (many players behind one carrier's address
    look at the same first page)."""
    async with live.http() as http:
        here = {"X-Forwarded-For": "203.0.113.77"}
        for page in range(1, 31):
            asked = await http.get("/api/leaderboard", params={"page": page}, headers=here)
            assert asked.status_code == 200, asked.text
        over = await http.get("/api/leaderboard", params={"page": 31}, headers=here)
        assert over.status_code == 429 and over.json()["code"] == "rate_limited"
        assert int(over.headers["retry-after"]) >= 1 and over.json()["message_fa"]
        for _ in range(5):  # kept: answered
            kept = await http.get("/api/leaderboard", params={"page": 1}, headers=here)
            assert kept.status_code == 200
        there = {"X-Forwarded-For": "203.0.113.78"}
        assert (await http.get("/api/leaderboard", headers=there)).status_code == 200


async def test_a_new_display_name_counts_against_the_address_limit(live: Live) -> None:
    """Each new name was a write and made the leaderboards kept be read again for everyone
    (a name is on them), without any limit: it counts against the address's new guests and
    names now, as a guest's rename does; a name refused for its input does not count."""
    http = await live.account("often_renamed")
    here = {"X-Forwarded-For": "203.0.113.88"}
    bad = await http.patch("/api/accounts/me", json={"name": "see www.example.com"}, headers=here)
    assert bad.status_code == 400
    for n in range(30):
        named = await http.patch("/api/accounts/me", json={"name": f"Name {n}"}, headers=here)
        assert named.status_code == 200, (n, named.text)
    over = await http.patch("/api/accounts/me", json={"name": "One more"}, headers=here)
    assert over.status_code == 429 and over.json()["code"] == "rate_limited"
    assert (await http.get("/api/accounts/me")).json()["player"]["name"] == "Name 29"
