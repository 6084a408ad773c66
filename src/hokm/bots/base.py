"""The bot interface: a bot sees one seat's view and its legal actions, nothing else.

>>> from hokm.engine import Game, RuleSet, Deal, Seat, view_of
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("bot", Seat(0)))
>>> bot = RandomBot(seed=1)
>>> action = bot.act(view_of(game, Seat(0)))
>>> game.can(action)
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from hokm.engine import (
    Action,
    Card,
    ChooseTrump,
    DecideBam,
    Phase,
    Play,
    RequestRedeal,
    SeatView,
    Suit,
    action_from_dict,
)

__all__ = ["Bot", "CardBot", "RandomBot", "legal_actions_of", "legal_cards_of"]


def legal_actions_of(view: SeatView) -> list[Action]:
    """The view's legal actions, parsed."""
    return [action_from_dict(a) for a in view.legal]


def legal_cards_of(view: SeatView) -> list[Card]:
    """The cards the view's seat may play now (empty outside its turn to play)."""
    return [Card.parse(a["card"]) for a in view.legal if a["type"] == "play"]


class Bot(ABC):
    """A computer player for one seat. Deterministic for a given seed and view sequence."""

    name: str = "bot"

    def __init__(self, *, seed: int | str = 0) -> None:
        self.seed = seed
        self.rng = random.Random(str(seed))

    @abstractmethod
    def act(self, view: SeatView) -> Action:
        """Choose one of ``view.legal``. Called only when the view's seat has legal actions."""


class RandomBot(Bot):
    """Uniformly random legal play: the baseline yardstick."""

    name = "random"

    def act(self, view: SeatView) -> Action:
        actions = legal_actions_of(view)
        if not actions:
            raise ValueError("the bot was asked to act with no legal action")
        return self.rng.choice(actions)


class CardBot(Bot):
    """A bot made of four decisions: trump, redeal request, bam, and the card to play.

    ``act`` dispatches on the phase and always returns one of ``view.legal``.
    """

    def act(self, view: SeatView) -> Action:
        seat = view.seat
        if seat is None or not view.legal:
            raise ValueError("the bot was asked to act with no legal action")
        kinds = {a["type"] for a in view.legal}
        if view.phase is Phase.PLAY and "play" in kinds:
            return Play.of(seat, self.choose_card(view))
        if view.phase is Phase.TRUMP and "choose_trump" in kinds:
            if "request_redeal" in kinds and self.wants_redeal(view):
                return RequestRedeal(seat)
            return ChooseTrump(seat, self.choose_trump(view))
        if view.phase is Phase.BAM and "decide_bam" in kinds:
            return DecideBam(seat, self.decide_bam(view))
        return legal_actions_of(view)[0]  # pragma: no cover - every phase is handled above

    @abstractmethod
    def choose_card(self, view: SeatView) -> Card:
        """The card to play; one of :func:`legal_cards_of`."""

    @abstractmethod
    def choose_trump(self, view: SeatView) -> Suit:
        """The trump suit, seeing the hakem's first five cards."""

    def wants_redeal(self, view: SeatView) -> bool:
        """Whether to ask for a new deal (asked only when the weak-five option allows it)."""
        return False

    def decide_bam(self, view: SeatView) -> bool:
        """Whether to go on for all 13 tricks at 7–0."""
        return False
