"""Quick match, rating, leavers, bots and account points with real clients on a running server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from hokm.client import HokmClient
from tests.accounts.live import Live, autoplay, game_over, game_result, live_server

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _accounts(live: Live, prefix: str, n: int = 4) -> list[httpx.AsyncClient]:
    return [await live.account(f"{prefix}{i}") for i in range(n)]


async def _pid(http: httpx.AsyncClient) -> str:
    return str((await http.get("/api/me")).json()["player"]["id"])


async def _profile(http: httpx.AsyncClient) -> dict[str, Any]:
    response = await http.get("/api/accounts/me")
    assert response.status_code == 200
    return dict(response.json())


async def _match_four(live: Live, prefix: str) -> tuple[list[httpx.AsyncClient], dict[str, Any]]:
    """Four fresh accounts join the queue and are matched; returns their statuses by client."""
    people = await _accounts(live, prefix)
    answers = [(await p.post("/api/quick/join")).json() for p in people]
    assert [a["state"] for a in answers[:3]] == ["waiting"] * 3
    statuses = [(await p.get("/api/quick/status")).json() for p in people]
    assert {s["state"] for s in statuses} == {"matched"}
    assert len({s["code"] for s in statuses}) == 1
    return people, {"statuses": statuses, "code": statuses[0]["code"]}


async def _seated(live: Live, people: list[httpx.AsyncClient], code: str) -> list[HokmClient]:
    """Everyone connects and joins the room; the game starts once all are there."""
    clients = [await live.ws(p) for p in people]
    for client in clients:
        await client.join(code)
    for client in clients:
        await client.wait_event("game_started")
    return clients


async def _play_out(clients: list[HokmClient]) -> None:
    await asyncio.gather(*(autoplay(c) for c in clients))


async def test_four_humans_are_matched_into_a_platform_a_game(live: Live) -> None:
    """Four humans of similar rating get one room, all seated, rated, with the platform-a rules."""
    starter: Any = live.accounts.quick.start_match
    shortened, starter.overrides = starter.overrides, {}
    try:
        people, match = await _match_four(live, "quad")
    finally:
        starter.overrides = shortened
    statuses = match["statuses"]
    assert all(s["rated"] and s["preset"] == "platform-a" for s in statuses)
    assert sorted(s["seat"] for s in statuses) == [0, 1, 2, 3]
    clients = await _seated(live, people, match["code"])  # it starts once all are connected
    table = clients[0].table or {}
    rules = table["rules"]
    assert (rules["turn_seconds"], rules["trump_seconds"], rules["target_points"]) == (15, 20, 7)
    assert table["preset"] == "platform-a"
    assert table["quick"] is True  # pages offer another quick match after it
    assert [s["kind"] for s in table["seats"]] == ["human"] * 4
    for client in clients:
        await client.close()


async def test_a_rated_game_moves_winners_up_and_losers_down_once(live: Live) -> None:
    """At a quick game's end winners go up and losers down, exactly once; points +1 each."""
    people, match = await _match_four(live, "rated")
    statuses = match["statuses"]
    clients = await _seated(live, people, match["code"])
    await _play_out(clients)
    result = game_result(clients[0])
    assert result.status == "completed" and result.winner_team in (0, 1)
    profiles = [await _profile(p) for p in people]
    for status, profile in zip(statuses, profiles, strict=True):
        won = status["seat"] % 2 == result.winner_team
        assert profile["rated_games"] == 1 and profile["games_played"] == 1
        assert (profile["mu"] > 25) is won and (profile["mu"] < 25) is not won
        assert profile["points"] == (1 if won else 0) and profile["games_won"] == int(won)
        game = profile["recent_games"][0]
        assert game["quick"] and game["rated"] and game["result"] == ("won" if won else "lost")
        assert game["score"] == list(result.score)  # by team, from the stored game
        record = await people[0].get(game["record"])
        assert record.status_code == 200 and record.json()["format"] == "hokm-record/1"
    # the server reports the same game again (a retry): nothing changes
    again = await live.accounts.game_finished(
        result, game_id=f"{match['code']}-1", code=match["code"]
    )
    assert again is False
    assert [await _profile(p) for p in people] == profiles
    for client in clients:
        await client.close()


