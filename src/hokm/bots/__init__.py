"""Bots: computer players that see only one seat's view.

:func:`make_bot` builds a bot by level: ``random``, ``naive`` (fixed yardsticks), ``easy``,
``medium`` (the rule bot) and ``hard`` (the search bot when it is available, else the rule bot).
``rule`` and ``search`` are accepted as names too.

>>> make_bot("medium", seed=3).name
'rule'
>>> make_bot("expert", seed=0)
Traceback (most recent call last):
...
ValueError: unknown bot level 'expert': choose one of random, naive, easy, medium, hard
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from hokm.bots.base import Bot, CardBot, RandomBot, legal_actions_of, legal_cards_of
from hokm.bots.naive import EasyBot, NaiveBot
from hokm.bots.rule import RuleBot

__all__ = [
    "LEVELS",
    "Bot",
    "CardBot",
    "EasyBot",
    "NaiveBot",
    "RandomBot",
    "RuleBot",
    "legal_actions_of",
    "legal_cards_of",
    "make_bot",
    "search_bot_class",
]

LEVELS: tuple[str, ...] = ("random", "naive", "easy", "medium", "hard")
_ALIASES = {"rule": "medium", "search": "hard"}


def search_bot_class() -> type[Bot]:
    """``hokm.bots.search.SearchBot`` when that module imports, else :class:`RuleBot`."""
    try:
        module = importlib.import_module("hokm.bots.search")
    except ImportError:
        return RuleBot
    cls = getattr(module, "SearchBot", None)
    if isinstance(cls, type) and issubclass(cls, Bot):
        return cls
    return RuleBot


def _hard(seed: int | str) -> Bot:
    return search_bot_class()(seed=seed)


_FACTORIES: dict[str, Callable[[int | str], Bot]] = {
    "random": lambda seed: RandomBot(seed=seed),
    "naive": lambda seed: NaiveBot(seed=seed),
    "easy": lambda seed: EasyBot(seed=seed),
    "medium": lambda seed: RuleBot(seed=seed),
    "hard": _hard,
}


def make_bot(level: str, *, seed: int | str = 0) -> Bot:
    """A bot of ``level`` (see the module docstring), deterministic for ``seed``."""
    key = _ALIASES.get(level, level)
    factory = _FACTORIES.get(key)
    if factory is None:
        raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    return factory(seed)
