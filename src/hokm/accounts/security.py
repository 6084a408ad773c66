"""Passwords, session tokens, input rules and login rate limiting.

* Passwords are hashed with argon2id (argon2-cffi); hashing runs in a worker thread so the
  event loop never waits for it.
* A session token is 32 random bytes (base64url); only its SHA-256 is stored, so a stolen
  database does not hold usable sessions. The token travels in an HttpOnly, SameSite=Lax cookie.
* Failed logins are limited per account name and per client address in a sliding window
  (time is passed in). An unknown name counts like a known one, and gets the same answer.

>>> token = new_session_token()
>>> len(token) >= 43 and hash_token(token) != token
True
>>> check_username("  Sara_1 ")
'Sara_1'
>>> check_password("short")
Traceback (most recent call last):
...
hokm.accounts.errors.InvalidInputError: a password needs at least 8 characters
>>> limiter = LoginLimiter(max_per_account=2, max_per_address=10, window_seconds=60)
>>> for t in (0, 1):
...     limiter.failed(account="sara", address="1.2.3.4", now=t)
>>> limiter.check(account="sara", address="5.6.7.8", now=2)
Traceback (most recent call last):
...
hokm.accounts.errors.RateLimitedError: too many login attempts; try again in 58 s
>>> limiter.check(account="sara", address="5.6.7.8", now=61)  # the window has passed
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from hokm.accounts.errors import InvalidInputError, RateLimitedError

__all__ = [
    "SESSION_COOKIE",
    "LoginLimiter",
    "Passwords",
    "check_display_name",
    "check_password",
    "check_username",
    "hash_token",
    "new_session_token",
]

T = TypeVar("T")
SESSION_COOKIE = "hokm_session"
_USERNAME = re.compile(r"^[\w\-.]{3,24}$")
_LINK = re.compile(r"(https?:|www\.|\.(com|ir|net|org)\b)", re.IGNORECASE)


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database stores for a session token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _script(ch: str) -> str | None:
    """The script of a letter, from its Unicode name ('LATIN', 'ARABIC', 'GREEK', …)."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    return unicodedata.name(ch, "?").split(" ")[0]


def check_username(name: object) -> str:
    """3–24 letters of one script, digits, ``_ - .``; compared case-insensitively.

    Look-alikes of a name are refused so that nobody can pass for somebody else: letters of
    two scripts (a Greek ``υ`` among Latin letters), and compatibility forms (fullwidth
    ``ｕ``, the ligature ``ǅ``), which are not their plain form.

    >>> check_username("سارا_۱۴")
    'سارا_۱۴'
    >>> check_username("υser7")
    Traceback (most recent call last):
    ...
    hokm.accounts.errors.InvalidInputError: a username's letters must all be of one script
    >>> check_username("ｕser7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hokm.accounts.errors.InvalidInputError: a username may not use compatibility forms...
    """
    if not isinstance(name, str):
        raise InvalidInputError("username must be a string")
    name = unicodedata.normalize("NFC", name.strip())
    if not _USERNAME.match(name):
        raise InvalidInputError(
            "a username has 3–24 characters: letters, digits, '_', '-' or '.'",
            message_fa="نام کاربری باید ۳ تا ۲۴ نویسه باشد: حرف، رقم و نشانه‌های _ و - و .",
        )
    if unicodedata.normalize("NFKC", name) != name:
        raise InvalidInputError(
            "a username may not use compatibility forms of letters or digits"
            " (fullwidth, ligatures)",
            message_fa="نام کاربری نباید شکل‌های جایگزین حرف یا رقم (تمام‌عرض، ترکیبی) داشته باشد",
        )
    if len({s for s in map(_script, name) if s is not None}) > 1:
        raise InvalidInputError(
            "a username's letters must all be of one script",
            message_fa="همهٔ حرف‌های نام کاربری باید از یک خط باشند (مثلاً همه فارسی یا همه لاتین)",
        )
    return name


# Letters that look alike in Persian text: Arabic yeh and kaf (also alef maksura) fold to the
# Persian ones.
_PERSIAN_FOLD = str.maketrans(
    {
        "\u064a": "\u06cc",  # ي → ی
        "\u0649": "\u06cc",  # ى → ی
        "\u0643": "\u06a9",  # ك → ک
    }
)


def _ascii_digit(ch: str) -> str:
    value = unicodedata.decimal(ch, None)
    return ch if value is None else str(value)


def username_key(name: str) -> str:
    """The unique, case-insensitive form of a username: NFKC case folding (a name typed with
    fullwidth letters at login finds its plain account), Arabic letter forms folded to the
    Persian ones they look like (``علي`` is ``علی``), and every digit to its value: a phone
    keyboard types ``۱۲``, ``١٢`` or ``12`` for the same number.

    >>> username_key("علي٤") == username_key("علی۴") == username_key("علی4")
    True
    """
    folded = unicodedata.normalize("NFKC", name.strip()).casefold().translate(_PERSIAN_FOLD)
    return "".join(map(_ascii_digit, unicodedata.normalize("NFKC", folded)))


def check_password(password: object) -> str:
    if not isinstance(password, str):
        raise InvalidInputError("password must be a string")
    if len(password) < 8:
        raise InvalidInputError(
            "a password needs at least 8 characters", message_fa="گذرواژه باید دست‌کم ۸ نویسه باشد"
        )
    if len(password) > 256:
        raise InvalidInputError(
            "a password has at most 256 characters", message_fa="گذرواژه باید حداکثر ۲۵۶ نویسه باشد"
        )
    return password