async def test_players_are_idle_again_once_their_quick_game_is_over(live: Live) -> None:
    """While the matched game is played its players are ``matched`` (a page loaded then
    offers the way back to it); once it is over they are ``idle``, and the queue keeps
    nothing of them or of the room (it kept every player ever matched until they joined the
    queue again, so a server up for weeks held one answer per player it had matched)."""
    people, match = await _match_four(live, "over")
    code = match["code"]
    ids = [await _pid(p) for p in people]
    clients = await _seated(live, people, code)
    assert {(await p.get("/api/quick/status")).json()["state"] for p in people} == {"matched"}
    # Seated in a game in progress, a player cannot wait for another quick game (two rated
    # games at once, a bot playing one); they are told which game is theirs.
    again = await people[0].post("/api/quick/join")
    assert again.status_code == 409 and again.json()["code"] == "in_game", again.text
    assert code in again.json()["message_fa"]
    assert (await people[0].get("/api/quick/status")).json()["state"] == "matched"
    await _play_out(clients)
    assert game_result(clients[0]).status == "completed"
    assert [(await p.get("/api/quick/status")).json() for p in people] == [{"state": "idle"}] * 4
    assert (await people[0].post("/api/quick/join")).json()["state"] == "waiting"  # over: free
    await people[0].post("/api/quick/leave")
    quick = live.accounts.quick
    assert not set(ids) & set(quick.matched) and code not in quick.games
    for client in clients:
        await client.close()


async def test_a_matched_player_cannot_wait_again_before_the_game_starts(live: Live) -> None:
    """Matched, before the quick game starts (it waits for its players to connect): joining
    the queue again (a second tab) is refused, naming the room, as once it has started. It
    was accepted, the same four were matched into a second rated room, and the first one
    started too with them seated."""
    people, match = await _match_four(live, "twice")
    code = match["code"]
    for person in people:
        again = await person.post("/api/quick/join")
        assert again.status_code == 409 and again.json()["code"] == "in_game", again.text
        assert code in again.json()["message"] and again.json()["room"] == code
    assert {(await p.get("/api/quick/status")).json()["state"] for p in people} == {"matched"}
    clients = await _seated(live, people, code)
    await _play_out(clients)
    assert [(await p.get("/api/quick/status")).json() for p in people] == [{"state": "idle"}] * 4
    for client in clients:
        await client.close()


async def test_the_answers_of_games_that_never_end_here_are_bounded(live: Live) -> None:
    """Matched players who never come to their room (the game pauses, and never ends) are
    not kept for good: past ``keep`` answers the oldest players are ``idle`` again, and the
    cached matches are bounded the same way."""
    quick = live.accounts.quick
    quick.keep = 4
    try:
        first, _ = await _match_four(live, "gone")
        second, match = await _match_four(live, "later")
        statuses = [(await p.get("/api/quick/status")).json() for p in (*first, *second)]
        assert [s["state"] for s in statuses] == ["idle"] * 4 + ["matched"] * 4
        assert {s["code"] for s in statuses[4:]} == {match["code"]}
        assert sorted(quick.matched) == sorted([await _pid(p) for p in second])
        assert len(quick.games) <= 4 and match["code"] in quick.games
    finally:
        quick.keep = 10_000


