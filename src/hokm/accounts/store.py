"""The accounts' tables, kept beside the server's in the same database (SQLite or PostgreSQL).

:class:`AccountStore` adds its tables (same name prefix as the server's storage) and writes
through the storage's single writer, so SQLite never sees two writers. Everything a finished
game changes — history, stats, account points and ratings — is written by
:meth:`AccountStore.record_game` in one transaction guarded by the game id: applied once.
"""

from __future__ import annotations

import copy
import json
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from hokm.accounts.errors import InvalidInputError, UsernameTakenError
from hokm.accounts.matchmaking import Match
from hokm.accounts.points import points_for_game, week_start
from hokm.accounts.rating import RatedGame, Rating, rating_updates
from hokm.accounts.security import username_key
from hokm.storage import SqlStorage, VersionConflictError

__all__ = ["AccountRow", "AccountStore", "GameOutcome"]

log = logging.getLogger(__name__)

#: the ``kind`` of a player whose account was deleted (:meth:`AccountStore.delete_account`)
DELETED = "deleted"
#: what a leaderboard awaits before it reads the database (``AccountStore._board``)
Reading = Callable[[], Awaitable[None]]
BOARD_TTL = 10.0  # seconds a leaderboard page or a viewer's place is kept (``_board``)


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class AccountRow:
    player_id: str
    username: str
    password_hash: str
    created_at: int
    password_changed_at: int  # ms, as created_at


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A finished or cancelled game, as the accounts see it (the server reports it once or more).

    ``players`` by seat (``None``: a bot); ``winner_team`` ``None`` if cancelled; ``rated`` only
    for quick games matched among four humans; ``leavers`` left the game in progress on purpose;
    ``assisted`` asked for hints during it, or left more of their decisions to the bot than
    they made (a win earns them no account points).
    """

    game_id: str
    players: tuple[str | None, str | None, str | None, str | None]
    winner_team: int | None
    par_bam: bool = False
    quick: bool = False
    rated: bool = False
    leavers: frozenset[str] = field(default_factory=frozenset)
    assisted: frozenset[str] = field(default_factory=frozenset)  # hints, or idle: no points
    code: str | None = None
    finished_at: int = 0

    def __post_init__(self) -> None:
        if len(self.players) != 4:
            raise InvalidInputError("a game has four seats")
        humans = [p for p in self.players if p is not None]
        if len(set(humans)) != len(humans):
            raise InvalidInputError("a player holds two seats")
        if self.rated and len(humans) != 4:
            raise InvalidInputError("only games among four humans are rated")
        if not self.leavers <= set(humans):
            raise InvalidInputError("a leaver must be one of the game's players")
        if self.winner_team not in (0, 1, None):
            raise InvalidInputError("winner_team must be 0, 1 or None")

    def result_of(self, player: str) -> str:
        """``won``, ``lost``, ``left`` (a recorded loss) or ``cancelled``; in a rated game
        with leavers on one team (rated as its loss, whatever the cards said,
        ``docs/accounts.md``): ``opponent_left`` for the other team (a recorded win, as their
        rating has it) and, if the game stopped, ``partner_left`` for a leaver's partner who
        stayed (not counted, as their rating is left alone)."""
        if player in self.leavers:
            return "left"
        team = self.players.index(player) % 2
        left = {self.players.index(p) % 2 for p in self.leavers}
        if self.rated and left == {1 - team}:
            return "opponent_left"
        if self.winner_team is None:
            return "partner_left" if self.rated and left == {team} else "cancelled"
        return "won" if team == self.winner_team else "lost"

    def points(self) -> dict[str, int]:
        """Account points: the winners' humans, a leaver or a player who took hints excepted."""
        won = points_for_game(self.players, self.winner_team, par_bam=self.par_bam)
        return {p: n for p, n in won.items() if p not in self.leavers | self.assisted}

    def rated_game(self) -> RatedGame:
        a, b, c, d = (str(p) for p in self.players)
        return RatedGame(self.game_id, ((a, c), (b, d)), self.winner_team, self.leavers)


