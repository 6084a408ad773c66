"""Accounts, sessions, rating with tiers, account points, leaderboard and quick match.

The pure parts (:mod:`~hokm.accounts.rating`, :mod:`~hokm.accounts.matchmaking`,
:mod:`~hokm.accounts.points`, :mod:`~hokm.accounts.security`) do no I/O and take time as an
argument; :mod:`~hokm.accounts.store` keeps them in the database; the server's
``hokm.server.accounts_api`` exposes them over HTTP. See ``docs/accounts.md``.
"""

from hokm.accounts.errors import AccountError
from hokm.accounts.matchmaking import Match, MatchmakingConfig, QuickMatchQueue
from hokm.accounts.points import points_for_game
from hokm.accounts.rating import RatedGame, Rating, Tier, rating_updates, tier_of

__all__ = [
    "AccountError",
    "Match",
    "MatchmakingConfig",
    "QuickMatchQueue",
    "RatedGame",
    "Rating",
    "Tier",
    "points_for_game",
    "rating_updates",
    "tier_of",
]
