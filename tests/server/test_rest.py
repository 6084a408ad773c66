"""REST endpoints of a real server: identity, rooms, rules, verification, OpenAPI, static files."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sqlite3
from pathlib import Path

import httpx
import pytest
import websockets
from sqlalchemy.ext.asyncio import create_async_engine

import hokm
from hokm.engine import Deal, Seat, seed_commitment
from hokm.engine.records import check_deal
from hokm.server import create_app
from hokm.server.app import WEB_DIR
from hokm.server.auth import TokenSigner
from tests.server.helpers import running_server, settings, table_with_bots


async def test_guest_identity_is_a_signed_cookie(server: str) -> None:
    """POST /api/guest sets a cookie; /api/me knows it; renaming keeps the id."""
    async with httpx.AsyncClient(base_url=server) as http:
        assert (await http.get("/api/me")).status_code == 401
        first = await http.post("/api/guest", json={"name": "  Sara  "})
        assert first.status_code == 200
        player = first.json()["player"]
        assert player["name"] == "Sara" and player["id"].startswith("g_")
        assert "hokm_guest" in first.cookies
        me = await http.get("/api/me")
        assert me.json()["player"] == player
        renamed = await http.post("/api/guest", json={"name": "سارا"})
        assert renamed.json()["player"]["id"] == player["id"]
        assert (await http.get("/api/me")).json()["player"]["name"] == "سارا"
    async with httpx.AsyncClient(base_url=server) as other:
        forged = player["id"] + ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        bad = await other.get("/api/me", headers={"Authorization": f"Bearer {forged}"})
        assert bad.status_code == 401
        assert bad.json()["code"] == "unauthorized" and bad.json()["message_fa"]


async def test_the_session_says_who_and_where_their_game_goes_on(server: str) -> None:
    """/api/session answers 200 for nobody (a page asks it before it knows), names the
    caller, the server's features, and the rooms where the caller's game is in progress."""
    async with httpx.AsyncClient(base_url=server) as http:
        nobody = await http.get("/api/session")
        assert nobody.status_code == 200
        assert nobody.json()["player"] is None and nobody.json()["playing"] == []
        assert "accounts" in nobody.json()["features"]  # the accounts plugin is installed
    owner, code = await table_with_bots(server, name="Sara")
    try:
        headers = {"Authorization": f"Bearer {owner.token}"}
        async with httpx.AsyncClient(base_url=server, headers=headers) as http:
            lobby = (await http.get("/api/session")).json()
            assert lobby["player"]["name"] == "Sara" and lobby["playing"] == []  # not started
            await owner.command("start")
            playing = (await http.get("/api/session")).json()
            assert playing["playing"] == [code]
        async with httpx.AsyncClient(base_url=server) as other:
            await other.post("/api/guest", json={"name": "Ann"})
            assert (await other.get("/api/session")).json()["playing"] == []  # not Ann's game
    finally:
        await owner.close()


async def test_a_signed_token_of_an_unknown_player_does_not_hide_the_cookie(
    server: str,
) -> None:
    """A token signed by this server for a player it does not know (e.g. from a wiped
    database) is passed over for the guest cookie that does identify the caller."""
    ghost = TokenSigner(b"test-secret").sign("g_ghostghost")  # the test server's secret
    async with httpx.AsyncClient(base_url=server) as http:
        player = (await http.post("/api/guest", json={"name": "Sara"})).json()["player"]
        me = await http.get("/api/me", headers={"Authorization": f"Bearer {ghost}"})
        assert me.status_code == 200 and me.json()["player"]["id"] == player["id"]
    async with httpx.AsyncClient(base_url=server) as cookieless:
        alone = await cookieless.get("/api/me", headers={"Authorization": f"Bearer {ghost}"})
        assert alone.status_code == 401


async def test_a_token_or_cookie_with_other_than_ascii_identifies_nobody(server: str) -> None:
    """A guest token whose signature is not ASCII was compared with hmac.compare_digest on
    str, which raises: every request with such a cookie or bearer token was a 500."""
    async with httpx.AsyncClient(base_url=server) as http:
        token = (await http.post("/api/guest", json={"name": "Sara"})).json()["token"]
    for bad in (token[:-1] + "ü", "ü.ü"):
        async with httpx.AsyncClient(base_url=server) as http:
            me = await http.get("/api/me", headers={"Authorization": f"Bearer {bad}".encode()})
            assert me.status_code == 401 and me.json()["code"] == "unauthorized"
            cookie = {"Cookie": f"hokm_guest={bad}".encode()}
            session = await http.get("/api/session", headers=cookie)
            assert session.status_code == 200 and session.json()["player"] is None


async def test_bad_names_and_bodies_are_refused(server: str) -> None:
    """Links, empty names, non-JSON bodies: 400 with a code and Persian text."""
    async with httpx.AsyncClient(base_url=server) as http:
        for body, why in (
            ({"name": "visit www.example.com"}, "پیوند"),  # the Persian text says why
            ({"name": "call 0912 123 4567"}, "تلفن"),
            ({"name": ""}, "بنویسید"),
            ({"name": 5}, "متن"),
            ({}, "متن"),
            ({"name": "\u0405ara"}, "هم‌شکل"),  # a Cyrillic Ѕ to pass for "Sara"
            ({"name": "S\u0430ra"}, "هم‌شکل"),  # a Cyrillic а
            ({"name": "Sara\u034f"}, "خالی"),  # an invisible mark after it
            ({"name": "\u3164"}, "خالی"),  # shown as a blank
            ({"name": "\u2800"}, "خالی"),
            ({"name": "example.c\u200com"}, "پیوند"),
            ({"name": "Sara" + "\u0301\u0316" * 10}, "نشانه"),  # marks stacked over the seats
        ):
            answer = await http.post("/api/guest", json=body)
            assert answer.status_code == 400 and answer.json()["code"] == "bad_name"
            assert why in answer.json()["message_fa"], body
        for fine in ("Sara سارا", "Ali 😀", "😀", "José", "مریم\u200cالسادات", "محمّدَ"):
            answer = await http.post("/api/guest", json={"name": fine})
            assert answer.status_code == 200 and answer.json()["player"]["name"] == fine
        answer = await http.post("/api/guest", content=b"{nope")
        assert answer.status_code == 400 and answer.json()["code"] == "bad_json"


async def test_rooms_are_created_and_found_by_code(server: str) -> None:
    """A room gets a code and link; lookups ignore case; an unknown code is 404."""
    async with httpx.AsyncClient(base_url=server) as http:
        assert (await http.post("/api/rooms", json={})).status_code == 401
        await http.post("/api/guest", json={"name": "Ann"})
        made = await http.post(
            "/api/rooms", json={"preset": "classic", "rules": {"target_points": 3}}
        )
        assert made.status_code == 201
        code = made.json()["code"]
        assert made.json()["link"].endswith(f"/r/{code}")
        info = (await http.get(f"/api/rooms/{code.lower()}")).json()
        assert info["code"] == code and info["status"] == "lobby" and info["quick"] is False
        assert info["rules"]["bam"] is True and info["rules"]["target_points"] == 3
        assert (await http.get("/api/rooms/ZZZZZZ")).status_code == 404
        assert (await http.get(f"/api/rooms/{code}/games")).json() == {"games": []}
        bad = await http.post("/api/rooms", json={"rules": {"target_points": 0}})
        assert bad.status_code == 400 and bad.json()["code"] == "bad_rules"
        # A room's maxima hold here too, as in the lobby (999 made a game that never ends).
        big = await http.post("/api/rooms", json={"rules": {"target_points": 999}})
        assert big.status_code == 400 and big.json()["code"] == "bad_rules"
        assert "target_points at a table is at most 21" in big.json()["message"]
        assert "حداکثر ۲۱" in big.json()["message_fa"]
        link = await http.get(f"/r/{code}", follow_redirects=False)
        assert link.status_code == 302 and link.headers["location"] == f"/?room={code}"
        # A code that cannot exist still reaches the room page, which says so; not a code at
        # all: home.
        for path, where in (("/r/zzzzzz", "/?room=ZZZZZZ"), ("/r/%3Cb%3E", "/")):
            link = await http.get(path, follow_redirects=False)
            assert link.status_code == 302 and link.headers["location"] == where, path
        missing = await http.get("/api/games/NOPE-1/record")
        assert missing.status_code == 404
        assert missing.json()["message_fa"].endswith("بازی تمام‌شده‌ای با این شناسه نیست")


async def test_rules_presets_phrases_health_and_openapi(server: str) -> None:
    """The rule options, presets, chat phrases and the OpenAPI document are served."""
    async with httpx.AsyncClient(base_url=server) as http:
        options = {o["name"]: o for o in (await http.get("/api/rules")).json()["options"]}
        assert options["failed_bam"]["choices"] == ["minus3", "kot"]
        assert options["bam"] == {"name": "bam", "default": False, "type": "boolean"}
        turn = options["turn_seconds"]  # more than 0 (0 is refused), at most a day
        assert (turn["exclusive_min"], turn["max"]) == (0, 86400) and "min" not in turn
        presets = (await http.get("/api/presets")).json()["presets"]
        assert presets["platform-b"]["turn_seconds"] == 30
        phrases = (await http.get("/api/chat/phrases")).json()
        assert any(p["id"] == "well_played" for p in phrases["phrases"])
        assert (await http.get("/api/health")).json()["ok"] is True
        spec = (await http.get("/openapi.json")).json()
        assert spec["openapi"].startswith("3.") and "/api/rooms" in spec["paths"]


async def test_openapi_describes_every_rest_endpoint(tmp_path: Path) -> None:
    """Every /api route the server answers (the core's and the accounts plugin's) is in
    /openapi.json with its methods: a new endpoint without a description fails here."""
    app = create_app(settings(tmp_path / "hokm.db"))
    async with (
        running_server(settings(tmp_path / "hokm.db"), app) as url,
        httpx.AsyncClient(base_url=url) as http,
    ):
        paths = (await http.get("/openapi.json")).json()["paths"]
    for route in app.routes:
        path = getattr(route, "path", "")
        if not path.startswith("/api/"):
            continue
        assert path in paths, f"{path} is not in /openapi.json"
        methods = {m.lower() for m in getattr(route, "methods", set())} - {"head"}
        assert methods <= set(paths[path]), (path, methods, set(paths[path]))


async def test_health_says_when_the_database_does_not_answer(tmp_path: Path) -> None:
    """/api/health asks the database: ``database: false`` when it does not answer (here the
    storage's engine pointed at a port where no database listens), a 503 then with
    ``?ready=1``; the process itself is alive (200)."""
    app = create_app(settings(tmp_path / "hokm.db"))
    async with (
        running_server(settings(tmp_path / "hokm.db"), app) as url,
        httpx.AsyncClient(base_url=url) as http,
    ):
        healthy = await http.get("/api/health")
        assert healthy.status_code == 200 and healthy.json()["database"] is True
        storage = app.state.hokm.storage
        working = storage.engine
        storage.engine = create_async_engine("postgresql+asyncpg://hokm@127.0.0.1:9/none")
        try:
            down = await http.get("/api/health")
            not_ready = await http.get("/api/health?ready=1")
        finally:
            await storage.engine.dispose()
            storage.engine = working
        assert not_ready.status_code == 503 and not_ready.json()["database"] is False
        assert down.status_code == 200  # the process is alive
        assert down.json()["ok"] is True and down.json()["database"] is False
        assert (await http.get("/api/health?ready=1")).status_code == 200  # it answers again


async def test_every_response_carries_the_security_headers(server: str) -> None:
    """A strict policy on every HTTP answer (API too); the WebSocket's own host is named for
    browsers whose 'self' does not cover ws:/wss:, and a forged Host header names nothing."""
    async with httpx.AsyncClient(base_url=server) as http:
        answer = await http.get("/api/health", headers={"Host": "hokm.example:8443"})
        policy = answer.headers["content-security-policy"]
        assert "connect-src 'self' ws://hokm.example:8443 wss://hokm.example:8443;" in policy
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
        forged = await http.get("/api/health", headers={"Host": "x.example; script-src *"})
        assert "connect-src 'self';" in forged.headers["content-security-policy"]
        assert "script-src *" not in forged.headers["content-security-policy"]


async def test_verify_rederives_the_deal(server: str) -> None:
    """POST /api/verify checks a seed against its commitment and the dealt cards."""
    deal = Deal.from_seed("abc", Seat(2))
    cards = [[str(c) for c in hand] for hand in deal.hands]
    async with httpx.AsyncClient(base_url=server) as http:
        good = await http.post(
            "/api/verify",
            json={
                "seed": "abc",
                "seed_commitment": seed_commitment("abc"),
                "hakem": 2,
                "cards": cards,
            },
        )
        assert good.json()["ok"] is True and good.json()["cards"] == cards
        cards[0][0], cards[1][0] = cards[1][0], cards[0][0]
        bad = await http.post(
            "/api/verify",
            json={
                "seed": "abc",
                "seed_commitment": seed_commitment("abd"),
                "hakem": 2,
                "cards": cards,
            },
        )
        assert bad.json()["ok"] is False
        assert bad.json()["commitment_ok"] is False and bad.json()["cards_ok"] is False
        nonsense = await http.post("/api/verify", json={"seed": "abc", "hakem": 9})
        assert nonsense.status_code == 400
        # A misspelt field checked nothing and answered "ok": refused, naming it.
        for body in (
            {"seed": "abc", "hakem": 2, "commitment": seed_commitment("abd")},
            {"seed": "abc", "hakem": True},
            {"seed": "abc", "hakem": "2"},
            {"seed": "abc", "seed_commitment": 5},
        ):
            answer = await http.post("/api/verify", json=body)
            assert answer.status_code == 400 and answer.json()["code"] == "bad_request", body
        said = (await http.post("/api/verify", json={"seed": "abc", "cardz": []})).json()
        assert "'cardz'" in said["message"] and "cardz" in said["message_fa"]


async def test_verify_agrees_with_hokm_verify(server: str) -> None:
    """The same deal checks out as `hokm verify` says (check_deal): a commitment in capitals
    or with spaces around it, and hands in another order (sorted, as a player sees them) or
    case, are the same commitment and the same hands. It once compared the texts and the
    dealing order, so a hand sorted by suit "did not match the seed"."""
    deal = Deal.from_seed("abc", Seat(2))
    sorted_hands = [sorted(str(c).lower() for c in hand) for hand in deal.hands]
    body = {
        "seed": "abc",
        "seed_commitment": f" {seed_commitment('abc').upper()} ",
        "hakem": 2,
        "cards": sorted_hands,
    }
    assert check_deal(
        "abc", commitment=body["seed_commitment"], hakem=2, cards=dict(enumerate(sorted_hands))
    ).ok
    async with httpx.AsyncClient(base_url=server) as http:
        answer = (await http.post("/api/verify", json=body)).json()
        assert (answer["ok"], answer["commitment_ok"], answer["cards_ok"]) == (True, True, True)
        assert answer["cards"] == [[str(c) for c in hand] for hand in deal.hands]  # dealt order
        short = await http.post(
            "/api/verify", json={**body, "cards": [h[:12] for h in sorted_hands]}
        )
        assert (short.json()["ok"], short.json()["cards_ok"]) == (False, False)


async def test_verify_says_how_long_a_seed_may_be(server: str) -> None:
    """An empty or overlong seed is still a string: the refusal said "seed must be a string"."""
    async with httpx.AsyncClient(base_url=server) as http:
        for seed in ("", "x" * 201):
            refused = await http.post("/api/verify", json={"seed": seed})
            assert refused.status_code == 400
            assert "seed must be a string of 1 to 200 characters" in refused.json()["message"]


async def test_the_web_client_is_served_at_the_root(tmp_path: Path) -> None:
    """The static directory is mounted at / once it has an index.html."""
    web = tmp_path / "web"
    web.mkdir()
    config = settings(tmp_path / "h.db", web_dir=str(web))
    async with running_server(config) as url, httpx.AsyncClient(base_url=url) as http:
        assert (await http.get("/")).status_code == 404
        (web / "index.html").write_text("<h1>حکم</h1>", encoding="utf-8")
        page = await http.get("/")
        assert page.status_code == 200 and "حکم" in page.text


async def test_the_web_client_s_files_are_sent_gzipped_to_browsers_that_take_it(
    server: str,
) -> None:
    """A phone on a slow network loads the scripts a third of their size; a client that does
    not say it takes gzip gets them as written, and a revalidation still gets 304 (each load
    revalidates: ``no-cache``). The API's answers are not compressed."""
    written = (WEB_DIR / "js" / "table.js").read_bytes()
    async with httpx.AsyncClient(base_url=server) as http:
        packed = await http.get("/js/table.js", headers={"Accept-Encoding": "gzip"})
        assert packed.headers["content-encoding"] == "gzip"
        assert "accept-encoding" in packed.headers["vary"].lower()
        assert int(packed.headers["content-length"]) < len(written) / 2
        assert packed.content == written  # (httpx unpacks it)
        assert "content-security-policy" in packed.headers
        assert packed.headers["cache-control"] == "no-cache"  # (never old modules after an upgrade)
        plain = await http.get("/js/table.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == written
        etag = plain.headers["etag"]
        again = await http.get(
            "/js/table.js", headers={"Accept-Encoding": "gzip", "If-None-Match": etag}
        )
        assert again.status_code == 304 and not again.content
        api = await http.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
        assert len(api.content) > 1024 and "content-encoding" not in api.headers


async def test_the_web_client_can_be_installed_on_a_phone(server: str) -> None:
    """A web app manifest (its own type, Persian and right-to-left first) with icons of the
    sizes phones ask for, all served, and linked from the page with the theme colour."""
    async with httpx.AsyncClient(base_url=server) as http:
        page = (await http.get("/")).text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page
        assert '<meta name="theme-color"' in page and 'rel="apple-touch-icon"' in page
        answer = await http.get("/manifest.webmanifest")
        assert answer.headers["content-type"].startswith("application/manifest+json")
        manifest = answer.json()
        assert (manifest["lang"], manifest["dir"], manifest["short_name"]) == ("fa", "rtl", "حکم")
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
        sizes = {icon["sizes"] for icon in manifest["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in [
            *manifest["icons"],
            {"src": "/icons/apple-touch-icon.png", "type": "image/png"},
        ]:
            image = await http.get(icon["src"])
            assert image.status_code == 200, icon
            assert image.headers["content-type"].startswith(icon["type"]), icon
            if icon["type"] == "image/png":
                assert image.content[:8] == b"\x89PNG\r\n\x1a\n"
                width = int.from_bytes(image.content[16:20], "big")
                assert icon.get("sizes", "180x180") == f"{width}x{width}"


async def test_metrics_report_garbage_collector_pauses(server: str) -> None:
    """The server times every collection of its process; a full collection shows in gen2."""
    async with httpx.AsyncClient(base_url=server) as http:
        before = (await http.get("/api/metrics")).json()["gc"]["gen2"]["count"]
        gc.collect()  # the test and the server share this process
        after = (await http.get("/api/metrics")).json()["gc"]
    assert after["gen2"]["count"] >= before + 1
    assert after["gen2"]["max_ms"] > 0
    assert set(after) == {"gen0", "gen1", "gen2"}
    # which process answers, for how long it has served, in which version
    async with httpx.AsyncClient(base_url=server) as http:
        first = (await http.get("/api/metrics")).json()
        await asyncio.sleep(0.2)
        second = (await http.get("/api/metrics")).json()
    assert first["node"] is None  # a server alone (a cluster's process: its node id)
    assert first["version"] == hokm.__version__
    assert 0 <= first["uptime"] < second["uptime"]
    async with httpx.AsyncClient(base_url=server) as http:
        bad = await http.get("/api/metrics?since=abc")
    assert bad.status_code == 400 and "since" in bad.json()["message"]


async def test_refused_requests_leave_nothing_behind(tmp_path: Path) -> None:
    """Bodies the server cannot store or check get a 400, never a 500, and a refused room
    leaves no half-made room behind (it once answered 500 on every later lookup)."""
    db = tmp_path / "hokm.db"
    async with running_server(settings(db)) as url, httpx.AsyncClient(base_url=url) as http:
        await http.post("/api/guest", json={"name": "Ann"})
        bodies = [
            b'{"preset": ""}',  # no preset: the default rules, a real room
            b'{"rules": {"target_points": 1180591620717411303424}}',
            b'{"preset": "nope"}',
            b'{"rules": {"target_points": NaN}}',
            b'{"preset": "classic\\ud800"}',
        ]
        answers = [await http.post("/api/rooms", content=body) for body in bodies]
        assert [a.status_code for a in answers] == [201, 400, 400, 400, 400]
        assert [a.json()["code"] for a in answers[1:]] == [
            "bad_rules",
            "bad_rules",
            "bad_json",
            "bad_json",
        ]
        made = answers[0].json()["code"]
        assert (await http.get(f"/api/rooms/{made}")).json()["rules"]["target_points"] == 7
        for body in (
            {"seed": "s", "cards": [1, 2, 3, 4]},
            {"seed": "s", "cards": [None, None, None, None]},
            {"seed": "s", "cards": [["AS"], ["ZZ"], [], []]},
        ):
            answer = await http.post("/api/verify", json=body)
            assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
        answer = await http.post("/api/verify", content=b'{"seed": "\\ud800"}')
        assert answer.status_code == 400 and answer.json()["code"] == "bad_json"
    with sqlite3.connect(db) as con:
        assert con.execute("select code from hokm_rooms").fetchall() == [(made,)]


async def test_refused_requests_do_not_use_up_the_address_limit(tmp_path: Path) -> None:
    """New guests and rooms are limited per address; a request refused for its input (a
    bad name, bad rules, no identity) changes nothing, so it does not count either: three
    typos used to lock an address (a school's, a carrier's) out of new guests."""
    config = settings(tmp_path / "h.db", creations_per_second=0.0, creations_burst=3.0)
    here = {"X-Forwarded-For": "203.0.113.9"}
    async with running_server(config) as url:
        for _ in range(3):
            async with httpx.AsyncClient(base_url=url, headers=here) as http:
                bad = await http.post("/api/guest", json={"name": "see www.example.com"})
                assert bad.status_code == 400 and bad.json()["code"] == "bad_name"
                nobody = await http.post("/api/rooms", json={})
                assert nobody.status_code == 401
        async with httpx.AsyncClient(base_url=url, headers=here) as http:
            assert (await http.post("/api/guest", json={"name": "Sara"})).status_code == 200
            for body in ({"preset": "nope"}, {"rules": {"target_points": 99}}, {"x": 1}):
                assert (await http.post("/api/rooms", json=body)).status_code == 400
            assert (await http.post("/api/rooms", json={})).status_code == 201
        async with httpx.AsyncClient(base_url=url, headers=here) as http:
            assert (await http.post("/api/guest", json={"name": "Ali"})).status_code == 200
        async with httpx.AsyncClient(base_url=url, headers=here) as http:  # the fourth
            over = await http.post("/api/guest", json={"name": "Reza"})
            assert over.status_code == 429 and over.json()["code"] == "rate_limited"
            # In Persian too it says what was too many (it said "messages sent too fast").
            assert "مهمان یا اتاق تازه از این نشانی" in over.json()["message_fa"]


async def test_an_ipv6_network_is_one_address_for_the_limits(tmp_path: Path) -> None:
    """A subscriber's IPv6 network is a /64: 2^64 addresses to one machine. Counted apart,
    each address of it made its own guests (and rooms, sockets, password guesses): the
    limits count the /64, and an IPv4 address written as IPv6 as that IPv4 address."""
    config = settings(tmp_path / "h.db", creations_per_second=0.0, creations_burst=2.0)
    async with running_server(config) as url, httpx.AsyncClient(base_url=url) as http:

        async def guest(address: str) -> int:
            answer = await http.post(
                "/api/guest", json={"name": "Sara"}, headers={"X-Forwarded-For": address}
            )
            http.cookies.clear()
            return answer.status_code

        assert [await guest(f"2001:db8:5:6::{n}") for n in (1, 2, 3)] == [200, 200, 429]
        assert await guest("2001:db8:5:6:ffff:ffff:ffff:ffff") == 429
        assert await guest("2001:db8:5:7::1") == 200  # another subscriber
        assert [await guest(a) for a in ("203.0.113.7", "::ffff:203.0.113.7")] == [200, 200]
        assert await guest("203.0.113.7") == 429


async def test_guessing_room_codes_is_limited_per_address(server: str) -> None:
    """A code is all that keeps a private room to its guests: looking codes up that name no
    room was unlimited (thousands a second from one client). An address gets 30 misses at
    once, then one every 2 seconds (429); a room that is there is always found, and another
    address is not affected."""
    here = {"X-Forwarded-For": "203.0.113.44"}
    async with httpx.AsyncClient(base_url=server, headers=here) as http:
        await http.post("/api/guest", json={"name": "Sara"})
        code = (await http.post("/api/rooms", json={})).json()["code"]
        guesses = [f"{c}{c}{c}{c}{c}{c}" for c in "3469ACDEFGHJKMNPQRTWXY"]
        for guess in guesses + [g.lower() for g in guesses[:8]]:
            assert guess != code
            missed = await http.get(f"/api/rooms/{guess}")
            assert missed.status_code == 404, missed.text
        over = await http.get("/api/rooms/777777")
        assert over.status_code == 429 and over.json()["code"] == "rate_limited"
        games = await http.get("/api/rooms/777777/games")
        assert games.status_code == 429
        assert (await http.get(f"/api/rooms/{code}")).status_code == 200
        # A join over the WebSocket counts with them (each guest had its own joins to try).
        url = server.replace("http", "ws") + "/ws"
        token = (await http.post("/api/guest", json={"name": "Ali"})).json()["token"]
        async with websockets.connect(url, additional_headers=here) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "join", "code": "777777"}))
            refused = json.loads(await ws.recv())
            assert refused["code"] == "rate_limited" and refused["command"] == "join"
            await ws.send(json.dumps({"type": "join", "code": code}))
            assert json.loads(await ws.recv())["type"] == "snapshot"
    async with httpx.AsyncClient(base_url=server) as other:
        missed = await other.get("/api/rooms/777777", headers={"X-Forwarded-For": "203.0.113.45"})
        assert missed.status_code == 404


