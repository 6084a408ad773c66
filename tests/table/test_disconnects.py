"""Disconnects, grace periods, pauses, and reconnection with snapshots or missed events."""

from __future__ import annotations

import json
import random

from hokm.engine import RuleSet, view_of
from hokm.table import Table, TableConfig, iter_seeds

from .conftest import Clock, join, make_table, my_turn, ok, play_any, seat_bots


def _two_humans(clock: Clock, **rules: object) -> Table:
    """Ann (seat 0) and Bob (seat 1) with bots on 2 and 3; Ann is the hakem."""
    spec = {"first_hakem": "manual", "grace_seconds": 100, **rules}
    table = make_table(
        clock, rules=RuleSet.from_dict(spec), config=TableConfig(bot_delay=1, hand_pause=0)
    )
    join(table, clock, "bob", seat=1)
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    seat_bots(table, clock, (2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    ok(table.handle("ann", {"type": "choose_hakem", "seat": 0}, clock.now))
    table.advance(clock.now)
    return table


def test_a_disconnected_players_turn_is_played_by_a_bot_after_bot_delay(clock: Clock) -> None:
    table = _two_humans(clock)
    assert table.deadlines["turn"].seat == 0
    out = table.disconnect("ann", clock.now)
    assert [e.kind for e in out.events] == ["presence", "turn"]
    assert table.deadlines["bot"].at == clock.now + 1
    assert table.pending_bot_turns(clock.now) == []
    table.advance(clock.advance(1))
    assert table.game is not None and table.game.trump is not None
    assert table.seat_of("ann") == 0  # the seat is kept


def test_a_returning_player_gets_a_snapshot_and_takes_over(clock: Clock) -> None:
    table = _two_humans(clock)
    table.disconnect("ann", clock.now)
    table.advance(clock.advance(1))  # the bot named trump for her
    for _ in range(30):
        if my_turn(table, "ann"):
            break
        table.advance(clock.advance(1))
    assert "bot" in table.deadlines
    out = table.connect("ann", clock.now)
    assert "turn" in table.deadlines and table.deadlines["turn"].seat == 0
    assert any(e.kind == "turn" and e.data["auto"] is False for e in out.events)
    snap = table.snapshot_for("ann")
    assert table.game is not None
    assert snap["you"]["seat"] == 0
    assert snap["game"]["hand"] == [str(c) for c in view_of(table.game, 0).hand]
    assert snap["game"]["legal"] and snap["turn"]["seat"] == 0


def test_grace_warning_then_cancel_keeps_completed_games(clock: Clock) -> None:
    table = _two_humans(clock)
    table.disconnect("bob", clock.now)
    start = clock.now
    assert table.deadlines["grace_warn:bob"].at == start + 100
    # Ann keeps playing; bots play for Bob.
    warned = cancelled = None
    for _ in range(400):
        if my_turn(table, "ann"):
            play_any(table, clock, "ann", random.Random(clock.now))
        out = table.advance(clock.advance(1))
        kinds = [e.kind for e in out.events]
        if "grace_warning" in kinds:
            warned = clock.now
            frame = table.render(next(e for e in out.events if e.kind == "grace_warning"), "ann")
            assert frame is not None and frame["cancel_at"] == clock.now + 100
            assert table.snapshot_for("ann")["table"]["grace"][0]["player"] == "bob"
        if "game_cancelled" in kinds:
            cancelled = clock.now
            assert out.results[0].status == "cancelled" and out.results[0].abandoned == "bob"
            break
    assert warned == start + 100 and cancelled == start + 200
    assert table.status == "lobby" and table.game is None
    # Bob's seat is free for a bot or a friend (it kept him, gone, until the owner removed
    # him); Bob is still a member, and may sit again when he is back.
    assert table.seats[1].kind == "empty" and table.seat_of("bob") is None
    assert "bob" in table.members
    table.connect("bob", clock.advance(1))
    ok(table.handle("bob", {"type": "sit", "seat": 1}, clock.now))


def test_returning_within_grace_clears_the_warning(clock: Clock) -> None:
    table = _two_humans(clock)
    table.disconnect("bob", clock.now)
    table.deadlines.pop("turn", None)  # keep Ann's own timer out of this test
    table.tick(clock.advance(100))
    assert "grace_cancel:bob" in table.deadlines
    out = table.connect("bob", clock.now)
    assert "player_returned" in [e.kind for e in out.events]
    assert not any(k.startswith("grace") for k in table.deadlines)


def test_no_human_connected_pauses_and_deadlines_shift_on_resume(clock: Clock) -> None:
    """Alone with bots, a player who leaves finds the game as it was, however late."""
    table = _two_humans(clock)
    ok(table.handle("bob", {"type": "leave"}, clock.now))  # a bot takes Bob's seat
    turn_at = table.deadlines["turn"].at
    out = table.disconnect("ann", clock.now)
    assert "paused" in [e.kind for e in out.events] and table.status == "paused"
    assert table.next_deadline() is None
    assert table.advance(clock.advance(10_000)).events == []
    assert table.pending_bot_turns(clock.now) == []
    out = table.connect("ann", clock.now)
    kinds = [e.kind for e in out.events]
    assert "resumed" in kinds and table.status == "playing"
    assert table.deadlines["turn"].at == turn_at + 10_000


def test_a_game_everyone_left_pauses_but_its_grace_periods_run_on(clock: Clock) -> None:
    """Two people who both close the page: no bot plays on, but the game is cancelled when it
    would have been had one of them stayed (the first to leave abandoned it), not kept paused
    for ever; someone back in time finds the grace periods where they were."""
    table = _two_humans(clock)
    turn_at = table.deadlines["turn"].at
    table.disconnect("bob", clock.now)
    bob_left = clock.now
    clock.advance(20)
    out = table.disconnect("ann", clock.now)
    assert "paused" in [e.kind for e in out.events] and table.status == "paused"
    assert table.next_deadline() == bob_left + 100  # Bob's warning
    assert table.pending_bot_turns(clock.now) == []
    # Ann is back within the grace period: play resumes, Bob's grace did not stop.
    out = table.connect("ann", clock.now + 30)
    clock.advance(30)
    assert "resumed" in [e.kind for e in out.events]
    assert table.deadlines["turn"].at == turn_at + 30
    assert table.deadlines["grace_warn:bob"].at == bob_left + 100
    # Both gone again, for good: cancelled at Bob's grace end, nothing played meanwhile.
    table.disconnect("ann", clock.now)
    version = table.game_version
    kinds = []
    while table.status == "paused":
        assert table.pending_bot_turns(clock.now) == []
        out = table.advance(clock.advance(1))
        kinds += [e.kind for e in out.events]
        if table.status == "paused":
            assert table.game_version == version  # no card, no trump, no bot move
    assert not {"trump_chosen", "card_played", "turn"} & set(kinds), kinds
    assert kinds.count("grace_warning") == 2 and "game_cancelled" in kinds
    assert clock.now == bob_left + 200
    assert out.results[0].status == "cancelled" and out.results[0].abandoned == "bob"
    # Both were gone: both seats are free (Ann's was kept, with her away, though Bob's went).
    assert table.seats[0].kind == table.seats[1].kind == "empty"
    assert table.status == "lobby" and table.next_deadline() is None


def test_a_cancelled_game_names_everyone_still_away_after_their_warning(clock: Clock) -> None:
    """Both gone: the game is cancelled at Bob's grace end (he abandoned it), and Ann, warned
    too and still away then, stayed away until the cancellation as well (``absent``): for the
    accounts she is no less a leaver than Bob (docs/accounts.md, "Leavers")."""
    table = _two_humans(clock)
    table.disconnect("bob", clock.now)
    clock.advance(20)
    table.disconnect("ann", clock.now)
    results = []
    while not results:
        results = table.advance(clock.advance(1)).results
    assert results[0].abandoned == "bob" and results[0].absent == ("ann",)
    assert results[0].to_dict()["absent"] == ["ann"]


def test_a_player_not_yet_warned_is_not_absent_from_a_cancelled_game(clock: Clock) -> None:
    """Ann left only after Bob's warning: not warned yet when his grace ended, she is not
    named (a page reloaded at that moment is no leave)."""
    table = _two_humans(clock)
    table.disconnect("bob", clock.now)
    clock.advance(150)
    table.disconnect("ann", clock.now)
    results = []
    while not results:
        results = table.advance(clock.advance(1)).results
    assert results[0].abandoned == "bob" and results[0].absent == ()


def test_a_restored_game_everyone_left_keeps_its_grace_periods_and_who_left_first(
    clock: Clock,
) -> None:
    """Stored while everyone was away, restored after a restart: the grace periods, which
    ran during the pause, are not pushed back by it (only to the restore grace at least),
    and lifted to the same moment they keep their order: who left first abandoned it."""
    table = _two_humans(clock, grace_seconds=100)
    table.disconnect("bob", clock.now)
    clock.advance(10)
    table.disconnect("ann", clock.now)
    data = json.loads(json.dumps(table.to_dict()))
    restored = Table.from_dict(data, now=clock.advance(60), seed_source=iter_seeds("r"))
    assert restored.deadlines["grace_warn:bob"].at == table.deadlines["grace_warn:bob"].at
    assert restored.deadlines["grace_warn:ann"].at == table.deadlines["grace_warn:ann"].at
    late = Table.from_dict(data, now=clock.advance(500), seed_source=iter_seeds("r"))
    bob, ann = late.deadlines["grace_warn:bob"].at, late.deadlines["grace_warn:ann"].at
    assert clock.now + late.config.restore_grace <= bob < ann
    out = late.advance(clock.advance(300))
    assert out.results and out.results[0].abandoned == "bob"


def test_a_player_who_was_away_before_the_start_gets_a_grace_timer(clock: Clock) -> None:
    table = make_table(clock, rules=RuleSet(grace_seconds=50))
    join(table, clock, "bob", seat=1)
    table.disconnect("bob", clock.now)
    seat_bots(table, clock, (0, 2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    assert table.deadlines["grace_warn:bob"].at == clock.now + 50


def test_events_since_gives_what_was_missed_or_none(clock: Clock) -> None:
    table = _two_humans(clock)
    seen = table.version
    table.disconnect("bob", clock.now)
    table.advance(clock.advance(5))
    missed = table.events_since(seen, "bob")
    assert missed is not None and missed[0]["version"] == seen + 1
    assert [f["version"] for f in missed] == list(range(seen + 1, table.version + 1))
    assert table.events_since(table.version, "bob") == []
    assert table.events_since(table.version + 1, "bob") is None
    small = make_table(clock, config=TableConfig(bot_delay=0, hand_pause=0, log_size=5))
    for i in range(6):
        ok(small.handle("ann", {"type": "chat", "text": f"m{i}"}, clock.advance(3)))
    assert small.events_since(0, "ann") is None  # the log no longer reaches back
    assert small.events_since(small.version - 2, "ann") is not None


def test_several_connections_of_one_player(clock: Clock) -> None:
    table = _two_humans(clock)
    table.connect("ann", clock.now)  # a second tab
    out = table.disconnect("ann", clock.now)
    assert out.events == [] and "turn" in table.deadlines
    table.disconnect("ann", clock.now)
    assert "bot" in table.deadlines
    assert table.disconnect("ann", clock.now).events == []  # an extra close is harmless


def test_an_owner_who_abandons_a_game_hands_the_room_on(clock: Clock) -> None:
    table = _two_humans(clock)
    table.disconnect("ann", clock.now)
    table.deadlines.pop("bot", None)
    for _ in range(3):
        table.tick(clock.advance(100))
    assert table.results[-1].status == "cancelled" and table.results[-1].abandoned == "ann"
    assert table.owner == "bob"


def test_a_reload_does_not_restart_the_turn_clock(clock: Clock) -> None:
    """Dropping and coming back to the same decision gives back the time that was left, so
    reloading the page cannot hold the table up (the clock of a fresh turn would restart)."""
    table = _two_humans(clock, turn_seconds=15, trump_seconds=15)
    turn = table.deadlines["turn"]
    assert turn.seat == 0
    started = turn.at
    for _ in range(6):  # six quick reloads, 0.5 s apart, each shorter than bot_delay
        clock.advance(0.5)
        table.disconnect("ann", clock.now)
        assert "bot" in table.deadlines
        out = table.connect("ann", clock.now)
        assert table.deadlines["turn"].at == started
        turn_events = [e for e in out.events if e.kind == "turn"]
        assert turn_events and turn_events[-1].data["deadline"] == started
    # The clock runs out as it would have without the reloads: a bot decides for her.
    table.advance(clock.advance(started - clock.now))
    assert table.game is not None and table.game.trump is not None


def test_a_player_back_after_their_time_ran_out_is_timed_out(clock: Clock) -> None:
    table = _two_humans(clock, turn_seconds=15, trump_seconds=15)
    started = table.deadlines["turn"].at
    table.disconnect("ann", clock.now)
    # She is away past her turn's deadline, and the bot has not moved yet (a slow worker).
    clock.advance(started - clock.now + 1)
    table.connect("ann", clock.now)
    out = table.tick(clock.now)
    assert any(e.kind == "timeout" for e in out.events)


def test_the_next_decision_gets_a_fresh_clock(clock: Clock) -> None:
    table = _two_humans(clock, turn_seconds=15, trump_seconds=15)
    first = table.deadlines["turn"].at
    clock.advance(10)
    table.disconnect("ann", clock.now)
    table.advance(clock.advance(1))  # the bot names trump for her
    assert table.game is not None and table.game.trump is not None
    table.connect("ann", clock.now)
    for _ in range(30):
        if my_turn(table, "ann"):
            break
        table.advance(clock.advance(1))
    assert my_turn(table, "ann")
    assert table.deadlines["turn"].at > first
    assert table.deadlines["turn"].at == clock.now + 15


def test_away_ends_with_the_game_it_was_marked_in(clock: Clock) -> None:
    """Ann, here but missing two turns, is away (a bot plays for her) until she acts; the
    game cancelled for Bob's absence ends that too: the lobby showed «غایب» beside her, with
    no «برگشتم» to clear it."""
    table = _two_humans(clock, turn_seconds=15, trump_seconds=15)
    table.disconnect("bob", clock.now)
    marked = False
    for _ in range(400):
        table.advance(clock.advance(1))
        marked = marked or table.seats[0].away
        if table.status == "lobby":
            break
    assert marked and table.status == "lobby"
    assert table.seats[0].kind == "human" and not table.seats[0].away
    assert table.snapshot_for("ann")["table"]["seats"][0]["away"] is False
