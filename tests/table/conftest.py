"""Helpers for table tests: a fake clock, quick tables and a human player that follows the view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hokm.engine import RuleSet, view_of
from hokm.table import Outcome, Table, TableConfig, iter_seeds

FAST = TableConfig(bot_delay=0, hand_pause=0, restore_grace=5)


class Clock:
    """A fake clock: tests move time by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def make_table(
    clock: Clock,
    *,
    rules: RuleSet | None = None,
    config: TableConfig = FAST,
    owner: str = "ann",
    seed: str = "test",
) -> Table:
    table = Table(
        "t1",
        "ACDEFG",
        owner=owner,
        owner_name=owner.title(),
        now=clock.now,
        rules=rules,
        config=config,
        seed_source=iter_seeds(seed),
    )
    table.connect(owner, clock.now)
    return table


def ok(out: Outcome) -> Outcome:
    assert out.reply is not None and out.reply["type"] == "ok", out.reply
    return out


def err(out: Outcome, code: str) -> dict[str, Any]:
    assert out.reply is not None and out.reply["type"] == "error", out.reply
    assert out.reply["code"] == code, out.reply
    assert not out.events
    return out.reply


def join(table: Table, clock: Clock, player: str, *, seat: int | None = None) -> None:
    ok(table.handle(player, {"type": "join", "name": player.title()}, clock.now))
    table.connect(player, clock.now)
    if seat is not None:
        ok(table.handle(player, {"type": "sit", "seat": seat}, clock.now))


def seat_bots(table: Table, clock: Clock, seats: tuple[int, ...], level: str = "random") -> None:
    for seat in seats:
        cmd = {"type": "add_bot", "seat": seat, "level": level}
        ok(table.handle(table.owner or "", cmd, clock.now))


def one_human_table(clock: Clock, **kwargs: Any) -> Table:
    """Ann on seat 0, random bots on seats 1-3, game started and advanced to Ann's decision."""
    table = make_table(clock, **kwargs)
    ok(table.handle("ann", {"type": "sit", "seat": 0}, clock.now))
    seat_bots(table, clock, (1, 2, 3))
    ok(table.handle("ann", {"type": "start"}, clock.now))
    table.advance(clock.now)
    return table


_counter = iter(range(1 << 30))


def act(table: Table, clock: Clock, player: str, action: dict[str, Any]) -> Outcome:
    """Send an action made against the current version."""
    cmd = {
        "type": "action",
        "action": action,
        "version": table.version,
        "action_id": f"x{next(_counter)}",
    }
    return table.handle(player, cmd, clock.now)


def play_any(table: Table, clock: Clock, player: str, rng: random.Random) -> Outcome:
    """The player makes a random legal decision from their own view."""
    seat = table.seat_of(player)
    assert table.game is not None
    legal = view_of(table.game, seat).legal
    assert legal, "no decision for this player"
    return ok(act(table, clock, player, rng.choice(legal)))


def my_turn(table: Table, player: str) -> bool:
    seat = table.seat_of(player)
    return table.game is not None and seat is not None and bool(view_of(table.game, seat).legal)


def play_out(
    table: Table, clock: Clock, humans: list[str], *, seed: int = 0, limit: int = 5000
) -> None:
    """Humans answer at once, bots via advance(), until the game is over."""
    rng = random.Random(seed)
    for _ in range(limit):
        table.advance(clock.now)
        if table.status != "playing":
            return
        movers = [p for p in humans if my_turn(table, p)]
        if movers:
            play_any(table, clock, movers[0], rng)
        else:
            clock.advance(1)
    raise AssertionError("the game did not end")
