"""Fixed yardsticks: the naive bot and the easy bot.

* :class:`NaiveBot`: win the trick with the highest card if any card wins, otherwise play the
  lowest card; trump is the longest suit. It never goes for bam.
* :class:`EasyBot` (level "easy"): the naive bot plus two habits of a beginner: it does not
  beat a partner who is already winning, and it wins with the cheapest winning card.

>>> from hokm.engine import Game, RuleSet, Deal, Seat, view_of
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("naive", Seat(0)))
>>> game.can(NaiveBot().act(view_of(game, Seat(0))))
True
"""

from __future__ import annotations

from hokm.bots.base import CardBot, legal_cards_of
from hokm.bots.knowledge import beats, current_winner
from hokm.bots.trump import choose_trump_suit
from hokm.engine import Card, SeatView, Suit

__all__ = ["EasyBot", "NaiveBot"]


class NaiveBot(CardBot):
    """Highest card if it wins the trick, else the lowest card."""

    name = "naive"

    def choose_trump(self, view: SeatView) -> Suit:
        return choose_trump_suit(view.hand, policy="longest")

    def choose_card(self, view: SeatView) -> Card:
        cards = legal_cards_of(view)
        trump = view.trump
        if not view.trick:
            return max(cards, key=lambda c: (c.rank, c.suit is not trump, c.index))
        _, best = current_winner(view.trick, trump)
        winners = [c for c in cards if beats(c, best, trump)]
        if winners:
            return max(winners, key=lambda c: (c.suit is trump and best.suit is not trump, c.rank))
        return min(cards, key=lambda c: (c.suit is trump, c.rank, c.index))


class EasyBot(NaiveBot):
    """The naive bot that lets a winning partner win and wins as cheaply as it can."""

    name = "easy"

    def choose_card(self, view: SeatView) -> Card:
        cards = legal_cards_of(view)
        trump = view.trump
        if not view.trick:
            return max(cards, key=lambda c: (c.rank, c.suit is not trump, c.index))
        assert view.seat is not None
        best_seat, best = current_winner(view.trick, trump)
        winners = [c for c in cards if beats(c, best, trump)]
        if winners and best_seat != view.seat.partner:
            return min(winners, key=lambda c: (c.suit is trump, c.rank))
        return min(cards, key=lambda c: (c.suit is trump, c.rank, c.index))
