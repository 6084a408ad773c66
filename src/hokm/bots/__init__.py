"""Bots: computer players that see only one seat's view."""

from hokm.bots.base import Bot, RandomBot, legal_actions_of

__all__ = ["Bot", "RandomBot", "legal_actions_of"]
