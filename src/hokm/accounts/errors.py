"""The accounts' narrow error family. Everything is a :class:`ValueError`.

The server maps exactly this family to HTTP / protocol errors; each class names its status.
"""

from __future__ import annotations

__all__ = [
    "AccountError",
    "AlreadyQueuedError",
    "InGameError",
    "InvalidCredentialsError",
    "InvalidInputError",
    "NotAuthenticatedError",
    "NotFoundError",
    "NotQueuedError",
    "RateLimitedError",
    "UsernameTakenError",
]


class AccountError(ValueError):
    """Base class of every error the accounts raise on bad input. Nothing changed.

    ``message_fa`` says the same in Persian for the person who typed the input (the web
    client shows it); without it the server answers with its generic text for the code.
    """

    status = 400
    code = "bad_request"

    def __init__(self, *args: object, message_fa: str | None = None) -> None:
        super().__init__(*args)
        self.message_fa = message_fa


class InvalidInputError(AccountError):
    """A username, password, display name or parameter is malformed."""

    code = "invalid_input"


class InvalidCredentialsError(AccountError):
    """Wrong username or password: one answer for both, so names cannot be probed."""

    status = 401
    code = "invalid_credentials"

    def __init__(
        self, message: str = "wrong username or password", *, message_fa: str | None = None
    ) -> None:
        super().__init__(message, message_fa=message_fa)


class NotAuthenticatedError(AccountError):
    """No valid session (or a guest where an account is required)."""

    status = 401
    code = "not_authenticated"


class NotFoundError(AccountError):
    status = 404
    code = "not_found"


class UsernameTakenError(AccountError):
    status = 409
    code = "username_taken"


class RateLimitedError(AccountError):
    """Too many failed logins (or new accounts) for this account or this address."""

    status = 429
    code = "rate_limited"

    def __init__(
        self, retry_after: float, what: str = "login attempts", *, message_fa: str | None = None
    ) -> None:
        self.retry_after = max(1, int(retry_after + 0.999))
        super().__init__(
            f"too many {what}; try again in {self.retry_after} s", message_fa=message_fa
        )


class AlreadyQueuedError(AccountError):
    status = 409
    code = "already_queued"


class InGameError(AccountError):
    """A quick game asked for by a player seated in a game in progress (they would be in two
    games at once, a bot playing one of them)."""

    status = 409
    code = "in_game"

    def __init__(self, room: str) -> None:
        self.room = room
        super().__init__(
            f"you hold a seat in a game in progress (room {room}): finish it or leave it first",
            message_fa=f"شما در اتاق {room} سر یک بازی نیمه‌تمام نشسته‌اید؛ "
            "اول آن را تمام کنید یا «ترک بازی» را بزنید",
        )


class NotQueuedError(AccountError):
    status = 409
    code = "not_queued"
