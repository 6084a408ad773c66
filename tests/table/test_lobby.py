"""Rooms: members, ownership, seats, bots, rules and starting a game."""

from __future__ import annotations

from hokm.engine import RuleSet, persian_digits
from hokm.table import OPTION_MAXIMA, Table

from .conftest import Clock, err, join, make_table, ok, seat_bots


def test_the_creator_is_the_owner_and_others_join(clock: Clock) -> None:
    table = make_table(clock)
    assert table.owner == "ann"
    out = ok(table.handle("bob", {"type": "join", "name": "Bob"}, clock.now))
    assert [e.kind for e in out.events] == ["member_joined"]
    assert [m["player"] for m in table.snapshot_for("bob")["table"]["members"]] == ["ann", "bob"]


def test_a_non_member_can_do_nothing_but_join(clock: Clock) -> None:
    table = make_table(clock)
    err(table.handle("eve", {"type": "sit", "seat": 1}, clock.now), "not_member")
    err(table.handle("eve", {"type": "chat", "text": "hi"}, clock.now), "not_member")
    assert table.connect("eve", clock.now).reply["code"] == "not_member"  # type: ignore[index]


def test_only_the_owner_manages_the_room(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob")
    before = table.version
    err(table.handle("bob", {"type": "add_bot", "seat": 1}, clock.now), "not_owner")
    err(table.handle("bob", {"type": "set_rules", "preset": "classic"}, clock.now), "not_owner")
    err(table.handle("bob", {"type": "start"}, clock.now), "not_owner")
    err(table.handle("bob", {"type": "sit", "seat": 1, "player": "ann"}, clock.now), "not_owner")
    assert table.version == before


def test_sitting_standing_and_moving(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob", seat=1)
    err(table.handle("ann", {"type": "sit", "seat": 1}, clock.now), "seat_taken")
    ok(table.handle("bob", {"type": "sit", "seat": 3}, clock.now))
    assert table.seat_of("bob") == 3 and table.seats[1].kind == "empty"
    ok(table.handle("bob", {"type": "stand"}, clock.now))
    assert table.seat_of("bob") is None
    err(table.handle("bob", {"type": "stand"}, clock.now), "not_seated")
    ok(table.handle("ann", {"type": "sit", "seat": 2, "player": "bob"}, clock.now))
    assert table.seat_of("bob") == 2
    ok(table.handle("ann", {"type": "stand", "player": "bob"}, clock.now))
    assert table.seat_of("bob") is None


def test_bots_are_added_and_removed_on_free_seats(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob", seat=1)
    err(table.handle("ann", {"type": "add_bot", "seat": 1}, clock.now), "seat_taken")
    out = ok(table.handle("ann", {"type": "add_bot", "seat": 2, "level": "easy"}, clock.now))
    assert (table.seats[2].kind, table.seats[2].level) == ("bot", "easy")
    changed = next(e for e in out.events if e.kind == "seat_changed")
    frame = table.render(changed, "bob")
    assert frame is not None and frame["kind"] == "seat_changed"
    assert (frame["occupant"], frame["level"]) == ("bot", "easy")
    ok(table.handle("ann", {"type": "add_bot", "seat": 2}, clock.now))
    assert table.seats[2].level == "medium"
    err(table.handle("ann", {"type": "remove_bot", "seat": 3}, clock.now), "bad_seat")
    ok(table.handle("ann", {"type": "remove_bot", "seat": 2}, clock.now))
    assert table.seats[2].kind == "empty"


def test_rules_by_preset_and_options_are_shown_to_everyone(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob")
    out = ok(table.handle("ann", {"type": "set_rules", "preset": "classic"}, clock.now))
    frame = table.render(out.events[0], "bob")
    assert frame is not None and frame["kind"] == "rules_changed" and frame["preset"] == "classic"
    assert frame["rules"]["bam"] is True
    ok(table.handle("ann", {"type": "set_rules", "options": {"target_points": 3}}, clock.now))
    assert table.rules == RuleSet.preset("classic", target_points=3)
    assert table.preset is None
    snap = table.snapshot_for("bob")["table"]
    assert snap["rules"]["target_points"] == 3 and snap["rules"]["bam"] is True
    reply = err(
        table.handle("ann", {"type": "set_rules", "options": {"target_points": 0}}, clock.now),
        "bad_rules",
    )
    assert "target_points" in reply["message"]
    err(table.handle("ann", {"type": "set_rules", "preset": "nope"}, clock.now), "bad_rules")
    assert table.rules.target_points == 3
    # A room has a ceiling the engine does not (a game to 999 never ends): said in both
    # languages, and nothing changes.
    for name, high in OPTION_MAXIMA.items():
        command = {"type": "set_rules", "options": {name: high + 1}}
        reply = err(table.handle("ann", command, clock.now), "bad_rules")
        assert reply["message"] == f"{name} at a table is at most {high}, not {high + 1}"
        assert persian_digits(high) in reply["message_fa"]
    assert table.rules == RuleSet.preset("classic", target_points=3)
    ok(table.handle("ann", {"type": "set_rules", "options": {"target_points": 21}}, clock.now))


def test_start_needs_four_filled_seats(clock: Clock) -> None:
    table = make_table(clock)
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    seat_bots(table, clock, (1, 2))
    reply = err(table.handle("ann", {"type": "start"}, clock.now), "not_ready")
    assert "seat 3" in reply["message"]
    seat_bots(table, clock, (3,))
    out = ok(table.handle("ann", {"type": "start"}, clock.now))
    kinds = [e.kind for e in out.events]
    assert kinds[:2] == ["status", "game_started"] and table.status == "playing"
    err(table.handle("ann", {"type": "start"}, clock.now), "wrong_status")
    err(table.handle("ann", {"type": "sit", "seat": 1}, clock.now), "wrong_status")
    err(table.handle("ann", {"type": "remove_bot", "seat": 1}, clock.now), "wrong_status")
    err(table.handle("ann", {"type": "set_rules", "preset": "classic"}, clock.now), "wrong_status")


def test_four_bots_and_a_spectating_owner_can_play(clock: Clock) -> None:
    table = make_table(clock)
    seat_bots(table, clock, (0, 1, 2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    table.advance(clock.now)
    assert table.status == "between_games"
    assert table.results[-1].status == "completed"


def test_ownership_passes_to_another_human_when_the_owner_leaves(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob")
    join(table, clock, "cy", seat=2)
    table.disconnect("bob", clock.now)
    out = ok(table.handle("ann", {"type": "leave"}, clock.now))
    assert table.owner == "cy"  # connected and seated first
    assert "owner_changed" in [e.kind for e in out.events]
    ok(table.handle("cy", {"type": "leave"}, clock.now))
    assert table.owner == "bob"
    ok(table.handle("bob", {"type": "leave"}, clock.now))
    assert table.owner is None and table.is_empty


def test_rejoining_renames(clock: Clock) -> None:
    table = make_table(clock)
    out = ok(table.handle("ann", {"type": "join", "name": "Annie"}, clock.now))
    assert out.events[0].kind == "member_renamed"
    assert table.members["ann"].name == "Annie"


def test_a_full_room_refuses_more_members(clock: Clock) -> None:
    from hokm.table import TableConfig

    table = make_table(clock, config=TableConfig(max_members=2))
    join(table, clock, "bob")
    err(table.handle("cy", {"type": "join", "name": "Cy"}, clock.now), "table_full")
    table.disconnect("ann", clock.now)  # the owner stays a member while away
    err(table.handle("cy", {"type": "join", "name": "Cy"}, clock.now), "table_full")


def test_a_full_room_drops_a_spectator_who_went_away(clock: Clock) -> None:
    """Members leave only by ``leave``: closed tabs must not fill the room for good. A new
    member takes the place of the first spectator who is gone (never a seated player or the
    owner); that spectator joins again on return if there is room."""
    from hokm.table import TableConfig

    table = make_table(clock, config=TableConfig(max_members=4))
    join(table, clock, "bob", seat=1)
    join(table, clock, "cy")
    join(table, clock, "dee")
    table.disconnect("bob", clock.now)  # seated: keeps their place
    table.disconnect("cy", clock.now)
    table.disconnect("dee", clock.now)
    out = ok(table.handle("eve", {"type": "join", "name": "Eve"}, clock.now))
    assert [(e.kind, e.data["player"]) for e in out.events] == [
        ("member_left", "cy"),
        ("member_joined", "eve"),
    ]
    assert set(table.members) == {"ann", "bob", "dee", "eve"}
    table.connect("eve", clock.now)
    ok(table.handle("cy", {"type": "join", "name": "Cy"}, clock.now))  # dee makes room
    assert set(table.members) == {"ann", "bob", "eve", "cy"}
    table.connect("cy", clock.now)
    err(table.handle("dee", {"type": "join", "name": "Dee"}, clock.now), "table_full")


def test_an_absent_owner_hands_the_room_on_outside_a_game(clock: Clock) -> None:
    from hokm.table import TableConfig

    table = make_table(clock, config=TableConfig(bot_delay=0, hand_pause=0, owner_grace=60))
    join(table, clock, "bob")
    out = table.disconnect("ann", clock.now)
    away = next(e for e in out.events if e.kind == "owner_away")
    assert away.data == {"owner": "ann", "handover_at": clock.now + 60}
    # Coming back in time keeps the room.
    out = table.connect("ann", clock.now + 30)
    assert any(e.kind == "owner_away" and e.data["handover_at"] is None for e in out.events)
    assert "owner_away" not in table.deadlines
    table.disconnect("ann", clock.advance(30))
    assert table.tick(clock.advance(59)).events == []
    out = table.tick(clock.advance(1))
    assert table.owner == "bob" and "owner_changed" in [e.kind for e in out.events]


def test_an_absent_owner_keeps_the_room_when_no_one_else_is_here(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob")
    table.disconnect("bob", clock.now)
    table.disconnect("ann", clock.now)
    assert "owner_away" not in table.deadlines
    table.tick(clock.advance(10_000))
    assert table.owner == "ann"


def test_two_members_of_one_name_can_be_told_apart(clock: Clock) -> None:
    """A second "Ann" is shown as "Ann 2" (Persian names get Persian digits); joining again
    keeps it; case does not make a name different."""
    table = make_table(clock)
    out = ok(table.handle("bob", {"type": "join", "name": "ANN"}, clock.now))
    assert out.events[0].data["name"] == "ANN 2" and table.members["bob"].name == "ANN 2"
    assert not ok(table.handle("bob", {"type": "join", "name": "ANN"}, clock.now)).events
    ok(table.handle("cy", {"type": "join", "name": "سارا"}, clock.now))
    ok(table.handle("dee", {"type": "join", "name": "سارا"}, clock.now))
    assert table.members["dee"].name == "سارا ۲"


def test_the_owner_seats_only_people_who_are_here(clock: Clock) -> None:
    """A member who closed the page, seated by the owner, would be put in a game they never
    joined (and cancelled when their grace ran out, on their profile)."""
    table = make_table(clock)
    join(table, clock, "bob")
    table.disconnect("bob", clock.now)
    reply = err(
        table.handle("ann", {"type": "sit", "seat": 1, "player": "bob"}, clock.now), "not_here"
    )
    assert "Bob" in reply["message"] and reply["message_fa"]
    assert table.seat_of("bob") is None
    table.connect("bob", clock.now)
    ok(table.handle("ann", {"type": "sit", "seat": 1, "player": "bob"}, clock.now))
    assert table.seat_of("bob") == 1


def test_the_quick_match_seats_its_players_before_they_connect(clock: Clock) -> None:
    """The server sets a quick room up (joins, seats) before the matched pages connect."""
    table = make_table(clock)
    table.quick = True
    join(table, clock, "bob")
    table.disconnect("bob", clock.now)
    ok(table.handle("ann", {"type": "sit", "seat": 1, "player": "bob"}, clock.now))
    assert table.seat_of("bob") == 1


def test_the_owner_removes_a_member_who_may_not_come_back(clock: Clock) -> None:
    """``kick``: a seated member's seat is freed, a spectator is gone; either is told
    (``member_left`` with ``removed``) and refused if they join again, also after a restart.
    Only the owner, never oneself, never a player seated in a game in progress."""
    table = make_table(clock)
    join(table, clock, "bob", seat=1)
    join(table, clock, "cy")
    err(table.handle("bob", {"type": "kick", "player": "cy"}, clock.now), "not_owner")
    err(table.handle("ann", {"type": "kick", "player": "ann"}, clock.now), "bad_seat")
    err(table.handle("ann", {"type": "kick", "player": "zed"}, clock.now), "not_member")
    err(table.handle("ann", {"type": "kick"}, clock.now), "bad_command")
    out = ok(table.handle("ann", {"type": "kick", "player": "bob"}, clock.now))
    left = next(e for e in out.events if e.kind == "member_left")
    assert left.data == {
        "player": "bob",
        "name": "Bob",
        "seat": 1,
        "forfeit": False,
        "removed": True,
    }
    assert "bob" not in table.members and table.seats[1].kind == "empty"
    refused = err(table.handle("bob", {"type": "join", "name": "Bob"}, clock.now), "not_allowed")
    assert refused["message_fa"] == "صاحب اتاق شما را از این اتاق بیرون کرده است"
    again = Table.from_dict(table.to_dict(), now=clock.now)
    err(again.handle("bob", {"type": "join", "name": "Bob"}, clock.now), "not_allowed")
    ok(again.handle("dee", {"type": "join", "name": "Dee"}, clock.now))  # others still may
    # In a game: a seated player stays until it ends; a spectator may go at once.
    seat_bots(table, clock, (0, 1, 2, 3))
    join(table, clock, "eve")
    ok(table.handle("ann", {"type": "start"}, clock.now))
    assert table.status == "playing"
    ok(table.handle("ann", {"type": "kick", "player": "eve"}, clock.now))
    assert "eve" not in table.members


def test_the_rooms_creator_is_never_removed_by_an_owner_it_passed_to(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob")
    table.owner = "bob"  # (as when the creator was away long enough outside a game)
    err(table.handle("bob", {"type": "kick", "player": "ann"}, clock.now), "not_owner")
    assert "ann" in table.members and not table.banned
    again = Table.from_dict(table.to_dict(), now=clock.now)
    assert again.creator == "ann"
    err(again.handle("bob", {"type": "kick", "player": "ann"}, clock.now), "not_owner")


def test_a_seated_player_or_a_quick_rooms_member_is_not_removed(clock: Clock) -> None:
    table = make_table(clock)
    join(table, clock, "bob", seat=1)
    seat_bots(table, clock, (0, 2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    err(table.handle("ann", {"type": "kick", "player": "bob"}, clock.now), "wrong_status")
    assert table.seat_of("bob") == 1
    quick = make_table(clock)
    quick.quick = True
    join(quick, clock, "bob", seat=1)
    join(quick, clock, "eve")  # an onlooker who found the link
    err(quick.handle("ann", {"type": "kick", "player": "bob"}, clock.now), "wrong_status")
    assert "bob" in quick.members
    ok(quick.handle("ann", {"type": "kick", "player": "eve"}, clock.now))
    assert "eve" not in quick.members
