"""The accounts' storage on SQLite and PostgreSQL: accounts, sessions, games applied once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from hokm.accounts.errors import InvalidInputError, UsernameTakenError
from hokm.accounts.store import BOARD_TTL, AccountStore, GameOutcome
from hokm.storage import GameSummary, PlayerRow, RoomRow, SqlStorage
from tests.accounts.conftest import PG_URL

MONDAY = int(datetime(2026, 11, 23, tzinfo=UTC).timestamp() * 1000)
DAY = 86_400_000


async def test_usernames_are_unique_ignoring_case(store: AccountStore) -> None:
    pid = await store.create_account(username="Sara", password_hash="h", name="Sara")
    with pytest.raises(UsernameTakenError):
        await store.create_account(username="sARA", password_hash="h", name="x")
    account = await store.account_by_username("SARA")
    assert account is not None and account.player_id == pid and account.username == "Sara"
    assert await store.player(pid) == ("Sara", "account")


async def test_a_guest_becomes_an_account_and_keeps_history(store: AccountStore) -> None:
    await store.storage.save_player(PlayerRow("g_1", "Guesty"))
    await store.record_game(GameOutcome("G1", ("g_1", None, None, None), winner_team=0))
    pid = await store.create_account(
        username="guesty", password_hash="h", name="Guesty", player_id="g_1"
    )
    assert pid == "g_1"
    assert await store.player("g_1") == ("Guesty", "account")
    assert [g["game_id"] for g in await store.recent_games("g_1")] == ["G1"]
    assert (await store.recent_games("g_1"))[0]["score"] is None  # no stored game G1
    assert (await store.stats("g_1"))["points"] == 1
    with pytest.raises(UsernameTakenError):  # one account per player
        await store.create_account(username="other", password_hash="h", name="x", player_id="g_1")


async def test_accounts_are_found_by_part_of_a_username_or_name(store: AccountStore) -> None:
    """``hokm accounts list``, on both databases: any case, the username's folded key too,
    ``%`` and ``_`` taken as themselves."""
    sara = await store.create_account(username="Sara_K", password_hash="h", name="سارا")
    await store.create_account(username="ali100", password_hash="h", name="Ali")
    await store.record_game(GameOutcome("F1", (sara, None, None, None), winner_team=0))
    (found,) = await store.find_accounts("sara_")
    assert (found["player_id"], found["username"], found["name"]) == (sara, "Sara_K", "سارا")
    assert (found["points"], found["games_played"]) == (1, 1)
    assert [a["username"] for a in await store.find_accounts("سار")] == ["Sara_K"]
    assert [a["username"] for a in await store.find_accounts("a_")] == ["Sara_K"]
    assert await store.find_accounts("%") == []
    assert len(await store.find_accounts("", limit=1)) == 1
    # A display name written with a zero-width non-joiner is found by its words typed with a
    # space, or none (an operator rarely types the joiner).
    await store.create_account(username="newbie", password_hash="h", name="تازه\u200cکار")
    for typed in ("تازه کار", "تازه\u200cکار", " تازه  کار "):
        assert [a["username"] for a in await store.find_accounts(typed)] == ["newbie"], typed
    assert await store.find_accounts("کار تازه") == []  # the words in their order


async def test_a_deleted_account_leaves_nothing_but_a_nameless_id(store: AccountStore) -> None:
    pid = await store.create_account(username="gone", password_hash="h", name="Gone")
    await store.create_session("tg", pid, expires_at=2**62)
    await store.record_game(GameOutcome("D1", (pid, "g_x", None, None), winner_team=0))
    assert await store.delete_account(pid) is True
    assert await store.delete_account(pid) is False  # once
    assert await store.account_by_username("gone") is None
    assert await store.session_player("tg", now=0) is None
    assert await store.player(pid) == ("", "deleted")
    assert await store.profile(pid) is None and await store.recent_games(pid) == []
    assert await store.find_accounts("gone") == []
    # A rated game it was in, ended later: the others' ratings move, its own are not kept.
    await store.storage.save_player(PlayerRow("g_y", "Y"))
    rated = GameOutcome("D2", (pid, "g_x", "g_y", "g_z"), winner_team=1, rated=True)
    assert await store.record_game(rated)
    ratings = await store.ratings([pid, "g_x"])
    assert ratings[pid].games == 0 and ratings["g_x"].games == 1
    assert (await store.stats(pid))["games_played"] == 0


async def test_a_session_stored_after_the_deletion_identifies_nobody(store: AccountStore) -> None:
    """A login checks the password, then stores its session: an account deleted in between
    (another tab, ``hokm accounts delete``) must not come back as a nameless account."""
    pid = await store.create_account(username="late", password_hash="h", name="Late")
    assert await store.delete_account(pid)
    await store.create_session("t_late", pid, expires_at=2**62)  # the login's, just after
    assert await store.session_identity("t_late", now=0) is None
    assert await store.session_player("t_late", now=0) is None


async def _waits_for_a_lock(store: AccountStore) -> None:
    """Returns once a PostgreSQL session waits for a row lock on this test's players table."""
    players = f"%{store.storage.prefix}players%"
    query = sa.text(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
        "AND query LIKE :players"
    )
    async with store.storage.engine.connect() as conn:
        while True:
            found = (await conn.execute(query, {"players": players})).scalar()
            await conn.rollback()  # (the view is a snapshot per transaction)
            if found:
                return
            await asyncio.sleep(0.01)


