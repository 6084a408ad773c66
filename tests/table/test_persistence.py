"""Restart recovery: the whole table round-trips through JSON and play resumes."""

from __future__ import annotations

import json
import random

import pytest

from hokm.engine import InvalidNotationError, RuleSet
from hokm.table import Table, TableConfig, iter_seeds

from .conftest import Clock, join, make_table, my_turn, ok, play_any, play_out, seat_bots


def _mid_hand(clock: Clock) -> Table:
    table = make_table(
        clock,
        rules=RuleSet(target_points=2, grace_seconds=60),
        config=TableConfig(bot_delay=1, hand_pause=0, restore_grace=5),
    )
    join(table, clock, "bob", seat=1)
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    seat_bots(table, clock, (2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    ok(table.handle("bob", {"type": "chat", "phrase": "gl"}, clock.now))
    rng = random.Random(4)
    for _ in range(12):
        for player in ("ann", "bob"):
            if my_turn(table, player):
                play_any(table, clock, player, rng)
        table.advance(clock.advance(1))
    assert table.game is not None and table.game.plays
    return table


def _restore(table: Table, now: float) -> Table:
    data = json.loads(json.dumps(table.to_dict()))
    return Table.from_dict(data, now=now, seed_source=iter_seeds("after"))


def test_a_table_round_trips_mid_hand(clock: Clock) -> None:
    table = _mid_hand(clock)
    restored = _restore(table, clock.now)
    assert restored.game == table.game
    assert restored.version == table.version and restored.code == table.code
    assert [s.to_dict() for s in restored.seats] == [s.to_dict() for s in table.seats]
    assert list(restored.chat) == list(table.chat)
    assert restored.owner == "ann" and set(restored.members) == {"ann", "bob"}
    assert restored.to_dict()["game"] == table.to_dict()["game"]


def test_after_a_restart_the_table_waits_paused_then_re_arms_with_grace(clock: Clock) -> None:
    table = _mid_hand(clock)
    restored = _restore(table, clock.advance(3600))  # down for an hour
    assert restored.status == "paused" and restored.next_deadline() is None
    out = restored.connect("ann", clock.now)
    assert "resumed" in [e.kind for e in out.events]
    deadline = restored.next_deadline()
    assert deadline is not None and deadline >= clock.now + 5
    # A client that missed events before the restart gets a snapshot.
    assert restored.events_since(table.version - 1, "ann") is None
    assert restored.events_since(restored.version, "ann") == []


def test_play_goes_on_to_the_end_after_a_restart(clock: Clock) -> None:
    table = _mid_hand(clock)
    restored = _restore(table, clock.now)
    restored.connect("ann", clock.now)
    restored.connect("bob", clock.now)
    play_out(restored, clock, ["ann", "bob"])
    assert restored.results[-1].status == "completed"


def test_acknowledged_action_ids_survive_a_restart(clock: Clock) -> None:
    table = make_table(clock)
    first = ok(table.handle("ann", {"type": "chat", "text": "hi", "action_id": "m1"}, clock.now))
    restored = _restore(table, clock.now)
    again = restored.handle("ann", {"type": "chat", "text": "hi", "action_id": "m1"}, clock.now)
    assert again.reply == {**(first.reply or {}), "repeated": True} and again.events == []


def test_a_lobby_round_trips_and_stays_unpaused(clock: Clock) -> None:
    table = make_table(clock, rules=RuleSet.preset("classic"))
    ok(table.handle("ann", {"type": "set_rules", "preset": "platform-b"}, clock.now))
    restored = _restore(table, clock.now)
    assert restored.status == "lobby" and restored.rules == RuleSet.preset("platform-b")
    assert restored.preset == "platform-b"


@pytest.mark.parametrize("data", [{}, {"format": "other"}, {"format": "hokm-table/1"}, []])
def test_a_broken_table_state_is_refused_clearly(data: object) -> None:
    with pytest.raises(InvalidNotationError):
        Table.from_dict(data, now=0.0)  # type: ignore[arg-type]


def test_after_a_restart_people_get_a_grace_but_bots_do_not_wait(clock: Clock) -> None:
    table = _mid_hand(clock)
    # Find a moment when a bot is to move, and one when a person is.
    for _ in range(40):
        if "bot" in table.deadlines and table.seats[table.deadlines["bot"].seat or 0].kind == "bot":
            break
        for player in ("ann", "bob"):
            if my_turn(table, player):
                play_any(table, clock, player, random.Random(1))
        table.advance(clock.advance(0.25))
    bot_at = table.deadlines["bot"].at
    restored = _restore(table, clock.advance(600))
    restored.connect("ann", clock.now)
    assert restored.deadlines["bot"].at <= clock.now  # due at once after the resume
    assert len(restored.pending_bot_turns(clock.now)) == 1
    assert bot_at < clock.now
    # Bob has not come back since the restart: his grace period runs from the resume.
    assert restored.deadlines["grace_warn:bob"].at == clock.now + 60


def _restored_on_bobs_turn(clock: Clock) -> tuple[Table, float]:
    """Restored after a restart while Bob (seat 1) is to decide; Ann is back first."""
    table = _mid_hand(clock)
    for _ in range(80):
        if my_turn(table, "bob"):
            break
        if my_turn(table, "ann"):
            play_any(table, clock, "ann", random.Random(2))
        table.advance(clock.advance(0.5))
    assert my_turn(table, "bob")
    left = table.deadlines["turn"].at - clock.now
    restored = _restore(table, clock.advance(600))
    out = restored.connect("ann", clock.now)
    turn = next(e.data for e in out.events if e.kind == "turn")
    assert turn["seat"] == 1 and turn["auto"] is False  # not a bot's at once
    return restored, left


def test_after_a_restart_a_person_not_yet_back_keeps_their_decision_a_while(
    clock: Clock,
) -> None:
    """Whoever reconnects first must not set bots moving for the others (the server
    stopped, not they): Bob's decision waits for him ``restore_grace`` seconds from the
    resume, then a bot makes it as for anyone away."""
    restored, _ = _restored_on_bobs_turn(clock)
    version = restored.game_version
    for _ in range(4):
        restored.tick(clock.advance(1))
        assert restored.pending_bot_turns(clock.now) == [] and restored.game_version == version
    restored.tick(clock.advance(1.5))  # 5.5 s after the resume: no longer waited for
    turns = restored.pending_bot_turns(clock.now + 1)
    assert [t.seat for t in turns] == [1]
    assert "bob" not in restored.returning


def test_after_a_restart_a_person_back_in_time_decides_on_their_own_clock(
    clock: Clock,
) -> None:
    restored, left = _restored_on_bobs_turn(clock)
    restored.tick(clock.advance(3))
    out = restored.connect("bob", clock.now)
    assert restored.returning == set() and "return:bob" not in restored.deadlines
    assert restored.deadlines["turn"].seat == 1
    assert restored.deadlines["turn"].at >= clock.now + min(left, 2)  # the time he had
    due = restored.deadlines["turn"].at
    restored.tick(clock.advance(due - clock.now - 0.1))  # past the return window, not his clock
    assert restored.pending_bot_turns(clock.now) == [] and my_turn(restored, "bob")
    assert [e.kind for e in out.events].count("presence") == 1
