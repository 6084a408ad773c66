"""Versioned, idempotent actions: auth → seat → status → version → legality, applied once."""

from __future__ import annotations

import random

from hokm.engine import Card, RuleSet, view_of

from .conftest import (
    Clock,
    err,
    join,
    make_table,
    my_turn,
    ok,
    one_human_table,
    play_any,
    seat_bots,
)


def _ann_to_play(clock: Clock):  # type: ignore[no-untyped-def]
    table = one_human_table(clock)
    rng = random.Random(2)
    while not (
        table.game is not None and table.game.phase.value == "play" and my_turn(table, "ann")
    ):
        if my_turn(table, "ann"):
            legal = view_of(table.game, 0).legal  # type: ignore[arg-type]
            cmd = {
                "type": "action",
                "action": rng.choice(legal),
                "version": table.version,
                "action_id": f"p{rng.random()}",
            }
            ok(table.handle("ann", cmd, clock.now))
        table.advance(clock.now)
    return table


def test_a_repeated_action_id_gets_the_original_reply_and_applies_once(clock: Clock) -> None:
    table = _ann_to_play(clock)
    action = view_of(table.game, 0).legal[0]  # type: ignore[arg-type]
    cmd = {"type": "action", "action": action, "version": table.version, "action_id": "click-1"}
    first = ok(table.handle("ann", cmd, clock.now))
    played = len(table.game.plays)  # type: ignore[union-attr]
    again = table.handle("ann", cmd, clock.now)
    assert again.reply == {**first.reply, "repeated": True}  # type: ignore[dict-item]
    assert again.events == [] and len(table.game.plays) == played  # type: ignore[union-attr]


def test_a_refusal_is_also_remembered_by_action_id(clock: Clock) -> None:
    table = make_table(clock)
    cmd = {"type": "start", "action_id": "s1"}
    first = err(table.handle("ann", cmd, clock.now), "not_ready")
    seat_bots(table, clock, (0, 1, 2, 3))
    again = table.handle("ann", cmd, clock.now)
    assert again.reply == {**first, "repeated": True} and table.status == "lobby"


def test_an_action_id_used_again_on_another_command_is_refused(clock: Clock) -> None:
    """Answering the first command's reply would tell the client its second command was
    done: the reuse is refused, changes nothing, and the first reply is still repeated."""
    table = make_table(clock)
    first = ok(table.handle("ann", {"type": "add_bot", "seat": 1, "action_id": "x"}, clock.now))
    version = table.version
    reused = err(
        table.handle("ann", {"type": "remove_bot", "seat": 1, "action_id": "x"}, clock.now),
        "action_id_reused",
    )
    assert reused["command"] == "remove_bot" and "add_bot" in reused["message"]
    assert table.version == version and table.seats[1].kind == "bot"
    again = table.handle("ann", {"type": "add_bot", "seat": 1, "action_id": "x"}, clock.now)
    assert again.reply == {**first.reply, "repeated": True}  # type: ignore[dict-item]


def test_a_stale_card_play_is_refused_clearly(clock: Clock) -> None:
    table = _ann_to_play(clock)
    old = table.game_version - 1
    action = view_of(table.game, 0).legal[0]  # type: ignore[arg-type]
    cmd = {"type": "action", "action": action, "version": old, "action_id": "late"}
    reply = err(table.handle("ann", cmd, clock.now), "stale")
    assert f"version {old}" in reply["message"] and reply["message_fa"]
    future = {**cmd, "version": table.version + 5, "action_id": "future"}
    assert (
        "newer than the table's" in err(table.handle("ann", future, clock.now), "stale")["message"]
    )


def test_chat_does_not_make_an_action_stale(clock: Clock) -> None:
    table = _ann_to_play(clock)
    version = table.version
    ok(table.handle("ann", {"type": "chat", "phrase": "gl"}, clock.now))
    action = view_of(table.game, 0).legal[0]  # type: ignore[arg-type]
    ok(
        table.handle(
            "ann",
            {"type": "action", "action": action, "version": version, "action_id": "c"},
            clock.now,
        )
    )


def test_checks_come_in_order_and_name_the_problem(clock: Clock) -> None:
    table = make_table(clock, rules=RuleSet(first_hakem="manual"))
    join(table, clock, "bob", seat=1)
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    join(table, clock, "cy")  # not seated
    seat_bots(table, clock, (2, 3))
    play = {"type": "play", "card": "AS"}

    def send(player: str, action: dict, version: int | None = None) -> dict:  # type: ignore[type-arg]
        cmd = {
            "type": "action",
            "action": action,
            "version": table.version if version is None else version,
            "action_id": f"{player}{table.version}{action}{version}",
        }
        return table.handle(player, cmd, clock.now).reply  # type: ignore[return-value]

    assert send("eve", play)["code"] == "not_member"
    assert send("cy", play)["code"] == "not_seated"
    assert send("ann", {"type": "play", "seat": 1, "card": "AS"})["code"] == "not_seated"
    assert send("ann", play)["code"] == "wrong_status"  # no game yet
    assert send("ann", {"type": "deal", "hands": []})["code"] == "bad_command"
    assert send("ann", {"type": "play", "card": "ZZ"})["code"] == "bad_command"
    ok(table.handle("ann", {"type": "start"}, clock.now))
    ok(table.handle("ann", {"type": "choose_hakem", "seat": 0}, clock.now))
    table.advance(clock.now)
    trump = {"type": "choose_trump", "suit": "H"}
    assert send("bob", trump)["code"] == "not_your_turn"
    assert send("ann", play)["code"] == "wrong_phase"
    assert send("ann", trump, version=table.game_version - 1)["code"] == "stale"
    assert table.game is not None and table.game.trump is None  # nothing changed
    assert send("ann", trump)["type"] == "ok"


def test_an_illegal_card_names_the_rule(clock: Clock) -> None:
    table = _ann_to_play(clock)
    rng = random.Random(7)
    for _ in range(60):  # play on until Ann must follow a suit she holds
        game = table.game
        assert game is not None
        legal = {a["card"] for a in view_of(game, 0).legal}
        held = {str(c) for c in view_of(game, 0).hand}
        if held - legal:
            break
        play_any(table, clock, "ann", rng)
        table.advance(clock.now)
        for _ in range(20):
            if my_turn(table, "ann"):
                break
            table.advance(clock.advance(1))
    assert held - legal
    if held - legal:  # must follow suit
        card = sorted(held - legal)[0]
        reply = err(
            table.handle(
                "ann",
                {
                    "type": "action",
                    "action": {"type": "play", "card": card},
                    "version": table.version,
                    "action_id": "bad",
                },
                clock.now,
            ),
            "illegal",
        )
        assert "must follow suit" in reply["message"] and "باید" in reply["message_fa"]
    not_held = next(c for c in ("AS", "KS", "AH", "KH", "AD") if c not in held)
    reply = err(
        table.handle(
            "ann",
            {
                "type": "action",
                "action": {"type": "play", "card": not_held},
                "version": table.version,
                "action_id": "bad2",
            },
            clock.now,
        ),
        "illegal",
    )
    assert "does not hold" in reply["message"]
    # in Persian the card is named in words, as the page names cards («آس پیک»), not «AS»
    assert reply["message_fa"] == f"برگ {Card.parse(not_held).persian} را ندارید"
    assert not_held not in reply["message_fa"]


def test_every_event_gets_the_next_version(clock: Clock) -> None:
    table = one_human_table(clock)
    versions = [f["version"] for f in table.events_since(0, "ann") or []]
    assert versions == list(range(1, table.version + 1))
