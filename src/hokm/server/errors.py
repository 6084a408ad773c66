"""Protocol error codes with their messages in English and Persian.

The table's own refusals (``hokm.table.errors``) keep their codes; these are the codes of the
connection layer (framing, identity, rooms).

>>> error_frame("room_not_found", ref="j1")["message_fa"]
'اتاقی با این کد پیدا نشد'
"""

from __future__ import annotations

from typing import Any

__all__ = ["MESSAGES", "error_body", "error_frame"]

MESSAGES: dict[str, tuple[str, str]] = {
    "bad_json": ("the message is not a JSON object", "پیام دریافتی JSON معتبر نیست"),
    "bad_message": ("the message is malformed", "پیام نامعتبر است"),
    "too_large": ("the frame is too large", "پیام خیلی بزرگ است"),
    "rate_limited": ("too many requests too fast", "درخواست‌ها بیش از حد و پشت سر هم بوده است"),
    "unauthorized": ("who are you? send hello with a valid token", "هویت شما شناخته نشد"),
    "unsupported_protocol": ("protocol version not supported", "نسخهٔ پروتکل پشتیبانی نمی‌شود"),
    "not_in_room": ("join a room first", "اول وارد یک اتاق شوید"),
    "room_unloaded": (
        "the room was put away meanwhile: join it again",
        "اتاق بسته شد؛ دوباره وارد آن شوید",
    ),
    "room_not_found": ("no room with this code", "اتاقی با این کد پیدا نشد"),
    "not_found": ("not found", "پیدا نشد"),
    "bad_name": ("this name cannot be used", "این نام قابل استفاده نیست"),
    "bad_rules": ("a rule option has a bad name or value", "تنظیمات قوانین نامعتبر است"),
    "bad_request": ("the request is malformed", "درخواست نامعتبر است"),
    "bad_origin": ("a request from another site", "درخواست از سایت دیگری آمده است"),
    "server_error": ("a server error; nothing changed", "خطای سرور؛ چیزی تغییر نکرد"),
    "shutting_down": (
        "the server is restarting; reconnect soon",
        "سرور در حال راه‌اندازی دوباره است",
    ),
    "replaced": ("you opened this room in another window", "این اتاق را در پنجرهٔ دیگری باز کردید"),
    "session_ended": (
        "this session was logged out or its password changed; the connection is closed",
        "این نشست بسته شد (خروج از حساب یا تغییر گذرواژه)؛ اتصال قطع شد",
    ),
    "identity_changed": (
        "this guest is an account now: connect again to play as it",
        "این مهمان اکنون حساب کاربری دارد؛ دوباره وصل شوید تا با آن بازی کنید",
    ),
    "flooding": ("too many messages; the connection is closed", "پیام‌های بیش از حد؛ اتصال بسته شد"),
    "too_many_sockets": (
        "too many connections from this address; close some and try again",
        "اتصال‌های بیش از حد از این نشانی؛ چندتا را ببندید و دوباره امتحان کنید",
    ),
}


def error_body(
    code: str, detail: str | None = None, detail_fa: str | None = None
) -> dict[str, Any]:
    """The JSON error body of REST responses and of WebSocket ``error`` frames."""
    en, fa = MESSAGES.get(code, MESSAGES["bad_request"])
    return {
        "code": code,
        "message": f"{en}: {detail}" if detail else en,
        "message_fa": f"{fa}: {detail_fa}" if detail_fa else fa,
    }


def error_frame(
    code: str, detail: str | None = None, detail_fa: str | None = None, **extra: Any
) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", **error_body(code, detail, detail_fa)}
    frame.update({k: v for k, v in extra.items() if v is not None})
    return frame
