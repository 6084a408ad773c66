"""The table's narrow error family: every refusal has a stable ``code`` and two messages.

A :class:`TableError` is a :class:`ValueError` (like the engine's errors). The table never
lets one escape from :meth:`hokm.table.Table.handle`: it becomes an ``error`` reply frame
(see :func:`error_frame`) and nothing changes.

>>> err = TableError("not_owner", "only the owner can start the game")
>>> error_frame(err, command="start", action_id=None)["code"]
'not_owner'
"""

from __future__ import annotations

from typing import Any

__all__ = ["ERROR_CODES", "TableError", "error_frame"]

# Every code a reply may carry, with its meaning (documented in docs/table.md).
ERROR_CODES: dict[str, str] = {
    "bad_command": "the command is malformed (schema): unknown type, missing or bad field",
    "not_member": "the sender has not joined this table",
    "not_owner": "only the owner may do this",
    "not_seated": "the sender has no seat (or not the seat the action names)",
    "seat_taken": "the seat is not empty",
    "not_here": "the owner may seat only members who are connected now",
    "bad_seat": "no such seat or the seat cannot be changed now",
    "wrong_status": "the table is not in a status that allows this command",
    "not_your_turn": "the engine says it is not this seat's turn",
    "wrong_phase": "the action does not belong to the game's current phase",
    "illegal": "the action breaks a rule (the message names it)",
    "stale": "the action was made against an older version of the game",
    "bad_rules": "a rule option has a bad name or value",
    "not_ready": "the game cannot start yet (empty seats)",
    "chat_rejected": "the chat message was not delivered (the message says why)",
    "rate_limited": "too many messages too fast",
    "table_full": "the table has too many members",
    "action_id_reused": "the action_id was already used by this player for another command",
    "not_allowed": "the owner removed this player from the room: they may not join it again",
}


class TableError(ValueError):
    """A refused command. ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str, message_fa: str = "") -> None:
        super().__init__(message)
        assert code in ERROR_CODES, code
        self.code = code
        self.message = message
        self.message_fa = message_fa or _DEFAULT_FA.get(code, "درخواست پذیرفته نشد")


_DEFAULT_FA: dict[str, str] = {
    "bad_command": "درخواست نامعتبر است",
    "not_member": "شما عضو این میز نیستید",
    "not_owner": "فقط صاحب اتاق می‌تواند این کار را بکند",
    "not_seated": "شما روی این صندلی ننشسته‌اید",
    "seat_taken": "این صندلی پر است",
    "not_here": "این بازیکن الان در اتاق نیست",
    "bad_seat": "این صندلی را الان نمی‌شود تغییر داد",
    "wrong_status": "الان این کار ممکن نیست",
    "not_your_turn": "نوبت شما نیست",
    "wrong_phase": "این حرکت در این مرحله از بازی ممکن نیست",
    "illegal": "این حرکت طبق قوانین مجاز نیست",
    "stale": "بازی تغییر کرده است؛ دوباره امتحان کنید",
    "bad_rules": "تنظیمات قوانین نامعتبر است",
    "not_ready": "هنوز همهٔ صندلی‌ها پر نشده‌اند",
    "chat_rejected": "پیام ارسال نشد",
    "rate_limited": "پیام‌ها خیلی سریع فرستاده شده‌اند",
    "table_full": "این میز پر است",
    "action_id_reused": "این شناسهٔ حرکت پیش‌تر برای فرمان دیگری به کار رفته است",
    "not_allowed": "صاحب اتاق شما را از این اتاق بیرون کرده است",
}


def error_frame(error: TableError, *, command: str | None, action_id: str | None) -> dict[str, Any]:
    """The reply frame for a refused command (sent to the sender only)."""
    return {
        "type": "error",
        "command": command,
        "action_id": action_id,
        "code": error.code,
        "message": error.message,
        "message_fa": error.message_fa,
    }
