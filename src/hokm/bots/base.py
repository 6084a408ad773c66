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

from hokm.engine import Action, SeatView, action_from_dict

__all__ = ["Bot", "RandomBot", "legal_actions_of"]


def legal_actions_of(view: SeatView) -> list[Action]:
    """The view's legal actions, parsed."""
    return [action_from_dict(a) for a in view.legal]


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
