"""Fuzz: random and malformed inputs from anyone never raise, a refusal changes nothing, and
every change of the stored state comes with an event (so ``Outcome.changed`` can drive storage)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hokm.table import COMMAND_TYPES, Table, TableConfig, iter_seeds

from .conftest import Clock

_PLAYERS = ["ann", "bob", "cy", "dee", "eve"]
_JUNK: list[Any] = [None, 0, -1, 7, 1.5, True, "", "x" * 40, [], {}, {"a": 1}, "AS", "٣"]


def _value(rng: random.Random, key: str, table: Table) -> Any:
    if rng.random() < 0.15:
        return rng.choice(_JUNK)
    if key == "seat":
        return rng.randrange(4)
    if key == "name":
        return rng.choice(["Ann", "Bob", "سارا", " x "])
    if key == "player":
        return rng.choice(_PLAYERS)
    if key == "level":
        return rng.choice(["random", "medium", "easy"])
    if key == "preset":
        return rng.choice(["classic", "platform-a", "nope"])
    if key == "options":
        return rng.choice([{"target_points": 1}, {"bam": True}, {"turn_seconds": -1}, {}])
    if key == "version":
        return max(0, table.version - rng.randrange(3))
    if key == "action_id":
        return f"id{rng.randrange(30)}"
    if key == "text":
        return rng.choice(["salam", "👍", "0912 123 4567", "a.com", ""])
    if key == "phrase":
        return rng.choice(["gl", "gg", "zz"])
    if key == "action":
        if table.game is not None and rng.random() < 0.8:
            legal = [a.to_dict() for s in range(4) for a in table.game.legal_actions(s)]
            if legal:
                return rng.choice(legal)
        return rng.choice([{"type": "play", "card": "AS"}, {"type": "deal"}, {"type": "x"}])
    return rng.choice(_JUNK)


_WEIGHTS = {
    "leave": 0.2,
    "kick": 0.1,  # (a removed player is gone for good: often, no game would start)
    "close_game": 0.3,
    "action": 6,
    "start": 2,
    "continue_game": 2,
    "add_bot": 2,
    "sit": 2,
}


def _command(rng: random.Random, table: Table) -> tuple[str, Any]:
    """A (sender, command): mostly well-formed, often by the right person, sometimes junk."""
    player = rng.choice(_PLAYERS)
    if rng.random() < 0.05:
        return player, rng.choice(_JUNK)
    kinds = [*COMMAND_TYPES, "nope"]
    kind = rng.choices(kinds, [_WEIGHTS.get(k, 1) for k in kinds])[0]
    required, optional = COMMAND_TYPES.get(kind, (frozenset(), frozenset()))
    data: dict[str, Any] = {"type": kind}
    for key in sorted(required | optional | {"action_id"}):
        if key in required or rng.random() < 0.4:
            data[key] = _value(rng, key, table)
    if rng.random() < 0.05:
        data["extra"] = 1
    if rng.random() < 0.8:
        if kind == "action" and isinstance(data.get("action"), dict):
            seat = data["action"].get("seat")
            occupant = table.seats[seat].player if isinstance(seat, int) and 0 <= seat < 4 else None
            player = occupant or player
            data["version"] = table.version
        elif table.owner is not None:
            player = table.owner
    return player, data


def _state(table: Table) -> str:
    data = table.to_dict()
    data.pop("replies")
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("seed", range(4))
def test_random_inputs_never_raise_and_refusals_change_nothing(seed: int) -> None:
    rng = random.Random(seed)
    clock = Clock()
    table = Table(
        "fz",
        "ACDEFG",
        owner="ann",
        owner_name="Ann",
        now=clock.now,
        config=TableConfig(bot_delay=0.5, hand_pause=0.5),
        seed_source=iter_seeds(f"fz{seed}"),
    )
    statuses: set[str] = set()
    for _ in range(1000):
        roll = rng.random()
        player = rng.choice(_PLAYERS)
        before_version = table.version
        before = _state(table)
        if roll < 0.7:
            sender, command = _command(rng, table)
            out = table.handle(sender, command, clock.now)
            assert out.reply is not None and out.reply["type"] in ("ok", "error")
            json.dumps(out.reply)
            if out.reply["type"] == "error":
                assert out.reply["message"] and out.reply["message_fa"]
                assert not out.events and _state(table) == before
        elif roll < 0.8:
            out = table.connect(player, clock.now)
        elif roll < 0.88:
            out = table.disconnect(player, clock.now)
        else:
            out = table.advance(clock.advance(rng.choice([0.5, 1, 5, 30])))
        if not out.events:  # every change of stored state is an event: Outcome.changed
            assert _state(table) == before
        versions = [e.version for e in out.events]
        assert versions == list(range(before_version + 1, before_version + 1 + len(versions)))
        for event in out.events:
            for who in [*_PLAYERS, None]:
                frame = table.render(event, who)
                if frame is not None:
                    json.dumps(frame)
        statuses.add(table.status)
        if rng.random() < 0.02:
            restored = Table.from_dict(json.loads(json.dumps(table.to_dict())), now=clock.now)
            assert restored.version == table.version
    assert {"lobby", "playing"} <= statuses  # the fuzz reaches real games