async def test_a_leaver_takes_a_loss_and_the_partner_is_not_punished(live: Live) -> None:
    people, match = await _match_four(live, "quit")
    seats = [s["seat"] for s in match["statuses"]]
    clients = await _seated(live, people, match["code"])
    leaver = seats.index(0)
    partner = seats.index(2)
    await clients[leaver].command("leave")
    await clients[leaver].close()
    others = [c for i, c in enumerate(clients) if i != leaver]
    await _play_out(others)
    result = game_result(others[0])
    assert result.left and result.left[0][1] == 0
    profiles = [await _profile(p) for p in people]
    assert profiles[leaver]["mu"] < 25 and profiles[leaver]["rated_games"] == 1
    assert profiles[leaver]["recent_games"][0]["result"] == "left"
    assert profiles[leaver]["games_won"] == 0 and profiles[leaver]["points"] == 0
    assert profiles[partner]["mu"] == 25 and profiles[partner]["rated_games"] == 0
    for i in (seats.index(1), seats.index(3)):
        assert profiles[i]["mu"] > 25 and profiles[i]["rated_games"] == 1
    for client in others:
        await client.close()


async def test_closing_a_quick_game_counts_as_leaving_for_the_owner(live: Live) -> None:
    people, match = await _match_four(live, "closer")
    seats = [s["seat"] for s in match["statuses"]]
    clients = await _seated(live, people, match["code"])
    owner = seats.index(0)  # the first matched human owns the room
    await clients[owner].command("close_game")
    await asyncio.gather(*(c.wait_for(game_over) for c in clients))
    profiles = [await _profile(p) for p in people]
    partner = seats.index((seats[owner] + 2) % 4)
    assert profiles[owner]["mu"] < 25 and profiles[owner]["recent_games"][0]["result"] == "left"
    assert profiles[partner]["rated_games"] == 0
    assert profiles[partner]["recent_games"][0]["result"] == "partner_left"
    for i in range(4):
        if seats[i] % 2 != seats[owner] % 2:  # the opponents: rated as winners, and told so
            assert profiles[i]["mu"] > 25
            assert profiles[i]["recent_games"][0]["result"] == "opponent_left"
            assert (profiles[i]["games_played"], profiles[i]["games_won"]) == (1, 1)
    # The room's next game is a private one: closing it is no leave (it was counted as one).
    await clients[owner].command("start")

    def seen(kind: str, n: int) -> Callable[[HokmClient], bool]:
        return lambda c: sum(e["event"]["kind"] == kind for e in c.events) >= n

    await asyncio.gather(*(c.wait_for(seen("game_started", 2)) for c in clients))
    await clients[owner].command("close_game")
    await asyncio.gather(*(c.wait_for(seen("game_closed", 2)) for c in clients))
    for _ in range(50):  # recorded once the closed game is stored
        mine = await _profile(people[owner])
        if len(mine["recent_games"]) == 2:
            break
        await asyncio.sleep(0.1)
    assert [g["result"] for g in mine["recent_games"]] == ["cancelled", "left"]
    assert (await _profile(people[partner]))["recent_games"][0]["result"] == "cancelled"
    for client in clients:
        await client.close()


async def test_the_owner_who_closed_a_quick_game_is_its_leaver_when_caught_up_too(
    live: Live,
) -> None:
    """The room's creator left (the room passed to another player), who then closed the game;
    recording it failed, and the catch-up recorded it later. The player who closed it is the
    leaver there too, as when it is recorded at once: not the creator (the room's stored
    owner), which left the closer rated as a winner (``opponent_left``)."""
    people, match = await _match_four(live, "reown")
    seats = [s["seat"] for s in match["statuses"]]
    clients = await _seated(live, people, match["code"])
    creator = seats.index(0)
    await clients[creator].command("leave")
    await clients[creator].close()
    others = [i for i in range(4) if i != creator]
    changed = await clients[others[0]].wait_event("owner_changed")
    ids = [await _pid(p) for p in people]
    closer = ids.index(changed["event"]["owner"])
    real = live.store.record_game
    failed: list[str] = []

    async def failing(outcome: Any) -> bool:
        failed.append(outcome.game_id)
        raise RuntimeError("the database is away")

    live.store.record_game = failing  # type: ignore[method-assign]
    try:
        await clients[closer].command("close_game")
        await asyncio.gather(*(clients[i].wait_for(game_over) for i in others))
        for _ in range(50):
            if failed:
                break
            await asyncio.sleep(0.1)
    finally:
        live.store.record_game = real  # type: ignore[method-assign]
    assert failed == [f"{match['code']}-1"]
    assert await live.accounts.catch_up() >= 1
    profiles = [await _profile(p) for p in people]
    assert profiles[creator]["recent_games"][0]["result"] == "left"
    assert profiles[closer]["recent_games"][0]["result"] == "left"
    assert profiles[closer]["mu"] < 25
    for i in others:
        await clients[i].close()


