"""Benchmarks of the fast engine, the double-dummy solvers and the search bot's decisions.

    .venv/bin/python scripts/bench_fast.py            # everything (about a minute)
    .venv/bin/python scripts/bench_fast.py playout    # one part: playout, solver, decisions

Times are CPU seconds of this process (``time.process_time``), so other work on a shared
machine does not inflate them. Figures go to docs/benchmarks.md ("Fast engine", "Search bot").
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from hokm.bots.dd import Solver, card_outcomes, dds_card_scores, dds_winning_cards
from hokm.bots.fast import FastHand, cards_of_mask, mask_of, random_playout, random_position
from hokm.bots.search import SearchBot
from hokm.engine import Deal, Game, RuleSet, Seat, view_of


def _clock() -> float:
    """CPU seconds of this process: fair on a machine shared with other work."""
    return time.process_time()


def bench_playout(hands: int = 20000) -> None:
    deals = [[mask_of(h) for h in Deal.from_seed(f"bench-{i}", Seat(0)).hands] for i in range(500)]
    rnd = random.Random(1).random
    best = 0.0
    for _ in range(3):
        start = _clock()
        for i in range(hands):
            random_playout(deals[i % 500], i & 3, i % 4, rnd)
        best = max(best, hands / (_clock() - start))
    print(f"random_playout: {best:,.0f} complete random hands/s (best of 3 x {hands})")
    rng = random.Random(2)
    start = _clock()
    plays = 0
    for i in range(2000):
        hand = FastHand(deals[i % 500], i & 3, i % 4)
        while not hand.is_over:
            legal = hand.legal_mask()
            hand.play((legal & -legal).bit_length() - 1)
            plays += 1
        while hand.tricks_played or hand.trick:
            hand.undo()
    rate = plays / (_clock() - start)
    print(f"FastHand legal_mask+play (+undo): {rate:,.0f} cards/s ({plays} cards)")
    del rng


def _position(i: int, cards_left: int, rng: random.Random) -> FastHand | None:
    return random_position(f"pos-{i}", cards_left, rng)


def bench_solver(positions: int = 30) -> None:
    """Each question is timed in its own pass over the positions: DDS reuses its transposition
    table when it is asked about the same deal twice in a row, which would flatter it."""
    print("cards/seat | DDS max tricks | own max tricks | DDS reach 7 | own reach 7 | outcomes")
    for cards in (3, 5, 7, 9, 11, 13):
        rng = random.Random(cards)
        hands: list[FastHand] = []
        i = 0
        while len(hands) < positions:
            i += 1
            hand = _position(i, cards, rng)
            if hand is not None:
                hands.append(hand)

        def timed(question: object, hands: list[FastHand] = hands) -> str:
            values = []
            for hand in hands:
                start = _clock()
                question(hand)  # type: ignore[operator]
                values.append(_clock() - start)
            return f"{statistics.median(values) * 1000:.2f} ms"

        def own_max(hand: FastHand) -> None:
            team, horizon = hand.to_move & 1, 13 - hand.tricks_played
            solver = Solver(hand)
            low = 0
            while solver.can_reach(team, low + 1, horizon):
                low += 1

        def reach7(hand: FastHand) -> None:
            team = hand.to_move & 1
            dds_winning_cards(hand, 7 - hand.won[team])

        def own7(hand: FastHand) -> None:
            team, horizon = hand.to_move & 1, 13 - hand.tricks_played
            solver = Solver(hand)
            for card in cards_of_mask(hand.legal_mask()):
                solver.card_reaches(card.index, team, 7 - hand.won[team], horizon)

        dds = timed(dds_card_scores)
        own = timed(own_max) if cards <= 7 else "—"
        dds7 = timed(reach7)
        own7_ = timed(own7) if cards <= 9 else "—"
        out = timed(card_outcomes)
        print(f"{cards:>10} | {dds:>14} | {own:>14} | {dds7:>11} | {own7_:>11} | {out}")


def bench_decisions(hands: int = 16) -> None:
    times: dict[int, list[float]] = {}
    bots = [SearchBot(seed=f"bench-{s}") for s in range(4)]
    for i in range(hands):
        hakem = Seat(i % 4)
        game = Game(RuleSet(), hakem=hakem)
        game.apply(Deal.from_seed(f"decide-{i}", hakem))
        game.apply(bots[hakem].act(view_of(game, hakem)))
        while game.hand_number == 0:
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            start = _clock()
            action = bots[seat].act(view)
            times.setdefault(len(game.tricks) + 1, []).append(_clock() - start)
            game.apply(action)
    every = sorted(x for v in times.values() for x in v)
    print(
        f"search decisions: {len(every)}, median {statistics.median(every) * 1000:.0f} ms, "
        f"p95 {every[int(len(every) * 0.95)] * 1000:.0f} ms, max {every[-1] * 1000:.0f} ms"
    )
    for trick, values in sorted(times.items()):
        values.sort()
        print(
            f"  trick {trick:>2}: median {statistics.median(values) * 1000:6.1f} ms, "
            f"max {values[-1] * 1000:6.1f} ms"
        )


def main(argv: list[str]) -> int:
    parts = argv or ["playout", "solver", "decisions"]
    for part in parts:
        {"playout": bench_playout, "solver": bench_solver, "decisions": bench_decisions}[part]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