async def test_two_processes_recording_games_of_one_player_at_once_lose_nothing(
    pg_store: AccountStore,
) -> None:
    """Two processes (a cluster) each record a rated game of the same player at the same
    moment: both games count, in full. Each used to read the player's rating before the other
    had written it (the later write overwrote the earlier game's change), and both inserted a
    new player's first rating or stats row, the loser's whole game then taken for "recorded
    already" and dropped (PostgreSQL: SQLite has one writer at a time)."""
    storage = SqlStorage(PG_URL, prefix=pg_store.storage.prefix)
    await storage.start()
    other = AccountStore(storage)
    await other.start()
    try:
        games = 8
        for pid in ["p"] + [f"{x}{i}" for x in "abcdef" for i in range(games)]:
            await pg_store.storage.save_player(PlayerRow(pid, pid))
        for i in range(games):
            one = GameOutcome(f"X{i}", ("p", f"a{i}", f"b{i}", f"c{i}"), 0, quick=True, rated=True)
            two = GameOutcome(f"Y{i}", ("p", f"d{i}", f"e{i}", f"f{i}"), 1, quick=True, rated=True)
            assert await asyncio.gather(pg_store.record_game(one), other.record_game(two)) == [
                True,
                True,
            ]
        assert (await pg_store.ratings(["p"]))["p"].games == 2 * games
        stats = await pg_store.stats("p")
        assert (stats["games_played"], stats["games_won"]) == (2 * games, games)
        assert len(await pg_store.recent_games("p", limit=100)) == 2 * games
    finally:
        await storage.close()


async def test_a_game_recorded_while_another_process_deletes_the_account_keeps_nothing(
    pg_store: AccountStore,
) -> None:
    """Two processes (a cluster, or ``hokm accounts delete`` beside the server): a game
    recorded while the deletion's transaction is open must not leave the deleted account a
    history row, points or a rating once both have committed (PostgreSQL: SQLite has one
    writer at a time)."""
    store = pg_store
    pid = await store.create_account(username="racing", password_hash="h", name="Racing")
    for other in ("g_x", "g_y", "g_z"):
        await store.storage.save_player(PlayerRow(other, other))
    held = await store.storage.engine.connect()
    deletion = await held.begin()
    # The other process's deletion: run, not yet committed.
    store._write = held.run_sync  # type: ignore[method-assign]
    try:
        assert await store.delete_account(pid)
    finally:
        del store._write
    game = GameOutcome("R1", (pid, "g_x", "g_y", "g_z"), winner_team=0, rated=True)
    recording = asyncio.ensure_future(store.record_game(game))
    waiting = asyncio.ensure_future(_waits_for_a_lock(store))
    await asyncio.wait({recording, waiting}, return_when=asyncio.FIRST_COMPLETED)
    await deletion.commit()
    await held.close()
    assert await recording
    waiting.cancel()
    assert await store.recent_games(pid) == []
    assert (await store.stats(pid))["games_played"] == 0
    ratings = await store.ratings([pid, "g_x"])
    assert ratings[pid].games == 0 and ratings["g_x"].games == 1
    async with store.storage.engine.connect() as conn:
        for table in (store.t.history, store.t.stats, store.t.ratings):
            rows = await conn.execute(sa.select(table).where(table.c.player_id == pid))
            assert rows.first() is None, table.name


