"""The bam decision at 7–0: go on for all 13 tricks only when the estimate says it pays.

The estimate samples deals consistent with the view (the seat's own cards, the cards played,
the voids shown, the hand sizes), plays each one out with rule bots on every seat, and counts
how often the team takes all the remaining tricks. Going on pays when

    p · (points a won game is worth) + (1 − p) · (points of a failed bam) > kot points now,

where a won bam wins the game (worth the points still missing to the target), a failed bam
costs −3 under ``failed_bam=minus3`` and keeps the kot under ``failed_bam=kot``.

>>> import random
>>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit, view_of
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("sample", Seat(0)))
>>> _ = game.choose_trump(Suit.SPADES)
>>> world = sample_world(Knowledge.from_view(view_of(game, Seat(0))), random.Random(1))
>>> [len(world[s]) for s in range(4)]
[13, 13, 13, 13]
"""

from __future__ import annotations

import random

from hokm.bots.knowledge import Knowledge, cards_of
from hokm.engine import (
    Card,
    ChooseTrump,
    Deal,
    DecideBam,
    Game,
    Phase,
    Play,
    Seat,
    SeatView,
    view_of,
)

__all__ = ["bam_pays", "estimate_bam", "sample_world"]

_SEATS = tuple(Seat)


def sample_world(k: Knowledge, rng: random.Random, *, tries: int = 40) -> list[list[Card]]:
    """The cards each seat holds now in one deal consistent with the knowledge.

    The seat's own hand is exact; the unseen cards go to the other seats in their hand sizes,
    never into a suit a seat has shown void in (if the voids cannot all be met after ``tries``
    attempts, they are relaxed).
    """
    others = [s for s in _SEATS if s != k.seat]
    unseen = cards_of(k.unseen)
    for attempt in range(tries + 1):
        strict = attempt < tries
        rng.shuffle(unseen)

        def eligible(c: Card, strict: bool = strict) -> list[Seat]:
            return [s for s in others if not (strict and k.voids[s] >> c.suit_index & 1)]

        order = sorted(unseen, key=lambda c: len(eligible(c)))
        cap = {s: k.hand_sizes[s] for s in others}
        hands: dict[Seat, list[Card]] = {s: [] for s in others}
        for c in order:
            seats = [s for s in eligible(c) if cap[s] > 0]
            if not seats:
                break
            s = rng.choices(seats, weights=[cap[x] for x in seats])[0]
            hands[s].append(c)
            cap[s] -= 1
        else:
            return [list(k.hand) if s == k.seat else hands[s] for s in _SEATS]
    raise AssertionError("unreachable: the relaxed sample always succeeds")  # pragma: no cover


def _replay(view: SeatView, world: list[list[Card]]) -> Game:
    """A game at the view's point in which the other seats hold ``world``'s cards."""
    assert view.hakem is not None and view.trump is not None
    played: list[list[Card]] = [[], [], [], []]
    for seat, card in view.played:
        played[seat].append(card)
    rules = view.rules.replace(
        redeal_if_player_has_no_trump=False, hakem_may_redeal_weak_five=False
    )
    game = Game(rules, hakem=view.hakem)
    game.apply(Deal.from_hands([played[s] + world[s] for s in _SEATS]))
    game.apply(ChooseTrump(view.hakem, view.trump))
    for seat, card in view.played:
        game.apply(Play.of(seat, card))
    return game


def estimate_bam(view: SeatView, *, samples: int, seed: str) -> float:
    """Estimated odds that the team of ``view.seat`` takes every remaining trick."""
    from hokm.bots.rule import RuleBot  # local: the rule bot itself calls this module

    if view.seat is None or view.phase is not Phase.BAM:
        raise ValueError("the bam estimate needs a seat's view in phase bam")
    k = Knowledge.from_view(view)
    rng = random.Random(seed)
    bot = RuleBot(seed=seed, bam_samples=0)
    team = view.seat.team
    wins = 0
    for _ in range(samples):
        game = _replay(view, sample_world(k, rng))
        game.apply(DecideBam(view.seat, True))
        while game.phase is Phase.PLAY and game.to_move is not None:
            seat = game.to_move
            game.apply(Play.of(seat, bot.choose_card(view_of(game, seat))))
        result = game.hand_results[-1]
        wins += result.winner_team == team and result.result in ("bam", "par_bam")
    return wins / samples if samples else 0.0


def bam_pays(view: SeatView, *, samples: int = 24, seed: str = "bam") -> bool:
    """Whether going on for all 13 tricks is worth more points than stopping at the kot."""
    if view.seat is None or samples <= 0:
        return False
    rules = view.rules
    team = view.seat.team
    hakem_team = None if view.hakem is None else view.hakem.team
    kot = rules.kot_points if hakem_team == team else rules.hakem_kot_points
    won_game = max(rules.target_points - view.score[team], kot)
    failed = kot if rules.failed_bam == "kot" else -3
    if failed >= kot:
        return True  # nothing to lose
    p = estimate_bam(view, samples=samples, seed=seed)
    return p * won_game + (1 - p) * failed > kot
