"""Stacked decks and small drivers shared by the engine tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hokm.engine import (
    Card,
    Deal,
    DecideBam,
    Game,
    Phase,
    RuleSet,
    Seat,
    parse_cards,
)

# Deals written as four space-separated hands, seat 0 first. The first five cards of
# each hand are the ones dealt in the first round (trump is named from the hakem's five).

#: Seat 0 holds all thirteen spades: with spades trump, seat 0's team wins every trick.
ALL_TRUMPS_AT_0 = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)

#: Spades trump, seat 0 hakem, first-legal play: seat 1 wins the first trick with AS,
#: then seat 0 cuts every trick: team 0 wins 7–1 (a normal win).
NORMAL_7_1 = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2D",
    "AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "AH 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)

#: Spades trump, seat 0 hakem: seat 0 leads AH and wins; then seat 1 wins seven tricks
#: with its spades: the non-hakem team wins 7–1.
HAKEM_LOSES_7_1 = (
    "2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)

#: Spades trump, seat 0 hakem: seat 0 wins seven tricks with its top spades (7–0), then
#: leads 2H and seat 1 wins it with KH: a bam attempt fails at the eighth trick.
SEVEN_THEN_LOSE = (
    "AS KS QS JS TS 9S 8S 2H 3H 4H 5H 6H 7H",
    "2S 3S 4S 5S 6S 7S AH KH QH JH TH 9H 8H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)


#: Everyone holds a spade; the hakem's first five hold no card of rank 10 or more.
WEAK_FIVE = (
    "2S 3S 4H 5D 9C AS KS QS JS TS 9S 8S 7S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 3H 2H 6S",
    "AD KD QD JD TD 9D 8D 7D 6D 4D 3D 2D 5S",
    "AC KC QC JC TC 8C 7C 6C 5C 4C 3C 2C 4S",
)


def stacked(hands: Sequence[str], *, rotate: int = 0) -> Deal:
    """A deal from four hand strings; ``rotate=r`` gives hand ``i`` to seat ``i + r``."""
    cards: list[list[Card]] = [[], [], [], []]
    for i, text in enumerate(hands):
        cards[(i + rotate) % 4] = parse_cards(text)
    return Deal.from_hands(cards)


def start(rules: RuleSet, deal: Deal, *, hakem: int = 0, trump: str | None = "S") -> Game:
    """A game with ``hakem`` and ``deal`` applied and (unless None) ``trump`` named."""
    game = Game(rules, hakem=Seat(hakem))
    game.apply(deal)
    if trump is not None:
        game.choose_trump(trump)
    return game


def play_first_legal(game: Game, *, bam: bool | None = None, script: Sequence[str] = ()) -> None:
    """Play ``script`` cards, then the first legal card, until the hand is over.

    At a bam decision the first seat of the team decides ``bam`` (None: stop there).
    """
    hand = game.hand_number
    todo = list(script)
    while game.hand_number == hand and not game.is_over:
        if game.phase is Phase.PLAY:
            game.play(todo.pop(0) if todo else game.legal_cards()[0])
        elif game.phase is Phase.BAM:
            if bam is None:
                return
            assert game.bam_team is not None
            game.apply(DecideBam(Seat(game.bam_team), bam))
        else:
            return


def random_game(rules: RuleSet, seed: int, *, max_hands: int = 1000) -> tuple[Game, random.Random]:
    """Play a whole game with uniformly random legal actions and seeded deals."""
    from hokm.engine import DrawAces, SetHakem

    rng = random.Random(seed)
    game = Game(rules)
    if rules.first_hakem == "ace_draw":
        game.apply(DrawAces.from_seed(f"draw-{seed}"))
    else:
        game.apply(SetHakem.from_seed(f"hakem-{seed}"))
    hands = 0
    while not game.is_over and hands < max_hands:
        if game.phase is Phase.DEAL:
            assert game.hakem is not None
            game.apply(Deal.from_seed(f"deal-{seed}-{len(game.history)}", game.hakem))
            hands += 1
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game, rng