async def test_sessions_expire_and_can_be_revoked(store: AccountStore) -> None:
    await store.storage.save_player(PlayerRow("p", "Pari"))
    await store.create_session("t1", "p", expires_at=1000)
    await store.create_session("t2", "p", expires_at=10**15)
    await store.create_session("t3", "p", expires_at=10**15)
    assert await store.session_player("t1", now=999) == "p"
    assert await store.session_identity("t2", now=999) == ("p", "Pari")
    assert await store.session_player("t1", now=1000) is None
    await store.delete_sessions(player_id="p", keep="t2")
    assert await store.session_player("t2", now=0) == "p"
    assert await store.session_player("t3", now=0) is None
    await store.delete_sessions(token_hash="t2")
    assert await store.session_player("t2", now=0) is None


async def test_a_rated_game_is_applied_exactly_once(store: AccountStore) -> None:
    outcome = GameOutcome("Q1", ("a", "b", "c", "d"), winner_team=0, quick=True, rated=True)
    results = await asyncio.gather(*(store.record_game(outcome) for _ in range(5)))
    assert sorted(results) == [False, False, False, False, True]
    assert not await store.record_game(outcome)
    ratings = await store.ratings("abcd")
    assert all(r.games == 1 for r in ratings.values())
    assert ratings["a"].mu > 25 > ratings["b"].mu
    assert (await store.stats("a")) == {"points": 1, "games_played": 1, "games_won": 1}
    assert (await store.stats("b")) == {"points": 0, "games_played": 1, "games_won": 0}
    # the history says how far the game moved each rating (shown rating, before and after)
    won, lost = (await store.recent_games("a"))[0], (await store.recent_games("b"))[0]
    assert won["rating_change"] == [0, ratings["a"].shown] and ratings["a"].shown > 0
    assert lost["rating_change"] == [0, ratings["b"].shown]  # (a fresh rating is shown as 0)


async def test_unrated_games_leave_ratings_alone(store: AccountStore) -> None:
    await store.record_game(GameOutcome("P1", ("a", "b", "c", "d"), winner_team=0))
    await store.record_game(GameOutcome("B1", ("a", None, "c", None), winner_team=0, quick=True))
    assert all(r.games == 0 for r in (await store.ratings("abcd")).values())
    assert (await store.stats("a"))["points"] == 2
    assert [g["rating_change"] for g in await store.recent_games("a")] == [None, None]


async def test_leaver_loses_gets_no_points_partner_keeps_rating(store: AccountStore) -> None:
    outcome = GameOutcome(
        "Q2", ("a", "b", "c", "d"), 0, quick=True, rated=True, leavers=frozenset({"a"})
    )
    assert await store.record_game(outcome)
    ratings = await store.ratings("abcd")
    assert ratings["a"].mu < 25 and ratings["c"].games == 0 and ratings["b"].mu > 25
    assert await store.stats("a") == {"points": 0, "games_played": 1, "games_won": 0}
    assert await store.stats("c") == {"points": 1, "games_played": 1, "games_won": 1}
    assert (await store.recent_games("a"))[0]["result"] == "left"
    assert (await store.recent_games("c"))[0]["rating_change"] is None  # the partner: not counted


async def test_a_game_closed_by_a_leaver_is_a_win_for_the_other_team(
    store: AccountStore,
) -> None:
    """An owner who closes a rated quick game (or a player away until it is cancelled) is a
    leaver: the opponents are rated as winners. Their history said "cancelled" and their
    games and wins did not count it while their rating rose; the partner who stayed is left
    alone in both."""
    outcome = GameOutcome(
        "Q3", ("a", "b", "c", "d"), None, quick=True, rated=True, leavers=frozenset({"b"})
    )
    assert await store.record_game(outcome)
    ratings = await store.ratings("abcd")
    assert ratings["a"].mu > 25 and ratings["c"].mu > 25 and ratings["d"].games == 0
    results = {p: (await store.recent_games(p))[0]["result"] for p in "abcd"}
    assert results == {"a": "opponent_left", "b": "left", "c": "opponent_left", "d": "partner_left"}
    assert await store.stats("a") == {"points": 0, "games_played": 1, "games_won": 1}
    assert await store.stats("b") == {"points": 0, "games_played": 1, "games_won": 0}
    assert await store.stats("d") == {"points": 0, "games_played": 0, "games_won": 0}


