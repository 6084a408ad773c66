"""Property: in many random games, no frame to any recipient carries a card it may not see.

Four kinds of recipient are checked: seated humans, a member without a seat (spectator) and
someone who is not a member at all (``None``). Every event frame, every snapshot and every
replay (``events_since``) is scanned for card strings and for the current deal's seed.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from hokm.engine import Card, Deal, Phase, RuleSet
from hokm.table import Outcome, Table, TableConfig, iter_seeds

from .conftest import Clock, join, ok

_CARD = re.compile(r"^(?:[2-9TJQKA][SHDC])$")
_IN_HAND = (Phase.TRUMP, Phase.PLAY, Phase.BAM)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def _allowed(table: Table, seat: int | None) -> set[str]:
    """Cards ``seat`` may know now: finished and abandoned deals (their seeds are revealed),
    the ace draw, the cards played in the current hand, and its own cards."""
    game = table.game
    assert game is not None
    allowed = {str(c) for c in game.ace_draw.cards} if game.ace_draw is not None else set()
    deals = [a for a in game.history if isinstance(a, Deal)]
    current = deals[-1] if deals and game.phase in _IN_HAND else None
    for deal in deals:
        if deal is not current:
            allowed.update(str(c) for hand in deal.hands for c in hand)
    if current is not None:
        allowed.update(str(c) for c in game.plays)
        if seat is not None:
            own = current.hands[seat][:5] if game.phase is Phase.TRUMP else current.hands[seat]
            allowed.update(str(c) for c in own)
    return allowed


class Checker:
    def __init__(self, table: Table, recipients: list[str | None]) -> None:
        self.table = table
        self.recipients = recipients
        self.frames = 0
        self.cache: dict[tuple[int, int, int | None], set[str]] = {}

    def check_frame(self, frame: dict[str, Any], seat: int | None, where: str) -> None:
        json.dumps(frame)  # every frame is plain JSON
        self.frames += 1
        game = self.table.game
        if game is None:
            return
        key = (self.table.version, len(game.history), seat)
        allowed = self.cache.get(key)
        if allowed is None:
            allowed = self.cache[key] = _allowed(self.table, seat)
        secret = game.deal.seed if game.deal is not None and game.phase in _IN_HAND else None
        for text in _strings(frame):
            if _CARD.match(text):
                assert text in allowed, f"{where}: seat {seat} was sent {text}: {frame}"
            assert secret is None or secret not in text, f"{where}: the seed leaked: {frame}"

    def check(self, out: Outcome) -> None:
        for player in self.recipients:
            for event in out.events:
                frame = self.table.render(event, player)
                if frame is None:
                    continue
                seat = event.seats.index(player) if player in event.seats else None
                self.check_frame(frame, seat, f"event {event.kind}")
        if out.reply is not None:
            self.check_frame(out.reply, None, "reply")

    def check_snapshots(self, since: int) -> None:
        for player in self.recipients:
            seat = self.table.seat_of(player)
            self.check_frame(self.table.snapshot_for(player), seat, "snapshot")
            for frame in self.table.events_since(since, player) or []:
                self.check_frame(frame, seat, "replay")


def _random_table(rng: random.Random, clock: Clock) -> tuple[Table, list[str]]:
    preset = rng.choice(["classic", "platform-a", "platform-b", "simulator"])
    rules = RuleSet.preset(
        preset,
        target_points=rng.choice([1, 2, 3]),
        turn_seconds=2,
        trump_seconds=2,
        grace_seconds=30,
        first_hakem=rng.choice(["ace_draw", "random"]),
    )
    config = TableConfig(bot_delay=0.5, hand_pause=1, log_size=5000)
    table = Table(
        "leak",
        "ACDEFG",
        owner="p0",
        owner_name="P0",
        now=clock.now,
        rules=rules,
        config=config,
        seed_source=iter_seeds(f"leak{rng.random()}"),
    )
    table.connect("p0", clock.now)
    humans = ["p0"]
    seats = list(range(4))
    rng.shuffle(seats)
    ok(table.handle("p0", {"type": "sit", "seat": seats[0]}, clock.now))
    for i in range(1, rng.randint(1, 4)):
        player = f"p{i}"
        join(table, clock, player, seat=seats[i])
        humans.append(player)
    join(table, clock, "watcher")  # a member without a seat
    for seat in range(4):
        if table.seats[seat].kind == "empty":
            level = rng.choice(["random", "medium"])
            ok(table.handle("p0", {"type": "add_bot", "seat": seat, "level": level}, clock.now))
    return table, humans


@pytest.mark.parametrize("seed", range(10))
def test_no_frame_carries_a_card_its_recipient_may_not_see(seed: int) -> None:
    rng = random.Random(seed)
    clock = Clock()
    table, humans = _random_table(rng, clock)
    checker = Checker(table, [*humans, "watcher", None])
    checker.check(table.handle("p0", {"type": "start"}, clock.now))
    hand_start = table.version
    games = 0
    for step in range(20_000):
        if table.status == "between_games":
            games += 1
            if games == 2:
                break
            out = table.handle("p0", {"type": "continue_game"}, clock.now)
            checker.check(out)
            hand_start = next(e.version for e in out.events if e.kind == "game_started")
        out = table.advance(clock.advance(0.5))
        checker.check(out)
        starts = [e.version for e in out.events if e.kind in ("deal_committed", "game_started")]
        if starts:
            hand_start = starts[-1]
        for player in humans:
            seat = table.seat_of(player)
            game = table.game
            if game is None or seat is None:
                continue
            member = table.members[player]
            roll = rng.random()
            if roll < 0.01 and member.is_connected:
                checker.check(table.disconnect(player, clock.now))
            elif roll < 0.05 and not member.is_connected:
                checker.check(table.connect(player, clock.now))
            legal = [a for a in game.legal_actions(seat)]
            if legal and member.is_connected and rng.random() < 0.7:
                action = rng.choice(legal).to_dict()
                cmd = {
                    "type": "action",
                    "action": action,
                    "version": table.version,
                    "action_id": f"{player}-{step}",
                }
                checker.check(table.handle(player, cmd, clock.now))
            if rng.random() < 0.02:
                chat = {"type": "chat", "phrase": "gl"}
                checker.check(table.handle(player, chat, clock.now))
        if step % 25 == 0:
            checker.check_snapshots(hand_start - 1)
        if step % 200 == 100:  # a restarted table shows no more than the live one
            data = json.loads(json.dumps(table.to_dict()))
            restored = Table.from_dict(data, now=clock.now, seed_source=iter_seeds("r"))
            Checker(restored, checker.recipients).check_snapshots(restored.version)
        if table.status == "paused":
            checker.check(table.connect("p0", clock.now))
    else:  # pragma: no cover
        raise AssertionError("the games did not end")
    assert games == 2 and checker.frames > 500
    assert all(r.status == "completed" for r in table.results)


def test_a_card_in_the_wrong_frame_would_be_caught() -> None:
    """The checker itself finds a leak (so the property above is not vacuous)."""
    clock = Clock()
    table, _ = _random_table(random.Random(99), clock)
    table.handle("p0", {"type": "start"}, clock.now)
    for _ in range(50):
        table.advance(clock.advance(0.5))
        if table.game is not None and table.game.phase in _IN_HAND:
            break
    game = table.game
    assert game is not None and game.deal is not None
    seat = table.seat_of("p0")
    assert seat is not None
    other = (seat + 1) % 4
    hidden = next(str(c) for c in game.deal.hands[other] if str(c) not in _allowed(table, seat))
    checker = Checker(table, ["p0"])
    with pytest.raises(AssertionError, match="was sent"):
        checker.check_frame({"cards": [hidden]}, seat, "test")
    assert Card.parse(hidden)
