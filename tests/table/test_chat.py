"""Chat policy: free text outside hands, presets during hands, never links or phone numbers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hokm.table import PHRASES, Table, TableConfig, check_text
from hokm.table.chat import FloodLimiter, find_link, find_phone, is_emoji_only

from .conftest import Clock, err, make_table, my_turn, ok, one_human_table, play_any


@pytest.mark.parametrize(
    "text",
    [
        "https://example.org",
        "see example.com",
        "EXAMPLE . COM",
        "example dot com",
        "example (dot) ir",
        "example نقطه کام",
        "سایت من دیجی نقطه کام",
        "www example",
        "add me t.me/someone",
        "my insta is cardshark",
        "@cardshark99",
        "me at mail dot com",
        "example。com",
        "example[.]com",
        "ｅｘａｍｐｌｅ．ｃｏｍ",
        "пример.com",
        # found by an adversarial review (2026-12-01):
        "example.c\u200com",  # a zero-width non-joiner inside the ending
        "example.c\u034fom",  # an invisible mark
        "example.c\ufe00om",  # a variation selector
        "t . me/mychan",
        "t\u200c.me/mychan",
        "bit . ly/abc",
        "mysite.shop",
        "x.ai",
        "x.live",
        "x.top",
        "x.club",
        "x.store",
        "example٫com",  # dots of other scripts
        "example•com",
        "example۔com",
        "example‧com",
        "example∙com",
        "example.\u0441om",  # a Cyrillic с in the ending
        "تل گرام",
        "تل\u200cگرام",
        "اینس تا",
        "واتس اپ",
        "سایت.آی.آر",
    ],
)
def test_links_are_found_however_disguised(text: str) -> None:
    assert find_link(text)
    assert check_text(text, free_text=True).code == "link"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        "09121234567",
        "0912 123 4567",
        "0 9 1 2 1 2 3 4 5 6 7",
        "0912.123.4567",
        "+98-912-123-4567",
        "۰۹۱۲۱۲۳۴۵۶۷",
        "۰۹۱۲ ۱۲۳ ۴۵۶۷",
        "٠٩١٢١٢٣٤٥٦٧",
        "شماره‌ام ۱۲۳۴",
        "call 5551",
        "0912 then 123 and then 4567",
        "zero nine one two one two three four five six seven",
        "صفر نه یک دو یک دو سه چهار پنج شش هفت",
        "0912 three four five 6789",
        "09 twelve 345 sixty seven 89",  # numbers of two digits said as words
        "۰۹ دوازده ۳۴۵ شصت و هفت ۸۹",
    ],
)
def test_phone_numbers_are_found_in_every_digit_script(text: str) -> None:
    assert find_phone(text)
    assert check_text(text, free_text=True).code == "phone"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        "سلام، خوبید؟",
        "we need 7 tricks",
        "score is 5 to 3",
        "nice hand, gg",
        "۱۰ امتیاز",
        "one more game, two more hands",
        "یک دست دیگر؟ دو تا کُت!",
        "done. me next",
        "you. me too",
        "I was at home. come",
        "see you at 7. gg",
        "we were at game. one more?",
        "سی و دو امتیاز و هفت دست",
        "این ستاره‌ی بازی است",
        "pain stays",
    ],
)
def test_ordinary_text_passes(text: str) -> None:
    assert check_text(text, free_text=True) is None


def test_length_and_emptiness() -> None:
    assert check_text("   ", free_text=True).code == "empty"  # type: ignore[union-attr]
    assert check_text("a" * 201, free_text=True).code == "too_long"  # type: ignore[union-attr]
    assert check_text("a" * 200, free_text=True) is None


def test_only_emoji_pass_during_a_hand() -> None:
    assert is_emoji_only("👍👍 🔥")
    assert is_emoji_only("❤️") and is_emoji_only("❤")
    assert not is_emoji_only("👍 ok")
    assert check_text("I have the ace of hearts", free_text=False).code == "preset_only"  # type: ignore[union-attr]
    assert check_text("🙏", free_text=False) is None


def test_every_phrase_has_both_languages() -> None:
    assert all(fa and en for fa, en in PHRASES.values())


def test_the_phrases_keep_the_words_of_the_rules() -> None:
    """RULES.md §1: «دست» is a trick. "Another game?" read «یک دست دیگر؟» (one more trick)."""
    assert PHRASES["again"] == ("یک بازی دیگر؟", "Another game?")
    assert not any("دست" in fa.split() for fa, _ in PHRASES.values())


def test_flood_limiter_is_a_sliding_window() -> None:
    flood = FloodLimiter(limit=3, window=10)
    assert all(flood.allow("a", t) for t in (0, 1, 2))
    assert not flood.allow("a", 3)
    assert flood.allow("b", 3)
    assert flood.allow("a", 10.5)


def test_flood_limiter_forgets_players_whose_window_passed() -> None:
    """Only players with a message inside the window are kept: a room kept everyone who had
    ever chatted in it (in memory and in each stored snapshot), and a long-lived public room
    grew with every spectator who said hello."""
    flood = FloodLimiter(limit=2, window=10)
    for n in range(100):
        assert flood.allow(f"spectator-{n}", n / 10)
    assert flood.allow("a", 9.5) and flood.allow("a", 9.6) and not flood.allow("a", 9.7)
    assert len(flood.sent) == 101
    assert flood.allow("b", 15.0)  # the first 50 spectators' messages are over 10 s old
    assert sorted(flood.sent) == sorted(["a", "b"] + [f"spectator-{n}" for n in range(51, 100)])
    assert not flood.allow("a", 15.0)  # a flooder is still remembered
    assert flood.allow("c", 30.0)
    assert list(flood.sent) == ["c"]


def test_free_text_in_the_lobby_is_delivered(clock: Clock) -> None:
    table = make_table(clock)
    out = ok(table.handle("ann", {"type": "chat", "text": " salam "}, clock.now))
    (event,) = out.events
    frame = table.render(event, "ann")
    assert frame is not None and frame["kind"] == "chat" and frame["text"] == "salam"
    assert table.snapshot_for("ann")["chat"][0]["text"] == "salam"


def test_during_a_hand_only_presets_and_emoji(clock: Clock) -> None:
    table = one_human_table(clock)
    assert table.in_hand
    reply = err(
        table.handle("ann", {"type": "chat", "text": "trump is hearts"}, clock.now), "chat_rejected"
    )
    assert reply["reason"] == "preset_only" and reply["message_fa"]
    out = ok(table.handle("ann", {"type": "chat", "phrase": "gl"}, clock.now))
    frame = table.render(out.events[0], None)
    assert frame is not None and frame["phrase"] == "gl" and frame["text"] is None
    ok(table.handle("ann", {"type": "chat", "text": "👍"}, clock.now))
    reply = err(table.handle("ann", {"type": "chat", "phrase": "nope"}, clock.now), "chat_rejected")
    assert reply["reason"] == "unknown_phrase"


def test_emoji_during_a_hand_carry_nothing_but_the_emoji(clock: Clock) -> None:
    """Spacing and invisible variation selectors once let partners spell out a hand in
    'emoji only' messages of up to 200 characters: the emoji are now delivered in their
    canonical form, at most three a message."""
    table = one_human_table(clock)
    out = ok(table.handle("ann", {"type": "chat", "text": "👍 \ufe0f  ❤"}, clock.now))
    frame = table.render(out.events[0], None)
    assert frame is not None and frame["text"] == "👍❤️"
    clock.advance(11)
    reply = err(
        table.handle("ann", {"type": "chat", "text": "👍 👍 👍 👍"}, clock.now), "chat_rejected"
    )
    assert reply["reason"] == "too_many_emoji" and "۳" in reply["message_fa"]
    reply = err(
        table.handle("ann", {"type": "chat", "text": "👍\u200b"}, clock.now), "chat_rejected"
    )
    assert reply["reason"] == "preset_only"


def test_invisible_format_characters_are_dropped_from_free_text(clock: Clock) -> None:
    """Direction overrides, zero-width spaces and soft hyphens can make a message read as
    something else; they are removed. The zero-width non-joiner of Persian words stays."""
    table = make_table(clock)
    text = "\u202eسلام\u2066 می\u200cروم\u200b\u00ad!"
    out = ok(table.handle("ann", {"type": "chat", "text": text}, clock.now))
    frame = table.render(out.events[0], "ann")
    assert frame is not None and frame["text"] == "سلام می\u200cروم!"
    reply = err(
        table.handle("ann", {"type": "chat", "text": "\u200b\u202e"}, clock.now), "chat_rejected"
    )
    assert reply["reason"] == "empty"


def test_control_characters_and_blanks_are_not_delivered(clock: Clock) -> None:
    """The command check refuses control characters below U+0020 only: DEL and the C1
    controls (U+0080–U+009F; U+009B is a terminal's escape, and a script printing chat to a
    terminal obeyed ``\u009b2J``) were delivered. They are dropped like format characters
    (the line break stays); a message of blank fillers alone (Hangul filler, the blank
    Braille pattern), refused as a name, is empty as a message too."""
    table = make_table(clock)
    out = ok(table.handle("ann", {"type": "chat", "text": "a\u009b2Jb\u0085\u007fc\nd"}, clock.now))
    frame = table.render(out.events[0], "ann")
    assert frame is not None and frame["text"] == "a2Jbc\nd"
    for blank in ("\u3164\u3164", "\u2800 \u2800", "\u0085"):
        clock.advance(3)
        reply = err(
            table.handle("ann", {"type": "chat", "text": blank}, clock.now), "chat_rejected"
        )
        assert reply["reason"] == "empty", blank


def test_marks_stacked_on_a_letter_are_cut_to_four(clock: Clock) -> None:
    """Combining marks piled on one letter ("zalgo") climb over the chat's other lines and the
    seats: a letter keeps four at most (Persian needs three: shadda, a vowel, a small alef)."""
    table = make_table(clock)
    out = ok(table.handle("ann", {"type": "chat", "text": "a" + "\u0301" * 30 + "بَّ"}, clock.now))
    frame = table.render(out.events[0], "ann")
    assert frame is not None and frame["text"] == "a" + "\u0301" * 4 + "بَّ"


def test_links_are_refused_in_the_lobby_too(clock: Clock) -> None:
    table = make_table(clock)
    reply = err(
        table.handle("ann", {"type": "chat", "text": "join me at cards.ir"}, clock.now),
        "chat_rejected",
    )
    assert reply["reason"] == "link"
    assert table.snapshot_for("ann")["chat"] == []


def test_flooding_is_rate_limited(clock: Clock) -> None:
    table = make_table(clock)
    for i in range(5):
        ok(table.handle("ann", {"type": "chat", "text": f"m{i}"}, clock.now))
    reply = err(table.handle("ann", {"type": "chat", "text": "again"}, clock.now), "rate_limited")
    assert reply["reason"] == "flood"
    clock.advance(11)
    ok(table.handle("ann", {"type": "chat", "text": "later"}, clock.now))


def test_free_text_returns_between_hands(clock: Clock) -> None:
    table = one_human_table(clock, config=TableConfig(bot_delay=0, hand_pause=5))
    assert not table.in_hand  # the first deal waits hand_pause
    rng = random.Random(3)
    clock.advance(5)
    table.advance(clock.now)
    assert table.in_hand
    for _ in range(500):
        if table.game is None or table.game.hand_results:
            break
        if my_turn(table, "ann"):
            play_any(table, clock, "ann", rng)
        table.advance(clock.now)
    assert not table.in_hand  # waiting for the next deal
    ok(table.handle("ann", {"type": "chat", "text": "well played all"}, clock.now))


_SCRIPTS = ("0123456789", "۰۱۲۳۴۵۶۷۸۹", "٠١٢٣٤٥٦٧٨٩")
_SEPARATORS = ("", " ", "  ", ".", "-", " - ", "/", "_", " . ", ")", "(")


@pytest.mark.parametrize("seed", range(5))
def test_randomly_disguised_phone_numbers_are_caught(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        digits = "09" + "".join(rng.choice("0123456789") for _ in range(9))
        text = ""
        for i, d in enumerate(digits):
            text += rng.choice(_SCRIPTS)[int(d)]
            if i < len(digits) - 1 and rng.random() < 0.5:
                text += rng.choice(_SEPARATORS)
        message = rng.choice(["", "call ", "شماره ", "my number: "]) + text
        assert find_phone(message), message


@pytest.mark.parametrize("seed", range(3))
def test_randomly_disguised_links_are_caught(seed: int) -> None:
    rng = random.Random(seed)
    dots = (".", " . ", " dot ", "(dot)", "[.]", " نقطه ", "。")
    tlds = ("com", "ir", "net", "org", "COM", "کام")
    for _ in range(200):
        name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
        message = rng.choice(["", "visit ", "برو "]) + name + rng.choice(dots) + rng.choice(tlds)
        assert find_link(message), message


def _renames_to_the_hands_end(
    table: Table, clock: Clock, seed: int
) -> list[tuple[dict[str, Any], bool]]:
    """Ann plays (at random) and the bots on until the hand ends: each ``member_renamed``
    event's data, with whether a hand was still in play when it was sent."""
    rng = random.Random(seed)
    renamed: list[tuple[dict[str, Any], bool]] = []
    for _ in range(500):
        if table.game is None or table.game.hand_results:
            break
        out = (
            play_any(table, clock, "ann", rng)
            if my_turn(table, "ann")
            else table.advance(clock.now)
        )
        renamed += [(e.data, table.in_hand) for e in out.events if e.kind == "member_renamed"]
    return renamed