async def test_a_leave_changes_only_the_leavers_result_outside_rated_games(
    store: AccountStore,
) -> None:
    """In a private room (or an unrated quick game) a friend who joins and leaves must not
    hand the others a recorded win."""
    closed = GameOutcome("P9", ("a", "b", "c", "d"), None, leavers=frozenset({"b"}))
    assert await store.record_game(closed)
    results = {p: (await store.recent_games(p))[0]["result"] for p in "abcd"}
    assert results == {"a": "cancelled", "b": "left", "c": "cancelled", "d": "cancelled"}
    assert await store.stats("a") == {"points": 0, "games_played": 0, "games_won": 0}


async def test_a_rated_game_won_by_the_leavers_team_is_still_the_opponents_win(
    store: AccountStore,
) -> None:
    """The rating counts a leaver's team as the loser whatever the cards said; the history
    and the counts agree with it (they said 'lost' while the rating rose)."""
    outcome = GameOutcome(
        "Q4", ("a", "b", "c", "d"), 1, quick=True, rated=True, leavers=frozenset({"b"})
    )
    assert await store.record_game(outcome)
    ratings = await store.ratings("abcd")
    assert ratings["a"].mu > 25 and ratings["d"].games == 0
    results = {p: (await store.recent_games(p))[0]["result"] for p in "abcd"}
    assert results == {"a": "opponent_left", "b": "left", "c": "opponent_left", "d": "won"}
    assert await store.stats("a") == {"points": 0, "games_played": 1, "games_won": 1}
    assert (await store.stats("d"))["games_won"] == 1  # the partner who stayed won at the table


async def test_par_bam_points_and_cancelled_games(store: AccountStore) -> None:
    await store.record_game(GameOutcome("B", ("a", "b", None, None), 1, par_bam=True))
    await store.record_game(GameOutcome("C", ("a", "b", None, None), None))
    assert await store.stats("b") == {"points": 2, "games_played": 1, "games_won": 1}
    assert [g["result"] for g in await store.recent_games("a")] == ["cancelled", "lost"]


def test_bad_outcomes_are_refused() -> None:
    with pytest.raises(InvalidInputError):
        GameOutcome("x", ("a", None, "c", "d"), 0, rated=True)
    with pytest.raises(InvalidInputError):
        GameOutcome("x", ("a", "a", "c", "d"), 0)


async def _account(store: AccountStore, name: str) -> str:
    return await store.create_account(username=name, password_hash="h", name=name.title())


async def test_leaderboard_all_time_and_this_week_with_my_place(store: AccountStore) -> None:
    ids = {n: await _account(store, n) for n in ("ali", "bita", "cyrus", "dara", "elham")}
    a, b, c, d, e = (ids[n] for n in ("ali", "bita", "cyrus", "dara", "elham"))
    # last week: ali wins twice; this week: bita and cyrus win once, dara twice (par-bam)
    await store.record_game(GameOutcome("w1", (a, None, None, None), 0, finished_at=MONDAY - DAY))
    await store.record_game(GameOutcome("w2", (a, None, None, None), 0, finished_at=MONDAY - DAY))
    await store.record_game(GameOutcome("w3", (b, d, c, None), 0, finished_at=MONDAY + DAY))
    await store.record_game(
        GameOutcome("w4", (None, d, None, None), 1, par_bam=True, finished_at=MONDAY + DAY)
    )
    await store.record_game(GameOutcome("w5", ("g_guest", None, None, None), 0, MONDAY + DAY))
    now = MONDAY + 2 * DAY
    board = await store.leaderboard(period="all", offset=0, limit=10, viewer=c, now=now)
    assert [(x["username"], x["points"], x["rank"]) for x in board["entries"]] == [
        ("ali", 2, 1),
        ("dara", 2, 1),
        ("bita", 1, 3),
        ("cyrus", 1, 3),
    ]
    assert board["total"] == 4 and board["me"] == {"player_id": c, "rank": 3, "points": 1}
    week = await store.leaderboard(period="week", offset=0, limit=10, viewer=a, now=now)
    assert [(x["username"], x["rank"]) for x in week["entries"]] == [
        ("dara", 1),
        ("bita", 2),
        ("cyrus", 2),
    ]
    assert week["me"] == {"player_id": a, "rank": None, "points": 0}
    page = await store.leaderboard(period="all", offset=2, limit=1, viewer=e, now=now)
    assert [(x["username"], x["rank"]) for x in page["entries"]] == [("bita", 3)]
    assert page["me"]["rank"] is None
    with pytest.raises(InvalidInputError):
        await store.leaderboard(period="year", offset=0, limit=1, viewer=None, now=now)


