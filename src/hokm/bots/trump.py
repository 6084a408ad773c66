"""Trump choice from the hakem's first five cards, and the weak-five redeal decision.

Policies (compared on duplicate boards, see ``docs/bots.md``):

* ``longest``: the longest suit, ties broken by the honours held (RULES.md §4: "the suit with
  most/strongest cards"). The yardstick every tier can use.
* ``strength`` (default): each suit scores its length plus weighted honours, so a strong
  three-card suit beats a weak three-card suit and a bare A-K may beat three small cards.

>>> from hokm.engine import parse_cards
>>> choose_trump_suit(parse_cards("AS KS 2H 3H 4H"), policy="longest")
<Suit.HEARTS: 'H'>
>>> choose_trump_suit(parse_cards("AS KS QS 2H 3H"))
<Suit.SPADES: 'S'>
"""

from __future__ import annotations

from collections.abc import Sequence

from hokm.engine import Card, Rank, Suit

__all__ = ["TRUMP_POLICIES", "choose_trump_suit", "suit_scores", "wants_redeal"]

TRUMP_POLICIES = ("longest", "strength")

# Honour weights for the ``strength`` policy, in units of one card of length.
_HONOUR = {Rank.ACE: 1.0, Rank.KING: 0.75, Rank.QUEEN: 0.5, Rank.JACK: 0.25, Rank.TEN: 0.1}


def suit_scores(cards: Sequence[Card], *, policy: str = "strength") -> dict[Suit, float]:
    """The score of each suit as trump under ``policy`` (higher is better)."""
    if policy not in TRUMP_POLICIES:
        raise ValueError(f"unknown trump policy {policy!r}: use {', '.join(TRUMP_POLICIES)}")
    scores: dict[Suit, float] = {}
    for suit in Suit:
        ranks = [c.rank for c in cards if c.suit is suit]
        if policy == "longest":
            scores[suit] = len(ranks) * 100 + sum(ranks) / 100
        else:
            scores[suit] = len(ranks) + sum(_HONOUR.get(r, 0.0) for r in ranks) + sum(ranks) / 1000
    return scores


def choose_trump_suit(cards: Sequence[Card], *, policy: str = "strength") -> Suit:
    """The suit to name as trump from ``cards`` (the hakem's first five)."""
    scores = suit_scores(cards, policy=policy)
    return max(Suit, key=lambda s: (scores[s], -s.ordinal))


def wants_redeal(cards: Sequence[Card]) -> bool:
    """Ask for a new deal when the five hold no card of rank 10 or more (when allowed).

    Such a five is below an average five, and a redeal is an average five. On duplicate boards
    the gain is small (within noise, ``docs/benchmarks.md``).
    """
    return all(c.rank < Rank.TEN for c in cards)
