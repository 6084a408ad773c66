"""The fast bitmask engine agrees with the public engine, move by move (differential test)."""

from __future__ import annotations

import random

from hokm.bots.fast import (
    BITS13,
    POP13,
    FastHand,
    cards_of_mask,
    lowest_card,
    mask_of,
    random_playout,
)
from hokm.engine import ALL_CARDS, Card, Deal, Game, Phase, RuleSet, Seat, Suit


def _new_hand(seed: str, rng: random.Random) -> tuple[Game, FastHand]:
    hakem = Seat(rng.randrange(4))
    game = Game(RuleSet(), hakem=hakem)
    deal = Deal.from_seed(seed, hakem)
    game.apply(deal)
    trump = rng.choice(list(Suit))
    game.choose_trump(trump)
    return game, FastHand.from_deal(deal, trump=trump, hakem=hakem)


def test_masks_round_trip_and_tables() -> None:
    """Masks and card lists convert both ways; the suit tables list each holding's ranks."""
    assert cards_of_mask(mask_of(ALL_CARDS)) == list(ALL_CARDS)
    assert lowest_card(mask_of([Card.parse("QD"), Card.parse("AD")])) == Card.parse("QD").index
    assert BITS13[0b1000000000101] == (0, 2, 12)
    assert POP13[(1 << 13) - 1] == 13


def test_random_hands_agree_with_the_engine() -> None:
    """Over 1500 random hands: same legal moves at every step, trick winners, result, points."""
    rng = random.Random(2026)
    for i in range(1500):
        game, fast = _new_hand(f"diff-{i}", rng)
        hand_number = game.hand_number
        while game.hand_number == hand_number:
            legal = game.legal_cards()
            assert fast.legal_mask() == mask_of(legal)
            assert fast.to_move == game.to_move
            card = rng.choice(legal)
            tricks_before = len(game.tricks)
            game.play(card)
            winner = fast.play(card.index)
            if game.hand_number == hand_number and len(game.tricks) > tricks_before:
                assert winner == game.tricks[-1].winner
                assert fast.won == game.tricks_won
            elif game.hand_number == hand_number:
                assert winner == -1
        result = game.hand_results[-1]
        assert fast.is_over and fast.legal_mask() == 0
        assert fast.result() == (result.result, result.winner_team, max(result.points))
        assert tuple(fast.won) == result.tricks


def test_undo_restores_every_state() -> None:
    """Playing a whole hand and undoing it card by card passes through the same states."""
    rng = random.Random(5)
    for i in range(200):
        _, fast = _new_hand(f"undo-{i}", rng)
        states = []
        while not fast.is_over:
            states.append((list(fast.hands), list(fast.trick), list(fast.won), fast.to_move))
            legal = cards_of_mask(fast.legal_mask())
            fast.play(rng.choice(legal).index)
        for state in reversed(states):
            fast.undo()
            assert (fast.hands, fast.trick, fast.won, fast.to_move) == state


def test_random_playouts_are_legal_engine_hands() -> None:
    """Every random playout replays legally in the engine and reaches the same trick counts."""
    rng = random.Random(11)
    for i in range(1000):
        hakem = Seat(rng.randrange(4))
        trump = rng.choice(list(Suit))
        deal = Deal.from_seed(f"playout-{i}", hakem)
        plays: list[int] = []
        tricks = random_playout(
            [mask_of(h) for h in deal.hands], trump.ordinal, int(hakem), rng.random, plays=plays
        )
        game = Game(RuleSet(), hakem=hakem)
        game.apply(deal)
        game.choose_trump(trump)
        for index in plays:
            assert game.phase is Phase.PLAY
            game.play(ALL_CARDS[index])
        assert game.hand_results[-1].tricks == tricks


def test_random_playouts_choose_uniformly() -> None:
    """The first lead of a playout is spread over the leader's 13 cards."""
    deal = Deal.from_seed("uniform", Seat(0))
    hands = [mask_of(h) for h in deal.hands]
    rng = random.Random(3)
    counts: dict[int, int] = {}
    for _ in range(2600):
        plays: list[int] = []
        random_playout(hands, 0, 0, rng.random, plays=plays)
        counts[plays[0]] = counts.get(plays[0], 0) + 1
    assert len(counts) == 13
    assert min(counts.values()) > 120 and max(counts.values()) < 280