def test_a_name_changed_during_a_hand_is_shown_when_it_ends(clock: Clock) -> None:
    """A rejoin with a new name is free text to the partner (``"AS KH QD"``): during a hand
    nobody sees it, not even in a stored snapshot read back; it is shown when the hand ends."""

    table = one_human_table(clock, config=TableConfig(bot_delay=0, hand_pause=5))
    ok(table.handle("bob", {"type": "join", "name": "Bob"}, clock.now))  # a spectator
    clock.advance(5)
    table.advance(clock.now)
    assert table.in_hand
    for who in ("ann", "bob"):
        out = ok(table.handle(who, {"type": "join", "name": "AS KH QD"}, clock.now))
        assert [e.kind for e in out.events] == ["rename_held"]  # told to them alone:
        assert [table.render(e, who) is not None for e in out.events] == [True]
        for other in ("ann", "bob", None):
            if other != who:
                assert table.render(out.events[0], other) is None
    names = {m["name"] for m in table.snapshot_for("bob")["table"]["members"]}
    assert names == {"Ann", "Bob"}
    stored = Table.from_dict(table.to_dict(), now=clock.now)
    assert stored.members["ann"].pending_name == "AS KH QD"
    ok(table.handle("bob", {"type": "join", "name": "Bob"}, clock.now))  # changed back
    found = _renames_to_the_hands_end(table, clock, 4)
    assert not table.in_hand and not any(in_hand for _, in_hand in found)
    renamed = [data for data, _ in found]
    assert renamed == [{"player": "ann", "name": "AS KH QD"}]  # bob's was taken back
    assert table.members["ann"].name == "AS KH QD" and table.members["bob"].name == "Bob"


