"""Account points and the leaderboard, as the server records games and serves them over HTTP."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from hokm.accounts.points import week_start
from hokm.accounts.store import GameOutcome
from hokm.engine import RuleSet
from hokm.server.auth import Identity
from hokm.storage import GameSummary
from hokm.table.model import GameResult
from tests.accounts.live import Live

pytestmark = pytest.mark.asyncio(loop_scope="module")

_games = iter(range(1_000_000))


def _result(
    players: tuple[str | None, ...], winner: int | None, *, par_bam: bool = False
) -> GameResult:
    a, b, c, d = players
    return GameResult(
        table_id="T",
        game=2,
        status="completed" if winner is not None else "cancelled",
        winner_team=winner,
        score=(7, 3) if winner == 0 else (3, 7),
        players=(a, b, c, d),
        bots=tuple("medium" if p is None else None for p in players),  # type: ignore[arg-type]
        results=("par_bam",) if par_bam else ("normal",),
        par_bam=par_bam,
        left=(),
    )


async def _finish(live: Live, result: GameResult) -> None:
    game_id = f"PTS{next(_games)}-{time.monotonic_ns()}"
    assert await live.accounts.game_finished(result, game_id=game_id, code=None)


async def _ids(live: Live, prefix: str, n: int) -> tuple[list[httpx.AsyncClient], list[str]]:
    clients = [await live.account(f"{prefix}{i}") for i in range(n)]
    ids = [str((await c.get("/api/me")).json()["player"]["id"]) for c in clients]
    return clients, ids


async def _me(http: httpx.AsyncClient) -> dict[str, Any]:
    return dict((await http.get("/api/accounts/me")).json())


async def test_winners_get_a_point_par_bam_two_bots_none(live: Live) -> None:
    (a, b, c), (ia, ib, ic) = await _ids(live, "pts", 3)
    await _finish(live, _result((ia, ib, None, None), 0))  # a wins with a bot partner
    await _finish(live, _result((ia, ib, None, ic), 1, par_bam=True))  # b and c by par-bam
    await _finish(live, _result((ia, ib, None, None), None))  # cancelled: nothing
    assert [(await _me(x))["points"] for x in (a, b, c)] == [1, 2, 2]
    assert [(await _me(x))["games_won"] for x in (a, b, c)] == [1, 1, 1]
    assert [(await _me(x))["games_played"] for x in (a, b, c)] == [2, 2, 1]
    assert (await _me(a))["rated_games"] == 0  # games outside quick match are never rated


async def test_leaderboard_pages_weeks_and_my_place(live: Live) -> None:
    clients, ids = await _ids(live, "lb", 4)
    for _ in range(3):
        await _finish(live, _result((ids[0], None, None, None), 0))
    await _finish(live, _result((ids[1], None, ids[2], None), 0))
    last_week = int(week_start_ms() - 86_400_000)
    old = GameOutcome(f"OLD{time.monotonic_ns()}", (ids[3], None, None, None), 0)
    await live.store.record_game(
        GameOutcome(old.game_id, old.players, 0, par_bam=True, finished_at=last_week)
    )
    viewer = clients[1]
    board = (await viewer.get("/api/leaderboard", params={"period": "all", "per_page": 100})).json()
    mine = [e for e in board["entries"] if e["player_id"] in ids]
    assert [(e["username"], e["points"]) for e in mine] == [
        ("lb0", 3),
        ("lb3", 2),
        ("lb1", 1),
        ("lb2", 1),
    ]
    assert mine[2]["rank"] == mine[3]["rank"]  # a tie shares its rank
    assert board["me"] == {"player_id": ids[1], "rank": mine[2]["rank"], "points": 1}
    week = (await viewer.get("/api/leaderboard", params={"period": "week", "per_page": 100})).json()
    assert ids[3] not in [e["player_id"] for e in week["entries"]]  # last week's points only
    page = (await viewer.get("/api/leaderboard", params={"page": 2, "per_page": 1})).json()
    assert page["page"] == 2 and len(page["entries"]) == 1 and page["total"] >= 4
    first = (await viewer.get("/api/leaderboard", params={"page": 1, "per_page": 1})).json()
    assert first["entries"][0]["rank"] == 1 and first["entries"] != page["entries"]
    async with live.http() as anonymous:
        assert (await anonymous.get("/api/leaderboard")).json()["me"] is None
        ladder = (await anonymous.get("/api/leaderboard", params={"by": "rating"})).json()
        assert ladder["by"] == "rating" and ladder["me"] is None
        assert all(e["rating"] >= 0 and "tier" in e for e in ladder["entries"])
        assert (await anonymous.get("/api/leaderboard")).json()["by"] == "points"
        for params in (
            {"period": "year"},
            {"page": "0"},
            {"per_page": "500"},
            {"page": "x"},
            {"by": "wins"},
            {"by": "rating", "period": "week"},  # a rating is not counted by week
        ):
            bad = await anonymous.get("/api/leaderboard", params=params)
            assert bad.status_code == 400 and bad.json()["code"] == "invalid_input"


def week_start_ms() -> int:
    from datetime import UTC, datetime

    return int(week_start(datetime.now(UTC)).timestamp() * 1000)


async def test_games_stored_but_never_recorded_are_caught_up_once(live: Live) -> None:
    """The server died (or recording failed) between storing games and recording them: the
    catch-up records each once, dated when it finished; a broken one is reported, and does
    not stop the others."""
    (a,), (ia,) = await _ids(live, "cu", 1)
    storage = live.store.storage
    finished = int(time.time() * 1000)  # after the server first started recording
    for n, winner in ((1, 0), (2, 1)):
        result = _result((ia, None, None, None), winner)
        summary = GameSummary(f"CU{ia}-{n}", "NOROOM", n, finished + n, winner, (7, 3), False)
        await storage.save_game(summary, {"result": result.to_dict()})
    broken = GameSummary(f"CU{ia}-9", "NOROOM", 9, finished + 9, 0, (7, 3), False)
    await storage.save_game(broken, {"result": {"not": "a result"}})
    with pytest.raises(RuntimeError, match="1 stored game"):
        await live.accounts.catch_up()
    me = await _me(a)
    assert (me["games_played"], me["games_won"], me["points"]) == (2, 1, 1)
    recent = await live.store.recent_games(ia)
    assert sorted(g["finished_at"] for g in recent) == [finished + 1, finished + 2]
    with pytest.raises(RuntimeError):  # the broken one is tried again; the others are not
        await live.accounts.catch_up()
    assert (await _me(a))["games_played"] == 2

    # A listener that fails while the server runs: the room manager catches up later.
    rooms = live.app.state.hokm.rooms
    actor = await rooms.create(Identity(ia, "cu"), RuleSet())
    real = live.store.record_game
    calls = 0

    async def failing_once(outcome: GameOutcome) -> bool:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the database is away")
        return await real(outcome)

    live.store.record_game = failing_once  # type: ignore[method-assign]
    try:
        await actor._store_game(_result((ia, None, None, None), 0), {"format": "hokm-record/1"})
        assert rooms.catch_up_due and (await _me(a))["games_played"] == 2
        rooms._catch_up_next = 0.0
        await rooms.catch_up()  # what the sweeper does when it is due
    finally:
        del live.store.record_game
    assert (await _me(a))["games_played"] == 3


async def test_games_a_stopped_process_left_unreported_are_caught_up_within_the_hour(
    live: Live,
) -> None:
    """With several processes, one that dies between storing a game and reporting it, and is
    never started again, left the game unrecorded until some process restarted. Each
    process now looks every hour (``recover_orphans``); a game that ended in the last ten
    minutes is left to its room, which may be recording it at that moment."""
    (a,), (ia,) = await _ids(live, "orphan", 1)
    storage = live.store.storage
    start = time.time()  # (after the server first recorded games: games before are not)
    for n, seconds in ((1, 60), (2, 1700)):
        at = int((start + seconds) * 1000)
        summary = GameSummary(f"OR{ia}-{n}", "NOROOM", n, at, 0, (7, 3), False)
        await storage.save_game(summary, {"result": _result((ia, None, None, None), 0).to_dict()})
    rooms = live.app.state.hokm.rooms
    now = start + 1800  # half an hour on: the first ended 29 minutes ago, the second 100 s
    await rooms.recover_orphans(now)
    assert (await _me(a))["games_played"] == 1
    assert rooms.recover_next == now + 3600
    await rooms.recover_orphans(now + 600)
    assert (await _me(a))["games_played"] == 2
