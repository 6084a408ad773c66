"""Join codes and the command schema: malformed input is refused field by field."""

from __future__ import annotations

import random

import pytest

from hokm.table import CODE_ALPHABET, TableError, is_code, new_code, normalize_code, parse_command


def test_codes_use_an_unambiguous_alphabet() -> None:
    assert not set("0O1IL") & set(CODE_ALPHABET)
    rng = random.Random(5)
    codes = {new_code(rng) for _ in range(200)}
    assert len(codes) == 200
    assert all(is_code(c) for c in codes)


def test_code_normalization_accepts_what_people_type() -> None:
    assert normalize_code(" acd-efg ") == "ACDEFG"
    # copied from a Persian invitation: bidi isolates, a mark, a no-break space, a ZWNJ
    assert normalize_code("\u2068ACD\u200fEFG\u2069\u00a0\u200c") == "ACDEFG"
    assert is_code("acd efg")
    assert not is_code("ACDEF0")


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (None, "JSON object"),
        ([], "JSON object"),
        ({}, "unknown command type"),
        ({"type": "fly"}, "unknown command type"),
        ({"type": "join"}, "missing field 'name'"),
        ({"type": "join", "name": ""}, "name"),
        ({"type": "join", "name": "x" * 33}, "longer than 32"),
        ({"type": "join", "name": "a\x00b"}, "control"),
        ({"type": "join", "name": "Ann", "admin": True}, "unknown field 'admin'"),
        ({"type": "sit", "seat": 4}, "seat must be an integer 0-3"),
        ({"type": "sit", "seat": True}, "seat must be an integer 0-3"),
        ({"type": "sit", "seat": "1"}, "seat must be an integer 0-3"),
        ({"type": "add_bot", "seat": 1, "level": "god"}, "level must be one of"),
        ({"type": "set_rules", "options": [1]}, "options must be an object"),
        ({"type": "action", "action": {"type": "play"}, "version": 1}, "missing field 'action_id'"),
        ({"type": "action", "action": "AS", "version": 1, "action_id": "a"}, "engine action"),
        (
            {"type": "action", "action": {"type": "play"}, "version": -1, "action_id": "a"},
            "version",
        ),
        (
            {"type": "action", "action": {"type": "play"}, "version": 1.5, "action_id": "a"},
            "version",
        ),
        (
            {
                "type": "action",
                "action": {"type": "play", "card": "AS", "note": "x" * 4000},
                "version": 1,
                "action_id": "a",
            },
            "unknown field 'note'",
        ),
        ({"type": "start", "action_id": ""}, "action_id"),
        ({"type": "start", "action_id": 7}, "action_id"),
        ({"type": "chat"}, "either text or phrase"),
        ({"type": "chat", "text": "hi", "phrase": "hi"}, "either text or phrase"),
        ({"type": "chat", "text": "x" * 501}, "longer than 500"),
    ],
)
def test_malformed_commands_are_refused_with_a_named_field(data: object, fragment: str) -> None:
    with pytest.raises(TableError) as info:
        parse_command(data)
    assert info.value.code == "bad_command"
    assert fragment in str(info.value)
    assert info.value.message_fa


def test_a_valid_command_keeps_its_fields() -> None:
    cmd = parse_command(
        {
            "type": "set_rules",
            "preset": "classic",
            "options": {"target_points": 3},
            "action_id": "r",
        }
    )
    assert (cmd.preset, cmd.options, cmd.action_id) == ("classic", {"target_points": 3}, "r")
    assert parse_command({"type": "join", "name": "  Sara  "}).name == "Sara"