async def test_the_rating_board_ranks_accounts_by_their_shown_rating(
    store: AccountStore,
) -> None:
    ids = {n: await _account(store, n) for n in ("ana", "ben", "cas", "dan", "eva")}
    a, b, c, d, e = (ids[n] for n in ("ana", "ben", "cas", "dan", "eva"))
    for n in range(2):  # ana and cas beat ben and dan twice
        await store.record_game(GameOutcome(f"R{n}", (a, b, c, d), 0, quick=True, rated=True))
    # a guest's rating (never in a rated game in practice) and unrated games are not ranked
    guests = ("g_1", "g_2", "g_3", "g_4")
    await store.record_game(GameOutcome("R9", guests, 0, quick=True, rated=True))
    await store.record_game(GameOutcome("P1", (e, None, None, None), 0))
    board = await store.rating_board(offset=0, limit=10, viewer=e)
    ratings = await store.ratings([a, b, c, d])
    got = [(x["username"], x["rank"], x["rating"]) for x in board["entries"]]
    assert got == [
        ("ana", 1, ratings[a].shown),
        ("cas", 1, ratings[c].shown),  # the same rating shares its rank
        ("ben", 3, ratings[b].shown),
        ("dan", 3, ratings[d].shown),
    ]
    assert ratings[a].shown > ratings[b].shown
    first = board["entries"][0]
    assert first["provisional"] and first["rated_games"] == 2 and first["tier"]["id"]
    assert board["total"] == 4 and board["me"] == {"player_id": e, "rank": None, "rating": 0}
    page = await store.rating_board(offset=2, limit=1, viewer=b)
    assert [x["rank"] for x in page["entries"]] == [3]
    assert page["me"] == {"player_id": b, "rank": 3, "rating": ratings[b].shown}
    # two ratings shown as 0 (a conservative value below 0 is shown as 0) share a rank
    r = store.t.ratings
    async with store.storage.engine.begin() as conn:
        for pid, mu in ((b, 10.0), (d, 12.0)):
            await conn.execute(r.update().where(r.c.player_id == pid).values(mu=mu, sigma=6.0))
    store._boards.clear()  # (written behind the store's back)
    low = await store.rating_board(offset=0, limit=10, viewer=d)
    assert [(x["username"], x["rank"], x["rating"]) for x in low["entries"]][2:] == [
        ("ben", 3, 0),
        ("dan", 3, 0),
    ]
    assert low["me"] == {"player_id": d, "rank": 3, "rating": 0}
    await store.delete_account(a)  # a deleted account leaves the board
    after = await store.rating_board(offset=0, limit=10, viewer=None)
    assert [x["username"] for x in after["entries"]][:1] == ["cas"] and after["me"] is None