async def test_bots_are_offered_after_the_wait_and_that_game_is_unrated(live: Live) -> None:
    """A lone player may take bots after 60 s; the game counts for points, not for rating."""
    (http,) = await _accounts(live, "lonely", 1)
    assert (await http.post("/api/quick/join")).json()["state"] == "waiting"
    status = (await http.get("/api/quick/status")).json()
    assert status["bots_offered"] is False
    early = await http.post("/api/quick/bots")
    assert early.status_code == 400 and "s to go" in early.json()["message"]
    quick = live.accounts.quick
    quick.clock = lambda: time.time() + 61
    try:
        assert (await http.get("/api/quick/status")).json()["bots_offered"] is True
        matched = (await http.post("/api/quick/bots")).json()
    finally:
        quick.clock = time.time
    assert matched["state"] == "matched" and matched["rated"] is False
    assert matched["players"].count(None) == 3
    (client,) = await _seated(live, [http], matched["code"])
    await _play_out([client])
    result = game_result(client)
    won = result.winner_team == matched["seat"] % 2
    profile = await _profile(http)
    assert profile["rated_games"] == 0 and profile["mu"] == 25
    assert profile["games_played"] == 1 and profile["points"] == (1 if won else 0)
    assert profile["recent_games"][0]["quick"] and not profile["recent_games"][0]["rated"]
    await client.close()


async def test_two_people_waiting_alone_play_together_with_two_bots(live: Live) -> None:
    """When one of two waiting players takes bots, the other (offered bots too) comes along as
    partner: both are sent to the same unrated room, seats 0 and 2."""
    first, second = await _accounts(live, "pair", 2)
    for http in (first, second):
        assert (await http.post("/api/quick/join")).json()["state"] == "waiting"
    quick = live.accounts.quick
    quick.clock = lambda: time.time() + 61
    try:
        assert (await first.get("/api/quick/status")).json()["bots_offered"]  # still here
        taker = (await second.post("/api/quick/bots")).json()
        other = (await first.get("/api/quick/status")).json()
    finally:
        quick.clock = time.time
    assert taker["state"] == other["state"] == "matched"
    assert taker["code"] == other["code"] and not taker["rated"]
    assert (taker["seat"], other["seat"]) == (0, 2)
    assert taker["players"].count(None) == 2
    clients = await _seated(live, [second, first], taker["code"])
    await _play_out(clients)
    assert game_result(clients[0]).winner_team in (0, 1)
    for client in clients:
        await client.close()


async def test_the_queue_waits_for_close_ratings_and_widens(live: Live) -> None:
    people = await _accounts(live, "gap")
    strong = await _pid(people[3])
    await live.store._write(_set_mu(live, strong, 40.0))
    for p in people:
        await p.post("/api/quick/join")
    assert {(await p.get("/api/quick/status")).json()["state"] for p in people} == {"waiting"}
    quick = live.accounts.quick
    try:
        for later in range(10, 201, 10):  # 200 s of waiting, everyone polling
            quick.clock = lambda later=later: time.time() + later
            states = [(await p.get("/api/quick/status")).json() for p in people]
            if {s["state"] for s in states} == {"matched"}:
                break
    finally:
        quick.clock = time.time
    assert {s["state"] for s in states} == {"matched"}
    assert later > 100  # 40 − 25 = 15 apart: a gap of 15 needs 120 s


