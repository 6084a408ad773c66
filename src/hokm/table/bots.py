"""Bots at the table: which bot plays a seat, and a function a worker can run.

``choose_bot_action(turn)`` is pure and picklable-friendly: it builds the bot of the turn's
level, seeded from the turn, and returns its action for the turn's :class:`SeatView`. Run it
in a thread or process pool so a thinking bot never delays another table.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from hokm.bots import Bot, RandomBot
from hokm.engine import Action
from hokm.table.model import BotTurn

__all__ = ["choose_bot_action", "make_table_bot"]


def make_table_bot(level: str, *, seed: int | str = 0) -> Bot:
    """The bot of ``level``: ``hokm.bots.make_bot`` when it exists and knows the level,
    else :class:`~hokm.bots.RandomBot` (always legal)."""
    if level != "random":
        factory: Callable[..., Any] | None = getattr(
            importlib.import_module("hokm.bots"), "make_bot", None
        )
        if factory is not None:
            for name in (level, "medium"):
                try:
                    bot = factory(name, seed=seed)
                except (ValueError, KeyError, TypeError):
                    continue
                if isinstance(bot, Bot):
                    return bot
    return RandomBot(seed=seed)


def choose_bot_action(turn: BotTurn) -> Action:
    """The action the bot of ``turn.level`` takes for ``turn.view`` (always a legal one)."""
    bot = make_table_bot(turn.level, seed=turn.seed)
    action = bot.act(turn.view)
    legal = turn.view.legal
    if action.to_dict() not in legal:  # a buggy bot never blocks or breaks a table
        action = RandomBot(seed=turn.seed).act(turn.view)
    return action
