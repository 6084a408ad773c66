"""Bots at the table: which bot plays a seat, and a function a worker can run.

``choose_bot_action(turn)`` is pure and picklable-friendly: it builds the bot of the turn's
level, seeded from the turn, and returns its action for the turn's :class:`SeatView`. Run it
in a thread or process pool so a thinking bot never delays another table.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from hokm.bots import Bot, RandomBot
from hokm.engine import Action
from hokm.table.model import BotTurn

__all__ = ["choose_bot_action", "make_table_bot"]

log = logging.getLogger(__name__)


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
    """The action the bot of ``turn.level`` takes for ``turn.view`` (always a legal one).

    A buggy bot never blocks or breaks a table: an illegal action, or an error (logged), and
    the rule bot decides instead (the random bot if the rule bot fails too)."""
    legal = turn.view.legal
    for level in dict.fromkeys((turn.level, "medium")):
        try:
            action = make_table_bot(level, seed=turn.seed).act(turn.view)
        except Exception:
            log.exception("the %s bot failed on a turn of seat %d", level, turn.seat)
            continue
        if action.to_dict() in legal:
            return action
        log.error("the %s bot chose an illegal action: %s", level, action.to_dict())
    return RandomBot(seed=turn.seed).act(turn.view)
