"""The account operations the server exposes: register, log in and out, passwords, profiles.

No HTTP here: the server's ``accounts_api`` maps requests to these calls and
:class:`~hokm.accounts.errors.AccountError` to error responses. Time comes from ``clock``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hokm.accounts.errors import (
    InvalidCredentialsError,
    InvalidInputError,
    NotAuthenticatedError,
    NotFoundError,
    RateLimitedError,
)
from hokm.accounts.security import (
    FailedLogins,
    LocalFailedLogins,
    LoginLimiter,
    Passwords,
    check_display_name,
    check_password,
    check_username,
    hash_token,
    new_session_token,
    username_key,
)
from hokm.accounts.store import AccountRow, AccountStore, Reading

__all__ = ["SESSION_DAYS", "AccountService", "Session"]

SESSION_DAYS = 30
MAX_PAGE = 100


@dataclass(frozen=True, slots=True)
class Session:
    player_id: str
    token: str  # the raw token: only ever sent to its owner, in a cookie
    expires_at: int  # Unix ms


class AccountService:
    def __init__(
        self,
        store: AccountStore,
        *,
        passwords: Passwords | None = None,
        limiter: LoginLimiter | None = None,
        clock: Callable[[], float] = time.time,
        names: Callable[[str], str] | None = None,
    ) -> None:
        self.store = store
        self.passwords = passwords or Passwords()
        self.limiter = limiter or LoginLimiter()
        # Shared by several server processes when set (hokm.server.cluster); else ``limiter``.
        self.failed_logins: FailedLogins | None = None
        self.clock = clock
        # A further check of display names, after check_display_name: the server's rule for
        # every name shown at a table (no links, no phone numbers); raises InvalidInputError.
        self.names = names

    def _display(self, name: object) -> str:
        display = check_display_name(name)
        return self.names(display) if self.names is not None else display

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def _new_session(self, player_id: str) -> Session:
        token = new_session_token()
        expires = self._now_ms() + SESSION_DAYS * 86_400_000
        await self.store.create_session(hash_token(token), player_id, expires_at=expires)
        return Session(player_id, token, expires)

    async def register(
        self,
        username: object,
        password: object,
        *,
        name: object = None,
        guest_id: str | None = None,
        guest_name: str | None = None,
    ) -> Session:
        """A new account (a guest's id, history and name are kept) and a session for it."""
        user = check_username(username)
        if self.names is not None:  # a username is shown on the profile and leaderboard
            try:
                self.names(user)
            except InvalidInputError as exc:
                raise InvalidInputError(
                    "a username may not hold a link or a phone number",
                    message_fa="نام کاربری نباید پیوند یا شمارهٔ تلفن داشته باشد",
                ) from exc
        secret = check_password(password)
        display = self._display(name if name is not None else (guest_name or user))
        stored = await self.passwords.hash(secret)
        player_id = await self.store.create_account(
            username=user, password_hash=stored, name=display, player_id=guest_id
        )
        return await self._new_session(player_id)

    async def login(self, username: object, password: object, *, address: str) -> Session:
        """A session for the right password. Wrong password and unknown user: the same error."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise InvalidInputError("username and password must be strings")
        if len(username) > 64 or len(password) > 256:
            raise InvalidCredentialsError()
        key = username_key(username)
        failures = self.failed_logins or LocalFailedLogins(self.limiter)
        try:
            await failures.check(account=key, address=address, now=self.clock())
        except RateLimitedError:
            # Failures before the account's last password change do not count against it:
            # a player whose forgotten password an operator reset (``hokm accounts
            # reset-password``, another process) is not kept out by their own earlier tries.
            # Only a refusal looks the account up to ask again.
            account = await self.store.account_by_username(username)
            if account is None:
                raise
            await failures.check(
                account=key, address=address, now=self.clock(), since=self._changed(account)
            )
        else:
            account = await self.store.account_by_username(username)
        stored = account.password_hash if account is not None else None
        if not await self.passwords.verify(stored, password) or account is None:
            await failures.failed(account=key, address=address, now=self.clock())
            raise InvalidCredentialsError()
        await failures.succeeded(account=key, address=address)
        if self.passwords.needs_rehash(account.password_hash):
            await self.store.set_password(account.player_id, await self.passwords.hash(password))
        return await self._new_session(account.player_id)

    @staticmethod
    def _changed(account: AccountRow) -> float:
        return account.password_changed_at / 1000

    async def session_player(self, token: str | None) -> str | None:
        """The player of a valid, unexpired session token."""
        found = await self.session_identity(token)
        return None if found is None else found[0]

    async def session_identity(self, token: str | None) -> tuple[str, str] | None:
        """``(player_id, display name)`` of a valid, unexpired session token."""
        if not token or len(token) > 128:
            return None
        return await self.store.session_identity(hash_token(token), now=self._now_ms())

    async def logout(self, token: str | None) -> None:
        if token:
            await self.store.delete_sessions(token_hash=hash_token(token))

    async def change_password(
        self,
        player_id: str,
        old: object,
        new: object,
        *,
        current_token: str | None,
        address: str = "unknown",
    ) -> None:
        """Needs the old password; every other session of the account is logged out. A wrong
        old password counts as a failed login of the account from ``address`` (and more than
        the login limits allow are refused before the password is checked): else whoever
        holds a session could guess the password without limit."""
        if not isinstance(old, str):
            raise InvalidInputError("old_password must be a string")
        secret = check_password(new)
        await self._confirm(
            player_id,
            old,
            address=address,
            wrong=("the current password is wrong", "گذرواژهٔ کنونی نادرست است"),
        )
        await self.store.set_password(player_id, await self.passwords.hash(secret))
        keep = hash_token(current_token) if current_token else None
        await self.store.delete_sessions(player_id=player_id, keep=keep)

    async def _confirm(
        self, player_id: str, password: str, *, address: str, wrong: tuple[str, str]
    ) -> None:
        """The account's password, asked again for a change that needs it (``wrong``: what a
        wrong one is told, in English and Persian; the form has no username). A wrong one counts
        as a failed login of the account from ``address`` (and more than the login limits
        allow are refused before it is checked): else whoever holds a session could guess the
        password without limit."""
        account = await self.store.account_by_id(player_id)
        if account is None:
            raise NotAuthenticatedError("log in with an account first")
        key = username_key(account.username)
        failures = self.failed_logins or LocalFailedLogins(self.limiter)
        await failures.check(
            account=key, address=address, now=self.clock(), since=self._changed(account)
        )
        if not await self.passwords.verify(account.password_hash, password):
            await failures.failed(account=key, address=address, now=self.clock())
            raise InvalidCredentialsError(wrong[0], message_fa=wrong[1])
        await failures.succeeded(account=key, address=address)

    async def delete_account(self, player_id: str, password: object, *, address: str) -> None:
        """Erase the account (:meth:`AccountStore.delete_account`); needs its password, and
        a wrong one counts as a failed login, as for :meth:`change_password`."""
        if not isinstance(password, str):
            raise InvalidInputError("password must be a string")
        await self._confirm(
            player_id,
            password,
            address=address,
            wrong=("the password is wrong", "گذرواژه نادرست است"),
        )
        if not await self.store.delete_account(player_id):
            raise NotAuthenticatedError("log in with an account first")  # deleted meanwhile

    async def set_name(self, player_id: str, name: object) -> str:
        display = self._display(name)
        await self.store.set_name(player_id, display)
        return display

    async def profile(self, player_id: str, *, recent: int = 10) -> dict[str, Any]:
        """Display name, rating and tier, account points, games played and won, recent games."""
        profile = await self.store.profile(player_id, recent=recent)
        if profile is None:
            raise NotFoundError("no such player")
        return profile

    async def leaderboard(
        self,
        *,
        period: str,
        page: int,
        per_page: int,
        viewer: str | None,
        by: str = "points",
        reading: Reading | None = None,
    ) -> dict[str, Any]:
        """Accounts by account points in a ``period`` (``all``, ``week``), or ``by`` their
        rating (``rating``: every account with a rated game; the period does not apply).
        ``reading``: awaited before the database is read (a page not kept)."""
        if by not in ("points", "rating"):
            raise InvalidInputError("by must be 'points' or 'rating'")
        if period not in ("all", "week"):
            raise InvalidInputError("period must be 'all' or 'week'")
        if by == "rating" and period != "all":
            raise InvalidInputError("a rating is not counted by week: leave period out")
        if page < 1 or not 1 <= per_page <= MAX_PAGE:
            raise InvalidInputError(f"page ≥ 1 and 1 ≤ per_page ≤ {MAX_PAGE}")
        offset = (page - 1) * per_page
        if by == "rating":
            board = await self.store.rating_board(
                offset=offset, limit=per_page, viewer=viewer, reading=reading
            )
        else:
            board = await self.store.leaderboard(
                period=period,
                offset=offset,
                limit=per_page,
                viewer=viewer,
                now=self._now_ms(),
                reading=reading,
            )
        board.update(page=page, per_page=per_page, by=by)
        return board
