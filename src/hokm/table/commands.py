"""Commands a player sends to a table, validated field by field before anything happens.

Every command is a JSON object with a ``type``; :func:`parse_command` checks its schema and
returns a frozen :class:`Command`, or raises a :class:`~hokm.table.errors.TableError` with
code ``bad_command`` naming the broken field. Unknown fields are refused too, so a typo never
passes silently.

>>> parse_command({"type": "sit", "seat": 2}).seat
2
>>> parse_command({"type": "action", "action": {"type": "play", "seat": 0, "card": "AS"},
...                "version": 7, "action_id": "a1"}).version
7
>>> parse_command({"type": "sit", "seat": 9})
Traceback (most recent call last):
...
hokm.table.errors.TableError: sit: seat must be an integer 0-3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hokm.table.errors import TableError

__all__ = [
    "BOT_LEVELS",
    "COMMAND_TYPES",
    "MAX_NAME_CHARS",
    "Command",
    "as_logged_before",
    "parse_command",
]

import hokm.bots

# The bot levels of hokm.bots.make_bot (the owner picks one per bot seat).
BOT_LEVELS: tuple[str, ...] = tuple(
    getattr(hokm.bots, "LEVELS", ("random", "naive", "easy", "medium", "hard"))
)
MAX_NAME_CHARS = 32
MAX_ACTION_ID_CHARS = 64
MAX_TEXT_CHARS = 500  # schema cap; the chat policy's own cap is lower
# The fields of a player's engine action (the others are refused as not a player's anyway).
_ACTION_FIELDS: dict[str, set[str]] = {
    "play": {"type", "seat", "card"},
    "choose_trump": {"type", "seat", "suit"},
    "request_redeal": {"type", "seat"},
    "decide_bam": {"type", "seat", "go"},
}


def as_logged_before(command: Mapping[str, Any]) -> Mapping[str, Any]:
    """A logged command as this version reads it: an ``action`` with fields an action does not
    have, which earlier versions accepted (and logged), without them. A log replayed after an
    upgrade then makes the same moves instead of refusing them and diverging."""
    action = command.get("action")
    if command.get("type") != "action" or not isinstance(action, Mapping):
        return command
    known = _ACTION_FIELDS.get(str(action.get("type")))
    if known is None or set(action) <= known:
        return command
    return {**command, "action": {k: v for k, v in action.items() if k in known}}


# type -> (required fields, optional fields); ``action_id`` is optional on every command.
COMMAND_TYPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "join": (frozenset({"name"}), frozenset()),
    "leave": (frozenset(), frozenset()),
    "kick": (frozenset({"player"}), frozenset()),
    "sit": (frozenset({"seat"}), frozenset({"player"})),
    "stand": (frozenset(), frozenset({"player"})),
    "add_bot": (frozenset({"seat"}), frozenset({"level"})),
    "remove_bot": (frozenset({"seat"}), frozenset()),
    "set_rules": (frozenset(), frozenset({"preset", "options"})),
    "start": (frozenset(), frozenset()),
    "choose_hakem": (frozenset({"seat"}), frozenset()),
    "action": (frozenset({"action", "version", "action_id"}), frozenset()),
    "continue_game": (frozenset(), frozenset()),
    "close_game": (frozenset(), frozenset()),
    "chat": (frozenset(), frozenset({"text", "phrase"})),
    "back": (frozenset(), frozenset()),
    "hint": (frozenset(), frozenset()),
}


@dataclass(frozen=True, slots=True)
class Command:
    """A schema-checked command. Only the fields of its ``type`` are set."""

    type: str
    action_id: str | None = None
    name: str | None = None
    seat: int | None = None
    player: str | None = None
    level: str | None = None
    preset: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    action: dict[str, Any] | None = None
    version: int | None = None
    text: str | None = None
    phrase: str | None = None


def _bad(kind: str, message: str) -> TableError:
    return TableError("bad_command", f"{kind}: {message}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _clean_text(value: object, kind: str, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise _bad(kind, f"{what} must be a string")
    if len(value) > limit:
        raise _bad(kind, f"{what} is longer than {limit} characters")
    if any(ord(ch) < 32 and ch not in "\n" for ch in value):
        raise _bad(kind, f"{what} has control characters")
    return value


def parse_command(data: object) -> Command:
    """Validate a command's JSON form; raise ``TableError("bad_command", ...)`` if malformed."""
    if not isinstance(data, Mapping):
        raise TableError("bad_command", "a command is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise TableError("bad_command", f"unknown command type {kind!r}")
    required, optional = COMMAND_TYPES[kind]
    keys = set(data) - {"type"}
    missing = sorted(required - keys)
    if missing:
        raise _bad(kind, f"missing field {missing[0]!r}")
    unknown = sorted(keys - required - optional - {"action_id"})
    if unknown:
        raise _bad(kind, f"unknown field {unknown[0]!r}")
    values: dict[str, Any] = {"type": kind}
    if "action_id" in data:
        action_id = data["action_id"]
        if not isinstance(action_id, str) or not 0 < len(action_id) <= MAX_ACTION_ID_CHARS:
            raise _bad(kind, f"action_id must be a string of 1-{MAX_ACTION_ID_CHARS} characters")
        values["action_id"] = action_id
    for key in keys - {"action_id"}:
        values[key] = _field(kind, key, data[key])
    if kind == "chat" and ("text" in keys) == ("phrase" in keys):
        raise _bad(kind, "give either text or phrase")
    return Command(**values)


def _field(kind: str, key: str, value: object) -> Any:
    if key == "name":
        name = _clean_text(value, kind, "name", MAX_NAME_CHARS).strip()
        if not name or "\n" in name:
            raise _bad(kind, "name must be 1-32 visible characters on one line")
        return name
    if key == "seat":
        if not _is_int(value) or not 0 <= value <= 3:  # type: ignore[operator]
            raise _bad(kind, "seat must be an integer 0-3")
        return value
    if key == "player":
        return _clean_text(value, kind, "player", 128)
    if key == "level":
        if value not in BOT_LEVELS:
            raise _bad(kind, f"level must be one of {', '.join(BOT_LEVELS)}")
        return value
    if key in ("preset", "phrase"):
        return _clean_text(value, kind, key, 64)
    if key == "options":
        if not isinstance(value, Mapping) or len(value) > 32:
            raise _bad(kind, "options must be an object of rule options")
        return dict(value)
    if key == "action":
        if not isinstance(value, Mapping) or not isinstance(value.get("type"), str):
            raise _bad(kind, "action must be an engine action object with a type")
        if len(value) > 8:
            raise _bad(kind, "action has too many fields")
        # (an unknown field would be stored with the move in the input log, unread)
        unknown = sorted(set(value) - _ACTION_FIELDS.get(value["type"], set(value)))
        if unknown:
            raise _bad(kind, f"unknown field {unknown[0]!r} in the action")
        return dict(value)
    if key == "version":
        if not _is_int(value) or value < 0:  # type: ignore[operator]
            raise _bad(kind, "version must be a non-negative integer")
        return value
    if key == "text":
        return _clean_text(value, kind, "text", MAX_TEXT_CHARS)
    raise AssertionError(key)  # pragma: no cover - every schema key is handled above