async def test_boards_are_kept_a_few_seconds_unless_this_process_changed_them(
    store: AccountStore,
) -> None:
    """A board reads every account, so its pages and each viewer's place are kept for
    BOARD_TTL: a game another process records shows when they expire; one recorded, an
    account deleted or a name changed here shows at once."""
    clock = [1000.0]
    store._boards.clock = lambda: clock[0]
    ids = [await _account(store, n) for n in ("kia", "lev", "mia", "noa")]
    a, b, c, d = ids
    other = AccountStore(store.storage)  # another process on the same database

    async def board() -> list[tuple[str, int]]:
        got = await store.leaderboard(period="all", offset=0, limit=10, viewer=b, now=MONDAY)
        return [(x["username"], x["points"]) for x in got["entries"]]

    async def ladder() -> list[str]:
        got = await store.rating_board(offset=0, limit=10, viewer=b)
        return [x["username"] for x in got["entries"]]

    assert await board() == [] and await ladder() == []
    await other.record_game(GameOutcome("K1", (a, b, c, d), 0, quick=True, rated=True))
    assert await board() == [] and await ladder() == []  # kept
    me = await store.leaderboard(period="all", offset=0, limit=10, viewer=b, now=MONDAY)
    assert me["me"] == {"player_id": b, "rank": None, "points": 0}
    clock[0] += BOARD_TTL
    assert await board() == [("kia", 1), ("mia", 1)] and len(await ladder()) == 4
    await store.record_game(GameOutcome("K2", (a, b, c, d), 1))  # here: at once
    assert await board() == [("kia", 1), ("lev", 1), ("mia", 1), ("noa", 1)]
    await store.set_name(a, "Kia the Second")
    got = await store.leaderboard(period="all", offset=0, limit=10, viewer=None, now=MONDAY)
    assert got["entries"][0]["name"] == "Kia the Second"
    await store.delete_account(d)
    assert ("noa", 1) not in await board() and "noa" not in await ladder()


async def test_quick_matches_are_remembered(store: AccountStore) -> None:
    from hokm.accounts.matchmaking import Match

    await store.save_quick_match("ABCDEF", Match(("a", None, "c", None), rated=False))
    found = await store.quick_match("ABCDEF")
    assert found is not None and found.players == ("a", None, "c", None) and not found.rated
    assert await store.quick_match("ZZZZZZ") is None


async def test_two_registrations_of_one_name_at_once_make_one_account(store: AccountStore) -> None:
    attempts = [
        store.create_account(username=name, password_hash="h", name="x")
        for name in ("Twin", "twin", "TWIN")
    ]
    outcomes = await asyncio.gather(*attempts, return_exceptions=True)
    assert sum(isinstance(o, str) for o in outcomes) == 1
    assert sum(isinstance(o, UsernameTakenError) for o in outcomes) == 2


async def test_the_stored_rating_path_matches_the_simulation(store: AccountStore) -> None:
    """Replaying a simulated quick-match season through the store gives the same ratings."""
    from hokm.accounts.simulation import simulate

    report = simulate(players=8, games=40, seed=11)
    for game in report.played:
        (a, c), (b, d) = game.teams
        outcome = GameOutcome(game.game_id, (a, b, c, d), game.winner_team, quick=True, rated=True)
        assert await store.record_game(outcome)
    stored = await store.ratings(report.ratings)
    for player, rating in report.ratings.items():
        assert stored[player].games == rating.games
        assert stored[player].mu == pytest.approx(rating.mu)
        assert stored[player].sigma == pytest.approx(rating.sigma)


async def test_stored_username_keys_are_brought_up_to_date(store: AccountStore) -> None:
    """Keys stored by an older folding (NFC case folding only) are recomputed at start-up, so
    the accounts still log in; a new key that another account holds is left alone."""
    import sqlalchemy as sa

    ali = await store.create_account(username="علي", password_hash="h", name="Ali")
    arabic = await store.create_account(username="كاوه", password_hash="h", name="Kaveh")
    persian = await store.create_account(username="kaveh_p", password_hash="h", name="K")
    latin12 = await store.create_account(username="nima12", password_hash="h", name="N")
    persian12 = await store.create_account(username="nima_x", password_hash="h", name="N")
    a = store.t.accounts
    legacy = {  # player -> (username, key as the old folding made it)
        ali: ("علي", "علي"),
        arabic: ("كاوه", "كاوه"),
        persian: ("کاوه", "کاوه"),  # Persian kaf: the key the Arabic spelling now folds to
        persian12: ("nima۱۲", "nima۱۲"),  # digits were not folded to Latin ones before
    }

    def write(conn: sa.Connection) -> None:
        for pid, (username, key) in legacy.items():
            conn.execute(
                a.update().where(a.c.player_id == pid).values(username=username, username_key=key)
            )

    await store._write(write)
    await store.start()
    found = await store.account_by_username("علی")
    assert found is not None and found.player_id == ali
    found = await store.account_by_username("کاوه")
    assert found is not None and found.player_id == persian
    keys = dict(await _rows(store, sa.select(a.c.player_id, a.c.username_key)))
    assert keys[arabic] == "كاوه"  # kept: its new key is taken
    assert keys[persian12] == "nima۱۲"  # kept: "nima12" is the Latin account's
    # Both still log in: by the username as registered first, else by the folded key.
    for typed, owner in (("كاوه", arabic), ("nima۱۲", persian12), ("nima12", latin12)):
        found = await store.account_by_username(typed)
        assert found is not None and found.player_id == owner, typed
    found = await store.account_by_username("NIMA١٢")  # Arabic-Indic digits fold to the key
    assert found is not None and found.player_id == latin12