async def _post_raw(url: str, path: str, head: str, body: bytes) -> bytes:
    """POST ``body`` after the headers ``head`` on a raw socket, never finishing the body
    announced; the status line of the answer (b"" if none comes in 5 s)."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}\r\n{head}\r\n".encode() + body)
        await writer.drain()
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(reader.readline(), 5.0)
        return b""
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_a_body_too_large_is_refused_before_it_is_read(server: str) -> None:
    """A body over an endpoint's limit is refused as soon as its length is known, announced
    or sent: the server once read (and held) a body of any size before it looked at it, and
    waited for all of a gigabyte announced."""
    json_head = "Content-Type: application/json\r\n"
    for path, status in (
        ("/api/guest", b" 413 "),
        ("/api/sim/state", b" 400 "),
        ("/api/accounts/login", b" 400 "),
    ):
        announced = await _post_raw(
            server, path, json_head + "Content-Length: 1000000000\r\n", b"{" * 1000
        )
        assert status in announced, (path, announced)
        chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"  # chunks of 16 KiB, no end said
        chunked = json_head + "Transfer-Encoding: chunked\r\n"
        sent = await _post_raw(server, path, chunked, chunk * 4)
        assert status in sent, (path, sent)
    async with httpx.AsyncClient(base_url=server) as http:  # a body within the limit is read
        answer = await http.post("/api/guest", content=b" " * 9000 + b'{"name": "Sara"}')
        assert answer.status_code == 200 and answer.json()["player"]["name"] == "Sara"


async def test_health_says_when_writes_fail_and_the_log_says_it_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A full disk or a read-only file: reads work, writes fail. /api/health says
    ``database: false`` (503 with ``?ready=1``) while they fail, the failure is logged once
    with its traceback (not once per write), and its end once, with the count."""
    import sqlalchemy as sa

    from hokm.storage import PlayerRow, StorageError

    app = create_app(settings(tmp_path / "hokm.db"))
    readonly = [False]
    async with (
        running_server(settings(tmp_path / "hokm.db"), app) as url,
        httpx.AsyncClient(base_url=url) as http,
    ):
        storage = app.state.hokm.storage

        def begin(conn: sa.Connection) -> None:  # SQLite's own refusal of every write
            conn.exec_driver_sql(f"PRAGMA query_only={int(readonly[0])}")

        sa.event.listen(storage._sync_engine, "begin", begin)
        readonly[0] = True
        for n in range(3):
            with pytest.raises(StorageError, match="readonly"):
                await storage.save_player(PlayerRow(f"g_{n}", "Ali"))
        not_ready = await http.get("/api/health?ready=1")
        assert not_ready.status_code == 503 and not_ready.json()["database"] is False
        failed = [r for r in caplog.records if "storage write failed" in r.getMessage()]
        assert len(failed) == 1 and failed[0].exc_info is not None
        readonly[0] = False
        assert (await http.get("/api/health?ready=1")).status_code == 200
        await storage.save_player(PlayerRow("g_9", "Ali"))
    back = [r.getMessage() for r in caplog.records if "writes work again" in r.getMessage()]
    assert len(back) == 1 and "(4 failed meanwhile" in back[0]  # 3 saves and a probe