def check_display_name(name: object) -> str:
    if not isinstance(name, str):
        raise InvalidInputError("display name must be a string")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not 1 <= len(name) <= 24:
        raise InvalidInputError(
            "a display name has 1–24 characters", message_fa="نام باید ۱ تا ۲۴ نویسه باشد"
        )
    if any(unicodedata.category(c).startswith("C") for c in name if c not in "\u200c\u200d"):
        raise InvalidInputError(
            "a display name may not hold control characters", message_fa="نام نویسهٔ کنترلی نمی‌پذیرد"
        )
    if _LINK.search(name):
        raise InvalidInputError(
            "a display name may not hold a link", message_fa="نام نباید پیوند باشد"
        )
    return name


class Passwords:
    """argon2id hashing, run off the event loop. Cheap parameters may be given for tests."""

    def __init__(
        self,
        *,
        time_cost: int = 3,
        memory_cost: int = 65536,
        parallelism: int = 1,
        at_once: int = 2,
    ):
        self._hasher = PasswordHasher(
            time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism
        )
        self._dummy: str | None = None
        # Each hash holds ``memory_cost`` KiB (64 MiB) while it runs: at most ``at_once`` run
        # together, so a burst of logins or registrations waits instead of filling memory.
        self._at_once = at_once
        self._slots: asyncio.Semaphore | None = None

    def hash_sync(self, password: str) -> str:
        return str(self._hasher.hash(password))

    def verify_sync(self, stored: str | None, password: str) -> bool:
        """True if ``password`` matches; with no stored hash a dummy one is checked (same time)."""
        if stored is None:
            if self._dummy is None:
                self._dummy = self.hash_sync(secrets.token_hex(16))
            stored = self._dummy
            password = password + "\0never"
        try:
            return bool(self._hasher.verify(stored, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def warm(self) -> None:
        """Make the dummy hash now, so the first unknown-user login takes no extra time."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_hex(16))

    def needs_rehash(self, stored: str) -> bool:
        return bool(self._hasher.check_needs_rehash(stored))

    async def _in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._at_once)
        async with self._slots:
            return await asyncio.to_thread(fn, *args)

    async def hash(self, password: str) -> str:
        return await self._in_thread(self.hash_sync, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        return await self._in_thread(self.verify_sync, stored, password)


#: how many of :meth:`LoginLimiter.keys` (the first) are the account's; the rest are the address's
ACCOUNT_COUNTERS = 2


@dataclass
class LoginLimiter:
    """Failed logins within a sliding window, counted per account name *from one address*,
    per account name from anywhere (a higher limit) and per address.

    Counting an account's failures from every address alike let anyone lock any account out
    (five wrong passwords, and its owner's right one was refused for 15 minutes). Now five
    from one address lock only that address out of that account; the account as a whole
    stops answering after ``max_per_account`` failures from anywhere, which slows a guesser
    with many addresses and takes as many addresses to lock its owner out.
    """

    max_per_pair: int = 5
    max_per_account: int = 50
    max_per_address: int = 20
    window_seconds: float = 900.0
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def keys(self, account: str, address: str) -> list[tuple[str, int]]:
        """The counters a failure of ``account`` from ``address`` adds to, with their limits."""
        return [
            (f"p:{account}|{address}", self.max_per_pair),
            (f"u:{account}", self.max_per_account),
            (f"a:{address}", self.max_per_address),
        ]

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window_seconds:
            times.popleft()
        if not times:
            del self._failures[key]
        return times

    def check(self, *, account: str, address: str, now: float, since: float | None = None) -> None:
        """Raise :class:`RateLimitedError` if a counter is over its limit; change nothing.

        ``since``: the time the account's password last changed. Failures before it do not
        count against the account (they guessed a password it no longer has), so a player
        whose forgotten password an operator reset is not kept out by their own old tries;
        the address's counter keeps them all."""
        wait = 0.0
        for i, (key, limit) in enumerate(self.keys(account, address)):
            times: Sequence[float] = self._recent(key, now)
            if since is not None and i < ACCOUNT_COUNTERS:
                times = [t for t in times if t > since]
            if len(times) >= limit:
                wait = max(wait, times[len(times) - limit] + self.window_seconds - now)
        if wait > 0:
            raise RateLimitedError(wait)

    def failed(self, *, account: str, address: str, now: float) -> None:
        if len(self._failures) > 50_000:  # forget keys whose window has passed
            for key in list(self._failures):
                self._recent(key, now)
        for key, _ in self.keys(account, address):
            self._recent(key, now)
            self._failures.setdefault(key, deque()).append(now)

    def succeeded(self, *, account: str, address: str) -> None:
        """A good login clears the account's failures (not the address's)."""
        for key, _ in self.keys(account, address)[:ACCOUNT_COUNTERS]:
            self._failures.pop(key, None)


class FailedLogins(Protocol):
    """Where failed logins are counted: :class:`LocalFailedLogins` in this process, or shared
    by several server processes (``hokm.server.cluster.RedisFailedLogins``), so that running
    more processes does not allow more guesses."""

    async def check(
        self, *, account: str, address: str, now: float, since: float | None = None
    ) -> None: ...

    async def failed(self, *, account: str, address: str, now: float) -> None: ...

    async def succeeded(self, *, account: str, address: str) -> None: ...


class LocalFailedLogins:
    """A :class:`LoginLimiter` of this process as :class:`FailedLogins`."""

    def __init__(self, limiter: LoginLimiter) -> None:
        self.limiter = limiter

    async def check(
        self, *, account: str, address: str, now: float, since: float | None = None
    ) -> None:
        self.limiter.check(account=account, address=address, now=now, since=since)

    async def failed(self, *, account: str, address: str, now: float) -> None:
        self.limiter.failed(account=account, address=address, now=now)

    async def succeeded(self, *, account: str, address: str) -> None:
        self.limiter.succeeded(account=account, address=address)