class _Tables:
    def __init__(self, prefix: str) -> None:
        md = self.metadata = sa.MetaData()
        self.accounts = sa.Table(
            f"{prefix}accounts",
            md,
            sa.Column("player_id", sa.String(64), primary_key=True),
            sa.Column("username", sa.String(64), nullable=False),
            sa.Column("username_key", sa.String(64), nullable=False, unique=True),
            sa.Column("password_hash", sa.String(256), nullable=False),
            sa.Column("created_at", sa.BigInteger, nullable=False),
            sa.Column("password_changed_at", sa.BigInteger, nullable=False),
        )
        self.sessions = sa.Table(
            f"{prefix}sessions",
            md,
            sa.Column("token_hash", sa.String(64), primary_key=True),
            sa.Column("player_id", sa.String(64), nullable=False, index=True),
            sa.Column("created_at", sa.BigInteger, nullable=False),
            sa.Column("expires_at", sa.BigInteger, nullable=False),
        )
        self.ratings = sa.Table(
            f"{prefix}ratings",
            md,
            sa.Column("player_id", sa.String(64), primary_key=True),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
            sa.Column("updated_at", sa.BigInteger, nullable=False),
        )
        self.stats = sa.Table(
            f"{prefix}player_stats",
            md,
            sa.Column("player_id", sa.String(64), primary_key=True),
            sa.Column("points", sa.Integer, nullable=False),
            sa.Column("played", sa.Integer, nullable=False),
            sa.Column("won", sa.Integer, nullable=False),
        )
        self.history = sa.Table(
            f"{prefix}player_games",
            md,
            sa.Column("game_id", sa.String(64), primary_key=True),
            sa.Column("player_id", sa.String(64), primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("result", sa.String(16), nullable=False),
            sa.Column("points", sa.Integer, nullable=False),
            sa.Column("quick", sa.Boolean, nullable=False),
            sa.Column("rated", sa.Boolean, nullable=False),
            sa.Column("code", sa.String(16), nullable=True),
            sa.Column("at", sa.BigInteger, nullable=False, index=True),
            sa.Index(f"{prefix}player_games_by_player", "player_id", "at"),
        )
        self.quick = sa.Table(
            f"{prefix}quick_games",
            md,
            sa.Column("code", sa.String(16), primary_key=True),
            sa.Column("players", sa.String(300), nullable=False),
            sa.Column("rated", sa.Boolean, nullable=False),
            sa.Column("at", sa.BigInteger, nullable=False),
        )
        self.recorded = sa.Table(
            f"{prefix}recorded_games",
            md,
            sa.Column("game_id", sa.String(64), primary_key=True),
            sa.Column("at", sa.BigInteger, nullable=False),
            sa.Column("rating_changes", sa.Text, nullable=False),
        )


@dataclass(frozen=True, slots=True)
class UnrecordedGame:
    """A stored game whose outcome was never recorded (:meth:`AccountStore.unrecorded_games`)."""

    game_id: str
    code: str
    finished_at: int  # ms
    owner: str | None  # the room's owner as stored
    record: dict[str, Any]


class AccountStore:
    """Accounts, sessions, ratings, stats, history and points on top of a started storage."""

    def __init__(self, storage: SqlStorage) -> None:
        self.storage = storage
        self.t = _Tables(storage.prefix)
        self.players = storage.t.players
        self._boards = _Kept(BOARD_TTL)  # leaderboard pages and places (``_board``)

    async def start(self) -> None:
        async with self.storage.engine.begin() as conn:
            await self.storage.schema_lock(conn)  # (processes starting at once)
            await conn.run_sync(self.t.metadata.create_all)
            await self.storage.check_columns(conn, self.t.metadata)
            await conn.run_sync(self._rekey)

    def _rekey(self, conn: sa.Connection) -> None:
        """Bring every stored username key up to :func:`username_key` (whose folding has
        grown: NFKC, Arabic and Persian letter forms, digits), so no account loses its login.
        An account whose new key another account holds already (the older first) keeps its
        key, and logs in by its username exactly as registered (:meth:`account_by_username`)."""
        a = self.t.accounts
        rows = conn.execute(
            sa.select(a.c.player_id, a.c.username, a.c.username_key).order_by(
                a.c.created_at, a.c.player_id
            )
        ).all()
        taken = {row.username_key for row in rows}
        for row in rows:
            key = username_key(row.username)
            if key == row.username_key:
                continue
            if key in taken:
                log.warning(
                    "account %s (%r): its new username key %r is another account's; kept %r",
                    row.player_id,
                    row.username,
                    key,
                    row.username_key,
                )
                continue
            conn.execute(a.update().where(a.c.player_id == row.player_id).values(username_key=key))
            taken.discard(row.username_key)
            taken.add(key)

    async def drop_all(self) -> None:
        async with self.storage.engine.begin() as conn:
            await conn.run_sync(self.t.metadata.drop_all)

    async def _write(self, fn: Callable[[sa.Connection], Any]) -> Any:
        """Run ``fn(connection)`` (synchronous SQLAlchemy) in the storage's single writer.

        The writer commits queued writes together (group commit); SQLite sees one writer.
        """
        return await self.storage._write(fn)

    # ------------------------------------------------------------------ accounts

    async def create_account(
        self, *, username: str, password_hash: str, name: str, player_id: str | None = None
    ) -> str:
        """A new account; with ``player_id`` (a guest's) the guest becomes it, keeping history."""
        key = username_key(username)
        pid = player_id or f"a_{secrets.token_urlsafe(9)}"
        a, p = self.t.accounts, self.players
        now = now_ms()

        def write(conn: sa.Connection) -> str | None:
            taken = conn.execute(
                sa.select(a.c.player_id).where(
                    sa.or_(a.c.username_key == key, a.c.player_id == pid)
                )
            )
            if taken.first() is not None:
                return None  # not raised here: the writer would log it as a failed write
            conn.execute(
                a.insert().values(
                    player_id=pid,
                    username=username,
                    username_key=key,
                    password_hash=password_hash,
                    created_at=now,
                    password_changed_at=now,
                )
            )
            done = conn.execute(
                p.update().where(p.c.id == pid).values(kind="account", name=name, updated_at=now)
            )
            if done.rowcount == 0:
                conn.execute(
                    p.insert().values(
                        id=pid,
                        name=name,
                        kind="account",
                        created_at=now,
                        updated_at=now,
                        extra="{}",
                    )
                )
            return pid

        try:
            created = await self._write(write)
        except VersionConflictError:  # a unique constraint raced us
            created = None
        if created is None:
            raise UsernameTakenError("that username is taken")
        self._boards.clear()  # (a guest's points and rating come onto the boards with it)
        return str(created)

    async def delete_account(self, player_id: str) -> bool:
        """Erase an account: its username (free for anyone again), password, sessions,
        rating, points, statistics and game history; the player is left as ``deleted`` with
        no name, so the id is never anyone again (its guest token stops working too) and
        games finished later record nothing for it. Games already played keep the name the
        table showed (the other players' records and replays). False if no such account."""
        a, p, t = self.t.accounts, self.players, self.t
        now = now_ms()

        def write(conn: sa.Connection) -> bool:
            if conn.execute(a.delete().where(a.c.player_id == player_id)).rowcount == 0:
                return False
            # The player's row first: a game being recorded in another process holds it
            # (``_deleted``) until it commits, and its rows are then seen and erased here;
            # one recorded after this waits for it and finds the player deleted.
            conn.execute(
                p.update()
                .where(p.c.id == player_id)
                .values(kind=DELETED, name="", updated_at=now, extra="{}")
            )
            for table in (t.sessions, t.ratings, t.stats, t.history):
                conn.execute(table.delete().where(table.c.player_id == player_id))
            return True

        deleted = bool(await self._write(write))
        if deleted:
            self._boards.clear()  # (it leaves the boards at once)
        return deleted

    def _deleted(self, conn: sa.Connection, ids: Iterable[str]) -> set[str]:
        """Which of these players are deleted accounts. Their rows are held (``FOR SHARE``
        on PostgreSQL) to the end of the transaction: a deletion in another process waits for
        the game's rows to be written, and erases them; or it came first, and is seen."""
        p = self.players
        query = sa.select(p.c.id, p.c.kind).where(p.c.id.in_(list(ids))).with_for_update(read=True)
        return {str(row.id) for row in conn.execute(query) if row.kind == DELETED}

    async def find_accounts(self, search: str = "", *, limit: int = 50) -> list[dict[str, Any]]:
        """Accounts whose username or display name holds ``search`` (any case), newest first:
        the operator's ``hokm accounts list``."""
        a, p, st = self.t.accounts, self.players, self.t.stats
        query = (
            sa.select(
                a.c.player_id,
                a.c.username,
                a.c.created_at,
                p.c.name,
                st.c.points,
                st.c.played,
            )
            .select_from(
                a.join(p, p.c.id == a.c.player_id).outerjoin(st, st.c.player_id == a.c.player_id)
            )
            .order_by(a.c.created_at.desc(), a.c.player_id)
            .limit(limit)
        )
        if search:
            query = query.where(
                sa.or_(
                    a.c.username.ilike(_like(search), escape="\\"),
                    a.c.username_key.like(_like(username_key(search)), escape="\\"),
                    p.c.name.ilike(_like_words(search), escape="\\"),
                )
            )
        async with self.storage.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {
                "player_id": row.player_id,
                "username": row.username,
                "name": row.name,
                "created_at": int(row.created_at),
                "points": int(row.points or 0),
                "games_played": int(row.played or 0),
            }
            for row in rows
        ]

    async def account_by_username(self, username: str) -> AccountRow | None:
        """The account of ``username`` as typed, else of its key: an account whose key was
        kept when the folding grew (another took the new key) still logs in as registered."""
        a = self.t.accounts
        exact = unicodedata.normalize("NFC", username.strip())
        found = await self._account(a.c.username == exact)
        return found or await self._account(a.c.username_key == username_key(username))

    async def account_by_id(self, player_id: str) -> AccountRow | None:
        return await self._account(self.t.accounts.c.player_id == player_id)

    async def _account(self, where: Any) -> AccountRow | None:
        a = self.t.accounts
        async with self.storage.engine.connect() as conn:
            row = (await conn.execute(sa.select(a).where(where))).first()
        if row is None:
            return None
        return AccountRow(
            row.player_id,
            row.username,
            row.password_hash,
            int(row.created_at),
            int(row.password_changed_at),
        )

    async def set_password(self, player_id: str, password_hash: str) -> None:
        a = self.t.accounts

        def write(conn: sa.Connection) -> None:
            conn.execute(
                a.update()
                .where(a.c.player_id == player_id)
                .values(password_hash=password_hash, password_changed_at=now_ms())
            )

        await self._write(write)

    async def set_name(self, player_id: str, name: str) -> None:
        p = self.players

        def write(conn: sa.Connection) -> None:
            conn.execute(
                p.update().where(p.c.id == player_id).values(name=name, updated_at=now_ms())
            )

        await self._write(write)
        self._boards.clear()  # (the boards show names)

    async def player(self, player_id: str) -> tuple[str, str] | None:
        """``(name, kind)`` of a player."""
        p = self.players
        async with self.storage.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(p.c.name, p.c.kind).where(p.c.id == player_id))
            ).first()
        return None if row is None else (str(row.name), str(row.kind))

    # ------------------------------------------------------------------ sessions

    async def create_session(self, token_hash: str, player_id: str, *, expires_at: int) -> None:
        s = self.t.sessions

        def write(conn: sa.Connection) -> None:
            conn.execute(
                s.insert().values(
                    token_hash=token_hash,
                    player_id=player_id,
                    created_at=now_ms(),
                    expires_at=expires_at,
                )
            )

        await self._write(write)

    async def session_player(self, token_hash: str, *, now: int) -> str | None:
        found = await self.session_identity(token_hash, now=now)
        return None if found is None else found[0]

    async def session_identity(self, token_hash: str, *, now: int) -> tuple[str, str] | None:
        """``(player_id, name)`` of a valid session, in one query. Never a deleted
        account's: a login that checked the password just before the account was deleted
        (another tab, the operator's ``hokm accounts delete``) stores its session after the
        deletion erased the others."""
        s, p = self.t.sessions, self.players
        query = (
            sa.select(s.c.player_id, p.c.name)
            .join(p, p.c.id == s.c.player_id)
            .where(s.c.token_hash == token_hash, s.c.expires_at > now, p.c.kind != DELETED)
        )
        async with self.storage.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (str(row.player_id), str(row.name))

    async def delete_sessions(
        self,
        *,
        token_hash: str | None = None,
        player_id: str | None = None,
        keep: str | None = None,
    ) -> None:
        """Delete one session, or all of a player's sessions except ``keep``."""
        s = self.t.sessions
        if token_hash is not None:
            where: Any = s.c.token_hash == token_hash
        elif player_id is not None:
            where = s.c.player_id == player_id
            if keep is not None:
                where = sa.and_(where, s.c.token_hash != keep)
        else:
            raise InvalidInputError("delete which sessions?")

        def write(conn: sa.Connection) -> None:
            conn.execute(s.delete().where(where))
            conn.execute(s.delete().where(s.c.expires_at <= now_ms()))

        await self._write(write)

    # ------------------------------------------------------------------ ratings and games

    async def ratings(self, player_ids: Iterable[str]) -> dict[str, Rating]:
        """Ratings of these players (a fresh rating for one never rated)."""
        ids = list(player_ids)
        async with self.storage.engine.connect() as conn:
            return await self._ratings(conn, ids)

    async def _ratings(self, conn: AsyncConnection, ids: list[str]) -> dict[str, Rating]:
        r = self.t.ratings
        rows = (await conn.execute(sa.select(r).where(r.c.player_id.in_(ids)))).all()
        return _ratings_of(rows, ids)

    def _ratings_sync(self, conn: sa.Connection, ids: list[str]) -> dict[str, Rating]:
        r = self.t.ratings
        rows = conn.execute(sa.select(r).where(r.c.player_id.in_(ids))).all()
        return _ratings_of(rows, ids)

    async def unrecorded_games(
        self,
        *,
        since: int = 0,
        before: int | None = None,
        after: tuple[int, str] | None = None,
        limit: int = 500,
    ) -> list[UnrecordedGame]:
        """Stored games whose outcome was never recorded (the server stopped, or recording
        failed, in between), finished at ``since`` (ms) or later (and before ``before``), in
        (finished_at, game_id) order after ``after``."""
        g, rec, rooms = self.storage.t.games, self.t.recorded, self.storage.t.rooms
        query = (
            sa.select(g.c.game_id, g.c.code, g.c.finished_at, rooms.c.owner, g.c.record)
            .outerjoin(rooms, rooms.c.code == g.c.code)
            .where(g.c.finished_at >= since, ~sa.exists().where(rec.c.game_id == g.c.game_id))
            .order_by(g.c.finished_at, g.c.game_id)
            .limit(limit)
        )
        if before is not None:
            query = query.where(g.c.finished_at < before)
        if after is not None:
            query = query.where(sa.tuple_(g.c.finished_at, g.c.game_id) > sa.tuple_(*after))
        async with self.storage.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            UnrecordedGame(r.game_id, r.code, r.finished_at, r.owner, json.loads(r.record))
            for r in rows
        ]

    async def record_game(self, outcome: GameOutcome) -> bool:
        """Apply a game's history, stats, points and (if rated) ratings; False if already done."""
        at = outcome.finished_at or now_ms()

        def write(conn: sa.Connection) -> bool:
            self._hold_players(conn, [p for p in outcome.players if p is not None])
            rec = self.t.recorded
            seen = conn.execute(sa.select(rec.c.game_id).where(rec.c.game_id == outcome.game_id))
            if seen.first() is not None:
                return False
            changes: dict[str, Any] = {}
            if outcome.rated:
                changes = self._apply_ratings(conn, outcome, at)
            conn.execute(
                rec.insert().values(
                    game_id=outcome.game_id, at=at, rating_changes=json.dumps(changes)
                )
            )
            self._apply_history(conn, outcome, at)
            return True

        try:
            recorded = bool(await self._write(write))
        except VersionConflictError:  # another process recorded it at the same moment
            return False
        if recorded:
            self._boards.clear()  # (points, ratings and history changed)
        return recorded

    def _hold_players(self, conn: sa.Connection, ids: list[str]) -> None:
        """Hold these players' rows to the end of the transaction (``FOR UPDATE`` on
        PostgreSQL, in id order so that two holders never wait for each other): two processes
        recording games of one player at once take turns. Else each read the rating the other
        was about to change (the later write undid the earlier game's update), and both
        inserted a new player's first rating or stats row (the loser's whole game was then
        taken for recorded already). SQLite has one writer at a time anyway."""
        p = self.players
        query = sa.select(p.c.id).where(p.c.id.in_(sorted(set(ids)))).order_by(p.c.id)
        conn.execute(query.with_for_update()).all()

    def _apply_ratings(self, conn: sa.Connection, outcome: GameOutcome, at: int) -> dict[str, Any]:
        r = self.t.ratings
        game = outcome.rated_game()
        ids = [p for team in game.teams for p in team]
        before = self._ratings_sync(conn, ids)
        after = rating_updates(game, before)
        gone = self._deleted(conn, after)  # (a deleted account's game ended: nothing of it kept)
        after = {pid: new for pid, new in after.items() if pid not in gone}
        for pid, new in after.items():
            values = {"mu": new.mu, "sigma": new.sigma, "games": new.games, "updated_at": at}
            done = conn.execute(r.update().where(r.c.player_id == pid).values(**values))
            if done.rowcount == 0:
                conn.execute(r.insert().values(player_id=pid, **values))
        return {pid: [before[pid].shown, new.shown] for pid, new in after.items()}

    def _apply_history(self, conn: sa.Connection, outcome: GameOutcome, at: int) -> None:
        h, st = self.t.history, self.t.stats
        points = outcome.points()
        gone = self._deleted(conn, [p for p in outcome.players if p is not None])
        for seat, pid in enumerate(outcome.players):
            if pid is None or pid in gone:
                continue
            result = outcome.result_of(pid)
            conn.execute(
                h.insert().values(
                    game_id=outcome.game_id,
                    player_id=pid,
                    seat=seat,
                    result=result,
                    points=points.get(pid, 0),
                    quick=outcome.quick,
                    rated=outcome.rated,
                    code=outcome.code,
                    at=at,
                )
            )
            played = int(result not in ("cancelled", "partner_left"))
            won = int(result in ("won", "opponent_left"))
            gained = points.get(pid, 0)
            done = conn.execute(
                st.update()
                .where(st.c.player_id == pid)
                .values(
                    points=st.c.points + gained, played=st.c.played + played, won=st.c.won + won
                )
            )
            if done.rowcount == 0:
                conn.execute(
                    st.insert().values(player_id=pid, points=gained, played=played, won=won)
                )

    # ------------------------------------------------------------------ quick games

    async def save_quick_match(self, code: str, match: Match) -> None:
        """Remember that room ``code`` was made by the quick match (survives a restart)."""
        q = self.t.quick

        def write(conn: sa.Connection) -> None:
            conn.execute(
                q.insert().values(
                    code=code,
                    players=json.dumps(list(match.players)),
                    rated=match.rated,
                    at=now_ms(),
                )
            )

        await self._write(write)

    async def quick_match(self, code: str) -> Match | None:
        q = self.t.quick
        async with self.storage.engine.connect() as conn:
            row = (await conn.execute(sa.select(q).where(q.c.code == code))).first()
        if row is None:
            return None
        a, b, c, d = json.loads(row.players)
        return Match((a, b, c, d), rated=bool(row.rated))

    # ------------------------------------------------------------------ profile and leaderboard

    async def profile(self, player_id: str, *, recent: int = 10) -> dict[str, Any] | None:
        """Everything a profile shows, read in one connection; None for an unknown player."""
        p, a = self.players, self.t.accounts
        async with self.storage.engine.connect() as conn:
            query = (
                sa.select(p.c.name, p.c.kind, a.c.username)
                .select_from(p.outerjoin(a, a.c.player_id == p.c.id))
                .where(p.c.id == player_id)
            )
            row = (await conn.execute(query)).first()
            if row is None or row.kind == DELETED:
                return None
            rating = (await self._ratings(conn, [player_id]))[player_id]
            return {
                "player": {"id": player_id, "name": str(row.name), "kind": str(row.kind)},
                "username": row.username,
                **rating.to_dict(),
                **await self._stats(conn, player_id),
                "recent_games": await self._recent(conn, player_id, recent),
            }

    async def stats(self, player_id: str) -> dict[str, int]:
        async with self.storage.engine.connect() as conn:
            return await self._stats(conn, player_id)

    async def _stats(self, conn: AsyncConnection, player_id: str) -> dict[str, int]:
        st = self.t.stats
        row = (await conn.execute(sa.select(st).where(st.c.player_id == player_id))).first()
        if row is None:
            return {"points": 0, "games_played": 0, "games_won": 0}
        return {
            "points": int(row.points),
            "games_played": int(row.played),
            "games_won": int(row.won),
        }

    async def recent_games(self, player_id: str, *, limit: int = 10) -> list[dict[str, Any]]:
        async with self.storage.engine.connect() as conn:
            return await self._recent(conn, player_id, limit)

    async def _recent(
        self, conn: AsyncConnection, player_id: str, limit: int
    ) -> list[dict[str, Any]]:
        h, rec = self.t.history, self.t.recorded
        games = self.storage.t.games  # the stored game, for its final score
        query = (
            sa.select(h, games.c.score, rec.c.rating_changes)
            .select_from(
                h.outerjoin(games, games.c.game_id == h.c.game_id).outerjoin(
                    rec, rec.c.game_id == h.c.game_id
                )
            )
            .where(h.c.player_id == player_id)
            .order_by(h.c.at.desc(), h.c.game_id.desc())
            .limit(limit)
        )
        rows = (await conn.execute(query)).all()
        return [
            {
                "game_id": row.game_id,
                "room": row.code,
                "seat": int(row.seat),
                "result": row.result,
                "points": int(row.points),
                "quick": bool(row.quick),
                "rated": bool(row.rated),
                "finished_at": int(row.at),
                # the game's score by team (team 0 = seats 0 and 2), if the game is stored
                "score": _score(row.score),
                # [shown rating before, after] when the game moved this player's rating
                "rating_change": _rating_change(row.rating_changes, player_id),
                "record": f"/api/games/{row.game_id}/record",
            }
            for row in rows
        ]

    def _points_query(self, period: str, now: int) -> Any:
        """(player_id, username, name, points) of every account with points in the period."""
        a, p = self.t.accounts, self.players
        if period == "all":
            st = self.t.stats
            pts: Any = st.c.points.label("points")
            source: Any = sa.select(st.c.player_id, pts).where(st.c.points > 0).subquery()
        elif period == "week":
            start = week_start(datetime.fromtimestamp(now / 1000, UTC))
            h = self.t.history
            source = (
                sa.select(h.c.player_id, sa.func.sum(h.c.points).label("points"))
                .where(h.c.at >= int(start.timestamp() * 1000), h.c.points > 0)
                .group_by(h.c.player_id)
                .subquery()
            )
        else:
            raise InvalidInputError("period must be 'all' or 'week'")
        return (
            sa.select(source.c.player_id, a.c.username, p.c.name, source.c.points)
            .join(a, a.c.player_id == source.c.player_id)
            .join(p, p.c.id == source.c.player_id)
        ).subquery()

    async def leaderboard(
        self,
        *,
        period: str,
        offset: int,
        limit: int,
        viewer: str | None,
        now: int,
        reading: Reading | None = None,
    ) -> dict[str, Any]:
        """One page of accounts ranked by account points, and the viewer's own place
        (``reading``: awaited before the database is read for it, :meth:`_board`)."""
        q = self._points_query(period, now)
        since = week_start(datetime.fromtimestamp(now / 1000, UTC)) if period == "week" else None
        kind = ("points", period, since)

        def entry(row: Any) -> dict[str, Any]:
            return {
                "player_id": row.player_id,
                "username": row.username,
                "name": row.name,
                "points": int(row.points),
            }

        def own(row: Any) -> dict[str, Any]:  # the viewer's place besides its rank
            return {"points": 0 if row is None else int(row.points)}

        board = _Board(kind, q, "points", entry, own)
        entries, total, mine = await self._board(board, offset, limit, viewer, reading)
        return {
            "period": period,
            "offset": offset,
            "limit": limit,
            "total": total,
            "entries": entries,
            "me": mine,
        }

    async def rating_board(
        self, *, offset: int, limit: int, viewer: str | None, reading: Reading | None = None
    ) -> dict[str, Any]:
        """One page of accounts with a rated game, ranked by their shown rating (from the
        conservative ``mu − 3·sigma``, so a player of few games ranks low until it settles; the
        same rating shares a rank), and the viewer's own place (``rank`` None before their
        first rated game)."""
        r, a, p = self.t.ratings, self.t.accounts, self.players
        # ranked by the rating shown (``Rating.shown``: rounded, never below 0), so two players
        # shown the same share a rank
        shown = sa.func.round(100 * (r.c.mu - 3 * r.c.sigma))
        value = sa.case((shown < 0, 0), else_=shown).label("value")
        q = (
            sa.select(r.c.player_id, a.c.username, p.c.name, r.c.mu, r.c.sigma, r.c.games, value)
            .join(a, a.c.player_id == r.c.player_id)
            .join(p, p.c.id == r.c.player_id)
            .where(r.c.games > 0)
        ).subquery()

        def entry(row: Any) -> dict[str, Any]:
            rating = Rating(mu=float(row.mu), sigma=float(row.sigma), games=int(row.games))
            return {
                "player_id": row.player_id,
                "username": row.username,
                "name": row.name,
                "rating": rating.shown,
                "rated_games": rating.games,
                "provisional": rating.is_provisional,
                "tier": rating.tier.to_dict(),
            }

        def own(row: Any) -> dict[str, Any]:  # the viewer's place besides its rank
            return {"rating": Rating().shown if row is None else entry(row)["rating"]}

        board = _Board(("rating",), q, "value", entry, own)
        entries, total, mine = await self._board(board, offset, limit, viewer, reading)
        return {
            "by": "rating",
            "offset": offset,
            "limit": limit,
            "total": total,
            "entries": entries,
            "me": mine,
        }

    async def _board(
        self,
        board: _Board,
        offset: int,
        limit: int,
        viewer: str | None,
        reading: Reading | None = None,
    ) -> tuple[list[dict[str, Any]], int, dict[str, Any] | None]:
        """A board's page and the viewer's place, each kept for ``BOARD_TTL`` seconds: every
        one of them reads all the accounts (a quarter of a second at 100,000,
        ``scripts/board_bench.py``), and a leaderboard is read far more often than it changes.
        A game recorded, an account made or deleted or a name changed here forgets them at
        once; another process's shows within ``BOARD_TTL``. ``reading`` is awaited before the
        database is read (a page or a place not kept), and may refuse by raising: the server
        limits such reads per client address, not the pages it answers from what it keeps."""
        page_key = (*board.kind, offset, limit)
        me_key = (*board.kind, "me", viewer)
        kept = self._boards.get(page_key)
        mine = None if viewer is None else self._boards.get(me_key)
        if kept is None or (viewer is not None and mine is None):
            if reading is not None:
                await reading()
            # (a change here while this reads clears the boards: what was read before it is
            # answered but not kept, ``_Kept.put``'s ``since``)
            since = self._boards.generation
            async with self.storage.engine.connect() as conn:
                if kept is None:
                    read = await _ranked_page(conn, board, offset, limit)
                    kept = self._boards.put(page_key, read, since=since)
                if viewer is not None and mine is None:
                    row, rank = await _place(conn, board, viewer)
                    place = {"player_id": viewer, "rank": rank, **board.own(row)}
                    mine = self._boards.put(me_key, place, since=since)
        entries, total = kept
        return copy.deepcopy(entries), total, None if mine is None else dict(mine)


