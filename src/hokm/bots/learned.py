"""A learned value of each card early in the hand, for the search bot's first tricks.

Sampled worlds cannot tell the early cards apart (``docs/search.md``, "Known limits"): the first
leads are where the rule bot loses most and where double-dummy search on sampled worlds fixes
as many cards as it breaks. This module gives a second opinion learned from play instead.

Training (``scripts/train_early_value.py``) plays many hands with rule bots in the four seats.
At every decision of the first tricks it plays each legal card and then the rest of the hand
with rule bots on the *real* deal (:class:`hokm.bots.rollout.Playout`), and records the points
won. The real deal is used only to make the label; the model's inputs are what the seat knows
(:func:`card_features` reads only :class:`~hokm.bots.knowledge.Knowledge`, built from the seat's
view). A regression on many such labels estimates each card's value averaged over the deals
consistent with what the seat has seen, as they really arise in play, which is what sampled
worlds try to approximate. Labels are centred per decision, so the model learns how much better
or worse a card is than the decision's average card.

The model is a gradient-boosted tree ensemble trained with LightGBM and shipped as a small JSON
file (``data/early_value.json``); :class:`TreeModel` evaluates it in plain Python, so playing
needs neither LightGBM nor NumPy.

>>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit, view_of
>>> from hokm.bots.rule import RuleBot
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("learned", Seat(0)))
>>> _ = game.choose_trump(Suit.HEARTS)
>>> view = view_of(game, Seat(0))
>>> cards = sorted(view.hand)
>>> rows = card_features(Knowledge.from_view(view), cards, RuleBot().choose_card(view))
>>> len(rows) == len(cards) and all(len(r) == FEATURES for r in rows)
True
>>> values = early_value_model().values(rows)
>>> len(values) == len(cards)
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from hokm.bots.knowledge import SUIT_MASKS, Knowledge, beats
from hokm.engine import Card

__all__ = ["FEATURES", "TreeModel", "card_features", "early_value_model"]

FEATURES = 51  # the length of a row of card_features


def card_features(k: Knowledge, cards: Sequence[Card], rule_card: Card) -> list[list[float]]:
    """One row of numbers per candidate card: the position as the seat knows it, then the card.

    The columns (their order is the model's, do not change it without retraining):
    tricks played, tricks won by us and by them, our side is the hakem's, I am the hakem,
    cards already in the trick, my trumps, unseen trumps, my cards, the led suit is trump, my
    partner is winning the trick, my masters, the rank of the trick's best card, a trump is
    winning a side-suit trick; for each other seat (left, partner, right) a known trump void
    and "probably no trump"; my three side-suit lengths, longest first. Then for the card: it is
    a trump, its rank, unseen cards above it, my cards above and below it in its suit, my length
    in the suit, unseen and played cards of the suit, unseen cards below it, it is the rule
    bot's card, it is my lowest / highest of the suit, my Q-K-A count in the suit, I hold the
    suit's ace, it would win the trick so far, it follows / ruffs / discards; for each other
    seat a void in the suit and its cap in the suit; opponents void in the suit who still may
    ruff, my partner may ruff it, opponents to play after me who are void in it, seats to play
    after me.
    """
    if k.trump is None or k.hakem is None:
        raise ValueError("card features need a trump and a hakem")
    me = int(k.seat)
    team = me & 1
    trump = k.trump
    t = trump.ordinal
    hand = k.hand_mask
    unseen = k.unseen
    played = k.played
    trick = k.trick
    pos = len(trick)
    hakem_team = int(k.hakem) & 1
    others = [(me + r) & 3 for r in (1, 2, 3)]
    best: Card | None = None
    best_seat = -1
    for seat, card in trick:
        if best is None or beats(card, best, trump):
            best, best_seat = card, int(seat)
    partner_winning = 1.0 if best_seat >= 0 and (best_seat & 1) == team else 0.0
    led = trick[0][1].suit_index if trick else -1
    masters = 0
    for s in range(4):
        held = hand & SUIT_MASKS[s]
        higher_unseen = unseen & SUIT_MASKS[s]
        while held:
            low = held & -held
            if not higher_unseen >> (low.bit_length() - 1):
                masters += 1
            held ^= low
    common: list[float] = [
        k.tricks_played,
        k.tricks_won[team],
        k.tricks_won[1 - team],
        float(team == hakem_team),
        float(me == int(k.hakem)),
        pos,
        (hand & SUIT_MASKS[t]).bit_count(),
        (unseen & SUIT_MASKS[t]).bit_count(),
        hand.bit_count(),
        float(led == t),
        partner_winning,
        masters,
        best.rank if best is not None else 0,
        float(best is not None and best.suit_index == t and led != t),
    ]
    for other in others:
        common.append(float(k.voids[other] >> t & 1))
        common.append(float(k.likely_no_trump[other]))
    common.extend(
        sorted(((hand & SUIT_MASKS[s]).bit_count() for s in range(4) if s != t), reverse=True)
    )
    after = [(me + j) & 3 for j in range(1, 4 - pos)]
    rows: list[list[float]] = []
    for card in cards:
        s = card.suit_index
        i = card.index
        suit_mask = SUIT_MASKS[s]
        own = hand & suit_mask
        suit_unseen = unseen & suit_mask
        above = ~((1 << (i + 1)) - 1)
        below = (1 << i) - 1
        row = list(common)
        row += [
            float(s == t),
            card.rank,
            (suit_unseen & above).bit_count(),
            (own & above).bit_count(),
            (own & below).bit_count(),
            own.bit_count(),
            suit_unseen.bit_count(),
            (played & suit_mask).bit_count(),
            (suit_unseen & below).bit_count(),
            float(card == rule_card),
            float(not own & below),
            float(not own & above),
            (own & ~((1 << (13 * s + 10)) - 1)).bit_count(),
            float(own >> (13 * s + 12) & 1),
            float(best is None or beats(card, best, trump)),
            float(led >= 0 and s == led),
            float(led >= 0 and s != led and s == t),
            float(led >= 0 and s != led and s != t),
        ]
        may_ruff = 0
        for j, other in enumerate(others):
            void = k.voids[other] >> s & 1
            row.append(float(void))
            row.append(float(k.caps[other][s]))
            if j != 1 and void and not k.voids[other] >> t & 1 and s != t:
                may_ruff += 1
        row.append(may_ruff)
        partner = others[1]
        row.append(
            float(bool(k.voids[partner] >> s & 1) and not k.voids[partner] >> t & 1 and s != t)
        )
        row.append(sum(1 for q in after if k.voids[q] >> s & 1 and (q & 1) != team))
        row.append(len(after))
        rows.append(row)
    return rows


class TreeModel:
    """A regression tree ensemble (LightGBM's ``<=`` splits) evaluated in plain Python.

    Each tree is ``[features, thresholds, left, right, leaf_values, root]``; a child index
    ``< 0`` is the leaf ``-index - 1``.

    >>> model = TreeModel({"trees": [[[0], [1.5], [-1], [-2], [0.25, -0.5], 0]]}, features=1)
    >>> model.value([1.0]), model.value([2.0])
    (0.25, -0.5)
    """

    def __init__(self, data: dict[str, Any], *, features: int = FEATURES) -> None:
        trees = data.get("trees")
        if not isinstance(trees, list) or not trees:
            raise ValueError("a tree model needs a non-empty list of trees")
        self.trees: list[tuple[list[int], list[float], list[int], list[int], list[float], int]]
        self.trees = []
        try:
            for number, (f, th, lt, rt, vals, root) in enumerate(trees):
                tree = (
                    [int(x) for x in f],
                    [float(x) for x in th],
                    [int(x) for x in lt],
                    [int(x) for x in rt],
                    [float(v) for v in vals],
                    int(root),
                )
                _check_tree(tree, features, number)
                self.trees.append(tree)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a tree model: {exc}") from exc
        self.meta: dict[str, Any] = dict(data.get("meta", {}))

    def value(self, row: Sequence[float]) -> float:
        """The model's value of one row."""
        total = 0.0
        for feature, threshold, left, right, leaves, node in self.trees:
            while node >= 0:
                node = left[node] if row[feature[node]] <= threshold[node] else right[node]
            total += leaves[-node - 1]
        return total

    def values(self, rows: Sequence[Sequence[float]]) -> list[float]:
        return [self.value(row) for row in rows]


def _check_tree(
    tree: tuple[list[int], list[float], list[int], list[int], list[float], int],
    features: int,
    number: int,
) -> None:
    """Every split reads a known feature and every child lies further down (so evaluation
    always ends at a leaf)."""
    feature, threshold, left, right, leaves, root = tree
    nodes = len(feature)
    if not (len(threshold) == len(left) == len(right) == nodes) or len(leaves) != nodes + 1:
        raise ValueError(f"tree {number} has inconsistent lengths")
    if not all(0 <= f < features for f in feature):
        raise ValueError(f"tree {number} reads a feature outside 0…{features - 1}")
    if not (root == 0 if nodes else root == -1):
        raise ValueError(f"tree {number} has a bad root")
    for i in range(nodes):
        for child in (left[i], right[i]):
            if not (i < child < nodes or -len(leaves) <= child < 0):
                raise ValueError(f"tree {number}: node {i} has a bad child {child}")


@functools.cache
def early_value_model() -> TreeModel:
    """The shipped model of the first tricks' card values (loaded once, checked)."""
    text = resources.files("hokm.bots").joinpath("data/early_value.json").read_text("utf-8")
    model = TreeModel(json.loads(text))
    if model.meta.get("features") != FEATURES:
        raise ValueError("the learned model was trained on other features: retrain it")
    return model