async def test_a_page_of_another_site_changes_nothing(server: str) -> None:
    """A request that changes something, sent by a browser from another site's page, is
    refused before it is read (403 bad_origin): another site's form of type text/plain
    posting {"username", "password": "…="} logged its visitor in as the attacker's account
    (the session cookie of the answer was kept). The same site, and scripts sending no
    Origin, are served; reading (GET) is not affected."""
    host = server.removeprefix("http://")
    evil = {"origin": "https://evil.example", "content-type": "text/plain"}
    async with httpx.AsyncClient(base_url=server) as http:
        made = await http.post(
            "/api/accounts/register", json={"username": "mallory", "password": "hunter22="}
        )
        assert made.status_code == 201
    # what <input name='{"username":"mallory","password":"hunter22' value='"}'> posts
    form = b'{"username":"mallory","password":"hunter22="}'
    async with httpx.AsyncClient(base_url=server) as victim:
        login = await victim.post("/api/accounts/login", content=form, headers=evil)
        assert login.status_code == 403 and login.json()["code"] == "bad_origin", login.text
        assert "hokm_session" not in login.cookies
        guest = (await victim.post("/api/guest", json={"name": "Vic"})).json()
        room = await victim.post("/api/rooms", json={}, headers={"origin": "null"})
        assert room.status_code == 403 and room.json()["message_fa"]
        assert (await victim.get("/api/session")).json()["playing"] == []
        assert (await victim.get("/api/rules", headers=evil)).status_code == 200
        same = {"origin": f"http://{host}", "content-type": "text/plain"}
        assert (await victim.post("/api/accounts/login", content=form, headers=same)).is_success
        assert (await victim.post("/api/rooms", json={}, headers=same)).status_code == 201
    assert guest["player"]["name"] == "Vic"
