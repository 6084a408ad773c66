"""Who is connecting: guests now, accounts later.

A guest is a random id plus a display name; the id travels in a signed token (cookie
``hokm_guest`` or ``hello.token``). Identity is resolved by an :class:`AuthChain` of
authenticators, so the accounts code can put its own (session cookies) in front of the guest
one without touching the WebSocket or REST handlers.

>>> signer = TokenSigner(b"k" * 32)
>>> token = signer.sign("g_abc")
>>> signer.verify(token)
'g_abc'
>>> signer.verify(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from hokm.engine import persian_digits
from hokm.storage import PlayerRow, SqlStorage
from hokm.table.chat import BLANK, MAX_MARKS, cap_marks, check_text

__all__ = [
    "COOKIE_NAME",
    "AuthChain",
    "Authenticator",
    "GuestAuthenticator",
    "Identity",
    "TokenSigner",
    "clean_name",
]

COOKIE_NAME = "hokm_guest"
MAX_NAME = 24


@dataclass(frozen=True, slots=True)
class Identity:
    """A player as the server knows them. ``kind``: ``guest`` (later also ``account``)."""

    id: str
    name: str
    kind: str = "guest"

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "kind": self.kind}


class Authenticator(Protocol):
    """Finds the identity of a request from its cookies or a bearer/hello token."""

    async def identify(self, cookies: Mapping[str, str], token: str | None) -> Identity | None: ...


class AuthChain:
    """Authenticators asked in order; the first that knows the request wins."""

    def __init__(self, *authenticators: Authenticator) -> None:
        self.authenticators: list[Authenticator] = list(authenticators)

    def add(self, authenticator: Authenticator, *, first: bool = True) -> None:
        """Add an authenticator (the accounts code adds its session authenticator first)."""
        if first:
            self.authenticators.insert(0, authenticator)
        else:
            self.authenticators.append(authenticator)

    async def identify(self, cookies: Mapping[str, str], token: str | None) -> Identity | None:
        for authenticator in self.authenticators:
            identity = await authenticator.identify(cookies, token)
            if identity is not None:
                return identity
        return None


class TokenSigner:
    """HMAC-SHA-256 signatures of player ids: ``"<id>.<base64url signature>"``."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret

    def _mac(self, value: str) -> str:
        digest = hmac.new(self.secret, value.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")

    def sign(self, value: str) -> str:
        return f"{value}.{self._mac(value)}"

    def verify(self, token: str | None) -> str | None:
        """The signed value, or None if the token is missing, malformed or forged."""
        if not token or len(token) > 200 or "." not in token:
            return None
        value, _, mac = token.rpartition(".")
        # (as bytes: compare_digest refuses str with other than ASCII, which anyone can send)
        if not value or not hmac.compare_digest(mac.encode(), self._mac(value).encode()):
            return None
        return value


class BadName(ValueError):
    """A name that cannot be shown, with the reason in English (``str``) and Persian (``fa``)."""

    def __init__(self, reason: str, fa: str) -> None:
        super().__init__(reason)
        self.fa = fa


def _script(ch: str) -> str | None:
    """The script of a letter (its Unicode name's first word: LATIN, ARABIC, CYRILLIC…)."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    return unicodedata.name(ch, "?").split(" ")[0]


def clean_name(raw: object) -> str:
    """A display name: trimmed, 1–24 characters, no control characters, links or phone numbers.

    >>> clean_name("  Sara ")
    'Sara'
    >>> clean_name("www.example.com")
    Traceback (most recent call last):
    ...
    hokm.server.auth.BadName: a name may not contain a link
    """
    if not isinstance(raw, str):
        raise BadName("the name must be text", "نام باید متن باشد")
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not name:
        raise BadName("the name is empty", "نامی بنویسید")
    if len(name) > MAX_NAME:
        raise BadName(
            f"the name is longer than {MAX_NAME} characters",
            f"نام حداکثر {persian_digits(MAX_NAME)} نویسه دارد",
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") for ch in name if ch != "\u200c"):
        raise BadName("the name has control characters", "نام نویسهٔ کنترلی نمی‌پذیرد")
    if any(ch in BLANK for ch in name) or not any(
        unicodedata.category(ch)[0] in "LNPS" for ch in name
    ):
        raise BadName(
            "the name must be visible, not blank characters",
            "نام باید دیده شود، نه نویسه‌های خالی",
        )
    if cap_marks(name) != name:
        raise BadName(
            f"at most {MAX_MARKS} marks on one letter",
            f"هر حرف حداکثر {persian_digits(MAX_MARKS)} نشانه (اِعراب) می‌پذیرد",
        )
    if any(len({_script(ch) for ch in word} - {None}) > 1 for word in name.split()):
        # "Ѕara" (a Cyrillic Ѕ) beside "Sara": a word of two scripts is a disguise; words of
        # different scripts ("Sara سارا") are a name in two languages
        raise BadName(
            "each word of a name is written in one script (no look-alike letters)",
            "هر کلمهٔ نام به یک خط نوشته می‌شود (بی حرف‌های هم‌شکل از خط دیگر)",
        )
    rejection = check_text(name, free_text=True)
    if rejection is not None and rejection.code == "link":
        raise BadName("a name may not contain a link", "نام نباید پیوند (نشانی وب) داشته باشد")
    if rejection is not None and rejection.code == "phone":
        raise BadName("a name may not contain a phone number", "نام نباید شمارهٔ تلفن داشته باشد")
    return name


class GuestAuthenticator:
    """Guests: a random id ``g_…`` signed into a token; the name lives in storage."""

    def __init__(self, signer: TokenSigner, storage: SqlStorage) -> None:
        self.signer = signer
        self.storage = storage
        self._cache: dict[str, Identity] = {}

    async def identify(self, cookies: Mapping[str, str], token: str | None) -> Identity | None:
        """The guest of the token, else of the cookie (a signed id whose player is unknown
        does not stop the other from being tried)."""
        for signed in (token, cookies.get(COOKIE_NAME)):
            player_id = self.signer.verify(signed)
            if player_id is None:
                continue
            cached = self._cache.get(player_id)
            if cached is not None:
                return cached
            row = await self.storage.get_player(player_id)
            if row is not None:
                identity = Identity(row.id, row.name, row.kind)
                self._remember(identity)
                return identity
        return None

    def _remember(self, identity: Identity) -> None:
        if len(self._cache) >= 50_000:
            self._cache.clear()
        self._cache[identity.id] = identity

    async def create(self, name: str) -> tuple[Identity, str]:
        """A new guest named ``name`` and its token."""
        identity = Identity(
            "g_" + secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"), name
        )
        await self.storage.save_player(PlayerRow(identity.id, identity.name, identity.kind))
        self._remember(identity)
        return identity, self.signer.sign(identity.id)

    async def rename(self, identity: Identity, name: str) -> Identity:
        renamed = Identity(identity.id, name, identity.kind)
        await self.storage.save_player(PlayerRow(renamed.id, renamed.name, renamed.kind))
        self._remember(renamed)
        return renamed

    def token_for(self, identity: Identity) -> str:
        return self.signer.sign(identity.id)