async def test_players_who_log_out_or_stop_asking_leave_the_queue(live: Live) -> None:
    """Nobody is matched with ghosts: logging out leaves the queue, and a player who has not
    asked for their status for 90 s (a closed tab) is dropped from it. Their status says why
    (``reason``), so that a page coming back can tell them."""
    people = await _accounts(live, "ghost")
    for p in people[:3]:
        assert (await p.post("/api/quick/join")).json()["state"] == "waiting"
    assert (await people[0].post("/api/accounts/logout")).status_code == 200
    assert (await people[1].get("/api/quick/status")).json()["queue_size"] == 2
    quick = live.accounts.quick
    quick.clock = lambda: time.time() + 91  # people[2] closed the tab: no more polls
    try:
        assert (await people[1].get("/api/quick/status")).json()["queue_size"] == 1
        assert (await people[3].post("/api/quick/join")).json()["state"] == "waiting"
        assert (await people[2].get("/api/quick/status")).json() == {
            "state": "idle",
            "reason": "away",
        }
    finally:
        quick.clock = time.time
    for p in people[1:]:
        await p.post("/api/quick/leave")
    assert (await people[1].get("/api/quick/status")).json() == {"state": "idle", "reason": "left"}
    # Joining again forgets the reason; the note is kept ten minutes, then forgotten too.
    assert (await people[2].post("/api/quick/join")).json()["state"] == "waiting"
    assert (await people[2].post("/api/quick/leave")).json() == {"state": "idle", "reason": "left"}
    quick.clock = lambda: time.time() + 601
    try:
        assert (await people[2].get("/api/quick/status")).json() == {"state": "idle"}
        assert await _pid(people[2]) not in quick.gone
    finally:
        quick.clock = time.time


async def test_a_wait_lost_with_the_queue_is_told_apart(live: Live) -> None:
    """A restart (or the death of the process that kept the queue) empties it: the status of a
    player who was waiting is then ``idle`` with no reason, which a waiting page takes as its
    cue to join again (a drop or a leave says ``away`` or ``left``)."""
    (http,) = await _accounts(live, "restarted", 1)
    assert (await http.post("/api/quick/join")).json()["state"] == "waiting"
    quick = live.accounts.quick
    quick.queue = type(quick.queue)(quick.config)  # what a new process starts with
    quick.identities.clear()
    assert (await http.get("/api/quick/status")).json() == {"state": "idle"}
    assert (await http.post("/api/quick/join")).json()["state"] == "waiting"
    await http.post("/api/quick/leave")


def _set_mu(live: Live, player: str, mu: float) -> Any:
    table = live.store.t.ratings

    def write(conn: Any) -> None:
        conn.execute(
            table.insert().values(player_id=player, mu=mu, sigma=2.0, games=30, updated_at=0)
        )

    return write


async def _practice_game(live: Live, http: httpx.AsyncClient) -> tuple[HokmClient, str]:
    """The account of ``http`` seated in a game with three bots, started (another tab)."""
    client = await live.ws(http)
    code = await client.create_room()
    await client.join(code)
    await client.command("sit", seat=0)
    for seat in (1, 2, 3):
        await client.command("add_bot", seat=seat, level="random")
    await client.command("start")
    await client.wait_event("game_started")
    return client, code


async def test_a_waiting_player_who_sits_down_to_a_game_leaves_the_queue(live: Live) -> None:
    """Waiting for a quick game, the player starts a practice game in another tab: their next
    look at the queue takes them out of it, saying why (a match would have put them in two
    games at once), and the way back to it with bots is refused too."""
    (http,) = await _accounts(live, "twotabs", 1)
    assert (await http.post("/api/quick/join")).json()["state"] == "waiting"
    client, code = await _practice_game(live, http)
    status = (await http.get("/api/quick/status")).json()
    assert status == {"state": "idle", "reason": "in_game", "room": code}
    bots = await http.post("/api/quick/bots")
    assert bots.status_code == 409 and bots.json()["code"] == "in_game"
    await client.close()


