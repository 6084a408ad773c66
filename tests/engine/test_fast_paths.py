"""The engine's fast paths build the same objects as the slow, obvious ones."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest

from hokm.engine import (
    ALL_CARDS,
    Card,
    Deal,
    Game,
    Phase,
    RuleSet,
    Seat,
    Suit,
    parse_cards,
    sort_hand,
)


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


def test_sort_hand_sorts_by_suit_trump_first_then_rank_high_to_low() -> None:
    def key(card: Card, trump: Suit | None) -> tuple[int, int]:
        return (-1 if card.suit is trump else card.suit.ordinal, -card.rank)

    rand = random.Random(3)
    for _ in range(2000):
        cards = rand.sample(ALL_CARDS, rand.randint(0, 13))
        trump = rand.choice([None, *Suit])
        assert sort_hand(cards, trump) == sorted(cards, key=lambda c: key(c, trump))
    assert [str(c) for c in sort_hand(parse_cards("2S AH 3C KS TH"), Suit.HEARTS)] == [
        "AH",
        "TH",
        "KS",
        "2S",
        "3C",
    ]


def test_hands_holdings_and_legal_cards_are_cards_in_suit_then_deal_order() -> None:
    game = Game(RuleSet(), hakem=Seat(0))
    deal = Deal.from_seed("order", Seat(0))
    game.apply(deal)
    for seat in Seat:
        first = deal.hands[seat][:5]
        expected = sorted(first, key=lambda c: c.suit_index)  # stable: deal order in a suit
        assert game.hand_of(seat) == expected and game.hand_size(seat) == 5
        assert [c for suit in game.holdings[seat] for c in suit] == expected
    game.apply(game.legal_actions()[0])
    for seat in Seat:
        expected = sorted(deal.hands[seat], key=lambda c: c.suit_index)
        assert game.hand_of(seat) == expected
    assert game.legal_cards() == game.hand_of(Seat(0))
    assert [a.card for a in game.legal_actions()] == game.legal_cards()  # type: ignore[union-attr]