async def _rows(store: AccountStore, query: Any) -> list[tuple[Any, Any]]:
    async with store.storage.engine.connect() as conn:
        return [(r[0], r[1]) for r in (await conn.execute(query)).all()]


async def test_stored_games_never_recorded_are_listed_with_their_room_owner(
    store: AccountStore,
) -> None:
    """The catch-up after a crash between storing a game and recording it finds exactly the
    games stored and not recorded since a time, oldest first, page after page."""
    storage = store.storage
    await storage.create_room(RoomRow("ROOMA", "g_owner", "lobby", 1))
    for n, at in ((1, 3000), (2, 1000), (3, 2000), (4, 500)):
        summary = GameSummary(f"ROOMA-{n}", "ROOMA", n, at, 0, (1, 0), False)
        await storage.save_game(summary, {"result": {"game": n}})
    await storage.save_game(GameSummary("GONE-1", "GONE", 1, 3000, 0, (1, 0), False), {})
    await store.record_game(GameOutcome("ROOMA-3", ("a", None, None, None), winner_team=0))
    rows = await store.unrecorded_games(since=1000)
    assert [(r.game_id, r.code, r.finished_at, r.owner) for r in rows] == [
        ("ROOMA-2", "ROOMA", 1000, "g_owner"),
        ("GONE-1", "GONE", 3000, None),
        ("ROOMA-1", "ROOMA", 3000, "g_owner"),
    ]
    assert rows[0].record == {"result": {"game": 2}}
    first = await store.unrecorded_games(since=1000, limit=2)
    rest = await store.unrecorded_games(
        since=1000, after=(first[-1].finished_at, first[-1].game_id)
    )
    assert [r.game_id for r in first + rest] == [r.game_id for r in rows]


async def test_a_guest_registering_with_points_shows_at_once(store: AccountStore) -> None:
    """The guest's points come with it into an account: the boards kept here forget theirs."""
    await store.storage.save_player(PlayerRow("g_reg", "Reg"))
    await store.record_game(GameOutcome("GR1", ("g_reg", None, None, None), winner_team=0))
    before = await store.leaderboard(period="all", offset=0, limit=10, viewer=None, now=MONDAY)
    assert before["entries"] == []
    await store.create_account(username="reg", password_hash="h", name="Reg", player_id="g_reg")
    after = await store.leaderboard(period="all", offset=0, limit=10, viewer="g_reg", now=MONDAY)
    assert [x["username"] for x in after["entries"]] == ["reg"] and after["total"] == 1


async def test_a_board_read_while_a_game_is_recorded_is_not_kept(
    store: AccountStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read begun before a game here and ended after it would keep the board before it."""
    import hokm.accounts.store as module

    pid = await _account(store, "race")
    counting, go = asyncio.Event(), asyncio.Event()
    count = module._count

    async def slow_count(conn: Any, q: Any, *where: Any) -> int:
        n = await count(conn, q, *where)
        counting.set()
        await go.wait()
        return n

    monkeypatch.setattr(module, "_count", slow_count)
    read = asyncio.create_task(
        store.leaderboard(period="all", offset=0, limit=10, viewer=None, now=MONDAY)
    )
    await counting.wait()  # the page is read: the game is recorded before it is kept
    await store.record_game(GameOutcome("RC1", (pid, None, None, None), winner_team=0))
    go.set()
    assert (await read)["entries"] == []  # (this one answer may be the board before)
    monkeypatch.setattr(module, "_count", count)
    board = await store.leaderboard(period="all", offset=0, limit=10, viewer=None, now=MONDAY)
    assert [x["username"] for x in board["entries"]] == ["race"]