async def test_a_match_is_not_started_with_a_player_seated_elsewhere_meanwhile(
    live: Live,
) -> None:
    """Three wait; one of them sits down to a practice game before their next look; a fourth
    joins and would complete the match: it is not started with the seated one, who leaves
    the queue (told why), while the two others wait on as they were."""
    people = await _accounts(live, "race", 4)
    for p in people[:3]:
        assert (await p.post("/api/quick/join")).json()["state"] == "waiting"
    client, code = await _practice_game(live, people[0])
    assert (await people[3].post("/api/quick/join")).json()["state"] == "waiting"
    statuses = [(await p.get("/api/quick/status")).json() for p in people]
    assert statuses[0] == {"state": "idle", "reason": "in_game", "room": code}
    assert [s["state"] for s in statuses[1:]] == ["waiting"] * 3
    for p in people[1:]:  # (the queue is the module's server's: empty it for the next tests)
        await p.post("/api/quick/leave")
    await client.close()


async def test_a_match_is_not_started_with_an_account_deleted_while_waiting(
    live: Live,
) -> None:
    """The operator deletes a waiting player's account (``hokm accounts delete``, another
    process: the queue is not told). A fourth joins and would complete the match: it is not
    started with the deleted player, a ghost the others would wait for and then play with a
    bot in its seat; the ghost leaves the queue, the two others wait on as they were."""
    people = await _accounts(live, "erased", 4)
    for p in people[:3]:
        assert (await p.post("/api/quick/join")).json()["state"] == "waiting"
    ghost = await _pid(people[0])
    assert await live.store.delete_account(ghost)
    assert (await people[3].post("/api/quick/join")).json()["state"] == "waiting"
    assert ghost not in live.accounts.quick.queue
    statuses = [(await p.get("/api/quick/status")).json() for p in people[1:]]
    assert [s["state"] for s in statuses] == ["waiting"] * 3
    for p in people[1:]:  # (the queue is the module's server's: empty it for the next tests)
        await p.post("/api/quick/leave")


async def test_queue_rules_join_leave_and_accounts_only(live: Live) -> None:
    (http,) = await _accounts(live, "queuer", 1)
    assert (await http.post("/api/quick/join")).status_code == 200
    twice = await http.post("/api/quick/join")
    assert twice.status_code == 409 and twice.json()["code"] == "already_queued"
    assert (await http.post("/api/quick/leave")).json() == {"state": "idle", "reason": "left"}
    assert (await http.post("/api/quick/leave")).status_code == 409
    assert (await http.get("/api/quick/status")).json() == {"state": "idle", "reason": "left"}
    guest = HokmClient(live.url)
    await guest.guest("Guesty")
    async with live.http() as anon:
        headers = {"Authorization": f"Bearer {guest.token}"}
        refused = await anon.post("/api/quick/join", headers=headers)
        assert refused.status_code == 401 and refused.json()["code"] == "not_authenticated"


async def test_a_quick_room_matched_just_before_a_restart_still_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start of a quick room waits for its players' pages in this process's memory: the
    server stopped in that wait left the room in the lobby after the restart, where nobody
    would ever start it. A room loaded from storage now starts as a fresh one does."""
    db = str(tmp_path / "quick.db")
    async with live_server("sqlite", db, "", monkeypatch, prefix="hq_") as first:
        people, match = await _match_four(first, "restart")
        tokens = [p.cookies["hokm_session"] for p in people]
    async with live_server("sqlite", db, "", monkeypatch, prefix="hq_") as second:
        clients = [HokmClient(second.url, token=token) for token in tokens]
        for client in clients:
            await client.connect()
            await client.join(match["code"])
        for client in clients:
            await client.wait_event("game_started", timeout=10.0)
        table = clients[0].table or {}
        assert [s["kind"] for s in table["seats"]] == ["human"] * 4 and table["quick"] is True
        for client in clients:
            await client.close()