def test_a_member_who_joins_during_a_hand_is_named_when_it_ends(clock: Clock) -> None:
    """A name is free text: a player's second guest named "AS KH QD" joining to watch told
    the partner a hand, mid-hand, in ``member_joined``. A newcomer is shown as «مهمان» until
    the hand ends (told their own name alone, as a held rename), then by their name."""
    table = one_human_table(clock, config=TableConfig(bot_delay=0, hand_pause=5))
    clock.advance(5)
    table.advance(clock.now)
    assert table.in_hand
    out = ok(table.handle("cat", {"type": "join", "name": "AS KH QD"}, clock.now))
    shown = [table.render(e, "ann") for e in out.events]
    assert "AS KH QD" not in repr(shown) and "AS KH QD" not in repr(table.snapshot_for("ann"))
    assert [e.kind for e in out.events] == ["member_joined", "rename_held"]
    assert out.events[0].data["name"] == "مهمان"
    assert table.render(out.events[1], "cat") is not None
    ok(table.handle("dan", {"type": "join", "name": "Dan"}, clock.now))
    assert {m.name for m in table.members.values()} == {"Ann", "مهمان", "مهمان ۲"}
    renamed = [data["name"] for data, _ in _renames_to_the_hands_end(table, clock, 5)]
    assert not table.in_hand and sorted(renamed) == ["AS KH QD", "Dan"]
    assert table.members["cat"].name == "AS KH QD"


def test_look_alike_names_get_a_number_at_one_table(clock: Clock) -> None:
    """Two members shown alike cannot be told apart: a name that looks like another's (other
    case, look-alike letters of another script, an invisible mark) gets a number."""
    from hokm.table.handlers import distinct_name

    table = make_table(clock)  # Ann
    ok(table.handle("bob", {"type": "join", "name": "Sara"}, clock.now))
    assert distinct_name(table, "cy", "\u0405\u0430r\u0430") == "\u0405\u0430r\u0430 2"
    assert distinct_name(table, "cy", "SARA") == "SARA 2"
    assert distinct_name(table, "cy", "\uff33ara") == "\uff33ara 2"  # fullwidth S
    assert distinct_name(table, "cy", "Sarah") == "Sarah"
