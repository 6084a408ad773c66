"""The engine's fast paths build the same objects as the slow, obvious ones."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest

from hokm.engine import Deal, Game, Phase, RuleSet, Seat


def _random_game(seed: int, rules: RuleSet) -> tuple[Game, list[Any]]:
    """A whole random game; also every Trick seen along the way (tricks reset per hand)."""
    rand = random.Random(seed)
    game = Game(rules, hakem=Seat(seed & 3))
    tricks: list[Any] = []
    while not game.is_over:
        if game.phase is Phase.DEAL:
            game.apply(Deal.from_seed(f"fast-{seed}-{len(game.history)}", game.hakem or 0))
        else:
            game.apply(rand.choice(game.legal_actions()))
        if game.tricks and (not tricks or game.tricks[-1] is not tricks[-1]):
            tricks.append(game.tricks[-1])
    return game, tricks


@pytest.mark.parametrize("preset", ["platform-a", "classic"])
def test_events_tricks_results_and_deals_are_ordinary_frozen_instances(preset: str) -> None:
    game, tricks = _random_game(7, RuleSet.preset(preset))
    built = [*game.events, *tricks, *game.hand_results, *(r.deal for r in game.hand_results)]
    assert {type(o).__name__ for o in built} >= {
        "HakemChosen",
        "HandStarted",
        "CardsDealt",
        "TrumpChosen",
        "TrickWon",
        "HandEnded",
        "Trick",
        "HandResult",
        "Deal",
    }
    for obj in built:
        values = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
        rebuilt = type(obj)(**values)
        assert rebuilt == obj and hash(rebuilt) == hash(obj) and repr(rebuilt) == repr(obj)
        assert pickle.loads(pickle.dumps(obj)) == obj == copy.deepcopy(obj)
        name = next(iter(values))
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, values[name])
        if hasattr(obj, "to_dict"):
            assert obj.to_dict() == rebuilt.to_dict()
