"""The ``fast`` section of ``hokm bench``: the bots' fast engine, double-dummy solving, search.

``hokm bench fast`` (``--scale 0.1`` for a quick look). ``scripts/bench_fast.py`` has the
longer tables of ``docs/search.md`` (solvers by cards left, decision times by trick).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hokm.bots.dd import Solver, card_outcomes, dds_winning_cards
from hokm.bots.fast import FastHand, cards_of_mask, mask_of, random_playout
from hokm.bots.search import SearchBot
from hokm.cli.bench import BenchOptions, Measurement, measure
from hokm.engine import Deal, Game, RuleSet, Seat, Suit, view_of

__all__ = ["DEALS", "POSITIONS", "fast_section"]

DEALS = 200  # the deals of the playout and play/undo figures
POSITIONS = 20  # the positions of each solver figure


def _positions(count: int, cards_left: int, seed: str) -> list[FastHand]:
    rng = random.Random(seed)
    out: list[FastHand] = []
    i = 0
    while len(out) < count:
        i += 1
        hakem = Seat(rng.randrange(4))
        hand = FastHand.from_deal(
            Deal.from_seed(f"{seed}:{i}", hakem), trump=rng.choice(list(Suit)), hakem=hakem
        )
        for _ in range((13 - cards_left) * 4 + rng.randrange(4)):
            legal = hand.legal_mask()
            if not legal:
                break
            hand.play(rng.choice(cards_of_mask(legal)).index)
        if not hand.is_over:
            out.append(hand)
    return out


def fast_section(options: BenchOptions) -> list[Measurement]:
    """Random playouts, play/undo, DDS and own-solver questions, search decisions."""
    deals = [
        [mask_of(h) for h in Deal.from_seed(f"{options.seed}:{i}", Seat(0)).hands]
        for i in range(DEALS)
    ]
    rnd = random.Random(options.seed).random
    full = _positions(POSITIONS, 13, options.seed)
    small = _positions(POSITIONS, 5, options.seed)
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_seed(options.seed, Seat(0)))
    game.choose_trump(Suit.HEARTS)
    for _ in range(17):  # into the fifth trick
        game.play(game.legal_cards()[0])
    view = view_of(game, game.to_move)

    def playouts(n: int) -> int:
        for i in range(n):
            random_playout(deals[i % DEALS], i & 3, i & 3, rnd)
        return n

    def play_undo(n: int) -> int:
        cards = 0
        for i in range(n):
            hand = FastHand(deals[i % DEALS], i & 3, i & 3)
            while not hand.is_over:
                legal = hand.legal_mask()
                hand.play((legal & -legal).bit_length() - 1)
                cards += 1
            while hand.tricks_played or hand.trick:
                hand.undo()
        return cards

    def reach7(positions: list[FastHand]) -> Callable[[int], int]:
        def work(n: int) -> int:
            for i in range(n):
                hand = positions[i % len(positions)]
                dds_winning_cards(hand, 7 - hand.won[hand.to_move & 1])
            return n

        return work

    def own7(n: int) -> int:
        for i in range(n):
            hand = small[i % len(small)]
            team = hand.to_move & 1
            solver = Solver(hand)
            for card in cards_of_mask(hand.legal_mask()):
                solver.card_reaches(card.index, team, 7 - hand.won[team], 13 - hand.tricks_played)
        return n

    def outcomes(n: int) -> int:
        for i in range(n):
            card_outcomes(full[i % len(full)])
        return n

    def decisions(n: int) -> int:
        for i in range(n):
            SearchBot(seed=i, learned=0).act(view)
        return n

    # Each --scale measures the same deals and positions, a whole number of times over.
    return [
        measure(
            "random_playout: complete random hands",
            "hands/s",
            playouts,
            20000,
            options,
            cycle=DEALS,
        ),
        measure(
            "FastHand legal_mask + play (+ undo)", "cards/s", play_undo, 2000, options, cycle=DEALS
        ),
        measure(
            "DDS 'reach 7?' for all cards, 13 cards a seat",
            "solves/s",
            reach7(full),
            60,
            options,
            cycle=POSITIONS,
        ),
        measure(
            "DDS 'reach 7?' for all cards, 5 cards a seat",
            "solves/s",
            reach7(small),
            400,
            options,
            cycle=POSITIONS,
        ),
        measure(
            "own solver 'reach 7?' for all cards, 5 cards a seat",
            "solves/s",
            own7,
            100,
            options,
            cycle=POSITIONS,
        ),
        measure(
            "card_outcomes (reach 7 + kot), 13 cards a seat",
            "solves/s",
            outcomes,
            20,
            options,
            cycle=POSITIONS,
        ),
        measure("SearchBot decision, 5th trick (40 worlds)", "decisions/s", decisions, 10, options),
    ]
