"""Bots off the event loop: turns handed out once, stale answers dropped, races applied once."""

from __future__ import annotations

import logging

import pytest

from hokm.bots import Bot, RandomBot
from hokm.bots.rule import RuleBot
from hokm.engine import Action, RuleSet, SeatView, view_of
from hokm.table import Table, TableConfig, choose_bot_action, make_table_bot
from hokm.table import bots as bots_module

from .conftest import Clock, err, make_table, ok, seat_bots


def _bot_table(clock: Clock, delay: float = 0.8) -> Table:
    table = make_table(
        clock,
        rules=RuleSet(first_hakem="manual"),
        config=TableConfig(bot_delay=delay, hand_pause=0),
    )
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    seat_bots(table, clock, (1, 2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    ok(table.handle("ann", {"type": "choose_hakem", "seat": 1}, clock.now))
    return table


def test_a_bot_turn_waits_bot_delay_and_sees_only_its_own_view(clock: Clock) -> None:
    table = _bot_table(clock)
    assert table.pending_bot_turns(clock.now) == []
    assert table.next_deadline() == clock.now + 0.8
    (turn,) = table.pending_bot_turns(clock.advance(0.8))
    assert turn.seat == 1 and turn.level == "random" and turn.version == table.game_version
    assert table.game is not None and turn.view == view_of(table.game, 1)


def test_a_turn_is_handed_out_once_and_again_if_its_answer_never_comes(clock: Clock) -> None:
    table = _bot_table(clock)
    clock.advance(1)
    assert len(table.pending_bot_turns(clock.now)) == 1
    assert table.pending_bot_turns(clock.now) == []
    # The next deadline is the re-issue time, not the (past) bot time: no busy loop.
    assert table.next_deadline() == clock.now + table.rules.turn_seconds
    assert len(table.pending_bot_turns(clock.advance(table.rules.turn_seconds))) == 1
    assert len(table.pending_bot_turns(clock.now, claim=False)) == 1


def test_a_stale_or_repeated_bot_answer_is_dropped(clock: Clock) -> None:
    table = _bot_table(clock)
    (turn,) = table.pending_bot_turns(clock.advance(1))
    action = choose_bot_action(turn)
    assert table.apply_bot_action(turn.seat, action, turn.version - 1, clock.now).events == []
    assert table.apply_bot_action(2, action, turn.version, clock.now).events == []
    out = table.apply_bot_action(turn.seat, action, turn.version, clock.now)
    assert out.events and table.game is not None and table.game.trump is not None
    assert table.apply_bot_action(turn.seat, action, turn.version, clock.now).events == []


def test_a_human_move_racing_the_timeout_bot_applies_once(clock: Clock) -> None:
    table = make_table(clock, rules=RuleSet(first_hakem="manual", trump_seconds=10))
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    seat_bots(table, clock, (1, 2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    ok(table.handle("ann", {"type": "choose_hakem", "seat": 0}, clock.now))
    table.tick(clock.advance(10))  # timeout: the bot is to name trump
    (turn,) = table.pending_bot_turns(clock.now)
    bot_action = choose_bot_action(turn)
    human = {"type": "choose_trump", "suit": "S"}
    cmd = {"type": "action", "action": human, "version": table.version, "action_id": "late"}
    ok(table.handle("ann", cmd, clock.now))  # the human's click arrives first
    assert table.apply_bot_action(0, bot_action, turn.version, clock.now).events == []
    assert table.game is not None and table.game.trump is not None
    assert table.game.trump.value == "S"
    assert sum(1 for a in table.game.history if a.type == "choose_trump") == 1


def test_a_human_move_arriving_after_the_timeout_bot_played_it_is_late_not_illegal(
    clock: Clock,
) -> None:
    """The click that lost the race: made against the game before the bot's move, it is
    refused as ``stale`` (the client then looks again), even though the trump it names was
    named already; it was «illegal» (a card «you do not hold» once the bot had played it)."""
    table = make_table(clock, rules=RuleSet(first_hakem="manual", trump_seconds=10))
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    seat_bots(table, clock, (1, 2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    ok(table.handle("ann", {"type": "choose_hakem", "seat": 0}, clock.now))
    decided_at = table.version
    table.tick(clock.advance(10))
    (turn,) = table.pending_bot_turns(clock.now)
    bot_action = choose_bot_action(turn)
    assert table.apply_bot_action(0, bot_action, turn.version, clock.now).events
    assert table.game is not None and table.game.trump is not None
    version = table.version
    late = {"type": "action", "action": bot_action.to_dict(), "version": decided_at}
    reply = err(table.handle("ann", {**late, "action_id": "late"}, clock.now), "stale")
    assert "changed since" in reply["message"] and table.version == version
    # made against the game as it is now, the same move is what it is: out of its phase
    fresh = {**late, "version": table.version, "action_id": "fresh"}
    err(table.handle("ann", fresh, clock.now), "wrong_phase")


def test_paused_tables_hand_out_no_bot_turn(clock: Clock) -> None:
    table = _bot_table(clock)
    table.disconnect("ann", clock.now)
    assert table.pending_bot_turns(clock.advance(5)) == []
    assert table.pending_bot_turns(clock.now, claim=False) == []


def test_table_bots_are_real_bots_and_always_legal(clock: Clock) -> None:
    for level in ("random", "naive", "easy", "medium"):
        assert isinstance(make_table_bot(level, seed=1), Bot)
    table = _bot_table(clock, delay=0)
    table.advance(clock.now)
    assert table.game is not None and table.game.hand_number >= 0


def test_a_bot_that_fails_is_replaced_by_the_rule_bot_for_that_turn(
    clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot raising (the hard bot did in every bam) must not stall a table: the rule bot
    answers that turn, and the failure is logged."""
    table = _bot_table(clock)
    (turn,) = table.pending_bot_turns(clock.advance(1))
    made = bots_module.make_table_bot

    class Broken(RandomBot):
        def act(self, view: SeatView) -> Action:
            raise KeyError(9)

    def make(level: str, *, seed: int | str = 0) -> Bot:
        return Broken(seed=seed) if level == "random" else made(level, seed=seed)

    monkeypatch.setattr(bots_module, "make_table_bot", make)
    with caplog.at_level(logging.ERROR, logger="hokm.table.bots"):
        action = choose_bot_action(turn)
    assert action == RuleBot(seed=turn.seed).act(turn.view)
    assert "the random bot failed" in caplog.text
    assert table.apply_bot_action(turn.seat, action, turn.version, clock.now).events