@dataclass(frozen=True, slots=True)
class _Board:
    """A leaderboard: its cache ``kind``, the subquery ``q`` of its rows (``player_id`` and
    ``username`` among them) ranked by column ``key``, a row as an ``entry``, and what a
    viewer's place says besides its rank (``own``, of the viewer's row or None)."""

    kind: tuple[Any, ...]
    q: Any
    key: str
    entry: Callable[[Any], dict[str, Any]]
    own: Callable[[Any], dict[str, Any]]


async def _count(conn: AsyncConnection, q: Any, *where: Any) -> int:
    """How many rows of the subquery ``q`` (that meet ``where``)."""
    query = sa.select(sa.func.count()).select_from(q)
    if where:
        query = query.where(*where)
    return int((await conn.execute(query)).scalar() or 0)


async def _ranked_page(
    conn: AsyncConnection, board: _Board, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of the board, highest first (then by username), each row's entry with its rank
    ("1224": the same value shares a rank, a tie reaching back before the page included), and
    how many rows the board has in all."""
    q, key = board.q, board.key
    column = q.c[key]
    select = sa.select(q).order_by(column.desc(), q.c.username).offset(offset).limit(limit)
    rows = (await conn.execute(select)).all()
    entries: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        value = getattr(row, key)
        if not entries:
            rank = await _count(conn, q, column > value) + 1
        elif getattr(rows[i - 1], key) == value:
            rank = entries[-1]["rank"]
        else:
            rank = offset + i + 1
        entries.append({"rank": rank, **board.entry(row)})
    return entries, await _count(conn, q)


async def _place(conn: AsyncConnection, board: _Board, player_id: str) -> tuple[Any, int | None]:
    """``player_id``'s row of the board and its rank (``(None, None)`` when not on it)."""
    q, key = board.q, board.key
    row = (await conn.execute(sa.select(q).where(q.c.player_id == player_id))).first()
    if row is None:
        return None, None
    return row, await _count(conn, q, q.c[key] > getattr(row, key)) + 1


class _Kept:
    """Values kept for ``ttl`` seconds (at most ``size``; the oldest go first)."""

    def __init__(self, ttl: float, size: int = 4096, clock: Callable[[], float] = time.monotonic):
        self.ttl, self.size, self.clock = ttl, size, clock
        self._items: dict[Any, tuple[float, Any]] = {}
        self.generation = 0  # how many times it was cleared

    def get(self, key: Any) -> Any:
        item = self._items.get(key)
        if item is None or item[0] <= self.clock():
            return None
        return item[1]

    def put(self, key: Any, value: Any, *, since: int | None = None) -> Any:
        """Keep ``value`` (not if cleared since ``generation`` was ``since``: read before a
        change, it would be kept after it)."""
        if since is not None and since != self.generation:
            return value
        if len(self._items) >= self.size:
            now = self.clock()
            self._items = {k: v for k, v in self._items.items() if v[0] > now}
            while len(self._items) >= self.size:
                del self._items[next(iter(self._items))]
        self._items[key] = (self.clock() + self.ttl, value)
        return value

    def clear(self) -> None:
        self._items.clear()
        self.generation += 1


def _like_words(text: str) -> str:
    """A LIKE pattern for "holds these words, in this order": a space or a zero-width
    non-joiner between them matches either or nothing, as Persian names are written both ways
    («تازه‌کار», «تازه کار», «تازهکار»)."""
    words = [w for w in re.split(r"[\s\u200c]+", text) if w]
    return f"%{'%'.join(map(_escaped, words))}%" if words else _like(text)


def _like(text: str) -> str:
    """A LIKE pattern for "holds ``text``" (its own ``%``, ``_`` and ``\\`` taken as they are)."""
    return f"%{_escaped(text)}%"


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _rating_change(text: str | None, player_id: str) -> list[int] | None:
    """This player's ``[before, after]`` shown rating in a recorded game's changes, if any."""
    if not text:
        return None
    try:
        pair = json.loads(text).get(player_id)
        return [int(pair[0]), int(pair[1])] if pair else None
    except (ValueError, TypeError, AttributeError, IndexError):
        return None  # (written by this module as JSON; anything else is not a change)


def _ratings_of(rows: Any, ids: list[str]) -> dict[str, Rating]:
    found = {row.player_id: Rating(row.mu, row.sigma, int(row.games)) for row in rows}
    return {pid: found.get(pid, Rating()) for pid in ids}


def _score(raw: str | None) -> list[int] | None:
    """A stored game's score (the storage's JSON ``[a, b]``), or None without a stored game."""
    if raw is None:
        return None
    a, b = json.loads(raw)
    return [int(a), int(b)]
